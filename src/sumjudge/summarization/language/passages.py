"""Where in the whole source a claim finds its evidence, and which of its words the source lacks.

- **Names resolved across the document**: a full name ("Mary Doyle Keefe") lends its other parts
  to every sentence that later calls the person by the last one ("Keefe posed ..."), when the
  source gives that last name to one full name only (:func:`name_aliases`).
- **The passages that support a claim best**: runs of at most ``size`` neighbouring sentences,
  ranked by the weight of the claim they hold; the claim is judged against the best few, and a
  name may also stand in the sentences just before a passage (its antecedent:"Keefe ... She
  posed").
- **Words the source does not have** (extrinsic): a content word with no form in the source: not
  the same stem, not a derivation of a source word (Asia / Asian: one stem a prefix of the other,
  differing by at most three letters), not a word that states no fact (:data:`.lexicon.LIGHT_WORDS`).
- **A pronoun that points at no one**: a claim that opens the summary with "He" / "It" has no
  antecedent, so what it states cannot be checked.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import regex

from .units import Document, Sentence
from .lexicon import DATE_WORDS, DEMONYMS_EN, LIGHT_WORDS, PRONOUNS
from .word_lookups import stem
from .words import CONTENT, NUMBER, word_info

_NAME_RUN = regex.compile(r"\p{Lu}[\p{L}\p{M}'’\-]+(?:\s+\p{Lu}[\p{L}\p{M}'’\-.]*)+")
_WORD = regex.compile(r"[\p{L}\p{M}\p{N}]+(?:['’\-][\p{L}\p{M}\p{N}]+)*")
_SUFFIXES = frozenset({"jr", "sr", "ii", "iii"})
DERIVATION_REACH = 3
"""Most letters by which a derived form's stem may be longer than its base's (Asia / Asian)."""
MIN_BASE = 4
ANTECEDENT_SENTENCES = 2
"""How many sentences before a passage may hold a name the passage refers back to."""


@dataclass(frozen=True)
class Window:
    """A run of neighbouring source sentences (``start`` to ``end``, exclusive) and the claim units
    ``found`` in it."""

    start: int
    end: int
    """Exclusive."""
    sentences: tuple[Sentence, ...]
    found: frozenset[str]

    @property
    def where(self) -> str:
        return f"sentence {self.start + 1}" if self.end - self.start == 1 else f"sentences {self.start + 1}-{self.end}"

    @property
    def text(self) -> str:
        return " ".join(s.text for s in self.sentences)


@dataclass(frozen=True)
class Evidence(Window):
    """A passage of the source (neighbouring sentences) and what of the claim it holds: directly,
    by a resolved name, or by a derived form (``found``)."""

    names_before: frozenset[str] = frozenset()
    """Claim names found only in the sentences just before the passage."""


def name_aliases(text: str, sentences: list[Sentence], lang: str, data: str) -> tuple[frozenset[str], ...]:
    """Per sentence, the units of the full names its last names stand for (and it does not hold)."""
    full: dict[str, frozenset[str] | None] = {}
    for m in _NAME_RUN.finditer(text):
        units: list[str] = []
        for tok in _WORD.findall(m.group()):
            info = word_info(lang, tok, data)
            if info.kind == CONTENT and info.is_cap and not info.is_date and info.stem:
                units.append(info.stem)
            elif units:
                break
        while units and units[-1] in _SUFFIXES:
            units.pop()
        if len(units) < 2:
            continue
        key, value = units[-1], frozenset(units)
        if key not in full:
            full[key] = value
        elif (known := full[key]) is not None and not value <= known:
            full[key] = value if known <= value else None  # two different people: resolve neither
    out: list[frozenset[str]] = []
    for s in sentences:
        extra: set[str] = set()
        for u in s.names:
            got = full.get(u)
            if got is not None:
                extra |= got
        out.append(frozenset(extra - s.units))
    return tuple(out)


@lru_cache(maxsize=1)
def _demonyms() -> dict[str, frozenset[str]]:
    """English: each country's stem with its people's adjective's, both ways (:data:`.lexicon.DEMONYMS_EN`)."""
    out: dict[str, set[str]] = {}
    for country, people in DEMONYMS_EN:
        a, b = stem("en", country), stem("en", people)
        out.setdefault(a, set()).add(b)
        out.setdefault(b, set()).add(a)
    return {k: frozenset(v) for k, v in out.items()}


