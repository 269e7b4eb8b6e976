"""Score a dataset into the run store: the batch work behind ``sumjudge score``.

Rows stream from the :class:`~sumjudge.datasets.Dataset` through :func:`sumjudge.evals.run_evals`
(which pulls items lazily, ``concurrency`` at a time); each finished item is committed to the
:class:`~sumjudge.store.RunStore` and handed to ``on_record`` (which writes ``--out``) as soon as
it finishes. Items the run already finished are skipped. An item whose judge keeps failing is
recorded with its error; the others go on.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from .compare import source_digest
from .datasets import Dataset
from .errors import describe_failure
from .evals import is_interrupt, run_evals
from .judges.base import JudgeModel, JudgeReply, JudgeRequest, OutputT, WrappedJudge
from .records import FailedItem, ItemOutcome, ScoredItem
from .store import RunRecord, RunStore

RecordCallback = Callable[[ItemOutcome], None]


def item_record(item_id: str, result: Any) -> dict[str, Any]:
    """The ``--out`` line of a scored item, as a dict (``result`` is a ``SummarizationResult``)."""
    return ScoredItem.from_result(item_id, result).as_json()


def failure_record(item_id: str, error: str) -> dict[str, Any]:
    """The ``--out`` line of an item whose evaluation failed, as a dict."""
    return FailedItem(id=item_id, error=error).as_json()


@dataclass
class Meter:
    """Live counters of a batch run, for the progress display."""

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


class _GuardedScorer:
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
    """The API keys configured on the scorer's judge and the judges it wraps (to hide them)."""
    found: list[str] = []
    judge = getattr(scorer, "judge", None)
    while judge is not None:
        config = getattr(judge, "config", None)
        key = getattr(config, "api_key", None)
        if key is not None:
            found.append(key.get_secret_value() if hasattr(key, "get_secret_value") else str(key))
        judge = getattr(judge, "inner", None)
    return found


async def score_dataset(
    dataset: Dataset,
    scorer: Any,
    store: RunStore,
    run: RunRecord,
    *,
    concurrency: int,
    on_record: RecordCallback | None = None,
    meter: Meter | None = None,
) -> None:
    """Score every row of ``dataset`` that ``run`` has not finished; commit each as it finishes."""
    finished = store.finished_ids(run.id)
    guarded = _GuardedScorer(scorer)

    def pending() -> Iterator[dict[str, Any]]:
        for row in dataset.rows():
            if row.id not in finished:
                yield {"input": row.source, "output": row.summary, "row": row}

    async def complete(item: dict[str, Any], _output: Any, results: dict[str, Any]) -> None:
        row = item["row"]
        result = results[guarded.id]
        outcome: ItemOutcome
        digest = source_digest(row.source)
        if isinstance(result, _Failure):
            outcome = FailedItem(id=row.id, error=result.error, source_sha256=digest)
        else:
            outcome = ScoredItem.from_result(row.id, result, source_sha256=digest)
        store.record_item(run.id, row.number, outcome)
        if meter is not None:
            meter.done += 1
            if isinstance(outcome, FailedItem):
                meter.errors += 1
        if on_record is not None:
            on_record(outcome)

    await run_evals(
        pending(), [guarded], concurrency=concurrency, on_item_complete=complete, keep_items=False
    )
