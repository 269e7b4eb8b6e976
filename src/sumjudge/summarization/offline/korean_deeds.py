"""A Korean name given another's deeds: the claim says of one person of the article what the source
says of another ("3회 역전 3점 홈런을 친 임찬규는" where the source has "임찬규가 ... 막았고, 문보경은 3회
역전 3점 홈런을 터뜨렸다"). Korean puts a relative clause before the name it describes and a subject
before its predicate, so the words around a name change sides between a claim and its source; the
words near each mention, on either side, say whose deed it is."""

from __future__ import annotations

import regex

from ..language.units import Document, Sentence
from ..language.korean_units import KoreanSentence
from ..language.segment import quote

NEAR = 6
"""Units on either side of a name that count as what the sentence says of it."""
DEEDS = 3
"""Claim units another name must have near it in the source, at least, and this many fewer than two
near the claim's own name there, for the claim's name to stand in the other's place."""
_PERSON = regex.compile(r"^\p{Hangul}{3}$")
"""A Korean person's full name, as news writes one: a proper noun of three syllables (a family name
and a given name). Places and bodies, whose words also sit near each other (서울, 마포구), are left out."""


def _near(s: Sentence, name: str) -> set[str]:
    """The units within :data:`NEAR` of each mention of ``name`` in ``s``."""
    out: set[str] = set()
    for i, u in enumerate(s.sequence):
        if u == name:
            out.update(s.sequence[max(0, i - NEAR): i + NEAR + 1])
    return out - {name}


def deeds_of_another(claim: Sentence, doc: Document) -> tuple[str, str, str] | None:
    """(the claim's name, the source's name whose deeds the claim gives it, the source sentence that
    says so), or ``None``."""
    if not isinstance(claim, KoreanSentence):
        return None
    said = {u for u in claim.units if u not in claim.names}
    for name in claim.names:
        form = claim.name_forms.get(name, "")
        if not _PERSON.match(form) or not any(name in s.units for s in doc.sentences):
            continue
        own = max(len(_near(s, name) & said) for s in doc.sentences if name in s.units)
        best: tuple[int, str, str] | None = None
        for s in doc.sentences:
            for other in s.names:
                theirs = s.name_forms.get(other, "")
                if other in claim.names or not _PERSON.match(theirs) or theirs in form or form in theirs:
                    continue
                shared = len(_near(s, other) & said)
                if shared >= DEEDS and shared >= own + 2 and (best is None or shared > best[0]):
                    best = (shared, s.name_forms[other], s.text)
        if best is not None:
            return form, best[1], quote(best[2], 100)
    return None


__all__ = ["deeds_of_another"]
