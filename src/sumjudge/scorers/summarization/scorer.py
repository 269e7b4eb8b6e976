"""The summarization scorer: alignment (claims supported by the source) and coverage (source facts
kept by the summary); the score is the lower of the two.

The way of one evaluation: pick source and summary -> ask the judge for alignment (A) and, at
the same time, questions (B, cached per source) followed by coverage (C, from the summary alone;
it waits for B only) -> score from the verdicts -> reason from the verdicts, with no model call.
"""

from __future__ import annotations

import asyncio
import hashlib
import sys
import threading
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, fields
from os import PathLike
from typing import Any

from pydantic import BaseModel, computed_field

from ...errors import ConfigurationError
from ...judges.base import ChatMessage, JudgeModel, JudgeRequest, ModelConfig, StepInputs, Usage
from ...judges.cache import with_cache
from ...judges.registry import DEFAULT_JUDGE_NOTICE, default_chosen_for_user, resolve_judge
from ...messages import SourceExtractor, select_source, select_summary
from ..pipeline import PipelineScorer, RunContext
from . import prompts
from .long_source import LongSource
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

SCORER_ID = "summarization-scorer"
QUESTION_CACHE_SIZE = 4096
"""Sources whose questions a scorer remembers; old ones are dropped first, so memory stays flat."""


@dataclass(frozen=True)
class SummarizationOptions:
    """Options of the summarization scorer (a plain dict with these keys works too)."""

    source: str | None = None
    """The text to judge against (default: the run input's first user message)."""
    source_extractor: SourceExtractor | None = None
    """``callable(input, output) -> str``; wins over ``source``."""
    max_questions: int = 10
    """Upper bound on coverage questions; at least 1."""
    max_claims: int = 100
    """Upper bound on the summary's claims judged; at least 1. A summary with more is judged on its
    first ``max_claims`` claims, and the reason says so."""
    scale: float = 1
    """Multiplies the final score; must be > 0."""

    def __post_init__(self) -> None:
        mq = self.max_questions
        if isinstance(mq, bool) or not isinstance(mq, int) or mq < 1:
            raise ConfigurationError(f"max_questions must be an integer >= 1, got {mq!r}")
        mc = self.max_claims
        if isinstance(mc, bool) or not isinstance(mc, int) or mc < 1:
            raise ConfigurationError(f"max_claims must be an integer >= 1, got {mc!r}")
        sc = self.scale
        if isinstance(sc, bool) or not isinstance(sc, (int, float)) or not sc > 0 or sc == float("inf"):
            raise ConfigurationError(f"scale must be a number > 0, got {sc!r}")
        if self.source is not None and not isinstance(self.source, str):
            raise ConfigurationError(f"source must be a str, got {type(self.source).__name__}")
        if self.source_extractor is not None and not callable(self.source_extractor):
            raise ConfigurationError("source_extractor must be callable(input, output) -> str")

    @classmethod
    def coerce(cls, options: SummarizationOptions | Mapping[str, Any] | None) -> SummarizationOptions:
        if options is None:
            return cls()
        if isinstance(options, cls):
            return options
        if not isinstance(options, Mapping):
            raise ConfigurationError(f"options must be SummarizationOptions or a dict, got {type(options).__name__}")
        aliases = {"sourceExtractor": "source_extractor", "maxQuestions": "max_questions", "maxClaims": "max_claims"}
        known = {f.name for f in fields(cls)}
        kwargs = {aliases.get(k, k): v for k, v in options.items()}
        unknown = sorted(set(kwargs) - known)
        if unknown:
            raise ConfigurationError(f"unknown options {unknown}; known: {sorted(known)}")
        return cls(**kwargs)


class SummarizationPreprocess(BaseModel):
    alignment: list[AlignmentVerdict]
    questions: list[str]


class SummarizationAnalysis(BaseModel):
    coverage: list[CoverageVerdict]


def alignment_ratio(pre: SummarizationPreprocess) -> float:
    """Share of the summary's claims that the source supports (0 when there are none)."""
    claims = pre.alignment
    return sum(v.supported for v in claims) / len(claims) if claims else 0.0


def coverage_ratio(pre: SummarizationPreprocess, ana: SummarizationAnalysis) -> float:
    """Share of the source's questions that the summary answers (0 when there are none)."""
    if not pre.questions:
        return 0.0
    return sum(v.answered for v in ana.coverage) / len(pre.questions)


class SummarizationResult(BaseModel):
    """What one evaluation returns. Axis scores are derived from the verdicts, never stored."""

    run_id: str
    scorer_id: str = SCORER_ID
    model: str
    score: float
    reason: str
    scale: float = 1
    preprocess_step_result: SummarizationPreprocess
    analyze_step_result: SummarizationAnalysis
    usage: Usage

    @computed_field  # type: ignore[prop-decorator]
    @property
    def alignment_score(self) -> float:
        """Share of the summary's claims that the source supports (0 when there are none)."""
        return alignment_ratio(self.preprocess_step_result)

    @computed_field  # type: ignore[prop-decorator]
    @property
    def coverage_score(self) -> float:
        """Share of the source's questions that the summary answers (0 when there are none)."""
        return coverage_ratio(self.preprocess_step_result, self.analyze_step_result)


