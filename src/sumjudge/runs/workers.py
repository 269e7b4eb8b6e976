"""A batch on several processes: a judge that computes on the CPU (the offline judge) uses every core.

One process owns the run store. It reads the rows, groups them into small tasks (a source's items
together, so that its questions are made once), and hands the tasks to worker processes (a
``ProcessPoolExecutor`` on the ``forkserver`` context, ``spawn`` where there is none). Each worker
builds its own scorer once, from a :class:`WorkerRecipe`, scores a task's items and sends their records
back; the owner commits each task's records as they come, in one transaction (a killed run keeps
whole tasks only: the items of a source are scored again together, as an uninterrupted run scores
them, and make the same judge calls), so resuming, the run lock, ``--out`` (written from the
store, in input order) and the progress display work as with one process. At most two tasks per
worker are in flight, so memory does not grow with the data.

Interrupted (Ctrl-C, SIGTERM, cancelled), the owner drops the tasks not started, lets the running ones
end (at once on Python 3.14+) and keeps what was committed; the workers ignore SIGINT (only the owner
decides), and a worker whose owner was killed ends too. Judges that wait on a server (HTTP) gain nothing
from processes: they stay in one process with async concurrency.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import signal
import threading
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Any, TypeVar

from ..errors import SumjudgeError
from ..evals import run_evals
from ..summarization.spec import ScorerSpec
from ..store.records import FailedItem, ItemOutcome
from .scoring import METER_COUNTS, GuardedScorer, Meter, build_scorer, outcome_of

if TYPE_CHECKING:
    from ..data.datasets import Dataset, Row
    from ..store.database import RunRecord, RunStore

T = TypeVar("T")
D = TypeVar("D")
R = TypeVar("R")

CHUNK_ITEMS = 16
"""Items per task: the round trip to a worker costs little against them, progress still moves often,
and an interruption drops at most this many items per worker (they are scored again on resume)."""
SOURCE_ITEMS = 64
"""A source's items stay in one task up to this many; more are split over tasks (and processes)."""
WINDOW_ITEMS = 512
"""Rows read ahead to group by source. Items of one source that lie further apart in the input may be
scored in two processes, each making the source's questions."""
ITEMS_PER_WORKER = 100
"""The default number of workers starts one per this many pending items at most: a worker takes about
a second to start, the time the offline judge needs for some 100 items."""


@dataclass(frozen=True)
class WorkerRecipe:
    """What a worker process needs to build its own scorer: the arguments of
    :func:`~sumjudge.runs.scoring.build_scorer`, in a form that crosses processes."""

    spec: str
    """The run's :class:`~sumjudge.summarization.spec.ScorerSpec` as text
    (:meth:`~sumjudge.summarization.spec.ScorerSpec.recipe`: hashable whatever it holds)."""
    concurrency: int
    timeout: float | None = None
    cache: bool | str | None = None
    judge_factory: Callable[[], Any] | None = None
    """A module-level function (importable in the worker) that builds the judge, instead of the spec's model."""


def available_cores() -> int:
    """The CPU cores this process may run on (its affinity and, on 3.13+, ``PYTHON_CPU_COUNT``)."""
    counter = getattr(os, "process_cpu_count", None)
    if counter is not None:
        return max(1, int(counter() or 1))
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


