"""Every file a command writes (``score --out/--report/--junit``, ``compare --report``, ``runs export
-o``, the job summary): checked before anything is read or called, and replaced whole, so nothing
the user already has is lost.

- :class:`OutputPlan` is what a command calls: built from the command's inputs (data files, result
  files), its SQLite files (the run store, the reply cache: each with its ``-wal``, ``-shm`` and
  ``-journal`` sidecars), the files it replaces and the files it appends to (``$GITHUB_STEP_SUMMARY``).
  :meth:`OutputPlan.check` refuses an output or an appended file that is one of the inputs, a
  SQLite file or sidecar, or another output, comparing resolved paths: ``--out d.jsonl`` on
  ``d.jsonl`` would empty the data, ``--report runs.db`` would destroy every recorded run.
  :meth:`OutputPlan.open` gives the :class:`AtomicFile` of an output, :meth:`OutputPlan.write` writes
  one through it, :meth:`OutputPlan.append` appends to a checked file.
- :func:`check_paths` is the same check over two mappings (the 0.1 form).
- :class:`AtomicFile` writes to a temporary file beside the target (created at once, so an
  unwritable folder is reported before any call) and renames it over the target on
  :meth:`~AtomicFile.commit`; :meth:`~AtomicFile.discard` removes it.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO

from ..errors import InputError


def _resolved(path: str) -> Path:
    return Path(path).expanduser().resolve()


SQLITE_SIDECARS = ("-wal", "-shm", "-journal")
"""Files SQLite keeps beside a database: writing over one loses (or corrupts) what the database holds."""


def _usable(path: str | os.PathLike[str] | None) -> bool:
    return bool(path) and str(path) != "-"


@dataclass
class OutputPlan:
    """The files one command reads and writes; :meth:`check` before the first read or call.

    Each mapping goes from the name shown to the user (``"--out"``, ``"the run store"``) to a path;
    ``None`` and ``"-"`` (standard input or output) are skipped.
    """

    inputs: Mapping[str, str | os.PathLike[str] | None] = field(default_factory=dict)
    """Files the command reads (the data file, ``compare``'s result files)."""
    databases: Mapping[str, str | os.PathLike[str] | None] = field(default_factory=dict)
    """SQLite files (the run store, the reply cache): the file and each of its sidecars are taken."""
    outputs: Mapping[str, str | os.PathLike[str] | None] = field(default_factory=dict)
    """Files the command replaces whole (through :class:`AtomicFile`)."""
    appends: Mapping[str, str | os.PathLike[str] | None] = field(default_factory=dict)
    """Files the command appends to (the job summary): never replaced, but never an input either."""

    def _taken(self) -> dict[Path, str]:
        taken: dict[Path, str] = {}
        for name, path in self.inputs.items():
            if _usable(path):
                taken[_resolved(str(path))] = name
        for name, path in self.databases.items():
            if _usable(path):
                taken[_resolved(str(path))] = name
                for suffix in SQLITE_SIDECARS:
                    taken[_resolved(str(path) + suffix)] = f"{name}'s SQLite {suffix[1:]} file"
        return taken

    def check(self, *, appends: bool = True) -> None:
        """Raise :class:`InputError` when an output is an input, a database (or its sidecar), a folder
        or another output, or (unless ``appends`` is false) an appended file is an input, a database
        or an output."""
        taken = self._taken()
        for name, path in self.outputs.items():
            if not _usable(path):
                continue
            where = _resolved(str(path))
            if where in taken:
                raise InputError(
                    f"{name} {path} is also {taken[where]}; writing it would destroy that file. Choose another path."
                )
            if where.is_dir():
                raise InputError(f"{name} {path} is a folder; give a file name.")
            taken[where] = name
        for name, path in self.appends.items() if appends else ():
            problem = self.refusal(name, path, taken)
            if problem:
                raise InputError(problem)

    def refusal(self, name: str, path: str | os.PathLike[str] | None,
                taken: dict[Path, str] | None = None) -> str | None:
        """Why ``path`` (appended to as ``name``) must not be written, or ``None`` when it may."""
        if not _usable(path):
            return None
        if taken is None:
            taken = self._taken()
            for out_name, out in self.outputs.items():
                if _usable(out):
                    taken[_resolved(str(out))] = out_name
        where = _resolved(str(path))
        if where in taken:
            return f"{name} {path} is also {taken[where]}; appending to it would damage that file"
        if where.is_dir():
            return f"{name} {path} is a folder"
        return None

    def open(self, name: str) -> AtomicFile:
        """The :class:`AtomicFile` of the output ``name`` (checked first)."""
        path = self.outputs.get(name)
        if not _usable(path):
            raise KeyError(name)
        self.check(appends=False)  # an appended file is judged when it is appended to
        return AtomicFile(str(path), option=name)

    def write(self, name: str, writer: Callable[[Path], object]) -> None:
        """Write the output ``name`` with ``writer(temporary path)``, then rename it over the target;
        on any failure the target is left as it was."""
        target = self.open(name)
        target.write_with(writer)

    def append(self, name: str, text: str) -> None:
        """Append ``text`` to the file ``name`` of :attr:`appends`; :class:`InputError` when the file is
        one this command must not touch."""
        path = self.appends.get(name)
        if not _usable(path):
            return
        problem = self.refusal(name, path)
        if problem:
            raise InputError(problem)
        with open(str(path), "a", encoding="utf-8") as fh:
            fh.write(text)


def check_paths(inputs: Mapping[str, str | None], outputs: Mapping[str, str | None]) -> None:
    """Raise :class:`InputError` when an output path is an input path or another output path.

    Keys are the option names shown to the user (``"--out"``, ``"the run store"``); ``None``
    values and ``"-"`` (standard input or output) are skipped. Inputs named "the run store" or
    "the reply cache" are SQLite files (their sidecars are taken too). See :class:`OutputPlan`.
    """
    databases = {k: v for k, v in inputs.items() if k in ("the run store", "the reply cache")}
    plain = {k: v for k, v in inputs.items() if k not in databases}
    OutputPlan(inputs=plain, databases=databases, outputs=outputs).check()


def _mode_for_new_files() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return 0o666 & ~mask


class AtomicFile:
    """A text file written beside ``path`` and renamed over it on :meth:`commit`."""

    def __init__(self, path: str | Path, *, option: str) -> None:
        self.path = Path(path)
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(dir=self.path.parent, prefix=f".{self.path.name}.", suffix=".tmp")
        except OSError as exc:
            raise InputError(f"cannot write {option} {path}: {exc.strerror or exc}; choose a writable path.") from None
        self.tmp = Path(tmp)
        self._fh: IO[str] = os.fdopen(fd, "w", encoding="utf-8", newline="")

    @property
    def fh(self) -> IO[str]:
        return self._fh

    def commit(self) -> None:
        self._fh.close()
        try:
            mode = self.path.stat().st_mode & 0o777 if self.path.exists() else _mode_for_new_files()
            os.chmod(self.tmp, mode)
        except OSError:
            pass
        os.replace(self.tmp, self.path)

    def discard(self) -> None:
        self._fh.close()
        self.tmp.unlink(missing_ok=True)

    def write_with(self, writer: Callable[[Path], object]) -> None:
        """Let ``writer`` write the temporary file by its path (a binary or third-party writer), then
        commit; on any failure discard it and re-raise, leaving the target as it was."""
        self._fh.close()
        try:
            writer(self.tmp)
        except BaseException:
            self.discard()
            raise
        self.commit()


__all__ = ["SQLITE_SIDECARS", "AtomicFile", "OutputPlan", "check_paths"]
