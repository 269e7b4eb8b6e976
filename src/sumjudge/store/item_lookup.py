"""One item of a stored run and its neighbours in input order, read by key: the viewer's item page
and its label checks cost one indexed query each, not a pass over the run."""

from __future__ import annotations

from .database import ItemRecord, RunStore
from .records import outcome_from_json


def get_item(store: RunStore, run_id: str, item_id: str) -> ItemRecord | None:
    row = store._db.execute(
        "SELECT item_id, row_number, record FROM items WHERE run_id = ? AND item_id = ?", (run_id, item_id)
    ).fetchone()
    return None if row is None else ItemRecord(item_id=row[0], row_number=row[1], outcome=outcome_from_json(row[2]))


def neighbours(store: RunStore, run_id: str, row_number: int) -> tuple[str | None, str | None]:
    """The ids of the items just before and just after ``row_number`` in the input (``None`` at the ends)."""
    before = store._db.execute(
        "SELECT item_id FROM items WHERE run_id = ? AND row_number < ? ORDER BY row_number DESC LIMIT 1",
        (run_id, row_number),
    ).fetchone()
    after = store._db.execute(
        "SELECT item_id FROM items WHERE run_id = ? AND row_number > ? ORDER BY row_number LIMIT 1",
        (run_id, row_number),
    ).fetchone()
    return (before[0] if before else None, after[0] if after else None)


__all__ = ["get_item", "neighbours"]
