"""The offline judge's rules that run once per claim: what the claim alone shows (a pronoun that points
at no one, a denial), and its numbers, names and words against the whole source and its best passage.
Each is a :class:`.findings.Rule`; :mod:`.rule_list` orders them."""

from __future__ import annotations

from .denials import denial_verdict
from .extrinsic import extrinsic_problems
from .findings import Doubt, Finding, Look, Rule, Settled, Wrong
from .korean_deeds import deeds_of_another
from .support import Shown
from .wrong_names import name_errors
from .wrong_numbers import number_errors


def _opening(look: Look) -> Finding:
    pronoun = look.case.opening
    if not pronoun:
        return None
    reason = (f"{pronoun!r} points back to no one: nothing before it in the summary says who or what it is, "
              "so the source cannot confirm the claim")
    return Wrong((Shown(reason, pronoun),), None)


OPENING_PRONOUN = Rule(
    "opening pronoun", "a personal pronoun opening the summary, no one named before it",
    "claim", (Wrong,), _opening,
)


def _denial(look: Look) -> Finding:
    case = look.case
    verdict = denial_verdict(look.claim, look.doc, case.analyser, case.rejudge)
    return None if verdict is None else Settled(verdict)


DENIAL = Rule(
    "denial", "a claim denying by reference (\"It is false that ...\", \"None of this is true.\"), the "
    "statement it wraps judged by these rules", "claim", (Settled,), _denial, english_only=True,
)


def _numbers_and_names(look: Look) -> Finding:
    claim, doc, ev = look.claim, look.doc, look.ev
    numbers, number_notes = number_errors(claim, doc, ev)
    names, name_notes = name_errors(claim, doc, ev, look.case.derived)
    if numbers or names:
        return Wrong(tuple(numbers + names), ev)
    notes = number_notes + name_notes
    return Doubt(tuple(notes)) if notes else None


NUMBERS_AND_NAMES = Rule(
    "numbers and names", "each number, date and name: in the source in any spelling; in the best passage, or "
    "another in its place; a pronoun's gender", "claim", (Wrong, Doubt), _numbers_and_names,
)


def _deeds(look: Look) -> Finding:
    found = deeds_of_another(look.claim, look.doc)
    if found is None:
        return None
    mine, theirs, where = found
    reason = f'the source says what the claim says of {mine!r} of {theirs!r}: "{where}"'
    return Wrong((Shown(reason, mine, theirs),), None)


ANOTHERS_DEEDS = Rule(
    "another's deeds", "(Korean) a person's name whose words the source has near another person's name, "
    "on either side", "claim", (Wrong,), _deeds,
)


def _absent_words(look: Look) -> Finding:
    case = look.case
    words = extrinsic_problems(
        look.claim, look.doc, look.ev, case.derived, case.light, case.settings.strict_words, case.added,
        facts=False,
    )
    return Doubt(tuple(words)) if words else None


ABSENT_WORDS = Rule(
    "words the source lacks", "(English, Korean) a content word the source has in no form, a paraphrase's "
    "additions aside", "claim", (Doubt,), _absent_words,
)


__all__ = ["ABSENT_WORDS", "ANOTHERS_DEEDS", "DENIAL", "NUMBERS_AND_NAMES", "OPENING_PRONOUN"]
