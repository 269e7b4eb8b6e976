"""What the offline judge can show to be wrong in a claim's numbers.

The judge calls a claim unsupported only when it can show the error (names, dates and pronouns:
:mod:`.wrong_names`; negations, antonyms and role swaps: :mod:`.support`). A number shows one when the
source lacks it, or has it only outside the passage that holds the rest of the claim and the passage
has another number in its place (unless the number keeps its own words: a fact joined); also when the
passage has it, but where the claim puts it the passage has another number's words, or gives it another
role (:mod:`.number_roles`: a change for a level, all for a part). A number the source has only elsewhere is otherwise a note: a summary may join
distant facts. "one" is a number only before a unit, and is checked against that unit's count alone.

Forms count as the same: "two-year" and "two years", "43" and "forty-three" (:mod:`..language.units`),
"ten thousand" and "10,000" (:mod:`..language.numbers`).
"""

from __future__ import annotations

from decimal import Decimal, InvalidOperation

import regex

from ..language.units import Document, Sentence
from ..language.korean_units import KoreanSentence
from ..language.passages import Evidence
from ..language.lexicon import NUMBER_WORDS, ORDINAL_WORDS, past_form
from ..language.number_kinds import number_kind
from ..language.numbers import all_keys, fraction_shares
from ..language.segment import quote
from .counted_nouns import counted_otherwise
from .extrinsic import passage_form, where_in_source
from .number_roles import all_for_part, change_for_level
from .support import Shown, side_match, slot_match

INTRINSIC_SLOT = 2
"""A number the source has only outside the passage is an error when the passage has another one in
its place with at least this many of the claim's neighbouring words around it (with one,
BUMP's faithful references, which join facts from distant sentences, failed 13 times on its tune half;
counted this way, on either side, names from elsewhere failed them even at two:
:data:`.wrong_names.NAME_SLOT`)."""
MOVED_NUMBER = 2
"""A claim number the passage has, but with fewer of the claim's neighbouring words around it than
another passage number has on the same sides (at least this many), stands in that number's place
("Officers arrested 20 men" where the passage says "seized 20 boats and arrested 18 men")."""


def _joined(claim: Sentence, n: str, doc: Document, ev: Evidence, there: str) -> bool:
    """The claim's number keeps more of its neighbouring words, each on its side, in a sentence that
    has it than the passage's number ``there`` keeps in its place: that sentence's fact joined, not a
    number moved ("The museum, founded in 1894, reopened after a renovation" for "reopened after a
    two-year renovation ... The museum was founded in 1894")."""
    unit = "#" + n
    own = [side_match(claim, unit, Evidence(i, i + 1, (s,), frozenset()), [unit])[1]
           for i, s in enumerate(doc.sentences) if unit in s.units]
    return max(own, default=0) > side_match(claim, unit, ev, [there])[1]


