"""What a number measures, read from the words around it: money, a percentage, a time, a date, a
rank, a year or a count (:func:`number_kind`). :mod:`.numbers` says which values a number may stand
for; this says which numbers may be compared at all ("a vote count is not a count of flats, a year is
not a price")."""

from __future__ import annotations

from collections.abc import Iterator

import regex

from .lexicon import IRREGULAR_PLURALS, NUMBER_WORDS, ends_in_s, past_form

_CURRENCY_BEFORE = regex.compile(r"(?:[$£€¥₩]|\b(?:US|USD|EUR|GBP|Rs|R)\$?)\s?$")
_CURRENCY_AFTER = regex.compile(
    r"^\s?(?:(?:million|billion|trillion|thousand|mn|bn|tn|m|b|k)\s?)?"
    r"(?:dollars?|pounds?|euros?|yen|yuan|won|francs?|rupees?|pence|cents?|usd|eur|gbp)\b",
    regex.IGNORECASE,
)
_PERCENT_AFTER = regex.compile(r"^\s?(?:%|per\s?cent\b|percent\b|percentage points?\b)", regex.IGNORECASE)
_TIME_AFTER = regex.compile(r"^(?::\d\d)?\s?(?:[ap]\.?m\b\.?|o'clock\b|hours? gmt\b)", regex.IGNORECASE)
_ORDINAL_AFTER = regex.compile(r"^(?:st|nd|rd|th)\b", regex.IGNORECASE)
_MONTH_BEFORE = regex.compile(
    r"\b(?:January|February|March|April|May|June|July|August|September|October|November|December|"
    r"Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec)\.?\s$"
)
"""A month before a day's number ("April 13"): the number is a date."""
_ORDINAL_NAMES = frozenset(w for w, v in NUMBER_WORDS.items() if v.endswith(("st", "nd", "rd", "th")))
YEARS = (1800, 2099)
"""A plain four-figure number in this range, written with no currency, percent or unit, is a year."""


_QUANTIFIERS = frozenset("about around nearly almost some over than roughly approximately".split())
_YEAR_NOUNS = frozenset("years seasons figures levels elections models games olympics finals accounts results".split())


def _counts(before: str, after: str) -> bool:
    """Four figures count the plural right after them where a verb or a quantifier comes before
    ("employs 1998 people", "hired 2000 workers", "about 2000 fans"), not where a noun or a
    preposition does ("the High Hedges Act 2013 allows", "in 1998 sales rose"), nor before a plural
    that a year qualifies ("2015 figures")."""
    nxt = regex.match(r"\s*(\p{Ll}+)\b", after)
    prev = regex.search(r"(\p{L}+)\s*$", before)
    if not nxt or not prev:
        return False
    word, low = nxt.group(1), prev.group(1).lower()
    plural = word == "people" or word in IRREGULAR_PLURALS or ends_in_s(word)
    verb = past_form(low) or (ends_in_s(low) and prev.group(1).islower())
    return plural and word not in _YEAR_NOUNS and (low in _QUANTIFIERS or verb)


def number_kind(text: str, form: str) -> str:
    """What a number of ``text`` (written ``form``) measures, by the words around it: ``money`` ("$4.2
    million", "£16m", "40 euros"), ``percent`` ("12%", "12 per cent"), ``time`` ("4pm", "10:30"),
    ``ordinal`` ("9th", "ninth"), ``date`` (a day after its month: "April 13"), ``year`` (four figures
    from 1800 to 2099 with none of those, and not counting a plural: "1998 people"), else ``count``.
    Two numbers of different kinds are no pair: "1958" (a year) does not stand where "4.2" (a price)
    does."""
    low = form.lower()
    if low in _ORDINAL_NAMES:
        return "ordinal"
    if form.endswith("%"):
        return "percent"
    at = regex.search(r"(?<![\p{L}\p{N}]|\p{N}[.,])" + regex.escape(form) + r"(?!\p{N}|[.,]\p{N})", text)
    before, after = (text[: at.start()], text[at.end() :]) if at else ("", "")
    if _CURRENCY_BEFORE.search(before) or _CURRENCY_AFTER.match(after):
        return "money"
    if _PERCENT_AFTER.match(after):
        return "percent"
    if _TIME_AFTER.match(after) or regex.fullmatch(r"\d{1,2}:\d\d(?::\d\d)?", form):
        return "time"
    if _MONTH_BEFORE.search(before):
        return "date"
    if _ORDINAL_AFTER.match(after):
        return "ordinal"
    if form.isdigit() and len(form) == 4 and YEARS[0] <= int(form) <= YEARS[1] and not _counts(before, after):
        return "year"
    return "count"


_CHANGE_EN = regex.compile(
    r"(?i)\b(?:ris(?:e|es|en|ing)|rose|f[ae]ll(?:s|en|ing)?|(?:in|de)creas\w*|cut(?:s|ting)?|rais\w*|gr(?:ew|ows?|owing)"
    r"|dropp?\w*|climb\w*|declin\w*|slipp?\w*|slid\w*|jump\w*|surg\w*|reduc\w*|lower\w*|boost\w*"
    r"|shr[aiu]nk\w*|gain\w*|soar\w*|plung\w*|tumbl\w*|s[au]nk|dipp?\w*|up|down)\b"
)
_LINKED = regex.compile(r"(?i)\b(by|to)\s+(?:(?:about|around|nearly|almost|some|roughly|just|over|under)\s+)?[$£€]?")
_MORE_FIGURES = regex.compile(r"\d|[.,]\d")


def led_by(pattern: regex.Pattern[str], text: str, form: str) -> Iterator[regex.Match[str]]:
    """The matches of ``pattern`` in ``text`` that the whole number written ``form`` follows ("by " in
    "rose by 4%" for "4", not for "4" in "rose by 4.5%")."""
    if form in text:
        for m in pattern.finditer(text):
            if text.startswith(form, m.end()) and not _MORE_FIGURES.match(text, m.end() + len(form)):
                yield m


def change_link(text: str, form: str) -> str | None:
    """How a number written ``form`` stands to a verb of change before it (within eight words):
    ``"by"`` for the change ("rose by 3%"), ``"to"`` for the level it reached ("rose to 3%", "cut
    deaths by a third, from 9% to 6%"); ``None`` where it is neither. English only: "fell by 4.1%" and "fell to 4.1%" are
    two facts."""
    for m in led_by(_LINKED, text, form):
        if _CHANGE_EN.search(" ".join(text[: m.start()].split()[-8:])):
            return m.group(1).lower()
    return None


_MARGIN_LEAD = regex.compile(
    r"(?i)\b(?:(by)|margin\s+of|majority\s+of|lead\s+of)\s+"
    r"(?:(?:about|around|nearly|almost|some|roughly|just|only|over|under|more\s+than|fewer\s+than|less\s+than)\s+)?"
)
_WIN_EN = regex.compile(r"(?i)\b(?:w[io]n(?:s|ning)?|beat(?:s|en|ing)?|defeat\w*|lead(?:s|ing)?|led|ahead|trail\w*|los[te]s?|losing)\b")


def is_margin(text: str, form: str) -> bool:
    """Whether the number written ``form`` is a margin, the difference between two sides ("won by 412
    votes", "a margin of 412", "a majority of 412"), not a side's own total ("won with 5,138 votes").
    English only: a margin and a total are two facts, never one fact stated with another number."""
    for m in led_by(_MARGIN_LEAD, text, form):
        if not m.group(1) or _WIN_EN.search(" ".join(text[: m.start()].split()[-6:])):
            return True
    return False


__all__ = ["YEARS", "change_link", "is_margin", "led_by", "number_kind"]
