"""``offline/lexical``: a deterministic judge that answers the scorer's three steps by word overlap.

It reads no prompt. Each request carries typed inputs (source, summary, questions); the judge
answers from them:

- alignment: the summary's sentences, split into clauses, are the claims. A claim is supported when
  nearly all of its content units occur in a window of consecutive source sentences and every number,
  date and proper name in it occurs in the source; the reason quotes the passage or names what is
  missing or different.
- questions: the source's most salient sentences (lead position, centrality, names and numbers),
  phrased as closed questions that carry the fact's own words, so that the coverage step can judge
  them from the question text alone.
- coverage: a question is answered when the summary carries most of the fact's content units.

No weights, no network, the same answer every time. It is a quick gate, not a reader: it cannot
see negation, paraphrase with other words, or a fact assembled from distant sentences.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

import regex

from ...errors import JudgeError
from ...scorers.summarization.verdicts import (
    ALIGNMENT_STEP,
    CLAIMS_STEP,
    COVERAGE_STEP,
    QUESTIONS_STEP,
    AlignmentOutput,
    AlignmentVerdict,
    ClaimsOutput,
    CoverageOutput,
    CoverageVerdict,
    QuestionsOutput,
)
from ..base import JudgeReply, JudgeRequest, Usage
from .text import (
    Sentence,
    TextAnalyzer,
    capitalised_words,
    detect_language,
    normalise_space,
    split_clauses,
    split_fact_phrases,
    split_sentences,
)


@dataclass(frozen=True)
class LexicalSettings:
    """The judge's thresholds (tuned on SummEval; see docs/offline-judge.md)."""

    window: int = 2
    """Largest number of consecutive source sentences a claim may draw on."""
    support_threshold: float = 0.9
    """Share of a claim's content units that the window must hold."""
    allow_missing: int = 1
    """A claim of ``long_claim`` units or more may miss this many and still be supported."""
    long_claim: int = 8
    pair_threshold: float = 0.6
    """Share of the claim's neighbouring content-unit pairs that must stand close together in
    one source sentence of the window (catches words re-combined into a different fact)."""
    pair_distance: int = 4
    bigram_threshold: float = 0.0
    """Share of the claim's word bigrams (stop words included) that the window must hold."""
    numbers_in_window: bool = False
    """Numbers must occur in the window itself, not only somewhere in the source."""
    answer_threshold: float = 0.6
    """Share of a fact's content units that the summary must hold."""
    clauses: bool = True
    """Split summary sentences into clauses that state facts of their own."""
    min_claim_units: int = 1
    min_fact_units: int = 4
    max_fact_words: int = 40
    position_weight: float = 1.0
    centrality_weight: float = 0.5
    entity_weight: float = 0.2
    redundancy: float = 0.6
    """A candidate fact sharing more than this share of its units with a chosen one is skipped."""
    fact_split: str = "clauses"
    """How source sentences become candidate facts: ``"phrases"`` splits every sentence into the
    short statements it joins (at ``;``, ``:``, a dash, and a comma or word that opens a clause:
    "and", "but", "after", "who", "which", ...), so each question asks one fact; ``"clauses"``
    splits only sentences longer than ``max_fact_words``, and only at coordinated clauses."""
    min_fact_words: int = 5
    """A phrase shorter than this stays joined to its neighbour."""


@dataclass
class _Doc:
    lang: str
    sentences: list[Sentence]
    units: frozenset[str]
    number_values: dict[str, str]
    """value (without %) -> the form the source writes it in"""


_QUOTE = 160


def _quote(text: str, limit: int = _QUOTE) -> str:
    text = normalise_space(text)
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


