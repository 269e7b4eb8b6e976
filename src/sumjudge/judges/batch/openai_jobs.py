"""OpenAI's Batch API (and Azure OpenAI's) through the ``openai`` SDK: a JSONL file, a job, its files.

A job's input is one JSONL file uploaded with ``purpose="batch"``, each line
``{"custom_id", "method": "POST", "url": "/v1/chat/completions", "body": {...}}`` (Azure: ``url``
``/chat/completions`` and ``model`` the name of a global-batch deployment). The job
(``client.batches.create``) moves ``validating`` -> ``in_progress`` -> ``finalizing`` -> ``completed``,
or ends ``failed`` (its ``errors`` say why), ``expired`` (the 24-hour window passed: what was done is
in the output file, the rest in the error file) or ``cancelled``. ``output_file_id`` holds one line
per answered request (``{"custom_id", "response": {"status_code", "body"}, "error"}``);
``error_file_id`` the requests that failed. A file holds at most 50,000 requests and 200 MB.

Each job carries ``metadata={"sumjudge_marker": ...}``, so a process killed between creating the job
and recording its id finds it again (:meth:`OpenAIBatchService.find`) instead of creating a second.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from .protocol import BatchLimits, BatchLine, JobState, JobStatus, LineResult, Submitted

OPENAI_LIMITS = BatchLimits(max_requests=50_000, max_bytes=200 * 1024 * 1024)
MARKER_KEY = "sumjudge_marker"

_STATES: dict[str, JobState] = {
    "validating": "validating",
    "in_progress": "in_progress",
    "finalizing": "finalizing",
    "completed": "completed",
    "failed": "failed",
    "expired": "expired",
    "cancelling": "cancelling",
    "cancelled": "cancelled",
}


class OpenAIBatchService:
    """Batch jobs of an OpenAI (or Azure OpenAI) account, through an ``AsyncOpenAI`` client."""

    limits = OPENAI_LIMITS

    def __init__(self, client: Any, *, provider: str = "openai", url: str = "/v1/chat/completions") -> None:
        self.client = client
        self.provider = provider
        self.url = url
        """The ``url`` of each line and the job's ``endpoint`` (Azure's is ``/chat/completions``)."""

    def _line(self, line: BatchLine) -> bytes:
        record = {"custom_id": line.custom_id, "method": "POST", "url": self.url, "body": line.body}
        return json.dumps(record, ensure_ascii=False, separators=(",", ":")).encode("utf-8") + b"\n"

    def line_size(self, line: BatchLine) -> int:
        return len(self._line(line))

    async def submit(self, lines: Sequence[BatchLine], marker: str) -> Submitted:
        data = b"".join(self._line(line) for line in lines)
        uploaded = await self.client.files.create(file=(f"{marker}.jsonl", data, "application/jsonl"), purpose="batch")
        job = await self.client.batches.create(
            input_file_id=uploaded.id, endpoint=self.url, completion_window="24h", metadata={MARKER_KEY: marker}
        )
        return Submitted(job_id=job.id, input_file=uploaded.id)

    async def find(self, marker: str) -> str | None:
        async for job in self.client.batches.list(limit=100):
            if (getattr(job, "metadata", None) or {}).get(MARKER_KEY) == marker:
                return str(job.id)
        return None

    async def status(self, job_id: str) -> JobStatus:
        job = await self.client.batches.retrieve(job_id)
        counts = getattr(job, "request_counts", None)
        errors = getattr(getattr(job, "errors", None), "data", None) or []
        said = "; ".join(
            f"{getattr(e, 'code', '')}: {getattr(e, 'message', '')}" + (f" (line {e.line})" if getattr(e, "line", None) else "")
            for e in errors[:5]
        )
        return JobStatus(
            job_id=job_id,
            state=_STATES.get(str(job.status), "in_progress"),
            total=int(getattr(counts, "total", 0) or 0),
            done=int(getattr(counts, "completed", 0) or 0) + int(getattr(counts, "failed", 0) or 0),
            failed=int(getattr(counts, "failed", 0) or 0),
            errors=said or None,
        )

    async def results(self, job_id: str) -> list[LineResult]:
        job = await self.client.batches.retrieve(job_id)
        found: dict[str, LineResult] = {}
        for file_id in (job.output_file_id, job.error_file_id):
            if not file_id:
                continue
            content = await self.client.files.content(file_id)
            for raw in content.text.splitlines():
                if raw.strip():
                    result = _read_line(json.loads(raw))
                    found[result.custom_id] = result
        return list(found.values())

    async def cancel(self, job_id: str) -> None:
        await self.client.batches.cancel(job_id)

    async def aclose(self) -> None:
        await self.client.close()


def _read_line(record: dict[str, Any]) -> LineResult:
    """One line of an output or error file."""
    custom_id = str(record.get("custom_id"))
    response = record.get("response") or {}
    error = record.get("error")
    status = int(response.get("status_code") or 0)
    body = response.get("body")
    if error is None and status == 200 and isinstance(body, dict):
        return LineResult(custom_id=custom_id, outcome="succeeded", body=body)
    if isinstance(error, dict):
        code, message = error.get("code"), error.get("message")
    else:
        inner = body.get("error") if isinstance(body, dict) else None
        code = inner.get("type") or inner.get("code") if isinstance(inner, dict) else None
        message = inner.get("message") if isinstance(inner, dict) else None
    outcome = "expired" if code == "batch_expired" else "canceled" if code == "batch_cancelled" else "errored"
    text = f"{code or f'HTTP {status}'}: {message or 'no message'}"
    return LineResult(custom_id=custom_id, outcome=outcome, error=text)  # type: ignore[arg-type]


__all__ = ["MARKER_KEY", "OPENAI_LIMITS", "OpenAIBatchService"]
