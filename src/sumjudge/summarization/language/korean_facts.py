"""The key facts of a Korean sentence, by its morphemes (:mod:`.korean`): one per clause, each cut
where a clause ends and closed as a statement, so that it reads as a Korean sentence and can be asked
as ``<fact>는 것이 사실입니까?``.

A clause that a connective ending joins to the next (-고, -며, -지만, -는데, -면서) is given the
sentence's tense and the plain ending -다 (제치고 당선됐다: 제쳤다, 당선됐다), never left on the
connective; a later clause without a subject of its own gets the first clause's; an attribution (…에
따르면) and a parenthesis ((58)) are left out; quoted speech gives none.
"""

from __future__ import annotations

import regex

from .korean import KoreanMorphology, Morph

_JOINING = frozenset({"고", "며", "으며", "지만", "는데", "은데", "ᆫ데", "면서", "으면서", "으나", "나"})
"""Connective endings after which a clause of its own follows."""
_PREDICATE = frozenset({"VV", "VA", "VX", "XSV", "XSA", "VCP", "VCN", "EP"})
_NOUN_PHRASE = frozenset({"NNG", "NNP", "NNB", "NR", "SN", "SL", "SH", "XPN", "XSN", "SSO", "SSC", "SW"})
_QUOTES = regex.compile(r"[\"“”]")
_PARENTHESIS = regex.compile(r"\s*\([^()]{0,30}\)")
_SPACES = regex.compile(r"\s+")
_ATTRIBUTION = regex.compile(r"^.{0,60}?(?:에 따르면|에 의하면)\s+")
_SPEECH = frozenset({
    "밝히다", "말하다", "설명하다", "전하다", "발표하다", "덧붙이다", "강조하다", "주장하다", "알리다", "공시하다",
})
"""Verbs of saying: "…개발했다고 24일 밝혔다" states "…개발했다"; who said it and when is no key fact."""
MIN_WORDS = 3


def _clause_ends(morphs: tuple[Morph, ...]) -> list[int]:
    """Indexes of the connective endings that end a clause (not before an auxiliary: 하고 있다)."""
    out = []
    for i, m in enumerate(morphs):
        if m.tag != "EC" or m.form not in _JOINING or i == 0 or morphs[i - 1].tag not in _PREDICATE:
            continue
        if i + 1 < len(morphs) and morphs[i + 1].tag in {"VX", "JX"}:
            continue
        out.append(i)
    return out


def _word_start(text: str, at: int) -> int:
    return text.rfind(" ", 0, at) + 1


def _tense(morphs: tuple[Morph, ...], ends: list[int]) -> list[list[tuple[str, str]]]:
    """The pre-final endings (었: past; 겠: future) of the first predicate at or after each clause
    end that has one, for each clause: a clause joined by -고 or -며 takes the tense of the next."""
    found: list[tuple[str, str]] = []
    out: list[list[tuple[str, str]]] = []
    for end in reversed(ends):
        own: list[tuple[str, str]] = []
        j = end - 1
        while j >= 0 and morphs[j].tag == "EP":
            own.insert(0, (morphs[j].form, "EP"))
            j -= 1
        found = own or found
        out.insert(0, found)
    return out


def _subject(text: str, morphs: tuple[Morph, ...], start: int, end: int) -> str | None:
    """The written subject of the clause ``morphs[start:end]`` (its noun phrase with 이/가/은/는), or ``None``."""
    for i in range(start, end):
        m = morphs[i]
        if m.tag == "JKS" or (m.tag == "JX" and m.form in {"은", "는"} and i > start and morphs[i - 1].tag in _NOUN_PHRASE):
            j = i - 1
            while j >= start and morphs[j].tag in _NOUN_PHRASE:
                j -= 1
            begin = _word_start(text, morphs[j + 1].start) if j + 1 < i else _word_start(text, m.start)
            return text[begin : m.end]
    return None


def _verb_lemma(morphs: tuple[Morph, ...], i: int) -> str:
    """The dictionary form of the verb at ``i``: 밝히다, and for a noun made a verb by 하다 the two
    together (발표/NNG 하/XSV: 발표하다)."""
    m = morphs[i]
    if m.tag == "XSV" and i > 0 and morphs[i - 1].tag == "NNG":
        return morphs[i - 1].form + m.form + "다"
    return m.lemma


