"""Long sources made up for the tests: filler sentences with one needle, and a scripted judge that
supports a claim when it occurs word for word in the passages it is shown."""

from __future__ import annotations

from typing import Any

from scripted import ScriptedJudge, answers

from sumjudge.summarization.verdicts import (
    ALIGNMENT_STEP,
    CLAIMS_STEP,
    COVERAGE_STEP,
    QUESTIONS_STEP,
)

TOWNS = ["Arlen", "Brisco", "Calder", "Dunmore", "Elswick", "Fenwick", "Garrow", "Holt", "Ilford", "Jarrow", "Kelso"]
THINGS = ["bridges", "schools", "wells", "orchards", "mills", "ferries", "libraries", "markets", "clinics"]
NEEDLE = "The lighthouse keeper Mara Olsen counted 4,812 gulls on Skerry Point in 1997."


def filler(n: int, first: int = 0) -> str:
    return " ".join(
        f"Entry {i}: in year {1900 + i % 97} the council of {TOWNS[i % 11]} inspected {i % 50 + 3} {THINGS[i % 9]} "
        f"and reported {TOWNS[(i * 7) % 11]} as its partner."
        for i in range(first, first + n)
    )


def long_source(sentences: int = 1200, needle_at: float = 0.6) -> str:
    head, tail = filler(int(sentences * needle_at)), filler(sentences - int(sentences * needle_at), sentences)
    return f"{head} {NEEDLE} {tail}"


def passage_judge(claimed: list[str], window: int, **steps: Any) -> ScriptedJudge:
    """Claims as scripted; a claim is supported when it occurs word for word in the passages shown."""

    def check(request: Any) -> dict[str, Any]:
        shown = request.inputs.source or ""
        return {
            "alignment": [
                {"claim": c, "supported": c in shown, "reason": "quoted" if c in shown else "absent"}
                for c in request.inputs.claims or []
            ]
        }

    def questions(request: Any) -> dict[str, Any]:
        part = request.inputs.source or ""
        n = request.inputs.max_questions or 1
        return {"questions": [f"Does the passage {abs(hash(part)) % 10**8} make point {i}?" for i in range(n)]}

    j = ScriptedJudge(
        **{
            CLAIMS_STEP: {"claims": claimed},
            ALIGNMENT_STEP: check,
            QUESTIONS_STEP: questions,
            COVERAGE_STEP: answers(*([True] * 50)),
            **steps,
        }
    )
    j.context_window = window  # type: ignore[attr-defined]
    return j
