"""Anthropic's Messages API through the official SDK (extra ``anthropic``).

Structured output is a forced tool call: one tool whose ``input_schema`` is the step's JSON
schema, and ``tool_choice={"type": "tool", "name": ...}``, so the model's answer arrives as the
tool's input. System messages go to the ``system`` parameter. The SDK's own retries are off
(``max_retries=0``): transient failures (429, 529 overloaded, 5xx, timeouts, dropped connections)
are retried by :mod:`sumjudge.judges.retry` within the call's budget; invalid or truncated tool
input is re-asked by :mod:`sumjudge.judges.structured`. ``temperature`` is sent only when set
explicitly in the ``ModelConfig`` (newer Claude models refuse it; the SDK no longer takes it as
an argument, so it travels in the request body). Reads ``ANTHROPIC_API_KEY`` and
``ANTHROPIC_BASE_URL`` (or ``ModelConfig.api_key`` / ``base_url``). ``max_concurrency`` puts
the calls behind an :class:`~sumjudge.judges.limiter.AdaptiveLimiter`.

The SDK's async client holds connections bound to one event loop, so the judge keeps one client
per running loop, shared by the calls in flight on it and closed when the last one ends (the
same rule as the OpenAI-compatible judge): ``run_sync`` on a fresh loop per call leaks nothing.
"""

from __future__ import annotations

import asyncio
import importlib
import json
import threading
from collections.abc import Awaitable, Callable
from typing import Any

from ..errors import MissingDependencyError
from .base import ChatMessage, JudgeReply, JudgeRequest, ModelConfig, OutputT, Usage
from .clients import LoopClients, send_limited
from .limiter import AdaptiveLimiter
from .providers import ProviderSpec, resolve_api_key, resolve_base_url
from .retry import (
    Classification,
    RetryPolicy,
    Transient,
    call_with_retries,
    classify_status,
)
from .structured import Completion, generate_structured, schema_name, strict_json_schema

INSTALL_LINE = "pip install 'sumjudge[anthropic]'"
DEFAULT_MAX_TOKENS = 4096
"""The Messages API requires ``max_tokens``; used when neither the config nor the request sets one."""


def import_anthropic() -> Any:
    """The ``anthropic`` SDK, or :class:`MissingDependencyError` with the line that installs it."""
    try:
        return importlib.import_module("anthropic")
    except ImportError as exc:
        what = "the anthropic SDK (needed by 'anthropic/...' judges)"
        raise MissingDependencyError(what, INSTALL_LINE) from exc


def split_system(messages: list[ChatMessage]) -> tuple[str | None, list[dict[str, Any]]]:
    """System text apart; the other turns with consecutive same-role turns merged.

    The Messages API takes the system prompt as a parameter and wants turns that start with
    ``user`` and alternate. A turn that holds a message marked ``cache`` (the instructions and
    source that many calls share) is sent as text blocks, the marked one with
    ``cache_control: ephemeral``, so Anthropic caches the prompt up to there.
    """
    system = "\n\n".join(m.content for m in messages if m.role == "system") or None
    turns: list[dict[str, Any]] = []
    blocks: list[list[ChatMessage]] = []
    for m in messages:
        if m.role == "system":
            continue
        if turns and turns[-1]["role"] == m.role:
            blocks[-1].append(m)
        else:
            turns.append({"role": m.role})
            blocks.append([m])
    for turn, parts in zip(turns, blocks):
        if any(p.cache for p in parts):
            turn["content"] = [
                {"type": "text", "text": p.content, **({"cache_control": {"type": "ephemeral"}} if p.cache else {})}
                for p in parts
            ]
        else:
            turn["content"] = "\n\n".join(p.content for p in parts)
    if not turns or turns[0]["role"] != "user":
        turns.insert(0, {"role": "user", "content": "Go."})
    return system, turns


def _error_message(exc: Any) -> str:
    body = getattr(exc, "body", None)
    if isinstance(body, dict):
        err = body.get("error")
        if isinstance(err, dict) and err.get("message"):
            kind = err.get("type")
            return f"{kind}: {err['message']}" if kind else str(err["message"])
    return str(getattr(exc, "message", None) or exc)



