"""A sentence reduced to what the judge compares: content units (stems of content words, numbers,
CJK character bigrams), numbers, proper names and dates, and the order the text puts them in.

Unicode word tokens, Snowball stems, stop words out; Hangul words lose their trailing particle and
become character bigrams, Chinese and Japanese runs become character bigrams; numbers are
normalised ("1,000" = "1000", "95 percent" = "95%", "seven" = "7"); proper names are capitalised
words that do not start a sentence (or that the text capitalises elsewhere mid-sentence), month and
weekday names count as names.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import cached_property
from itertools import repeat
from typing import Any

import regex

from . import word_lookups
from .lexicon import CORE, ONE_OF_A_UNIT, PERCENT_WORDS, PHRASE_OPENERS, STOPWORDS
from .numbers import all_keys, number_keys
from .phrases import Phrase, WordSpan, mark_until, punctuation_between, scope_negations
from .polarity import is_negation
from .tokens import squashed_words, tokens
from .words import CONTENT, HANGUL, NUMBER, STOP, WordInfo, normalise_number, word_info

# --------------------------------------------------------------------------------------------------
# Analysis of a sentence into comparable units.


_MID_CAPITAL = regex.compile(r"(?<=[\p{L}\p{N},;:]\s+)(\p{Lu}[\p{Ll}\p{M}]+)")


@dataclass
class Sentence:
    """One sentence (or clause) reduced to what the judge compares."""

    text: str
    units: frozenset[str]
    """Content units: stems of content words, numbers, CJK character bigrams."""
    numbers: tuple[str, ...]
    """Normalised numbers, in order of appearance, without repeats."""
    number_forms: dict[str, str]
    """Normalised number -> the form the text writes it in."""
    names: tuple[str, ...]
    """Stems of proper names and dates, in order, without repeats."""
    name_forms: dict[str, str]
    """Name stem -> the form the text writes it in."""
    forms: dict[str, str] = field(default_factory=dict)
    """Content unit -> the word the text writes it with (for reasons)."""
    sequence: tuple[str, ...] = ()
    """The content units in the order the text writes them (repeats kept)."""
    weights: dict[str, float] = field(default_factory=dict)
    """Content unit -> how informative it is (:mod:`.weights`)."""
    phrases: tuple[Phrase, ...] = ()
    case_roles: dict[str, str] = field(default_factory=dict)
    """Korean: word (particle removed) -> "subject" or "object", as its case particle marks it."""
    passive: bool = False
    """The text has a passive with its agent ("was designed by"), which reverses who comes first."""

    @cached_property
    def positions(self) -> dict[str, list[int]]:
        out: dict[str, list[int]] = {}
        for i, u in enumerate(self.sequence):
            out.setdefault(u, []).append(i)
        return out

    @cached_property
    def number_keys(self) -> dict[str, frozenset[str]]:
        """Normalised number -> the values it may stand for: "ten" of "ten thousand" is also 10000,
        "1980" of "the 1980s" also the decade "1980s", as "80" of "the 80s" is (:mod:`.numbers`)."""
        return number_keys(self.text, self.number_forms) if self.numbers else {}

    @cached_property
    def content(self) -> int:
        return len(self.units)

    @cached_property
    def mass(self) -> float:
        """The summed weight of the content units."""
        return self.weight_of(self.units)

    def weight_of(self, units: frozenset[str] | set[str]) -> float:
        # map over the dict's own get (default 1.0): no generator frame per unit; fsum is exact
        return math.fsum(map(self.weights.get, units, repeat(1.0, len(units))))


_WORD = regex.compile(r"[\p{L}\p{M}\p{N}]+")
_US = regex.compile(r"\bU\.\s?S\.|\bUSA?\b|\bAmerica\b|\bUnited States\b")

PASSIVE = {
    "en": regex.compile(
        r"\b(?:was|were|is|are|been|being|be|get|got|gets)\s+(?:\w+ly\s+)?\w+(?:ed|en|wn|lt|ght|ung|ade|id)\b", regex.I
    ),
    "de": regex.compile(r"\b(?:wurde|wurden|worden|wird|werden)\b.*\b(?:von|vom|durch)\b", regex.I),
    "fr": regex.compile(r"\b(?:été|est|sont|était|fut)\s+\w+[ée]e?s?\s+par\b", regex.I),
    "es": regex.compile(r"\b(?:fue|fueron|es|son|sido|era)\s+\w+(?:ado|ido|ada|ida)s?\s+por\b", regex.I),
}


_INFINITIVE_AUX = frozenset({"be", "have", "been", "get"})
"""Words that may stand between "to" and the verb of an infinitive ("to be announced")."""


class TextAnalyzer:
    """Turns text into :class:`Sentence` objects for one language.

    It keeps no state of its own: stems, weights and antonyms come from the process-wide memos of
    :mod:`.word_lookups` (pure functions of a word), so making one is cheap and sharing one is safe.
    """

    def __init__(self, lang: str, data: str = CORE) -> None:
        self.lang = lang
        self.data = data
        self.stops = STOPWORDS.get(lang, frozenset())
        self.openers = PHRASE_OPENERS.get(lang, frozenset())
        self.informativeness = word_lookups.informativeness(lang, data)
        self.antonyms = word_lookups.antonyms(lang, data)

    def stem(self, word: str) -> str:
        return word_lookups.stem(self.lang, word)

    def weight(self, word: str) -> float:
        return word_lookups.weight(self.lang, word, self.data)

    def analyse(self, text: str, *, capitalised_elsewhere: frozenset[str] = frozenset()) -> Sentence:
        """Reduce one sentence. ``capitalised_elsewhere`` holds lower-cased words that the wider text
        capitalises in mid-sentence, so that a name that opens this sentence is still a name."""
        builder = _SentenceBuilder(self, text, capitalised_elsewhere)
        for i, m in enumerate(builder.matches):
            builder.read(i, m)
        return builder.sentence()


class _SentenceBuilder:
    """One sentence being reduced, token by token: the units, numbers, names, phrases and negation
    cues read so far. The walk's state lives here so that each of its steps is a method of its own."""

    def __init__(self, analyser: TextAnalyzer, text: str, capitalised_elsewhere: frozenset[str]) -> None:
        self.analyser, self.text, self.capitalised_elsewhere = analyser, text, capitalised_elsewhere
        self.lang, self.data = analyser.lang, analyser.data
        self.top = analyser.informativeness.max_weight
        self.matches = tokens(text, self.lang)
        self.last = len(self.matches) - 1
        self.numbers: dict[str, str] = {}
        self.names: dict[str, str] = {}
        self.forms: dict[str, str] = {}
        self.weights: dict[str, float] = {}
        self.seq: list[str] = []
        self.roles: dict[str, str] = {}
        self.phrases: list[Phrase] = []
        self.phrase_start = self.phrase_units_from = 0
        self.negated = False
        self.infinitives: set[str] = set()
        self.after_to = False  # English: the last word was "to" (or an auxiliary or -ly adverb after it)
        self.words: list[WordSpan] = []
        self.cues: list[tuple[int, int]] = []  # (phrase number, number of content words before the cue)
        self.first_word = True
        self.skip = -1  # the percent word(s) after a number belong to it
        self.prev_end = 0

    def read(self, i: int, m: Any) -> None:
        """Take in token ``i``: end the phrase before it where it should, then read it as a negation
        cue, a stop word, a content word, or the units of a number or a character run."""
        if i <= self.skip:
            self.prev_end = m.end()
            return
        kind, tok = m.lastgroup, m.group()
        start, end = m.span()
        info = word_info(self.lang, tok, self.data) if kind == "word" else None
        opens = info is not None and info.opener
        if i and (opens or punctuation_between(self.text, self.prev_end, start)):
            self.close_phrase(self.prev_end)
            self.phrase_start = start
        self.prev_end = end
        if self.lang == "en":
            self.note_infinitive(tok, info)
        # "one" before a unit counts it (:data:`.lexicon.ONE_OF_A_UNIT`): a number, not a stop word
        counted_one = info is not None and info.low == "one" and self.lang == "en" and i < self.last and (
            self.matches[i + 1].group().lower().rstrip("s") in ONE_OF_A_UNIT
        )
        if info is not None and self.read_word(i, tok, info, counted_one):
            return
        n_units = len(self.seq)
        if kind == "num":
            self.read_number(i, m, tok)
        elif info is None:  # a CJK run
            self.char_grams(tok, self.analyser.weight(tok))
        elif info.kind == HANGUL:
            self.read_hangul(info, end)
        elif info.kind == NUMBER:
            self.number(info.number, tok)
        elif counted_one:
            self.number("1", tok)
        if len(self.seq) > n_units:
            self.words.append((len(self.phrases), n_units, len(self.seq)))
        self.first_word = False

    def close_phrase(self, end: int) -> None:
        """End the current phrase at ``end``, keeping it when it has units or a negation cue: the
        stretch a negation or an antonym is compared within."""
        if len(self.seq) > self.phrase_units_from or self.negated:
            self.phrases.append(Phrase(
                self.text[self.phrase_start : end].strip(), frozenset(self.seq[self.phrase_units_from :]),
                self.negated, infinitives=frozenset(self.infinitives),
            ))
        self.phrase_units_from, self.negated, self.infinitives = len(self.seq), False, set()

    def note_infinitive(self, tok: str, info: WordInfo | None) -> None:
        """English: a content word after "to" (an auxiliary or -ly adverb may stand between) is an
        infinitive of its phrase, which asserts nothing of itself (:attr:`.Phrase.infinitives`)."""
        low_tok = tok.lower()
        to_before, self.after_to = self.after_to, low_tok == "to" or (
            self.after_to and (low_tok in _INFINITIVE_AUX or low_tok.endswith("ly"))
        )
        if to_before and not self.after_to and info is not None and info.kind == CONTENT and info.stem:
            self.infinitives.add(info.stem)

    def read_word(self, i: int, tok: str, info: WordInfo, counted_one: bool) -> bool:
        """A word's own step: a negation cue is noted against its phrase, a stop word passed, a content
        word made a unit. True when the word is done with; number words, Hangul words and a counted
        "one" are left to :meth:`read` for their units."""
        neg = info.negation
        if neg is None:
            neg = is_negation(tok, self.lang, self.matches[i + 1].group().lower() if i < self.last else "")
        if neg:
            self.negated = True
            self.cues.append((len(self.phrases), len(self.words)))
            self.first_word = False
            return True
        if info.kind == STOP and not counted_one:
            self.first_word = False
            return True
        if self.lang == "en" and info.low == "longer" and i and self.matches[i - 1].group().lower() == "no":
            return True  # "can no longer hold": one cue, "no", which bears on "hold"
        if info.kind == CONTENT:
            self.read_content(tok, info)
            return True
        return False

    def read_content(self, tok: str, info: WordInfo) -> None:
        """A content word: its stem a unit at its weight; a name too when it is a date, or capitalised
        where a capital means a name (not first in the sentence, or capitalised mid-sentence elsewhere)."""
        stem = info.stem
        if not stem:
            return
        n_units = len(self.seq)
        self.unit(stem, tok, info.weight)
        capital = info.is_cap and (not self.first_word or info.low in self.capitalised_elsewhere)
        if info.is_date or (capital and len(info.low) > 1):
            self.names.setdefault(stem, tok)
        self.words.append((len(self.phrases), n_units, n_units + 1))
        self.first_word = False

    def read_number(self, i: int, m: Any, tok: str) -> None:
        """A written number, normalised; "95 percent" and "95 per cent" are "95%" (the words are skipped),
        so that they match however the other text writes the percentage."""
        norm = normalise_number(getattr(m, "value", "") or tok)
        nxt = self.matches[i + 1].group().lower() if i < self.last else ""
        if not norm.endswith("%") and nxt in PERCENT_WORDS:
            norm += "%"
            self.skip = i + 1
        elif not norm.endswith("%") and nxt == "per" and i + 2 < len(self.matches) and (
            self.matches[i + 2].group().lower() == "cent"
        ):
            norm += "%"
            self.skip = i + 2
        self.number(norm, tok)

    def read_hangul(self, info: WordInfo, end: int) -> None:
        """A Hangul word (without its particle) as character bigrams; its case particle's role noted,
        and a connective ending closes the phrase after it."""
        if info.role:
            self.roles.setdefault(info.stem, info.role)
        self.char_grams(info.stem, info.weight)
        if info.connective:
            self.close_phrase(end)
            self.phrase_start = end

    def unit(self, u: str, form: str, w: float) -> None:
        """One content unit, as the text writes it, at the heaviest weight it has had."""
        self.seq.append(u)
        self.forms.setdefault(u, form)
        if w > self.weights.get(u, 0.0):
            self.weights[u] = w

    def number(self, norm: str, tok: str) -> None:
        """A normalised number: one of the sentence's numbers, and a unit of the heaviest weight."""
        self.numbers.setdefault(norm, tok)
        self.unit("#" + norm, tok, self.top)

    def char_grams(self, chars: str, w: float) -> None:
        """A run of CJK characters as its character bigrams, which share the run's weight."""
        grams = _char_ngrams(chars)
        for gram in grams:
            self.unit(gram, chars, w / len(grams))

    def sentence(self) -> Sentence:
        """The :class:`Sentence` read: the last phrase closed, each negation given its scope, "until"
        marked, and a passive with its agent noted."""
        self.close_phrase(len(self.text))
        scoped = scope_negations(self.phrases, self.cues, self.words, self.seq, self.forms, self.lang)
        phrases = mark_until(scoped, self.text, self.lang)
        passive = PASSIVE.get(self.lang)
        return Sentence(
            text=self.text, units=frozenset(self.seq), numbers=tuple(self.numbers), number_forms=self.numbers,
            names=tuple(self.names), name_forms=self.names, forms=self.forms, sequence=tuple(self.seq),
            weights=self.weights, phrases=tuple(phrases), case_roles=self.roles,
            passive=bool(passive and passive.search(self.text)),
        )


