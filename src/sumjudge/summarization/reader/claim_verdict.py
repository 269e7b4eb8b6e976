"""One claim's verdict from what the reader read: the model's P for the claim, the P of its best
alternative from the source (:mod:`.contrast`), and the words' proof where they have one.

In that order of strength: words that prove the claim wrong decide; else an alternative the model
finds clearly more probable than the claim (by ``contrast_margin`` in log-odds) makes it unsupported,
its P the claim's chance against that alternative; else the claim's own P against ``threshold``, and
against its summary's best other claim (:func:`best_of_others`: unsupported ``peer_margin`` log-odds
or more below it, its P kept).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from ...judges.next_token import YesNoAnswer
from ..language import DraftClaim, Drafts
from ..verdicts import AlignmentVerdict
from .contrast import Alternative, beaten_by
from .settings import ReaderSettings


@dataclass(frozen=True)
class Contrast:
    """A claim's best alternative (the one the model finds most probable) and its answer."""

    alternative: Alternative
    answer: YesNoAnswer
    asked: int
    """How many alternatives were asked."""


def best_of_others(answers: list[YesNoAnswer]) -> list[YesNoAnswer | None]:
    """For each of a summary's claims, the answer of its most probable other claim (None: no other)."""
    out: list[YesNoAnswer | None] = []
    for i in range(len(answers)):
        others = answers[:i] + answers[i + 1 :]
        out.append(max(others, key=lambda a: a.p_yes) if others else None)
    return out


def claim_verdict(
    claim: DraftClaim, answer: YesNoAnswer, drafts: Drafts, s: ReaderSettings,
    words: AlignmentVerdict | None = None, contrast: Contrast | None = None, peer: YesNoAnswer | None = None,
) -> AlignmentVerdict:
    """The model's verdict, unless the words show the claim wrong (then they decide), the source's
    alternative reads as clearly more probable, or the claim reads far below ``peer`` (the summary's
    best other claim). Where the words and the model disagree (the words show an error the model
    passes, or state the claim in one passage that the model does not support) the reason says so."""
    t = s.threshold
    proof = words if words is not None and not words.supported else None
    where = ", ".join(p.where for p in claim.passages) or "the source"
    if s.layout == "source" and len(drafts.sentences) > 1:
        closest = " and ".join(p.where for p in claim.passages)
        where = f"the whole source (closest: source {closest})" if closest else "the whole source"
    best = claim.passages[0] if claim.passages else None
    # the quote: the passage that holds most of the claim, as the source has it (the scorer locates
    # and verifies it, as any judge's quote)
    quote = " ".join(drafts.sentences[best.start : best.end]) if best is not None else ""
    quoted = f': "{quote[:160]}{"..." if len(quote) > 160 else ""}"' if quote else ""
    kept = round(answer.p_yes, 4)  # one rounding: the reason shows the number the verdict carries
    read = f"P(supported) = {kept:.2f} (threshold {t:.2f}), read against {where}{quoted}"
    against = _against(answer, contrast)
    if proof is not None:  # shown by words: the model's P stays in the reason, scaled down in the verdict
        p = answer.p_yes * s.proof_scale
        reason = f"not supported, shown by words: {proof.reason}; the model read {read}"
        if answer.p_yes >= t:
            reason += "; the words and the model disagree: the model alone would call it supported"
        # the words' evidence goes with them: the passage that disproves the claim, the words that differ
        return AlignmentVerdict(claim=claim.text, quote=proof.quote or quote, reason=reason, supported=False,
                                probability=round(p, 4), differs=proof.differs, decided_by="words")
    if contrast is not None:
        gap = beaten_by(answer.p_yes, contrast.answer.p_yes)
        if gap >= s.contrast_margin:  # the source's own value reads as the one it states
            p = round(min(answer.p_yes, 1 / (1 + math.exp(gap))), 4)
            reason = (f"not supported: the source's alternative reads as more probable than the claim: {against}; "
                      f"the model read {read}")
            return AlignmentVerdict(claim=claim.text, quote=quote, reason=reason, supported=False, probability=p,
                                    decided_by="contrast")
    supported = answer.p_yes >= t
    reason = f"{'supported' if supported else 'not supported'}: {read}"
    below = beaten_by(answer.p_yes, peer.p_yes) if peer is not None and s.peer_margin > 0 else 0.0
    ruled = supported and peer is not None and below >= s.peer_margin > 0
    if ruled and peer is not None:  # far below the summary's true claims
        supported = False
        reason = (f"not supported: its P reads {below:.1f} log-odds below the summary's best other claim "
                  f"(P = {peer.p_yes:.3f}; margin {s.peer_margin:g}): {read}")
    if against:
        reason += f"; {against}"
    if not supported and words is not None and not words.unchecked:
        reason += f"; the words and the model disagree: the words find it {words.reason.split(':')[0]}"
    return AlignmentVerdict(claim=claim.text, quote=quote, reason=reason, supported=supported, probability=kept,
                            decided_by="peer" if ruled else None)


def _against(answer: YesNoAnswer, contrast: Contrast | None) -> str:
    """The claim's P beside its best alternative's, both with three decimals (the two are often near 1)."""
    if contrast is None:
        return ""
    alt = contrast.alternative
    return (f"the claim P = {answer.p_yes:.3f}, its best alternative from the source "
            f"(\"{alt.was}\" -> \"{alt.now}\", best of {contrast.asked}) P = {contrast.answer.p_yes:.3f}: "
            f"\"{alt.text[:200]}\"")


__all__ = ["Contrast", "best_of_others", "claim_verdict"]
