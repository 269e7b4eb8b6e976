"""A Chat Completions server on 127.0.0.1 for tests, benchmarks and manual trials.

It speaks enough of the OpenAI protocol for any OpenAI-compatible client
(``POST /v1/chat/completions``, ``GET /v1/models``), records every request (parsed JSON and
headers; :mod:`~sumjudge.testing.recorded`), and answers from a script of replies and faults
(:mod:`~sumjudge.testing.faults`), else from a *brain* (:mod:`~sumjudge.testing.brains`:
:class:`SummarizationBrain`, the default, or :class:`SchemaBrain`), with token usage figures.

Faults (:class:`Fault`): 429 with ``Retry-After``, 5xx, any status with a message, a hang
past the client's timeout, a dropped connection, invalid JSON, a reply cut off with
``finish_reason: "length"``, a wrong number of verdicts. ``refuse={"json_schema": 500}``
makes the server refuse a structured-output form the way llama-cpp-python's server does, and
``max_in_flight=N`` answers 429 to whatever goes past N concurrent requests (a rate-limit storm).
``logprobs=0.9`` returns token log-probabilities to requests that ask for them, each JSON boolean
of a reply written with that probability (:mod:`~sumjudge.testing.logprobs`; a function of the
boolean's index for varied figures); without it the server ignores the field, as LM Studio does.
``refuse_logprobs=400`` refuses requests that ask for them, as OpenAI refuses its reasoning models.
``POST /v1/completions`` answers a prompt's next token with its top log-probabilities, from
``next_token`` (:mod:`~sumjudge.testing.completions`), after the same scripted faults.

Standard library only (``http.server.ThreadingHTTPServer``; the HTTP side, reading a request and writing its
answer whole, trickled or dropped, is :mod:`~sumjudge.testing.http_wire`)::

    with JudgeServer() as server:
        ModelConfig(id="openai/test-model", base_url=server.base_url, api_key="test")
        server.script(Fault.rate_limit(retry_after=1), step="coverage")
        ...
        server.chat_requests(step="coverage")[0].body

or ``python -m sumjudge.testing.judge_server --port 8800`` for manual use.
"""

from __future__ import annotations

import json
import threading
import time
from collections import deque
from collections.abc import Iterable
from http.server import BaseHTTPRequestHandler
from typing import Any

from .batch_desk import BatchDesk
from .completions import NextToken, completion_payload, default_next_token
from .brains import Brain, NoisyBrain, SchemaBrain, SummarizationBrain
from .context import ContextWindow, prompt_bytes
from .faults import LLAMA_CPP_REFUSAL, Fault, Reply
from .http_wire import LocalServer, make_handler, read_request, send_answer
from .logprobs import OPENAI_LOGPROBS_REFUSAL, Confidence, logprobs_payload
from .recorded import RecordedRequest, content_text, count_tokens, find_schema, step_of, structured_form


