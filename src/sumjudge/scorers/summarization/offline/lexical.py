"""``offline/lexical``: a deterministic judge that answers the scorer's three steps by the words
that statements share, weighted by how informative they are.

It reads no prompt. Each request carries typed inputs (source, summary, questions); the judge
answers from them:

- alignment: the summary's sentences, split into statements (:mod:`.clauses`), are the claims;
  :mod:`.support` decides each one and says why.
- questions: the source's most salient facts, one per question (:mod:`.questions`).
- coverage: a question is answered when the summary carries most of the fact's weight and does not
  negate or reverse it.

No model, no network, the same answer every time. It is a quick gate, not a reader.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any

from ....errors import JudgeError
from ....judges.base import JudgeReply, JudgeRequest, Usage
from ..verdicts import (
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
from .analysis import PASSIVE, Document, Sentence, TextAnalyzer, analyse_document, capitalised_words
from .clauses import split_clauses
from .questions import FactRanking, fact_of_question, phrase_question, select_facts
from .segment import detect_language, split_sentences
from .support import (
    Window,
    best_window,
    loose_pairs,
    polarity_conflict,
    quote,
    role_swap,
    same_slot,
    substitutions,
)

__all__ = ["LexicalJudge", "LexicalSettings", "fact_of_question", "phrase_question"]


@dataclass(frozen=True)
class LexicalSettings:
    """The judge's few constants; docs/offline-judge.md says why each has its value."""

    window: int = 2
    """Largest number of consecutive source sentences a claim may draw on."""
    support_threshold: float = 0.9
    """Share of a claim's weight that the window must hold (found or substituted)."""
    pair_threshold: float = 0.6
    """Share of the claim's neighbouring word pairs that must stand close together in the one
    window sentence that holds both (catches words re-combined into a different fact)."""
    pair_distance: int = 4
    answer_threshold: float = 0.6
    """Share of a fact's weight that the summary must hold."""
    ranking: FactRanking = field(default_factory=FactRanking)


