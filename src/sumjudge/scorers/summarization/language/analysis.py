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

import regex

from . import memo
from .lexicon import CORE, ONE_OF_A_UNIT, PERCENT_WORDS, PHRASE_OPENERS, STOPWORDS
from .numbers import all_keys, number_keys
from .phrases import Phrase, mark_until, punctuation_between, scope_negations
from .polarity import is_negation
from .tokens import squashed_words, tokens
from .words import CONTENT, HANGUL, NUMBER, STOP, normalise_number, word_info

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
    :mod:`.memo` (pure functions of a word), so making one is cheap and sharing one is safe.
    """

    def __init__(self, lang: str, data: str = CORE) -> None:
        self.lang = lang
        self.data = data
        self.stops = STOPWORDS.get(lang, frozenset())
        self.openers = PHRASE_OPENERS.get(lang, frozenset())
        self.informativeness = memo.informativeness(lang, data)
        self.antonyms = memo.antonyms(lang, data)

    def stem(self, word: str) -> str:
        return memo.stem(self.lang, word)

    def weight(self, word: str) -> float:
        return memo.weight(self.lang, word, self.data)

    def analyse(self, text: str, *, capitalised_elsewhere: frozenset[str] = frozenset()) -> Sentence:
        """Reduce one sentence. ``capitalised_elsewhere`` holds lower-cased words that the wider text
        capitalises in mid-sentence, so that a name that opens this sentence is still a name."""
        numbers: dict[str, str] = {}
        names: dict[str, str] = {}
        forms: dict[str, str] = {}
        weights: dict[str, float] = {}
        seq: list[str] = []
        phrases: list[Phrase] = []
        phrase_start = phrase_units_from = 0
        negated = False
        infinitives: set[str] = set()
        after_to = False  # English: the last word was "to" (or an auxiliary or -ly adverb after it)
        roles: dict[str, str] = {}
        words: list[tuple[int, int, int]] = []  # (phrase number, first unit index, end unit index)
        cues: list[tuple[int, int]] = []  # (phrase number, number of content words before the cue)
        matches = tokens(text, self.lang)
        first_word = True
        top = self.informativeness.max_weight
        lang, data = self.lang, self.data

        def close_phrase(end: int) -> None:
            nonlocal phrase_units_from, negated, infinitives
            if len(seq) > phrase_units_from or negated:
                phrases.append(Phrase(
                    text[phrase_start:end].strip(), frozenset(seq[phrase_units_from:]), negated,
                    infinitives=frozenset(infinitives),
                ))
            phrase_units_from, negated, infinitives = len(seq), False, set()

        def unit(u: str, form: str, w: float) -> None:
            seq.append(u)
            forms.setdefault(u, form)
            if w > weights.get(u, 0.0):
                weights[u] = w

        def number(norm: str, tok: str) -> None:
            numbers.setdefault(norm, tok)
            unit("#" + norm, tok, top)

        def char_grams(chars: str, w: float) -> None:
            grams = _char_ngrams(chars)
            for gram in grams:
                unit(gram, chars, w / len(grams))

        skip = -1  # the percent word(s) after a number belong to it
        last = len(matches) - 1
        prev_end = 0
        for i, m in enumerate(matches):
            if i <= skip:
                prev_end = m.end()
                continue
            kind = m.lastgroup
            tok = m.group()
            start, end = m.span()
            info = word_info(lang, tok, data) if kind == "word" else None
            if i and (
                punctuation_between(text, prev_end, start)
                or (info is not None and info.opener)
            ):
                close_phrase(prev_end)
                phrase_start = start
            prev_end = end
            if lang == "en":
                low_tok = tok.lower()
                to_before, after_to = after_to, low_tok == "to" or (
                    after_to and (low_tok in _INFINITIVE_AUX or low_tok.endswith("ly"))
                )
                if to_before and not after_to and info is not None and info.kind == CONTENT and info.stem:
                    infinitives.add(info.stem)
            counted_one = False
            if info is not None:
                neg = info.negation
                if neg is None:
                    neg = is_negation(tok, lang, matches[i + 1].group().lower() if i < last else "")
                if neg:
                    negated = True
                    cues.append((len(phrases), len(words)))
                    first_word = False
                    continue
                counted_one = info.low == "one" and lang == "en" and i < last and (
                    matches[i + 1].group().lower().rstrip("s") in ONE_OF_A_UNIT
                )
                if info.kind == STOP and not counted_one:
                    first_word = False
                    continue
                if lang == "en" and info.low == "longer" and i and matches[i - 1].group().lower() == "no":
                    continue  # "can no longer hold": one cue, which bears on "hold"
                if info.kind == CONTENT:  # the common case, inline
                    stem = info.stem
                    if not stem:
                        continue
                    n_units = len(seq)
                    seq.append(stem)
                    if stem not in forms:
                        forms[stem] = tok
                    if info.weight > weights.get(stem, 0.0):
                        weights[stem] = info.weight
                    if info.is_date:
                        names.setdefault(stem, tok)
                    elif info.is_cap and (not first_word or info.low in capitalised_elsewhere) and len(info.low) > 1:
                        names.setdefault(stem, tok)
                    words.append((len(phrases), n_units, n_units + 1))
                    first_word = False
                    continue
            n_units = len(seq)
            if kind == "num":
                norm = normalise_number(getattr(m, "value", "") or tok)
                nxt = matches[i + 1].group().lower() if i < last else ""
                # "95 percent" -> "95%"
                if not norm.endswith("%") and nxt in PERCENT_WORDS:
                    norm += "%"
                    skip = i + 1
                elif not norm.endswith("%") and nxt == "per" and i + 2 < len(matches) and (
                    matches[i + 2].group().lower() == "cent"
                ):
                    norm += "%"
                    skip = i + 2
                number(norm, tok)
            elif info is None:  # a CJK run
                char_grams(tok, self.weight(tok))
            elif info.kind == HANGUL:
                if info.role:
                    roles.setdefault(info.stem, info.role)
                char_grams(info.stem, info.weight)
                if info.connective:
                    close_phrase(end)
                    phrase_start = end
            elif info.kind == NUMBER:
                number(info.number, tok)
            elif counted_one:  # "one" before a unit (:data:`.lexicon.ONE_OF_A_UNIT`)
                number("1", tok)
            if len(seq) > n_units:
                words.append((len(phrases), n_units, len(seq)))
            first_word = False
        close_phrase(len(text))
        phrases = mark_until(scope_negations(phrases, cues, words, seq, forms, lang), text, lang)
        passive = PASSIVE.get(lang)
        return Sentence(
            text=text,
            units=frozenset(seq),
            numbers=tuple(numbers),
            number_forms=numbers,
            names=tuple(names),
            name_forms=names,
            forms=forms,
            sequence=tuple(seq),
            weights=weights,
            phrases=tuple(phrases),
            case_roles=roles,
            passive=bool(passive and passive.search(text)),
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
