"""Anthropic's Messages API through the official SDK (extra ``anthropic``).

The layers every call goes through (re-asks, retries, limiter, per-loop client) are
:class:`~sumjudge.judges.http.HTTPJudge`'s; this module holds the Messages API's own request,
reply and error table. Structured output is a forced tool call: one tool whose ``input_schema``
is the step's JSON schema, and ``tool_choice={"type": "tool", "name": ...}``, so the model's
answer arrives as the tool's input. System messages go to the ``system`` parameter. The SDK's own retries are off
(``max_retries=0``): transient failures (429, 529 overloaded, 5xx, timeouts, dropped connections)
are retried by :mod:`sumjudge.judges.retry` within the call's budget; invalid or truncated tool
input is re-asked by :mod:`sumjudge.judges.structured`. ``temperature`` is sent only when set
explicitly in the ``ModelConfig`` (newer Claude models refuse it; the SDK no longer takes it as
an argument, so it travels in the request body). Reads ``ANTHROPIC_API_KEY`` and
``ANTHROPIC_BASE_URL`` (or ``ModelConfig.api_key`` / ``base_url``).
"""

from __future__ import annotations

import importlib
import json
from dataclasses import dataclass
from typing import Any

from ..errors import MissingDependencyError
from .base import ChatMessage, JudgeRequest, Usage, reported_count, served_model
from .http import ErrorRule, HTTPJudge
from .providers import resolve_api_key
from .retry import Classification, Transient, classify_status
from .structured import Completion, schema_name, strict_json_schema

INSTALL_LINE = "pip install 'sumjudge[anthropic]'"
DEFAULT_MAX_TOKENS = 4096
"""The Messages API requires ``max_tokens``; used when neither the config nor the request sets one,
lowered to the room the prompt leaves in the context window (Anthropic refuses a request whose prompt
and ``max_tokens`` together exceed the window), never below the request's ``reply_tokens``."""


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



@dataclass(frozen=True)
class _Prepared:
    """What every attempt of one request shares: the forced tool and the token limit."""

    tool: dict[str, Any]
    max_tokens: int | None
    """What the config or the request set, else ``None`` (:data:`DEFAULT_MAX_TOKENS`, within the window)."""
    reply_tokens: int
    """The room the request reserved for its reply (``max_tokens`` is never set below it)."""
    temperature: float | None
    """The request's own temperature (a repeated sample's), else ``None``."""


TOOL = "tool"
"""The one structured-output form of the Messages API: a forced tool call."""


class AnthropicJudge(HTTPJudge):
    """A judge answered by an Anthropic model through a forced tool call. Safe to share."""

    fallback_order = (TOOL,)

    def setup(self) -> None:
        self._sdk = import_anthropic()
        self._api_key = resolve_api_key(self._spec, self.config)  # fails here naming ANTHROPIC_API_KEY

    # -- request and reply -----------------------------------------------------------------------

    def prepare(self, request: JudgeRequest[Any]) -> _Prepared:
        doc = (request.output_type.__doc__ or "").strip().splitlines()
        tool = {
            "name": schema_name(request.output_type),
            "description": (doc[0] if doc else f"Record the result of the {request.step} step."),
            "input_schema": strict_json_schema(request.output_type),
        }
        max_tokens = request.max_output_tokens or self.config.max_output_tokens
        return _Prepared(
            tool=tool, max_tokens=max_tokens, reply_tokens=request.reply_tokens or 0, temperature=request.temperature
        )

    def reply_limit(self, prepared: _Prepared, room: int) -> int | None:
        if prepared.max_tokens is not None:
            return prepared.max_tokens
        return max(1, min(max(DEFAULT_MAX_TOKENS, prepared.reply_tokens), room))

    def build_request(
        self, form: str, messages: list[ChatMessage], prepared: _Prepared, max_tokens: int | None
    ) -> dict[str, Any]:
        system, turns = split_system(messages)
        body: dict[str, Any] = {
            "model": self._name,
            "max_tokens": max_tokens or DEFAULT_MAX_TOKENS,
            "messages": turns,
            "tools": [prepared.tool],
            "tool_choice": {"type": "tool", "name": prepared.tool["name"]},
        }
        if system:
            body["system"] = system
        extra_body = dict(self.config.extra)
        if prepared.temperature is not None:  # a repeated sample's own temperature
            extra_body["temperature"] = prepared.temperature
        elif "temperature" in self.config.model_fields_set:
            # Sampling parameters left the SDK's signature (anthropic 1.0) and newer Claude models
            # refuse them with a 400, so temperature is sent only when the user set it.
            extra_body.setdefault("temperature", self.config.temperature)
        if extra_body:
            body["extra_body"] = extra_body
        return body

    async def send(self, client: Any, body: dict[str, Any]) -> Any:
        return await client.messages.create(**body)

    def parse_reply(self, response: Any, prepared: _Prepared) -> Completion:
        tool_name = prepared.tool["name"]
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
                prompt_tokens=reported_count(getattr(usage, "input_tokens", 0))
                + reported_count(getattr(usage, "cache_read_input_tokens", 0))
                + reported_count(getattr(usage, "cache_creation_input_tokens", 0)),
                completion_tokens=reported_count(getattr(usage, "output_tokens", 0)),
                calls=1,
                cached_tokens=reported_count(getattr(usage, "cache_read_input_tokens", 0)),
                cache_write_tokens=reported_count(getattr(usage, "cache_creation_input_tokens", 0)),
                served_models=served_model(getattr(response, "model", None)),
            ),
            refusal=None if stop != "refusal" else "the model stopped with stop_reason='refusal'",
        )

    def response_from_json(self, payload: dict[str, Any]) -> Any:
        return self._sdk.types.Message.model_validate(payload)

    # -- failures and the SDK client -------------------------------------------------------------

    @property
    def errors(self) -> tuple[ErrorRule, ...]:
        return (
            (self._sdk.APIStatusError, _status_error),
            (self._sdk.APIConnectionError, lambda exc: Transient(f"{type(exc).__name__}: {exc}")),  # timeouts too
        )

    @property
    def rate_limit_error(self) -> type[BaseException]:
        return self._sdk.RateLimitError  # type: ignore[no-any-return]

    def make_client(self) -> Any:
        return self._sdk.AsyncAnthropic(
            api_key=self._api_key,
            base_url=self._base_url,
            max_retries=0,
            timeout=self.config.timeout,
            default_headers=dict(self.config.headers) or None,
        )


def _status_error(exc: Any) -> Classification:
    headers = getattr(getattr(exc, "response", None), "headers", None)
    return classify_status(exc.status_code, _error_message(exc), headers)


__all__ = ["INSTALL_LINE", "AnthropicJudge", "import_anthropic", "split_system"]
