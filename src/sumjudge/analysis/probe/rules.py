"""The rules of the alignment kinds (a figure, a date, a name, a negation, an opposite, a role, an
added claim) and of ``dropped_fact``: each returns a :class:`~.variants.Variant` or ``None`` when the
change cannot be made safely for the row."""

from __future__ import annotations

import random
import unicodedata
from collections.abc import Sequence

from . import text as tx
from .variants import ProbeRow, Variant, pick, swap
from .word_lists import (
    ANTONYMS, AUXILIARIES, MONTHS, NEGATIONS, NEW_FIRST_NAMES, NEW_PLACES, NEW_SURNAMES, NUMBER_WORDS, WEEKDAYS,
)


# -- alignment ---------------------------------------------------------------------------------


def number(row: ProbeRow, _others: Sequence[str], rng: random.Random) -> Variant | None:
    """One digit of a figure changed (in the figure's own script); never a year, never to a figure
    the source has."""
    in_source = {p.text for p, _ in tx.numbers(row.source)}
    months = {w.end for w in tx.calendar_words(row.summary)}
    candidates = [
        (p, suffix) for p, suffix in tx.numbers(row.summary)
        if not tx.is_year(p.text) and not any(0 < p.start - m <= 2 for m in months)
    ]
    rng.shuffle(candidates)
    for piece, suffix in candidates:
        positions = [i for i, c in enumerate(piece.text) if c.isdecimal()]
        rng.shuffle(positions)
        for i in positions:
            c = piece.text[i]
            zero = ord(c) - unicodedata.digit(c)
            choices = [d for d in range(10) if d != unicodedata.digit(c) and not (d == 0 and i == 0 and len(piece.text) > 1)]
            rng.shuffle(choices)
            for d in choices:
                new = piece.text[:i] + chr(zero + d) + piece.text[i + 1:]
                if new in in_source:
                    continue
                if suffix:
                    value = tx.digit_value(new)
                    if value is None:
                        continue
                    new_suffix = _ordinal(value)
                    return swap(row, "number", piece.start, piece.end + len(suffix), new + new_suffix)
                return swap(row, "number", piece.start, piece.end, new)
    words = [w for w in tx.words(row.summary) if w.text.lower() in NUMBER_WORDS]
    source_words = {w.text.lower() for w in tx.words(row.source)}
    rng.shuffle(words)
    for w in words:
        options = [n for n in NUMBER_WORDS if n != w.text.lower() and n not in source_words
                   and (n in ("hundred", "thousand", "million", "billion")) == (w.text.lower() in ("hundred", "thousand", "million", "billion"))]
        if options:
            return swap(row, "number", w.start, w.end, tx.match_case(w.text, str(pick(rng, options))))
    return None


