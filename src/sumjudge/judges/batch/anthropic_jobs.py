"""Anthropic's Message Batches through the ``anthropic`` SDK (``client.messages.batches``).

A job is created with its requests inline (``[{"custom_id", "params": {...Messages API body}}]``,
at most 100,000 requests or 256 MB), is ``in_progress`` until every request has succeeded, errored,
been canceled or expired, then ``ended``; ``canceling`` after a cancel. Its results are JSONL at
``results_url`` (``client.messages.batches.results``), one line per request:
``{"custom_id", "result": {"type": "succeeded", "message": {...}}}`` or ``errored`` (with an
``error``), ``canceled``, ``expired``. Anthropic has no validating or finalizing phase and no
metadata on a job: a process killed between creating a job and recording its id cannot find it
again (:meth:`AnthropicBatchService.find` says ``None``), a window of one SQLite commit.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from .protocol import BatchLimits, BatchLine, JobState, JobStatus, LineResult, Submitted

ANTHROPIC_LIMITS = BatchLimits(max_requests=100_000, max_bytes=256 * 1024 * 1024)


class AnthropicBatchService:
    """Message Batches of an Anthropic account, through an ``AsyncAnthropic`` client."""

    provider = "anthropic"
    limits = ANTHROPIC_LIMITS

    def __init__(self, client: Any) -> None:
        self.client = client

    def line_size(self, line: BatchLine) -> int:
        record = {"custom_id": line.custom_id, "params": line.body}
        return len(json.dumps(record, ensure_ascii=False, separators=(",", ":")).encode("utf-8")) + 1

    async def submit(self, lines: Sequence[BatchLine], marker: str) -> Submitted:
        job = await self.client.messages.batches.create(
            requests=[{"custom_id": line.custom_id, "params": line.body} for line in lines]
        )
        return Submitted(job_id=str(job.id))

    async def find(self, marker: str) -> str | None:
        return None

    async def status(self, job_id: str) -> JobStatus:
        job = await self.client.messages.batches.retrieve(job_id)
        counts = job.request_counts
        failed = int(counts.errored) + int(counts.expired) + int(counts.canceled)
        done = int(counts.succeeded) + failed
        total = done + int(counts.processing)
        state: JobState
        if job.processing_status == "ended":  # which lines expired or were canceled, the results say
            if getattr(job, "cancel_initiated_at", None) is not None:
                state = "cancelled"
            elif counts.expired and not (counts.succeeded or counts.errored):
                state = "expired"
            else:
                state = "completed"
        elif job.processing_status == "canceling":
            state = "cancelling"
        else:
            state = "in_progress"
        return JobStatus(job_id=job_id, state=state, total=total, done=done, failed=failed)

    async def results(self, job_id: str) -> list[LineResult]:
        out: list[LineResult] = []
        async for entry in await self.client.messages.batches.results(job_id):
            result = entry.result
            kind = result.type
            if kind == "succeeded":
                out.append(LineResult(entry.custom_id, "succeeded", body=result.message.model_dump(mode="json")))
            elif kind == "errored":
                err = getattr(result.error, "error", result.error)
                text = f"{getattr(err, 'type', 'error')}: {getattr(err, 'message', err)}"
                out.append(LineResult(entry.custom_id, "errored", error=text))
            else:
                out.append(LineResult(entry.custom_id, "canceled" if kind == "canceled" else "expired", error=kind))
        return out

    async def cancel(self, job_id: str) -> None:
        await self.client.messages.batches.cancel(job_id)

    async def aclose(self) -> None:
        await self.client.close()


__all__ = ["ANTHROPIC_LIMITS", "AnthropicBatchService"]
