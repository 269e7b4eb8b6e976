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
- :func:`check_paths` is the same check over two mappings (inputs by name, outputs by flag).
- :class:`AtomicFile` writes to a temporary file beside the target (created at once, so an
  unwritable folder is reported before any call) and renames it over the target on
  :meth:`~AtomicFile.commit`; :meth:`~AtomicFile.discard` removes it. The file's name carries the
  process id, so the next write of the target removes what a killed process left.
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
import tempfile
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from glob import escape as glob_escape
from pathlib import Path
from typing import IO

from ..errors import InputError


def _resolved(path: str) -> Path:
    return Path(path).expanduser().resolve()


SQLITE_SIDECARS = ("-wal", "-shm", "-journal")
"""Files SQLite keeps beside a database: writing over one loses (or corrupts) what the database holds."""


_SQLITE_HEADER = b"SQLite format 3\x00"


def _is_sqlite(path: Path) -> bool:
    """Whether ``path`` is an existing SQLite database (by its first 16 bytes): a store or a cache."""
    try:
        if not path.is_file():
            return False
        with open(path, "rb") as fh:
            return fh.read(len(_SQLITE_HEADER)) == _SQLITE_HEADER
    except OSError:  # none there, or unreadable (then the write says why)
        return False


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
            if _writes_in_place(Path(str(path)), name):  # /dev/null, /dev/stdout, a FIFO: shared, never replaced
                continue
            if _is_sqlite(where):
                raise InputError(f"{name} {path} is a SQLite database (a sumjudge run store or reply cache?); "
                                 "writing it would destroy what it holds. Choose another path.")
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


_DEVICE_FOLDERS = (Path("/dev"), Path("/proc"))
"""Paths in these name devices and streams (``/dev/stdout`` is a link into ``/proc/self/fd``), never
files to replace, whatever they point at now."""

_OS_ERRORS = {errno.ENOSPC: "ENOSPC", errno.EFBIG: "EFBIG", errno.EROFS: "EROFS", errno.EDQUOT: "EDQUOT",
              errno.EACCES: "EACCES", errno.EPERM: "EPERM", errno.EIO: "EIO", errno.EPIPE: "EPIPE"}


def write_error(option: str, path: str | os.PathLike[str], exc: OSError) -> InputError:
    """One line for an output that could not be written: the option, the file, the cause and its errno
    name (``No space left on device (ENOSPC)``); what was there before is kept."""
    name = _OS_ERRORS.get(exc.errno or 0) or (errno.errorcode.get(exc.errno or 0) if exc.errno else None)
    cause = exc.strerror or str(exc) or type(exc).__name__
    return InputError(f"cannot write {option} {path}: {cause}{f' ({name})' if name else ''}; "
                      "it was not written (a file that was there is kept as it was)")


def _writes_in_place(path: Path, option: str) -> bool:
    """Whether ``path`` is written into as it is rather than replaced: a character device (``/dev/null``,
    a terminal), a FIFO or pipe, or anything under /dev or /proc (``/dev/stdout``). A block device, a
    socket or another special file is refused with one line (:class:`InputError`)."""
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        mode = None
    except OSError:  # unreadable: creating the temporary file beside it says why
        return False
    if mode is not None and not stat.S_ISREG(mode) and not stat.S_ISDIR(mode):
        if stat.S_ISCHR(mode) or stat.S_ISFIFO(mode):
            return True
        kind = "a block device" if stat.S_ISBLK(mode) else "a socket" if stat.S_ISSOCK(mode) else "a special file"
        raise InputError(f"{option} {path} is {kind}; give a regular file, /dev/stdout or /dev/null")
    where = [path.absolute(), _resolved(str(path))]
    if any(folder in p.parents for p in where for folder in _DEVICE_FOLDERS):
        if mode is None:
            raise InputError(f"{option} {path} does not exist; sumjudge creates files only outside /dev and /proc")
        return True
    return False


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # another user's process: alive
        return True
    return True


def _remove_orphans(path: Path) -> None:
    """Remove the temporary files beside ``path`` that a killed process left (``kill -9`` before its
    rename): named ``.NAME.PID.*.tmp`` by a process that is no longer running. A running process's file
    (a run writing the same path now) is left alone."""
    prefix = f".{path.name}."
    try:
        beside = list(path.parent.glob(f"{glob_escape(prefix)}*.tmp"))
    except OSError:
        return
    for tmp in beside:
        pid = tmp.name[len(prefix):].split(".", 1)[0]
        if pid.isdigit() and int(pid) != os.getpid() and not _alive(int(pid)):
            with contextlib.suppress(OSError):
                tmp.unlink()


