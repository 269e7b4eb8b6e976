"""What the probe's rules see in a text: sentences, words, figures and names, each with its offsets.

Plain rules of its own (no tokenizer, no model, nothing of the offline judge's): enough to find a
place where a change is safe, and to refuse when it is not. Figures are found in any script
(``\\d`` is every Unicode decimal digit); sentences and names assume a cased script (English first).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .word_lists import CONTENT_STOPWORDS, MONTHS, NOT_NAMES, WEEKDAYS

_SENTENCE_END = re.compile(r"(?<=[.!?])[\"'”’)\]]*\s+(?=[\"'“‘(\[]?[^\W_a-z])")
_WORD = re.compile(r"\w+(?:[-'’]\w+)*")
_NUMBER = re.compile(r"(?<![\w.,])(\d+(?:[.,]\d+)*)(st|nd|rd|th)?(?![\w])")
_CALENDAR = frozenset(w.lower() for w in (*MONTHS, *WEEKDAYS))


@dataclass(frozen=True)
class Piece:
    """A stretch of a text: ``text[start:end]``."""

    start: int
    end: int
    text: str


def sentences(text: str) -> list[Piece]:
    """The sentences of ``text`` (a break after . ! ? and space, before a capital, digit or quote)."""
    out: list[Piece] = []
    start = 0
    for m in _SENTENCE_END.finditer(text):
        out.append(Piece(start, m.start(), text[start:m.start()]))
        start = m.end()
    stripped_end = len(text.rstrip())
    if start < stripped_end:
        out.append(Piece(start, stripped_end, text[start:stripped_end]))
    return [Piece(p.start + _lead(p.text), p.end, p.text.lstrip()) for p in out if p.text.strip()]


def _lead(s: str) -> int:
    return len(s) - len(s.lstrip())


def words(text: str) -> list[Piece]:
    return [Piece(m.start(), m.end(), m.group(0)) for m in _WORD.finditer(text)]


def content_words(text: str) -> set[str]:
    """The words that carry facts, lower-cased (no stopwords, no one-letter words)."""
    return {w.text.lower() for w in words(text) if len(w.text) > 1 and w.text.lower() not in CONTENT_STOPWORDS}


def numbers(text: str) -> list[tuple[Piece, str]]:
    """Figures written with digits (any script), with an English ordinal suffix when there is one."""
    return [(Piece(m.start(1), m.end(1), m.group(1)), m.group(2) or "") for m in _NUMBER.finditer(text)]


def digit_value(figure: str) -> int | None:
    """The integer a run of digits (any script, no separators) writes, else ``None``."""
    if not figure.isdecimal():
        return None
    import unicodedata

    return int("".join(str(unicodedata.digit(c)) for c in figure))


def is_year(figure: str) -> bool:
    value = digit_value(figure)
    return value is not None and len(figure) == 4 and 1000 <= value <= 2100


def _sentence_starts(text: str) -> set[int]:
    return {s.start for s in sentences(text)}


def names(text: str, *, also_seen_in: str = "") -> list[Piece]:
    """Runs of capitalised words that are names: not a listed non-name, and a sentence's first word
    only when the same word is capitalised inside a sentence somewhere (in ``text`` or ``also_seen_in``)."""
    starts = _sentence_starts(text)
    inner: set[str] = set()
    for t in (text, also_seen_in):
        t_starts = _sentence_starts(t)
        inner.update(w.text for w in words(t) if w.text[:1].isupper() and w.start not in t_starts)
    common = {w.text for t in (text, also_seen_in) for w in words(t) if w.text.islower()}
    runs: list[list[Piece]] = []
    for w in words(text):
        if w.text.lower() in common or (any(c.isupper() for c in w.text[1:]) and not w.text.isupper()):
            continue  # a common word capitalised, or a handle written in camelCase
        if not (w.text[:1].isupper() and w.text.lower() not in NOT_NAMES and w.text.lower() not in _CALENDAR):
            continue
        if len(w.text) < 2 or (w.text.isupper() and len(w.text) > 4):
            continue  # SHOUTED words are emphasis, not names
        if w.start in starts and w.text not in inner:
            continue
        if runs and text[runs[-1][-1].end:w.start] == " ":
            runs[-1].append(w)
        else:
            runs.append([w])
    return [Piece(r[0].start, r[-1].end, text[r[0].start:r[-1].end]) for r in runs]


def name_words(name: str) -> set[str]:
    return {w.text.lower() for w in words(name)}


def calendar_words(text: str) -> list[Piece]:
    """Month and weekday names, capitalised (``May`` only inside a sentence or before a figure)."""
    starts = _sentence_starts(text)
    out = []
    for w in words(text):
        if w.text in MONTHS or w.text in WEEKDAYS:
            if w.text == "May" and w.start in starts and not re.match(r"\s+\d", text[w.end:]):
                continue
            out.append(w)
    return out


def script(text: str) -> str:
    """The writing system most of the letters are in (``LATIN``, ``ARABIC``, ``CJK``...)."""
    import unicodedata
    from collections import Counter

    counts = Counter(unicodedata.name(c, "?").split(" ")[0] for c in text if c.isalpha())
    return counts.most_common(1)[0][0] if counts else ""


def replace(text: str, start: int, end: int, new: str) -> str:
    return text[:start] + new + text[end:]


def match_case(model: str, word: str) -> str:
    if model.isupper() and len(model) > 1:
        return word.upper()
    if model[:1].isupper():
        return word[:1].upper() + word[1:]
    return word
