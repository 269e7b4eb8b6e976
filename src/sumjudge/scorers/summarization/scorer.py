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
import sys
import uuid
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from os import PathLike
from typing import Any

from ..._aio import gather_or_cancel, run_sync
from ...judges.base import (
    ChatMessage,
    JudgeModel,
    JudgeReply,
    JudgeRequest,
    ModelConfig,
    OutputT,
    ReplyBounds,
    StepInputs,
    Usage,
)
from ...judges.cache import with_cache
from ...judges.registry import DEFAULT_JUDGE_NOTICE, default_chosen_for_user, resolve_judge
from ...messages import select_source, select_summary
from ...tracing import evaluation_span, traced
from . import prompts
from .asked import stray_error, stray_feedback, strays
from .long_source import LongSource
from .options import SummarizationOptions
from .questions_cache import QuestionCache
from .reason import explain
from .result import (
    SCORER_ID,
    SummarizationAnalysis,
    SummarizationPreprocess,
    SummarizationResult,
    final_score,
)
from .samples import combine
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


class SummarizationScorer:
    """Scores a summary against its source. Create it with :func:`create_summarization_scorer`.

    Meets :class:`sumjudge.evals.Scorer` (``id`` and ``run``), the one scorer interface.
    """

    id = SCORER_ID

    def __init__(self, judge: JudgeModel, options: SummarizationOptions) -> None:
        self.judge = judge
        self._traced_judge = traced(judge)  # one span per judge call while OpenTelemetry is in use
        self.options = options
        self._questions = QuestionCache()
        self._long = LongSource(judge, options.max_questions, options.max_claims)

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
        source = select_source(input, output, source=self.options.source, source_extractor=self.options.source_extractor)
        summary = select_summary(output)
        k = self.options.samples
        if k == 1:
            return await self._evaluate(Evaluation(run_id=run_id, source=source, summary=summary))
        temperature = self._sample_temperature()
        results = await gather_or_cancel(
            *(
                self._evaluate(
                    Evaluation(run_id=run_id, source=source, summary=summary, sample=i, temperature=temperature)
                )
                for i in range(k)
            )
        )
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
        pre = SummarizationPreprocess(alignment=alignment, questions=questions)
        ana = SummarizationAnalysis(coverage=coverage)
        score = final_score(pre, ana, self.options.scale)
        return SummarizationResult(
            run_id=ev.run_id,
            model=self.judge.model_id,
            score=score,
            reason=explain(ev.source, ev.summary, pre, ana, score) + _cut_note(ev, pre, self.options.max_claims),
            scale=self.options.scale,
            preprocess_step_result=pre,
            analyze_step_result=ana,
            usage=ev.usage,
        )

    def run_sync(self, input: Any = None, output: Any = None, *, run_id: str | None = None) -> SummarizationResult:
        """:meth:`run` for scripts; works inside a running event loop too."""
        return run_sync(lambda: self.run(input=input, output=output, run_id=run_id))

    # -- A: which claims of the summary the source supports

    async def _alignment(self, ev: Evaluation) -> list[AlignmentVerdict]:
        request = JudgeRequest(
            step=ALIGNMENT_STEP,
            messages=prompts.alignment_messages(ev.source, ev.summary),
            output_type=AlignmentOutput,
            inputs=StepInputs(source=ev.source, summary=ev.summary),
            # source and summary are not blank, so there is at least one claim to write: without
            # this floor a grammar-bound weak model takes the shortest way out, [].
            bounds=ReplyBounds(min_items=1),
            reply_tokens=self._long.alignment_room(ev.summary),
        )
        if not self._long.alignment_fits(request, ev.summary):  # longer than the judge's context
            judged = await self._long.align(lambda r: self._ask(ev, r), ev.source, ev.summary)
            ev.claims_found = judged.claims_found
            return judged.verdicts
        reply = await self._ask(ev, request)
        verdicts = [v for v in reply.output.alignment if v.claim.strip()]
        ev.claims_found = len(verdicts)
        return verdicts[: self.options.max_claims]

    # -- B then C: the source's questions (cached), then which of them the summary answers

    async def _questions_then_coverage(self, ev: Evaluation) -> tuple[list[str], list[CoverageVerdict]]:
        questions = await self._source_questions(ev)
        coverage = await self._coverage(ev, questions) if questions else []
        return questions, coverage

    async def _source_questions(self, ev: Evaluation) -> list[str]:
        max_q = self.options.max_questions
        key = (hashlib.sha256(ev.source.encode()).hexdigest(), self.judge.model_id, max_q, ev.sample, ev.temperature)

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
                return await self._long.questions(lambda r: self._ask(ev, r), ev.source)
            reply = await self._ask(ev, request)
            kept: list[str] = []
            for q in reply.output.questions:
                q = q.strip()
                if q and q not in kept:
                    kept.append(q)
            return kept[:max_q]  # the cap is the code's, not only the prompt's

        return await self._questions.get(key, ask)

    async def _coverage(self, ev: Evaluation, questions: list[str]) -> list[CoverageVerdict]:
        """C sees the summary and the questions, never the source; a wrong count is asked once more."""
        messages = prompts.coverage_messages(ev.summary, questions)
        request = JudgeRequest(
            step=COVERAGE_STEP,
            messages=messages,
            output_type=CoverageOutput,
            inputs=StepInputs(summary=ev.summary, questions=questions),
            bounds=ReplyBounds.exactly(len(questions)),  # one verdict per question
            reply_tokens=self._long.coverage_room(len(questions)),
        )
        self._long.check_coverage(request)  # never sent over the judge's context: fails naming the sizes
        reply = await self._ask(ev, request)
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
                verdicts = (await self._ask(ev, again)).output.coverage
                stray = strays(questions, [v.question for v in verdicts])
            if stray:  # asked again, or no room to: the step fails, the item is recorded as failed
                raise stray_error(COVERAGE_STEP, questions, [v.question for v in verdicts], stray, "question")
        return _match_by_position(questions, verdicts)

    async def _ask(self, ev: Evaluation, request: JudgeRequest[OutputT]) -> JudgeReply[OutputT]:
        """Send one request to the judge and count its usage against this evaluation."""
        if ev.sample or ev.temperature is not None:
            request = replace(request, sample=ev.sample, temperature=ev.temperature)
        reply = await self._traced_judge.generate(request)  # the judge itself without OpenTelemetry
        ev.usage = ev.usage + reply.usage
        return reply