def capitalised_words(text: str) -> frozenset[str]:
    """Lower-cased words that ``text`` capitalises somewhere other than a sentence start."""
    out: set[str] = set()
    for m in _MID_CAPITAL.finditer(text):
        out.add(m.group(1).lower())
    return frozenset(out)


def _char_ngrams(run: str, n: int = 2) -> list[str]:
    if len(run) <= n:
        return [run]
    return [run[i : i + n] for i in range(len(run) - n + 1)]


@dataclass
class Document:
    """A source, analysed once: its language and its sentences."""

    lang: str
    sentences: list[Sentence]
    units: frozenset[str]
    number_values: dict[str, str]
    """value (without %) -> the form the source writes it in"""
    caps: frozenset[str]
    """Words the source capitalises mid-sentence (names)."""
    aliases: tuple[frozenset[str], ...] = ()
    """Per sentence, the other parts of the full names its last names stand for (:mod:`.evidence`)."""
    parts: frozenset[str] = frozenset()
    """The parts of the source's hyphenated words ("year", "old" of "19-year-old")."""
    acronyms: frozenset[str] = frozenset()
    """Initials of the source's runs of capitalised words ("un" of "United Nations": :mod:`..offline.wrong_names`)."""
    writes_one: bool = False
    """The source has the word "one" (a stop word, so in no unit): "1 in 12" may retell "one in 12"."""

    @cached_property
    def number_keys(self) -> frozenset[str]:
        """Every value the source's numbers may stand for (:attr:`Sentence.number_keys`); read when
        a claim's number is not among :attr:`number_values` as written."""
        return frozenset().union(*(all_keys(s.number_keys) for s in self.sentences if s.numbers))

    @cached_property
    def names_us(self) -> bool:
        """The source names the United States ("U.S.", "US", "USA", "America", "United States"), so
        "American" is one of its names."""
        return any(_US.search(s.text) for s in self.sentences)

    @cached_property
    def words(self) -> frozenset[str]:
        """The source's words in lower case, as written (a claim's "Mac Arthur" is its "MacArthur")."""
        return frozenset(w.lower() for s in self.sentences for w in _WORD.findall(s.text))

    @cached_property
    def squashed(self) -> frozenset[str]:
        """The source's joined, hyphenated and accented words and its neighbouring word pairs, in lower
        case without hyphens, apostrophes, spaces or accents ("xfactor" of "The X Factor", "teammate" of
        "team-mate": :func:`.tokens.squashed_words`); read when a claim's name is not found as written."""
        return squashed_words(" ".join(s.text for s in self.sentences))


def analyse_document(text: str, analyser: TextAnalyzer, sentences: list[str]) -> Document:
    caps = capitalised_words(text)
    analysed = [analyser.analyse(s, capitalised_elsewhere=caps) for s in sentences]
    units: set[str] = set()
    values: dict[str, str] = {}
    for s in analysed:
        units |= s.units
        for n in s.numbers:
            values.setdefault(n.rstrip("%"), s.number_forms[n])
    return Document(analyser.lang, analysed, frozenset(units), values, caps)
