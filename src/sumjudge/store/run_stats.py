"""The figures of a run, over the items that finished without error: count, mean (with its bootstrap
interval), median, p10, the lowest score, both axes' means, zero scores, errors, calls and tokens.

Read from a run store's items by :func:`read_run_stats` (what :meth:`sumjudge.store.RunStore.stats`
returns); shown by the end table, ``sumjudge runs show`` and the HTML report; judged by the gates.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class RunStats:
    """The end-of-run figures: over items that finished without error."""

    count: int
    errors: int
    mean: float | None
    median: float | None
    p10: float | None
    mean_alignment: float | None
    mean_coverage: float | None
    zero_scores: int
    tokens: int
    calls: int
    min_score: float | None = None
    """The lowest item score (``--min-item-score``)."""
    mean_ci: tuple[float, float] | None = None
    """95% bootstrap interval of ``mean`` (items resampled, seeded); ``None`` under two items."""
    alignment_ci: tuple[float, float] | None = None
    coverage_ci: tuple[float, float] | None = None
    confidence: float = 0.95
    cached_tokens: int = 0
    """Prompt tokens the provider served from its prompt cache (part of ``tokens``)."""
    claims: int = 0
    """Claims judged, over the items that finished."""
    unchecked_claims: int = 0
    """Of them, those the judge could neither confirm nor show wrong (``unchecked`` verdicts: the
    offline judge's claims with words it does not find and no error it can show)."""

    @property
    def unchecked_share(self) -> float | None:
        """The share of claims left unchecked ("12% of claims unchecked"); ``None`` without claims."""
        return self.unchecked_claims / self.claims if self.claims else None
    questions: int = 0
    """Coverage verdicts, over the items that finished."""
    unchecked_questions: int = 0
    """Of them, those the judge could neither answer nor show missing (``unchecked``: each counts in
    coverage as its probability)."""

    @property
    def unchecked_question_share(self) -> float | None:
        """The share of questions left unchecked; ``None`` without questions."""
        return self.unchecked_questions / self.questions if self.questions else None
    evidence_verified: int = 0
    """Verdicts (claims and questions) whose quote holds them up (``verified``)."""
    evidence_checked: int = 0
    """Verdicts whose quote the scorer checked (all of a run scored since quotes exist)."""

    @property
    def evidence_share(self) -> float | None:
        """The share of checked verdicts whose evidence was located (``None``: none checked)."""
        return self.evidence_verified / self.evidence_checked if self.evidence_checked else None

    @property
    def evidence_line(self) -> str | None:
        """"evidence located for 97% of verdicts (194 of 200)", or ``None`` when nothing was checked."""
        share = self.evidence_share
        if share is None:
            return None
        return f"evidence located for {share:.0%} of verdicts ({self.evidence_verified:,} of {self.evidence_checked:,})"

    @classmethod
    def from_sorted_scores(
        cls,
        scores: list[float],
        *,
        mean_alignment: float | None,
        mean_coverage: float | None,
        tokens: int,
        calls: int,
        errors: int,
        alignment: list[float] | None = None,
        coverage: list[float] | None = None,
        cached_tokens: int = 0,
        claims: int = 0,
        unchecked_claims: int = 0,
        evidence: tuple[int, int] = (0, 0),
        questions: int = 0,
        unchecked_questions: int = 0,
    ) -> RunStats:
        """``alignment`` and ``coverage`` (per-item values) give those means their intervals."""
        from ..figures.stats import CONFIDENCE, mean_interval

        def ci(values: list[float] | None) -> tuple[float, float] | None:
            if not values:
                return None
            est = mean_interval(values)
            return None if est.ci_low is None or est.ci_high is None else (est.ci_low, est.ci_high)

        n = len(scores)
        return cls(
            count=n,
            errors=errors,
            mean=sum(scores) / n if n else None,
            median=_quantile(scores, 0.5),
            p10=_quantile(scores, 0.1),
            mean_alignment=mean_alignment,
            mean_coverage=mean_coverage,
            zero_scores=sum(1 for s in scores if s == 0),
            tokens=tokens,
            calls=calls,
            min_score=scores[0] if scores else None,
            mean_ci=ci(scores),
            alignment_ci=ci(alignment),
            coverage_ci=ci(coverage),
            confidence=CONFIDENCE,
            cached_tokens=cached_tokens,
            claims=claims,
            unchecked_claims=unchecked_claims,
            questions=questions,
            unchecked_questions=unchecked_questions,
            evidence_verified=evidence[0],
            evidence_checked=evidence[1],
        )

    def as_dict(self) -> dict[str, Any]:
        return {
            "count": self.count,
            "errors": self.errors,
            "mean": self.mean,
            "mean_ci_low": self.mean_ci[0] if self.mean_ci else None,
            "mean_ci_high": self.mean_ci[1] if self.mean_ci else None,
            "median": self.median,
            "p10": self.p10,
            "min": self.min_score,
            "mean_alignment": self.mean_alignment,
            "mean_alignment_ci_low": self.alignment_ci[0] if self.alignment_ci else None,
            "mean_alignment_ci_high": self.alignment_ci[1] if self.alignment_ci else None,
            "mean_coverage": self.mean_coverage,
            "mean_coverage_ci_low": self.coverage_ci[0] if self.coverage_ci else None,
            "mean_coverage_ci_high": self.coverage_ci[1] if self.coverage_ci else None,
            "confidence": self.confidence,
            "zero_scores": self.zero_scores,
            "total_tokens": self.tokens,
            "cached_tokens": self.cached_tokens,
            "judge_calls": self.calls,
            "claims": self.claims,
            "unchecked_claims": self.unchecked_claims,
            "questions": self.questions,
            "unchecked_questions": self.unchecked_questions,
            "evidence_verified": self.evidence_verified,
            "evidence_checked": self.evidence_checked,
        }


def _quantile(sorted_values: list[float], q: float) -> float | None:
    """Linear interpolation between closest ranks (numpy's default)."""
    if not sorted_values:
        return None
    pos = (len(sorted_values) - 1) * q
    lo = int(pos)
    hi = min(lo + 1, len(sorted_values) - 1)
    return sorted_values[lo] + (sorted_values[hi] - sorted_values[lo]) * (pos - lo)


_EVIDENCE = (
    "SELECT SUM(json_extract(v.value, '$.verified') = 1), SUM(json_extract(v.value, '$.verified') IS NOT NULL) FROM"
    " (SELECT value FROM items, json_each(items.record, '$.verdicts.alignment') WHERE run_id = ? AND status = 'ok'"
    " UNION ALL SELECT value FROM items, json_each(items.record, '$.verdicts.coverage') WHERE run_id = ? AND status = 'ok')"
    " AS v"
)


def read_run_stats(db: sqlite3.Connection, run_id: str, *, axes: bool = True) -> RunStats:
    """The figures of run ``run_id`` from the ``items`` table of a run store, with the 95% bootstrap
    interval of each mean (items resampled, seeded); ``axes=False`` leaves out the intervals of the two
    axes' means (a third of the cost)."""
    rows = db.execute(
        "SELECT score, alignment_score, coverage_score FROM items WHERE run_id = ? AND status = 'ok'"
        " ORDER BY score",
        (run_id,),
    ).fetchall()
    scores = [r[0] for r in rows]
    agg = db.execute(
        "SELECT AVG(alignment_score), AVG(coverage_score), SUM(tokens), SUM(calls),"
        " SUM(status = 'error'), SUM(COALESCE(json_extract(record, '$.usage.cached_tokens'), 0))"
        " FROM items WHERE run_id = ?",
        (run_id,),
    ).fetchone()
    claims, questions = (
        db.execute(
            "SELECT COUNT(*), SUM(COALESCE(json_extract(c.value, '$.unchecked'), 0))"
            f" FROM items, json_each(items.record, '$.verdicts.{step}') AS c WHERE run_id = ? AND status = 'ok'",
            (run_id,),
        ).fetchone()
        for step in ("alignment", "coverage")
    )
    return RunStats.from_sorted_scores(
        scores,
        mean_alignment=agg[0],
        mean_coverage=agg[1],
        tokens=agg[2] or 0,
        calls=agg[3] or 0,
        errors=agg[4] or 0,
        alignment=[r[1] for r in rows if r[1] is not None] if axes else None,
        coverage=[r[2] for r in rows if r[2] is not None] if axes else None,
        cached_tokens=agg[5] or 0,
        claims=claims[0] or 0,
        unchecked_claims=claims[1] or 0,
        questions=questions[0] or 0,
        unchecked_questions=questions[1] or 0,
        evidence=_evidence(db, run_id),
    )


def _evidence(db: sqlite3.Connection, run_id: str) -> tuple[int, int]:
    """``(verified, checked)`` over the verdicts of the run's scored items (the shown sample's)."""
    row = db.execute(_EVIDENCE, (run_id, run_id)).fetchone()
    return row[0] or 0, row[1] or 0


__all__ = ["RunStats", "read_run_stats"]
