"""Provider batch jobs on the test servers: OpenAI's files and batches endpoints, Anthropic's Message Batches.

Each server (:class:`~sumjudge.testing.judge_server.JudgeServer`, :class:`~.anthropic_server.AnthropicServer`)
has a :class:`BatchDesk` at ``server.batches``. A job's requests are answered by the server's own
``_answer``, one line at a time, so the same brain, scripts and faults answer batched and live calls.

A job advances one state each time it is polled (``polls_per_state`` polls for slow completion):
OpenAI's ``validating -> in_progress -> finalizing -> completed``; Anthropic's ``in_progress -> ended``.
The requests are answered when a job leaves ``in_progress``. Faults and controls:

- ``fail_validation = n``: the next n OpenAI jobs fail validation (``status: failed`` with ``errors``);
  Anthropic's create answers 400;
- ``error_every = k``: every k-th request (counted over all jobs) errors (a 500 in the error file /
  an ``errored`` result);
- ``expire_jobs = n``: the next n jobs expire with half their requests answered;
- ``hold(state)``: jobs stay in ``state`` until :meth:`release`; ``block("upload"|"create"|"download")``:
  those calls hang until :meth:`release` (a process can be killed in that state); ``seen`` counts
  every call (``upload``, ``create``, ``download``, ``poll:<state>``).
"""

from __future__ import annotations

import email.parser
import itertools
import json
import re
import threading
import time
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Any, Callable

from .recorded import RecordedRequest

Answer = tuple[int, dict[str, str], bytes | None, float]

_OPENAI_FLOW = ("validating", "in_progress", "finalizing", "completed")
_ANTHROPIC_FLOW = ("in_progress", "ended")
_CUSTOM_ID = re.compile(r"^[A-Za-z0-9_-]{1,64}$")


@dataclass
class _Job:
    id: str
    kind: str  # "openai" or "anthropic"
    lines: list[dict[str, Any]]
    """``{"custom_id", "url", "body"}`` each."""
    headers: dict[str, str]
    input_file_id: str | None = None
    metadata: dict[str, Any] = field(default_factory=dict)
    state: str = "validating"
    polls: int = 0
    created_at: float = field(default_factory=time.time)
    results: dict[str, dict[str, Any]] = field(default_factory=dict)
    """custom_id -> ``{"status", "body"}`` or ``{"outcome": "expired"|"canceled"}``."""
    errors: list[dict[str, Any]] | None = None
    output_file_id: str | None = None
    error_file_id: str | None = None
    cancelled: bool = False


