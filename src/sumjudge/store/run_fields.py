"""The field names a run's data was read with (``--source-field``, ``--summary-field``, ``--id-field``),
kept beside the run so that the viewer reads the run's texts from its data file as ``score`` did.

A table of its own (``run_fields``), created with the store's other tables: a store written before it
existed opens unchanged, and its runs read as recorded with the default names.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Mapping

SCHEMA = """
CREATE TABLE IF NOT EXISTS run_fields (
    run_id TEXT PRIMARY KEY REFERENCES runs(id) ON DELETE CASCADE,
    source TEXT NOT NULL,
    summary TEXT NOT NULL,
    id TEXT NOT NULL
);
"""

NAMES = ("source", "summary", "id")


def record_fields(db: sqlite3.Connection, run_id: str, fields: Mapping[str, str]) -> None:
    """Set the run's field names (each of :data:`NAMES`), replacing those of an earlier command."""
    db.execute(
        "INSERT OR REPLACE INTO run_fields (run_id, source, summary, id) VALUES (?, ?, ?, ?)",
        (run_id, *(str(fields[name]) for name in NAMES)),
    )


def read_fields(db: sqlite3.Connection, run_id: str) -> dict[str, str] | None:
    """The run's field names; ``None`` when none were recorded (an older store, or a run made by code)."""
    try:
        row = db.execute("SELECT source, summary, id FROM run_fields WHERE run_id = ?", (run_id,)).fetchone()
    except sqlite3.OperationalError:  # a store from before the table, opened read-only
        return None
    return None if row is None else dict(zip(NAMES, (str(v) for v in row)))


__all__ = ["NAMES", "SCHEMA", "read_fields", "record_fields"]
