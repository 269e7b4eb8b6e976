"""``run_evals``: score many items with one or more scorers, a bounded number at a time.

Items are pulled from the data as workers free up (a generator or async iterator is read
lazily, so memory stays flat however long the data is).
"""

from __future__ import annotations

import asyncio
import inspect
from collections.abc import AsyncIterable, Callable, Iterable, Mapping
from typing import TYPE_CHECKING, Any, Literal, Protocol

from pydantic import BaseModel, ConfigDict, Field

from ._aio import gather_or_cancel, run_sync
from .errors import ConfigurationError, InputError
from .guards.limits import MAX_ITEMS_IN_FLIGHT
from .guards.redact import describe_failure
from .figures.stats import MeanEstimate
from .data.tables import result_row, rows_frame, table_items

if TYPE_CHECKING:
    from .summarization.item_gates import ItemGates


class Scorer(Protocol):
    """The one scorer interface: what ``run_evals``, the data set tool and every integration need of a scorer.

    ``run`` scores one item and returns a result with a numeric ``score`` (a
    :class:`~sumjudge.SummarizationResult` for the built-in scorer); ``id`` names the scorer in
    results and batch runs. A scorer holds no per-evaluation state, so one instance serves many
    items at once.
    """

    id: str

    async def run(self, input: Any = None, output: Any = None, *, run_id: str | None = None) -> Any: ...


Item = Mapping[str, Any]
Target = Callable[[Any], Any]
"""Turns an item's ``input`` into the output to score; sync or async."""
OnItemComplete = Callable[[Item, Any, dict[str, Any]], Any]
"""``(item, target_result, scorer_results)``; sync or async; results keyed by scorer id."""


class ItemResult(BaseModel):
    model_config = ConfigDict(arbitrary_types_allowed=True)

    index: int
    item: Any
    output: Any = None
    results: dict[str, Any] = Field(default_factory=dict)
    error: str | None = None
    gate_failures: dict[str, list[str]] = Field(default_factory=dict)
    """Per scorer id, the gates its result broke (``run_evals(gates=...)``), each naming what broke it."""


class EvalSummary(BaseModel):
    total_items: int = 0
    failed_items: int = 0
    gate_breaks: dict[str, int] = Field(default_factory=dict)
    """With ``gates``: per gate that is on (``max_unsupported``, ...), the items whose result broke it."""

    @property
    def gates_passed(self) -> bool:
        """No item failed and no item broke a gate."""
        return self.failed_items == 0 and not any(self.gate_breaks.values())


class EvalResult(BaseModel):
    model_config = ConfigDict(arbitrary_types_allowed=True)

    scores: dict[str, float] = Field(default_factory=dict)
    """Mean score per scorer id, over the items that scored."""
    intervals: dict[str, dict[str, MeanEstimate]] = Field(default_factory=dict)
    """Per scorer id, the mean of ``score`` (and of ``alignment_score`` and ``coverage_score`` when
    the scorer's results carry them) with its 95% bootstrap confidence interval, items resampled
    (seeded: the same results give the same interval). Filled when items are kept (the default)."""
    summary: EvalSummary = Field(default_factory=EvalSummary)
    items: list[ItemResult] = Field(default_factory=list)

    def to_pandas(self, scorer_id: str | None = None) -> Any:
        """One row per item (needs the ``pandas`` extra): id, score, both axes, reason, counts of
        claims and questions, tokens, error, and the verdicts in nested columns.

        The id is the item's ``id`` when it has one, else its position. With several scorers,
        ``scorer_id`` names the one whose results make the rows.
        """
        sid = self._scorer_id(scorer_id)
        rows = []
        for done in self.items:
            item_id = done.item.get("id", done.index) if isinstance(done.item, Mapping) else done.index
            result = done.results.get(sid)
            rows.append(result_row(item_id, None if done.error else result, error=done.error))
        return rows_frame(rows)

    def _scorer_id(self, scorer_id: str | None) -> str:
        known = list(self.scores)
        if scorer_id is None:
            if len(known) != 1:
                raise ConfigurationError(f"this result holds several scorers {known}: pass scorer_id")
            return known[0]
        if scorer_id not in known:
            raise ConfigurationError(f"no scorer {scorer_id!r} in this result; it has {known}")
        return scorer_id


