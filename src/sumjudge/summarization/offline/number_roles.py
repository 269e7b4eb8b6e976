"""A number that a claim and a passage share in another role: a change given as a level or a level
as a change ("fell by 4.1%" for "fell by 0.2 points to 4.1%"), or all of a number given for a part
of it ("All 40 students passed" for "Only three of the 40 passed"). Alignment shows such a claim as
unsupported (:func:`.wrong_numbers.number_errors`); coverage shows the question as contradicted
(:func:`number_role_changed`)."""

from __future__ import annotations

import regex

from ..language.units import Sentence
from ..language.number_kinds import change_link, led_by
from ..language.passages import Evidence


def number_role_changed(claim: Sentence, sentences: list[Sentence]) -> tuple[str, str] | None:
    """A number that ``claim`` and ``sentences`` share in another role, a change for a level or all
    for a part, either way round: (the claim's phrase, the sentences'), as written, or ``None``.
    Coverage asks it of a question's fact against the summary sentence closest to it."""
    window = Evidence(0, len(sentences), tuple(sentences), frozenset())
    for n in claim.numbers:
        if any(n in s.number_forms for s in sentences):
            found = change_for_level(claim, n, window) or all_for_part(claim, n, window)
            if found:
                return found
    for s in sentences:  # "all 40" in the sentences for "three of the 40" in the claim
        for n in s.numbers:
            if n in claim.number_forms and (part := all_for_part(s, n, Evidence(0, 1, (claim,), frozenset()))):
                return part[1], part[0]
    return None


def change_for_level(claim: Sentence, n: str, ev: Evidence) -> tuple[str, str] | None:
    """The claim gives ``n`` as a change where the passage gives it only as a level, or the other way
    round ("fell by 4.1%" where the passage says "fell by 0.2 points to 4.1%"): the claim's and the
    passage's phrases, as written; ``None`` where they agree or either says neither
    (:func:`..language.number_kinds.change_link`)."""
    form = claim.number_forms[n]
    mine = change_link(claim.text, form)
    if mine is None:
        return None
    theirs = {change_link(s.text, s.number_forms[n]) for s in ev.sentences if n in s.number_forms}
    theirs.discard(None)
    if not theirs or mine in theirs:
        return None
    return f"{mine} {form}", f"{sorted(theirs)[0]} {form}"


_ALL_OF = regex.compile(r"(?i)\b(?:all|each of|every one of)\s+(?:the\s+)?")
_PART_OF = regex.compile(
    r"(?i)\b(?:\d+|none|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|half|most|some|few|several"
    r"|many)\s+of\s+(?:(?:the|its|their|his|her)\s+)?"
)


def _phrase_of(pattern: regex.Pattern[str], text: str, form: str) -> str | None:
    """The first phrase of ``pattern`` and the number written ``form`` after it, as written."""
    return next((text[m.start() : m.end() + len(form)] for m in led_by(pattern, text, form)), None)


def all_for_part(claim: Sentence, n: str, ev: Evidence) -> tuple[str, str] | None:
    """The claim says all of ``n`` where the passage says a part of them ("All 40 students passed"
    where it says "Only three of the 40 students passed"): the two phrases, as written."""
    whole = _phrase_of(_ALL_OF, claim.text, claim.number_forms[n])
    if whole is None or any(_phrase_of(_ALL_OF, s.text, s.number_forms.get(n, "~")) for s in ev.sentences):
        return None
    for s in ev.sentences:
        part = _phrase_of(_PART_OF, s.text, s.number_forms.get(n, "~"))
        if part:
            return whole, part
    return None


__all__ = ["all_for_part", "change_for_level", "number_role_changed"]
