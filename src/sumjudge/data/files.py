"""Files a batch run writes (``--out``, ``--report``): checked before the first judge call, and
replaced whole when the run ends, so nothing the user already has is lost.

- :func:`check_paths` refuses an output that is one of the run's inputs (the data file, the run
  store, the reply cache) or another output, comparing resolved paths: ``--out d.jsonl`` on
  ``d.jsonl`` would empty the data, ``--report runs.db`` would destroy every recorded run.
- :class:`AtomicFile` writes to a temporary file beside the target (created at once, so an
  unwritable folder is reported before any call) and renames it over the target on
  :meth:`~AtomicFile.commit`; :meth:`~AtomicFile.discard` removes it.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Mapping
from pathlib import Path
from typing import IO

from ..errors import InputError


def _resolved(path: str) -> Path:
    return Path(path).expanduser().resolve()


def check_paths(inputs: Mapping[str, str | None], outputs: Mapping[str, str | None]) -> None:
    """Raise :class:`InputError` when an output path is an input path or another output path.

    Keys are the option names shown to the user (``"--out"``, ``"the run store"``); ``None``
    values and ``"-"`` (standard input or output) are skipped.
    """
    taken: dict[Path, str] = {}
    for name, path in inputs.items():
        if path and path != "-":
            taken[_resolved(path)] = name
            if name == "the run store":  # SQLite keeps its journal beside the file
                for suffix in ("-wal", "-shm", "-journal"):
                    taken[_resolved(path + suffix)] = name
    for name, path in outputs.items():
        if not path or path == "-":
            continue
        where = _resolved(path)
        if where in taken:
            raise InputError(
                f"{name} {path} is also {taken[where]}; writing it would destroy that file. Choose another path."
            )
        if where.is_dir():
            raise InputError(f"{name} {path} is a folder; give a file name.")
        taken[where] = name


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


__all__ = ["AtomicFile", "check_paths"]
