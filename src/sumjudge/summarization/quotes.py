"""Quoted evidence, located: where a judge's quote lies in its text, and whether it holds the verdict up.

Each verdict carries the judge's ``quote``: for a claim, the source passage that decides it; for a
question, the summary's words that answer it. :func:`locate` finds a quote in a text in three steps,
the first that succeeds deciding:

1. **exact**: the quote (stripped of surrounding quotation marks, ellipses and spaces) as it stands;
2. **normalised**: after Unicode normalisation (NFKC, so a composed accent matches a decomposed one, and
   fullwidth letters their ASCII forms) and folding case, runs of whitespace, typographic quotes
   (``“ ” ‘ ’ « »``) and dashes (``– — ‐ −``) on both sides; the offsets are those of the original text
   (a letter with its combining marks is one unit: a match never ends inside one);
3. **fuzzy**: the best-aligned span of the text (:data:`FUZZY_THRESHOLD` = 0.85 of the quote's characters
   matched, in :class:`difflib.SequenceMatcher`'s ratio; every number of the quote found in the
   span; every word of the quote in the span or a misspelling of one of its words, at
   :data:`WORD_THRESHOLD`). It forgives a dropped or elided word, a typo, punctuation; it does not
   forgive a number or a word changed ("less than" for "more than"). Quotes under
   :data:`FUZZY_MIN_CHARS` characters are located exactly or normalised only.

The fuzzy step is the standard library's (no dependency); it looks only at the few windows of the
text that share most words with the quote, so its cost is a pass over the text plus a few short
alignments, and it runs only for quotes the first two steps did not find.

A verdict is **verified** when its quote holds it up (:func:`verify_alignment`, :func:`verify_coverage`):

- a claim judged *supported* needs a quote found in the source; a quote found nowhere, no quote, or
  a quote found in the summary but not in the source (the judge quoted the claim back) leaves it
  unverified;
- a claim judged *unsupported* is verified unless its quote is found in neither text (an invented
  passage); with no quote it has nothing to check;
- a claim's differing words (what the judge shows wrong, in the claim and in the passage
  that disproves it) must stand where the judge says, the claim's in the summary, the passage's in
  the quoted passage; where they do not, the verdict is unverified;
- a question judged *answered* needs a quote found in the summary; an unanswered question is
  verified unless its quote is found nowhere.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from dataclasses import dataclass
from difflib import SequenceMatcher
from typing import Literal

from .verdicts import AlignmentVerdict, CoverageVerdict, Difference

FUZZY_THRESHOLD = 0.85
"""The least :class:`difflib.SequenceMatcher` ratio of a fuzzy match (quote against the span found)."""
WORD_THRESHOLD = 0.75
"""In a fuzzy match, each word of the quote must be in the span or this close to one of its words."""
FUZZY_MIN_CHARS = 12
"""Shorter quotes are located exactly or after normalising only (a fuzzy match of a few letters says nothing)."""

Match = Literal["exact", "normalised", "fuzzy"]

_NONE = frozenset({"", "none", "n/a", "na", "null", "nothing", "-"})
"""What a judge writes for "no quote"."""
_EDGES = " \t\r\n\"'`\u201c\u201d\u2018\u2019\u00ab\u00bb\u201e.\u2026"
_QUOTE_MARKS = dict.fromkeys("\u2018\u2019\u201a\u201b\u2032`\u00b4", "'") | dict.fromkeys(
    "\u201c\u201d\u201e\u201f\u2033\u00ab\u00bb", '"'
)
_DASHES = frozenset("\u2010\u2011\u2012\u2013\u2014\u2015\u2212\ufe58\ufe63\uff0d")
_NUMBER = re.compile(r"\d+(?:[.,]\d+)*")
_WORD = re.compile(r"\S+")


@dataclass(frozen=True)
class Located:
    """Where a quote was found: ``text[start:end]``, and by which step."""

    start: int
    end: int
    match: Match


def clean_quote(quote: str | None) -> str:
    """The quote without surrounding quotation marks, ellipses and spaces; ``""`` for none."""
    text = (quote or "").strip(_EDGES)
    return "" if text.lower() in _NONE else text


def fold_marks(text: str) -> str:
    """``text`` with typographic quotes made straight and dashes made ``-``."""
    return "".join("-" if ch in _DASHES else _QUOTE_MARKS.get(ch, ch) for ch in text)


def _units(text: str) -> list[tuple[int, int]]:
    """``text`` cut into units, each a character and the combining marks that follow it: ``(start, end)``."""
    units: list[tuple[int, int]] = []
    for i, ch in enumerate(text):
        if units and unicodedata.combining(ch):
            units[-1] = (units[-1][0], i + 1)
        else:
            units.append((i, i + 1))
    return units


@functools.lru_cache(maxsize=8)  # each verdict's quote is looked for in the same source and summary
def _normalise(text: str) -> tuple[str, list[int], list[int]]:
    """``text`` folded (NFKC, case, whitespace, quotes, dashes), with where each character's unit starts
    and ends in ``text`` (read only: the lists are shared by every caller of the same text)."""
    out: list[str] = []
    starts: list[int] = []
    ends: list[int] = []
    space = True  # leading whitespace is dropped
    plain = text.isascii()
    for lo, hi in ((i, i + 1) for i in range(len(text))) if plain else _units(text):
        unit = text[lo:hi] if plain else unicodedata.normalize("NFKC", text[lo:hi])
        for ch in unit:
            if ch.isspace():
                if not space:
                    out.append(" ")
                    starts.append(lo)
                    ends.append(hi)
                    space = True
                continue
            ch = "-" if ch in _DASHES else _QUOTE_MARKS.get(ch, ch)
            for c in ch.lower():
                out.append(c)
                starts.append(lo)
                ends.append(hi)
            space = False
    if out and out[-1] == " ":
        out.pop()
        starts.pop()
        ends.pop()
    return "".join(out), starts, ends


def locate(quote: str, text: str) -> Located | None:
    """Where ``quote`` lies in ``text`` (exact, then normalised, then fuzzy), or ``None``."""
    q = clean_quote(quote)
    if not q or not text:
        return None
    at = text.find(q)
    if at >= 0:
        return Located(at, at + len(q), "exact")
    nq, _, _ = _normalise(q)
    nt, starts, ends = _normalise(text)
    if not nq or not nt:
        return None
    at = nt.find(nq)
    if at >= 0:
        return Located(starts[at], ends[at + len(nq) - 1], "normalised")
    if len(nq) < FUZZY_MIN_CHARS:
        return None
    span = _fuzzy(nq, nt)
    if span is None:
        return None
    return Located(starts[span[0]], ends[span[1] - 1], "fuzzy")


def _fuzzy(q: str, t: str) -> tuple[int, int] | None:
    """The best span of ``t`` for ``q`` (both normalised) at :data:`FUZZY_THRESHOLD` or above."""
    words = [(m.start(), m.end(), m.group()) for m in _WORD.finditer(t)]
    wanted = set(q.split(" "))
    n = max(1, len(q.split(" ")))
    if not words:
        return None
    prefix = [0]
    for _, _, w in words:
        prefix.append(prefix[-1] + (w in wanted))
    counts = [prefix[min(i + n, len(words))] - prefix[i] for i in range(max(1, len(words) - n + 1))]
    starts = sorted(range(len(counts)), key=lambda i: (-counts[i], i))[:3]
    numbers = _NUMBER.findall(q)
    best: tuple[float, int, int] | None = None
    for s in starts:
        if counts[s] == 0:
            break
        lo = words[max(0, s - 2)][0]
        hi = words[min(len(words) - 1, s + n + 1)][1]
        blocks = [b for b in SequenceMatcher(None, t[lo:hi], q, autojunk=False).get_matching_blocks() if b.size]
        if not blocks:
            continue
        a, b = lo + blocks[0].a, lo + blocks[-1].a + blocks[-1].size
        ratio = SequenceMatcher(None, t[a:b], q, autojunk=False).ratio()
        if ratio >= FUZZY_THRESHOLD and all(x in _NUMBER.findall(t[a:b]) for x in numbers) and _words_kept(q, t[a:b]):
            if best is None or ratio > best[0]:
                best = (ratio, a, b)
    return None if best is None else (best[1], best[2])


def _words_kept(q: str, span: str) -> bool:
    """Every word of the quote is in the span, or a misspelling of one of its words (a ratio of
    :data:`WORD_THRESHOLD`): "milion" passes for "million", "less" does not pass for "more"."""
    have = set(span.split(" "))
    return all(
        w in have or any(SequenceMatcher(None, w, h, autojunk=False).ratio() >= WORD_THRESHOLD for h in have)
        for w in q.split(" ")
    )


def _span(found: Located | None) -> list[int] | None:
    return None if found is None else [found.start, found.end]


def _exactly(quote: str, text: str) -> bool:
    """Found in ``text`` without the fuzzy step."""
    found = locate(quote, text)
    return found is not None and found.match != "fuzzy"


def verify_alignment(verdict: AlignmentVerdict, source: str, summary: str) -> AlignmentVerdict:
    """The verdict with ``quote_offsets`` (into the source) and ``verified`` set (module notes), and
    its differing words located (:func:`locate_differences`)."""
    checked = _verify_quote(verdict, source, summary)
    if not verdict.differs:
        return checked
    differs, found = locate_differences(verdict, source, summary, checked.quote_offsets)
    return checked.model_copy(update={"differs": differs, "verified": bool(checked.verified) and found})


def _verify_quote(verdict: AlignmentVerdict, source: str, summary: str) -> AlignmentVerdict:
    quote = clean_quote(verdict.quote)
    if not quote:
        return verdict.model_copy(update={"quote_offsets": None, "verified": not verdict.supported})
    # a quote the summary holds and the source does not hold as such is the claim quoted back, even
    # where a fuzzy match would find something like it in the source ("less than" for "more than")
    in_source = locate(quote, source)
    if in_source is not None and in_source.match == "fuzzy" and _exactly(quote, summary):
        in_source = None
    if in_source is not None:
        return verdict.model_copy(update={"quote_offsets": _span(in_source), "verified": True})
    from_summary = locate(quote, summary) is not None
    return verdict.model_copy(update={"quote_offsets": None, "verified": from_summary and not verdict.supported})


def _words_at(words: str, text: str, lo: int, hi: int) -> list[int] | None:
    """Where ``words`` stand in ``text[lo:hi]`` as whole words (case and quotes folded), or ``None``."""
    if not words.strip():
        return None
    part = text[lo:hi]
    pattern = re.compile(r"(?<!\w)" + re.escape(words.strip()) + r"(?!\w)", re.IGNORECASE)
    m = pattern.search(part)
    if m is not None:
        return [lo + m.start(), lo + m.end()]
    found = locate(words, part)
    return None if found is None else [lo + found.start, lo + found.end]


def locate_differences(
    verdict: AlignmentVerdict, source: str, summary: str, quote_offsets: list[int] | None
) -> tuple[list[Difference], bool]:
    """The verdict's differing words (:attr:`.verdicts.AlignmentVerdict.differs`) located, and
    whether all were found: each claim side in the summary, within the claim where the claim is
    found there; each source side in the source, within the quoted passage where it was found.
    Words a judge says differ but that are not where it says they are leave the verdict unverified,
    as a quote found nowhere does."""
    claim_at = locate(verdict.claim, summary)
    c_lo, c_hi = (claim_at.start, claim_at.end) if claim_at is not None else (0, len(summary))
    s_lo, s_hi = (quote_offsets[0], quote_offsets[1]) if quote_offsets else (0, len(source))
    out: list[Difference] = []
    every = True
    for d in verdict.differs or []:
        mine = _words_at(d.claim, summary, c_lo, c_hi) or _words_at(d.claim, summary, 0, len(summary))
        theirs = _words_at(d.source, source, s_lo, s_hi) if d.source else None
        every = every and mine is not None and (not d.source or theirs is not None)
        out.append(d.model_copy(update={"claim_offsets": mine, "source_offsets": theirs}))
    return out, every


def verify_coverage(verdict: CoverageVerdict, summary: str) -> CoverageVerdict:
    """The verdict with ``quote_offsets`` (into the summary) and ``verified`` set (module notes)."""
    quote = clean_quote(verdict.quote)
    if not quote:
        return verdict.model_copy(update={"quote_offsets": None, "verified": not verdict.answered})
    found = locate(quote, summary)
    return verdict.model_copy(update={"quote_offsets": _span(found), "verified": found is not None})


def located_share(verdicts: list[AlignmentVerdict] | list[CoverageVerdict]) -> tuple[int, int]:
    """``(verified, checked)`` among ``verdicts``: the verdicts whose evidence holds up, of those checked."""
    checked = [v for v in verdicts if v.verified is not None]
    return sum(1 for v in checked if v.verified), len(checked)


__all__ = [
    "FUZZY_MIN_CHARS", "FUZZY_THRESHOLD", "WORD_THRESHOLD", "Located", "clean_quote", "fold_marks", "locate",
    "locate_differences", "located_share", "verify_alignment",
    "verify_coverage",
]
