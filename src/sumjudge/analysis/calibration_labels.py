"""The labels a calibration is fitted on: from the viewer (the run store's labels) or from a JSONL file.

A file has one JSON object a line, ``{"id": ..., "label": ...}``, where the label is ``"pass"``/``"fail"``
(or ``true``/``false``), or a 1-5 rating (a pass from ``pass_at`` up, 4 by default); a line may instead or
as well give per-verdict truths, ``"claims": [true, false, ...]`` (each claim of the item, in order:
supported or not) and ``"questions": [...]`` (each question: answered or not). The viewer's labels read
the same way: an item's rating, and each verdict marked right or wrong (its truth).
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import InputError
from ..store.database import RunStore
from ..store.labels import LabelBook

MAX_LABEL_LINES = 1_000_000
PASS_WORDS = {"pass": True, "passed": True, "good": True, "fail": False, "failed": False, "bad": False}


@dataclass
class Labels:
    """What people said about a run's items, by item id."""

    passed: dict[str, bool] = field(default_factory=dict)
    """Each item's pass (True) or fail, given or read off its rating."""
    ratings: dict[str, float] = field(default_factory=dict)
    """1-5 ratings where given (for the Spearman figure)."""
    claims: dict[str, dict[int, bool]] = field(default_factory=dict)
    """Per item, claim position -> supported (people's truth)."""
    questions: dict[str, dict[int, bool]] = field(default_factory=dict)
    """Per item, question position -> answered (people's truth)."""

    def digest(self) -> str:
        data = {"passed": self.passed, "ratings": self.ratings,
                "claims": {k: sorted(v.items()) for k, v in self.claims.items()},
                "questions": {k: sorted(v.items()) for k, v in self.questions.items()}}
        text = json.dumps(data, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
        return "sha256:" + hashlib.sha256(text.encode("utf-8")).hexdigest()

    @property
    def verdict_count(self) -> int:
        return sum(len(v) for v in self.claims.values()) + sum(len(v) for v in self.questions.values())


def _item_label(value: object, pass_at: float, where: str) -> tuple[bool, float | None]:
    """A label as (passed, rating or None)."""
    if isinstance(value, bool):
        return value, None
    if isinstance(value, str) and value.strip().lower() in PASS_WORDS:
        return PASS_WORDS[value.strip().lower()], None
    if isinstance(value, (int, float)) and 1 <= value <= 5:
        return value >= pass_at, float(value)
    raise InputError(f"{where}: label must be pass/fail, true/false or a rating from 1 to 5, got {value!r}")


def _truths(value: object, where: str) -> dict[int, bool]:
    if not isinstance(value, list) or not all(isinstance(x, bool) or x is None for x in value):
        raise InputError(f"{where}: must be a list of true, false or null (one per verdict, in order)")
    return {i: x for i, x in enumerate(value) if x is not None}


def read_label_file(path: str | Path, *, pass_at: float = 4) -> Labels:
    """Labels from a JSONL file; a line without an id or with a label it cannot read is one clear error."""
    labels = Labels()
    try:
        lines = Path(path).read_text(encoding="utf-8-sig").splitlines()
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(f"labels {path}: cannot be read ({exc})") from None
    for number, line in enumerate(lines[:MAX_LABEL_LINES], 1):
        if not line.strip():
            continue
        where = f"labels {path}, line {number}"
        try:
            row = json.loads(line)
        except json.JSONDecodeError as exc:
            raise InputError(f"{where}: not JSON ({exc.msg})") from None
        if not isinstance(row, dict) or not isinstance(row.get("id"), (str, int)) or isinstance(row.get("id"), bool):
            raise InputError(f"{where}: each line is an object with an \"id\"")
        item = str(row["id"])
        if "label" in row:
            labels.passed[item], rating = _item_label(row["label"], pass_at, where)
            if rating is not None:
                labels.ratings[item] = rating
        if "claims" in row:
            labels.claims[item] = _truths(row["claims"], f"{where}, claims")
        if "questions" in row:
            labels.questions[item] = _truths(row["questions"], f"{where}, questions")
    return labels


def store_labels(store: RunStore, run_id: str, *, pass_at: float = 4) -> Labels:
    """The labels people left on ``run_id`` in the viewer (several reviewers: the mean rating; a verdict
    marked by several, the majority's truth)."""
    book = LabelBook(store)
    labels = Labels()
    if not book.has_tables():
        return labels
    ratings: dict[str, list[int]] = {}
    for lab in book.item_labels(run_id):
        if lab.rating is not None:
            ratings.setdefault(lab.item_id, []).append(lab.rating)
    for item, values in ratings.items():
        labels.ratings[item] = sum(values) / len(values)
        labels.passed[item] = labels.ratings[item] >= pass_at
    votes: dict[tuple[str, str, int], list[bool]] = {}
    for v in book.verdict_labels(run_id):
        votes.setdefault((v.item_id, v.target, v.index), []).append(v.truth)
    for (item, target, index), truths in votes.items():
        into = labels.claims if target == "claim" else labels.questions
        into.setdefault(item, {})[index] = sum(truths) * 2 >= len(truths)
    return labels


__all__ = ["Labels", "read_label_file", "store_labels"]
