"""A scorer is a fixed pipeline of typed steps: prepare, preprocess, analyze, score, reason.

Subclasses implement the steps; :meth:`PipelineScorer.run` calls them in order and hands the
step results to :meth:`build_result`. Everything that belongs to one evaluation (its inputs, the
judge usage it spent) lives in a :class:`RunContext` created per call, so a scorer instance can be
shared across items, tasks and threads.
"""

from __future__ import annotations

import uuid
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from .._sync import run_sync
from ..integrations.otel import evaluation_span
from ..judges.base import JudgeModel, JudgeReply, JudgeRequest, OutputT, Usage

PreT = TypeVar("PreT")
AnaT = TypeVar("AnaT")
ResultT = TypeVar("ResultT")


@dataclass
class RunContext:
    """One evaluation: what was passed in, and the judge usage it has spent so far."""

    input: Any
    output: Any
    run_id: str
    judge: JudgeModel
    usage: Usage = field(default_factory=Usage)
    data: dict[str, Any] = field(default_factory=dict)
    """What ``prepare`` picked out of input and output (e.g. source and summary)."""

    async def ask(self, request: JudgeRequest[OutputT]) -> JudgeReply[OutputT]:
        """Send one request to the judge and count its usage against this run."""
        reply = await self.judge.generate(request)
        self.usage = self.usage + reply.usage
        return reply


class PipelineScorer(ABC, Generic[PreT, AnaT, ResultT]):
    """Base of every scorer. ``id`` names the scorer in results and batch runs."""

    id: str = "scorer"

    def __init__(self, judge: JudgeModel) -> None:
        self.judge = judge

    async def run(self, input: Any = None, output: Any = None, *, run_id: str | None = None) -> ResultT:
        ctx = RunContext(input=input, output=output, run_id=run_id or uuid.uuid4().hex, judge=self.judge)
        with evaluation_span(self.id, self.judge.model_id, ctx.run_id) as record:  # a no-op without OpenTelemetry
            self.prepare(ctx)
            pre = await self.preprocess(ctx)
            ana = await self.analyze(ctx, pre)
            score = self.generate_score(ctx, pre, ana)
            reason = self.generate_reason(ctx, pre, ana, score)
            result = self.build_result(ctx, pre, ana, score, reason)
            record(result)
        return result

    def run_sync(self, input: Any = None, output: Any = None, *, run_id: str | None = None) -> ResultT:
        """:meth:`run` for scripts; works inside a running event loop too."""
        return run_sync(lambda: self.run(input=input, output=output, run_id=run_id))

    def prepare(self, ctx: RunContext) -> None:  # noqa: B027 - optional step
        """Pick what the steps need out of the run input and output into ``ctx.data``."""

    @abstractmethod
    async def preprocess(self, ctx: RunContext) -> PreT: ...

    @abstractmethod
    async def analyze(self, ctx: RunContext, pre: PreT) -> AnaT: ...

    @abstractmethod
    def generate_score(self, ctx: RunContext, pre: PreT, ana: AnaT) -> float: ...

    @abstractmethod
    def generate_reason(self, ctx: RunContext, pre: PreT, ana: AnaT, score: float) -> str: ...

    @abstractmethod
    def build_result(self, ctx: RunContext, pre: PreT, ana: AnaT, score: float, reason: str) -> ResultT: ...
