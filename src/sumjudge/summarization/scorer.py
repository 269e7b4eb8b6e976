"""The summarization scorer: alignment (claims supported by the source) and coverage (source facts
kept by the summary); the score is the lower of the two.

:meth:`SummarizationScorer.run` reads like the spec, top to bottom: pick source and summary ->
ask the judge for alignment (A) and, at the same time, questions (B, cached per source) followed
by coverage (C, from the summary alone; it waits for B only) -> score from the verdicts -> reason
from the verdicts, with no model call -> one :class:`SummarizationResult`. Everything one
evaluation owns (its texts, the usage it spent) lives in an :class:`Evaluation` made per call, so
one scorer is safe to share across items, tasks and threads.
"""

from __future__ import annotations

import hashlib
import uuid
from dataclasses import dataclass, field, replace
from typing import Any, Literal

from .._aio import gather_or_cancel, run_sync
from ..judges.base import (
    ChatMessage,
    JudgeModel,
    JudgeReply,
    JudgeRequest,
    ModelConfig,
    OutputT,
    ReplyBounds,
    StepInputs,
    Usage,
    judge_identity,
)
from ..judges.structured import redacted_output
from ..data.text_in import as_read
from ..messages import select_source, select_summary
from ..guards.redact import redact, secrets_of, shaped_secrets
from ..tracing import evaluation_span, traced
from . import prompts
from .stray_verdicts import stray_error, stray_feedback, strays
from .own_claims import summary_claims
from .long_source import LongSource
from .options import SummarizationOptions
from .question_text import drawn_questions
from .questions_cache import QuestionCache
from .quotes import verify_alignment, verify_coverage
from .reason import explain
from .result import (
    SCORER_ID,
    SummarizationAnalysis,
    SummarizationPreprocess,
    SummarizationResult,
    final_score,
)
from .unsupported_answers import answers_on_unsupported_claims
from .verdicts import (
    ALIGNMENT_STEP,
    COVERAGE_STEP,
    QUESTIONS_STEP,
    AlignmentOutput,
    AlignmentVerdict,
    CoverageOutput,
    CoverageVerdict,
    QuestionsOutput,
)


@dataclass
class Evaluation:
    """One evaluation in flight: the texts it judges and the judge usage it has spent so far.

    With repeated samples each sample is its own evaluation: ``sample`` (its index) and
    ``temperature`` go on every request it sends, so its replies and questions are its own.
    """

    run_id: str
    source: str
    summary: str
    usage: Usage = field(default_factory=Usage)
    sample: int = 0
    temperature: float | None = None
    claims_found: int = 0
    """Claims the judge found in the summary; more than were judged when ``max_claims`` cut them."""
    draw: int | None = None
    """Which draw of the questions this sample sits (``question_draws``); ``None``: its own (``sample``)."""
    secrets: tuple[str, ...] = ()
    """Keys in the source and summary, and the parts a judge may cut them into
    (:func:`~sumjudge.guards.redact.shaped_secrets`): hidden in every text of the result, reasons included."""