def number_errors(claim: Sentence, doc: Document, ev: Evidence) -> tuple[list[str], list[str]]:
    """(errors shown, notes): a claim number the source lacks is an error (with the passage's number
    where one stands in its place); one the source has only outside the passage is an error when the
    passage has another number in its place, else a note (a summary may join distant facts)."""
    errors: list[str] = []
    notes: list[str] = []
    passage: list[str] = []
    for s in ev.sentences:
        passage += [n for n in s.numbers if n not in passage]
    held = {n.rstrip("%") for n in passage}
    passage_keys: frozenset[str] | None = None  # read only for a number the passage lacks as written
    for n in claim.numbers:
        if claim.number_forms[n].lower() == "one":
            counted = _another_count(claim, doc, ev)
            if counted:
                errors.append(_shown(ev, f"{counted[0]!r} does not occur in the source; it says {counted[1]!r}", *counted))
            continue
        counted = counted_otherwise(claim, n, doc)
        if counted:  # 주택 5채 where the source counts 주택 2채
            errors.append(Shown(
                f"the claim counts {counted[0]!r} where the source counts {counted[1]!r}: \"{quote(counted[2], 100)}\"",
                counted[0], counted[1],
            ))
            continue
        value = n.rstrip("%")
        keys = claim.number_keys.get(n, frozenset({value}))
        if value in held:
            error, note = _in_passage(claim, n, ev, passage)
            if error:
                errors.append(error)
            elif note:
                notes.append(note)
            continue
        if passage_keys is None:
            passage_keys = frozenset().union(*(all_keys(s.number_keys) for s in ev.sentences))
        if keys & passage_keys or ((n.endswith("%") or value.startswith("0.")) and keys & fraction_shares(ev.text)):
            continue  # the passage's number in another form: "ten thousand" for "10,000", "25%" for "a quarter"
        shown = claim.number_forms[n]
        others = [
            w for w in passage if w not in claim.numbers and w.rstrip("%") not in {c.rstrip("%") for c in claim.numbers}
            and not _spelled_one(ev, w)
        ]
        same_kind = [w for w in others if w.endswith("%") == n.endswith("%")]
        there, score = slot_match(claim, "#" + n, ev, ["#" + w for w in same_kind])
        instead = passage_form(ev, there) if there and score else None
        # the reason names only a number of the same kind (a year for a year, money for money): the
        # verdict stands as the slot match decided it, and its reason pairs no numbers of other kinds
        alike = [w for w in same_kind if same_kind_of(claim, n, ev.sentences, w)]
        named_at, named_score = slot_match(claim, "#" + n, ev, ["#" + w for w in alike])
        named = passage_form(ev, named_at) if named_at and named_score else None
        if shown.lower() in ORDINAL_WORDS:
            continue  # "when Spain first became", "the first man": an adverb as often as a rank
        if _GROUP.search(claim.text) and shown.lower() in _GROUP_COUNTS and _counts_a_group(claim.text, shown):
            continue  # "the two men", "between the two", "two of his players": the people named, counted
        in_source = value in doc.number_values or (value == "1" and doc.writes_one)
        if not in_source and not keys & doc.number_keys:
            said = f"; it says {named!r}" if named else ""
            errors.append(_shown(ev, f"{shown!r} does not occur in the source{said}", shown, named or ""))
        elif in_source and instead and score >= INTRINSIC_SLOT and not _joined(claim, n, doc, ev, there):
            said = f"; it says {named!r}" if named else ""
            errors.append(Shown(
                f"{shown!r} is in the source ({where_in_source(doc, '#' + n)}) but not in the passage that states the rest "
                f'({ev.where}: "{quote(ev.text, 100)}"){said}',
                shown, named or "",
            ))
        elif in_source:
            notes.append(f"{shown!r} is in the source ({where_in_source(doc, '#' + n)}) but not in the passage that states the rest")
        else:
            notes.append(f"{shown!r} is in the source in another form, but not in the passage that states the rest")
    return errors, notes


def _in_passage(claim: Sentence, n: str, ev: Evidence, passage: list[str]) -> tuple[Shown | None, str | None]:
    """(error shown, note) for a claim number the passage has: an error where the passage gives it
    another role or scale, or where the claim puts it the passage has another number of its form; a
    note where another kind of number stands there, or where the number's words are in another sentence."""
    linked = change_for_level(claim, n, ev) or all_for_part(claim, n, ev)
    if linked:
        return _shown(ev, f"the claim says {linked[0]!r} where the passage says {linked[1]!r}", *linked), None
    shown = claim.number_forms[n]
    scaled = _other_scale(claim, n, ev)
    if scaled:
        why = f"{shown!r} is in the passage, but as {scaled[1]!r} where the claim has {scaled[0]!r}"
        return _shown(ev, why, *scaled), None
    moved = _moved_number(claim, n, ev, passage) or _swapped_number(claim, n, ev, passage)
    if moved and _alike_form(claim, n, ev, moved):
        why = f"{shown!r} is in the passage, but where the claim puts it the passage says {moved!r}"
        return _shown(ev, why, shown, moved), None
    if moved:  # another kind of number stands there (a count of flats for a tally of votes): no error shown
        return None, f"{shown!r} is in the passage, but not where the claim puts it"
    return None, _number_of_another_sentence(claim, n, ev)