_QuestionsKey = tuple[str, str, int]


class _QuestionCache:
    """Questions per (source, judge model, max_questions), asked once even by concurrent runs.

    Thread-safe: completed answers are shared by every thread; a request in flight is shared by
    the runs of its own event loop.
    """

    def __init__(self, size: int) -> None:
        self._size = size
        self._done: OrderedDict[_QuestionsKey, list[str]] = OrderedDict()
        self._inflight: dict[tuple[int, _QuestionsKey], asyncio.Future[list[str]]] = {}
        self._lock = threading.Lock()

    async def get(self, key: _QuestionsKey, ask: Callable[[], Awaitable[list[str]]]) -> list[str]:
        loop = asyncio.get_running_loop()
        slot = (id(loop), key)
        with self._lock:
            if key in self._done:
                self._done.move_to_end(key)
                return list(self._done[key])
            pending = self._inflight.get(slot)
            if pending is None:
                pending = self._inflight[slot] = loop.create_future()
                owner = True
            else:
                owner = False
        if not owner:
            return list(await asyncio.shield(pending))
        try:
            questions = await ask()
        except BaseException as exc:
            with self._lock:
                self._inflight.pop(slot, None)
            if isinstance(exc, asyncio.CancelledError):
                pending.cancel()
            else:
                pending.set_exception(exc)
                pending.exception()  # retrieved here, so an unawaited future logs nothing
            raise
        with self._lock:
            self._inflight.pop(slot, None)
            self._done[key] = questions
            while len(self._done) > self._size:
                self._done.popitem(last=False)
        pending.set_result(questions)
        return list(questions)


class SummarizationScorer(PipelineScorer[SummarizationPreprocess, SummarizationAnalysis, SummarizationResult]):
    """Scores a summary against its source. Create it with :func:`create_summarization_scorer`."""

    id = SCORER_ID

    def __init__(self, judge: JudgeModel, options: SummarizationOptions) -> None:
        super().__init__(judge)
        self.options = options
        self._questions = _QuestionCache(QUESTION_CACHE_SIZE)
        self._long = LongSource(judge, options.max_questions, options.max_claims)

    # -- prepare: which text is the source, which the summary
    def prepare(self, ctx: RunContext) -> None:
        ctx.data["source"] = select_source(
            ctx.input, ctx.output, source=self.options.source, source_extractor=self.options.source_extractor
        )
        ctx.data["summary"] = select_summary(ctx.output)

    # -- preprocess: A (alignment) beside B (questions) then C (coverage)
    async def preprocess(self, ctx: RunContext) -> SummarizationPreprocess:
        """A and B at once; C starts as soon as B is known, without waiting for A.

        With the questions cached, A and C run side by side: one round of judge calls.
        C's verdicts are kept in ``ctx.data`` for :meth:`analyze`, the step that reports them.
        """
        source, summary = ctx.data["source"], ctx.data["summary"]
        ctx.data["coverage"] = []
        if not summary.strip() or not source.strip():
            return SummarizationPreprocess(alignment=[], questions=[])  # a clear zero; no calls spent

        async def questions_then_coverage() -> list[str]:
            questions = await self._get_questions(ctx, source)
            if questions:
                ctx.data["coverage"] = await self._ask_coverage(ctx, summary, questions)
            return questions

        alignment, questions = await _all(self._ask_alignment(ctx, source, summary), questions_then_coverage())
        return SummarizationPreprocess(alignment=alignment, questions=questions)

    async def _ask_alignment(self, ctx: RunContext, source: str, summary: str) -> list[AlignmentVerdict]:
        request = JudgeRequest(
            step=ALIGNMENT_STEP,
            messages=prompts.alignment_messages(source, summary),
            output_type=AlignmentOutput,
            inputs=StepInputs(source=source, summary=summary),
        )
        if not self._long.alignment_fits(request, summary):  # the source is longer than the judge's context
            judged = await self._long.align(ctx.ask, source, summary)
            ctx.data["claims_found"] = judged.claims_found
            return judged.verdicts
        reply = await ctx.ask(request)
        verdicts = [v for v in reply.output.alignment if v.claim.strip()]
        ctx.data["claims_found"] = len(verdicts)
        return verdicts[: self.options.max_claims]

    async def _get_questions(self, ctx: RunContext, source: str) -> list[str]:
        max_q = self.options.max_questions
        key = (hashlib.sha256(source.encode()).hexdigest(), self.judge.model_id, max_q)

        async def ask() -> list[str]:
            request = JudgeRequest(
                step=QUESTIONS_STEP,
                messages=prompts.questions_messages(source, max_q),
                output_type=QuestionsOutput,
                inputs=StepInputs(source=source, max_questions=max_q),
            )
            if not self._long.questions_fit(request):  # drawn per part of a long source
                return await self._long.questions(ctx.ask, source)
            reply = await ctx.ask(request)
            kept: list[str] = []
            for q in reply.output.questions:
                q = q.strip()
                if q and q not in kept:
                    kept.append(q)
            return kept[:max_q]  # the cap is the code's, not only the prompt's

        return await self._questions.get(key, ask)

    # -- analyze: C's verdicts, asked from the summary alone during preprocess
    async def analyze(self, ctx: RunContext, pre: SummarizationPreprocess) -> SummarizationAnalysis:
        return SummarizationAnalysis(coverage=ctx.data["coverage"])

    async def _ask_coverage(self, ctx: RunContext, summary: str, questions: list[str]) -> list[CoverageVerdict]:
        messages = prompts.coverage_messages(summary, questions)
        request = JudgeRequest(
            step=COVERAGE_STEP,
            messages=messages,
            output_type=CoverageOutput,
            inputs=StepInputs(summary=summary, questions=questions),
        )
        self._long.check_coverage(request)
        reply = await ctx.ask(request)
        verdicts = reply.output.coverage
        if len(verdicts) != len(questions):  # ask once more, then match by position
            said = reply.raw if reply.raw is not None else reply.output.model_dump_json()
            retry = prompts.COVERAGE_COUNT_RETRY.format(got=len(verdicts), count=len(questions))
            again = JudgeRequest(
                step=COVERAGE_STEP,
                messages=[*messages, ChatMessage(role="assistant", content=said), ChatMessage(role="user", content=retry)],
                output_type=CoverageOutput,
                inputs=request.inputs,
            )
            verdicts = (await ctx.ask(again)).output.coverage
        return _match_by_position(questions, verdicts)

    # -- score and reason, from the verdicts
    def generate_score(self, ctx: RunContext, pre: SummarizationPreprocess, ana: SummarizationAnalysis) -> float:
        if not pre.alignment or not pre.questions:
            return 0.0
        alignment, coverage = alignment_ratio(pre), coverage_ratio(pre, ana)
        return round(min(alignment, coverage) * self.options.scale, 2)

    def generate_reason(
        self, ctx: RunContext, pre: SummarizationPreprocess, ana: SummarizationAnalysis, score: float
    ) -> str:
        reason = _reason(ctx.data["source"], ctx.data["summary"], pre, ana, score)
        found = ctx.data.get("claims_found", 0)
        if found > len(pre.alignment):
            reason += (
                f" Judged on the first {len(pre.alignment)} of the summary's {found} claims"
                f" (max_claims={self.options.max_claims})."
            )
        return reason

    def build_result(
        self, ctx: RunContext, pre: SummarizationPreprocess, ana: SummarizationAnalysis, score: float, reason: str
    ) -> SummarizationResult:
        return SummarizationResult(
            run_id=ctx.run_id,
            model=self.judge.model_id,
            score=score,
            reason=reason,
            scale=self.options.scale,
            preprocess_step_result=pre,
            analyze_step_result=ana,
            usage=ctx.usage,
        )


