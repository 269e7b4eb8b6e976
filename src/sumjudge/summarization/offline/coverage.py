"""Step C of the offline judge, coverage: each question's fact looked for in the summary alone. A
fact is answered when the summary carries enough of it, its key facts (numbers, dates, names) among
them, and contradicts none of it; a summary that states the fact with another number contradicts it."""

from __future__ import annotations

from collections.abc import Callable

import regex

from ..language.units import Sentence, TextAnalyzer
from ..language.passages import Evidence
from ..language.korean_units import KoreanSentence, detail_number
from ..language.lexicon import DATE_WORDS, ORDINAL_WORDS, WEEKDAYS
from ..language.segment import quote
from ..verdicts import CoverageVerdict
from .extrinsic import passage_form
from .swapped_names import swap_shown
from .links import opposite_link, unit_changed
from .support import polarity_conflict, slot_match
from .number_pairs import measure_differs
from .number_roles import number_role_changed
from .summary_read import SummaryRead, named_as_written, named_by_acronym, named_by_short_form, read_summary
from .wrong_numbers import same_kind_of

def point_of(fact: Sentence) -> frozenset[str]:
    """The fact's units without its detail: the weekday of an event whose month or year is given
    ("on Tuesday, March 3") is not what the fact is about, so a summary that leaves it out still
    carries the fact. A weekday alone stays: it may be all the fact says of when. Of a Korean fact,
    its time of day, place in a series and year in a name are detail
    (:func:`..language.korean_units.detail_number`)."""
    forms = {n: fact.name_forms.get(n, "").lower() for n in fact.names}
    detail = {n for n, f in forms.items() if f in WEEKDAYS}
    if isinstance(fact, KoreanSentence):
        detail |= {"#" + n for n in fact.numbers if detail_number(fact.number_forms[n])}
        return fact.units - detail if len(detail) < len(fact.units) else fact.units
    dated = any(f in DATE_WORDS and f not in WEEKDAYS for f in forms.values()) or any(
        n.isdigit() and 1800 <= int(n) <= 2100 for n in fact.numbers
    )
    return fact.units - detail if detail and dated and len(detail) < len(fact.units) else fact.units


_MONTHS = "|".join(sorted(DATE_WORDS - WEEKDAYS, key=len, reverse=True))
_DAY_OF_MONTH = regex.compile(
    rf"(?i)\b(?:{_MONTHS})\.?\s+(\d{{1,2}})(?:st|nd|rd|th)?\b(?:,?\s+(\d{{4}})\b)?"
    rf"|\b(\d{{1,2}})(?:st|nd|rd|th)?\s+(?:of\s+)?(?:{_MONTHS})\b(?:,?\s+(\d{{4}})\b)?"
)


_KOREAN_DATE = regex.compile(r"^\d{1,4}(?:년|월|일)$")


def date_parts(fact: Sentence) -> frozenset[str]:
    """The units that say when the fact happened: its weekdays and months, and the day and year
    written beside a month ("on Sunday, April 13, 2025"), and in Korean each day, month and year
    (15일 ... 16일). A summary that gives any of them ("on Sunday", 15일) dates the fact; it need not
    give them all."""
    parts = {n for n in fact.names if fact.name_forms.get(n, "").lower() in DATE_WORDS}
    if isinstance(fact, KoreanSentence):  # 15일, 3월, 2027년: each number carries its part of the date
        parts.update("#" + n for n in fact.numbers if _KOREAN_DATE.match(fact.number_forms[n]))
    for m in _DAY_OF_MONTH.finditer(fact.text):
        parts.update("#" + str(int(g)) for g in m.groups() if g)
    return frozenset(parts)


def dated(fact: Sentence, summary_units: frozenset[str], summary_numbers: frozenset[str]) -> frozenset[str]:
    """``summary_units`` with every part of the fact's date when the summary gives any one of them
    (:func:`date_parts`): "on Sunday" dates a fact of "Sunday, April 13"."""
    when = date_parts(fact)
    if when & (summary_units | frozenset("#" + n for n in summary_numbers)):
        return summary_units | when
    return summary_units


