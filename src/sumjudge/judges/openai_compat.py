"""Chat Completions for OpenAI and every compatible server (vLLM, Ollama, llama.cpp, Groq, ...).

One :class:`OpenAICompatJudge` per ``"provider/model"``. A call goes down three layers:

1. :func:`~sumjudge.judges.structured.generate_structured`: schema in, validated object out,
   re-asking on invalid or truncated replies;
2. :func:`~sumjudge.judges.retry.call_with_retries`: 429 (``Retry-After``), 5xx, timeouts and
   dropped connections are retried with backoff; 400/401/403/404 fail at once;
3. one HTTP request through the official ``openai`` SDK (its own retries off), inside the
   judge's :class:`~sumjudge.judges.limiter.AdaptiveLimiter` when ``max_concurrency`` is set.

Structured output follows the provider entry's ``structured`` form and falls back, for this
judge only, when a server refuses it: ``json_schema`` (strict) -> ``json_object`` with a
``schema`` (llama-cpp-python's server) -> plain JSON mode with the schema in the prompt ->
the schema in the prompt alone. A refusal is a 400/422 or a 500 whose message names
``response_format`` or ``json_schema``; switching costs no retry.

The SDK's client is bound to the connections of one event loop, so the judge keeps one client
per running loop, shared by the calls in flight on it and closed when the last one ends: no
connection outlives its loop, and ``run_sync`` (a fresh loop per call) leaks nothing.
"""

from __future__ import annotations

import asyncio
import ssl
import threading
from collections.abc import Awaitable, Callable
from typing import Any

from ..errors import ConfigurationError, MissingDependencyError
from .base import ChatMessage, JudgeReply, JudgeRequest, ModelConfig, OutputT, Usage, merge_turns
from .clients import LoopClients, send_limited
from .limiter import AdaptiveLimiter
from .providers import ProviderSpec, resolve_api_key, resolve_base_url
from .retry import (
    Classification,
    Permanent,
    RetryPolicy,
    Transient,
    call_with_retries,
    classify_status,
)
from .schema_bounds import SchemaBounds, bound_schema
from .structured import (
    Completion,
    generate_structured,
    schema_name,
    strict_json_schema,
    with_schema_in_prompt,
)

PLACEHOLDER_API_KEY = "sk-no-key-required"
"""Sent to local servers that need no key (the SDK insists on one)."""

PROMPT_ONLY = "prompt"
"""Last fallback: no ``response_format`` at all, the schema stated in the prompt."""

GRAMMAR_BOUNDS = SchemaBounds(max_items=40, max_string_chars=400)
"""Generous enough for a capable model's claims and reasons, finite for a weak one's."""

FALLBACK_ORDER: tuple[str, ...] = ("json_schema", "json_object_schema", "json_object", PROMPT_ONLY)

_REFUSAL_WORDS = ("response_format", "json_schema", "json schema", "json_object", "structured output")


def _import_openai() -> Any:
    try:
        import openai
    except ImportError as exc:  # pragma: no cover - openai is a core dependency
        raise MissingDependencyError("the openai SDK", "pip install openai") from exc
    return openai


def server_message(exc: BaseException) -> str:
    """The server's own error message from an SDK status error (else the exception text)."""
    body = getattr(exc, "body", None)
    if isinstance(body, dict):
        inner = body.get("error", body)
        if isinstance(inner, dict):
            msg = inner.get("message") or inner.get("detail")
            if isinstance(msg, str) and msg:
                return msg
        elif isinstance(inner, str) and inner:
            return inner
        detail = body.get("detail")
        if detail:
            return str(detail)
    elif isinstance(body, str) and body.strip():
        return body.strip()
    return str(getattr(exc, "message", "") or exc)



