"""Reading a stored run's items without reading every record: one item and its neighbours by key
(the viewer's item page and its label checks), and every item's figures as light rows (the run
page's table and the review queue), which SQLite pulls out of the JSON records itself."""

from __future__ import annotations

from dataclasses import dataclass

from .database import ItemRecord, RunStore, check_listed
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


@dataclass(frozen=True)
class ItemRow:
    """An item's figures and verdict counts (``None`` for a failed item's figures)."""

    item_id: str
    row_number: int
    score: float | None
    alignment: float | None
    coverage: float | None
    error: str | None
    spread: float | None
    claims: int
    supported: int
    questions: int
    answered: int
    unverified: int = 0
    """Verdicts whose quote does not hold them up (``verified`` false): claims and questions."""

    @property
    def failed(self) -> bool:
        return self.score is None


_ROWS = (
    "SELECT item_id, row_number, score, alignment_score, coverage_score, error,"
    " json_extract(record, '$.score_spread'),"
    " COALESCE(json_array_length(record, '$.verdicts.alignment'), 0),"
    " (SELECT COUNT(*) FROM json_each(record, '$.verdicts.alignment') WHERE json_extract(value, '$.supported')),"
    " COALESCE(json_array_length(record, '$.verdicts.questions'), 0),"
    " (SELECT COUNT(*) FROM json_each(record, '$.verdicts.coverage') WHERE json_extract(value, '$.answered')),"
    " (SELECT COUNT(*) FROM json_each(record, '$.verdicts.alignment') WHERE json_extract(value, '$.verified') = 0)"
    " + (SELECT COUNT(*) FROM json_each(record, '$.verdicts.coverage') WHERE json_extract(value, '$.verified') = 0)"
    " FROM items WHERE run_id = ? ORDER BY row_number"
)


def item_rows(store: RunStore, run_id: str) -> list[ItemRow]:
    """Every item of the run, in input order, as an :class:`ItemRow`."""
    return [
        ItemRow(r[0], int(r[1]), r[2], r[3], r[4], r[5], r[6], int(r[7]), int(r[8]), int(r[9]), int(r[10]), int(r[11]))
        for r in store._db.execute(_ROWS, (run_id,))
    ]


def ranked_items(store: RunStore, run_id: str, n: int, *, worst: bool = True) -> list[ItemRecord]:
    """The ``n`` scored items of the run with the lowest (``worst``) or highest scores; ties in input order
    (``n``: 1 to :data:`~sumjudge.guards.limits.MAX_LISTED`)."""
    check_listed("n", n)
    order = "ASC" if worst else "DESC"
    rows = store._db.execute(
        "SELECT item_id, row_number, record FROM items WHERE run_id = ? AND status = 'ok' AND score IS NOT NULL"
        f" ORDER BY score {order}, row_number LIMIT ?",
        (run_id, n),
    )
    return [ItemRecord(item_id=r[0], row_number=r[1], outcome=outcome_from_json(r[2])) for r in rows]


def count_at_least(store: RunStore, run_id: str, threshold: float) -> int:
    """Items of the run that scored ``threshold`` or more (``--pass-rate``)."""
    row = store._db.execute(
        "SELECT COUNT(*) FROM items WHERE run_id = ? AND status = 'ok' AND score >= ?", (run_id, threshold)
    ).fetchone()
    return int(row[0])


__all__ = ["ItemRow", "count_at_least", "get_item", "item_rows", "neighbours", "ranked_items"]