def missing_numbers(fact: Sentence, summary_units: frozenset[str], summary_numbers: frozenset[str]) -> list[str]:
    """The fact's numbers that the summary holds in no form; a spelled ordinal ("a second heart
    attack"), "one" ("one kilogram of fin fetches £180"), a count of time from another event ("two
    days after") or a Korean time of day, place in a series or year in a name
    (:func:`..language.korean_units.detail_number`) is not a number a summary must repeat."""
    relative = {m.lower() for m in _RELATIVE_TIME.findall(fact.text)} if fact.numbers else set()
    korean = isinstance(fact, KoreanSentence)
    return [
        n for n in fact.numbers
        if "#" + n not in summary_units and not fact.number_keys[n] & summary_numbers
        and fact.number_forms[n].lower() not in _NO_KEY_NUMBERS | relative
        and not (korean and detail_number(fact.number_forms[n]))
    ]


_NO_KEY_NUMBERS = ORDINAL_WORDS | {"one"}
_RELATIVE_TIME = regex.compile(
    r"(?i)(?<!\bfor\s)\b([\w,.]+)\s+(?:minutes?|hours?|days?|weeks?|months?|years?)\s+(?:after|before|later|earlier|ago)\b"
)
"""A count of time from another event ("two days after a 4-0 defeat", "three weeks later"; not a
duration: "for two years after"): when, relative to something else, is detail; a summary that leaves
it out has not left out the fact."""


def key_fact_missing(
    fact: Sentence, summary_units: frozenset[str], best: Sentence | None, summary_numbers: frozenset[str] = frozenset(),
    english: bool = False,
) -> tuple[str, str] | None:
    """Coverage: what of a fact's key facts (its numbers, dates, names) the summary lacks,
    ``None`` when it has them all (and at least half of the names). The second item is a
    contradiction when the summary sentence closest to the fact has another number in its place
    ("520 seats" for "250 seats"), else empty. ``summary_numbers``: every value the summary's numbers
    may stand for (a fact's "10,000" is in a summary that says "ten thousand"). A weekday is
    detail, never a key fact (:data:`..language.lexicon.WEEKDAYS`), nor a spelled ordinal ("a second
    heart attack" is "a repeat heart attack"). Of a date, any one part will do (:func:`date_parts`).
    In English a number that measures another thing (a margin for a total, a part for a count, tonnes
    for dryers: :func:`.number_pairs.measure_differs`) contradicts nothing."""
    summary_units = dated(fact, summary_units, summary_numbers)
    missing = missing_numbers(fact, summary_units, summary_numbers)
    if missing and best is not None:
        theirs = [
            w for w in best.numbers
            if w not in fact.numbers and w.endswith("%") == missing[0].endswith("%")
            and same_kind_of(fact, missing[0], (best,), w)
            and not (english and measure_differs(fact, missing[0], best, w))
        ]
        window = Evidence(0, 1, (best,), frozenset())
        there, score = slot_match(fact, "#" + missing[0], window, ["#" + w for w in theirs], ignore=_AMOUNT_WORDS)
        if there and score:
            said = fact.number_forms[missing[0]]
            return (
                f"number {said!r}",
                f'it says {passage_form(window, there)!r} where the source has {said!r}: "{quote(best.text, 100)}"',
            )
    if missing:
        return f"number {fact.number_forms[missing[0]]!r}", ""
    dates = [
        x for x in fact.names
        if x not in summary_units and fact.name_forms[x].lower() in DATE_WORDS - WEEKDAYS
    ]
    if dates:
        return f"date {fact.name_forms[dates[0]]!r}", ""
    names = [x for x in fact.names if fact.name_forms[x].lower() not in DATE_WORDS]
    lacking = [x for x in names if x not in summary_units]
    if names and 2 * len(lacking) > len(names):
        return f"name {fact.name_forms[lacking[0]]!r}", ""
    return None


_AMOUNT_WORDS = frozenset({"million", "billion", "trillion", "thousand", "bn", "euro", "dollar", "pound", "percent", "cent"})
"""Stems of the words that belong to an amount ("150 million euros"): two amounts that share only
these stand in no common place ("offered 150 million euros" and "600 million euros needed")."""