def derived_forms(claim: Sentence, doc: Document) -> dict[str, str]:
    """Claim units the source lacks as such but has in a derived form: unit -> the source's unit
    (a country for its people's adjective too: "France's" for "French")."""
    out: dict[str, str] = {}
    for u in claim.units:
        if u in doc.units or u.startswith("#"):
            continue
        people = _demonyms().get(u, frozenset()) & doc.units if doc.lang == "en" else frozenset()
        if people:
            out[u] = min(people)
            continue
        if len(u) < MIN_BASE or not u.isalpha():
            continue
        best = None
        for t in doc.units:
            if len(t) >= MIN_BASE and t[0] == u[0] and abs(len(t) - len(u)) <= DERIVATION_REACH and (
                t.startswith(u) or u.startswith(t)
            ):
                if best is None or abs(len(t) - len(u)) < abs(len(best) - len(u)):
                    best = t
        if best is not None:
            out[u] = best
    return out


def light_units(claim: Sentence, lang: str) -> frozenset[str]:
    """The claim's units written with a word that states no fact (:data:`.lexicon.LIGHT_WORDS`)."""
    light = LIGHT_WORDS.get(lang)
    if not light:
        return frozenset()
    return frozenset(u for u, form in claim.forms.items() if form.lower() in light)


def passages(
    claim: Sentence, doc: Document, aliases: tuple[frozenset[str], ...], derived: dict[str, str], size: int, k: int
) -> list[Evidence]:
    """The ``k`` runs of at most ``size`` neighbouring sentences holding the most weight of the claim,
    best first, none inside a better one."""
    back = {t: u for u, t in derived.items()}
    held: list[frozenset[str]] = []
    for i, s in enumerate(doc.sentences):
        units = s.units | aliases[i] if i < len(aliases) else s.units
        got = claim.units & units
        if back:
            got |= {back[t] for t in units if t in back}
        held.append(frozenset(got))
    names = frozenset(claim.names)
    people = subject_names(claim)
    ranked: list[tuple[float, int, int, frozenset[str]]] = []
    n = len(held)
    for width in range(1, size + 1):
        for start in range(0, max(0, n - width + 1)):
            found = frozenset().union(*held[start : start + width])
            if found:
                # the claim's names in the sentences just before count for the passage
                # ("Both were flown to a hospital in Innsbruck" after "The hikers, Tomas Berger and
                # Lena Hofmann, ..." states the claim, not the sentence that shares only the names)
                before = frozenset().union(*held[max(0, start - ANTECEDENT_SENTENCES) : start]) & people
                ranked.append((claim.weight_of(found | before), -width, start, found))
    ranked.sort(key=lambda r: (-r[0], -r[1], r[2]))
    out: list[Evidence] = []
    for _, negwidth, start, found in ranked:
        end = start - negwidth
        if any(e.start <= start and end <= e.end or start <= e.start and e.end <= end for e in out):
            continue
        before = frozenset().union(*held[max(0, start - ANTECEDENT_SENTENCES) : start]) & names
        out.append(Evidence(start, end, tuple(doc.sentences[start:end]), found, before - found))
        if len(out) >= k:
            break
    if not out:
        out.append(Evidence(0, min(1, n), tuple(doc.sentences[:1]), frozenset(), frozenset()))
    return out


def subject_names(claim: Sentence) -> frozenset[str]:
    """The names that open the claim (who it is about: "Tomas Berger and Lena Hofmann were flown
    ..."), which a passage may refer back to ("Both were flown ..."); no date ("On Tuesday he ..."),
    no name further on ("... posed for the painting in Simsbury")."""
    names = set(claim.names)
    out: list[str] = []
    for u in claim.sequence:
        if u not in names or claim.name_forms.get(u, "").lower() in DATE_WORDS:
            break
        out.append(u)
    return frozenset(out)


_POSSESSIVES = frozenset({"his", "her", "their", "its"})


def dangling_pronoun(text: str, lang: str, named_before: bool, data: str) -> tuple[str | None, bool]:
    """A pronoun that ``text`` uses before any content word, when nothing before it in the summary
    named anyone or anything (``named_before``); and whether the summary has named something by
    the end of ``text``. In English, a possessive after the opening word ("After her", "In his", not
    "Were they") with a name later in the sentence points ahead to that name and is no error."""
    pronouns = PRONOUNS.get(lang)
    if not pronouns:
        return None, True
    dangling = None
    words = _WORD.findall(text)
    for i, tok in enumerate(words):
        if named_before:
            break
        if tok.lower() in pronouns:
            if i and lang == "en" and tok.lower() in _POSSESSIVES and any(w[:1].isupper() for w in words[i + 1 :]):
                break  # "After her seventh miscarriage , Dawn ...": it points ahead, to the name
            dangling = tok
            break
        if word_info(lang, tok, data).kind in (CONTENT, NUMBER):
            named_before = True
    if not named_before:
        named_before = any(word_info(lang, tok, data).kind in (CONTENT, NUMBER) for tok in _WORD.findall(text))
    return dangling, named_before
