"""The files a run read and wrote beside the store, recorded with it: its data file and its reply cache
(absolute paths), so that a later command that writes files (``runs export -o``) can refuse to write
over them, as ``score`` refuses its own inputs (:class:`~sumjudge.data.files.OutputPlan`).

Kept in a table of its own (``run_files``), made on the first write; a store from before it has none
and gives no paths.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from .database import RunStore
from .schema import store_error

_SCHEMA = """
CREATE TABLE IF NOT EXISTS run_files (
    run_id TEXT NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
    role TEXT NOT NULL,
    path TEXT NOT NULL,
    PRIMARY KEY (run_id, role)
);
"""

DATA, CACHE = "data", "cache"
"""The roles of a recorded file: the data file scored, the reply cache used."""


def record_run_files(store: RunStore, run_id: str, files: dict[str, str | Path | None]) -> None:
    """Record (or update) the absolute paths of ``files`` (role to path; ``None`` and ``"-"`` skipped)."""
    rows = [(run_id, role, str(Path(path).expanduser().resolve())) for role, path in files.items()
            if path and str(path) != "-"]
    if not rows:
        return
    try:
        store._db.executescript(_SCHEMA)
        store._db.executemany("INSERT OR REPLACE INTO run_files (run_id, role, path) VALUES (?, ?, ?)", rows)
    except sqlite3.Error as exc:
        raise store_error(store.path, exc) from None


def run_files(store: RunStore, role: str, run_id: str | None = None) -> list[str]:
    """The recorded paths of ``role``: of the run ``run_id``, or of every run; none in an older store."""
    try:
        known = store._db.execute("SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name = 'run_files'")
        if not known.fetchone()[0]:
            return []
        sql, params = "SELECT DISTINCT path FROM run_files WHERE role = ?", (role,)
        if run_id is not None:
            sql, params = sql + " AND run_id = ?", (role, run_id)
        return [str(r[0]) for r in store._db.execute(sql, params)]
    except sqlite3.Error as exc:
        raise store_error(store.path, exc) from None


__all__ = ["CACHE", "DATA", "record_run_files", "run_files"]
