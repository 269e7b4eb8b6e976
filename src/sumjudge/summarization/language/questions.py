"""The questions step: the source's most salient facts, one fact per question, phrased naturally
in the source's language so that the coverage step can read the fact back from the question alone.

Facts are atomic (:mod:`.facts`: one subject, one predicate, about fifteen words; "The bridge
opened in 1932 and cost 4 million dollars" gives two), drawn from every sentence that states one
(not quoted speech, captions, bylines, questions), the main fact of each sentence first and in the
source's order; near-duplicates are skipped (:func:`select_facts`).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import regex

from .units import Document, Sentence, TextAnalyzer
from .fact_shape import first_person, shows_a_verb
from .facts import atomic_facts, caption_text
from .korean_units import KoreanAnalyzer
from .lexicon import PEOPLES_EN, STOPWORDS

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
_DATELINE = regex.compile(
    r"^\s*\p{Lu}[\p{Lu}\p{M}' .-]{1,40}(?:,\s*\p{Lu}[\p{L}.]*\s+\d{1,2}(?:,\s*\d{4})?\s*(?:\([^()]{1,30}\)\s*)?"
    r"|\s*\([^()]{1,30}\)\s*)[-–—:]+\s+(?=\S)"
)
"""A dateline before a sentence: a place in capitals with a date or a news agency ("GRENSHAW, March
14, 2025 - ", "PARIS (AP) -- ")."""
_KO_FORMAL = regex.compile(r"(\p{Hangul})니다$")
_KO_OPEN_END = regex.compile(r"(?<=\p{Hangul})(?:으며|며|고|지만|는데|면서)$")


def clean_fact(text: str) -> str | None:
    """The sentence without a dateline or caption before it; ``None`` when it is page furniture (a
    caption, a byline, a share line) or a byline's bare name ("Sarah Griffiths .")."""
    text = _DATELINE.sub("", _LEAD.sub("", text, count=1), count=1).strip()
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
_HONORIFICS = frozenset({"mr", "mrs", "ms", "dr"})
_FIRST_WORD = regex.compile(r"^\p{Lu}[\p{Ll}\p{M}]*\b")
_POSSESSIVE = regex.compile(r"^['’]s\b")
_COMMON_POSSESSORS = frozenset("today yesterday tomorrow children women men people everyone nobody".split())
"""Common words that open a sentence as possessors ("Today's vote"); any other capitalised word with
"'s" there is a name ("Harwick's city council")."""


def _open_syllable(ch: str) -> bool:
    """A Hangul syllable that ends in a vowel (no final consonant): "터" of "킬로미터"."""
    code = ord(ch) - 0xAC00
    return 0 <= code < 11172 and code % 28 == 0


def phrase_question(fact: str, lang: str, names: frozenset[str] = frozenset()) -> str:
    """A closed question about ``fact``. In English the fact follows "Is it true that", so its first
    word loses its capital unless it is a name (one of ``names``, lower-cased, "I", or a possessor
    other than a common one: "Harwick's") or a people ("Kenyan"); a function word ("The", "An") always
    loses it."""
    fact = fact.strip().rstrip(".!?。！？;,").strip()
    if lang == "en":
        fact = _OPENING_CONJUNCTION.sub("", fact, count=1)  # "But she said ..." -> "she said ..."
        m = _FIRST_WORD.match(fact)
        # "Mayor Helen Ortiz": a title before a name keeps its capital; "In November", "The Brotherhood" do not
        first = m.group().lower() if m else ""
        # "The", "An": never a name's capital at the head; "Mr", "Dr" before a name are the name's
        function_word = first in STOPWORDS["en"] and first not in _HONORIFICS
        title = _TITLE.match(fact) and not function_word
        owner = m is not None and bool(_POSSESSIVE.match(fact[m.end():])) and first not in _COMMON_POSSESSORS
        if m and (function_word or (first not in names and first not in PEOPLES_EN and not title and not owner)) and m.group() != "I":
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
        # a fact left on a connective ("…거두며") is closed as a statement, a noun phrase asked with the
        # copula: a Korean question, never a quotation inside one
        closed = _KO_OPEN_END.sub("", fact)
        if closed != fact and closed:
            # a verb stem in a vowel takes the present's ㄴ (거두며 -> 거둔다); after a past or a consonant, -다
            last = closed[-1]
            closed = closed[:-1] + chr(ord(last) + 4) + "다" if _open_syllable(last) else closed + "다"
            return _PHRASINGS["ko"][0][0].format(fact=closed)
        return _PHRASINGS["ko"][1][0].format(fact=fact if _open_syllable(fact[-1]) else fact + "이")
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

    max_fact_words: int = 20
    """A fact is cut to about this many words at a clause boundary (:func:`.facts.atomic_facts`)."""
    min_fact_units: int = 3
    """Facts with fewer content units only fill places that longer facts leave free."""
    redundancy: float = 0.6
    """A candidate sharing more than this share of its units with a chosen fact is skipped."""
    position_weight: float = 1.0
    """The lead first: a fact of sentence ``i`` (0-based) gets ``position_weight / (1 + i)``."""
    centrality_weight: float = 10.0
    """What recurs: the share of the fact's units that other sentences repeat, times this."""
    later_piece: float = 0.5
    """A sentence's second and later facts (a relative or introductory clause) lose this much each."""
    words_per_question: int = 60
    """A source gets one question for about this many words, at least ``min_questions`` and at most
    the caller's limit: a short article has fewer key points than a long one."""
    min_questions: int = 3


_DOUBLE_QUOTE = regex.compile(r"``|''|[\"“”„«»]")


def _in_quotation(sentences: list[Sentence]) -> list[bool]:
    """Which sentences stand inside a quotation that an earlier sentence opened and has not closed
    (a speech of several sentences: only its first names the speaker). A sentence with an odd number
    of double quotation marks opens or closes one (tokenized text writes both ends as ``), and a
    paragraph or three sentences end it."""
    out: list[bool] = []
    open_ = 0
    for s in sentences:
        out.append(open_ > 0)
        if len(_DOUBLE_QUOTE.findall(s.text)) % 2:
            open_ = 0 if open_ else 3
        elif open_:
            open_ -= 1
    return out


def select_facts(doc: Document, analyser: TextAnalyzer, limit: int, ranking: FactRanking) -> list[Sentence]:
    """The source's key facts, most important first: the facts a reader puts in a short summary.

    Each sentence gives its atomic facts (:func:`.facts.atomic_facts`: one subject, one predicate,
    no quoted speech, attribution, caption, byline or question). They are ranked by the lead (a
    news text puts what it is about first), by what recurs (the share of a fact's units that other
    sentences repeat) and a sentence's main fact before its second ones; a caption's text, a fact
    spoken in the first person and a fact of fewer than ``min_fact_units`` units only fill places
    left free; quoted speech gives none; a fact that repeats a chosen one is skipped. The main
    event, the first fact of the first sentence that states one, is always asked first, and a
    source gets no more facts than its length calls for (:func:`question_budget`)."""
    candidates: list[tuple[int, float, int, Sentence]] = []
    if isinstance(analyser, KoreanAnalyzer) and analyser.by_morphemes:
        # each part of a compound and each verb is a unit of its own: what recurs counts a fifth as much
        ranking = replace(ranking, centrality_weight=ranking.centrality_weight / 5)
    quoted = _in_quotation(doc.sentences)
    df: dict[str, int] = {}
    for s in doc.sentences:
        for u in s.units:
            df[u] = df.get(u, 0) + 1
    n = max(1, len(doc.sentences))
    for i, s in enumerate(doc.sentences):
        caption = caption_text(s.text, doc.lang)
        text = clean_fact(s.text if caption is None else caption)
        if text is None:
            continue
        pieces = [] if quoted[i] else _facts_of(text, doc.lang, analyser, ranking.max_fact_words)
        tier = int(caption is not None)
        if not pieces:
            continue  # quoted speech is what someone said, not a fact the article states
        for k, piece in enumerate(pieces):
            p = s if piece == s.text else analyser.analyse(piece, capitalised_elsewhere=doc.caps)
            if p.content < 2 or p.text.strip().endswith(("?", "？")) or (doc.lang == "en" and not shows_a_verb(p.text)):
                continue  # a question, or a fragment with no verb ("08:48 EST, 3 February 2014")
            weak = p.content < ranking.min_fact_units or first_person(p.text, doc.lang)
            centrality = sum(df.get(u, 1) - 1 for u in p.units) / (p.content * n)
            score = ranking.position_weight / (1 + i) + ranking.centrality_weight * centrality - ranking.later_piece * k
            candidates.append((max(tier, int(weak)), -score, len(candidates), p))
    candidates.sort(key=lambda t: t[:3])
    limit = min(limit, question_budget(doc, ranking))
    lead = min((c for c in candidates if c[0] == 0), key=lambda c: c[2], default=None)
    chosen: list[Sentence] = [lead[3]] if lead is not None and limit > 0 else []
    for *_, p in candidates:
        if len(chosen) >= limit:
            break
        if any(len(p.units & c.units) > ranking.redundancy * p.content for c in chosen):
            continue
        chosen.append(p)
    return chosen


def _facts_of(text: str, lang: str, analyser: TextAnalyzer, max_words: int) -> list[str]:
    """The atomic facts of a source sentence; Korean, read by morphemes, cut at its clause endings."""
    if isinstance(analyser, KoreanAnalyzer) and analyser.by_morphemes:
        from .korean_facts import KoreanFacts  # Korean read by morphemes only

        return KoreanFacts(analyser.morphology).facts(text)
    return atomic_facts(text, lang, max_words)


def question_budget(doc: Document, ranking: FactRanking) -> int:
    """How many key facts ``doc`` is asked about: one for every ``words_per_question`` words, at
    least ``min_questions``."""
    words = sum(len(s.text.split()) for s in doc.sentences)
    return max(ranking.min_questions, -(-words // max(1, ranking.words_per_question)))
