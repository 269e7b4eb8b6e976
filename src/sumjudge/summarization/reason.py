"""The reason of a summarization score, written from the verdicts with no model call."""

from __future__ import annotations

import re

from .axes import with_probability
from .result import SummarizationAnalysis, SummarizationPreprocess, alignment_ratio, coverage_ratio

_QUOTED = 5
"""Unsupported claims and unanswered questions quoted at most; the rest are counted."""


def _quote(items: list[str]) -> str:
    shown = "; ".join(f'"{s}"' for s in items[:_QUOTED])
    more = len(items) - _QUOTED
    return shown + (f"; and {more} more" if more > 0 else "")


_CONTRADICTS = re.compile(r"\bcontradict", re.IGNORECASE)
"""A coverage verdict's reason that says the summary contradicts the fact (the offline judge's "the summary
contradicts it: ...", a model's own words): the question is unanswered because the summary says otherwise."""


def _coverage_cause(contradicted: list[str], left_out: list[str]) -> str:
    """Why coverage is low, from its unanswered questions: contradicted, left out, or both."""
    if contradicted and left_out:
        return "the summary contradicts facts of the source and leaves out others"
    if contradicted:
        return "the summary contradicts facts of the source"
    return "the summary leaves out facts of the source"


def _graded_note(pre: SummarizationPreprocess, ana: SummarizationAnalysis) -> str:
    verdicts = [*pre.alignment, *ana.coverage]
    have = with_probability(verdicts)
    if have == len(verdicts):
        return "; graded: mean verdict probabilities"
    return f"; graded: mean verdict probabilities, {have} of {len(verdicts)} verdicts have one and the others count as 1 or 0"


def explain(
    source: str, summary: str, pre: SummarizationPreprocess, ana: SummarizationAnalysis, score: float,
    graded: bool = False,
) -> str:
    """Which axis set the score, and the claims and questions that cost it; with ``graded``, says the
    axes are mean verdict probabilities (and how many verdicts had none)."""
    if not source.strip():
        return "Score 0: the source is empty, so there is nothing to judge the summary against."
    if not summary.strip():
        return "Score 0: the summary is empty, so it makes no claims."
    if not pre.alignment:
        return "Score 0: no claims could be extracted from the summary."
    if not pre.questions:
        return "Score 0: no coverage questions could be drawn from the source."
    alignment, coverage = alignment_ratio(pre, graded), coverage_ratio(pre, ana, graded)
    axes = f"alignment {alignment:.2f}, coverage {coverage:.2f}" + (_graded_note(pre, ana) if graded else "")
    unsupported = [f"{v.claim}" + (f" ({v.reason})" if v.reason else "") for v in pre.alignment if not v.supported]
    missing = [v for v in ana.coverage if not v.answered and not v.unchecked]
    contradicted = [v.question for v in missing if _CONTRADICTS.search(v.reason or "")]
    unanswered = [v.question for v in missing if not _CONTRADICTS.search(v.reason or "")]
    unsettled = [v.question for v in ana.coverage if v.unchecked]
    unchecked_claims = sum(1 for v in pre.alignment if v.unchecked)
    if alignment == coverage == 1:
        return f"Score {score:.2f}: every claim is supported and every question is answered ({axes})."
    parts: list[str] = []
    if alignment < coverage:
        parts.append(f"Score {score:.2f} is set by alignment ({axes}): the summary states what the source does not support.")
    elif coverage < alignment:
        parts.append(f"Score {score:.2f} is set by coverage ({axes}): {_coverage_cause(contradicted, unanswered)}.")
    else:
        parts.append(f"Score {score:.2f} is set by both axes equally ({axes}).")
    if unsupported:
        parts.append(f"Unsupported claims: {_quote(unsupported)}.")
    if contradicted:
        parts.append(f"Contradicted questions: {_quote(contradicted)}.")
    if unanswered:
        parts.append(f"Unanswered questions: {_quote(unanswered)}.")
    if unsettled:
        parts.append(
            f"Unchecked questions ({len(unsettled)} of {len(pre.questions)}: the judge could neither find the "
            f"answer nor show it missing; each counts as its probability): {_quote(unsettled)}."
        )
    if unchecked_claims:
        parts.append(
            f"Unchecked claims: {unchecked_claims} of {len(pre.alignment)} (nothing contradicts them, but the "
            "judge could not confirm them either)."
        )
    return " ".join(parts)
