"""A comparison turned around: the two sides of "more than", "faster than" swapped ("Prices rose
faster than wages" where the source says "Wages rose faster than prices")."""

from __future__ import annotations

import regex

from ..language.units import Sentence
from ..language.tokens import WORD_OR_MARK


_THAN = regex.compile(r"(?i)(?<!\w)than(?!\w)")
_NOT_COMPARATIVES = frozenset(
    "other rather whether never ever however under over after per her their together former later number "
    "member order water summer winter quarter center centre".split()
)
_GRADED = frozenset({"more", "less", "fewer", "better", "worse"})


def _compared(s: Sentence) -> tuple[str, set[str], str, str] | None:
    """A comparison in ``s`` ("Wages rose faster than prices"): its comparative ("faster", "more"),
    the forms of the content words before it, and the first content word after "than" with its
    form as written; ``None`` without one, or where a number follows "than" ("more than 200")."""
    m = _THAN.search(s.text)
    if m is None:
        return None
    before = [w.lower() for w in WORD_OR_MARK.findall(s.text, 0, m.start())]
    graded = next((w for w in reversed(before[-4:]) if w in _GRADED or (
        len(w) > 4 and w.endswith("er") and w not in _NOT_COMPARATIVES)), None)
    forms = {f.lower(): u for u, f in s.forms.items()}
    after = next((w for w in WORD_OR_MARK.findall(s.text, m.end()) if w.lower() in forms), None)
    if graded is None or after is None or forms[after.lower()].startswith("#"):
        return None
    return graded, {forms[w] for w in before if w in forms and w != graded}, forms[after.lower()], after


def comparison_swap(claim: Sentence, sentences: tuple[Sentence, ...] | list[Sentence]) -> tuple[str, str, str] | None:
    """The two sides of a comparison swapped ("Prices rose faster than wages" where a sentence of
    ``sentences`` has "Wages rose faster than prices"): the same comparative in both, and each one's
    word after "than" stands before the comparative in the other. A comparison turned around with
    the opposite word ("Samsung sold fewer phones than Apple") uses another comparative: no swap.
    Returns the claim's word after "than", the sentence's, and "after '<comparative> than'"."""
    mine = _compared(claim)
    if mine is None:
        return None
    for s in sentences:
        theirs = _compared(s)
        if theirs is None or theirs[0] != mine[0] or theirs[2] == mine[2]:
            continue
        if mine[2] in theirs[1] and theirs[2] in mine[1] and mine[2] not in mine[1] and theirs[2] not in theirs[1]:
            return mine[3], theirs[3], f"after {mine[0] + ' than'!r}"
    return None


__all__ = ["comparison_swap"]