def _matched_numbers(fact: Sentence, read: SummaryRead) -> frozenset[str]:
    """The fact's number units that the summary holds in another form ("2:17:41" for "2 hours 17
    minutes and 41 seconds", "ten thousand" for "10,000")."""
    return frozenset("#" + n for n in fact.numbers if fact.number_keys.get(n, frozenset()) & read.numbers)


def _antonym_in_place(
    fact: Sentence, best: Sentence, missing: frozenset[str], antonyms: dict[str, frozenset[str]]
) -> str | None:
    """A fact word the summary lacks whose antonym the closest summary sentence has in its place
    ("approved the plan" for "voted to reject the plan"), as alignment shows a reversed claim."""
    window = Evidence(0, 1, (best,), frozenset())
    for u in sorted(missing):
        theirs = [x for x in antonyms.get(u, ()) if x in best.units]
        if not theirs:
            continue
        there, score = slot_match(fact, u, window, theirs, reach=3)
        if there and score:
            return (
                f"it says {passage_form(window, there)!r} where the source has {fact.forms.get(u, u)!r}: "
                f'"{quote(best.text, 100)}"'
            )
    return None


def _contradiction(fact: Sentence, best: Sentence, read: SummaryRead, missing: frozenset[str]) -> str | None:
    """How the summary, which holds the fact's key facts, contradicts the rest of it, first found first:
    another subject of the same verb (English), a link or unit turned around, a number's role changed
    (English), an antonym in place of a ``missing`` fact word, a negation. ``None``: no contradiction."""
    lang = read.analyser.lang
    swapped = swap_shown(fact, [best], summary_is_claim=False) if lang == "en" else None
    if swapped:
        return f"it says {swapped[1]!r} {swapped[2]} where the source has {swapped[0]!r}"
    order = opposite_link(fact, [best], lang) or unit_changed(fact, read.sentences, lang)
    if order:  # "before the vote" where the source has "after the vote"
        return f"it says {order[1]!r} where the source has {order[0]!r}"
    role = number_role_changed(fact, [best]) if lang == "en" else None
    if role:  # "rose by 3.2%" where the source has "rose to 3.2%"
        return f"it says {role[1]!r} where the source has {role[0]!r}"
    reversed_ = _antonym_in_place(fact, best, missing, read.analyser.antonyms)
    if reversed_:
        return reversed_
    conflict = polarity_conflict(fact, read.sentences, read.analyser.antonyms, who="the source", where="the summary")
    return conflict or None


