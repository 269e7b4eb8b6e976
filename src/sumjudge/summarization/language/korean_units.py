"""A Korean sentence reduced to what the judge compares, by its morphemes (:mod:`.korean`): content
units are lemmas (치른 and 치르겠다 are both 치르다; 설명했다 is 설명), names are the proper nouns, a
number is read with its Korean units and counter as one value (4만 8,200여 명 is 48200, 850억 원 is
85000000000), who does what comes from the case particles, and a negation is a morpheme (않다,
못하다, 없다, 아니다, 안, 못). Without kiwipiepy the written words are read as in every other language.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from functools import cached_property
from typing import TYPE_CHECKING

import regex

from .units import Sentence, TextAnalyzer
from .lexicon import CORE
from .phrases import Phrase
from .words import normalise_number

if TYPE_CHECKING:  # the morphology loads where a Korean text is read
    from .korean import KoreanMorphology, Morph

_CONTENT = frozenset({"NNG", "NNP", "VV", "VA", "XR", "SL", "SH", "NR"})
_NOUNS = frozenset({"NNG", "NNP", "NNB", "NR", "XR", "SL", "SH", "SN", "XPN", "XSN"})
_SMALL = {"십": 10, "백": 100, "천": 1000}
_LARGE = {"만": 10**4, "억": 10**8, "조": 10**12}
_PERCENT = frozenset({"%", "퍼센트", "프로"})
_NEGATION = frozenset({"않다", "없다", "아니다", "못하다"})
_NEGATING_ADVERBS = frozenset({"안", "못"})
_LIGHT = frozenset({
    "하다", "되다", "있다", "이다", "지나다", "위하다", "대하다", "따르다", "통하다", "관하다", "의하다", "같다",
    "이번", "당시", "이날", "오늘", "어제", "관련", "가운데", "만", "천", "백", "십", "억", "조",
})
"""Lemmas that carry no fact of their own (지난 16일: "last"; 에 따르면: "according to"): not units."""
_CONNECTIVES = frozenset({
    "고", "며", "으며", "지만", "는데", "은데", "ᆫ데", "면서", "으면서", "어서", "아서", "니까", "으니까", "자",
    "으나", "나", "도록", "ᆫ지",
})
"""Connective endings that close a clause: a negation or an antonym is compared within one."""
_ROLES = {"JKS": "subject", "JKO": "object", "JX": "subject"}
"""Case particles (and the topic particles 은/는) and the role they give the noun phrase before them."""
_TOPIC = frozenset({"은", "는"})
_DIGIT = regex.compile(r"\d")
_PIECE = regex.compile(r"\d+(?:[.,]\d+)*|[^\d\s]+")
PREDICATE_WEIGHT = 0.5
"""A verb or adjective weighs half a noun: retellings change the predicate (개발했다 / 내놓았다, 돌입했다 /
나섰다) far more often than the names and things it is about."""


def number_value(pieces: list[Morph]) -> Decimal | None:
    """The value of digits and Korean number units read together: 12/SN 만/NR 4/SN 천/NR is 124000."""
    total = section = Decimal(0)
    current: Decimal | None = None
    for m in pieces:
        if m.tag == "SN":
            try:
                current = Decimal(m.form.replace(",", ""))
            except InvalidOperation:
                return None
        elif m.form in _SMALL:
            section += (current if current is not None else Decimal(1)) * _SMALL[m.form]
            current = None
        elif m.form in _LARGE:
            total += (section + (current or Decimal(0)) or Decimal(1)) * _LARGE[m.form]
            section, current = Decimal(0), None
    return total + section + (current or Decimal(0))


@dataclass
class KoreanSentence(Sentence):
    """A :class:`.Sentence` read by morphemes; its numbers' keys are worked out as they are read."""

    keys: dict[str, frozenset[str]] = field(default_factory=dict)
    counted: dict[str, frozenset[str]] = field(default_factory=dict)
    """Number -> what it counts: its counter (2위: 위, 580여 명: 명), else the noun before it (승점 55:
    승점). Two numbers that count different things are never set against each other."""

    @cached_property
    def number_keys(self) -> dict[str, frozenset[str]]:
        return self.keys


def _keys(value: Decimal, norm: str) -> frozenset[str]:
    """What a number may stand for in another text: itself, and a decimal also as its whole part and
    rounded (13.6%포인트 retold as "13%포인트 넘게" or "약 14%")."""
    keys = {norm.rstrip("%")}
    if value != value.to_integral_value():
        keys |= {str(int(value)), str(int(value.to_integral_value()))}
    return frozenset(keys)