class AnthropicJudge:
    """A judge answered by an Anthropic model through a forced tool call. Safe to share."""

    def __init__(
        self,
        spec: ProviderSpec,
        name: str,
        config: ModelConfig,
        *,
        sleep: Callable[[float], Awaitable[object]] = asyncio.sleep,
        limiter: AdaptiveLimiter | None = None,
    ) -> None:
        self._sdk = import_anthropic()
        self._spec = spec
        self._name = name
        self.config: ModelConfig = config
        """The settings this judge was made with (public: the reply cache keys on them)."""
        self._api_key = resolve_api_key(spec, config)  # fails here naming ANTHROPIC_API_KEY
        self._base_url = resolve_base_url(spec, config)
        self._policy = RetryPolicy.from_config(config)
        self._sleep = sleep
        if limiter is None and config.max_concurrency is not None:
            limiter = AdaptiveLimiter(config.max_concurrency, max_pause=config.max_retry_time, sleep=sleep)
        self._limiter = limiter
        self._lock = threading.Lock()
        self._clients: LoopClients[Any] = LoopClients(self._make_client)

    @property
    def base_url(self) -> str | None:
        return self._base_url

    def __repr__(self) -> str:
        return f"AnthropicJudge({self.model_id!r}, base_url={self._base_url!r})"

    def _make_client(self) -> Any:
        return self._sdk.AsyncAnthropic(
            api_key=self._api_key,
            base_url=self._base_url,
            max_retries=0,
            timeout=self.config.timeout,
            default_headers=dict(self.config.headers) or None,
        )


    async def _create(self, client: Any, kwargs: dict[str, Any]) -> Any:
        return await send_limited(self._limiter, lambda: client.messages.create(**kwargs), self._sdk.RateLimitError)

    @property
    def model_id(self) -> str:
        return f"{self._spec.name}/{self._name}"

    def classify(self, exc: BaseException) -> Classification:
        """Which SDK failures heal: status errors by status, timeouts and connection errors always."""
        sdk = self._sdk
        if isinstance(exc, sdk.APIStatusError):
            headers = getattr(getattr(exc, "response", None), "headers", None)
            return classify_status(exc.status_code, _error_message(exc), headers)
        if isinstance(exc, sdk.APIConnectionError):  # APITimeoutError is one too
            return Transient(f"{type(exc).__name__}: {exc}")
        return None

    async def generate(self, request: JudgeRequest[OutputT]) -> JudgeReply[OutputT]:
        schema = strict_json_schema(request.output_type)
        tool_name = schema_name(request.output_type)
        doc = (request.output_type.__doc__ or "").strip().splitlines()
        tool = {
            "name": tool_name,
            "description": (doc[0] if doc else f"Record the result of the {request.step} step."),
            "input_schema": schema,
        }
        max_tokens = request.max_output_tokens or self.config.max_output_tokens or DEFAULT_MAX_TOKENS

        async with self._clients.get() as client:

            async def send(messages: list[ChatMessage]) -> Completion:
                return await self._send(client, request, messages, tool, max_tokens)

            return await generate_structured(request, send, max_reasks=self.config.max_reasks)

    async def _send(
        self,
        client: Any,
        request: JudgeRequest[Any],
        messages: list[ChatMessage],
        tool: dict[str, Any],
        max_tokens: int,
    ) -> Completion:
        system, turns = split_system(messages)
        kwargs: dict[str, Any] = {
            "model": self._name,
            "max_tokens": max_tokens,
            "messages": turns,
            "tools": [tool],
            "tool_choice": {"type": "tool", "name": tool["name"]},
        }
        if system:
            kwargs["system"] = system
        extra_body = dict(self.config.extra)
        if request.temperature is not None:  # a repeated sample's own temperature
            extra_body["temperature"] = request.temperature
        elif "temperature" in self.config.model_fields_set:
            # Sampling parameters left the SDK's signature (anthropic 1.0) and newer Claude models
            # refuse them with a 400, so temperature is sent only when the user set it.
            extra_body.setdefault("temperature", self.config.temperature)
        if extra_body:
            kwargs["extra_body"] = extra_body
        response = await call_with_retries(
            lambda: self._create(client, kwargs),
            classify=self.classify,
            policy=self._policy,
            step=request.step,
            what=f"{self.model_id} {request.step} call",
            sleep=self._sleep,
        )
        return self._completion(response, tool["name"])

    @staticmethod
    def _completion(response: Any, tool_name: str) -> Completion:
        text: str | None = None
        texts: list[str] = []
        for block in response.content or []:
            kind = getattr(block, "type", None)
            if kind == "tool_use" and getattr(block, "name", None) == tool_name and text is None:
                text = json.dumps(block.input, ensure_ascii=False)
            elif kind == "text" and getattr(block, "text", None):
                texts.append(block.text)
        if text is None and texts:
            text = "\n".join(texts)
        stop = getattr(response, "stop_reason", None)
        usage = getattr(response, "usage", None)
        return Completion(
            text=text,
            finish_reason="length" if stop == "max_tokens" else stop,
            usage=Usage(
                prompt_tokens=int(getattr(usage, "input_tokens", 0) or 0)
                + int(getattr(usage, "cache_read_input_tokens", 0) or 0)
                + int(getattr(usage, "cache_creation_input_tokens", 0) or 0),
                completion_tokens=int(getattr(usage, "output_tokens", 0) or 0),
                calls=1,
                cached_tokens=int(getattr(usage, "cache_read_input_tokens", 0) or 0),
                cache_write_tokens=int(getattr(usage, "cache_creation_input_tokens", 0) or 0),
            ),
            refusal=None if stop != "refusal" else "the model stopped with stop_reason='refusal'",
        )


__all__ = ["INSTALL_LINE", "AnthropicJudge", "import_anthropic", "split_system"]
