"""What a provider's batch job service is, to the code that drives rounds of requests through it.

A :class:`BatchService` (one per provider family: :mod:`.openai_jobs` for OpenAI and Azure,
:mod:`.anthropic_jobs` for Anthropic) submits :class:`BatchLine` s as one job, says how the job
stands (:class:`JobStatus`, in one vocabulary for every provider), fetches its results
(:class:`LineResult`, one per line: succeeded with the reply body, or errored / expired / canceled),
and cancels it. It keeps no state of its own: job ids and their states live in the run store, so a
killed process picks them up again.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal, Protocol

JobState = Literal[
    "uploading", "validating", "in_progress", "finalizing", "downloading", "completed", "failed", "expired",
    "cancelling", "cancelled",
]
"""Where a job stands. ``uploading`` (the input is on its way, no job yet) and ``downloading`` (the
job ended, its results are being fetched) are the client's own; the others are the provider's
(Anthropic's ``in_progress`` / ``canceling`` / ``ended`` map onto them)."""

ENDED: frozenset[str] = frozenset({"completed", "failed", "expired", "cancelled"})
"""States after which a job changes no more: its results (if any) can be fetched."""

LineOutcome = Literal["succeeded", "errored", "expired", "canceled"]


@dataclass(frozen=True)
class BatchLimits:
    """How much one job may hold."""

    max_requests: int
    max_bytes: int


@dataclass(frozen=True)
class BatchLine:
    """One request of a job: its id within the job and the JSON body a live call would send."""

    custom_id: str
    body: dict[str, Any]


@dataclass(frozen=True)
class JobStatus:
    """A job as the provider reports it."""

    job_id: str
    state: JobState
    total: int = 0
    done: int = 0
    """Requests answered so far (succeeded or not)."""
    failed: int = 0
    errors: str | None = None
    """Why the whole job failed (validation errors), when it did."""


@dataclass(frozen=True)
class LineResult:
    """What became of one line: a reply body (``succeeded``) or why there is none."""

    custom_id: str
    outcome: LineOutcome
    body: dict[str, Any] | None = None
    """The reply as a live call returns it (a Chat Completion, a Message), as JSON."""
    error: str | None = None


@dataclass(frozen=True)
class Submitted:
    """A job the provider accepted."""

    job_id: str
    input_file: str | None = None


class BatchService(Protocol):
    """One provider family's batch jobs."""

    provider: str
    """``openai``, ``azure`` or ``anthropic`` (stored with each job)."""
    limits: BatchLimits

    def line_size(self, line: BatchLine) -> int:
        """Bytes the line takes in the job's input (for splitting at :attr:`limits`)."""
        ...

    async def submit(self, lines: Sequence[BatchLine], marker: str) -> Submitted:
        """Upload the lines (where the provider takes a file) and create one job tagged ``marker``."""
        ...

    async def find(self, marker: str) -> str | None:
        """The id of a job created with ``marker`` (a process killed between creating a job and
        recording it), or ``None`` where none was, or the provider cannot tell."""
        ...

    async def status(self, job_id: str) -> JobStatus:
        ...

    async def results(self, job_id: str) -> list[LineResult]:
        """Every line's outcome, once the job has ended (lines it never reached come back ``expired``)."""
        ...

    async def cancel(self, job_id: str) -> None:
        ...

    async def aclose(self) -> None:
        ...


__all__ = [
    "ENDED",
    "BatchLimits",
    "BatchLine",
    "BatchService",
    "JobState",
    "JobStatus",
    "LineOutcome",
    "LineResult",
    "Submitted",
]