async def _all(*coros: Awaitable[Any]) -> list[Any]:
    """Run concurrently; when one fails, cancel the others before raising (no orphaned judge calls)."""
    tasks = [asyncio.ensure_future(c) for c in coros]
    try:
        return list(await asyncio.gather(*tasks))
    except BaseException:
        for t in tasks:
            t.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        raise


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


_QUOTED = 5


def _quote(items: list[str]) -> str:
    shown = "; ".join(f'"{s}"' for s in items[:_QUOTED])
    more = len(items) - _QUOTED
    return shown + (f"; and {more} more" if more > 0 else "")


def _reason(source: str, summary: str, pre: SummarizationPreprocess, ana: SummarizationAnalysis, score: float) -> str:
    if not source.strip():
        return "Score 0: the source is empty, so there is nothing to judge the summary against."
    if not summary.strip():
        return "Score 0: the summary is empty, so it makes no claims."
    if not pre.alignment:
        return "Score 0: no claims could be extracted from the summary."
    if not pre.questions:
        return "Score 0: no coverage questions could be drawn from the source."
    alignment, coverage = alignment_ratio(pre), coverage_ratio(pre, ana)
    axes = f"alignment {alignment:.2f}, coverage {coverage:.2f}"
    unsupported = [f"{v.claim}" + (f" ({v.reason})" if v.reason else "") for v in pre.alignment if not v.supported]
    unanswered = [v.question for v in ana.coverage if not v.answered]
    if alignment == coverage == 1:
        return f"Score {score:.2f}: every claim is supported and every question is answered ({axes})."
    parts: list[str] = []
    if alignment < coverage:
        parts.append(f"Score {score:.2f} is set by alignment ({axes}): the summary states what the source does not support.")
    elif coverage < alignment:
        parts.append(f"Score {score:.2f} is set by coverage ({axes}): the summary leaves out facts of the source.")
    else:
        parts.append(f"Score {score:.2f} is set by both axes equally ({axes}).")
    if unsupported:
        parts.append(f"Unsupported claims: {_quote(unsupported)}.")
    if unanswered:
        parts.append(f"Unanswered questions: {_quote(unanswered)}.")
    return " ".join(parts)


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
