"""What the offline judge can show to be wrong in a claim's names, dates and pronouns, as
:mod:`.wrong_numbers` does for its numbers.

An error is a name or date the source lacks; a name of the source put where the passage that holds
the rest of the claim names someone else, or (English) that puts the fact "in" a place of the source
other than the one the passage names ("a school in Dunmore" for "destroyed in the village of
Cresswell"); a capitalised first word the source lacks where
the passage has a name (a sentence start hides a name's capital); (English) a pronoun of the other
gender than all of the passage's. Any other name the source has only outside the passage
is a note, or nothing when the sentences just before the passage name it: a summary may join distant
facts.

A name counts in any of the forms :mod:`..language.names` knows ("English" and "England", "Man Utd" and
"Manchester United", "UN" and "United Nations", "X-Factor" and "X Factor"), and in its derived forms
("Asia" and "Asian", :func:`..language.passages.derived_forms`).
"""

from __future__ import annotations

import regex

from ..language.units import Document, Sentence
from ..language.passages import Evidence, subject_names
from ..language.names import built_from_source, common_opener, foreign_name, joined_in_source, known_name, same_name, shouted, spelled_out
from ..language.segment import quote
from ..language.tokens import squash
from .extrinsic import passage_form, where_in_source
from .moved_dates import moved_date
from .support import Shown, side_match, slot_match

NAME_SLOT = 2
"""A name the source has only outside the passage is an error (a swap: "Brian Cox" where the passage
has "Stephen Hawking") when a passage name the claim lacks has at least this many of the claim name's
neighbouring words on the same sides of it (before it what stands before the claim's name, after it
what stands after). Chosen on BUMP's tune half: one same-side word failed faithful
references ("Foxes" for "Leicester's"), as did two words counted on either side ("sheriff's office
in Frankfort" for "Franklin County sheriff's office")."""


def name_errors(claim: Sentence, doc: Document, ev: Evidence, derived: dict[str, str]) -> tuple[list[str], list[str]]:
    """(errors shown, notes) for the claim's names and dates, as :func:`.wrong_numbers.number_errors` for numbers."""
    errors: list[str] = []
    notes: list[str] = []
    spelled = spelled_out(claim.text, doc) if claim.names else frozenset()
    for name in claim.names:
        shown = claim.name_forms[name]
        if regex.search(r"['\"‘“]\s*" + regex.escape(shown), claim.text):
            continue  # "wrote: 'Sorry for ...": a quotation's first word, not a name
        if shown.lower() in spelled:
            continue  # "Higher School Certificate" where the source writes "HSC"
        if shown.isupper() and len(shown) >= 4 and shouted(claim.text, shown):
            continue  # "WARNING : GRAPHIC CONTENT": words in capitals, not acronyms
        if name in ev.found:
            continue
        theirs = [x for s in ev.sentences for x in s.names if x not in claim.units]
        if name in ev.names_before:
            # named just before the passage: it may be who the passage speaks of ("Both were flown"),
            # unless the passage names another in its place ("a hospital in Innsbruck" for "a
            # hospital in Grauhorn", the peak of the sentence before). A name that opens
            # the claim is who it is about, and the passage may well call it otherwise ("The Foxes
            # host Swansea" for "Leicester host Swansea", "the Spurs striker" for "Tottenham
            # striker"): only a name further on is held to the passage's
            swapped = None if name in subject_names(claim) else _swapped_name(claim, name, ev, theirs)
            if swapped:
                errors.append(Shown(
                    f"{shown!r} is in the source ({where_in_source(doc, name)}) but not in the passage that states the "
                    f'rest, which names {swapped!r} in its place ({ev.where}: "{quote(ev.text, 100)}")',
                    shown, swapped,
                ))
            continue
        there, score = slot_match(claim, name, ev, theirs)
        instead = passage_form(ev, there) if there and score else None
        if not known_name(name, shown, doc, derived) and not joined_in_source(claim.text, shown, doc) and (
            doc.lang != "ko" or instead or foreign_name(shown, doc) or (instead := _korean_slot(claim, name, doc))
        ) and not (doc.lang == "de" and built_from_source(shown, doc)):
            said = f"; the passage names {instead!r}" if instead else ""
            errors.append(Shown(f'{shown!r} does not occur in the source{said} ({ev.where}: "{quote(ev.text, 100)}")',
                                shown, instead or ""))
        elif name in doc.units and (swapped := _swapped_name(claim, name, ev, theirs)):
            errors.append(Shown(
                f"{shown!r} is in the source ({where_in_source(doc, name)}) but not in the passage that states the "
                f'rest, which names {swapped!r} in its place ({ev.where}: "{quote(ev.text, 100)}")',
                shown, swapped,
            ))
        elif name in doc.units and (moved := _place_moved(claim, name, ev, theirs)):
            errors.append(Shown(
                f"{shown!r} is in the source ({where_in_source(doc, name)}) but not in the passage that states the "
                f'rest, which puts it in {moved!r} ({ev.where}: "{quote(ev.text, 100)}")',
                shown, moved,
            ))
        elif name in doc.units:  # a summary joins facts of distant sentences: a note unless swapped
            notes.append(f"{shown!r} is in the source ({where_in_source(doc, name)}) but not in the passage that states the rest")
    opener = _opening_name(claim, doc, ev, derived)
    if opener:
        errors.append(opener)
    gender = pronoun_gender(claim, ev, doc.lang)
    if gender:
        errors.append(gender)
    if not errors and (moved := moved_date(claim, doc, ev)):
        errors.append(moved)
    return errors, notes