def _shown(ev: Evidence, why: str, mine: str, theirs: str) -> Shown:
    """An error shown, its reason ``why`` followed by the passage it is read against."""
    return Shown(f'{why} ({ev.where}: "{quote(ev.text, 100)}")', mine, theirs)


_SCALED = regex.compile(r"(?i)^(\d+(?:\.\d+)?)\s?(million|billion|trillion|thousand|bn|m|k)\b")


def _scaled(keys: frozenset[str], value: str) -> frozenset[str]:
    """The keys of a number that are its value times a scale ("1500000" of "1.5 million")."""
    try:
        base = Decimal(value)
    except InvalidOperation:
        return frozenset()
    out = set()
    for k in keys:
        try:
            if base and Decimal(k) >= base * 1000:
                out.add(k)
        except InvalidOperation:
            continue
    return frozenset(out)


def _other_scale(claim: Sentence, n: str, ev: Evidence) -> tuple[str, str] | None:
    """The claim's number with another scale than every passage number of the same value ("1.5
    million euros" where the passage has "1.5bn euros"): (the claim's amount, the passage's), as
    written, or ``None`` where either side has no scale or one passage amount agrees."""
    value = n.rstrip("%")
    mine = _scaled(claim.number_keys.get(n, frozenset()), value)
    if not mine:
        return None
    theirs: list[tuple[str, frozenset[str]]] = []
    for s in ev.sentences:
        for m in s.numbers:
            if m.rstrip("%") == value:
                theirs.append((s.number_forms.get(m, m), _scaled(s.number_keys.get(m, frozenset()), value)))
    if not theirs or any(not keys or keys & mine for _, keys in theirs):
        return None
    return _amount(claim.text, claim.number_forms[n]), _amount(ev.text, theirs[0][0])


def _amount(text: str, form: str) -> str:
    """``form`` with the scale word after it in ``text`` ("1.5 million"), or ``form``."""
    i = text.find(form)
    m = _SCALED.match(text[i:]) if i >= 0 else None
    return m.group(0) if m else form


def _kind(s: Sentence, n: str) -> tuple[str, frozenset[str]]:
    """What ``s``'s number ``n`` measures (:func:`..language.number_kinds.number_kind`) and, for a count,
    the words after it (what it counts: "40 computers")."""
    form = s.number_forms.get(n, n)
    kind = number_kind(s.text, form)
    if isinstance(s, KoreanSentence) and n in s.counted:
        return kind, s.counted[n]  # read with the number: its counter, or the noun before it
    counted: set[str] = set()
    if kind == "count" and regex.search(r"(?<![\p{L}\p{N}]|\p{N}[.,])" + regex.escape(form) + r"[\s-]+\p{L}", s.text):
        # what it counts: the words right after it ("40 computers"; not "forty-three, opened")
        for p in s.positions.get("#" + n, ()):
            counted.update(u for u in s.sequence[p + 1 : p + 3] if not u.startswith("#"))
    if kind == "count" and not counted and _tally(s.text, form):
        counted.add(TALLY)
    return kind, frozenset(counted)


TALLY = "~tally"
"""What a number of a tally counts ("seven votes to two", "won 3-1"): votes, goals, points, never
the flats or the jobs another number of the text counts."""
_SMALL = r"(?:\d+|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)"


def _tally(text: str, form: str) -> bool:
    """Whether ``form`` is one side of a tally in ``text``: "seven (votes) to two", "7-2", "two to one"."""
    f = regex.escape(form)
    before = regex.search(rf"(?i)\b{_SMALL}(?:\s+\p{{L}}+)?\s*(?:\bto\b|-|–)\s*{f}(?![\p{{L}}\p{{N}}])", text)
    after = regex.search(rf"(?i)(?<![\p{{L}}\p{{N}}]){f}\s*(?:\bto\b|-|–)\s*{_SMALL}\b", text)
    return bool(before or after)


