"""Which written names are one name, for the offline judge's proofs: a words-only judge
may call a name "not in the source" only when no form of it is there.

A name is the source's when the source writes it another way: a people for its place ("English" /
"England", :data:`DEMONYMS`), an abbreviation ("Man Utd" / "Manchester United"), an acronym either way
("UN" / "United Nations", "Higher School Certificate" / "HSC"), joined, split, hyphenated or without its
accents ("X-Factor" / "X Factor", "Mac Arthur" / "MacArthur", "Yuki" / "Yûki": :func:`.tokens.squash`),
"American" for "U.S.". Two written names are one name (:func:`same_name`) when one is the other with an
ending, a part of its hyphenated word, its people, or a one-letter misspelling. Some capitalised words
are no names at all: a common word opening a sentence (:func:`common_opener`), words in capitals
(:func:`shouted`).
"""

from __future__ import annotations

import regex

from .units import Document
from .lexicon import OPENING_WORDS_EN
from .word_lookups import unit_of_word
from .tokens import squash

_CAP_RUN = regex.compile(r"\p{Lu}[\p{L}\p{M}'’\-]*(?:\s+(?:(?:of|the|and|for|de)\s+)*\p{Lu}[\p{L}\p{M}'’\-]*)+")
_CONNECTORS = frozenset({"of", "the", "and", "for", "de"})


DEMONYMS = {
    "english": "england", "british": "britain", "briton": "britain", "french": "france", "dutch": "netherland",
    "spanish": "spain", "welsh": "wale", "scottish": "scotland", "scot": "scotland", "irish": "ireland",
    "swiss": "switzerland", "greek": "greec", "turkish": "turkey", "danish": "denmark", "swedish": "sweden",
    "norwegian": "norway", "finnish": "finland", "polish": "poland", "chines": "china", "portugues": "portug",
    "filipino": "philippin", "thai": "thailand", "peruvian": "peru", "iraqi": "iraq", "israeli": "israel",
    "pakistani": "pakistan", "afghan": "afghanistan", "saudi": "saudi", "yemeni": "yemen", "kurdish": "kurd", "geordi": "newcastl",
}
"""Demonym stems -> the place's stem (English): "English" is the same fact as "England"."""


def acronyms(text: str) -> frozenset[str]:
    """Lower-cased initials of the runs of capitalised words in ``text`` ("United Nations" -> "un")."""
    out: set[str] = set()
    for m in _CAP_RUN.finditer(text):
        words = [w for w in m.group().split() if w.lower() not in _CONNECTORS]
        if 2 <= len(words) <= 6:
            out.add("".join(w[0] for w in words).lower())
    return frozenset(out)


def spelled_out(text: str, doc: Document) -> frozenset[str]:
    """Lower-cased words of the runs of capitalised words in ``text`` whose initials the source
    writes as a word of its own ("Higher School Certificate" for the source's "HSC")."""
    out: set[str] = set()
    for m in _CAP_RUN.finditer(text):
        words = [w for w in m.group().split() if w.lower() not in _CONNECTORS]
        if 2 <= len(words) <= 6 and "".join(w[0] for w in words).lower() in doc.units:
            out.update(w.lower() for w in words)
    return frozenset(out)


def _abbreviates(short: str, long: str) -> bool:
    """``short`` (at most 4 letters) has its letters in order in ``long``, which opens with its first."""
    if len(long) < len(short) + 2 or long[0] != short[0]:
        return False
    it = iter(long[1:])
    return all(ch in it for ch in short[1:])


_US = frozenset({"american", "america", "usa"})
_DEGREES = {"celsius": "C", "centigrade": "C", "fahrenheit": "F"}
"""Temperature scales named after people: "40 degrees Celsius" where the source writes "40C"."""
_OTHER_PLACES = {"dutch": ("holland",)}


def known_name(name: str, shown: str, doc: Document, derived: dict[str, str]) -> bool:
    """Whether the source has the name ``name`` (a unit; ``shown`` as the claim writes it) in some form."""
    if name in doc.units or name in derived:
        return True
    if len(shown) > 1 and squash(shown) in doc.squashed:
        return True  # "X-Factor" for "X Factor", "Teammate" for "team-mate", "Yuki" for "Yûki"
    if name in _US and doc.names_us:
        return True  # "American" where the source says "U.S."
    scale = _DEGREES.get(shown.lower())
    if scale and any(regex.search(rf"\d\s?°?\s?{scale}\b", s.text) for s in doc.sentences):
        return True  # "40 degrees Celsius" where the source says "40C"
    low = shown.lower()
    if low.startswith(("i'", "i’")):
        return True  # "I've": a pronoun, not a name
    place = DEMONYMS.get(name)
    if place and any(u.startswith(p) for p in (place, *_OTHER_PLACES.get(name, ())) for u in doc.units):
        return True
    if any(name.startswith(p) and d in doc.units for d, p in DEMONYMS.items()):
        return True  # "Britain" where the source says "British"
    if shown.isupper() and 2 <= len(shown) <= 6 and low in doc.acronyms:
        return True
    if low.isalpha() and len(low) <= 4:
        written = {f.lower() for s in doc.sentences for f in s.forms.values() if f[:1].isupper()}
        return any(_abbreviates(low, w) for w in written if w.isalpha())
    return False


