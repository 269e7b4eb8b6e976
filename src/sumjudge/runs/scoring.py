"""One item of a batch, scored into its record: the scorer (its judge built once, metered, behind the
reply cache), the guard that turns an item's failure into its recorded error, and the record itself.

Shared by the data set run in one process (:mod:`.dataset`) and by its worker processes (:mod:`.workers`),
so that both score an item the same way and write the same record.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..data.datasets import Row
from ..guards.redact import describe_failure
from ..guards.redact import secrets_of
from ..evals import is_interrupt
from ..judges.base import JudgeModel, JudgeReply, JudgeRequest, OutputT, WrappedJudge
from ..summarization.spec import ScorerSpec
from ..store.records import FailedItem, ItemOutcome, ScoredItem, source_digest

METER_COUNTS = ("calls", "failed_calls", "prompt_tokens", "completion_tokens", "cached_tokens")
"""The :class:`Meter` counters that judge calls add to (a worker sends what its items added)."""


@dataclass
class Meter:
    """Live counters of a data set run, for the progress display."""

    started: float = field(default_factory=time.monotonic)
    done: int = 0
    errors: int = 0
    calls: int = 0
    failed_calls: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cached_tokens: int = 0

    @property
    def tokens(self) -> int:
        return self.prompt_tokens + self.completion_tokens


class MeteredJudge(WrappedJudge):
    """A judge wrapper that counts calls and tokens as they happen (wrap it inside any cache,
    so that only real calls are counted)."""

    def __init__(self, inner: JudgeModel, meter: Meter) -> None:
        super().__init__(inner)
        self.meter = meter

    async def generate(self, request: JudgeRequest[OutputT]) -> JudgeReply[OutputT]:
        try:
            reply = await self.inner.generate(request)
        except Exception:
            self.meter.failed_calls += 1
            raise
        self.meter.calls += 1
        self.meter.prompt_tokens += reply.usage.prompt_tokens
        self.meter.completion_tokens += reply.usage.completion_tokens
        self.meter.cached_tokens += reply.usage.cached_tokens
        return reply


@dataclass(frozen=True)
class _Failure:
    """What the guarded scorer returns for an item that failed (run_evals sees a zero score)."""

    error: str
    score: float = 0.0


class GuardedScorer:
    """Turns an item's failure into a value, so the store records the error text with the item."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.id = inner.id
        self._secrets = _judge_secrets(inner)

    async def run(self, input: Any = None, output: Any = None, *, run_id: str | None = None) -> Any:
        try:
            return await self.inner.run(input=input, output=output)
        except BaseException as exc:  # one failing item must not stop the others
            if is_interrupt(exc):
                raise
            return _Failure(error=describe_failure(exc, self._secrets))


def _judge_secrets(scorer: Any) -> list[str]:
    """What the scorer's judge and the judges it wraps hold (keys, URL credentials, headers), to hide them."""
    return secrets_of(getattr(scorer, "judge", None))


def build_scorer(
    spec: ScorerSpec, *, concurrency: int, timeout: float | None = None, cache: bool | str | None = None,
    meter: Meter | None = None, judge_factory: Callable[[], JudgeModel] | None = None,
    wrap: Callable[[JudgeModel], JudgeModel] | None = None,
) -> Any:
    """The summarization scorer of a batch, made by ``spec`` (:meth:`ScorerSpec.scorer`): its judge built
    once (by ``judge_factory`` when given: a test's, named ``spec.model`` in the store), gathered into
    provider batch rounds by ``wrap`` (``--batch``), metered inside the reply cache (so that only real
    calls are counted)."""

    def batch_and_meter(judge: JudgeModel) -> JudgeModel:
        if wrap is not None:
            judge = wrap(judge)
        return MeteredJudge(judge, meter) if meter is not None else judge

    return spec.scorer(concurrency=concurrency, timeout=timeout, cache=cache, wrap=batch_and_meter,
                       judge=judge_factory() if judge_factory is not None else None)


def outcome_of(row: Row, result: Any) -> ItemOutcome:
    """The record of ``row`` from what the guarded scorer returned: scored, or failed with its error."""
    digest = source_digest(row.source)
    if isinstance(result, _Failure):
        return FailedItem(id=row.id, error=result.error, source_sha256=digest)
    return ScoredItem.from_result(row.id, result, source_sha256=digest)


__all__ = ["METER_COUNTS", "GuardedScorer", "Meter", "MeteredJudge", "build_scorer", "outcome_of"]