class BatchDesk:
    """The batch endpoints of one test server (see the module docstring)."""

    def __init__(self, answer_line: Callable[[RecordedRequest], Answer], base_url: Callable[[], str]) -> None:
        self._answer_line = answer_line
        self._base_url = base_url
        self._lock = threading.Lock()
        self._ids = itertools.count(1)
        self.files: dict[str, bytes] = {}
        self.jobs: dict[str, _Job] = {}
        self.polls_per_state = 1
        self.fail_validation = 0
        self.error_every = 0
        self.expire_jobs = 0
        self._lines_answered = 0
        self._held: set[str] = set()
        self._blocked: dict[str, threading.Event] = {}
        self.seen: dict[str, int] = {}
        self.line_requests: list[RecordedRequest] = []
        """Every request a job carried, as the server answered it."""

    # -- controls -----------------------------------------------------------------------------

    def hold(self, state: str) -> None:
        with self._lock:
            self._held.add(state)

    def block(self, call: str) -> None:
        with self._lock:
            self._blocked[call] = threading.Event()

    def release(self) -> None:
        """Every hold and block ends."""
        with self._lock:
            self._held.clear()
            blocked, self._blocked = self._blocked, {}
        for event in blocked.values():
            event.set()

    def count(self, what: str) -> int:
        with self._lock:
            return self.seen.get(what, 0)

    def _saw(self, what: str) -> None:
        with self._lock:
            self.seen[what] = self.seen.get(what, 0) + 1
            event = self._blocked.get(what)
        if event is not None:
            event.wait(timeout=300)

    def _new_id(self, prefix: str) -> str:
        return f"{prefix}_{next(self._ids):06d}"

    # -- routing ------------------------------------------------------------------------------

    def answer(self, request: RecordedRequest) -> Answer | None:
        """The answer to a files or batches request, or ``None`` for any other path."""
        path, method = request.path.rstrip("/"), request.method
        parts = path.split("/")
        if "batches" in parts and "messages" in parts:  # Anthropic: /v1/messages/batches[/{id}[/cancel|/results]]
            tail = parts[parts.index("batches") + 1 :]
            if method == "POST" and not tail:
                return self._anthropic_create(request)
            if tail and tail[0] in self.jobs:
                job = self.jobs[tail[0]]
                if method == "GET" and len(tail) == 1:
                    return self._ok(self._anthropic_view(self._poll(job)))
                if method == "POST" and tail[1:] == ["cancel"]:
                    return self._ok(self._anthropic_view(self._cancel(job)))
                if method == "GET" and tail[1:] == ["results"]:
                    self._saw("download")
                    return 200, {}, self._anthropic_results(job), 0.0
            return 404, {}, _error("no such batch", "not_found_error"), 0.0
        if "batches" in parts:  # OpenAI / Azure: /v1/batches[/{id}[/cancel]]
            tail = parts[parts.index("batches") + 1 :]
            if method == "POST" and not tail:
                return self._openai_create(request)
            if method == "GET" and not tail:
                return self._ok({"object": "list", "data": [self._openai_view(j) for j in self.jobs.values()
                                                            if j.kind == "openai"], "has_more": False})
            if tail and tail[0] in self.jobs:
                job = self.jobs[tail[0]]
                if method == "GET" and len(tail) == 1:
                    return self._ok(self._openai_view(self._poll(job)))
                if method == "POST" and tail[1:] == ["cancel"]:
                    return self._ok(self._openai_view(self._cancel(job)))
            return 404, {}, _error("no such batch", "not_found_error"), 0.0
        if "files" in parts:  # /v1/files[/{id}[/content]]
            tail = parts[parts.index("files") + 1 :]
            if method == "POST" and not tail:
                return self._upload(request)
            if tail and tail[0] in self.files:
                if tail[1:] == ["content"]:
                    self._saw("download")
                    return 200, {}, self.files[tail[0]], 0.0
                return self._ok(self._file_view(tail[0]))
            return 404, {}, _error("no such file", "not_found_error"), 0.0
        return None

    @staticmethod
    def _ok(payload: dict[str, Any]) -> Answer:
        return 200, {}, json.dumps(payload, ensure_ascii=False).encode("utf-8"), 0.0

    # -- OpenAI -------------------------------------------------------------------------------

    def _upload(self, request: RecordedRequest) -> Answer:
        self._saw("upload")
        ctype = request.headers.get("content-type", "")
        message = email.parser.BytesParser().parsebytes(b"Content-Type: " + ctype.encode() + b"\r\n\r\n" + request.raw)
        data, purpose = b"", ""
        for part in message.walk():
            name = part.get_param("name", header="content-disposition")
            if name == "file":
                data = part.get_payload(decode=True) or b""
            elif name == "purpose":
                purpose = (part.get_payload(decode=True) or b"").decode()
        if purpose != "batch":
            return 400, {}, _error(f"purpose must be 'batch', got {purpose!r}", "invalid_request_error"), 0.0
        file_id = self._new_id("file")
        with self._lock:
            self.files[file_id] = data
        return self._ok(self._file_view(file_id))

    def _file_view(self, file_id: str) -> dict[str, Any]:
        return {"id": file_id, "object": "file", "bytes": len(self.files[file_id]), "created_at": int(time.time()),
                "filename": f"{file_id}.jsonl", "purpose": "batch", "status": "processed"}

    def _openai_create(self, request: RecordedRequest) -> Answer:
        self._saw("create")
        body = request.body if isinstance(request.body, dict) else {}
        file_id = body.get("input_file_id")
        if file_id not in self.files:
            return 400, {}, _error(f"no file {file_id!r}", "invalid_request_error"), 0.0
        lines = [json.loads(raw) for raw in self.files[file_id].decode("utf-8").splitlines() if raw.strip()]
        job = _Job(self._new_id("batch"), "openai", lines, request.headers, input_file_id=file_id,
                   metadata=dict(body.get("metadata") or {}))
        job.endpoint = body.get("endpoint")  # type: ignore[attr-defined]
        with self._lock:
            self.jobs[job.id] = job
        return self._ok(self._openai_view(job))

    def _openai_view(self, job: _Job) -> dict[str, Any]:
        ok = sum(1 for r in job.results.values() if r.get("status") == 200)
        return {
            "id": job.id, "object": "batch", "endpoint": getattr(job, "endpoint", "/v1/chat/completions"),
            "errors": None if job.errors is None else {"object": "list", "data": job.errors},
            "input_file_id": job.input_file_id, "completion_window": "24h", "status": job.state,
            "output_file_id": job.output_file_id, "error_file_id": job.error_file_id,
            "created_at": int(job.created_at), "expires_at": int(job.created_at) + 86400,
            "request_counts": {"total": len(job.lines), "completed": ok, "failed": len(job.results) - ok},
            "metadata": job.metadata,
        }

    def _openai_files(self, job: _Job) -> None:
        out, err = [], []
        for n, line in enumerate(job.lines):
            r = job.results.get(line["custom_id"])
            if r is None:
                continue
            record: dict[str, Any] = {"id": f"batch_req_{job.id}_{n}", "custom_id": line["custom_id"]}
            if "outcome" in r:
                code = "batch_expired" if r["outcome"] == "expired" else "batch_cancelled"
                err.append({**record, "response": None, "error": {"code": code, "message": f"request {r['outcome']}"}})
            elif r["status"] == 200:
                out.append({**record, "response": {"status_code": 200, "request_id": record["id"], "body": r["body"]},
                            "error": None})
            else:
                err.append({**record, "response": {"status_code": r["status"], "request_id": record["id"],
                                                   "body": r["body"]}, "error": None})
        for name, rows in (("output_file_id", out), ("error_file_id", err)):
            if rows:
                file_id = self._new_id("file")
                self.files[file_id] = "".join(json.dumps(x, ensure_ascii=False) + "\n" for x in rows).encode("utf-8")
                setattr(job, name, file_id)

    # -- Anthropic ----------------------------------------------------------------------------

    def _anthropic_create(self, request: RecordedRequest) -> Answer:
        self._saw("create")
        body = request.body if isinstance(request.body, dict) else {}
        requests = body.get("requests")
        problem = None
        if not isinstance(requests, list) or not requests:
            problem = "requests: Field required"
        else:
            for i, r in enumerate(requests):
                if not isinstance(r, dict) or not _CUSTOM_ID.match(str(r.get("custom_id", ""))):
                    problem = f"requests.{i}.custom_id: must match ^[a-zA-Z0-9_-]{{1,64}}$"
                elif not isinstance(r.get("params"), dict) or "max_tokens" not in r["params"]:
                    problem = f"requests.{i}.params.max_tokens: Field required"
        with self._lock:
            if problem is None and self.fail_validation > 0:
                self.fail_validation -= 1
                problem = "requests.0.params: the batch failed validation (scripted)"
        if problem is not None:
            payload = json.dumps({"type": "error", "error": {"type": "invalid_request_error", "message": problem}})
            return 400, {}, payload.encode(), 0.0
        lines = [{"custom_id": r["custom_id"], "url": "/v1/messages", "body": r["params"]} for r in requests]
        job = _Job(self._new_id("msgbatch"), "anthropic", lines, request.headers, state="in_progress")
        with self._lock:
            self.jobs[job.id] = job
        return self._ok(self._anthropic_view(job))

    def _anthropic_view(self, job: _Job) -> dict[str, Any]:
        outcomes = [("succeeded" if r.get("status") == 200 else r.get("outcome", "errored")) for r in job.results.values()]
        counts = {k: outcomes.count(k) for k in ("succeeded", "errored", "canceled", "expired")}
        ended = job.state in ("ended",)
        status = "canceling" if job.state == "cancelling" else job.state
        return {
            "id": job.id, "type": "message_batch", "processing_status": status,
            "request_counts": {"processing": len(job.lines) - len(job.results), **counts},
            "created_at": _iso(job.created_at), "expires_at": _iso(job.created_at + 86400),
            "ended_at": _iso(time.time()) if ended else None, "archived_at": None,
            "cancel_initiated_at": _iso(time.time()) if job.cancelled else None,
            "results_url": f"{self._base_url()}/v1/messages/batches/{job.id}/results" if ended else None,
        }

    def _anthropic_results(self, job: _Job) -> bytes:
        rows = []
        for line in job.lines:
            r = job.results.get(line["custom_id"], {"outcome": "expired"})
            if "outcome" in r:
                result: dict[str, Any] = {"type": r["outcome"]}
            elif r["status"] == 200:
                result = {"type": "succeeded", "message": r["body"]}
            else:
                inner = (r["body"] or {}).get("error") or {"type": "api_error", "message": "error"}
                result = {"type": "errored", "error": {"type": "error", "error": inner}}
            rows.append(json.dumps({"custom_id": line["custom_id"], "result": result}, ensure_ascii=False) + "\n")
        return "".join(rows).encode("utf-8")

    # -- the life of a job --------------------------------------------------------------------

    def _poll(self, job: _Job) -> _Job:
        with self._lock:
            state = job.state
        self._saw(f"poll:{state}")
        with self._lock:
            if state in self._held or state in ("completed", "ended", "failed", "expired", "cancelled"):
                return job
            job.polls += 1
            if job.polls < self.polls_per_state:
                return job
            job.polls = 0
        self._advance(job)
        return job

    def _advance(self, job: _Job) -> None:
        flow = _OPENAI_FLOW if job.kind == "openai" else _ANTHROPIC_FLOW
        if job.state == "cancelling":
            job.state = "cancelled" if job.kind == "openai" else "ended"
            for line in job.lines:
                job.results.setdefault(line["custom_id"], {"outcome": "canceled"})
            if job.kind == "openai":
                self._openai_files(job)
            return
        if job.state == "validating":
            with self._lock:
                failing = self.fail_validation > 0
                self.fail_validation -= 1 if failing else 0
            if failing:
                job.state = "failed"
                job.errors = [{"code": "invalid_request", "message": "scripted validation failure", "param": None,
                               "line": 1}]
                return
        if job.state == "in_progress":
            with self._lock:
                expiring = self.expire_jobs > 0
                self.expire_jobs -= 1 if expiring else 0
            self._answer_all(job, half=expiring)
            if expiring:
                job.state = "expired" if job.kind == "openai" else "ended"
                if job.kind == "openai":
                    self._openai_files(job)
                return
        job.state = flow[flow.index(job.state) + 1]
        if job.state == "completed":
            self._openai_files(job)

    def _answer_all(self, job: _Job, *, half: bool) -> None:
        stop = len(job.lines) // 2 if half else len(job.lines)
        for n, line in enumerate(job.lines):
            if n >= stop:
                job.results[line["custom_id"]] = {"outcome": "expired"}
                continue
            with self._lock:
                self._lines_answered += 1
                fault = self.error_every > 0 and self._lines_answered % self.error_every == 0
            if fault:
                body = {"error": {"message": "scripted batch line failure", "type": "server_error"}}
                job.results[line["custom_id"]] = {"status": 500, "body": body}
                continue
            raw = json.dumps(line["body"], ensure_ascii=False).encode("utf-8")
            url = str(line.get("url") or "/v1/chat/completions")
            request = RecordedRequest(method="POST", path=url if url.startswith("/v1") else "/v1" + url,
                                      headers=dict(job.headers), raw=raw, body=json.loads(raw))
            self.line_requests.append(request)
            status, _, payload, _ = self._answer_line(request)
            parsed = json.loads(payload) if payload else {"error": {"message": "dropped", "type": "server_error"}}
            job.results[line["custom_id"]] = {"status": status if payload else 500, "body": parsed}

    def _cancel(self, job: _Job) -> _Job:
        with self._lock:
            if job.state not in ("completed", "ended", "failed", "expired", "cancelled"):
                job.state, job.cancelled = "cancelling", True
        return job


def _iso(ts: float) -> str:
    return datetime.fromtimestamp(ts, tz=timezone.utc).isoformat().replace("+00:00", "Z")


def _error(message: str, kind: str) -> bytes:
    return json.dumps({"error": {"message": message, "type": kind, "param": None, "code": None}}).encode("utf-8")


__all__ = ["BatchDesk"]