def _korean_slot(claim: Sentence, name: str, doc: Document) -> str | None:
    """Korean: a source name the claim lacks that stands before the same word as the claim's name
    does ("한지수 교수" where the source has "윤하린 교수"): the name in its place."""
    at = claim.sequence.index(name)
    after = claim.sequence[at + 1] if at + 1 < len(claim.sequence) else None
    if after is None or after in claim.names:
        return None
    for s in doc.sentences:
        for i, u in enumerate(s.sequence[:-1]):
            if s.sequence[i + 1] == after and u in s.names and u not in claim.units:
                return s.name_forms[u]
    return None


def _swapped_name(claim: Sentence, name: str, ev: Evidence, theirs: list[str]) -> str | None:
    """The passage name (written with a capital) that stands where the claim puts ``name``, a name
    of the source the passage lacks (:data:`NAME_SLOT`); ``None`` when none does, or when that name
    is the claim's own in another form ("Russian" for "Russia", "Tewskesbury" for "Tewkesbury": the
    source spells one place two ways)."""
    there, score = side_match(claim, name, ev, theirs, written=True)
    if not there or score < NAME_SLOT:
        return None
    shown = passage_form(ev, there)
    return None if same_name(claim.name_forms.get(name, name), shown) else shown


_COMPASS = ("north", "south", "east", "west", "central", "upper", "lower", "greater")
"""Beginnings of the words that name part of a place ("East Thailand", "Northern Ireland")."""
_PLACE_OF = r"(?:(?:the\s+)?(?:village|town|city|county|region|province|district|port|island)\s+of\s+)?"


