"""What the offline judge can show to be wrong in a claim (issue 30), and how it says what it
could not check.

The judge calls a claim unsupported only when it can show the error: a number, date or name that
the source lacks or states differently in the passage that holds the rest of the claim (here: since
rules 30.2 also a name of the source put where the passage names someone else, a number the passage
has put beside another number's words, a pronoun of the other gender than all of the passage's),
a negation, an antonym or a role swap against that passage (:mod:`.support`), a pronoun that opens
the summary with no one before it (:mod:`..reading.evidence`). Words it cannot find but that contradict
nothing leave the claim supported and *unchecked* (:func:`unchecked_reason`): a words-only judge
cannot tell a paraphrase from a wrong word.

Forms count as the same: "two-year" and "two years", "43" and "forty-three" (:mod:`..reading.analysis`), "ten
thousand" and "10,000" (:mod:`.numbers`), "Asia" and "Asian" (:func:`.evidence.derived_forms`), and a
name in any of the forms :mod:`.names` knows ("English" and "England", "Man Utd" and "Manchester
United", "UN" and "United Nations", "X-Factor" and "X Factor").
"""

from __future__ import annotations

import regex

from ..reading.analysis import Document, Sentence
from ..reading.evidence import Evidence, subject_names
from ..reading.lexicon import DATE_WORDS, ORDINAL_WORDS, WEEKDAYS
from ..reading.names import common_opener, joined_in_source, known_name, same_name, shouted, spelled_out
from ..reading.numbers import all_keys, number_kind
from ..reading.segment import quote
from ..reading.tokens import squash
from .extrinsic import in_slot, passage_form, slot_word, where_in_source
from .support import Shown, slot_match

INTRINSIC_SLOT = 2
"""A number the source has only outside the passage is an error when the passage has another one in
its place with at least this many of the claim's neighbouring words around it (issue 30: with one,
BUMP's faithful references, which join facts from distant sentences, failed 13 times on its tune half;
counted this way, on either side, names from elsewhere failed them even at two: :data:`NAME_SLOT`)."""
NAME_SLOT = 2
"""A name the source has only outside the passage is an error (a swap: "Brian Cox" where the passage
has "Stephen Hawking") when a passage name the claim lacks has at least this many of the claim name's
neighbouring words on the same sides of it (before it what stands before the claim's name, after it
what stands after). Rules 30.2, chosen on BUMP's tune half: one same-side word failed faithful
references ("Foxes" for "Leicester's"), as did two words counted on either side ("sheriff's office
in Frankfort" for "Franklin County sheriff's office")."""
MOVED_NUMBER = 2
"""A claim number the passage has, but with fewer of the claim's neighbouring words around it than
another passage number has on the same sides (at least this many), stands in that number's place
("Officers arrested 20 men" where the passage says "seized 20 boats and arrested 18 men")."""

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
        value = n.rstrip("%")
        keys = claim.number_keys.get(n, frozenset({value}))
        if value in held:
            moved = _moved_number(claim, n, ev, passage)
            if moved:
                there_now = f"the passage says {moved!r}" if _alike_form(claim, n, ev, moved) else "the passage does not"
                errors.append(Shown(
                    f"{claim.number_forms[n]!r} is in the passage, but where the claim puts it {there_now} "
                    f'({ev.where}: "{quote(ev.text, 100)}")',
                    claim.number_forms[n], moved if there_now != "the passage does not" else "",
                ))
            continue
        if passage_keys is None:
            passage_keys = frozenset().union(*(all_keys(s.number_keys) for s in ev.sentences))
        if keys & passage_keys:
            continue  # the passage's number in another form: "ten thousand" for "10,000", "9th" for "ninth"
        shown = claim.number_forms[n]
        others = [w for w in passage if w not in claim.numbers and w.rstrip("%") not in {c.rstrip("%") for c in claim.numbers}]
        same_kind = [w for w in others if w.endswith("%") == n.endswith("%")]
        there, score = slot_match(claim, "#" + n, ev, ["#" + w for w in same_kind])
        instead = passage_form(ev, there) if there and score else None
        # the reason names only a number of the same kind (a year for a year, money for money): the
        # verdict above is the rules' as before, what it says no false pair (issue 45)
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
            errors.append(Shown(f'{shown!r} does not occur in the source{said} ({ev.where}: "{quote(ev.text, 100)}")',
                                shown, named or ""))
        elif in_source and instead and score >= INTRINSIC_SLOT:
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


