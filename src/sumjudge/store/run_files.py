"""The files a run read and wrote beside the store, recorded with it: its data file and its reply cache
(absolute paths), so that a later command that writes files (``runs export -o``) can refuse to write
over them, as ``score`` refuses its own inputs (:class:`~sumjudge.data.files.OutputPlan`).

Kept in a table of its own (``run_files``), made on the first write; a store from before it has none
and gives no paths.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path
from urllib.parse import quote

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


def files_runs_read(store_path: str | Path) -> tuple[dict[str, str], dict[str, str]]:
    """Every file that some run of the store at ``store_path`` reads, as ``(data files, reply caches)``,
    each a mapping from the name shown in a refusal (``"the data file of run 3f2a..."``) to its path.

    Read without writing (a store that is not there, or cannot be read, gives none: opening it later says
    why). A run from before ``run_files`` gives its data as recorded, relative to the working folder."""
    where = Path(store_path).expanduser()
    if not where.is_file():
        return {}, {}
    data: dict[str, str] = {}
    caches: dict[str, str] = {}
    try:
        db = sqlite3.connect(f"file:{quote(str(where.resolve()))}?mode=ro", uri=True)
    except sqlite3.Error:
        return {}, {}
    try:
        tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        if "run_files" in tables:
            for run_id, role, path in db.execute("SELECT run_id, role, path FROM run_files"):
                named = data if role == DATA else caches if role == CACHE else None
                if named is not None:
                    what = "the data file" if role == DATA else "the reply cache"
                    named[f"{what} of run {run_id} in the run store"] = str(path)
        if "runs" in tables:  # runs recorded before run_files: their data as it was named
            for run_id, name in db.execute("SELECT id, data FROM runs"):
                key = f"the data file of run {run_id} in the run store"
                if key not in data and name and Path(str(name)).is_file():
                    data[key] = str(name)
    except sqlite3.Error:
        return {}, {}
    finally:
        db.close()
    return data, caches


__all__ = ["CACHE", "DATA", "files_runs_read", "record_run_files", "run_files"]