class _Builder:
    """Collects a sentence's units, numbers, names, phrases and roles as its morphemes are read."""

    def __init__(self, text: str, analyser: TextAnalyzer) -> None:
        self.text, self.analyser = text, analyser
        self.top = analyser.informativeness.max_weight
        self.seq: list[str] = []
        self.forms: dict[str, str] = {}
        self.weights: dict[str, float] = {}
        self.numbers: dict[str, str] = {}
        self.keys: dict[str, frozenset[str]] = {}
        self.counted: dict[str, frozenset[str]] = {}
        self.names: dict[str, str] = {}
        self.roles: dict[str, str] = {}
        self.phrases: list[Phrase] = []
        self.phrase_start = self.phrase_from = 0
        self.negated = False
        self.cues: list[tuple[int, int]] = []  # (phrase number, units before the cue)
        self.np: list[str] = []  # the units of the noun phrase being read (for a case particle)

    def word_of(self, m: Morph) -> str:
        """The written word (between spaces) that holds ``m``: how a reason shows the unit."""
        start = self.text.rfind(" ", 0, m.start) + 1
        end = self.text.find(" ", m.end)
        return self.text[start : end if end >= 0 else len(self.text)].strip(".,;:!?\"'“”‘’()[]")

    def unit(self, u: str, form: str, w: float, name: bool = False) -> None:
        self.seq.append(u)
        self.forms.setdefault(u, form)
        self.weights[u] = max(w, self.weights.get(u, 0.0))
        if name:
            self.names.setdefault(u, form)

    def number(self, pieces: list[Morph], counter: Morph | None, percent: bool) -> None:
        value = number_value(pieces)
        if value is None:
            return
        norm = normalise_number(format(value, "f")) + ("%" if percent else "")
        end = (counter or pieces[-1]).end
        form = self.text[pieces[0].start : end]
        self.numbers.setdefault(norm, form)
        self.keys.setdefault(norm, _keys(value, norm))
        before = [u for u in self.np if not u.startswith("#")][-1:]
        self.counted.setdefault(norm, frozenset([counter.form] if counter is not None else before))
        self.unit("#" + norm, form, self.top)
        self.np.append("#" + norm)

    def close_phrase(self, end: int) -> None:
        if len(self.seq) > self.phrase_from or self.negated:
            self.phrases.append(Phrase(self.text[self.phrase_start : end].strip(), frozenset(self.seq[self.phrase_from :]),
                                       self.negated))
        self.phrase_from, self.negated = len(self.seq), False

    def particle(self, m: Morph) -> None:
        """A case particle gives its role to the last name of the noun phrase before it (이창호 of
        "미래연합당 이창호 후보가"): who does what to whom is told by the named participants."""
        role = _ROLES.get(m.tag) if m.tag != "JX" or m.form in _TOPIC else None
        named = [u for u in self.np if u in self.names]
        if role and named:
            self.roles.setdefault(named[-1], role)
        self.np = []


def _digits_apart(morphs: tuple[Morph, ...]) -> tuple[Morph, ...]:
    """The morphemes with digits the analyser joined to other characters read apart, so that a number is
    a number whatever its tag: 1심/NNG is 1/SN 심/NNG (as it is in another sentence), 3-1/W_SERIAL is
    3/SN -/SW 1/SN."""
    if not any(m.tag != "SN" and _DIGIT.search(m.form) for m in morphs):
        return morphs
    from .korean import Morph

    out: list[Morph] = []
    for m in morphs:
        if m.tag == "SN" or not _DIGIT.search(m.form):
            out.append(m)
            continue
        for piece in _PIECE.finditer(m.form):
            text, at = piece.group(), m.start + piece.start()
            tag = "SN" if text[0].isdigit() else ("SW" if not text.isalpha() else m.tag if m.tag.startswith("N") else "NNG")
            out.append(Morph(text, tag, at, at + len(text), text))
    return tuple(out)


def _object_after_percent(morphs: tuple[Morph, ...]) -> tuple[Morph, ...]:
    """The morphemes with the object particle after a percent sign read as one: the analyser splits
    "3.5%를" into 3.5/SN %/SW 르/NNG ᆯ/JKO, and 르 is no word of the sentence."""
    from .korean import Morph

    out = list(morphs)
    for i in range(len(out) - 2, 0, -1):
        if out[i].form == "르" and out[i - 1].form == "%" and out[i + 1].tag == "JKO":
            out[i : i + 2] = [Morph("를", "JKO", out[i].start, out[i + 1].end, "를")]
    return tuple(out)