def same_kind_of(claim: Sentence, n: str, sentences: tuple[Sentence, ...] | list[Sentence], w: str) -> bool:
    """Whether the number ``w`` of ``sentences`` measures what ``claim``'s number ``n`` does: a year
    a year, money money, a percent a percent, a count a count of the same thing (the words after
    them meet, or one side has none). Reasons set only such numbers against each other."""
    mine, counted = _kind(claim, n)
    for s in sentences:
        if w in s.numbers:
            theirs, things = _kind(s, w)
            return mine == theirs and (mine != "count" or not counted or not things or bool(counted & things))
    return True


def _alike_form(claim: Sentence, n: str, ev: Evidence, shown: str) -> bool:
    """:func:`same_kind_of` for a passage number known by the form it is written in."""
    for s in ev.sentences:
        for w, form in s.number_forms.items():
            if form == shown:
                return same_kind_of(claim, n, (s,), w)
    return True


def _number_of_another_sentence(claim: Sentence, n: str, ev: Evidence) -> str | None:
    """A note when the passage holds ``n`` in one sentence but the rest of the claim in another that
    has a number of the same kind ("published on March 3" where the source's "ran from March 3"
    and "published on June 1" are two sentences): the words are there, the relation may not be."""
    if len(ev.sentences) < 2:
        return None
    holders = [s for s in ev.sentences if n in s.numbers]
    if len(holders) != 1:
        return None
    rest = claim.units - {"#" + n}
    best = max(ev.sentences, key=lambda s: len(rest & s.units))
    if best is holders[0] or not rest & best.units:
        return None
    for w in best.numbers:
        if w not in claim.numbers and same_kind_of(claim, n, (best,), w):
            return (f"{claim.number_forms[n]!r} is in the passage, but the sentence that holds the rest of the claim "
                    f'has {best.number_forms.get(w, w)!r}: "{quote(best.text, 100)}"')
    return None


_JOINED_FIGURES = regex.compile(r"(?<![\d.,])(\d+)-(\d+)(?![\d.,])")


def _moved_number(claim: Sentence, n: str, ev: Evidence, passage: list[str]) -> str | None:
    """The passage number where the claim puts ``n`` (:func:`side_match`, :data:`MOVED_NUMBER`), or ``None``."""
    unit = "#" + n
    if claim.number_forms[n] in {f for pair in _JOINED_FIGURES.findall(ev.text) for f in pair}:
        return None  # "Boeing 747-8": one name of two figures, not two numbers in each other's place
    value = n.rstrip("%")
    theirs = ["#" + w for w in passage if w not in claim.numbers and w.rstrip("%") != value]
    governed = _verb_of_another(claim, unit, ev, theirs)
    if governed:
        return passage_form(ev, governed)
    _, own = side_match(claim, unit, ev, [unit])
    if own >= MOVED_NUMBER:
        return None
    there, score = side_match(claim, unit, ev, theirs)
    if not there or score < max(MOVED_NUMBER, own + 1):
        return None
    moved = passage_form(ev, there)
    return None if _changed_to(ev.text, moved, claim.number_forms[n]) else moved


def _changed_to(text: str, before: str, after: str) -> bool:
    """The passage writes a change from ``before`` to ``after`` ("from 1.9% to 1.8%", "1.9%에서
    1.8%로"): a claim that gives the value it ended at ("cut its forecast to 1.8%") has put it where
    it stands, though its words sit nearer the first."""
    a, b = regex.escape(before), regex.escape(after)
    return bool(regex.search(
        rf"(?<![\d.,]){a}\S*(?:\s+\S+){{0,2}}?\s+to\s+\S*?(?<![\d.,]){b}(?![\d])|(?<![\d.,]){a}\S*?에서\s+\S*?(?<![\d.,]){b}(?![\d])",
        text,
    ))