async def _aiter(data: Iterable[Item] | AsyncIterable[Item]) -> Any:
    if isinstance(data, AsyncIterable):
        async for item in data:
            yield item
    else:
        for item in data:
            yield item


def is_interrupt(exc: BaseException) -> bool:
    """Whether ``exc`` stops the whole run rather than failing one item.

    A ``CancelledError`` is an interrupt only when the running task itself was asked to stop;
    one that escapes from inside an item (a call it shared with another item was cancelled) is
    that item's failure. Python 3.10 cannot tell the two apart and treats both as interrupts.
    """
    if isinstance(exc, asyncio.CancelledError):
        task = asyncio.current_task()
        cancelling = getattr(task, "cancelling", None)
        return cancelling is None or cancelling() > 0
    return not isinstance(exc, Exception)


async def _call(fn: Callable[..., Any], *args: Any) -> Any:
    if inspect.iscoroutinefunction(fn):
        return await fn(*args)
    result = await asyncio.to_thread(fn, *args)
    if inspect.isawaitable(result):
        return await result
    return result


async def run_evals(
    data: Iterable[Item] | AsyncIterable[Item],
    scorers: list[Scorer],
    target: Target | None = None,
    concurrency: int = 8,
    on_item_complete: OnItemComplete | None = None,
    *,
    on_error: Literal["raise", "record"] = "raise",
    keep_items: bool = True,
    gates: ItemGates | None = None,
) -> EvalResult:
    """Score every item with every scorer, ``concurrency`` items at a time.

    Each item is a mapping with ``input`` and, without a ``target``, ``output``; ``data`` may
    also be a pandas DataFrame or a Hugging Face ``Dataset`` with those columns (checked before
    the first judge call: a missing column or an empty cell raises ``InputError``). With
    ``on_error="record"`` an item whose target or scorer fails is recorded with its error and
    the others go on; with ``"raise"`` (default) the first failure is raised. ``gates``
    (:class:`~sumjudge.summarization.item_gates.ItemGates`: ``max_unsupported``, ``min_alignment``,
    ``min_coverage``) holds each summarization result to them: each item's ``gate_failures`` name what broke,
    ``summary.gate_breaks`` counts the items per gate, ``summary.gates_passed`` says whether all held.
    """
    ids = _checked_scorers(scorers, concurrency)
    data = table_items(data, needed=("input",) if target is not None else ("input", "output"))
    totals = {sid: 0.0 for sid in ids}
    counts = {sid: 0 for sid in ids}
    result = EvalResult()
    if gates is not None and gates.active:
        result.summary.gate_breaks = dict.fromkeys(gates.bounds(), 0)
    source = _aiter(data)
    next_index = 0
    lock = asyncio.Lock()

    async def take() -> tuple[int, Item] | None:
        nonlocal next_index
        async with lock:
            try:
                item = await source.__anext__()
            except StopAsyncIteration:
                return None
            index, next_index = next_index, next_index + 1
            return index, item

    async def worker() -> None:
        while (taken := await take()) is not None:
            index, item = taken
            try:
                done = await _score_item(index, item, scorers, ids, target)
            except BaseException as exc:
                if on_error == "raise" or is_interrupt(exc):
                    raise
                done = ItemResult(index=index, item=item, error=_describe(exc))
            result.summary.total_items += 1
            if done.error:
                result.summary.failed_items += 1
            if gates is not None and gates.active:
                _hold_to_gates(done, gates, result.summary)
            for sid, res in done.results.items():
                totals[sid] += float(getattr(res, "score", res))
                counts[sid] += 1
            if keep_items:
                result.items.append(done)
            if on_item_complete is not None:
                await _call(on_item_complete, item, done.output, done.results)

    await gather_or_cancel(*(worker() for _ in range(concurrency)))
    result.items.sort(key=lambda r: r.index)
    result.scores = {sid: (totals[sid] / counts[sid] if counts[sid] else 0.0) for sid in ids}
    if keep_items:
        result.intervals = {sid: _intervals(sid, result.items) for sid in ids}
    return result