_SHOUTED = regex.compile(r"\b\p{Lu}{4,}\b(?:\W{1,3}\b\p{Lu}{4,}\b)+")


def shouted(text: str, shown: str) -> bool:
    """Whether ``shown`` is one of two or more neighbouring words in capitals of four letters or more."""
    return any(shown in m.group().split() or regex.search(rf"\b{regex.escape(shown)}\b", m.group())
               for m in _SHOUTED.finditer(text))


def joined_in_source(text: str, shown: str, doc: Document) -> bool:
    """Whether ``shown`` with the word before or after it in ``text`` is one word of the source
    ("Mac Arthur" for "MacArthur")."""
    for m in regex.finditer(rf"(\w+)?\s*{regex.escape(shown)}\s*(\w+)?", text):
        before, after = m.group(1) or "", m.group(2) or ""
        joined = [squash(before + shown)] if before else []
        joined += [squash(shown + after)] if after else []
        if any(j in doc.squashed or j in doc.words for j in joined):
            return True
    return False


def same_name(a: str, b: str) -> bool:
    """Whether two written names are one name: the same letters, one a part of the other's
    hyphenated word ("Elvis-obsessed"), a people and its place ("English" / "England"), one the other
    with an ending ("Russia" / "Russian"), or one letter added, dropped, changed or two swapped (a
    misspelling)."""
    if any(p and squash(p) == squash(b) for p in a.split("-")) or any(p and squash(p) == squash(a) for p in b.split("-")):
        return True  # "Elvis" in "Elvis-obsessed"
    a, b = squash(a), squash(b)
    if a == b:
        return True
    for x, y in ((a, b), (b, a)):
        place = next((p for d, p in DEMONYMS.items() if x.startswith(d)), None)
        if place and y.startswith(place):
            return True  # "English" where the passage says "England"
    short, long = sorted((a, b), key=len)
    if len(short) >= 4 and long.startswith(short) and len(long) - len(short) <= 2:
        return True
    return len(short) >= 5 and _edits(a, b) <= 1


def _edits(a: str, b: str) -> int:
    """Optimal string alignment distance (an adjacent swap counts once), capped at 2."""
    if abs(len(a) - len(b)) > 1:
        return 2
    prev2: list[int] = []
    prev = list(range(len(b) + 1))
    for i in range(1, len(a) + 1):
        cur = [i] + [0] * len(b)
        for j in range(1, len(b) + 1):
            cur[j] = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] != b[j - 1]))
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                cur[j] = min(cur[j], prev2[j - 2] + 1)
        prev2, prev = prev, cur
    return min(prev[-1], 2)


_OPENING_STEMS = frozenset(unit_of_word("en", w) for w in OPENING_WORDS_EN)
_ADVERB_OPENER = regex.compile(r"\W*\p{Lu}\p{Ll}{3,}ly\s*,")  # "Luckily ,", "Additionally ,"


def common_opener(unit: str, text: str, lang: str) -> bool:
    """Whether the first word of ``text`` (its unit ``unit``) is a common English word that opens a
    sentence ("Several visitors ...", "Luckily , ..."), never a name."""
    return lang == "en" and (unit in _OPENING_STEMS or bool(_ADVERB_OPENER.match(text)))


def foreign_name(shown: str, doc: Document) -> bool:
    """Korean: whether a proper noun the source lacks is a name of its own, not a rare word the
    analyser took for one: fewer than half of its syllables occur anywhere in the source (서울 in an
    article about 경주; not 고습, "high humidity", beside the source's 습도)."""
    syllables = [c for c in shown if "\uac00" <= c <= "\ud7a3"]
    if not syllables:
        return True
    text = " ".join(s.text for s in doc.sentences)
    return sum(c in text for c in syllables) * 2 < len(syllables)


def built_from_source(shown: str, doc: Document) -> bool:
    """German: whether a capitalised word the source lacks is a noun built from the source's words
    ("Baukosten" beside "Bauarbeiten ... kosteten", "Brückeneröffnung" beside "eröffnete die Brücke"),
    a form the judge cannot read, not a name: it holds one of the source's stems of four letters or more."""
    low = squash(shown)  # Snowball's German stems drop the umlauts: "Brücke" is "bruck"
    return any(len(u) >= 4 and u.isalpha() and squash(u) in low for u in doc.units if squash(u) != low)


__all__ = [
    "built_from_source",
    "foreign_name",
    "DEMONYMS", "acronyms", "common_opener", "joined_in_source", "known_name", "same_name", "shouted",
    "spelled_out",
]