def _swapped_number(claim: Sentence, n: str, ev: Evidence, passage: list[str]) -> str | None:
    """Another number of the claim that the passage has where the claim puts ``n``, and ``n`` where
    the claim puts it: the two swapped ("killed 300 and injured 23" for "killing 23 and injuring 300").
    One of the two places shows :data:`MOVED_NUMBER` neighbouring words, the other at least one: a
    summary may paraphrase one side ("museum funding by 4 percent" for "funding for the city's
    museums by 12 percent")."""
    unit = "#" + n
    own = side_match(claim, unit, ev, [unit])[1]
    for m in (w for w in passage if w != n and w in claim.numbers and w.endswith("%") == n.endswith("%")):
        there, back = side_match(claim, unit, ev, ["#" + m])[1], side_match(claim, "#" + m, ev, [unit])[1]
        if max(there, back) >= MOVED_NUMBER and min(there, back) >= 1 and there > own and back > side_match(claim, "#" + m, ev, ["#" + m])[1]:
            return passage_form(ev, "#" + m)
    return None


def _verb_of_another(claim: Sentence, unit: str, ev: Evidence, theirs: list[str]) -> str | None:
    """The passage number that the claim number's verb governs there, where the claim's number has
    another verb in the passage ("laid off 200 workers" where the passage says "hired 200 workers
    and laid off 50 managers"): the verb right before each, a past form on both sides."""
    verbs = {_verb_before(claim, i) for i, u in enumerate(claim.sequence) if u == unit} - {""}
    if not verbs:
        return None
    for s in ev.sentences:
        mine = [_verb_before(s, p) for p in s.positions.get(unit, ())]
        if not mine or verbs & set(mine) or "" in mine:
            continue
        for c in theirs:
            if any(_verb_before(s, p) in verbs for p in s.positions.get(c, ())):
                return c
    return None


def _verb_before(s: Sentence, at: int) -> str:
    """The past form right before the unit at ``at`` of ``s``, or before the "since" or "till" there
    ("closed since 2019"); empty where there is none."""
    for back in (1, 2):
        if at < back:
            return ""
        unit = s.sequence[at - back]
        if past_form(s.forms.get(unit, "").lower()):
            return unit
        if s.forms.get(unit, "").lower() not in {"since", "till"}:
            return ""
    return ""


_COUNT_WORDS = "|".join(NUMBER_WORDS)


def _another_count(claim: Sentence, doc: Document, ev: Evidence) -> tuple[str, str] | None:
    """The claim's "one" of a unit ("delayed by one hour"), where the source says neither "one hour"
    nor "an hour" nor "1", and the passage counts the unit otherwise ("two hours"): the two, as written. "one"
    is no figure; it is checked against the same unit only (:data:`..language.lexicon.ONE_OF_A_UNIT`)."""
    one = regex.search(r"(?i)\bone\s+(\p{L}+?)s?\b", claim.text)
    if one is None:
        return None
    unit = regex.escape(one.group(1).lower())
    if "1" in doc.number_values or any(regex.search(rf"(?i)\b(?:one|an?)\s+{unit}\b", s.text) for s in doc.sentences):
        return None
    for s in ev.sentences:
        other = regex.search(rf"\b(?i:\d+|{_COUNT_WORDS})\s+{unit}s\b", s.text)
        if other:
            return one.group(), other.group()
    return None


def _spelled_one(ev: Evidence, w: str) -> bool:
    """The passage writes ``w`` only as "one" ("suspended for one week"): a number to check a claim's
    count against, never one that stands in the place of another (an age beside it)."""
    return w == "1" and all(s.number_forms.get(w, "").lower() in {"", "one"} for s in ev.sentences)


_GROUP_COUNTS = frozenset({"two", "three", "four"})
_GROUP = regex.compile(r"(?i)\b(?:the|these|those|both)\s+(?:two|three|four)\b|\b(?:two|three|four)\s+of\b")


def _counts_a_group(text: str, shown: str) -> bool:
    """Whether the spelled ``shown`` ("two") counts people or things the text names anyway: "the
    two", "these three", "two of his players". A count a summary makes of what it retells is no fact
    the source must state in figures."""
    word = regex.escape(shown)
    return bool(regex.search(rf"(?i)\b(?:the|these|those|both)\s+{word}\b|\b{word}\s+of\b", text))
