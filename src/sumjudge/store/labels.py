"""People's labels on a run's verdicts, kept in the run store beside the items they judge.

A reviewer marks each verdict of an item right or wrong: each claim's "supported / not supported"
(``target="claim"``) and each coverage answer's "answered / not answered" (``target="answer"``), by its
position in the item's verdicts; and may give the item a 1-5 rating and a note. Each label keeps the
verdict's text and what the judge said (``judge_says``) when it was made, so the agreement figures
(:mod:`sumjudge.analysis.labels`) read from the labels alone and a label never silently moves to
another claim.

The two tables are created by the first label written, not when a store is opened: a store made
before labels existed, or only ever read, stays byte for byte as it was. Reading a store without
them gives no labels.
"""

from __future__ import annotations

import sqlite3
import time
import unicodedata
from dataclasses import asdict, dataclass
from typing import Any, Literal

from ..errors import InputError
from ..guards.redact import redact
from .database import RunStore, store_error

Target = Literal["claim", "answer"]
TARGETS: tuple[Target, ...] = ("claim", "answer")
MAX_REVIEWER = 64
MAX_NOTE = 4000

_SCHEMA = """
CREATE TABLE IF NOT EXISTS verdict_labels (
    run_id TEXT NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
    item_id TEXT NOT NULL,
    reviewer TEXT NOT NULL,
    target TEXT NOT NULL CHECK (target IN ('claim', 'answer')),
    idx INTEGER NOT NULL,
    text TEXT NOT NULL,
    judge_says INTEGER NOT NULL,
    correct INTEGER NOT NULL,
    labelled_at REAL NOT NULL,
    PRIMARY KEY (run_id, item_id, reviewer, target, idx)
);
CREATE TABLE IF NOT EXISTS item_labels (
    run_id TEXT NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
    item_id TEXT NOT NULL,
    reviewer TEXT NOT NULL,
    rating INTEGER CHECK (rating BETWEEN 1 AND 5),
    note TEXT NOT NULL DEFAULT '',
    labelled_at REAL NOT NULL,
    PRIMARY KEY (run_id, item_id, reviewer)
);
"""


@dataclass(frozen=True)
class VerdictLabel:
    """One reviewer's mark on one verdict: was the judge right?"""

    run_id: str
    item_id: str
    reviewer: str
    target: Target
    index: int
    text: str
    """The claim, or the question, as it stood when it was labelled."""
    judge_says: bool
    """What the judge said: supported (a claim), answered (a question)."""
    correct: bool
    labelled_at: float

    @property
    def truth(self) -> bool:
        """What the reviewer holds to be the case: the judge's verdict when right, its opposite when wrong."""
        return self.judge_says if self.correct else not self.judge_says


@dataclass(frozen=True)
class ItemLabel:
    """One reviewer's rating (1-5, or none) and note on one item."""

    run_id: str
    item_id: str
    reviewer: str
    rating: int | None
    note: str
    labelled_at: float


def check_reviewer(name: str) -> str:
    """The reviewer name, trimmed; :class:`InputError` when not a string, empty, too long, holding control
    characters or a key (what :func:`~sumjudge.guards.redact.redact` would hide: a name is stored and shown)."""
    if not isinstance(name, str):
        raise InputError(f"a reviewer name is text, not {type(name).__name__}")
    name = name.strip()
    if not name:
        raise InputError("a reviewer name is needed to label")
    if len(name) > MAX_REVIEWER:
        raise InputError(f"a reviewer name has at most {MAX_REVIEWER} characters")
    if any(unicodedata.category(ch).startswith("C") for ch in name):
        raise InputError("a reviewer name cannot hold control characters")
    if redact(name) != name:
        raise InputError("a reviewer name cannot hold a key or token: use your name")
    return name