class JudgeServer:
    """A scripted Chat Completions server on 127.0.0.1; a context manager.

    ``latency`` seconds per request plus ``token_delay`` seconds per completion token
    simulate a model's speed. ``api_key`` set: requests without ``Authorization: Bearer
    <key>`` (or Azure's ``api-key: <key>``) get 401. ``models`` set: other models get 404. ``context_limit``: see :mod:`.context`.
    """

    def __init__(
        self,
        brain: Brain | None = None,
        *,
        port: int = 0,
        host: str = "127.0.0.1",
        latency: float = 0.0,
        token_delay: float = 0.0,
        refuse: dict[str, int] | None = None,
        max_in_flight: int | None = None,
        retry_after: float | str = 0,
        api_key: str | None = None,
        models: Iterable[str] | None = None,
        record: bool = True,
        context_limit: int | None = None,
        logprobs: Confidence | None = None,
        refuse_logprobs: int | None = None,
        next_token: NextToken | None = None,
        serves: str | None = None,
    ) -> None:
        self.serves = serves
        """The model name replies say answered (a server that loaded another file under the asked name);
        ``None``: the name asked."""
        self.next_token: NextToken = next_token or default_next_token
        self.context = ContextWindow(context_limit)
        self.logprobs = logprobs
        self.refuse_logprobs = refuse_logprobs
        self.brain: Brain = brain if brain is not None else SummarizationBrain()
        self.latency = latency
        self.token_delay = token_delay
        self.refuse = dict(refuse or {})
        self.max_in_flight = max_in_flight
        self.retry_after = retry_after
        self.api_key = api_key
        self.models = set(models) if models is not None else None
        self.record = record
        self._host, self._port = host, port
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._global: deque[Reply] = deque()
        self._by_step: dict[str, deque[Reply]] = {}
        self.requests: list[RecordedRequest] = []
        self.in_flight = 0
        self.peak_in_flight = 0
        self.rate_limited = 0
        """429 answers sent because of ``max_in_flight``."""
        self.chat_calls = 0
        self.usage = {"prompt_tokens": 0, "completion_tokens": 0, "cached_tokens": 0}
        self._httpd: LocalServer | None = None
        self._thread: threading.Thread | None = None
        self.batches = BatchDesk(self._answer, lambda: self.url)
        """Provider batch jobs (OpenAI's files and batches, Anthropic's Message Batches): :mod:`.batch_desk`."""

    # -- life cycle --------------------------------------------------------------------------

    def start(self) -> JudgeServer:
        httpd = LocalServer((self._host, self._port), make_handler(self._handle))
        self._httpd = httpd
        self._thread = threading.Thread(target=httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        if self._httpd is not None:
            self._httpd.shutdown()
            self._httpd.server_close()
            self._httpd = None
        if self._thread is not None:
            self._thread.join(timeout=5)
            self._thread = None

    def __enter__(self) -> JudgeServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    @property
    def port(self) -> int:
        assert self._httpd is not None, "the server is not running"
        return int(self._httpd.server_address[1])

    @property
    def url(self) -> str:
        """``http://127.0.0.1:PORT`` (no ``/v1``)."""
        return f"http://{self._host}:{self.port}"

    @property
    def base_url(self) -> str:
        """What an OpenAI client takes: ``http://127.0.0.1:PORT/v1``."""
        return f"{self.url}/v1"

    # -- scripting and inspection -------------------------------------------------------------

    def script(self, *replies: Reply | str | dict[str, Any], step: str | None = None) -> None:
        """Queue replies: for any request (``step=None``) or for one step only. Used once each."""
        items = [r if isinstance(r, Reply) else Reply(content=r) for r in replies]
        with self._lock:
            queue = self._global if step is None else self._by_step.setdefault(step, deque())
            queue.extend(items)

    def pending(self) -> int:
        """Scripted replies not used yet."""
        with self._lock:
            return len(self._global) + sum(len(q) for q in self._by_step.values())

    def chat_requests(self, step: str | None = None) -> list[RecordedRequest]:
        with self._lock:
            calls = [r for r in self.requests if r.path.rstrip("/").endswith("/chat/completions")]
        return [r for r in calls if step is None or r.step == step]

    def reset(self) -> None:
        with self._lock:
            self.requests.clear()
            self._global.clear()
            self._by_step.clear()
            self.chat_calls = 0
            self.rate_limited = 0
            self.peak_in_flight = 0
            self.usage = {"prompt_tokens": 0, "completion_tokens": 0, "cached_tokens": 0}
        self.context.reset()

    # -- answering ---------------------------------------------------------------------------

    def _next_reply(self, request: RecordedRequest) -> Reply | None:
        with self._lock:
            step = request.step
            for queue in (self._by_step.get(step) if step else None, self._global):
                if not queue:
                    continue
                reply = queue[0]
                if reply.only_for is not None and reply.only_for != request.structured_form:
                    continue
                queue.popleft()
                return reply
        return None

    def _answer(self, request: RecordedRequest) -> tuple[int, dict[str, str], bytes | None, float]:
        """(status, headers, body or None to drop, delay before answering)."""
        if (batch := self.batches.answer(request)) is not None:
            return batch
        if request.method == "GET":
            if request.path.rstrip("/").endswith("/models"):
                names = sorted(self.models) if self.models else ["test-model"]
                data = [{"id": n, "object": "model", "created": 0, "owned_by": "sumjudge"} for n in names]
                return 200, {}, _json({"object": "list", "data": data}), 0.0
            return 404, {}, _error("Not found", "not_found_error"), 0.0
        if request.path.rstrip("/").endswith("/v1/completions"):
            return self._text_completion(request)
        if not request.path.rstrip("/").endswith("/chat/completions"):
            return 404, {}, _error(f"Unknown path {request.path}", "not_found_error"), 0.0
        body = request.body
        if not isinstance(body, dict) or not isinstance(body.get("messages"), list):
            return 400, {}, _error("Request body must be JSON with a 'messages' list", "invalid_request_error"), 0.0
        if self.api_key is not None:
            bearer_ok = request.headers.get("authorization") == f"Bearer {self.api_key}"
            if not bearer_ok and request.headers.get("api-key") != self.api_key:  # Azure sends api-key
                return 401, {}, _error("Incorrect API key provided", "invalid_request_error"), 0.0
        model = str(body.get("model", ""))
        if self.models is not None and model not in self.models:
            return 404, {}, _error(f"The model `{model}` does not exist", "not_found_error"), 0.0
        if self.refuse_logprobs is not None and body.get("logprobs"):
            return self.refuse_logprobs, {}, _error(OPENAI_LOGPROBS_REFUSAL, "invalid_request_error"), 0.0
        form = request.structured_form
        if form in self.refuse:
            return self.refuse[form], {}, _error(LLAMA_CPP_REFUSAL, "internal_server_error"), 0.0
        if self.max_in_flight is not None and self.in_flight > self.max_in_flight:
            with self._lock:
                self.rate_limited += 1
            return 429, {"Retry-After": str(self.retry_after)}, _error("Rate limit reached", "rate_limit_error"), 0.0

        if (overflow := self.context.refuse(body, request.prompt)) is not None:
            return 400, {}, _json(overflow), 0.0
        reply = self._next_reply(request) or Reply()
        brain_answer: Any = None
        if reply.content is None and not reply.drop and reply.status < 400:
            brain_answer = self.brain(request)
            if isinstance(brain_answer, Reply):  # a brain may answer with a fault or a full reply
                reply, brain_answer = brain_answer, brain_answer.content
        if reply.drop:
            return 0, {}, None, reply.delay
        if reply.status >= 400:
            return reply.status, dict(reply.headers), _error(reply.error or "error", reply.error_type), reply.delay

        content: Any = reply.content if reply.content is not None else brain_answer
        if reply.transform is not None:
            content = reply.transform(content)
        text = content if isinstance(content, str) else json.dumps(content, ensure_ascii=False)
        finish = reply.finish_reason
        if reply.truncate:
            text, finish = text[: max(1, len(text) // 2)], "length"
        return self._completion(request, text, finish, dict(reply.headers), reply.delay)

    def _text_completion(self, request: RecordedRequest) -> tuple[int, dict[str, str], bytes | None, float]:
        body = request.body
        if not isinstance(body, dict) or not isinstance(body.get("prompt"), str):
            return 400, {}, _error("Request body must be JSON with a 'prompt' string", "invalid_request_error"), 0.0
        if (overflow := self.context.refuse(body, body["prompt"])) is not None:
            return 400, {}, _json(overflow), 0.0
        reply = self._next_reply(request) or Reply()
        if reply.drop:
            return 0, {}, None, reply.delay
        if reply.status >= 400:
            return reply.status, dict(reply.headers), _error(reply.error or "error", reply.error_type), reply.delay
        if isinstance(reply.content, str):  # a malformed reply, sent as it is
            return 200, dict(reply.headers), reply.content.encode("utf-8"), reply.delay + self.latency
        distribution = reply.content if isinstance(reply.content, dict) else self.next_token(body["prompt"])
        cached = self.context.cache.serve(body["prompt"].encode("utf-8"))
        with self._lock:
            self.chat_calls += 1
            n = self.chat_calls
        payload = completion_payload(body, distribution, number=n, cached_tokens=cached)
        return 200, dict(reply.headers), _json(payload), reply.delay + self.latency

    def completion_requests(self) -> list[RecordedRequest]:
        """The requests to ``/v1/completions``, in the order they came."""
        with self._lock:
            return [r for r in self.requests if r.path.rstrip("/").endswith("/v1/completions")]

    def _completion(
        self, request: RecordedRequest, text: str, finish: str, headers: dict[str, str], delay: float
    ) -> tuple[int, dict[str, str], bytes, float]:
        prompt = prompt_bytes(request.body, request.prompt)
        prompt_tokens, completion_tokens = count_tokens(prompt.decode("utf-8")), count_tokens(text)
        cached = self.context.cache.serve(prompt)
        with self._lock:
            self.chat_calls += 1
            n = self.chat_calls
            self.usage["prompt_tokens"] += prompt_tokens
            self.usage["completion_tokens"] += completion_tokens
            self.usage["cached_tokens"] += cached
        payload = {
            "id": f"chatcmpl-{n}",
            "object": "chat.completion",
            "created": int(time.time()),
            "model": self.serves or request.body.get("model", "test-model"),
            "choices": [
                {
                    "index": 0,
                    "message": {"role": "assistant", "content": text},
                    "finish_reason": finish,
                    "logprobs": self._logprobs(request.body, text),
                }
            ],
            "usage": {
                "prompt_tokens": prompt_tokens,
                "completion_tokens": completion_tokens,
                "total_tokens": prompt_tokens + completion_tokens,
                "prompt_tokens_details": {"cached_tokens": cached},
            },
        }
        delay += self.latency + self.token_delay * completion_tokens
        return 200, headers, _json(payload), delay

    def _logprobs(self, body: dict[str, Any], text: str) -> dict[str, Any] | None:
        if self.logprobs is None or not body.get("logprobs"):
            return None
        return logprobs_payload(text, self.logprobs, int(body.get("top_logprobs") or 0))

    def _handle(self, handler: BaseHTTPRequestHandler, method: str) -> None:
        arrived = time.monotonic()
        request = read_request(handler, method)
        with self._lock:
            if self.record:
                self.requests.append(request)
            self.in_flight += 1
            self.peak_in_flight = max(self.peak_in_flight, self.in_flight)
        try:
            status, headers, payload, delay = self._answer(request)
            # the delay counts from the request's arrival, as a provider's latency does: the time this
            # server spends reading and answering is part of it, not added to it
            send_answer(handler, status, headers, payload, wait=delay - (time.monotonic() - arrived), stop=self._stop)
        finally:
            with self._lock:
                self.in_flight -= 1


def _json(value: Any) -> bytes:
    return json.dumps(value, ensure_ascii=False).encode("utf-8")


def _error(message: str, kind: str) -> bytes:
    return _json({"error": {"message": message, "type": kind, "param": None, "code": None}})


# --------------------------------------------------------------------------------------------
# python -m sumjudge.testing.judge_server
# --------------------------------------------------------------------------------------------


def main(argv: list[str] | None = None) -> None:
    """The command line (:mod:`.serve`)."""
    from .serve import serve

    serve(JudgeServer, argv)


if __name__ == "__main__":
    main()


# The names below are this module's public surface since before the split; they stay importable here.
__all__ = [
    "LLAMA_CPP_REFUSAL",
    "Brain",
    "Fault",
    "JudgeServer",
    "NoisyBrain",
    "RecordedRequest",
    "Reply",
    "SchemaBrain",
    "SummarizationBrain",
    "content_text",
    "count_tokens",
    "find_schema",
    "step_of",
    "structured_form",
]