def _read(b: _Builder, morphs: tuple[Morph, ...]) -> None:
    """Reads the morphemes into ``b``."""
    morphs = _object_after_percent(_digits_apart(morphs))
    i, n = 0, len(morphs)
    while i < n:
        m = morphs[i]
        if m.tag == "SN":
            j = i + 1
            while j < n and (morphs[j].tag == "SN" or (morphs[j].tag == "NR" and morphs[j].form in _SMALL | _LARGE)):
                j += 1
            k = j
            while k < n and morphs[k].tag == "XSN" and morphs[k].form in {"여", "가량", "쯤"}:
                k += 1  # 4,500여: about
            percent = k < n and morphs[k].form in _PERCENT
            counter = morphs[k] if k < n and morphs[k].tag in {"NNB", "NNG"} and morphs[k].start - morphs[k - 1].end <= 1 else None
            b.number(list(morphs[i:j]), counter, percent)
            i = k + 1 if percent else k
            continue
        lemma = m.lemma if m.tag in {"VV", "VA", "VX", "VCN"} else m.form
        # "기한 없는 파업" (an open-ended strike): 없다 before a noun says "without", it negates no predicate
        adnominal = lemma == "없다" and i + 1 < n and morphs[i + 1].tag == "ETM" and morphs[i + 1].form in {"는", "ᆫ", "은"}
        if (lemma in _NEGATION and not adnominal) or (m.tag == "MAG" and m.form in _NEGATING_ADVERBS):
            b.negated = True
            b.cues.append((len(b.phrases), len(b.seq)))
        elif m.tag == "XPN" and i + 1 < n and morphs[i + 1].tag in {"NNG", "NNP"}:
            nxt = morphs[i + 1]  # 무소속: the prefix is part of the noun ("no party", not "party")
            b.unit(m.form + nxt.form, b.word_of(nxt), b.analyser.weight(nxt.form), nxt.tag == "NNP")
            b.np.append(m.form + nxt.form)
            i += 2
            continue
        elif m.tag in _CONTENT and lemma not in _LIGHT and not (m.tag == "NR" and m.form in _SMALL | _LARGE):
            name = m.tag == "NNP" or m.tag == "SL" and m.form[:1].isupper()
            weight = b.analyser.weight(lemma) * (PREDICATE_WEIGHT if m.tag in {"VV", "VA"} else 1.0)
            b.unit(lemma, m.form if name else b.word_of(m), weight, name)
            if m.tag in _NOUNS:
                b.np.append(lemma)
        if m.tag.startswith("J"):
            b.particle(m)
        elif m.tag not in _NOUNS and m.tag not in {"SSO", "SSC", "SW"}:
            b.np = []
        if (m.tag == "EC" and m.form in _CONNECTIVES and not (i + 1 < n and morphs[i + 1].tag == "VX")) or (
            m.tag == "SP" or (m.tag == "SS" and m.form in {"·"})
        ):
            b.close_phrase(m.end)
            b.phrase_start = m.end
        i += 1


def korean_sentence(text: str, morphs: tuple[Morph, ...], analyser: TextAnalyzer) -> KoreanSentence:
    """``text`` (one sentence or clause) reduced from its morphemes ``morphs``."""
    b = _Builder(text, analyser)
    _read(b, morphs)
    b.close_phrase(len(text))
    # a negation bears on the content word before it and the one after it, within its phrase
    phrases = list(b.phrases)
    for phrase_no, at in b.cues:
        if phrase_no < len(phrases):
            near = frozenset(b.seq[max(0, at - 1) : at + 1])
            p = phrases[phrase_no]
            phrases[phrase_no] = Phrase(p.text, p.units, p.negated, scope=p.scope | (near & p.units))
    return KoreanSentence(
        text=text, units=frozenset(b.seq), numbers=tuple(b.numbers), number_forms=b.numbers, names=tuple(b.names),
        name_forms=b.names, forms=b.forms, sequence=tuple(b.seq), weights=b.weights, phrases=tuple(phrases),
        case_roles=b.roles, keys=b.keys, counted=b.counted,
    )


class KoreanAnalyzer(TextAnalyzer):
    """The Korean language analyser: by morphemes where kiwipiepy is installed, else by written words."""

    def __init__(self, lang: str = "ko", data: str = CORE) -> None:
        super().__init__(lang, data)
        from .korean import KoreanMorphology

        self.morphology: KoreanMorphology = KoreanMorphology()

    @property
    def by_morphemes(self) -> bool:
        return self.morphology.available

    def analyse(self, text: str, *, capitalised_elsewhere: frozenset[str] = frozenset()) -> Sentence:
        if not self.by_morphemes:
            return super().analyse(text, capitalised_elsewhere=capitalised_elsewhere)
        return korean_sentence(text, self.morphology.morphs(text), self)


_DETAIL_NUMBER = regex.compile(r"^(?:\d{1,2}(?:시|분|초)|\d+(?:라운드|번째)|(?:19|20)\d\d)$")


def detail_number(form: str) -> bool:
    """A Korean number, as written with its counter, that a summary need not repeat to carry its
    fact: a time of day (오후 2시 10분, 전반 17분), a place in a series (33라운드, 두 번째), or a bare
    year, which Korean writes inside a name (2026 경주국제마라톤) where a year of its own takes 년.
    The day and the figures of the fact stay key."""
    return bool(_DETAIL_NUMBER.match(form.strip()))


__all__ = ["KoreanAnalyzer", "KoreanSentence", "detail_number", "korean_sentence", "number_value"]