def _cut_note(ev: Evaluation, pre: SummarizationPreprocess, max_claims: int) -> str:
    if ev.claims_found <= len(pre.alignment):
        return ""
    return f" Judged on the first {len(pre.alignment)} of the summary's {ev.claims_found} claims (max_claims={max_claims})."


def _match_by_position(questions: list[str], verdicts: list[CoverageVerdict]) -> list[CoverageVerdict]:
    """One verdict per question asked: extra verdicts dropped, a missing one counts as unanswered."""
    matched: list[CoverageVerdict] = []
    for i, question in enumerate(questions):
        if i < len(verdicts):
            v = verdicts[i]
            matched.append(CoverageVerdict(question=question, answered=v.answered, reason=v.reason))
        else:
            matched.append(CoverageVerdict(question=question, answered=False, reason="The judge returned no verdict."))
    return matched


def create_summarization_scorer(
    model: str | ModelConfig | JudgeModel | None = None,
    options: SummarizationOptions | Mapping[str, Any] | None = None,
    *,
    cache: bool | str | PathLike[str] | None = None,
) -> SummarizationScorer:
    """Create a summarization scorer.

    ``model`` is ``"provider/model"``, a :class:`ModelConfig`, or a judge object; omitted, it is
    ``SUMJUDGE_MODEL`` or else the offline lexical judge (said once on standard error).
    Options are checked here: ``max_questions < 1`` or ``scale <= 0`` raise ``ValueError``.
    ``cache``: ``True`` keeps judge replies in ``.sumjudge/cache.db`` (or give a path), so
    re-running an evaluation costs no calls and gives the same verdicts.
    """
    opts = SummarizationOptions.coerce(options)
    judge = with_cache(resolve_judge(model), cache)
    if default_chosen_for_user(model):
        print(DEFAULT_JUDGE_NOTICE, file=sys.stderr)
    return SummarizationScorer(judge, opts)