def _kind(s: Sentence, n: str) -> tuple[str, frozenset[str]]:
    """What ``s``'s number ``n`` measures (:func:`..reading.numbers.number_kind`) and, for a count,
    the words after it (what it counts: "40 computers")."""
    form = s.number_forms.get(n, n)
    kind = number_kind(s.text, form)
    counted: set[str] = set()
    if kind == "count" and regex.search(r"(?<![\p{L}\p{N}]|\p{N}[.,])" + regex.escape(form) + r"[\s-]+\p{L}", s.text):
        # what it counts: the words right after it ("40 computers"; not "forty-three, opened")
        for p in s.positions.get("#" + n, ()):
            counted.update(u for u in s.sequence[p + 1 : p + 3] if not u.startswith("#"))
    return kind, frozenset(counted)


def same_kind_of(claim: Sentence, n: str, sentences: tuple[Sentence, ...] | list[Sentence], w: str) -> bool:
    """Whether the number ``w`` of ``sentences`` measures what ``claim``'s number ``n`` does: a year
    a year, money money, a percent a percent, a count a count of the same thing (the words after
    them meet, or one side has none). Reasons set only such numbers against each other (issue 45)."""
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


def name_errors(claim: Sentence, doc: Document, ev: Evidence, derived: dict[str, str]) -> tuple[list[str], list[str]]:
    """(errors shown, notes) for the claim's names and dates, as :func:`number_errors` for numbers."""
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
            # hospital in Grauhorn", the peak of the sentence before; issue 45). A name that opens
            # the claim is who it is about, and the passage may well call it otherwise ("The Foxes
            # host Swansea" for "Leicester host Swansea", "the Spurs striker" for "Tottenham
            # striker"): only a name further on is held to the passage's (rules 45.2)
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
        if not known_name(name, shown, doc, derived) and not joined_in_source(claim.text, shown, doc):
            said = f"; the passage names {instead!r}" if instead else ""
            errors.append(Shown(f'{shown!r} does not occur in the source{said} ({ev.where}: "{quote(ev.text, 100)}")',
                                shown, instead or ""))
        elif name in doc.units and (swapped := _swapped_name(claim, name, ev, theirs)):
            errors.append(Shown(
                f"{shown!r} is in the source ({where_in_source(doc, name)}) but not in the passage that states the "
                f'rest, which names {swapped!r} in its place ({ev.where}: "{quote(ev.text, 100)}")',
                shown, swapped,
            ))
        elif name in doc.units:  # a summary joins facts of distant sentences: a note unless swapped
            notes.append(f"{shown!r} is in the source ({where_in_source(doc, name)}) but not in the passage that states the rest")
    opener = _opening_name(claim, doc, ev, derived)
    if opener:
        errors.append(opener)
    gender = pronoun_gender(claim, ev, doc.lang)
    if gender:
        errors.append(gender)
    return errors, notes


def side_match(
    claim: Sentence, unit: str, ev: Evidence, candidates: list[str], reach: int = 2, written: bool = False
) -> tuple[str | None, int]:
    """Of ``candidates`` (units of the passage), the one in ``unit``'s place in the claim, and how many
    of ``unit``'s claim neighbours (content words within ``reach``) stand on the same side of it within
    ``reach`` in a passage sentence: what precedes the claim's word precedes it, what follows follows.
    ``written``: only where a sentence writes the candidate with a capital (a unit is a name by its
    stem, so "suicidal" is one where the source also has "Veterans Suicide Hotline"; only a word
    written as a name can be the name a claim's name took the place of)."""
    seq = claim.sequence
    before: set[str] = set()
    after: set[str] = set()
    for i, u in enumerate(seq):
        if u == unit:
            before.update(x for x in seq[max(0, i - reach) : i] if x != unit and not x.startswith("#"))
            after.update(x for x in seq[i + 1 : i + reach + 1] if x != unit and not x.startswith("#"))
    best: str | None = None
    best_score = 0
    for c in candidates:
        for s in ev.sentences:
            if written and not s.forms.get(c, "")[:1].isupper():
                continue
            for p in s.positions.get(c, ()):
                got = len(before & set(s.sequence[max(0, p - reach) : p]))
                got += len(after & set(s.sequence[p + 1 : p + reach + 1]))
                if got > best_score:
                    best, best_score = c, got
    return best, best_score


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


_JOINED_FIGURES = regex.compile(r"(?<![\d.,])(\d+)-(\d+)(?![\d.,])")


def _moved_number(claim: Sentence, n: str, ev: Evidence, passage: list[str]) -> str | None:
    """The passage number standing where the claim puts ``n`` (which the passage also has, elsewhere),
    by :func:`side_match` (:data:`MOVED_NUMBER`); ``None`` when ``n`` stands there itself."""
    unit = "#" + n
    if claim.number_forms[n] in {f for pair in _JOINED_FIGURES.findall(ev.text) for f in pair}:
        return None  # "Boeing 747-8": one name of two figures, not two numbers in each other's place
    _, own = side_match(claim, unit, ev, [unit])
    if own >= MOVED_NUMBER:
        return None
    value = n.rstrip("%")
    theirs = ["#" + w for w in passage if w not in claim.numbers and w.rstrip("%") != value]
    there, score = side_match(claim, unit, ev, theirs)
    return passage_form(ev, there) if there and score >= max(MOVED_NUMBER, own + 1) else None


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