class AtomicFile:
    """A text file written beside ``path`` and renamed over it on :meth:`commit`.

    A target that is not a regular file (``/dev/null``, ``/dev/stdout``, a FIFO) is written into as it
    is, never renamed over (:attr:`in_place`); a block device or a socket is refused. A write that fails
    (a full disk, a file-size limit, a read-only file system) raises :class:`InputError` naming the
    option, the file and the cause, and leaves no temporary file behind."""

    def __init__(self, path: str | Path, *, option: str) -> None:
        self.path = Path(path)
        self.option = option
        self.in_place = _writes_in_place(self.path, option)
        self._fh: IO[str] | None = None
        if self.in_place:
            self.tmp = self.path  # what the writers write to: the target itself, opened when first written
            return
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            _remove_orphans(self.path)
            fd, tmp = tempfile.mkstemp(dir=self.path.parent, prefix=f".{self.path.name}.{os.getpid()}.", suffix=".tmp")
        except OSError as exc:
            name = _OS_ERRORS.get(exc.errno or 0)
            raise InputError(f"cannot write {option} {path}: {exc.strerror or exc}{f' ({name})' if name else ''}; "
                             "choose a writable path.") from None
        self.tmp = Path(tmp)
        self._fh = os.fdopen(fd, "w", encoding="utf-8", newline="")

    @property
    def fh(self) -> IO[str]:
        if self._fh is None:
            try:
                self._fh = open(self.path, "w", encoding="utf-8", newline="")  # noqa: SIM115 - closed by commit
            except OSError as exc:
                raise write_error(self.option, self.path, exc) from None
        return self._fh

    def _close(self) -> None:
        fh, self._fh = self._fh, None
        if fh is not None and not fh.closed:
            fh.close()

    def commit(self) -> None:
        """Close the file and (unless written in place) rename it over the target; a failure discards it
        and raises :class:`InputError`."""
        try:
            self._close()
            if self.in_place:
                return
            try:
                mode = self.path.stat().st_mode & 0o777 if self.path.exists() else _mode_for_new_files()
                os.chmod(self.tmp, mode)
            except OSError:
                pass
            if _writes_in_place(self.path, self.option):  # made a device or FIFO meanwhile: never renamed over
                with open(self.tmp, encoding="utf-8", newline="") as src, open(self.path, "w", encoding="utf-8") as dst:
                    dst.write(src.read())
                self.tmp.unlink(missing_ok=True)
                return
            os.replace(self.tmp, self.path)
        except OSError as exc:
            self.discard()
            raise write_error(self.option, self.path, exc) from None

    def discard(self) -> None:
        """Close and remove the temporary file (a target written in place is only closed)."""
        try:
            self._close()
        except OSError:
            pass  # the flush of what will not be kept failed: nothing to keep
        if not self.in_place:
            self.tmp.unlink(missing_ok=True)

    def write_with(self, writer: Callable[[Path], object]) -> None:
        """Let ``writer`` write the temporary file by its path (a binary or third-party writer), then
        commit; on any failure discard it and re-raise (an :class:`OSError` as :class:`InputError`),
        leaving the target as it was."""
        def by_path() -> None:
            self._close()
            writer(self.tmp)

        self._write_or_discard(by_path)

    def write_stream(self, writer: Callable[[IO[str]], object]) -> None:
        """Let ``writer`` write the text through the open file, then commit; failures as :meth:`write_with`."""
        self._write_or_discard(lambda: writer(self.fh))

    def _write_or_discard(self, write: Callable[[], object]) -> None:
        """Run ``write``, then commit; on any failure discard the file and re-raise (an :class:`OSError`
        as the one-line error naming the file and its cause)."""
        try:
            write()
        except OSError as exc:
            self.discard()
            raise write_error(self.option, self.path, exc) from None
        except BaseException:
            self.discard()
            raise
        self.commit()


__all__ = ["SQLITE_SIDECARS", "AtomicFile", "OutputPlan", "check_paths", "write_error"]
