"""Score a data set through provider batch jobs, round by round, resumable from the run store.

``sumjudge score DATA --model openai/...|azure/...|anthropic/... --batch`` (and ``run_dataset(...,
batch=BatchMode())``) scores the rows as a live run does (:func:`~sumjudge.runs.dataset.score_dataset`,
every pending item in flight at once), with the judge wrapped in a
:class:`~sumjudge.judges.batch.collector.BatchingJudge`: each judge request waits in a queue instead of
being sent. When every item waits (the loop has settled), the waiting requests are one *round*:

- round 1: alignment for every item and the questions of every new source;
- round 2: coverage for every item (it needed the questions);
- later rounds only for re-asks (an invalid or refused reply) and for requests that a job errored or
  let expire (asked again, bounded), unless ``fallback="live"`` sends those as live calls.

For each round, requests already answered in the run store are answered from it; those in a job that
an earlier process submitted are waited for (the job is polled, not submitted again); the rest are
split into jobs at the provider's limits. Every job is recorded before it is uploaded (state
``uploading``, with its requests), its id the moment the provider accepts it, its state at every poll,
and its results in one transaction when it ends: a process killed at any point starts again where the
store says it was. A job left ``uploading`` by a killed process is looked for at the provider by its
marker (OpenAI's metadata) and adopted, or forgotten and its requests sent again.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
import uuid
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from ..data.datasets import Dataset
from ..errors import JudgeRequestError
from ..judges.base import JudgeModel, Usage
from ..judges.batch.collector import DEFAULT_MAX_RESUBMITS, Ask, BatchingJudge, Fallback, RoundQueue
from ..judges.batch.protocol import ENDED, BatchLine, BatchService, JobStatus, LineResult, Submitted
from ..judges.batch.services import batch_service, reply_usage
from ..judges.http import HTTPJudge
from ..judges.retry import RetryPolicy, call_with_retries
from ..store.database import RunRecord, RunStore
from ..store.provider_jobs import JobRecord, ProviderJobs
from .dataset import Meter, RecordCallback, score_dataset

T = TypeVar("T")


@dataclass(frozen=True)
class JobView:
    """One job as the progress display shows it."""

    round: int
    job_id: str | None
    state: str
    done: int
    total: int
    waited: float
    """Seconds since this process began waiting on the job."""


@dataclass(frozen=True)
class BatchMode:
    """How a run uses provider batch jobs: ``run_dataset(..., batch=BatchMode())``, ``--batch``."""

    poll_interval: float = 30.0
    """Seconds between two polls of the jobs in flight."""
    fallback: Fallback = "rebatch"
    """What an invalid, refused, errored or expired answer gets: another round, or a live call."""
    max_resubmits: int = DEFAULT_MAX_RESUBMITS
    round_items: int = 10_000
    """Items in flight at once (their requests make one round)."""
    on_job: Callable[[JobView], None] | None = None
    """Told each job's state when it changes (the CLI prints it)."""