class LexicalJudge:
    """The offline lexical judge. Safe to share: it keeps only memos of pure functions."""

    _MAX_DOCS = 256
    cpu_bound = True  # all its work is CPU: `sumjudge score --workers` spreads a batch over processes

    def __init__(self, settings: LexicalSettings | None = None) -> None:
        self.settings = settings or LexicalSettings()
        self._analysers: dict[str, TextAnalyzer] = {}
        self._docs: OrderedDict[str, Document] = OrderedDict()

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

    def _doc(self, source: str) -> Document:
        doc = self._docs.get(source)
        if doc is not None:
            self._docs.move_to_end(source)
            return doc
        lang = detect_language(source)
        doc = analyse_document(source, self._analyser(lang), split_sentences(source))
        self._docs[source] = doc
        if len(self._docs) > self._MAX_DOCS:
            self._docs.popitem(last=False)
        return doc

    # ---------------------------------------------------------------------------------------------
    # Step A: alignment

    def claims(self, summary: str, lang: str, names: frozenset[str] = frozenset()) -> list[Sentence]:
        """The summary's clauses; ``names`` (lower-cased words a source capitalises mid-sentence)
        stay names when a claim opens with one."""
        analyser = self._analyser(lang)
        caps = capitalised_words(summary) | names
        out: list[Sentence] = []
        for sentence in split_sentences(summary):
            for clause in split_clauses(sentence, lang):
                claim = analyser.analyse(clause, capitalised_elsewhere=caps)
                if claim.content:
                    out.append(claim)
        return out

    def align(self, source: str, summary: str) -> AlignmentOutput:
        if not summary.strip():
            return AlignmentOutput(alignment=[])
        doc = self._doc(source)
        return AlignmentOutput(alignment=[self._judge_claim(c, doc) for c in self.claims(summary, doc.lang, doc.caps)])

    def list_claims(self, summary: str) -> ClaimsOutput:
        """The claims :meth:`align` would judge (a long source lists them first, then checks them)."""
        if not summary.strip():
            return ClaimsOutput(claims=[])
        return ClaimsOutput(claims=[c.text for c in self.claims(summary, detect_language(summary))])

    def check(self, source: str, claims: list[str]) -> AlignmentOutput:
        """Each claim, as given, against ``source`` (a long source's retrieved passages)."""
        doc = self._doc(source)
        analyser = self._analyser(doc.lang)
        caps = capitalised_words(" ".join(claims)) | doc.caps
        return AlignmentOutput(
            alignment=[self._judge_claim(analyser.analyse(c, capitalised_elsewhere=caps), doc) for c in claims]
        )

    def _judge_claim(self, claim: Sentence, doc: Document) -> AlignmentVerdict:
        cfg = self.settings
        win = best_window(claim, doc.sentences, cfg.window)
        problems = _strict_problems(claim, doc, win)
        subs = substitutions(claim, win)
        covered = win.found | frozenset(subs)
        share = claim.weight_of(covered) / claim.mass if claim.mass else 0.0
        if share < cfg.support_threshold:
            missing_names = {claim.name_forms.get(x, "") for x in claim.names}
            missing = [u for u in claim.units - covered if not u.startswith("#")]
            words = sorted({claim.forms.get(u, u) for u in missing} - missing_names)
            if words:
                shown = ", ".join(repr(w) for w in words[:6])
                problems.append(
                    f"the source does not state this: {shown} {'does' if len(words) == 1 else 'do'} not occur "
                    f'in the closest passage ({win.where}: "{quote(win.text, 100)}")'
                )
            elif not problems:
                problems.append(f"only {share:.0%} of the claim occurs in the closest passage ({win.where})")
        analyser = self._analyser(doc.lang)
        if not problems:
            for u, x in subs.items():
                if x in analyser.antonyms.get(u, ()):
                    problems.append(
                        f"{claim.forms.get(u, u)!r} contradicts the source's {_form(win, x)!r}: the claim says "
                        f'"{quote(claim.text, 100)}", the source says "{quote(win.text, 100)}" ({win.where})'
                    )
                    break
        if not problems:
            conflict = polarity_conflict(
                claim, list(win.sentences), analyser.antonyms, who="the claim", where=f"the source ({win.where})"
            )
            if conflict:
                problems.append(conflict)
        if not problems:
            swap = role_swap(claim, win, cfg.pair_distance, PASSIVE.get(doc.lang))
            if swap:
                problems.append(swap)
        if not problems and cfg.pair_threshold > 0:
            loose, judged = loose_pairs(claim, win, cfg.pair_distance)
            if judged and 1 - len(loose) / judged < cfg.pair_threshold:
                shown = ", ".join(
                    f"{claim.forms.get(a, a)!r} with {claim.forms.get(b, b)!r}" for a, b in loose[:3]
                )
                problems.append(
                    f"the words occur in the source ({win.where}) but not together as the claim puts them: {shown}"
                )
        if problems:
            return AlignmentVerdict(claim=claim.text, supported=False, reason="; ".join(problems))
        return AlignmentVerdict(
            claim=claim.text, supported=True, reason=f'stated in source {win.where}: "{quote(win.text)}"'
        )

    # ---------------------------------------------------------------------------------------------
    # Step B: questions

    def facts(self, source: str, limit: int) -> list[Sentence]:
        """The source's most salient facts, most important first."""
        doc = self._doc(source)
        return select_facts(doc, self._analyser(doc.lang), limit, self.settings.ranking)

    def questions(self, source: str, max_questions: int) -> QuestionsOutput:
        if not source.strip():
            return QuestionsOutput(questions=[])
        doc = self._doc(source)
        return QuestionsOutput(
            questions=[
                phrase_question(f.text, doc.lang, doc.caps) for f in self.facts(source, max(0, max_questions))
            ]
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
            fact = analyser.analyse(fact_of_question(q), capitalised_elsewhere=caps)
            verdicts.append(self._judge_fact(q, fact, summary_units, summary_sentences, analyser))
        return CoverageOutput(coverage=verdicts)

    def _judge_fact(
        self,
        question: str,
        fact: Sentence,
        summary_units: frozenset[str],
        sentences: list[Sentence],
        analyser: TextAnalyzer,
    ) -> CoverageVerdict:
        if not fact.content:
            return CoverageVerdict(question=question, answered=False, reason="the question names no fact to look for")
        found = fact.units & summary_units
        share = fact.weight_of(found) / fact.mass
        if share >= self.settings.answer_threshold and sentences:
            conflict = polarity_conflict(fact, sentences, analyser.antonyms, who="the source", where="the summary")
            if conflict:
                return CoverageVerdict(question=question, answered=False, reason=f"the summary contradicts it: {conflict}")
            best = max(sentences, key=lambda s: fact.weight_of(s.units & fact.units))
            return CoverageVerdict(
                question=question,
                answered=True,
                reason=f'the summary says so ({share:.0%} of the fact): "{quote(best.text)}"',
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


def _strict_problems(claim: Sentence, doc: Document, win: Window) -> list[str]:
    """Numbers, names and dates of the claim that the source does not have, each named."""
    problems: list[str] = []
    window_numbers: list[str] = []
    for s in win.sentences:
        window_numbers += [n for n in s.numbers if n not in window_numbers]
    for n in claim.numbers:
        if n.rstrip("%") in doc.number_values:
            continue
        shown = claim.number_forms[n]
        others = [w for w in window_numbers if w not in claim.numbers]
        same_kind = [w for w in others if w.endswith("%") == n.endswith("%")] or others
        if same_kind:
            form = _form(win, same_slot(claim, "#" + n, win, ["#" + w for w in same_kind]))
            problems.append(f"{shown!r} does not occur in the source; it says {form!r}")
        else:
            problems.append(f"{shown!r} does not occur in the source")
    for name in claim.names:
        if name in doc.units:
            continue
        shown = claim.name_forms[name]
        window_names = [s.name_forms[x] for s in win.sentences for x in s.names if x not in claim.units]
        if window_names:
            problems.append(f"{shown!r} does not occur in the source; the passage names {window_names[0]!r}")
        else:
            problems.append(f"{shown!r} does not occur in the source")
    return problems


def _form(win: Window, unit: str) -> str:
    for s in win.sentences:
        if unit in s.forms:
            return s.forms[unit]
    return unit.lstrip("#")