_GROUP_COUNTS = frozenset({"two", "three", "four"})
_GROUP = regex.compile(r"(?i)\b(?:the|these|those|both)\s+(?:two|three|four)\b|\b(?:two|three|four)\s+of\b")


def _counts_a_group(text: str, shown: str) -> bool:
    """Whether the spelled ``shown`` ("two") counts people or things the text names anyway: "the
    two", "these three", "two of his players". A count a summary makes of what it retells is no fact
    the source must state in figures."""
    word = regex.escape(shown)
    return bool(regex.search(rf"(?i)\b(?:the|these|those|both)\s+{word}\b|\b{word}\s+of\b", text))


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


def key_fact_missing(
    fact: Sentence, summary_units: frozenset[str], best: Sentence | None, summary_numbers: frozenset[str] = frozenset()
) -> tuple[str, str] | None:
    """Coverage (issue 30): what of a fact's key facts (its numbers, dates, names) the summary lacks,
    ``None`` when it has them all (and at least half of the names). The second item is a
    contradiction when the summary sentence closest to the fact has another number in its place
    ("520 seats" for "250 seats"), else empty. ``summary_numbers``: every value the summary's numbers
    may stand for (a fact's "10,000" is in a summary that says "ten thousand"). A weekday is
    detail, never a key fact (:data:`.lexicon.WEEKDAYS`)."""
    missing = [n for n in fact.numbers if "#" + n not in summary_units and not fact.number_keys[n] & summary_numbers]
    if missing and best is not None:
        theirs = [
            w for w in best.numbers
            if w not in fact.numbers and w.endswith("%") == missing[0].endswith("%")
            and same_kind_of(fact, missing[0], (best,), w)
        ]
        window = Evidence(0, 1, (best,), frozenset())
        there, score = slot_match(fact, "#" + missing[0], window, ["#" + w for w in theirs])
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


def unchecked_reason(claim: Sentence, ev: Evidence, covered: frozenset[str], doc: Document, notes: list[str]) -> str:
    """The reason of a claim supported because nothing contradicts it: how many of its content words
    the passage lacks, which they are, and that a paraphrase cannot be checked by words."""
    words = {claim.forms.get(u, u).lower(): u for u in claim.sequence if not u.startswith("#")}
    missing = [w for w, u in words.items() if u not in covered]
    absent = [w for w in missing if words[w] not in doc.units]
    head = "no contradiction found"
    if missing:
        shown = ", ".join(_with_slot(claim, w, words[w], ev) for w in missing[:6]) + (", ..." if len(missing) > 6 else "")
        where = "the source" if len(absent) == len(missing) else "the closest passage"
        head += f"; {len(missing)} of {len(words)} content words not in {where}: {shown}"
    elif notes:
        head += f"; {notes[0]}"
    return f'{head} ({ev.where}: "{quote(ev.text, 100)}"); a paraphrase cannot be checked by words'


def _with_slot(claim: Sentence, word: str, unit: str, ev: Evidence) -> str:
    """``word`` quoted, with the passage's word in its place where one stands there."""
    there = slot_word(claim, unit, ev) if in_slot(claim, unit, ev) else None
    return f"{word!r} (the passage has {passage_form(ev, there)!r} there)" if there else repr(word)


_SENTENCE_NUMBER = regex.compile(r"\b(sentences? )(\d+)(?:-(\d+))?")


def whole_source_numbers(text: str, sentences: list[str], passages: list[tuple[int, int]]) -> list[int]:
    """Issue 30, a long source: the number in the whole source of each of ``sentences`` (the judge's
    sentences of ``text``, the retrieved passages joined), from where each passage begins in ``text``
    and how many of the whole source's sentences come before it."""
    out: list[int] = []
    cursor, current, local = 0, -1, 0
    starts = sorted(passages)
    for s in sentences:
        at = text.find(s, cursor)
        at = cursor if at < 0 else at
        cursor = at + len(s)
        k = max((i for i, (start, _) in enumerate(starts) if start <= at), default=0)
        if k != current:
            current, local = k, 0
        out.append(starts[k][1] + local + 1)
        local += 1
    return out


def renumber(reason: str, numbers: list[int]) -> str:
    """``reason`` with its "sentence N" / "sentences N-M" (numbered within the passages) numbered in the
    whole source."""

    def one(n: str) -> str:
        i = int(n) - 1
        return str(numbers[i]) if 0 <= i < len(numbers) else n

    def sub(m: regex.Match[str]) -> str:
        head, a, b = m.group(1), one(m.group(2)), m.group(3)
        return f"{head}{a}" + (f"-{one(b)}" if b else "")

    return _SENTENCE_NUMBER.sub(sub, reason)
