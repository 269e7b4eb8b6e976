"""The questions step: the source's most salient facts, one fact per question, phrased naturally
in the source's language so that the coverage step can read the fact back from the question alone.

Facts are the source's sentences split into statements (:mod:`.clauses`: "The bridge opened in
1932 and cost 4 million dollars" gives two). They are ranked by position (lead first), centrality
(how many of their units recur in other sentences) and names and numbers; quoted speech is
discounted; near-duplicates are skipped.
"""

from __future__ import annotations

from dataclasses import dataclass

import regex

from .analysis import Document, Sentence, TextAnalyzer
from .clauses import split_clauses, split_statements
from .lexicon import STOPWORDS

# Question phrasings per language: (template, pattern that recovers the fact).
_PHRASINGS: dict[str, list[tuple[str, regex.Pattern[str]]]] = {
    "en": [("Is it true that {fact}?", regex.compile(r"^Is it true that (.+)\?$", regex.S))],
    "ko": [
        ("{fact}는 것이 사실입니까?", regex.compile(r"^(.+다)는 것이 사실입니까\?$", regex.S)),
        # the copula quotes as -(이)라는: "예정이다" -> "예정이라는", "12킬로미터이다" -> "12킬로미터라는"
        ("{fact}라는 것이 사실입니까?", regex.compile(r"^(.+)라는 것이 사실입니까\?$", regex.S)),
        ('다음 내용이 사실입니까? "{fact}"', regex.compile(r'^다음 내용이 사실입니까\? "(.+)"$', regex.S)),
    ],
    "de": [("Stimmt es: „{fact}“?", regex.compile(r"^Stimmt es: „(.+)“\?$", regex.S))],
    "fr": [("Est-il vrai que « {fact} » ?", regex.compile(r"^Est-il vrai que « (.+) » \?$", regex.S))],
    "es": [("¿Es cierto que «{fact}»?", regex.compile(r"^¿Es cierto que «(.+)»\?$", regex.S))],
}
_BOILERPLATE = regex.compile(
    r"(?i)(?:\bscroll down\b|\bpublished:|\bupdated:|\blast updated\b|\bclick here\b|\bread more\b|"
    r"\bfollow\s+@|@\w|\be-?mail to a friend\b|\bshare this article\b|\bdaily mail reporter\b|"
    r"\bfor mailonline\b|\bfor dailymail\.com\b|\bcomments\s*\(\d|\bsee more\b|\bwatch the video\b)"
)
"""A caption, byline or page furniture of a news page (CNN/DM): never a fact to ask about."""
_LEAD = regex.compile(
    r"^\s*(?:(?:scroll down for (?:the )?videos?|video|pictured)\s*[.:]?\s+|"
    r"(?:[\p{Lu}][\p{L}\p{M}' ,.]{0,40})?\((?:CNN|AP|Reuters|AFP)\)\s*(?:-+\s*)?|by\s+\.\s+)",
    regex.I,
)
"""A dateline or caption before a sentence's first word ("(CNN) -- ", "scroll down for video ")."""
_KO_FORMAL = regex.compile(r"(\p{Hangul})니다$")


def clean_fact(text: str) -> str | None:
    """The sentence without a dateline or caption before it; ``None`` when it is page furniture (a
    caption, a byline, a share line) or a byline's bare name ("Sarah Griffiths .")."""
    text = _LEAD.sub("", text, count=1).strip()
    if _BOILERPLATE.search(text):
        return None
    words = text.rstrip(" .").split()
    if len(words) <= 3 and all(w[:1].isupper() for w in words):
        return None
    return text


def korean_plain(fact: str) -> str:
    """A Korean fact in the formal style made plain, so that ``-다는 것이 사실입니까?`` follows it
    grammatically: 되었습니다 -> 되었다, 합니다 -> 한다, 입니다 -> 이다."""
    if fact.endswith("습니다"):
        return fact[: -len("습니다")] + "다"
    m = _KO_FORMAL.search(fact)
    if not m:
        return fact
    code = ord(m.group(1)) - 0xAC00
    if not 0 <= code < 11172 or code % 28 != 17:  # the syllable before 니다 ends in ㅂ
        return fact
    base = chr(0xAC00 + code - 17)
    plain = base + "다" if base == "이" else chr(0xAC00 + code - 17 + 4) + "다"  # 이다; else the ㄴ ending
    return fact[: m.start()] + plain


_FALLBACK = ('Is this stated: "{fact}"?', regex.compile(r'^Is this stated: "(.+)"\?$', regex.S))
_TITLE = regex.compile(r"^\S+\s+\p{Lu}")
_OPENING_CONJUNCTION = regex.compile(r"^(?:but|and|so|yet|however|also|meanwhile)\b,?\s+(?=\S)", regex.I)
_FIRST_WORD = regex.compile(r"^\p{Lu}[\p{Ll}\p{M}]*\b")


def _open_syllable(ch: str) -> bool:
    """A Hangul syllable that ends in a vowel (no final consonant): "터" of "킬로미터"."""
    code = ord(ch) - 0xAC00
    return 0 <= code < 11172 and code % 28 == 0


