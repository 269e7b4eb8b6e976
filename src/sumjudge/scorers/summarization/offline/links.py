"""Link words turned around: a claim that has a function word where the passage has its opposite
between the same two words ("resigned before the vote" for "resigned after the vote", "voted for
the bill" for "voted against", "moved to Boston" for "moved from Boston"), or another unit of the
same kind after the same count ("six months" for "six years"). Such words are no content units, so
the antonym pairs cannot hold them."""

from __future__ import annotations

from ..language.analysis import Sentence
from ..language.lexicon import DETERMINERS_EN
from ..language.polarity import UNITS_OF_MEASURE, opposites_after
from ..language.tokens import WORD


def _next_word(low: list[str], i: int) -> str:
    """The first word after ``low[i]`` that is no article or possessive ("the" of "before the vote")."""
    return next((w for w in low[i + 1:] if w not in DETERMINERS_EN), "")


def opposite_link(
    claim: Sentence, sentences: tuple[Sentence, ...] | list[Sentence], lang: str
) -> tuple[str, str, Sentence] | None:
    """The claim has a word of :func:`..language.polarity.opposites_after` where one of ``sentences``
    has its opposite between the same two words ("The minister resigned before the vote" for "...
    resigned after the vote", "voted for the bill" for "voted against the bill", "six months in
    prison" for "six years in prison"), and
    that sentence does not also have the claim's word after the same word. Symmetric: a coverage fact
    against the summary works the same way. Returns the claim's word and the sentence's, as written,
    and the sentence; ``None`` otherwise."""
    words = WORD.findall(claim.text)
    low = [w.lower() for w in words]
    for i in range(1, len(low)):
        others = opposites_after(low[i], low[:i], lang)
        if not others:
            continue
        after = _next_word(low, i)
        for s in sentences:
            theirs = WORD.findall(s.text)
            tlow = [t.lower() for t in theirs]
            for k in range(1, len(tlow)):
                # a unit after the same count may also be led by the same word ("at least six months
                # after" for "at least six weeks while")
                led = k > 1 and i > 1 and tlow[k - 2] == low[i - 2] and low[i] in UNITS_OF_MEASURE
                if tlow[k] in others and tlow[k - 1] == low[i - 1] and (led or _next_word(tlow, k) == after):
                    if not any(tlow[j] == low[i] and tlow[j - 1] == low[i - 1] for j in range(1, len(tlow))):
                        return words[i], theirs[k], s
    return None


__all__ = ["opposite_link"]