class OpenAICompatJudge:
    """A judge that speaks Chat Completions. Safe to share across tasks, threads and event loops."""

    def __init__(
        self,
        spec: ProviderSpec,
        name: str,
        config: ModelConfig,
        *,
        sleep: Callable[[float], Awaitable[object]] = asyncio.sleep,
        limiter: AdaptiveLimiter | None = None,
    ) -> None:
        self._openai = _import_openai()
        self._spec = spec
        self._name = name
        self.config: ModelConfig = config
        """The settings this judge was made with (public: the reply cache keys on them)."""
        key = resolve_api_key(spec, config)  # a hosted provider without a key fails here, naming the variable
        self._api_key = key if key is not None else PLACEHOLDER_API_KEY
        base_url = resolve_base_url(spec, config)
        if not base_url:
            raise ConfigurationError(
                f"provider {spec.name!r} has no default endpoint: set {spec.base_url_env} "
                f"or pass ModelConfig(id=..., base_url=...)"
            )
        self._base_url = base_url
        self._mode: str = spec.structured
        self._policy = RetryPolicy.from_config(config)
        self._sleep = sleep
        if limiter is None and config.max_concurrency is not None:
            limiter = AdaptiveLimiter(config.max_concurrency, max_pause=config.max_retry_time, sleep=sleep)
        self._limiter = limiter
        self._lock = threading.RLock()
        self._clients: LoopClients[Any] = LoopClients(self._make_client)
        self._ssl_context: ssl.SSLContext | None = None

    # -- the JudgeModel protocol ---------------------------------------------------------------

    @property
    def model_id(self) -> str:
        return f"{self._spec.name}/{self._name}"

    async def generate(self, request: JudgeRequest[OutputT]) -> JudgeReply[OutputT]:
        schema = strict_json_schema(request.output_type)
        # A grammar-constrained server (json_object + schema) gets every array and string bounded,
        # and coverage exactly one verdict per question, so even a small model ends with valid JSON.
        grammar_schema = bound_schema(schema, request.inputs, GRAMMAR_BOUNDS)
        name = schema_name(request.output_type)
        max_tokens = request.max_output_tokens or self.config.max_output_tokens
        what = f"{self.model_id} {request.step} call"

        async with self._clients.get() as client:

            async def send(messages: list[ChatMessage]) -> Completion:
                return await call_with_retries(
                    lambda: self._attempt(client, messages, schema, grammar_schema, name, max_tokens, request.temperature),
                    classify=self.classify,
                    policy=self._policy,
                    step=request.step,
                    what=what,
                    sleep=self._sleep,
                )

            return await generate_structured(request, send, max_reasks=self.config.max_reasks)

    # -- what a user may look at -----------------------------------------------------------------

    @property
    def structured_mode(self) -> str:
        """The structured-output form this judge uses now (after any fallback)."""
        return self._mode

    @property
    def base_url(self) -> str:
        return self._base_url

    @property
    def limiter(self) -> AdaptiveLimiter | None:
        return self._limiter

    def __repr__(self) -> str:
        return f"OpenAICompatJudge({self.model_id!r}, base_url={self._base_url!r}, mode={self._mode!r})"

    # -- one HTTP request ------------------------------------------------------------------------

    def _body(
        self,
        mode: str,
        messages: list[ChatMessage],
        schema: dict[str, Any],
        grammar_schema: dict[str, Any],
        name: str,
        max_tokens: int | None,
        temperature: float | None = None,
    ) -> dict[str, Any]:
        if mode != "json_schema":
            messages = with_schema_in_prompt(messages, schema)
        body: dict[str, Any] = {
            "model": self._name,
            "messages": [{"role": m.role, "content": m.content} for m in merge_turns(messages)],
            # A request's own temperature (a repeated sample's) wins over the configured one.
            "temperature": self.config.temperature if temperature is None else temperature,
        }
        if mode == "json_schema":
            body["response_format"] = {
                "type": "json_schema",
                "json_schema": {"name": name, "schema": schema, "strict": True},
            }
        elif mode == "json_object_schema":
            body["response_format"] = {"type": "json_object", "schema": grammar_schema}
        elif mode == "json_object":
            body["response_format"] = {"type": "json_object"}
        if max_tokens is not None:
            body["max_tokens"] = max_tokens
        if self.config.extra:
            body["extra_body"] = dict(self.config.extra)
        return body

    async def _attempt(
        self,
        client: Any,
        messages: list[ChatMessage],
        schema: dict[str, Any],
        grammar_schema: dict[str, Any],
        name: str,
        max_tokens: int | None,
        temperature: float | None = None,
    ) -> Completion:
        """One request; a refused structured-output form is swapped for the next at no retry cost."""
        while True:
            mode = self._mode
            body = self._body(mode, messages, schema, grammar_schema, name, max_tokens, temperature)
            try:
                response = await self._send(client, body)
            except self._openai.APIStatusError as exc:
                if self._refuses_structured_form(exc, mode):
                    self._fall_back_from(mode)
                    continue
                raise
            return self._completion(response)

    async def _send(self, client: Any, body: dict[str, Any]) -> Any:
        return await send_limited(
            self._limiter, lambda: client.chat.completions.create(**body), self._openai.RateLimitError
        )

    @staticmethod
    def _completion(response: Any) -> Completion:
        usage = getattr(response, "usage", None)
        details = getattr(usage, "prompt_tokens_details", None)
        counted = Usage(
            prompt_tokens=int(getattr(usage, "prompt_tokens", 0) or 0),
            completion_tokens=int(getattr(usage, "completion_tokens", 0) or 0),
            calls=1,
            cached_tokens=int(getattr(details, "cached_tokens", 0) or 0),
        )
        choices = getattr(response, "choices", None) or []
        if not choices:
            return Completion(text=None, finish_reason=None, usage=counted)
        choice = choices[0]
        message = getattr(choice, "message", None)
        return Completion(
            text=getattr(message, "content", None),
            finish_reason=getattr(choice, "finish_reason", None),
            usage=counted,
            refusal=getattr(message, "refusal", None),
        )

    # -- structured-output fallback -------------------------------------------------------------

    def _refuses_structured_form(self, exc: Any, mode: str) -> bool:
        if mode == PROMPT_ONLY:
            return False
        status = getattr(exc, "status_code", None)
        if status not in (400, 422, 500):
            return False
        text = server_message(exc).lower()
        return any(word in text for word in _REFUSAL_WORDS)

    def _fall_back_from(self, mode: str) -> None:
        with self._lock:
            if self._mode != mode:  # another call already moved on
                return
            order = FALLBACK_ORDER
            self._mode = order[order.index(mode) + 1] if mode in order[:-1] else PROMPT_ONLY

    # -- failures --------------------------------------------------------------------------------

    def classify(self, exc: BaseException) -> Classification:
        """Map the SDK's exceptions onto transient / permanent (see ``retry.py``)."""
        openai = self._openai
        if isinstance(exc, openai.APITimeoutError):
            return Transient(f"no reply within {self.config.timeout:g}s (timeout)")
        if isinstance(exc, openai.APIConnectionError):
            cause = exc.__cause__ or exc.__context__
            detail = f": {cause}" if cause else ""
            return Transient(f"connection failed or dropped ({self._base_url}){detail}")
        if isinstance(exc, openai.APIStatusError):
            verdict = classify_status(exc.status_code, server_message(exc), exc.response.headers)
            if isinstance(verdict, Permanent) and exc.status_code == 404:
                return Permanent(f"{verdict.reason}; model {self._name!r} at {self._base_url}", status=404)
            return verdict
        if isinstance(exc, openai.APIResponseValidationError):
            return Transient(f"unreadable response: {exc}")
        return None

    # -- one SDK client per event loop -----------------------------------------------------------

    def _ssl(self) -> ssl.SSLContext:
        with self._lock:
            if self._ssl_context is None:
                self._ssl_context = ssl.create_default_context()
            return self._ssl_context

    def _make_client(self) -> Any:
        openai = self._openai
        http_client = openai.DefaultAsyncHttpxClient(verify=self._ssl())
        return openai.AsyncOpenAI(
            api_key=self._api_key,
            base_url=self._base_url,
            timeout=self.config.timeout,
            max_retries=0,
            default_headers=dict(self.config.headers) or None,
            http_client=http_client,
        )



__all__ = ["FALLBACK_ORDER", "PLACEHOLDER_API_KEY", "OpenAICompatJudge", "server_message"]