class SummarizationScorer:
    """Scores a summary against its source. Create it with :func:`create_summarization_scorer`.

    Meets :class:`sumjudge.evals.Scorer` (``id`` and ``run``), the one scorer interface.
    """

    id = SCORER_ID

    def __init__(self, judge: JudgeModel, options: SummarizationOptions) -> None:
        if options.calibration is not None:  # fitted for another judge: refused before any call
            options.calibration.check_judge(judge.model_id)
        self.judge = judge
        self._traced_judge = traced(judge)  # one span per judge call while OpenTelemetry is in use
        self.options = options
        self._questions = QuestionCache()
        self._long = LongSource(judge, options.max_questions, options.max_claims)
        self._secrets = secrets_of(judge)

    @property
    def identity(self) -> str:
        """What this scorer's verdicts depend on: the judge's identity
        (:func:`~sumjudge.judges.base.judge_identity`) and the prompts' version
        (:data:`~.prompts.PROMPT_VERSION`). A data set run is keyed on it, so a run asked by other
        prompts is never resumed."""
        return f"{judge_identity(self.judge)}+prompts={prompts.PROMPT_VERSION}"

    async def run(self, input: Any = None, output: Any = None, *, run_id: str | None = None) -> SummarizationResult:
        """Score one summary (``output``) against its source (from ``input`` or the options).

        With ``samples=k`` above 1, k independent evaluations run side by side and
        :func:`~.samples.combine` makes one :class:`~.samples.SampledSummarizationResult` of them.
        """
        run_id = run_id or uuid.uuid4().hex
        with evaluation_span(self.id, self.judge.model_id, run_id) as record:  # a no-op without OpenTelemetry
            result = await self._run(input, output, run_id)
            record(result)
        return result

    async def _run(self, input: Any, output: Any, run_id: str) -> SummarizationResult:
        # the texts as read, once where they come in: NFC, an HTML page or a Markdown table as its text
        source = as_read(select_source(input, output, source=self.options.source,
                                       source_extractor=self.options.source_extractor))
        summary = as_read(select_summary(output))
        shaped = tuple(shaped_secrets(source, summary))
        k = self.options.samples
        if k == 1:
            return await self._evaluate(Evaluation(run_id=run_id, source=source, summary=summary, secrets=shaped))
        temperature = self._sample_temperature()
        draws = self.options.question_draws  # samples share draws of the questions: the spread can be split
        results = await gather_or_cancel(
            *(
                self._evaluate(
                    Evaluation(run_id=run_id, source=source, summary=summary, sample=i, temperature=temperature,
                               draw=i % draws if draws else None, secrets=shaped)
                )
                for i in range(k)
            )
        )
        from .samples import combine  # repeated samples only

        return combine(results, self.options.reducer)

    def _sample_temperature(self) -> float | None:
        """Samples of a judge set to temperature 0 are drawn at ``sample_temperature``; a judge set
        above 0 keeps its own."""
        config = getattr(self.judge, "config", None)
        if isinstance(config, ModelConfig) and config.temperature > 0:
            return None
        return float(self.options.sample_temperature)

    async def _evaluate(self, ev: Evaluation) -> SummarizationResult:
        """One evaluation: A beside B-then-C, then the score and reason from the verdicts."""
        alignment: list[AlignmentVerdict] = []
        questions: list[str] = []
        coverage: list[CoverageVerdict] = []
        if ev.source.strip() and ev.summary.strip():  # else a clear zero; no calls spent
            # A beside B-then-C: with the questions cached, A and C run side by side (one round).
            alignment, (questions, coverage) = await gather_or_cancel(
                self._alignment(ev), self._questions_then_coverage(ev)
            )
        # every quote located in the texts as they are (where it lies, whether it holds its verdict up:
        # quotes.py), then the verdicts' secrets hidden
        secrets = (*self._secrets, *ev.secrets)
        alignment = [redacted_output(verify_alignment(v, ev.source, ev.summary), secrets) for v in alignment]
        coverage = [redacted_output(verify_coverage(v, ev.summary), secrets) for v in coverage]
        questions = [redact(q, secrets) for q in questions]
        strict = self.options.strict_evidence
        if strict:
            alignment, coverage = [_strict_claim(v) for v in alignment], [_strict_answer(v) for v in coverage]
        calibrated = ""
        if (cal := self.options.calibration) is not None:
            alignment, coverage, changed = cal.redecide(alignment, coverage)
            calibrated = f" Calibrated by {cal.short}: {changed} verdict(s) re-decided."
        # an answer whose only evidence is a claim the source does not support does not count
        coverage = answers_on_unsupported_claims(alignment, coverage, ev.summary, ev.source)
        pre = SummarizationPreprocess(alignment=alignment, questions=questions)
        ana = SummarizationAnalysis(coverage=coverage)
        graded = self.options.graded
        score = final_score(pre, ana, self.options.scale, graded)
        return SummarizationResult(
            run_id=ev.run_id,
            model=self.judge.model_id,
            score=score,
            reason=redact(explain(ev.source, ev.summary, pre, ana, score, graded)
                          + _cut_note(ev, pre, self.options.max_claims) + (_strict_note(pre, ana) if strict else "")
                          + calibrated,
                          secrets),
            scale=self.options.scale,
            graded=graded,
            preprocess_step_result=pre,
            analyze_step_result=ana,
            usage=ev.usage,
            strict_evidence=strict,
        )

    def run_sync(self, input: Any = None, output: Any = None, *, run_id: str | None = None) -> SummarizationResult:
        """:meth:`run` for scripts; works inside a running event loop too."""
        return run_sync(lambda: self.run(input=input, output=output, run_id=run_id))

    def _examples(self, step: Literal["alignment", "coverage"]) -> str:
        """The calibration's examples of ``step`` for the prompt (``""`` without any)."""
        cal = self.options.calibration
        if cal is None:
            return ""
        from .calibration import Calibration

        return cal.examples_text(step) if isinstance(cal, Calibration) else ""

    # -- A: which claims of the summary the source supports

    async def _alignment(self, ev: Evaluation) -> list[AlignmentVerdict]:
        request = JudgeRequest(
            step=ALIGNMENT_STEP,
            messages=prompts.alignment_messages(ev.source, ev.summary, self._examples("alignment")),
            output_type=AlignmentOutput,
            inputs=StepInputs(source=ev.source, summary=ev.summary),
            # source and summary are not blank, so there is at least one claim to write: without
            # this floor a grammar-bound weak model takes the shortest way out, [].
            bounds=ReplyBounds(min_items=1),
            reply_tokens=self._long.alignment_room(ev.summary),
        )
        if not self._long.alignment_fits(request, ev.summary):  # longer than the judge's context
            judged = await self._long.align(lambda r: self._ask(ev, r, hide=False), ev.source, ev.summary)
            ev.claims_found = judged.claims_found
            return judged.verdicts
        reply = await self._ask(ev, request, hide=False)  # secrets hidden once the quotes are located
        summaries = (ev.summary, redact(ev.summary, self._secrets))
        reply = await summary_claims(lambda r: self._ask(ev, r, hide=False), request, reply, summaries)
        # evidence spans are the scorer's (a long source's passages): a judge that sets them is not believed
        verdicts = [v if v.evidence is None else v.model_copy(update={"evidence": None})
                    for v in reply.output.alignment if v.claim.strip()]
        ev.claims_found = len(verdicts)
        return verdicts[: self.options.max_claims]

    # -- B then C: the source's questions (cached), then which of them the summary answers

    async def _questions_then_coverage(self, ev: Evaluation) -> tuple[list[str], list[CoverageVerdict]]:
        questions = await self._source_questions(ev)
        coverage = await self._coverage(ev, questions) if questions else []
        return questions, coverage

    async def _source_questions(self, ev: Evaluation) -> list[str]:
        exam = self.options.questions
        if exam is not None:  # a kept exam: its questions, never drawn again (else refused, or drawn)
            kept = exam.questions_for(ev.source, draw_missing=self.options.draw_missing)  # type: ignore[union-attr]
            if kept is not None:
                return kept[: self.options.max_questions]  # max_questions holds with an exam too
        return await self.draw_questions(ev)

    async def questions_for(self, source: str, *, sample: int = 0) -> tuple[list[str], Usage]:
        """The questions the judge draws for ``source`` (step B alone), and what drawing them cost:
        what ``sumjudge questions`` keeps as an exam. ``sample``: which sample's draw (the exam's seed)."""
        ev = Evaluation(run_id=uuid.uuid4().hex, source=source, summary="", sample=sample,
                        temperature=self._sample_temperature() if sample else None,
                        secrets=tuple(shaped_secrets(source)))
        return (await self.draw_questions(ev) if source.strip() else []), ev.usage

    async def draw_questions(self, ev: Evaluation) -> list[str]:
        """Step B: the judge's questions about the source (cached per source for the scorer's lifetime)."""
        max_q = self.options.max_questions
        draw = ev.sample if ev.draw is None else ev.draw
        key = (hashlib.sha256(ev.source.encode()).hexdigest(), self.judge.model_id, max_q, draw, ev.temperature)

        async def ask() -> list[str]:
            request = JudgeRequest(
                step=QUESTIONS_STEP,
                messages=prompts.questions_messages(ev.source, max_q),
                output_type=QuestionsOutput,
                inputs=StepInputs(source=ev.source, max_questions=max_q),
                bounds=ReplyBounds(min_items=1, max_items=max_q),
                reply_tokens=self._long.questions_room(),
            )
            if not self._long.questions_fit(request):  # drawn per part of a long source
                said = await self._long.questions(lambda r: self._ask(ev, r, sample=draw), ev.source)
            else:
                said = (await self._ask(ev, request, sample=draw)).output.questions
            # cleaned (NUL, ESC, zero-width), cut, without blanks or repeats; the cap is the code's, not only the prompt's
            return drawn_questions(said, max_q)

        return await self._questions.get(key, ask)

    async def _coverage(self, ev: Evaluation, questions: list[str]) -> list[CoverageVerdict]:
        """C sees the summary and the questions, never the source; a wrong count is asked once more."""
        messages = prompts.coverage_messages(ev.summary, questions, self._examples("coverage"))
        request = JudgeRequest(
            step=COVERAGE_STEP,
            messages=messages,
            output_type=CoverageOutput,
            inputs=StepInputs(summary=ev.summary, questions=questions),
            bounds=ReplyBounds.echoing(questions, "question"),  # one verdict per question, naming it
            reply_tokens=self._long.coverage_room(len(questions)),
        )
        self._long.check_coverage(request)  # never sent over the judge's context: fails naming the sizes
        reply = await self._ask(ev, request, hide=False)  # secrets hidden once the quotes are located
        verdicts = reply.output.coverage
        stray = strays(questions, [v.question for v in verdicts])  # verdicts about questions not asked
        if len(verdicts) != len(questions) or stray:  # ask once more (when it fits the window)
            said = reply.raw if reply.raw is not None else reply.output.model_dump_json()
            told = [prompts.COVERAGE_COUNT_RETRY.format(got=len(verdicts), count=len(questions))] if len(
                verdicts) != len(questions) else []
            if stray:
                told.append(stray_feedback(questions, [v.question for v in verdicts], stray, "question"))
            again = replace(
                request,
                messages=[*messages, ChatMessage(role="assistant", content=said),
                          ChatMessage(role="user", content="\n".join(told))],
            )
            if self._long.coverage_fits(again):
                verdicts = (await self._ask(ev, again, hide=False)).output.coverage
                stray = strays(questions, [v.question for v in verdicts])
            if stray:  # asked again, or no room to: the step fails, the item is recorded as failed
                raise stray_error(COVERAGE_STEP, questions, [v.question for v in verdicts], stray, "question")
        return _match_by_position(questions, verdicts)

    async def _ask(
        self, ev: Evaluation, request: JudgeRequest[OutputT], *, sample: int | None = None, hide: bool = True
    ) -> JudgeReply[OutputT]:
        """Send one request to the judge and count its usage against this evaluation (``sample``: the
        draw the request belongs to, where not the evaluation's own: questions shared by samples).
        ``hide=False``: the reply's secrets are left for :meth:`_evaluate` to hide once its quotes are
        located in the texts as they are (a key hidden first would leave a faithful quote unfound)."""
        sample = ev.sample if sample is None else sample
        if sample or ev.temperature is not None:
            request = replace(request, sample=sample, temperature=ev.temperature)
        reply = await self._traced_judge.generate(request)  # the judge itself without OpenTelemetry
        ev.usage = ev.usage + reply.usage
        # every judge's texts with the secrets hidden (an offline judge copies claims from the summary, a
        # key in it too), before anything stores or shows them; then the verdicts' probabilities, where
        # the judge returned token logprobs
        hidden = redacted_output(reply.output, (*self._secrets, *ev.secrets)) if hide else reply.output
        reply = reply if hidden is reply.output else replace(reply, output=hidden)
        if reply.logprobs is None:  # nothing to read probabilities from (every offline judge)
            return reply
        from .probabilities import with_probabilities

        return with_probabilities(reply)


