"""Coverage read against alignment: an answer whose only evidence is a claim the source does not support
does not count.

Alignment (A) and coverage (C) run side by side, and C never sees the source, so a sentence the summary
invents can answer a question as well as a true one can: "Governor Ruiz said the pool opened in 1964"
answers "did the pool open in 1964?" though the source never says it. Once both steps are in, the
scorer finds where each claim lies in the summary; a question counted as answered whose quote overlaps
claims found unsupported (or contradicted) and no supported claim is re-decided as unanswered, so a
summary never gains coverage by what it gets wrong. Where a supported claim cannot be placed in the
summary (a judge that rewrote its claims), nothing is re-decided: the support may lie in the quote.

A claim the judge showed wrong only in details that its passage states otherwise ("closed for six
months" where the passage that states the rest says "six weeks", each differing word located there) is
not counted among them: the rest of it is what the source says, and the detail already costs alignment
and any question about it; counting those too would take a second point off a summary for one wrong
detail. Only firm answers are re-decided: an *unchecked* verdict's quote is just the nearest sentence.
"""

from __future__ import annotations

from .quotes import locate
from .verdicts import AlignmentVerdict, CoverageVerdict

RESTS_ON_UNSUPPORTED = "its answer rests only on a claim the source does not support"
"""The start of the reason of an answer re-decided here."""


def _span(claim: AlignmentVerdict, summary: str) -> tuple[int, int] | None:
    """Where the claim lies in the summary, or ``None`` where it cannot be placed."""
    found = locate(claim.claim, summary)
    return None if found is None else (found.start, found.end)


def _overlaps(span: tuple[int, int], quote: list[int], summary: str) -> bool:
    """Whether ``span`` shares a letter or digit with the quote's span of the summary."""
    lo, hi = max(span[0], quote[0]), min(span[1], quote[1])
    return any(c.isalnum() for c in summary[lo:hi])


def _detail_stated_otherwise(claim: AlignmentVerdict) -> bool:
    """Whether the judge showed the claim wrong only in details that its passage states otherwise: each
    differing word with the source's word in its place ("six months" where the passage that states the
    rest has "six weeks"). The rest of such a claim is what the source says, and may answer a question."""
    return bool(claim.differs) and all(d.source and d.source_offsets for d in claim.differs or [])


def _firm_answer(v: CoverageVerdict) -> bool:
    """Whether the verdict is an answer its quote stands for: answered and not *unchecked*. An
    unchecked verdict counts how often such a fact is present; its quote is only the nearest sentence
    (the first of equals, so it moves when the summary's sentences are reordered), not what answers."""
    return v.answered and not v.unchecked


def answers_on_unsupported_claims(
    alignment: list[AlignmentVerdict], coverage: list[CoverageVerdict], summary: str
) -> list[CoverageVerdict]:
    """``coverage`` with every answer that rests only on unsupported claims re-decided as unanswered
    (module notes): its quote, located in the summary, overlaps at least one unsupported claim and no
    supported one. The verdict keeps its quote and says why in its reason."""
    holds = [v.supported or _detail_stated_otherwise(v) for v in alignment]  # what may answer a question
    unsupported = [v for v, ok in zip(alignment, holds) if not ok]
    if not unsupported or not any(_firm_answer(v) and v.quote_offsets for v in coverage):
        return coverage
    wrong = [(v.claim, at) for v in unsupported if (at := _span(v, summary)) is not None]
    right = [_span(v, summary) for v, ok in zip(alignment, holds) if ok]
    if not wrong or any(at is None for at in right):
        return coverage
    out = []
    for v in coverage:
        quote = v.quote_offsets
        on = [claim for claim, at in wrong if quote and _overlaps(at, quote, summary)]
        if _firm_answer(v) and on and not any(_overlaps(at, quote, summary) for at in right if at and quote):
            v = v.model_copy(update={
                "answered": False, "probability": None,
                "reason": f'{RESTS_ON_UNSUPPORTED} ("{on[0]}"); the judge said: {v.reason}',
            })
        out.append(v)
    return out


__all__ = ["RESTS_ON_UNSUPPORTED", "answers_on_unsupported_claims"]