def phrase_question(fact: str, lang: str, names: frozenset[str] = frozenset()) -> str:
    """A closed question about ``fact``. In English the fact follows "Is it true that", so its first
    word loses its capital unless it is a name (one of ``names``, lower-cased, or "I")."""
    fact = fact.strip().rstrip(".!?。！？;,").strip()
    if lang == "en":
        fact = _OPENING_CONJUNCTION.sub("", fact, count=1)  # "But she said ..." -> "she said ..." (issue 30)
        m = _FIRST_WORD.match(fact)
        # "Mayor Helen Ortiz": a title before a name keeps its capital; "In November", "The Brotherhood" do not
        title = _TITLE.match(fact) and not (m and m.group().lower() in STOPWORDS["en"])
        if m and m.group().lower() not in names and m.group() != "I" and not title:
            fact = fact[:1].lower() + fact[1:]
        return _PHRASINGS["en"][0][0].format(fact=fact)
    if lang == "ko":
        fact = korean_plain(fact)
        if fact.endswith(("이다", "아니다")):  # the copula: "예정이다" is quoted "예정이라는"
            stem = fact[:-1]
            if stem.endswith("이") and len(stem) > 1 and not stem.endswith("아니") and _open_syllable(stem[-2]):
                stem = stem[:-1]  # after a vowel the 이 drops: "12킬로미터라는"
            return _PHRASINGS["ko"][1][0].format(fact=stem)
        if fact.endswith("다"):
            return _PHRASINGS["ko"][0][0].format(fact=fact)
        return _PHRASINGS["ko"][2][0].format(fact=fact)
    if lang in _PHRASINGS:
        return _PHRASINGS[lang][0][0].format(fact=fact)
    return _FALLBACK[0].format(fact=fact)


def fact_of_question(question: str) -> str:
    """The fact a question asks about: our own phrasings are undone, other questions kept whole."""
    q = question.strip()
    for phrasings in (*_PHRASINGS.values(), [_FALLBACK]):
        for template, pattern in phrasings:
            m = pattern.match(q)
            if m:
                if template.startswith("{fact}라는"):  # give the copula back: "예정이다", "12킬로미터이다"
                    return m.group(1) + ("다" if m.group(1).endswith(("이", "아니")) else "이다")
                return m.group(1)
    return q


@dataclass(frozen=True)
class FactRanking:
    """How facts are chosen (see docs/offline-judge.md for why each value)."""

    min_fact_units: int = 4
    """Facts with fewer content units only fill places that longer facts leave free."""
    max_fact_words: int = 40
    """When whole sentences are the facts, longer ones are split at their clauses."""
    position_weight: float = 1.0
    centrality_weight: float = 5.0
    entity_weight: float = 0.2
    redundancy: float = 0.6
    """A candidate sharing more than this share of its units with a chosen fact is skipped."""


def _pieces(text: str, lang: str, per_statement: bool, ranking: FactRanking) -> list[str]:
    if per_statement:
        return split_statements(text, lang)
    if len(text.split()) > ranking.max_fact_words:
        return split_clauses(text, lang, min_words=6)
    return [text]


def select_facts(doc: Document, analyser: TextAnalyzer, limit: int, ranking: FactRanking) -> list[Sentence]:
    """The source's most salient facts, most important first.

    When the source has fewer sentences than ``limit`` questions, every statement gets its own
    question (one fact per question); a longer source has more sentences than questions, and then
    whole sentences are the facts, so that the questions reach further into it."""
    per_statement = len(doc.sentences) < limit
    candidates: list[tuple[int, Sentence]] = []
    for i, s in enumerate(doc.sentences):
        text = clean_fact(s.text)
        if text is None:
            continue
        pieces = _pieces(text, doc.lang, per_statement, ranking)
        if len(pieces) <= 1 and text != s.text:
            parts = [analyser.analyse(text, capitalised_elsewhere=doc.caps)]
        elif len(pieces) <= 1:
            parts = [s]
        else:
            parts = [analyser.analyse(p, capitalised_elsewhere=doc.caps) for p in pieces]
        for p in parts:
            if p.content < 2 or p.text.strip().endswith(("?", "？")):
                continue
            candidates.append((i, p))
    if not candidates:
        return []
    df: dict[str, int] = {}
    for s in doc.sentences:
        for u in s.units:
            df[u] = df.get(u, 0) + 1
    n = max(1, len(doc.sentences))
    scored: list[tuple[bool, float, int, Sentence]] = []
    for order, (i, p) in enumerate(candidates):
        position = 1.0 / (1.0 + i)
        centrality = sum(df[u] - 1 for u in p.units if u in df) / (p.content * n)
        entity = min(1.0, (len(p.names) + len(p.numbers)) / 4)
        quoted = 0.5 if p.text.lstrip()[:1] in "'\"“‘`«„" else 1.0
        score = quoted * (
            ranking.position_weight * position
            + ranking.centrality_weight * centrality
            + ranking.entity_weight * entity
        )
        scored.append((p.content < ranking.min_fact_units, -score, order, p))
    scored.sort(key=lambda t: t[:3])
    chosen: list[Sentence] = []
    for *_, p in scored:
        if len(chosen) >= limit:
            break
        if any(len(p.units & c.units) > ranking.redundancy * p.content for c in chosen):
            continue
        chosen.append(p)
    return chosen
