"""A short English phrase that negates by ellipsis ("but not for children", ", not in Vienna"),
read with the predicate it borrows from the phrase before it, so that the polarity checks of
:mod:`.support` can compare it with a claim: alone, "but not to vans" shares too little with "The law
applies to vans" to contradict it."""

from __future__ import annotations

import regex

from ..language.units import Sentence
from ..language.phrases import Phrase
from ..language.lexicon import DATE_WORDS


_ELLIPSIS_EN = regex.compile(
    r"(?i)^(?:but|and|yet|though|or)?\s*not\s+(?!only\b|just\b|merely\b|least\b|even\b|because\b|that\b|be\b|been\b|have\b|has\b|had\b)"
)
"""English: a short phrase that negates by ellipsis ("but not for children", ", not by lightning"):
it borrows the predicate of the phrase before it. "not only", "not just" and "not because" add,
they do not exclude."""


def filled_phrases(s: Sentence, lang: str = "") -> list[Phrase]:
    """``s``'s phrases, each English phrase that negates by ellipsis given the predicate it borrows:
    "The law applies to cars but not to vans" says "the law does not apply to vans", so its second
    phrase is the first one's words, less what is contrasted (the last word of the same kind as the
    ellipsis's first: "cars"; a place for a place, "Geneva" and not the "June" after it in "held in
    Geneva in June, not in Vienna"), with its own ("vans"), negated, added after the phrases as
    written, with the text of both. Alone, "but not to vans" shares too little with a claim to
    contradict it."""
    phrases = list(s.phrases)
    if lang != "en":
        return phrases
    for k in range(1, len(s.phrases)):
        p, prev = s.phrases[k], s.phrases[k - 1]
        if not p.negated or prev.negated or not p.units or len(p.text.split()) > 6 or not _ELLIPSIS_EN.match(p.text):
            continue
        first = min((s.sequence.index(u) for u in p.units if u in s.sequence), default=0)
        before = [u for u in reversed(s.sequence[:first]) if u in prev.units]
        alike = [u for u in before if _kind(s, u) == _kind(s, s.sequence[first])]
        contrasted = (alike or before or [None])[0]
        if contrasted is None:
            continue
        # "to cars ... not to vans": a "to" that both sides repeat is the verb's preposition, and so is
        # "to" before an infinitive contrasted with another ("decided to stay but not to vote")
        own = frozenset() if contrasted in prev.infinitives else p.infinitives
        text = s.text[s.text.find(prev.text): s.text.find(p.text) + len(p.text)] or f"{prev.text} {p.text}"
        phrases.append(Phrase(text, (prev.units - {contrasted}) | p.units, True, p.scope, (prev.infinitives - {contrasted}) | own))
    return phrases


def _kind(s: Sentence, unit: str) -> tuple[bool, bool]:
    """What a unit of ``s`` is, for a contrast: a name or not, a date or not."""
    return unit in s.names, s.name_forms.get(unit, "").lower() in DATE_WORDS


__all__ = ["filled_phrases"]