class LabelBook:
    """The labels of a :class:`RunStore` (opened writable to label, read-only to read)."""

    def __init__(self, store: RunStore) -> None:
        self.store = store
        self._db: sqlite3.Connection = store._db  # one connection per store: the labels ride on it

    def has_tables(self) -> bool:
        row = self._db.execute(
            "SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name IN ('verdict_labels', 'item_labels')"
        ).fetchone()
        return int(row[0]) == 2

    def _write(self, sql: str, params: tuple[Any, ...]) -> None:
        try:
            if not self.has_tables():
                self._db.executescript(_SCHEMA)
            self._db.execute(sql, params)
        except sqlite3.Error as exc:
            raise store_error(self.store.path, exc) from None

    # -- writing ------------------------------------------------------------------------------

    def mark(
        self, run_id: str, item_id: str, reviewer: str, target: Target, index: int, *, text: str,
        judge_says: bool, correct: bool | None,
    ) -> None:
        """Mark one verdict right (``correct=True``) or wrong; ``None`` takes the mark away."""
        reviewer = check_reviewer(reviewer)
        if target not in TARGETS:
            raise InputError(f"a label's target is one of {', '.join(TARGETS)}, not {target!r}")
        if not (correct is None or isinstance(correct, bool)):  # 1 == True, yet 1 is no answer
            raise InputError(f"a label's correct is true, false or null, not {correct!r}")
        if correct is None:
            if self.has_tables():
                self._write(
                    "DELETE FROM verdict_labels WHERE run_id = ? AND item_id = ? AND reviewer = ? AND target = ?"
                    " AND idx = ?", (run_id, item_id, reviewer, target, index),
                )
            return
        self._write(
            "INSERT OR REPLACE INTO verdict_labels (run_id, item_id, reviewer, target, idx, text, judge_says,"
            " correct, labelled_at) VALUES (?,?,?,?,?,?,?,?,?)",
            (run_id, item_id, reviewer, target, index, text, int(judge_says), int(correct), time.time()),
        )

    def rate(self, run_id: str, item_id: str, reviewer: str, *, rating: int | None, note: str = "") -> None:
        """Set the reviewer's rating (1-5, or ``None``) and note on an item."""
        reviewer = check_reviewer(reviewer)
        if rating is not None and not 1 <= rating <= 5:
            raise InputError(f"a rating is 1 to 5, not {rating}")
        if not isinstance(note, str) or len(note) > MAX_NOTE:
            raise InputError(f"a note is text of at most {MAX_NOTE} characters")
        note = redact(note)  # a key pasted into a note is never stored
        self._write(
            "INSERT OR REPLACE INTO item_labels (run_id, item_id, reviewer, rating, note, labelled_at)"
            " VALUES (?,?,?,?,?,?)",
            (run_id, item_id, reviewer, rating, note, time.time()),
        )

    # -- reading ------------------------------------------------------------------------------

    def _where(self, run_id: str, item_id: str | None, reviewer: str | None) -> tuple[str, tuple[Any, ...]]:
        sql, params = " WHERE run_id = ?", (run_id,)
        if item_id is not None:
            sql, params = sql + " AND item_id = ?", params + (item_id,)
        if reviewer is not None:
            sql, params = sql + " AND reviewer = ?", params + (reviewer,)
        return sql, params

    def verdict_labels(self, run_id: str, item_id: str | None = None, reviewer: str | None = None) -> list[VerdictLabel]:
        """The marks on a run's verdicts (of one item, of one reviewer), in a fixed order."""
        if not self.has_tables():
            return []
        where, params = self._where(run_id, item_id, reviewer)
        rows = self._db.execute(
            "SELECT run_id, item_id, reviewer, target, idx, text, judge_says, correct, labelled_at FROM verdict_labels"
            + where + " ORDER BY item_id, reviewer, target, idx", params,
        ).fetchall()
        return [
            VerdictLabel(r[0], r[1], r[2], r[3], int(r[4]), r[5], bool(r[6]), bool(r[7]), float(r[8])) for r in rows
        ]

    def item_labels(self, run_id: str, item_id: str | None = None, reviewer: str | None = None) -> list[ItemLabel]:
        if not self.has_tables():
            return []
        where, params = self._where(run_id, item_id, reviewer)
        rows = self._db.execute(
            "SELECT run_id, item_id, reviewer, rating, note, labelled_at FROM item_labels" + where
            + " ORDER BY item_id, reviewer", params,
        ).fetchall()
        return [ItemLabel(r[0], r[1], r[2], r[3], r[4], float(r[5])) for r in rows]

    def reviewers(self, run_id: str) -> list[str]:
        if not self.has_tables():
            return []
        rows = self._db.execute(
            "SELECT reviewer FROM verdict_labels WHERE run_id = ? UNION SELECT reviewer FROM item_labels"
            " WHERE run_id = ? ORDER BY 1", (run_id, run_id),
        ).fetchall()
        return [r[0] for r in rows]

    def labelled_items(self, run_id: str, reviewer: str) -> set[str]:
        """Items on which the reviewer has left any label."""
        return {lab.item_id for lab in self.verdict_labels(run_id, reviewer=reviewer)} | {
            lab.item_id for lab in self.item_labels(run_id, reviewer=reviewer)
        }

    def by_item(self, run_id: str) -> dict[str, dict[str, Any]]:
        """Every label of the run as JSON, per item: what ``runs export`` writes under ``labels``."""
        out: dict[str, dict[str, Any]] = {}
        for lab in self.verdict_labels(run_id):
            d = {k: v for k, v in asdict(lab).items() if k not in ("run_id", "item_id")}
            out.setdefault(lab.item_id, {"verdicts": [], "items": []})["verdicts"].append(d)
        for lab in self.item_labels(run_id):
            d = {k: v for k, v in asdict(lab).items() if k not in ("run_id", "item_id")}
            out.setdefault(lab.item_id, {"verdicts": [], "items": []})["items"].append(d)
        return out


__all__ = ["ItemLabel", "LabelBook", "Target", "VerdictLabel", "check_reviewer"]