def worker_count(requested: int | None, *, cpu_bound: bool, pending: int) -> int:
    """How many processes score the batch: one for a judge that is not CPU-bound; else ``requested``,
    or by default the cores available, but no more than one per :data:`ITEMS_PER_WORKER` pending items."""
    if not cpu_bound:
        return 1
    if requested is not None:
        return max(1, requested)
    return max(1, min(available_cores(), pending // ITEMS_PER_WORKER))


def chunks_by_source(
    rows: Iterable[R], source: Callable[[R], str], *, chunk: int = CHUNK_ITEMS,
    per_source: int = SOURCE_ITEMS, window: int = WINDOW_ITEMS,
) -> Iterator[list[R]]:
    """``rows`` as tasks of about ``chunk`` items, the items of one source (within ``window`` rows)
    together in one task unless there are more than ``per_source`` of them."""
    groups: dict[str, list[R]] = {}
    held = 0
    for row in rows:
        groups.setdefault(source(row), []).append(row)
        held += 1
        if held >= window:
            yield from _pack(groups.values(), chunk, per_source)
            groups, held = {}, 0
    yield from _pack(groups.values(), chunk, per_source)


def _pack(groups: Iterable[list[R]], chunk: int, per_source: int) -> Iterator[list[R]]:
    task: list[R] = []
    for group in groups:
        for start in range(0, len(group), per_source):
            part = group[start : start + per_source]
            if task and len(task) + len(part) > chunk:
                yield task
                task = []
            task.extend(part)
    if task:
        yield task


def _start_worker() -> None:
    """In each worker: Ctrl-C reaches the whole process group, but only the owner of the run acts on
    it; and a worker whose owner was killed (SIGKILL, out of memory) ends instead of waiting forever."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    owner = multiprocessing.parent_process()
    if owner is not None:
        threading.Thread(target=_end_with, args=(owner,), name="sumjudge-owner-watch", daemon=True).start()


def _end_with(owner: Any) -> None:
    owner.join()  # returns when the owner's process has ended
    os._exit(1)


def _context() -> Any:
    methods = multiprocessing.get_all_start_methods()
    return multiprocessing.get_context("forkserver" if "forkserver" in methods else "spawn")


async def run_in_processes(
    work: Callable[[WorkerRecipe, T], D], recipe: WorkerRecipe, tasks: Iterable[T], *, workers: int,
    on_done: Callable[[D], None],
) -> None:
    """Run ``work(recipe, task)`` for every task on ``workers`` processes, two tasks per worker in flight;
    ``on_done`` gets each result in this process as it comes (in any order). Interrupted or failing,
    the workers are stopped before this returns; a worker that dies raises :class:`SumjudgeError`."""
    pool = ProcessPoolExecutor(max_workers=workers, mp_context=_context(), initializer=_start_worker)
    in_flight: set[asyncio.Future[D]] = set()

    async def settle() -> None:
        nonlocal in_flight
        done, in_flight = await asyncio.wait(in_flight, return_when=asyncio.FIRST_COMPLETED)
        for fut in done:
            on_done(fut.result())

    finished = False
    try:
        for task in tasks:
            if len(in_flight) >= 2 * workers:
                await settle()
            in_flight.add(asyncio.wrap_future(pool.submit(work, recipe, task)))
        while in_flight:
            await settle()
        finished = True
    except BrokenProcessPool as exc:
        raise SumjudgeError(
            f"a worker process stopped unexpectedly ({exc}); what finished is saved: run the same command "
            "again to resume (--workers 1 scores in this process)"
        ) from exc
    finally:
        if finished:
            pool.shutdown(wait=True)
        else:
            for fut in in_flight:
                fut.cancel()
            _stop(pool)


def _stop(pool: ProcessPoolExecutor) -> None:
    """Stop the workers: the tasks not started are dropped; an interrupted run keeps what was committed."""
    terminate = getattr(pool, "terminate_workers", None)  # Python 3.14+: at once, mid-task
    if terminate is not None:
        terminate()
        return
    # Before 3.14 a worker killed from outside can leave the pool's thread that sends tasks blocked on
    # a full pipe, and the process then never exits; so the tasks already running (CHUNK_ITEMS items
    # each, SOURCE_ITEMS at most) finish first, and their results are dropped.
    pool.shutdown(wait=True, cancel_futures=True)


# -- the batch: this process commits, the workers score ---------------------------------------------

Scored = tuple[list[tuple[int, ItemOutcome]], Meter]
"""What a worker sends back for a task: (row number, record) of each item, and the judge calls they cost."""


async def score_in_processes(
    dataset: Dataset, recipe: WorkerRecipe, store: RunStore, run: RunRecord, *, workers: int,
    on_record: Callable[[ItemOutcome], None] | None = None, meter: Meter | None = None,
) -> None:
    """:func:`~sumjudge.runs.dataset.score_dataset` on ``workers`` processes: each builds its scorer from
    ``recipe`` once; this process reads the rows and commits every record as it comes back."""
    finished = store.finished_ids(run.id)

    def commit(done: Scored) -> None:
        outcomes, used = done
        store.record_items(run.id, outcomes)  # the task whole or not at all: a source is never left half done
        for _number, outcome in outcomes:
            if meter is not None:
                meter.done += 1
                meter.errors += isinstance(outcome, FailedItem)
            if on_record is not None:
                on_record(outcome)
        if meter is not None:
            for name in METER_COUNTS:
                setattr(meter, name, getattr(meter, name) + getattr(used, name))

    # cut from every row, as an uninterrupted run cuts them, then the finished items left out: a resumed
    # run's tasks are the killed run's (each committed whole or not at all), so are its judge calls
    tasks = (
        pending for task in chunks_by_source(dataset.rows(), lambda row: row.source)
        if (pending := [row for row in task if row.id not in finished])
    )
    await run_in_processes(_score_task, recipe, tasks, workers=workers, on_done=commit)


@lru_cache(maxsize=1)
def _worker_scorer(recipe: WorkerRecipe) -> tuple[GuardedScorer, Meter]:
    """A worker process's scorer, built on its first task (one recipe per run, so once per process)."""
    meter = Meter()
    scorer = build_scorer(ScorerSpec.from_recipe(recipe.spec), concurrency=recipe.concurrency,
                          timeout=recipe.timeout, cache=recipe.cache, meter=meter, judge_factory=recipe.judge_factory)
    return GuardedScorer(scorer), meter


def _score_task(recipe: WorkerRecipe, rows: list[Row]) -> Scored:
    """In a worker process: the records of ``rows`` (a failing item recorded with its error) and the
    judge calls they cost."""
    from .._aio import run_sync

    guarded, meter = _worker_scorer(recipe)
    before = {name: getattr(meter, name) for name in METER_COUNTS}
    done: list[tuple[int, ItemOutcome]] = []

    async def complete(item: dict[str, Any], _output: Any, results: dict[str, Any]) -> None:
        done.append((item["row"].number, outcome_of(item["row"], results[guarded.id])))

    items = [{"input": row.source, "output": row.summary, "row": row} for row in rows]
    run_sync(lambda: run_evals(items, [guarded], concurrency=min(recipe.concurrency, len(items)),
                               on_item_complete=complete, keep_items=False))
    return done, Meter(**{name: getattr(meter, name) - before[name] for name in METER_COUNTS})


__all__ = [
    "CHUNK_ITEMS", "ITEMS_PER_WORKER", "SOURCE_ITEMS", "WINDOW_ITEMS", "WorkerRecipe", "available_cores",
    "chunks_by_source", "run_in_processes", "score_in_processes", "worker_count",
]