# Question phrasings per language: (template, pattern that recovers the fact).
_PHRASINGS: dict[str, list[tuple[str, regex.Pattern[str]]]] = {
    "en": [("Is it true that {fact}?", regex.compile(r"^Is it true that (.+)\?$", regex.S))],
    "ko": [
        ("{fact}는 것이 사실입니까?", regex.compile(r"^(.+다)는 것이 사실입니까\?$", regex.S)),
        ('다음 내용이 사실입니까? "{fact}"', regex.compile(r'^다음 내용이 사실입니까\? "(.+)"$', regex.S)),
    ],
    "de": [("Stimmt es: „{fact}“?", regex.compile(r"^Stimmt es: „(.+)“\?$", regex.S))],
    "fr": [("Est-il vrai que « {fact} » ?", regex.compile(r"^Est-il vrai que « (.+) » \?$", regex.S))],
    "es": [("¿Es cierto que «{fact}»?", regex.compile(r"^¿Es cierto que «(.+)»\?$", regex.S))],
}
_FALLBACK = ('Is this stated: "{fact}"?', regex.compile(r'^Is this stated: "(.+)"\?$', regex.S))


def phrase_question(fact: str, lang: str) -> str:
    fact = fact.strip().rstrip(".!?。！？").strip()
    if lang == "en":
        return _PHRASINGS["en"][0][0].format(fact=fact)
    if lang == "ko":
        if fact.endswith("다"):
            return _PHRASINGS["ko"][0][0].format(fact=fact)
        return _PHRASINGS["ko"][1][0].format(fact=fact)
    if lang in _PHRASINGS:
        return _PHRASINGS[lang][0][0].format(fact=fact)
    return _FALLBACK[0].format(fact=fact)


def fact_of_question(question: str) -> str:
    """The fact a question asks about: our own phrasings are undone, other questions kept whole."""
    q = question.strip()
    for phrasings in (*_PHRASINGS.values(), [_FALLBACK]):
        for _, pattern in phrasings:
            m = pattern.match(q)
            if m:
                return m.group(1)
    return q


