"""What a run store file is: the version of its schema (``PRAGMA user_version``), checked whenever it is
opened, and what sqlite3's errors about it mean, said in one line.

- :data:`SCHEMA_VERSION` is the version this sumjudge writes and reads. A store made before versions
  were recorded says 0 and is read when its tables have this version's columns (it is marked
  :data:`SCHEMA_VERSION` the first time it is opened for writing).
- :func:`check_schema` refuses, before anything is read or written, a store of a newer version, and
  one whose tables have other columns (renamed, extra, missing): :class:`~sumjudge.errors.StoreError`
  naming the version found and the one this sumjudge reads (exit 2 in the CLI).
- :func:`store_error` turns sqlite3's error into one line: read-only, locked, a full file system, a file
  that cannot be opened or written (its contents untouched), and only for a damaged file or one that
  is not a store the advice to move it aside.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from ..errors import StoreError

SCHEMA_VERSION = 1
"""The run store's schema as this version writes and reads it (``PRAGMA user_version``)."""


def _columns(db: sqlite3.Connection, table: str) -> list[str]:
    return [str(r[1]) for r in db.execute(f"PRAGMA table_info({table})")]  # table: a name of our own schema


def _expected(schema: str) -> dict[str, list[str]]:
    probe = sqlite3.connect(":memory:")
    try:
        probe.executescript(schema)
        tables = [str(r[0]) for r in probe.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
        return {t: _columns(probe, t) for t in tables}
    finally:
        probe.close()


def check_schema(db: sqlite3.Connection, path: Path, schema: str) -> None:
    """Raise :class:`StoreError` when the store at ``path`` was written by a newer schema than
    :data:`SCHEMA_VERSION`, or its tables of ``schema`` (the ``CREATE TABLE`` script) have other columns."""
    found = int(db.execute("PRAGMA user_version").fetchone()[0])
    reads = f"this version of sumjudge reads schema version {SCHEMA_VERSION}"
    if found > SCHEMA_VERSION:
        raise StoreError(f"the run store {path} was written by a newer sumjudge (schema version {found}); {reads}: "
                         "upgrade sumjudge, or pass --store with another path")
    for table, wanted in _expected(schema).items():
        have = _columns(db, table)
        if not have:
            continue  # created on first write (a new store)
        missing = [c for c in wanted if c not in have]
        extra = [c for c in have if c not in wanted]
        if missing or extra:
            detail = "; ".join(part for part in (
                f"lacks {', '.join(missing)}" if missing else "", f"has {', '.join(extra)} besides" if extra else "",
            ) if part)
            raise StoreError(f"the run store {path} has a different schema (table {table} {detail}; schema version "
                             f"{found} found); {reads}: use the sumjudge that wrote it, or pass --store with another path")


def mark_schema(db: sqlite3.Connection) -> None:
    """Record :data:`SCHEMA_VERSION` in a store opened for writing (once: a new store, or one made before versions)."""
    if int(db.execute("PRAGMA user_version").fetchone()[0]) < SCHEMA_VERSION:
        db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")


_DAMAGED = ("malformed", "not a database", "encrypted", "no such table", "no such column", "corrupt")
"""What sqlite3 says of a file that is damaged or not a store (any other failure leaves the file as it was)."""


def store_error(path: Path, exc: sqlite3.Error, what: str = "run store") -> StoreError:
    """One line naming the file and the fix, instead of sqlite3's traceback."""
    text = str(exc)
    if "readonly" in text or "read-only" in text:
        fix = "make it writable, or pass --store with another path" if what == "run store" else "make it writable"
        return StoreError(f"the {what} {path} is read-only ({text}); {fix}")
    if "locked" in text or "busy" in text:
        return StoreError(f"the {what} {path} is locked by another process ({text}); try again when it is done")
    if "full" in text:  # SQLITE_FULL: the disk (or a quota) has no room; nothing it held is changed
        return StoreError(f"the file system holding the {what} {path} is full ({text}); free some space "
                          "and run the command again (what the store holds is intact)")
    if not any(word in text for word in _DAMAGED):  # cannot open or write (a read-only folder, I/O): not damage
        return StoreError(f"the {what} {path} cannot be opened or written ({text}): check that its folder is "
                          "writable and its file system has room and is not read-only; what it holds is not changed")
    return StoreError(
        f"the {what} {path} cannot be used ({text}): it is damaged or not a sumjudge file; "
        "move it aside (what it held is lost) or pass --store with another path"
    )


def damaged_record(path: Path, what: str, exc: BaseException) -> StoreError:
    """A row of the store that is not what sumjudge wrote (edited by hand, or damaged): one line."""
    detail = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
    return StoreError(f"the run store {path}: {what} holds a damaged record ({detail}); export what can be read "
                      "with another run, or pass --store with another path")



__all__ = ["SCHEMA_VERSION", "check_schema", "damaged_record", "mark_schema", "store_error"]
