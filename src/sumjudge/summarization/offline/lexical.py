"""``offline/lexical``: a deterministic judge that answers the scorer's three steps by the words
that statements share, weighted by how informative they are.

It reads no prompt. Each request carries typed inputs (source, summary, questions); the judge
answers from them:

- alignment: the summary's sentences, split into statements (:mod:`..language.clauses`), are the claims;
  the rules of :mod:`.rule_list`, in order, decide each one and say why.
- questions: the source's most salient facts, one per question (:mod:`..language.questions`).
- coverage: a question is answered when the summary carries most of the fact's weight and does not
  negate or reverse it.

No model, no network, the same answer every time. It is a quick gate, not a reader.
"""

from __future__ import annotations

from typing import Any

from ...errors import JudgeError
from ...guards.limits import DEFAULT_MAX_QUESTIONS
from ...judges.base import JudgeReply, JudgeRequest, Usage
from ..language import Reading, word_lookups
from ..language.units import Document, Sentence, TextAnalyzer, capitalised_words
from ..language.passages import dangling_pronoun
from ..language.lexicon import CORE, WORDFREQ
from ..language.questions import fact_of_question, phrase_question
from ..verdicts import (
    ALIGNMENT_STEP,
    CLAIMS_STEP,
    COVERAGE_STEP,
    QUESTIONS_STEP,
    AlignmentOutput,
    AlignmentVerdict,
    ClaimsOutput,
    CoverageOutput,
    QuestionsOutput,
)
from .coverage import coverage_gaps, judge_fact, read_summary
from .lexical_settings import LexicalSettings
from .reasons import renumber, whole_source_numbers
from .rule_list import judge_claim

__all__ = ["RULES_VERSION", "LexicalJudge", "LexicalSettings", "fact_of_question", "phrase_question"]


RULES_VERSION = "51.1"
"""The version of the judge's rules and its own word lists: raise it with any change that can move
a verdict, so that a stored run is never resumed with another judge's verdicts. The history of each
version is in the commit log and docs/design-notes.md."""


