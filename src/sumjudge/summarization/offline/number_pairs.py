"""Whether two numbers of the same kind (:func:`.wrong_numbers.same_kind_of`) still measure two things:
a margin and a total ("won by 412 votes", "won with 5,138 votes"), a part or a whole and a count
("38 of the reports", "some of the 109 reports", "109 reports"), or counts of other things ("1.7
tonnes", "84,000 dryers"). Coverage sets only numbers that measure one thing against each other: a
summary that gives another measure has not stated the fact with another number
(:func:`.coverage.key_fact_missing`). English words."""

from __future__ import annotations

import regex

from ..language.units import Sentence
from ..language.lexicon import SCALE_WORDS, STOPWORDS
from ..language.number_kinds import is_margin

_SCALES = SCALE_WORDS | {"thousand", "thousands", "hundred", "hundreds", "mn", "k"}
_WORD_AFTER = regex.compile(r"[\s-]+([\p{L}'’]+)")
_PART = regex.compile(r"(?i)\s+of\s+(?:the|its|their|his|her|them|those|these)\b")
_WHOLE = regex.compile(
    r"(?i)\b(?:\d+|some|most|many|few|several|half|all|none|each|any|one|two|three)\s+of\s+"
    r"(?:the|its|their|his|her|those|these)\s+$"
)


def _at(s: Sentence, n: str) -> regex.Match[str] | None:
    form = s.number_forms.get(n, n)
    return regex.search(r"(?<![\p{L}\p{N}]|\p{N}[.,])" + regex.escape(form) + r"(?!\p{N}|[.,]\p{N})", s.text)


def _measured(s: Sentence, n: str) -> frozenset[str]:
    """The units of the words that name what ``s``'s number ``n`` measures: at most two content words
    right after it, a scale word ("million") skipped, up to the first comma or word such as "for"
    or "of" ("109 swimmers for days": swimmers; "1.7 tonnes, sold": tonnes)."""
    at, positions = _at(s, n), s.positions.get("#" + n, ())
    if at is None or not positions:
        return frozenset()
    taken, skipped, pos = 0, 0, at.end()
    while taken < 2 and (m := _WORD_AFTER.match(s.text, pos)):
        word, pos = m.group(1).lower(), m.end()
        if word in _SCALES:
            skipped += 1
        elif word in STOPWORDS["en"]:
            break
        else:
            taken += 1
    p = positions[0]
    after = [u for u in s.sequence[p + 1 : p + 1 + taken + skipped] if not u.startswith("#") and u not in _SCALES]
    return frozenset(after[:taken])


def _share(s: Sentence, n: str) -> str:
    """``"part"`` where ``s``'s number ``n`` counts a part of something ("38 of the reports"),
    ``"whole"`` where it counts what a part is taken from ("some of the 1.7 million dryers"), else
    ``""``."""
    at = _at(s, n)
    if at is None:
        return ""
    if _PART.match(s.text, at.end()):
        return "part"
    return "whole" if _WHOLE.search(s.text[: at.start()]) else ""


def measure_differs(fact: Sentence, n: str, other: Sentence, w: str) -> bool:
    """Whether ``other``'s number ``w`` measures something other than ``fact``'s number ``n``: one is
    a margin and the other not, one a part or a whole and the other not, or each names what it counts and they
    share no word."""
    if is_margin(fact.text, fact.number_forms.get(n, n)) != is_margin(other.text, other.number_forms.get(w, w)):
        return True
    if _share(fact, n) != _share(other, w):
        return True
    mine, theirs = _measured(fact, n), _measured(other, w)
    return bool(mine and theirs and not mine & theirs)


__all__ = ["measure_differs"]