def _cut_note(ev: Evaluation, pre: SummarizationPreprocess, max_claims: int) -> str:
    if ev.claims_found <= len(pre.alignment):
        return ""
    return f" Judged on the first {len(pre.alignment)} of the summary's {ev.claims_found} claims (max_claims={max_claims})."


def _match_by_position(questions: list[str], verdicts: list[CoverageVerdict]) -> list[CoverageVerdict]:
    """One verdict per question asked: extra verdicts dropped, a missing one counts as unanswered."""
    matched: list[CoverageVerdict] = []
    for i, question in enumerate(questions):
        if i < len(verdicts):
            matched.append(verdicts[i].model_copy(update={"question": question}))
        else:
            matched.append(CoverageVerdict(question=question, answered=False, reason="The judge returned no verdict."))
    return matched


def _strict_claim(v: AlignmentVerdict) -> AlignmentVerdict:
    """``strict_evidence``: a supported claim whose quote does not hold it up counts as unsupported."""
    if v.supported and v.verified is False:
        return v.model_copy(update={"supported": False, "reason": f"{_UNVERIFIED} supported: {v.reason}"})
    return v


def _strict_answer(v: CoverageVerdict) -> CoverageVerdict:
    """``strict_evidence``: an answered question whose quote does not hold it up counts as unanswered."""
    if v.answered and v.verified is False:
        return v.model_copy(update={"answered": False, "reason": f"{_UNVERIFIED} answered: {v.reason}"})
    return v


_UNVERIFIED = "[unverified, counted against: strict evidence] the judge said"


def _strict_note(pre: SummarizationPreprocess, ana: SummarizationAnalysis) -> str:
    flipped = sum(v.reason.startswith(_UNVERIFIED) for v in [*pre.alignment, *ana.coverage])
    return f" Strict evidence: {flipped} unverified verdict(s) counted as unsupported or unanswered."
