"""What one word token is to the judge, worked out once per process: a pure function of the
language and the token as written, memoised (:func:`word_info`).

A word is a negation cue, a number (digits with a counter, "seven"), a Korean word (its particle
and case role), a stop word, or a content word with its stem, weight and capital; and it may be a
date word. Only whether an English cue negates depends on the next word ("not only", "No 1"),
so that one answer is left to the caller.
"""

from __future__ import annotations

from functools import lru_cache
from typing import NamedTuple

import regex

from . import word_lookups
from .lexicon import CORE, DATE_WORDS, KO_PARTICLES, NUMBER_WORDS, PHRASE_OPENERS, STOPWORDS
from .polarity import depends_on_next_word, is_negation

_HANGUL = regex.compile(r"\p{Hangul}")
_THOUSANDS = regex.compile(r"\d{1,3}(?:,\d{3})+(?:\.\d+)?")
_THOUSANDS_CONTINENTAL = regex.compile(r"\d{1,3}(?:\.\d{3})+(?:,\d+)?")  # 1.000.000,5
_DECIMAL = regex.compile(r"\d+\.\d+")
_DIGITS = regex.compile(r"\d+")
# Korean marks who does what by case particles, which word order does not change.
KO_CASE = {"이": "subject", "가": "subject", "께서": "subject", "을": "object", "를": "object"}
# Korean joins clauses with a connective ending on the predicate: the phrase ends after it.
_KO_CONNECTIVE = regex.compile(r"(?:고|며|지만|는데|은데|면서|아서|어서|해서|니까)$")
_NOT_DATES_IN_LOWER_CASE = frozenset({"may", "march", "sun"})

PLAIN, NUMBER, HANGUL, STOP, CONTENT = range(5)


class WordInfo(NamedTuple):
    negation: bool | None
    """A negation cue: True, False, or None when the next word decides (:func:`.polarity.is_negation`)."""
    kind: int
    """NUMBER, HANGUL, STOP or CONTENT."""
    low: str = ""
    """Lower case (English: without a possessive 's)."""
    number: str = ""
    """NUMBER: the normalised number."""
    stem: str = ""
    """CONTENT: the unit; HANGUL: the word without its particle."""
    weight: float = 0.0
    is_date: bool = False
    is_cap: bool = False
    role: str | None = None
    """HANGUL: "subject" or "object", as its case particle marks it."""
    connective: bool = False
    """HANGUL, Korean text: the word ends in a connective ending (a phrase ends after it)."""
    opener: bool = False
    """The word opens a clause ("and", "because", "und"): a phrase ends before it."""


def normalise_number(raw: str) -> str:
    s = raw.replace(" ", "")
    percent = s.endswith("%")
    s = s.rstrip("%")
    if _THOUSANDS.fullmatch(s):
        s = s.replace(",", "")
    elif _THOUSANDS_CONTINENTAL.fullmatch(s):  # 1.000.000,5 (continental)
        s = s.replace(".", "").replace(",", ".")
    if "." in s and _DECIMAL.fullmatch(s):
        s = s.rstrip("0").rstrip(".")
    return s + ("%" if percent else "")


def strip_particle(word: str) -> str:
    for p in KO_PARTICLES:
        if len(word) >= len(p) + 2 and word.endswith(p):
            return word[: -len(p)]
    return word


@lru_cache(maxsize=word_lookups.MAX_WORDS)
def word_info(lang: str, tok: str, data: str = CORE) -> WordInfo:
    """What the word token ``tok`` (as written) is in a text of ``lang``, by the word data ``data``."""
    return _word_info(lang, tok, data)._replace(opener=tok.lower() in PHRASE_OPENERS.get(lang, ()))


def _word_info(lang: str, tok: str, data: str) -> WordInfo:
    negation = None if depends_on_next_word(tok, lang) else is_negation(tok, lang, "")
    if negation:
        return WordInfo(True, PLAIN)
    if _HANGUL.search(tok):
        stripped = strip_particle(tok)
        role = KO_CASE.get(tok[len(stripped) :]) if stripped != tok else None
        if stripped == tok and len(tok) >= 3 and tok.endswith("다"):
            stripped = tok[:-1]  # the declarative ending (길이다 = 길이 + 다): an inflection, no fact
        connective = lang == "ko" and bool(_KO_CONNECTIVE.search(tok))
        weight = word_lookups.weight(lang, stripped, data)
        return WordInfo(negation, HANGUL, stem=stripped, weight=weight, role=role, connective=connective)
    # Korean attaches counters to numbers ("3일", "1월"): the token regex yields them as a word.
    if digits := _DIGITS.match(tok):
        return WordInfo(negation, NUMBER, number=normalise_number(digits.group()))
    low = tok.lower()
    if lang == "en" and low.endswith(("'s", "’s")):
        low = low[:-2]
    is_date = low in DATE_WORDS and (tok[:1].isupper() or low not in _NOT_DATES_IN_LOWER_CASE)
    if lang == "en" and low in NUMBER_WORDS:
        return WordInfo(negation, NUMBER, low=low, number=NUMBER_WORDS[low])
    if low in STOPWORDS.get(lang, ()) and not is_date:
        return WordInfo(negation, STOP, low=low)
    is_cap = tok[:1].isupper() and not tok.isupper() or (tok.isupper() and len(tok) > 1)
    stem = word_lookups.stem(lang, word_lookups.lemma(lang, low, data))
    return WordInfo(negation, CONTENT, low=low, stem=stem, weight=word_lookups.weight(lang, low, data),
                    is_date=is_date, is_cap=is_cap)