class LexicalJudge:
    """The offline lexical judge. Safe to share: it keeps only memos of pure functions."""

    _MAX_DOCS = 256

    def __init__(self, settings: LexicalSettings | None = None) -> None:
        self.settings = settings or LexicalSettings()
        self._analysers: dict[str, TextAnalyzer] = {}
        self._docs: OrderedDict[str, _Doc] = OrderedDict()

    @property
    def model_id(self) -> str:
        return "offline/lexical"

    async def generate(self, request: JudgeRequest[Any]) -> JudgeReply[Any]:
        return self.answer(request)

    def answer(self, request: JudgeRequest[Any]) -> JudgeReply[Any]:
        """The synchronous core of :meth:`generate` (for scripts and benchmarks)."""
        inputs = request.inputs
        if request.step == ALIGNMENT_STEP and inputs.claims is not None:
            output: Any = self.check(inputs.source or "", inputs.claims)
        elif request.step == ALIGNMENT_STEP:
            output = self.align(inputs.source or "", inputs.summary or "")
        elif request.step == CLAIMS_STEP:
            output = self.list_claims(inputs.summary or "")
        elif request.step == QUESTIONS_STEP:
            output = self.questions(inputs.source or "", inputs.max_questions or 10)
        elif request.step == COVERAGE_STEP:
            output = self.cover(list(inputs.questions or []), inputs.summary or "")
        else:
            raise JudgeError(
                f"the offline lexical judge answers the steps {ALIGNMENT_STEP!r}, {QUESTIONS_STEP!r} "
                f"and {COVERAGE_STEP!r}, not {request.step!r}",
                step=request.step,
            )
        if not isinstance(output, request.output_type):
            output = request.output_type.model_validate(output.model_dump())
        return JudgeReply(output=output, usage=Usage(calls=1), raw=None)

    # ---------------------------------------------------------------------------------------------
    # Shared analysis

    def _analyser(self, lang: str) -> TextAnalyzer:
        a = self._analysers.get(lang)
        if a is None:
            a = self._analysers[lang] = TextAnalyzer(lang)
        return a

    def _doc(self, source: str) -> _Doc:
        doc = self._docs.get(source)
        if doc is not None:
            self._docs.move_to_end(source)
            return doc
        lang = detect_language(source)
        analyser = self._analyser(lang)
        caps = capitalised_words(source)
        sentences = [analyser.analyse(s, capitalised_elsewhere=caps) for s in split_sentences(source)]
        units: set[str] = set()
        values: dict[str, str] = {}
        for s in sentences:
            units |= s.units
            for n in s.numbers:
                values.setdefault(n.rstrip("%"), s.number_forms[n])
        doc = _Doc(lang=lang, sentences=sentences, units=frozenset(units), number_values=values)
        self._docs[source] = doc
        if len(self._docs) > self._MAX_DOCS:
            self._docs.popitem(last=False)
        return doc

    # ---------------------------------------------------------------------------------------------
    # Step A: alignment

    def claims(self, summary: str, lang: str) -> list[Sentence]:
        analyser = self._analyser(lang)
        caps = capitalised_words(summary)
        out: list[Sentence] = []
        for sentence in split_sentences(summary):
            for clause in split_clauses(sentence, lang) if self.settings.clauses else [sentence]:
                claim = analyser.analyse(clause, capitalised_elsewhere=caps)
                if claim.content >= self.settings.min_claim_units:
                    out.append(claim)
        return out

    def align(self, source: str, summary: str) -> AlignmentOutput:
        if not summary.strip():
            return AlignmentOutput(alignment=[])
        doc = self._doc(source)
        return AlignmentOutput(alignment=[self._judge_claim(c, doc) for c in self.claims(summary, doc.lang)])

    def list_claims(self, summary: str) -> ClaimsOutput:
        """The claims :meth:`align` would judge (a long source lists them first, then checks them)."""
        if not summary.strip():
            return ClaimsOutput(claims=[])
        return ClaimsOutput(claims=[c.text for c in self.claims(summary, detect_language(summary))])

    def check(self, source: str, claims: list[str]) -> AlignmentOutput:
        """Each claim, as given, against ``source`` (a long source's retrieved passages)."""
        doc = self._doc(source)
        analyser = self._analyser(doc.lang)
        caps = capitalised_words(" ".join(claims))
        verdicts = []
        for text in claims:
            claim = analyser.analyse(text, capitalised_elsewhere=caps)
            verdicts.append(self._judge_claim(claim, doc))
        return AlignmentOutput(alignment=verdicts)

    def _best_window(self, claim: Sentence, doc: _Doc) -> tuple[int, int, frozenset[str]]:
        """(start, end exclusive, units found) of the window holding most of the claim."""
        overlaps = [claim.units & s.units for s in doc.sentences]
        best = (0, 0, frozenset())
        best_n = -1
        for size in range(1, self.settings.window + 1):
            for start in range(0, max(0, len(overlaps) - size + 1)):
                found = frozenset().union(*overlaps[start : start + size])
                if len(found) > best_n:
                    best, best_n = (start, start + size, found), len(found)
        return best

    def _judge_claim(self, claim: Sentence, doc: _Doc) -> AlignmentVerdict:
        start, end, found = self._best_window(claim, doc)
        passage = " ".join(s.text for s in doc.sentences[start:end])
        where = f"sentence {start + 1}" if end - start == 1 else f"sentences {start + 1}-{end}"
        problems: list[str] = []

        window_numbers: list[str] = []
        for s in doc.sentences[start:end]:
            window_numbers += [n for n in s.numbers if n not in window_numbers]
        window_values = {w.rstrip("%") for w in window_numbers}
        for n in claim.numbers:
            if n.rstrip("%") in (window_values if self.settings.numbers_in_window else doc.number_values):
                continue
            shown = claim.number_forms[n]
            others = [w for w in window_numbers if w not in claim.numbers]
            same_kind = [w for w in others if w.endswith("%") == n.endswith("%")] or others
            if same_kind:
                form = _form_of(doc.sentences[start:end], same_kind[0])
                problems.append(f"{shown!r} does not occur in the source; it says {form!r}")
            else:
                problems.append(f"{shown!r} does not occur in the source")

        for name in claim.names:
            if name in doc.units:
                continue
            shown = claim.name_forms[name]
            window_names = []
            for s in doc.sentences[start:end]:
                window_names += [s.name_forms[x] for x in s.names if x not in claim.units]
            if window_names:
                problems.append(f"{shown!r} does not occur in the source; the passage names {window_names[0]!r}")
            else:
                problems.append(f"{shown!r} does not occur in the source")

        share = len(found) / claim.content if claim.content else 0.0
        n_missing = claim.content - len(found)
        lenient = claim.content >= self.settings.long_claim and n_missing <= self.settings.allow_missing
        if share < self.settings.support_threshold and not lenient:
            missing = [u for u in claim.units if u not in found and not u.startswith("#")]
            missing_names = {claim.name_forms.get(x, "") for x in claim.names}
            words = sorted({claim.forms.get(u, u) for u in missing} - missing_names)
            if words:
                shown = ", ".join(repr(w) for w in words[:6])
                problems.append(
                    f"the source does not state this: {shown} "
                    f"{'does' if len(words) == 1 else 'do'} not occur in the closest passage "
                    f"({where}: \"{_quote(passage, 100)}\")"
                )
            elif not problems:
                problems.append(f"only {share:.0%} of the claim occurs in the closest passage ({where})")

        if not problems and self.settings.pair_threshold > 0:
            loose = _loose_pairs(claim, doc.sentences[start:end], self.settings.pair_distance)
            pairs = max(1, len(claim.sequence) - 1)
            if len(claim.sequence) > 1 and 1 - len(loose) / pairs < self.settings.pair_threshold:
                shown = ", ".join(f"{claim.forms.get(a, a)!r} with {claim.forms.get(b, b)!r}" for a, b in loose[:3])
                problems.append(
                    f"the words occur in the source ({where}) but not together as the claim puts them: {shown}"
                )

        if not problems and self.settings.bigram_threshold > 0 and claim.bigrams:
            window_bigrams = frozenset().union(*(s.bigrams for s in doc.sentences[start:end]))
            novel = claim.bigrams - window_bigrams
            if 1 - len(novel) / len(claim.bigrams) < self.settings.bigram_threshold:
                problems.append(
                    f"the words occur in the source ({where}) but not in this order: "
                    + ", ".join(repr(" ".join(b)) for b in sorted(novel)[:3])
                )

        if problems:
            return AlignmentVerdict(claim=claim.text, supported=False, reason="; ".join(problems))
        return AlignmentVerdict(
            claim=claim.text, supported=True, reason=f"stated in source {where}: \"{_quote(passage)}\""
        )

    # ---------------------------------------------------------------------------------------------
    # Step B: questions

    def facts(self, source: str, limit: int) -> list[Sentence]:
        """The source's most salient facts, most important first."""
        cfg = self.settings
        doc = self._doc(source)
        analyser = self._analyser(doc.lang)
        caps = capitalised_words(source)
        candidates: list[tuple[int, Sentence]] = []
        for i, s in enumerate(doc.sentences):
            parts = [s]
            if cfg.fact_split == "phrases":
                pieces = split_fact_phrases(s.text, doc.lang, min_words=cfg.min_fact_words)
                if len(pieces) > 1:
                    parts = [analyser.analyse(c, capitalised_elsewhere=caps) for c in pieces]
            elif len(s.text.split()) > cfg.max_fact_words:
                clauses = split_clauses(s.text, doc.lang, min_words=6)
                if len(clauses) > 1:
                    parts = [analyser.analyse(c, capitalised_elsewhere=caps) for c in clauses]
            for p in parts:
                text = p.text.strip()
                if p.content < cfg.min_fact_units or text.endswith(("?", "？")):
                    continue
                candidates.append((i, p))
        if not candidates:
            return []
        df: dict[str, int] = {}
        for s in doc.sentences:
            for u in s.units:
                df[u] = df.get(u, 0) + 1
        n = max(1, len(doc.sentences))
        scored: list[tuple[float, int, Sentence]] = []
        for order, (i, p) in enumerate(candidates):
            position = 1.0 / (1.0 + i)
            centrality = sum(df[u] - 1 for u in p.units if u in df) / (p.content * n)
            entity = min(1.0, (len(p.names) + len(p.numbers)) / 4)
            quoted = 0.5 if p.text.lstrip()[:1] in "'\"“‘`«„" else 1.0
            score = quoted * (
                cfg.position_weight * position + cfg.centrality_weight * centrality * 10 + cfg.entity_weight * entity
            )
            scored.append((score, order, p))
        scored.sort(key=lambda t: (-t[0], t[1]))
        chosen: list[Sentence] = []
        for _, _, p in scored:
            if len(chosen) >= limit:
                break
            if any(len(p.units & c.units) > cfg.redundancy * p.content for c in chosen):
                continue
            chosen.append(p)
        return chosen

    def questions(self, source: str, max_questions: int) -> QuestionsOutput:
        if not source.strip():
            return QuestionsOutput(questions=[])
        lang = self._doc(source).lang
        return QuestionsOutput(
            questions=[phrase_question(f.text, lang) for f in self.facts(source, max(0, max_questions))]
        )

    # ---------------------------------------------------------------------------------------------
    # Step C: coverage

    def cover(self, questions: list[str], summary: str) -> CoverageOutput:
        if not questions:
            return CoverageOutput(coverage=[])
        lang = detect_language(" ".join(questions))
        analyser = self._analyser(lang)
        caps = capitalised_words(summary)
        summary_sentences = [analyser.analyse(s, capitalised_elsewhere=caps) for s in split_sentences(summary)]
        summary_units: frozenset[str] = frozenset().union(*(s.units for s in summary_sentences))
        verdicts = []
        for q in questions:
            fact = analyser.analyse(fact_of_question(q))
            verdicts.append(self._judge_fact(q, fact, summary_units, summary_sentences))
        return CoverageOutput(coverage=verdicts)

    def _judge_fact(
        self, question: str, fact: Sentence, summary_units: frozenset[str], sentences: list[Sentence]
    ) -> CoverageVerdict:
        if not fact.content:
            return CoverageVerdict(question=question, answered=False, reason="the question names no fact to look for")
        found = fact.units & summary_units
        share = len(found) / fact.content
        if share >= self.settings.answer_threshold and sentences:
            best = max(sentences, key=lambda s: len(s.units & fact.units))
            return CoverageVerdict(
                question=question,
                answered=True,
                reason=f"the summary says so ({share:.0%} of the fact): \"{_quote(best.text)}\"",
            )
        missing = sorted({fact.forms.get(u, u) for u in fact.units - found})
        shown = ", ".join(repr(w) for w in missing[:6])
        if not sentences:
            reason = "the summary is empty"
        elif not found:
            reason = "the summary does not mention this fact"
        else:
            reason = f"the summary carries only {share:.0%} of this fact; missing: {shown}"
        return CoverageVerdict(question=question, answered=False, reason=reason)


def _loose_pairs(claim: Sentence, window: list[Sentence], distance: int) -> list[tuple[str, str]]:
    """Neighbouring content units of the claim that no window sentence puts within ``distance``."""
    out: list[tuple[str, str]] = []
    seq = claim.sequence
    for a, b in zip(seq, seq[1:]):
        if a == b:
            continue
        close = False
        for s in window:
            pa, pb = s.positions.get(a), s.positions.get(b)
            if pa and pb and any(abs(x - y) <= distance for x in pa for y in pb):
                close = True
                break
        if not close:
            out.append((a, b))
    return out


def _form_of(sentences: list[Sentence], number: str) -> str:
    for s in sentences:
        if number in s.number_forms:
            return s.number_forms[number]
    return number