class ProviderRounds:
    """One run's rounds of batch jobs: :meth:`wrap` the judge, then :meth:`score` the rows."""

    def __init__(self, mode: BatchMode) -> None:
        self.mode = mode
        self.queue = RoundQueue()
        self.judge: BatchingJudge | None = None
        self.service: BatchService | None = None
        self.rounds_sent = 0
        """Rounds that sent or waited on a job in this process."""
        self.requests_sent = 0
        self._round_no = 0
        self._shown: dict[str, tuple[str, int]] = {}

    def wrap(self, judge: JudgeModel) -> JudgeModel:
        """The judge whose requests go into batch jobs (its provider must have them)."""
        self.service = batch_service(judge)
        assert isinstance(judge, HTTPJudge)
        self.judge = BatchingJudge(judge, self.queue, fallback=self.mode.fallback, max_resubmits=self.mode.max_resubmits)
        return self.judge

    async def score(
        self, dataset: Dataset, scorer: Any, store: RunStore, run: RunRecord, *,
        on_record: RecordCallback | None = None, meter: Meter | None = None,
    ) -> None:
        """Score every unfinished row of ``run``, the judge's requests sent round by round."""
        assert self.service is not None, "wrap() the judge first"
        meter = meter or Meter()
        with ProviderJobs(store.path) as jobs:
            try:
                await self._recover(jobs, run.id)
                scoring = asyncio.ensure_future(
                    score_dataset(dataset, scorer, store, run, concurrency=self.mode.round_items, on_record=on_record,
                                  meter=meter)
                )
                try:
                    while not scoring.done():
                        await self._settle(scoring, meter)
                        asks = self.queue.take()
                        if asks:
                            await self._round(asks, jobs, run.id)
                        elif not scoring.done():
                            await asyncio.wait({scoring}, timeout=0.05)
                    await scoring
                finally:
                    if not scoring.done():
                        scoring.cancel()
                        await asyncio.gather(scoring, return_exceptions=True)
            finally:
                await self.service.aclose()

    async def _settle(self, scoring: asyncio.Future[None], meter: Meter) -> None:
        """Until the items stop moving: every one is waiting for a reply in the queue, or done.

        A live call in flight (``fallback="live"``) is waited for, not timed: on a loaded machine it may
        take longer than any pause, and the requests its item makes next belong to this round.
        """
        last, stable = (-1, -1), 0
        while stable < 3 and not scoring.done():
            if self.queue.outside:
                quiet = asyncio.ensure_future(self.queue.outside_done())
                try:
                    await asyncio.wait({scoring, quiet}, return_when=asyncio.FIRST_COMPLETED)
                finally:
                    quiet.cancel()
                last, stable = (-1, -1), 0
                continue
            for _ in range(10):
                await asyncio.sleep(0)
            await asyncio.sleep(0.002)
            now = (self.queue.added, meter.done)
            stable = stable + 1 if now == last else 0
            last = now

    # -- one round ----------------------------------------------------------------------------

    async def _recover(self, jobs: ProviderJobs, run_id: str) -> None:
        """Jobs a killed process left ``uploading``: adopted when the provider has them, else forgotten."""
        assert self.service is not None
        resubmits = 0 if self.mode.fallback == "live" else self.mode.max_resubmits
        jobs.forget_exhausted(run_id, resubmits)
        for job in jobs.jobs(run_id):
            if job.job_id is None:
                found = await self.service.find(job.marker)
                if found is None:
                    jobs.drop_job(job.marker)
                else:
                    jobs.set_submitted(job.marker, found)
        done = [j.round for j in jobs.jobs(run_id) if j.collected]
        self._round_no = max(done, default=0)

    async def _round(self, asks: list[Ask], jobs: ProviderJobs, run_id: str) -> None:
        by_id: dict[str, list[Ask]] = {}
        for ask in asks:
            by_id.setdefault(ask.custom_id, []).append(ask)
        known = jobs.lookup(run_id, by_id)
        waiting = {k.marker for cid, k in known.items() if k.outcome is None}
        new = [by_id[cid][0] for cid in by_id if cid not in known]
        if waiting or new:
            rounds = [jobs.job(m).round for m in waiting]
            self._round_no = max(rounds) if rounds else self._round_no + 1
            self.rounds_sent += 1
        for chunk in self._split(new):
            waiting.add(await self._submit(jobs, run_id, chunk))
        await self._wait(jobs, sorted(waiting))
        answered = jobs.lookup(run_id, by_id)
        for cid, group in by_id.items():
            stored = answered.get(cid)
            result = stored.as_result(cid) if stored and stored.outcome else LineResult(cid, "expired", error="lost")
            for ask in group:
                if not ask.future.done():
                    ask.future.set_result(result)

    def _split(self, asks: Sequence[Ask]) -> list[list[Ask]]:
        """Jobs of at most the provider's requests and bytes."""
        assert self.service is not None
        limits = self.service.limits
        chunks: list[list[Ask]] = []
        size = 0
        for ask in asks:
            line = self.service.line_size(BatchLine(ask.custom_id, ask.body))
            if not chunks or len(chunks[-1]) >= limits.max_requests or size + line > limits.max_bytes:
                chunks.append([])
                size = 0
            chunks[-1].append(ask)
            size += line
        return chunks

    async def _submit(self, jobs: ProviderJobs, run_id: str, asks: list[Ask]) -> str:
        """Record the job, then upload and create it, then record its id: the order that loses nothing."""
        assert self.service is not None
        marker = f"sj-{uuid.uuid4().hex[:20]}"
        jobs.add_job(run_id, marker, self.service.provider, self._round_no, [(a.custom_id, a.step) for a in asks])
        self._show(marker, JobView(self._round_no, None, "uploading", 0, len(asks), 0.0))
        service, lines = self.service, [BatchLine(a.custom_id, a.body) for a in asks]

        async def attempt() -> Submitted:
            try:
                return await service.submit(lines, marker)
            except Exception:
                with contextlib.suppress(Exception):  # created before the failure? (a timeout on the reply)
                    if (found := await service.find(marker)) is not None:
                        return Submitted(job_id=found)
                raise

        try:
            submitted = await self._call(attempt, f"creating a batch job of {len(lines):,} requests")
        except JudgeRequestError as exc:  # refused (validation): its requests go to the next round
            jobs.set_status(marker, JobStatus(job_id="", state="failed", errors=str(exc)))
            jobs.record_results(marker, [(LineResult(a.custom_id, "errored", error=str(exc)), Usage()) for a in asks])
            return marker
        jobs.set_submitted(marker, submitted.job_id, submitted.input_file)
        self.requests_sent += len(asks)
        return marker

    async def _call(self, fn: Callable[[], Awaitable[T]], what: str) -> T:
        """A call to the batch service, retried as the judge retries its live calls (429, 5xx, timeouts)."""
        assert self.judge is not None
        http = self.judge.http
        return await call_with_retries(fn, classify=http.classify, policy=RetryPolicy.from_config(http.config), what=what)

    async def _wait(self, jobs: ProviderJobs, markers: list[str]) -> None:
        """Poll the jobs until each has ended and its results are stored."""
        assert self.service is not None
        started = time.monotonic()
        pending = [m for m in markers if not jobs.job(m).collected]
        while pending:
            for marker in list(pending):
                job = jobs.job(marker)
                job_id, service = job.job_id, self.service
                assert job_id is not None
                status = await self._call(lambda: service.status(job_id), f"polling batch job {job_id}")
                jobs.set_status(marker, status)
                waited = time.monotonic() - started
                self._show(marker, JobView(job.round, job.job_id, status.state, status.done, status.total, waited))
                if status.state in ENDED:
                    self._show(marker, JobView(job.round, job.job_id, "downloading", status.done, status.total, waited))
                    await self._collect(jobs, job, status)
                    pending.remove(marker)
            if pending:
                await asyncio.sleep(self.mode.poll_interval)

    async def _collect(self, jobs: ProviderJobs, job: JobRecord, status: JobStatus) -> None:
        assert self.service is not None and job.job_id is not None
        service, job_id = self.service, job.job_id
        fetched = await self._call(lambda: service.results(job_id), f"fetching the results of batch job {job_id}")
        results = {r.custom_id: r for r in fetched}
        why = status.errors or f"the job ended {status.state}"
        missing = "errored" if status.state == "failed" else "canceled" if status.state == "cancelled" else "expired"
        lines = [results.get(cid) or LineResult(cid, missing, error=why) for cid in jobs.custom_ids(job.marker)]  # type: ignore[arg-type]
        jobs.record_results(job.marker, [(r, reply_usage(job.provider, r.body)) for r in lines])

    def _show(self, marker: str, view: JobView) -> None:
        seen = (view.state, view.done)
        if self.mode.on_job is None or self._shown.get(marker) == seen:
            return
        self._shown[marker] = seen
        self.mode.on_job(view)


__all__ = ["BatchMode", "JobView", "ProviderRounds"]