def _reported(text: str, morphs: tuple[Morph, ...]) -> str | None:
    """What a sentence of saying reports, closed with -다 ("…개발했다고 24일 밝혔다": "…개발했다";
    "…계획이라고 말했다": "…계획이다"), or ``None`` when it is no such sentence."""
    verbs = [i for i, m in enumerate(morphs) if m.tag in {"VV", "VA", "VCP", "XSV"}]
    if not verbs or _verb_lemma(morphs, verbs[-1]) not in _SPEECH:
        return None
    for i in range(verbs[-1] - 1, -1, -1):
        m = morphs[i]
        if m.tag == "JKQ" and m.form == "고" and i > 0 and morphs[i - 1].tag == "EF":
            end = morphs[i - 1]  # 줄었다/EF 고/JKQ: the statement closes on its own -다 (a -라 becomes -다)
            return text[: end.end] if end.form == "다" else text[: end.start] + "다"
        if m.tag in {"VV", "VA", "VCP", "XSV", "EF"} and not (m.tag == "VCP" and i + 1 < verbs[-1]):
            break
        if m.tag in {"EC", "JKQ"} and m.form in {"다고", "ᆫ다고", "는다고", "라고", "이라고"}:
            if m.form.endswith("라고"):  # 계획이/VCP 라고 or 계획/NNG 이라고: 계획이다; 조치(이)라고: 조치이다
                prev = morphs[i - 1] if i > 0 else None
                copula = m.form == "라고" and prev is not None and prev.tag == "VCP" and prev.end > prev.start
                return text[: m.start].rstrip() + ("다" if copula else "이다")
            return text[: m.start] + m.form[: -1] if not m.form.startswith("ᆫ") else text[: m.end - 1]
    return None


def _final(morphs: tuple[Morph, ...]) -> int:
    """The index of the sentence's final ending (its -다), or its length."""
    for i in range(len(morphs) - 1, -1, -1):
        if morphs[i].tag == "EF":
            return i
    return len(morphs)


class KoreanFacts:
    """Facts of Korean sentences, read with one :class:`.korean.KoreanMorphology`."""

    def __init__(self, morphology: KoreanMorphology) -> None:
        self.morphology = morphology

    def facts(self, sentence: str) -> list[str]:
        """The sentence's statements, each closed with -다, the first clause first."""
        if _QUOTES.search(sentence):
            return []  # what someone said, not what the article states
        text = _SPACES.sub(" ", _PARENTHESIS.sub("", sentence)).strip()
        text = _ATTRIBUTION.sub("", text)
        morphs = self.morphology.morphs(text)
        if not morphs or text.rstrip().endswith(("?", "？")):
            return []
        said = _reported(text, morphs)
        if said is not None:
            text, morphs = said, self.morphology.morphs(said)
        ends = [*_clause_ends(morphs), len(morphs)]
        tenses = _tense(morphs, [e if e < len(morphs) else _final(morphs) for e in ends])
        out: list[str] = []
        begin = 0
        subject: str | None = None
        for end, tense in zip(ends, tenses):
            fact = self._closed(text, morphs, begin, end, tense).lstrip(",;: ")
            own = _subject(text, morphs, begin, end)
            subject = subject or own
            if fact and own is None and subject and not fact.startswith(subject):
                fact = f"{subject} {fact}"
            if fact and len(fact.split()) >= MIN_WORDS and fact not in out:
                out.append(fact)
            begin = end + 1
        return out

    def _closed(self, text: str, morphs: tuple[Morph, ...], begin: int, end: int, tense: list[tuple[str, str]]) -> str:
        """The clause ``morphs[begin:end]`` as written, its last word closed with -다."""
        if begin >= len(morphs):
            return ""
        start = morphs[begin].start
        if end >= len(morphs):  # the sentence's own last clause: as written
            return text[start:].strip().rstrip(".!。 ").strip()
        last = _word_start(text, morphs[end].start)
        word = [(m.form, m.tag) for m in morphs[begin:end] if m.start >= last]
        if not word:
            return ""
        if not any(t == "EP" for _, t in word):
            word += tense
        closed = self.morphology.join([*word, ("다", "EF")])
        head = text[start:last] if last > start else ""
        return (head + closed).strip()


__all__ = ["KoreanFacts"]
