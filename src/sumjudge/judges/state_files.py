"""Read sources kept on disk: llama.cpp states that outlive the process that computed them.

A yes/no reader (:class:`~sumjudge.judges.next_token.YesNoModel`) reads a source once and keeps its
state (the key-value cache of that sequence) in memory; :class:`StateFiles` keeps it on disk as well,
so that the next process of the same model reading the same head (a later run, or the one after a
killed run) restores it instead of evaluating the source again.

- key: sha256 of the model's identity (its file's digest), llama.cpp's version, the context size and
  the head's tokens (the rendered system prompt, layout and source): another model, build, context or
  layout is another file;
- a file is ``<key>.state``: a header (magic, the key, the payload's length and sha256) and the
  payload. It is written to a temporary file in the same folder and renamed (atomic), so a reader never
  sees a part of one; a file whose key, length or digest does not match (another source's file copied
  over, a disk fault, an edit) is deleted and not used, and so is anything at a state's path that is
  not a regular file (a FIFO would block the read for ever);
- bounded: after each write the oldest files (by last use: a hit touches its file) are deleted until
  the folder holds at most ``max_bytes``. A 1,000-token source of the 1.5B reader is about 28 MB.
  Temporary files count, and one no writer touched for :data:`STALE_PART_S` (left by a killed
  process) is deleted, at the first use of the folder and after each write.

Folder: ``$XDG_CACHE_HOME/sumjudge/states`` (``~/.cache/...``), beside the joined models.
"""

from __future__ import annotations

import hashlib
import os
import stat
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path

_MAGIC = b"SJSTATE2"
_KEY = len(_MAGIC) + 32
_HEADER = _KEY + 8 + 32
HEADER_BYTES = _HEADER
"""Bytes a file holds besides its state (magic, key, length, digest)."""
STALE_PART_S = 600.0
"""Seconds after which a temporary file no write has touched is a killed writer's, and deleted (a write
of the largest state takes about a second)."""


def states_dir() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "sumjudge" / "states"


class StateFiles:
    """States on disk by key, at most ``max_bytes`` in all (least recently used out). Safe to share
    between threads and processes (every write is a rename; a vanished file is a miss)."""

    def __init__(self, identity: str | Callable[[], str], max_bytes: int, folder: Path | None = None) -> None:
        """``identity``: what the states depend on besides the head's tokens (or a function that says
        it, called once, when first needed: a user's model file is hashed only then)."""
        self._identity = identity
        self.max_bytes = max_bytes
        self.folder = folder or states_dir()
        self._lock = threading.Lock()
        self._swept = False

    @property
    def identity(self) -> str:
        if callable(self._identity):
            self._identity = self._identity()
        return self._identity

    def key(self, tokens: tuple[int, ...]) -> str:
        digest = hashlib.sha256(self.identity.encode("utf-8") + b"\0")
        digest.update(b",".join(str(t).encode() for t in tokens))
        return digest.hexdigest()

    def path(self, tokens: tuple[int, ...]) -> Path:
        return self.folder / f"{self.key(tokens)}.state"

    def get(self, tokens: tuple[int, ...]) -> bytes | None:
        if self.max_bytes <= 0:
            return None
        self._sweep_once()
        key = self.key(tokens)
        blob = self._read(self.path(tokens))
        if blob is None:
            return None
        payload = blob[_HEADER:]
        length = int.from_bytes(blob[_KEY : _KEY + 8], "little") if len(blob) >= _HEADER else -1
        if not blob.startswith(_MAGIC) or blob[len(_MAGIC) : _KEY] != bytes.fromhex(key) or length != len(payload) \
                or hashlib.sha256(payload).digest() != blob[_KEY + 8 : _HEADER]:
            self.discard(tokens)
            return None
        try:
            os.utime(self.path(tokens))  # last used: kept longest
        except OSError:
            pass
        return payload

    def _read(self, path: Path) -> bytes | None:
        """The file's bytes; None when it is missing, unreadable, not a regular file (a FIFO, a device:
        deleted, never waited on) or larger than the folder's bound (not a state this folder keeps)."""
        try:
            fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
        except OSError:
            return None
        try:
            st = os.fstat(fd)
            if not stat.S_ISREG(st.st_mode) or st.st_size > self.max_bytes:
                path.unlink(missing_ok=True)
                return None
            with os.fdopen(fd, "rb", closefd=False) as f:
                return f.read(self.max_bytes + 1)
        except OSError:
            return None
        finally:
            os.close(fd)

    def put(self, tokens: tuple[int, ...], state: bytes) -> None:
        if self.max_bytes <= 0 or len(state) + _HEADER > self.max_bytes:
            return
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(prefix=".", suffix=".part", dir=self.folder)
            try:
                with os.fdopen(fd, "wb") as f:
                    f.write(_MAGIC + bytes.fromhex(self.key(tokens)) + len(state).to_bytes(8, "little"))
                    f.write(hashlib.sha256(state).digest())
                    f.write(state)
                os.replace(tmp, self.path(tokens))
            finally:
                Path(tmp).unlink(missing_ok=True)
            self._trim()
        except OSError:  # a full or read-only disk: the state stays in memory only
            return

    def discard(self, tokens: tuple[int, ...]) -> None:
        try:
            self.path(tokens).unlink(missing_ok=True)
        except OSError:  # a read-only folder: the file stays, and is refused again when read
            pass

    def _files(self) -> list[tuple[float, int, Path]]:
        """(last use, size, path) of every state and temporary file in the folder."""
        files = []
        for p in [*self.folder.glob("*.state"), *self.folder.glob(".*.part")]:
            try:
                st = p.lstat()
            except OSError:
                continue
            files.append((st.st_mtime, st.st_size, p))
        return files

    def _sweep_once(self) -> None:
        if not self._swept:
            self._swept = True
            try:
                self._trim()
            except OSError:
                pass

    def _trim(self) -> None:
        with self._lock:
            if not self.folder.is_dir():
                return
            stale = time.time() - STALE_PART_S
            files = []
            for used, size, p in self._files():
                if p.suffix == ".part" and used < stale:  # a killed writer's
                    p.unlink(missing_ok=True)
                else:
                    files.append((used, size, p))
            total = sum(size for _, size, _ in files)
            for _, size, p in sorted(files):
                if total <= self.max_bytes:
                    break
                if p.suffix == ".state":  # a live writer's temporary file is left to it
                    p.unlink(missing_ok=True)
                    total -= size

    def bytes(self) -> int:
        """Bytes the folder holds: states and temporary files."""
        return sum(size for _, size, _ in self._files()) if self.folder.is_dir() else 0


__all__ = ["HEADER_BYTES", "STALE_PART_S", "StateFiles", "states_dir"]
