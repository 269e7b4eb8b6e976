"""The offline lexical judge's few constants, one frozen value; docs/offline-judge.md says what each
does and docs/design-notes.md why it has its value."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..language.questions import FactRanking

__all__ = ["LexicalSettings"]


@dataclass(frozen=True)
class LexicalSettings:
    """The judge's few constants; docs/offline-judge.md says why each has its value."""

    window: int = 2
    """Largest number of consecutive source sentences a passage holds."""
    passages: int = 1
    """How many of the best passages a claim is checked against (supported when one suffices)."""
    strict_words: bool = True
    """An English content word that the source has in no form makes the claim unsupported (off: it
    only counts against ``support_threshold``, as numbers and names never do)."""
    support_threshold: float = 0.9
    """Share of a claim's weight that the window must hold (found, substituted or added)."""
    addition_share: float | None = 0.7
    """English: a claim word missing from the passage (a name or number aside) that stands
    in no passage word's slot (:func:`.extrinsic.in_slot`) is an *addition* (an adjective, a
    summarising noun, a connective: what paraphrase adds) and counts as held when the found words
    carry at least this share of the claim's weight; one in a slot is a substitution and makes the
    claim unsupported. ``None``: no word is an addition (every word the source lacks is extrinsic)."""
    pair_threshold: float = 0.6
    """Share of the claim's neighbouring word pairs that must stand close together in the one
    window sentence that holds both (catches words re-combined into a different fact)."""
    pair_distance: int = 4
    answer_threshold: float = 0.6
    """Share of a fact's weight that the summary must hold."""
    unsettled_presence: float = 0.31
    """What a question counts for when the summary holds its fact in part, lacking none of its numbers
    or names: the value that makes the coverage axis over the judge's own questions an unbiased
    estimate of the share of key facts people find in the summary (REALSumm's pyramid recall). It is
    the unchecked verdict's probability (it counts as answered only from one half up)."""
    unmeasured_presence: float = 0.5
    """``unsettled_presence`` in a language no human labels measured it on (every one but English):
    even odds, the words telling nothing either way. Korean's paraphrases (a native verb for a
    Sino-Korean one: 이기다 for 꺾다, 감소하다 for 줄다) leave more of a faithful summary's questions
    unsettled than English's do; counted at the English rate, they pulled faithful Korean summaries
    under 0.5 (docs/design-notes.md)."""
    lone_name_presence: float = 0.57
    """The same for a fact the summary carries but for its one name ("the council" for "the
    Grenshaw city council")."""
    ranking: FactRanking = field(default_factory=FactRanking)
