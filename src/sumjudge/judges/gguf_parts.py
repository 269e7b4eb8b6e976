"""A GGUF model shipped in parts inside Python wheels: joined once into the user's cache, its digest
checked on every load.

Some public packages carry a model's bytes as numbered chunks (``<dist>-part1`` ... ``-partN``, one
``data/partNN.bin`` each; nothing is downloaded at run time). :func:`joined_model` finds the installed
parts through each distribution's file list, concatenates them in part order into
``$XDG_CACHE_HOME/sumjudge/models/<file>`` (``~/.cache/...`` without it) through a temporary file in the
same folder and an atomic rename, so a reader never sees a half-written file and two processes joining
at once each rename a whole one. :func:`verify_model` hashes the file (sha256) and compares it with the
digest recorded here: a partial or altered file is a :class:`~sumjudge.errors.ConfigurationError`
naming it and how to rebuild it, never loaded. Hashing 1.1 GB takes about a second and a half
(docs/results.md), once per process, beside the seconds llama.cpp takes to load it.

Joining takes a minute or so on a slow disk, once: it says so on standard error as it goes (what is
joined, from which distributions, into which file, and how far it is), whoever called it: it runs
before any command's progress display exists, and a silent minute reads as a hang.
"""

from __future__ import annotations

import hashlib
import importlib.metadata
import os
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

from ..errors import ConfigurationError, MissingDependencyError

_CHUNK = 1 << 22


@dataclass(frozen=True)
class PartedModel:
    """One model: the distributions that hold its parts, and the joined file's name, size and digest."""

    label: str
    """What the model is, for messages and the NOTICE (e.g. ``Qwen2.5-Coder-1.5B-Instruct Q4_K_M``)."""
    dist_prefix: str
    """Parts are the distributions ``<dist_prefix>1`` ... ``<dist_prefix><parts>``."""
    parts: int
    filename: str
    size: int
    sha256: str
    install: str
    """The line that installs the parts."""

    def distributions(self) -> list[str]:
        return [f"{self.dist_prefix}{i}" for i in range(1, self.parts + 1)]


def cache_dir() -> Path:
    """``$XDG_CACHE_HOME/sumjudge/models``, or ``~/.cache/sumjudge/models``."""
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "sumjudge" / "models"


def _default_part_files(dist: str) -> list[Path]:
    try:
        files = importlib.metadata.files(dist) or []
    except importlib.metadata.PackageNotFoundError:
        return []
    return [Path(str(f.locate())) for f in files if str(f).endswith(".bin")]


PartFinder = Callable[[str], list[Path]]
"""``distribution name -> the .bin files it installed`` (the installed file list; tests pass their own)."""


def part_paths(model: PartedModel, find: PartFinder = _default_part_files) -> list[Path]:
    """The installed part files in part order, or :class:`MissingDependencyError` naming the missing ones."""
    out: list[Path] = []
    missing: list[str] = []
    for dist in model.distributions():
        found = [p for p in find(dist) if p.is_file()]
        if len(found) != 1:
            missing.append(dist)
        else:
            out.append(found[0])
    if missing:
        shown = ", ".join(missing[:3]) + (f" and {len(missing) - 3} more" if len(missing) > 3 else "")
        raise MissingDependencyError(f"the {model.label} model parts ({shown})", model.install)
    return out


def file_sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        while block := f.read(_CHUNK):
            digest.update(block)
    return digest.hexdigest()


def verify_model(model: PartedModel, path: Path) -> None:
    """Raise :class:`ConfigurationError` unless ``path`` has the model's size and sha256."""
    size = path.stat().st_size
    if size != model.size:
        raise ConfigurationError(
            f"{path} is not the {model.label} model: {size} bytes, expected {model.size} (a partial or "
            f"foreign file); delete it and it is joined again from the installed parts"
        )
    got = file_sha256(path)
    if got != model.sha256:
        raise ConfigurationError(
            f"{path} is not the {model.label} model: sha256 {got[:16]}..., expected {model.sha256[:16]}...; "
            f"delete it and it is joined again from the installed parts ({model.install})"
        )


class JoinProgress:
    """One line on ``stream`` while a model's parts are joined: rewritten in place on a terminal
    (``\\r``), else a line at the start and one at the end (a log file gets no hundred updates)."""

    def __init__(self, model: PartedModel, target: Path, stream: TextIO | None = None) -> None:
        self.model = model
        self.stream = stream if stream is not None else sys.stderr
        self.live = bool(getattr(self.stream, "isatty", lambda: False)())
        self.started = time.monotonic()
        self._shown = -1
        first, last = model.distributions()[0], model.distributions()[-1]
        self._say(
            f"sumjudge: joining the {model.label} model ({model.size / 1e9:.2f} GB) from its {model.parts} "
            f"installed wheels ({first} ... {last}) into {target}, once; its sha256 is checked after",
            end="" if self.live else "\n",
        )

    def _say(self, text: str, end: str = "\n") -> None:
        try:
            self.stream.write(text + end)
            self.stream.flush()
        except (OSError, ValueError):  # a closed stream never stops a join
            pass

    def update(self, done: int) -> None:
        percent = min(100, done * 100 // max(1, self.model.size))
        if self.live and percent != self._shown and percent % 5 == 0:
            self._shown = percent
            self._say(f"\rsumjudge: joining {self.model.label}: {percent}% of {self.model.size / 1e9:.2f} GB", end="")

    def finish(self, ok: bool) -> None:
        took = time.monotonic() - self.started
        self._say(("\r" if self.live else "") + (
            f"sumjudge: joined {self.model.label} in {took:.0f} s" if ok else f"sumjudge: joining {self.model.label} failed"
        ) + (" " * 20 if self.live else ""))


def join_parts(model: PartedModel, parts: list[Path], target: Path, progress: JoinProgress | None = None) -> None:
    """Concatenate ``parts`` into ``target`` atomically, checking the digest before the rename;
    ``progress`` hears how many bytes are joined."""
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp_name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".part", dir=target.parent)
    tmp = Path(tmp_name)
    try:
        digest, size = hashlib.sha256(), 0
        with os.fdopen(fd, "wb") as out:
            for part in parts:
                with open(part, "rb") as f:
                    while block := f.read(_CHUNK):
                        digest.update(block)
                        size += len(block)
                        out.write(block)
                        if progress is not None:
                            progress.update(size)
            out.flush()
            os.fsync(out.fileno())
        if size != model.size or digest.hexdigest() != model.sha256:
            raise ConfigurationError(
                f"the installed parts of {model.label} join to {size} bytes with sha256 "
                f"{digest.hexdigest()[:16]}..., expected {model.size} bytes and {model.sha256[:16]}...: "
                f"reinstall them ({model.install})"
            )
        os.replace(tmp, target)
    finally:
        tmp.unlink(missing_ok=True)


def joined_model(
    model: PartedModel, find: PartFinder = _default_part_files, folder: Path | None = None, stream: TextIO | None = None
) -> Path:
    """The joined model file in the cache, joined now if it is not there yet (saying so on ``stream``,
    standard error by default: :class:`JoinProgress`). Its digest is checked when it is loaded
    (:func:`verify_model`), not here."""
    target = (folder or cache_dir()) / model.filename
    if not target.is_file():
        found = part_paths(model, find)  # a missing part is an error before any line is shown
        progress = JoinProgress(model, target, stream)
        try:
            join_parts(model, found, target, progress)
        except BaseException:
            progress.finish(False)
            raise
        progress.finish(True)
    return target


__all__ = ["JoinProgress", "PartedModel", "cache_dir", "file_sha256", "join_parts", "joined_model", "part_paths", "verify_model"]
