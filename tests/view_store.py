"""A run store for the viewer's tests, made by today's code: two runs of one judge over one data file
(so they compare), items with evidence offsets, repeated samples, a failure, and hostile text."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from sumjudge.store.database import RunStore
from sumjudge.store.records import FailedItem, ItemOutcome, outcome_from_json, source_digest

EVIL = '</script><script>document.title="pwned"</script><img src=x onerror="alert(1)"><b>bold</b>'
MODEL = "openai/gpt-4o-mini"
OPTIONS: dict[str, Any] = {"max_questions": 10, "scale": 1}

SOURCE = "The council approved the budget on Monday. The new library opens in June. Taxes stay flat."
FIRST, SECOND = "The council approved the budget on Monday.", "The new library opens in June."
SPAN_1 = {"start": SOURCE.index(FIRST), "end": SOURCE.index(FIRST) + len(FIRST)}
SPAN_2 = {"start": SOURCE.index(SECOND), "end": SOURCE.index(SECOND) + len(SECOND)}
SUMMARY = "The council approved the budget. The library opens in May."


def record(item_id: str, score: float, *, source: str = SOURCE, claim: str = "The council approved the budget.",
           reason: str = "the source says so", spread: float | None = None) -> ItemOutcome:
    data: dict[str, Any] = {
        "id": item_id,
        "score": score,
        "alignment_score": score,
        "coverage_score": min(1.0, score + 0.25),
        "reason": f"Score {score:.2f} is set by alignment.",
        "verdicts": {
            "alignment": [
                {"claim": claim, "supported": True, "reason": reason,
                 "evidence": [SPAN_1]},
                {"claim": "The library opens in May.", "supported": False, "reason": "the source says June",
                 "evidence": [SPAN_2]},
            ],
            "questions": ["Was the budget approved?", "Do taxes stay flat?"],
            "coverage": [
                {"question": "Was the budget approved?", "answered": True, "reason": "the summary says so"},
                {"question": "Do taxes stay flat?", "answered": False, "reason": "the summary does not say"},
            ],
        },
        "usage": {"prompt_tokens": 100, "completion_tokens": 20, "calls": 3},
        "source_sha256": source_digest(source),
    }
    if spread is not None:
        data["reducer"], data["score_spread"] = "median", spread
        data["samples"] = [
            {"index": k, "score": s, "alignment_score": s, "coverage_score": 1.0, "reason": "r",
             "verdicts": data["verdicts"]}
            for k, s in enumerate((score - spread / 2, score, score + spread / 2))
        ]
    return outcome_from_json(data)


A_SCORES = {"doc-1": 0.9, "doc-2": 0.5, "doc-3": 0.3, "doc-4": 0.75, "doc-5": 0.1}
B_SCORES = {"doc-1": 0.95, "doc-2": 0.7, "doc-3": 0.5, "doc-4": 0.8, "doc-5": 0.4}


def make_store(tmp_path: Path, *, evil: bool = False) -> tuple[Path, str, str]:
    """(store path, run A, run B). The data file ``docs.jsonl`` sits beside the store's folder, as
    ``sumjudge score docs.jsonl`` leaves it; ``evil`` puts markup in every text field."""
    ids = list(A_SCORES) + ([EVIL] if evil else [])
    src = (SOURCE + " " + EVIL) if evil else SOURCE
    with (tmp_path / "docs.jsonl").open("w", encoding="utf-8") as fh:
        for i in ids:
            fh.write(json.dumps({"id": i, "source": src, "summary": SUMMARY + (EVIL if evil else "")}) + "\n")
    store_path = tmp_path / ".sumjudge" / "runs.db"
    runs = []
    with RunStore(store_path) as store:
        for scores in (A_SCORES, B_SCORES):
            run, _ = store.open_run(model=MODEL, options=OPTIONS, data="docs.jsonl", fingerprint="f" * 64,
                                    total_items=len(ids) + 1, resume=False)
            for n, (i, s) in enumerate(scores.items(), start=1):
                store.record_item(run.id, n, record(i, s, source=src, spread=0.2 if i == "doc-4" else None))
            if evil:
                store.record_item(run.id, len(scores) + 1,
                                  record(EVIL, 0.6, source=src, claim=EVIL, reason=EVIL))
            store.record_item(run.id, len(ids) + 1, FailedItem(id="doc-failed", error="JudgeUnavailableError: " + (EVIL if evil else "503")))
            store.finish_run(run.id)
            runs.append(run.id)
    return store_path, runs[0], runs[1]