def _ordinal(n: int) -> str:
    if 10 <= n % 100 <= 20:
        return "th"
    return {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")


def date(row: ProbeRow, _others: Sequence[str], rng: random.Random) -> Variant | None:
    """A month, a weekday or a year changed to one the source does not have."""
    source_words = {w.text for w in tx.words(row.source)}
    source_years = {p.text for p, _ in tx.numbers(row.source) if tx.is_year(p.text)}
    options: list[tuple[int, int, str]] = []
    for w in tx.calendar_words(row.summary):
        pool = MONTHS if w.text in MONTHS else WEEKDAYS
        others = [m for m in pool if m != w.text and m not in source_words]
        if others:
            options.append((w.start, w.end, str(pick(rng, others))))
    for p, _ in tx.numbers(row.summary):
        if tx.is_year(p.text):
            last = p.text[-1]
            zero = ord(last) - unicodedata.digit(last)
            shifted = [p.text[:-1] + chr(zero + d) for d in range(10) if d != unicodedata.digit(last)]
            shifted = [s for s in shifted if s not in source_years]
            if shifted:
                options.append((p.start, p.end, str(pick(rng, shifted))))
    choice = pick(rng, options)
    if choice is None:
        return None
    start, end, new = choice  # type: ignore[misc]
    return swap(row, "date", start, end, new)


def _summary_names(row: ProbeRow) -> list[tx.Piece]:
    """The summary's names that stand alone: a name beside another capitalised word (``Radamel`` before
    ``Falcao`` at a sentence's start) may be part of a longer one, and is left alone."""
    text = row.summary
    out = []
    for p in tx.names(text, also_seen_in=row.source):
        before = text[:p.start].rstrip(" ").rsplit(" ", 1)[-1] if text[:p.start].endswith(" ") else ""
        after = text[p.end:].lstrip(" ").split(" ", 1)[0] if text[p.end:].startswith(" ") else ""
        if before[:1].isupper() or after[:1].isupper():
            continue
        out.append(p)
    return out


def name_swap(row: ProbeRow, _others: Sequence[str], rng: random.Random) -> Variant | None:
    """A name of the summary replaced by another name of the same source that the summary lacks."""
    found = [p.text for p in tx.names(row.source)]
    source_names = {n for n in found if " " in n or found.count(n) > 1}
    mine = [p for p in _summary_names(row) if p.text in source_names]
    rng.shuffle(mine)
    summary_words = {w.text.lower() for w in tx.words(row.summary)}
    for piece in mine:
        others = sorted(
            n for n in source_names
            if not (tx.name_words(n) & summary_words)
        )
        if others:
            return swap(row, "name_swap", piece.start, piece.end, str(pick(rng, others)))
    return None


def name_new(row: ProbeRow, _others: Sequence[str], rng: random.Random) -> Variant | None:
    """A name of the summary replaced by a name the source does not have (from the probe's own list)."""
    mine = _summary_names(row)
    if not mine:
        return None
    piece = mine[rng.randrange(len(mine))]
    taken = {w.text.lower() for w in tx.words(row.source + " " + row.summary)}
    parts = len(tx.name_words(piece.text))
    if parts >= 2:
        pool = [f"{f} {s}" for f in NEW_FIRST_NAMES for s in NEW_SURNAMES]
    else:
        pool = list(NEW_SURNAMES + NEW_PLACES)
    pool = [n for n in pool if not (tx.name_words(n) & taken)]
    new = pick(rng, pool)
    return None if new is None else swap(row, "name_new", piece.start, piece.end, str(new))


def negation(row: ProbeRow, _others: Sequence[str], rng: random.Random) -> Variant | None:
    """``not`` put after an auxiliary (``was`` -> ``was not``) in a sentence without a negation, or
    taken away where the summary has one (``was not`` -> ``was``)."""
    options: list[tuple[int, int, str]] = []
    for s in tx.sentences(row.summary):
        ws = tx.words(s.text)
        lowered = [w.text.lower() for w in ws]
        negated = any(w in NEGATIONS or w.endswith("n't") for w in lowered)
        for i, w in enumerate(ws[:-1]):
            word, after = lowered[i], lowered[i + 1]
            if word not in AUXILIARIES or not w.text.islower():
                continue
            if not negated and w.start > 0 and _negatable(word, after):
                options.append((s.start + w.start, s.start + w.end, f"{w.text} not"))
            elif after == "not" and s.text[w.end:ws[i + 1].start] == " ":
                options.append((s.start + w.start, s.start + ws[i + 1].end, w.text))
    choice = pick(rng, options)
    if choice is None:
        return None
    start, end, new = choice  # type: ignore[misc]
    return swap(row, "negation", start, end, new)


def _negatable(aux: str, after: str) -> bool:
    if aux in ("has", "have", "had"):
        return after == "been" or after.endswith(("ed", "en")) or after in ("won", "lost", "made", "got", "left", "told")
    return after not in ("to", "also", "only", "just") and after.isalpha()


_OPPOSITE = {}
for _a, _b in ANTONYMS:
    _OPPOSITE.setdefault(_a, _b)
    _OPPOSITE.setdefault(_b, _a)


def lowered_prev(ws: list[tx.Piece], i: int) -> str:
    return ws[i - 1].text.lower()


def antonym(row: ProbeRow, _others: Sequence[str], rng: random.Random) -> Variant | None:
    """A word replaced by its opposite (the probe's own list), where the opposite is not in the same sentence."""
    options: list[tuple[int, int, str]] = []
    for s in tx.sentences(row.summary):
        ws = tx.words(s.text)
        present = {w.text.lower() for w in ws}
        for i, w in enumerate(ws):
            opposite = _OPPOSITE.get(w.text.lower())
            if opposite is None or opposite in present:
                continue
            if w.text[:1].isupper() and i > 0:
                continue  # part of a name (New York, Good Friday)
            if i > 0 and lowered_prev(ws, i) in ("a", "an") and (w.text[:1].lower() in "aeiou") != (opposite[:1] in "aeiou"):
                continue  # "a new book" must not become "a old book"
            options.append((s.start + w.start, s.start + w.end, tx.match_case(w.text, opposite)))
    choice = pick(rng, options)
    if choice is None:
        return None
    start, end, new = choice  # type: ignore[misc]
    return swap(row, "antonym", start, end, new)


_SYMMETRIC = frozenset("and or with alongside vs v versus between among nor met against".split())
_PREPOSITIONS = frozenset("of over in at on from for to about into under after before during the a an".split())
_VERBS = frozenset("beat hit met told sued hired fired left joined led paid sold bought saw shot".split())


def _verb_like(word: str) -> bool:
    return word in _VERBS or word.endswith("ed") or (word.endswith("s") and not word.endswith(("ss", "us", "is")))


def role_swap(row: ProbeRow, _others: Sequence[str], rng: random.Random) -> Variant | None:
    """Who did what to whom exchanged: in ``A <verb> B`` (two names, one to four lower-case words
    between them, none of them symmetric like ``and`` or ``with``), A and B trade places."""
    names = _summary_names(row)
    options: list[tuple[int, int, str]] = []
    for a, b in zip(names, names[1:]):
        between = row.summary[a.end:b.start]
        ws = [w.text for w in tx.words(between)]
        if not 1 <= len(ws) <= 4 or any(not w.islower() for w in ws):
            continue
        if any(w in _SYMMETRIC or w in _PREPOSITIONS for w in ws) or not any(_verb_like(w) for w in ws):
            continue
        if any(ch in between for ch in ",;:()\"'.’"):
            continue
        if tx.name_words(a.text) & tx.name_words(b.text) or a.text.isupper() or b.text.isupper():
            continue
        options.append((a.start, b.end, b.text + between + a.text))
    choice = pick(rng, options)
    if choice is None:
        return None
    start, end, new = choice  # type: ignore[misc]
    return swap(row, "role_swap", start, end, new)


def added_claim(row: ProbeRow, others: Sequence[str], rng: random.Random) -> Variant | None:
    """A sentence from another row's source appended: one that shares few facts with this source."""
    if not others:
        return None
    mine = tx.content_words(row.source)
    script = tx.script(row.summary)
    my_names = {w.lower() for p in tx.names(row.source) for w in p.text.split()}
    order = list(range(len(others)))
    rng.shuffle(order)
    for k in order[:8]:
        candidates = [s for s in tx.sentences(others[k]) if 6 <= len(tx.words(s.text)) <= 35 and s.text[-1:] in ".!?"]
        rng.shuffle(candidates)
        for s in candidates:
            facts = tx.content_words(s.text)
            if not facts or len(facts & mine) / len(facts) > 0.3 or tx.script(s.text) != script:
                continue
            if any(w.text.lower() in my_names for w in tx.words(s.text) if w.text[:1].isupper()):
                continue
            base = row.summary.rstrip()
            if base != row.summary or not base or base[-1] not in ".!?":
                return None  # appending cleanly needs a summary that ends a sentence and nothing after it
            added = " " + s.text
            return Variant(
                row_id=row.id, kind="added_claim", axis="alignment", summary=base + added,
                original_span=(len(base), len(base)), variant_span=(len(base), len(base) + len(added)),
                change=f"appended {s.text!r}",
            )
    return None


# -- coverage ----------------------------------------------------------------------------------


def dropped_fact(row: ProbeRow, _others: Sequence[str], rng: random.Random) -> Variant | None:
    """The summary sentence that shares the most facts with the source's most informative sentences
    (the ones a question writer would ask about) removed, with the space that joined it."""
    parts = tx.sentences(row.summary)
    if len(parts) < 2:
        return None
    ranked = sorted(tx.sentences(row.source), key=lambda s: -len(tx.content_words(s.text)))[:5]
    key_facts = set().union(*(tx.content_words(s.text) for s in ranked)) if ranked else set()
    shared = [len(tx.content_words(p.text) & key_facts) for p in parts]
    best = max(range(len(parts)), key=lambda i: (shared[i], -i))
    if shared[best] < 2:
        return None
    p = parts[best]
    start, end = (p.start, parts[best + 1].start) if best + 1 < len(parts) else (parts[best - 1].end, len(row.summary))
    variant = row.summary[:start] + row.summary[end:]
    return Variant(
        row_id=row.id, kind="dropped_fact", axis="coverage", summary=variant, original_span=(start, end),
        variant_span=(start, start), change=f"removed {p.text!r}",
    )
