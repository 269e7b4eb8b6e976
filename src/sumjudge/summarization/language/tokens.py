"""Tokens: the pattern that cuts a text into numbers, CJK runs and words, and the reading of
hyphenated words with a number in them ("Under-17", "two-year", "forty-three") or a name and a
participle ("London-based", "relegation-threatened")."""

from __future__ import annotations

import unicodedata
from itertools import pairwise
from typing import Any

import regex

from .lexicon import NUMBER_WORDS, past_form

WORD = regex.compile(r"[\p{L}\p{N}]+(?:['’][\p{L}]+)?")
"""A word: letters or digits, with a clitic such as "'s"."""
WORD_OR_MARK = regex.compile(WORD.pattern + r"|[,;:&]")
"""A word (letters or digits, with a clitic such as "'s") or a mark that ends a noun phrase or lists
("," ";" ":" "&"): the words the role checks of :mod:`..offline` compare in order."""

# A token: a number (with inner separators, decimal point, optional %), a CJK run, or a word
# (letters, marks, inner apostrophes and hyphens).
_TOKEN = regex.compile(
    r"""
    (?P<num>\d+(?:[.,:]\d+)*(?:\s?%)?)
    | (?P<cjk>[\p{Han}\p{Hiragana}\p{Katakana}]+)
    | (?P<word>[\p{L}\p{M}\p{N}]+(?:['’\-][\p{L}\p{M}\p{N}]+)*)
    """,
    regex.VERBOSE,
)

_TENS = frozenset({"twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"})
_HYPHEN_NUMBERS = {**NUMBER_WORDS, "one": "1"}  # "one-year": in a compound "one" is a number


class _Token:
    """A piece of a token that :func:`_compounds` split (the same reading API as a match)."""

    __slots__ = ("lastgroup", "_text", "_span", "value")

    def __init__(self, kind: str, text: str, start: int, end: int, value: str = "") -> None:
        self.lastgroup, self._text, self._span, self.value = kind, text, (start, end), value

    def group(self) -> str:
        return self._text

    def span(self) -> tuple[int, int]:
        return self._span

    def end(self) -> int:
        return self._span[1]


_DIGIT_PART = regex.compile(r"(\d+)s?")


def _digit_parts(m: Any) -> list[Any]:
    """A hyphenated word with a part in digits, as its pieces: "Under-17" is "Under" + 17, as
    "under - 17" is; "last-16s" is "last" + 16."""
    out: list[Any] = []
    at = m.span()[0]
    for part in m.group().split("-"):
        digits = _DIGIT_PART.fullmatch(part)
        if digits:
            out.append(_Token("num", digits.group(1), at, at + len(digits.group(1)), digits.group(1)))
        elif part:
            out.append(_Token("word", part, at, at + len(part)))
        at += len(part) + 1
    return out


def _compounds(matches: list[Any], english: bool) -> list[Any]:
    """Hyphenated words with a part in digits read as their pieces, in every language ("Under-17":
    "Under" + 17, as "under - 17" is); English ones that open with a number word read as that number
    and the rest: "two-year" is "two" + "year", as "two years" is, and "forty-three" is 43. An English
    word joined to a participle reads as the two words ("London-based" is "London" + "based", as
    "based in London" is; "Leeds-born", "relegation-threatened"), in any case, so that a lower-cased
    summary and its source read alike."""
    out: list[Any] = []
    for m in matches:
        tok = m.group()
        if m.lastgroup != "word" or "-" not in tok:
            out.append(m)
            continue
        if any(_DIGIT_PART.fullmatch(part) for part in tok.split("-")):
            out.extend(_digit_parts(m))
            continue
        if not english:
            out.append(m)
            continue
        parts = tok.split("-")
        low = [p.lower() for p in parts]
        start = m.span()[0]
        if len(parts) >= 2 and low[0] in _TENS and low[1] in NUMBER_WORDS and int(NUMBER_WORDS[low[1]]) < 10:
            cut = len(parts[0]) + 1 + len(parts[1])
            out.append(_Token("num", tok[:cut], start, start + cut, str(int(NUMBER_WORDS[low[0]]) + int(NUMBER_WORDS[low[1]]))))
        elif low[0] in _HYPHEN_NUMBERS and _HYPHEN_NUMBERS[low[0]].isdigit():
            cut = len(parts[0])
            out.append(_Token("num", tok[:cut], start, start + cut, _HYPHEN_NUMBERS[low[0]]))
        else:
            head, _, tail = tok.rpartition("-")
            if head.isalpha() and tail.islower() and (tail == "born" or past_form(tail)):
                out += [_Token("word", head, start, start + len(head)), _Token("word", tail, start + len(head) + 1, m.end())]
            else:
                out.append(m)
            continue
        if cut < len(tok) - 1:
            out.append(_Token("word", tok[cut + 1 :], start + cut + 1, m.end()))
    return out


def tokens(text: str, lang: str) -> list[Any]:
    """The tokens of ``text`` (regex matches, or :class:`_Token` pieces with the same reading API)."""
    matches: list[Any] = list(_TOKEN.finditer(text))
    if "-" in text:
        matches = _compounds(matches, lang == "en")
    return matches


_SQUASH_WORD = regex.compile(r"[\p{L}\p{M}\p{N}]+(?:['’\-][\p{L}\p{M}\p{N}]+)*")
_SQUASH = str.maketrans("", "", "'’- ")


def squash(word: str) -> str:
    """``word`` in lower case without hyphens, apostrophes, spaces and accents: "Team-mate" ->
    "teammate", "Yûki" -> "yuki"."""
    low = word.lower().translate(_SQUASH)
    if low.isascii():
        return low
    return "".join(c for c in unicodedata.normalize("NFKD", low) if not unicodedata.combining(c))


def squashed_words(text: str) -> frozenset[str]:
    """The forms of ``text``'s words that writers join or spell another way, squashed (:func:`squash`):
    its hyphenated, apostrophised and accented words ("teammate" of "team-mate", "yuki" of "Yûki"),
    the parts of its hyphenated words ("vice" of "vice-captain"), and each pair of neighbouring words
    ("xfactor" of "X Factor"). A plain word is left out: the judge's own reading already compares
    it, and "may" the verb must not stand in for "May" the month."""
    found = _SQUASH_WORD.findall(text)
    words = [squash(w) for w in found]
    out = {sq for w, sq in zip(found, words) if sq != w.lower()}
    out.update(a + b for a, b in pairwise(words))
    out.update(p.lower() for w in found if "-" in w for p in w.split("-"))
    return frozenset(out)


__all__ = ["squash", "squashed_words", "tokens"]