def _checked_scorers(scorers: list[Scorer], concurrency: int) -> list[str]:
    """The scorers' ids, after checking there is at least one, each id once, and a concurrency in bounds."""
    if not scorers:
        raise ConfigurationError("run_evals needs at least one scorer")
    if isinstance(concurrency, bool) or not isinstance(concurrency, int) or not 1 <= concurrency <= MAX_ITEMS_IN_FLIGHT:
        raise ConfigurationError(f"concurrency must be an integer from 1 to {MAX_ITEMS_IN_FLIGHT}, got {concurrency!r}")
    ids = [s.id for s in scorers]
    if len(set(ids)) != len(ids):
        raise ConfigurationError(f"scorer ids must be unique, got {ids}")
    return ids


async def _score_item(index: int, item: Item, scorers: list[Scorer], ids: list[str], target: Target | None) -> ItemResult:
    """One item: its output (from ``target``, or the item's own), scored by every scorer at once."""
    if not isinstance(item, Mapping):
        raise InputError(f"item {index} must be a mapping with 'input' and 'output', got {type(item).__name__}")
    if target is None and "output" not in item:
        raise InputError(f"item {index} has no 'output' and run_evals was given no target")
    output = await _call(target, item.get("input")) if target is not None else item["output"]
    runs = await asyncio.gather(*(s.run(input=item.get("input"), output=output) for s in scorers))
    return ItemResult(index=index, item=item, output=output, results=dict(zip(ids, runs)))


def _hold_to_gates(done: ItemResult, gates: ItemGates, summary: EvalSummary) -> None:
    """Each summarization result of ``done`` against ``gates``; the broken ones recorded and counted."""
    broken_gates: set[str] = set()
    for sid, res in done.results.items():
        if not hasattr(res, "preprocess_step_result"):  # another kind of scorer: nothing to hold it to
            continue
        broken = gates.breaks(res)
        if broken:
            done.gate_failures[sid] = [b.text() for b in broken]
            broken_gates.update(b.gate for b in broken)
    for gate in broken_gates:
        summary.gate_breaks[gate] += 1


def _describe(exc: BaseException) -> str:
    if isinstance(exc, asyncio.CancelledError):
        return "CancelledError: a judge call this item shared with another item was cancelled"
    return describe_failure(exc)


INTERVAL_FIELDS = ("score", "alignment_score", "coverage_score")


def _intervals(sid: str, items: list[ItemResult]) -> dict[str, MeanEstimate]:
    from .figures.stats import mean_interval

    out: dict[str, MeanEstimate] = {}
    for name in INTERVAL_FIELDS:
        values = []
        for item in items:
            if sid not in item.results:
                continue
            res = item.results[sid]
            value = res if name == "score" and isinstance(res, (int, float)) else getattr(res, name, None)
            if isinstance(value, (int, float)) and not isinstance(value, bool):
                values.append(float(value))
        if values or name == "score":
            out[name] = mean_interval(values)
    return out


def run_evals_sync(
    data: Iterable[Item],
    scorers: list[Scorer],
    target: Target | None = None,
    concurrency: int = 8,
    on_item_complete: OnItemComplete | None = None,
    **kwargs: Any,
) -> EvalResult:
    """:func:`run_evals` for scripts; works inside a running event loop too."""
    return run_sync(lambda: run_evals(data, scorers, target, concurrency, on_item_complete, **kwargs))


__all__ = ["EvalResult", "EvalSummary", "ItemResult", "Scorer", "run_evals", "run_evals_sync"]