def judge_fact(
    question: str, fact: Sentence, read: SummaryRead, answer_threshold: float,
    unsettled_presence: float = 0.31, lone_name_presence: float = 0.57,
) -> CoverageVerdict:
    """One question's verdict, one of three outcomes. *Answered*: the summary carries enough of the
    fact, its numbers, dates and names among them, and contradicts none of it. *Shown missing*: the
    summary shares none of the fact's words, lacks its number, date or most of its names, or
    contradicts it. *Unchecked*: the summary carries part of the fact and lacks nothing key, so words
    cannot tell a paraphrase from a different fact; the verdict is marked ``unchecked``, carries
    ``unsettled_presence`` (how often such a fact is present, measured on human labels) as its
    probability, and counts as answered only when that is at least one half. A fact whose one name
    is all the summary lacks is unchecked too, with ``lone_name_presence``."""
    if not fact.content:
        return CoverageVerdict(question=question, answered=False, reason="the question names no fact to look for")
    point = point_of(fact)
    units = read.units | named_by_acronym(fact, read) | named_by_short_form(fact, read) | named_as_written(fact, read)
    held = units | _matched_numbers(fact, read)
    found = point & held
    when = date_parts(fact)
    if when & held:
        found |= point & when  # one part of a date dates the fact
    share = fact.weight_of(found) / fact.weight_of(point)
    best = read.closest(fact)
    key = key_fact_missing(fact, units, best, read.numbers, read.analyser.lang == "en")
    if best is not None and key is not None and key[1]:
        return CoverageVerdict(question=question, answered=False, reason=f"the summary contradicts it: {key[1]}")
    if best is not None and key is None and found:
        contradiction = _contradiction(fact, best, read, point - found)
        if contradiction:
            return CoverageVerdict(question=question, answered=False, reason=f"the summary contradicts it: {contradiction}")
        if share >= answer_threshold:
            return CoverageVerdict(
                question=question,
                quote=best.text,
                answered=True,
                reason=f'the summary says so ({share:.0%} of the fact): "{quote(best.text)}"',
            )
    missing = sorted({fact.forms.get(u, u) for u in point - found})
    shown = ", ".join(repr(w) for w in missing[:6])
    if not read.sentences:
        return CoverageVerdict(question=question, answered=False, reason="the summary is empty")
    if not found:
        return CoverageVerdict(question=question, answered=False, reason="the summary does not mention this fact")
    names = [x for x in fact.names if fact.name_forms.get(x, "").lower() not in DATE_WORDS]
    if key is not None and key[0].startswith("name") and len(names) == 1 and share >= answer_threshold:
        # the fact's one name is all it lacks ("the council" for "the Grenshaw city council")
        return _unchecked(
            question, best, lone_name_presence,
            f"the summary carries {share:.0%} of this fact but not its name "
            f"{fact.name_forms.get(names[0], names[0])!r}; words cannot tell whether it means the same one",
        )
    if key is not None and key[0].startswith("number") and _holds_another_number(fact, held, read.numbers):
        # "31 euros a share" for "31 euros a share, a premium of 28 percent": part of the fact is there
        return _unchecked(
            question, best, unsettled_presence,
            f"the summary carries part of this fact, one of its numbers among it, but lacks its {key[0]}; "
            "words cannot tell whether it gives the fact or another",
        )
    if key is not None:
        return CoverageVerdict(question=question, answered=False, reason=f"the summary lacks the fact's {key[0]}")
    lacking = [x for x in names if x not in units]
    lacks = " or names" if not lacking else f" and {len(lacking)} of its {len(names)} names"
    return _unchecked(
        question, best, unsettled_presence,
        f"the summary carries {share:.0%} of this fact and lacks none of its numbers{lacks}, but not "
        f"{shown}; words cannot tell a paraphrase from another fact",
    )


def _holds_another_number(fact: Sentence, held: frozenset[str], summary_numbers: frozenset[str]) -> bool:
    """Whether the summary holds one of the fact's key numbers while it lacks another."""
    missing = set(missing_numbers(fact, held, summary_numbers))
    key = [n for n in fact.numbers if fact.number_forms[n].lower() not in _NO_KEY_NUMBERS]
    return any(n not in missing for n in key)


def _unchecked(question: str, best: Sentence | None, presence: float, why: str) -> CoverageVerdict:
    """A verdict the words cannot settle: ``presence`` is its probability, and it counts as answered
    only from one half up."""
    return CoverageVerdict(
        question=question, quote=best.text if best is not None else "", answered=presence >= 0.5,
        unchecked=True, probability=presence, reason=f"unchecked: {why}",
    )


def coverage_gaps(analyser_of: Callable[[str], TextAnalyzer], questions: list[str], summary: str) -> list[str | None]:
    """For each question, why the summary's words alone show that it cannot answer the question with
    yes, or ``None`` where only reading can tell. These are the offline judge's own *shown missing*
    verdicts (:func:`judge_fact`): the summary shares none of the fact's words, lacks its number or
    date (in any of its forms: "two-year" is "two years"; any one part of a date), or contradicts it
    (another number in its place, another subject of the same verb, a reversed decision or
    polarity). A missing name settles nothing ("the mayor" may be the fact's "Ana Lopez"), so the
    words never call missing what a reader could find, nor what the offline judge calls answered."""
    if not questions:
        return []
    read = read_summary(analyser_of, questions, summary)
    gaps: list[str | None] = []
    for question, fact in zip(questions, read.facts):
        if not fact.content:
            gaps.append(None)
            continue
        v = judge_fact(question, fact, read, answer_threshold=1.0)
        shown = not v.answered and not v.unchecked and not v.reason.startswith("the summary lacks the fact's name")
        gaps.append(v.reason if shown else None)
    return gaps


__all__ = ["SummaryRead", "coverage_gaps", "judge_fact", "point_of", "read_summary"]
