"""Read sources kept on disk: llama.cpp states that outlive the process that computed them.

A yes/no reader (:class:`~sumjudge.judges.next_token.YesNoModel`) reads a source once and keeps its
state (the key-value cache of that sequence) in memory; :class:`StateFiles` keeps it on disk as well,
so that the next process of the same model reading the same head (a later run, or the one after a
killed run) restores it instead of evaluating the source again.

- key: sha256 of the model's identity (its file's digest), llama.cpp's version, the context size and
  the head's tokens (the rendered system prompt, layout and source): another model, build, context or
  layout is another file;
- a file is ``<key>.state``: a header (magic, the payload's length and sha256) and the payload. It is
  written to a temporary file in the same folder and renamed (atomic), so a reader never sees a part
  of one; a file whose length or digest does not match (a disk fault, an edit) is deleted and not
  used;
- bounded: after each write the oldest files (by last use: a hit touches its file) are deleted until
  the folder holds at most ``max_bytes``. A 1,000-token source of the 1.5B reader is about 28 MB.

Folder: ``$XDG_CACHE_HOME/sumjudge/states`` (``~/.cache/...``), beside the joined models.
"""

from __future__ import annotations

import hashlib
import os
import tempfile
import threading
from collections.abc import Callable
from pathlib import Path

_MAGIC = b"SJSTATE1"
_HEADER = len(_MAGIC) + 8 + 32


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
        path = self.path(tokens)
        try:
            blob = path.read_bytes()
        except OSError:
            return None
        payload = blob[_HEADER:]
        length = int.from_bytes(blob[len(_MAGIC) : len(_MAGIC) + 8], "little") if len(blob) >= _HEADER else -1
        if not blob.startswith(_MAGIC) or length != len(payload) or hashlib.sha256(payload).digest() != blob[len(_MAGIC) + 8 : _HEADER]:
            self.discard(tokens)
            return None
        try:
            os.utime(path)  # last used: kept longest
        except OSError:
            pass
        return payload

    def put(self, tokens: tuple[int, ...], state: bytes) -> None:
        if self.max_bytes <= 0 or len(state) + _HEADER > self.max_bytes:
            return
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(prefix=".", suffix=".part", dir=self.folder)
            try:
                with os.fdopen(fd, "wb") as f:
                    f.write(_MAGIC + len(state).to_bytes(8, "little") + hashlib.sha256(state).digest())
                    f.write(state)
                os.replace(tmp, self.path(tokens))
            finally:
                Path(tmp).unlink(missing_ok=True)
            self._trim()
        except OSError:  # a full or read-only disk: the state stays in memory only
            return

    def discard(self, tokens: tuple[int, ...]) -> None:
        self.path(tokens).unlink(missing_ok=True)

    def _trim(self) -> None:
        with self._lock:
            files = []
            for p in self.folder.glob("*.state"):
                try:
                    st = p.stat()
                except OSError:
                    continue
                files.append((st.st_mtime, st.st_size, p))
            total = sum(size for _, size, _ in files)
            for _, size, p in sorted(files):
                if total <= self.max_bytes:
                    break
                p.unlink(missing_ok=True)
                total -= size

    def bytes(self) -> int:
        return sum(p.stat().st_size for p in self.folder.glob("*.state")) if self.folder.is_dir() else 0


__all__ = ["StateFiles", "states_dir"]
