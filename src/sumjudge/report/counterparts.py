"""The words of a disproving passage that stand where a claim's wrong words stand.

A judge that shows a claim wrong names the claim's words and what the source says instead; the scorer
finds that second word in the passage the judge quoted. The judge's word is not always the one in the
claim's place: for "Talks between the U.S. and Mexico ended" against "Talks between the United States
and Canada ended" a judge may name "States", a word the passage has but not where the claim has
"Mexico". The report aligns the two texts itself: the passage words whose neighbours match the claim
word's neighbours (before it, what stands before it in the claim; after it, what stands after) are its
counterpart, and that is what the report marks and names. Where the counterpart is the claim's own word,
the passage says what the claim says there: that pair is not shown, and a passage left with no
differing word is shown as the one the claim was judged against, never as its disproof.
"""

from __future__ import annotations

from typing import Any

import regex

_WORD = regex.compile(r"[\p{L}\p{N}][\p{L}\p{N}'’.,-]*[\p{L}\p{N}]|[\p{L}\p{N}]")
_REACH = 4
"""Neighbours read on each side of a claim's words."""
ANCHOR = 2
"""The fewest matching neighbours that place a counterpart: one shared word ("of", "the") places nothing."""

Words = list[tuple[int, int, str]]


def _words(text: str, lo: int, hi: int) -> Words:
    """The words of ``text[lo:hi]``: (start, end, folded form), offsets into ``text``."""
    return [(lo + m.start(), lo + m.end(), m.group().casefold()) for m in _WORD.finditer(text[lo:hi])]


def _run(mine: list[str], theirs: list[str]) -> int:
    """How many words the two sequences share from their first on, in order."""
    n = 0
    for a, b in zip(mine, theirs):
        if a != b:
            break
        n += 1
    return n


def _shape(text: str) -> tuple[bool, bool]:
    """What kind of words these are: a number (holds a digit), a name (starts with a capital)."""
    return any(c.isdigit() for c in text), text[:1].isupper()


def counterpart(
    summary: str, claim_at: list[int], source: str, passage_at: list[int], judged: list[int] | None
) -> tuple[int, int] | None:
    """Where in ``source[passage_at]`` the words stand that take the place of ``summary[claim_at]``,
    where the alignment is clear enough to overrule the judge: for a name or a number, the run of
    passage words (at most one more than the claim's, each of the same kind: a number for a number, a
    name for a name) whose neighbours match the claim words' neighbours best (the nearest first, both
    sides together at least :data:`ANCHOR` words) and better than the judge's own word (``judged``)
    does. ``None``: no run does."""
    said = _words(summary, 0, len(summary))
    inside = [i for i, (s, t, _) in enumerate(said) if s >= claim_at[0] and t <= claim_at[1]]
    passage = _words(source, passage_at[0], passage_at[1])
    if not inside or not passage:
        return None
    before = [w for _, _, w in reversed(said[max(0, inside[0] - _REACH):inside[0]])]
    after = [w for _, _, w in said[inside[-1] + 1:inside[-1] + 1 + _REACH]]
    kind = _shape(summary[claim_at[0]:claim_at[1]])
    if kind == (False, False):
        return None  # a common word ("buys" for "sells"): which word stands against it is the judge's reading

    def score(a: int, b: int) -> int:
        """How many neighbours of passage words ``a`` to ``b`` (exclusive) match the claim words'."""
        left = _run(before, [w for _, _, w in reversed(passage[max(0, a - _REACH):a])])
        return left + _run(after, [w for _, _, w in passage[b:b + _REACH]])

    own = [i for i, (s, t, _) in enumerate(passage) if judged and s >= judged[0] and t <= judged[1]]
    floor = max(ANCHOR, score(own[0], own[-1] + 1) + 1 if own else 0)
    ranked = [
        (score(a, b), a - b, -a, (passage[a][0], passage[b - 1][1]))
        for a in range(len(passage)) for b in range(a + 1, min(a + len(inside) + 1, len(passage)) + 1)
        if all(_shape(source[s:t]) == kind for s, t, _ in passage[a:b])
    ]
    top = max(ranked, default=None)  # the best-anchored run; then the shorter, the earlier
    return top[-1] if top is not None and top[0] >= floor else None


def _aligned(d: Any, summary: str, source: str, passage_at: list[int]) -> Any | None:
    """One differing pair with its source side set to the claim words' counterpart in the passage, the
    judge's where nothing aligns clearly; ``None`` where the passage has the claim's own words there (it
    shows nothing wrong with them). A pair the judge gave no source side (nothing stands in the claim
    word's place) is left as it is."""
    if not d.claim_offsets or not d.source:
        return d
    found = counterpart(summary, d.claim_offsets, source, passage_at, d.source_offsets)
    if found is None:
        return d
    theirs = source[found[0]:found[1]]
    if theirs.casefold() == summary[d.claim_offsets[0]:d.claim_offsets[1]].casefold():
        return None
    return d.model_copy(update={"source": theirs, "source_offsets": [found[0], found[1]]})


def with_counterparts(verdict: Any, source: str, summary: str) -> Any:
    """An unsupported claim's verdict with each differing word's source side aligned (module notes);
    any other verdict as it is."""
    at = getattr(verdict, "quote_offsets", None)
    if getattr(verdict, "supported", True) or not at or not getattr(verdict, "differs", None):
        return verdict
    kept = [x for d in verdict.differs if (x := _aligned(d, summary, source, at)) is not None]
    return verdict.model_copy(update={"differs": kept or None})


__all__ = ["counterpart", "with_counterparts"]