class LexicalJudge:
    """The offline lexical judge. Safe to share: it keeps only memos of pure functions."""

    cpu_bound = True  # all its work is CPU: `sumjudge score --workers` spreads a batch over processes

    def __init__(self, settings: LexicalSettings | None = None, data: str = CORE) -> None:
        if data not in (CORE, WORDFREQ):
            raise ValueError(f"unknown word data {data!r}: {CORE!r} or {WORDFREQ!r}")
        self.settings = settings or LexicalSettings()
        self.data = data
        """``core`` (the default: only what a plain install has) or ``wordfreq`` (opt-in)."""
        self.reading = Reading(data)
        """What it reads: sentences, claims, passages, key facts."""

    @property
    def model_id(self) -> str:
        return "offline/lexical" if self.data == CORE else "offline/lexical+wordfreq"

    @property
    def judge_version(self) -> str:
        """The version of the rules and of the word data they read."""
        return f"rules {RULES_VERSION}; {word_lookups.data_version(self.data)}"

    @property
    def fingerprint(self) -> str:
        """The judge's identity: its name and the version of its rules and data. Two judges with the
        same fingerprint give the same verdicts (put it in a run's key)."""
        default = self.settings == LexicalSettings()
        return f"{self.model_id}@{RULES_VERSION}+{word_lookups.data_version(self.data)}" + ("" if default else f"+{self.settings!r}")

    async def generate(self, request: JudgeRequest[Any]) -> JudgeReply[Any]:
        return self.answer(request)

    def answer(self, request: JudgeRequest[Any]) -> JudgeReply[Any]:
        """The synchronous core of :meth:`generate` (for scripts and benchmarks)."""
        inputs = request.inputs
        if request.step == ALIGNMENT_STEP and inputs.claims is not None:
            output: Any = self.check(inputs.source or "", inputs.claims, inputs.passage_sentences)
        elif request.step == ALIGNMENT_STEP:
            output = self.align(inputs.source or "", inputs.summary or "")
        elif request.step == CLAIMS_STEP:
            output = self.list_claims(inputs.summary or "")
        elif request.step == QUESTIONS_STEP:
            output = self.questions(inputs.source or "", inputs.max_questions or DEFAULT_MAX_QUESTIONS)
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
    # What the judge reads (shared with every judge: :class:`..language.Reading`)

    def _analyser(self, lang: str) -> TextAnalyzer:
        return self.reading.analyser(lang)

    def _doc(self, source: str) -> Document:
        return self.reading.document(source)

    def claims(self, summary: str, lang: str, names: frozenset[str] = frozenset()) -> list[Sentence]:
        """The summary's clauses (:meth:`..language.Reading.claims`)."""
        return self.reading.claims(summary, lang, names)

    # ---------------------------------------------------------------------------------------------
    # Step A: alignment

    def align(self, source: str, summary: str) -> AlignmentOutput:
        if not summary.strip():
            return AlignmentOutput(alignment=[])
        doc = self._doc(source)
        # a source that opens with a pronoun ("He may not be playing much, but X ...") lets a summary do so
        named = bool(doc.sentences) and dangling_pronoun(doc.sentences[0].text, doc.lang, False, self.data)[0] is not None
        verdicts = []
        for c in self.claims(summary, doc.lang, doc.caps):
            dangling, named = dangling_pronoun(c.text, doc.lang, named, self.data)
            verdicts.append(self._judge_claim(c, doc, dangling))
        return AlignmentOutput(alignment=verdicts)

    def list_claims(self, summary: str) -> ClaimsOutput:
        """The claims :meth:`align` would judge (a long source lists them first, then checks them)."""
        if not summary.strip():
            return ClaimsOutput(claims=[])
        return ClaimsOutput(claims=self.reading.claim_texts(summary))

    def check(
        self, source: str, claims: list[str], passage_sentences: list[tuple[int, int]] | None = None
    ) -> AlignmentOutput:
        """Each claim, as given, against ``source`` (a long source's retrieved passages); with
        ``passage_sentences`` (:attr:`StepInputs.passage_sentences`) reasons number sentences in the
        whole source."""
        doc = self._doc(source)
        analyser = self._analyser(doc.lang)
        caps = capitalised_words(" ".join(claims)) | doc.caps
        verdicts = [self._judge_claim(analyser.analyse(c, capitalised_elsewhere=caps), doc) for c in claims]
        if passage_sentences:
            numbers = whole_source_numbers(source, [s.text for s in doc.sentences], passage_sentences)
            verdicts = [v.model_copy(update={"reason": renumber(v.reason, numbers)}) for v in verdicts]
        return AlignmentOutput(alignment=verdicts)

    def _judge_claim(self, claim: Sentence, doc: Document, opening: str | None = None) -> AlignmentVerdict:
        """The verdict on one claim by the judge's rules, in order (:mod:`.rule_list`)."""
        return judge_claim(claim, doc, self._analyser(doc.lang), self.settings, opening)

    # ---------------------------------------------------------------------------------------------
    # Step B: questions

    def facts(self, source: str, limit: int) -> list[Sentence]:
        """The source's most salient facts, most important first."""
        return self.reading.key_facts(source, limit, self.settings.ranking)

    def questions(self, source: str, max_questions: int) -> QuestionsOutput:
        return QuestionsOutput(questions=self.reading.questions(source, max_questions, self.settings.ranking))

    # ---------------------------------------------------------------------------------------------
    # Step C: coverage

    def cover(self, questions: list[str], summary: str) -> CoverageOutput:
        if not questions:
            return CoverageOutput(coverage=[])
        read = read_summary(self._analyser, questions, summary)
        cfg = self.settings
        unsettled = cfg.unsettled_presence if read.analyser.lang == "en" else cfg.unmeasured_presence
        return CoverageOutput(coverage=[
            judge_fact(q, f, read, cfg.answer_threshold, unsettled, cfg.lone_name_presence)
            for q, f in zip(questions, read.facts)
        ])

    def coverage_gaps(self, questions: list[str], summary: str) -> list[str | None]:
        """For each question, why the summary's words alone show it cannot be answered yes, or
        ``None`` where only reading can tell (:func:`.coverage.coverage_gaps`)."""
        return coverage_gaps(self._analyser, questions, summary)