def _place_moved(claim: Sentence, name: str, ev: Evidence, theirs: list[str]) -> str | None:
    """(English) The claim sets what the passage states "in" one named place "in" another place of
    the source ("a school in Dunmore" where the passage says "a primary school were destroyed in the
    village of Cresswell"): the passage holds the rest of the claim, and after the same preposition
    names a place the claim lacks. Returns that place as written, or ``None``."""
    shown = claim.name_forms.get(name, name)
    mine = regex.search(rf"(?<!\p{{Lu}}[\p{{L}}'’-]*,?\s+)\b(in|at|near)\s+{_PLACE_OF}{regex.escape(shown)}\b", claim.text)
    if not mine or claim.weight_of(ev.found) < 0.85 * (claim.mass - claim.weight_of(frozenset({name}))):
        return None  # "streets of Banglamung in Thailand": a place within a place says where that one is
    for m in regex.finditer(rf"\b{mine.group(1)}\s+{_PLACE_OF}(\p{{Lu}}[\p{{L}}'’-]*)", ev.text):
        other = m.group(1)
        if other.lower().startswith(_COMPASS):
            continue  # "in East Thailand", "in Northern Ireland": a part of a place, not another
        if other.lower() in {x.lower() for x in (claim.name_forms.get(t, t) for t in claim.names)}:
            return None  # the passage also puts it where the claim does
        if any(same_name(other, passage_form(ev, t)) for t in theirs) and not same_name(shown, other):
            return other  # a name of the passage that the claim lacks
    return None


def _opening_name(claim: Sentence, doc: Document, ev: Evidence, derived: dict[str, str]) -> Shown | None:
    """The claim's capitalised first word, when the source has it in no form and the passage has a
    name, written as one, in its place with the claim's next words after it ("Ryanair flight ..."
    where the passage has "Loganair flight"): a name, though a sentence start hides its capital. A
    common word that opens a sentence ("Additionally", "Several", "People") stands before words that
    follow no passage name."""
    if not claim.sequence:
        return None
    u = claim.sequence[0]
    shown = claim.forms.get(u, "")
    if u.startswith("#") or u in claim.names or not shown[:1].isupper() or u in doc.units or u in derived:
        return None
    if u in doc.parts or not u.replace("'", "").replace("’", "").isalpha() or known_name(u, shown, doc, derived):
        return None
    if len(shown) > 1 and squash(shown) in doc.squashed:
        return None  # "Teammate" for "team-mate"
    if common_opener(u, claim.text, doc.lang):
        return None  # "Several visitors ...", "Luckily , he chose ...": a common word opens the sentence
    theirs = [x for s in ev.sentences for x in s.names if x not in claim.units]
    there, score = side_match(claim, u, ev, theirs, written=True)
    if not there or not score:
        return None  # "Additionally , a suit ...", "Several visitors ...": no name stands there
    named = passage_form(ev, there)
    return Shown(f'{shown!r} does not occur in the source; the passage names {named!r} ({ev.where}: "{quote(ev.text, 100)}")',
                 shown, named)


_FEMININE = frozenset("she her hers herself".split())
_MASCULINE = frozenset("he him his himself".split())
_PRONOUN = regex.compile(r"\b(?:[Ss]he|[Hh]e|[Hh]im|[Hh]is|[Hh]ers?|[Hh]imself|[Hh]erself)\b")


def pronoun_gender(claim: Sentence, ev: Evidence, lang: str) -> Shown | None:
    """(English) A claim that calls someone "she" where the passage that states the rest says only
    "he" of anyone (or the other way round): the passage's people are all of the other gender."""
    if lang != "en" or claim.weight_of(ev.found | ev.names_before) < 0.9 * claim.mass:
        return None  # the passage must state the rest of the claim, or the pronoun may mean someone else
    mine = [m.group() for m in _PRONOUN.finditer(claim.text)]
    theirs = [m.group() for m in _PRONOUN.finditer(ev.text)]
    for own, other in ((_FEMININE, _MASCULINE), (_MASCULINE, _FEMININE)):
        said = [w for w in mine if w.lower() in own]
        there = [w for w in theirs if w.lower() in other]
        if said and there and not any(w.lower() in own for w in theirs):
            return Shown(
                f"{said[0]!r} does not fit the passage that states the rest: it says {there[0]!r}, never "
                f'{said[0].lower()!r} ({ev.where}: "{quote(ev.text, 100)}")',
                said[0], there[0],
            )
    return None
