"""A Messages API server (``POST /v1/messages``) on 127.0.0.1 for tests of the Anthropic judge.

Built on :class:`~sumjudge.testing.judge_server.JudgeServer`: the same brains, scripts,
faults, recording and life cycle. A request is answered as Anthropic does with a forced tool
call: a ``tool_use`` block whose ``input`` is the brain's object for the schema of the tool
named by ``tool_choice``. Errors have Anthropic's shape (``{"type": "error", "error": {...}}``)
and statuses: 429 with ``Retry-After``, 529 ``overloaded_error``, 500 ``api_error``; a scripted
dict reply becomes the tool's input as it is (so a malformed input can be sent), a scripted
string a plain ``text`` block (a model that ignored the tool), ``Fault.truncated()`` a cut-off
tool input with ``stop_reason: "max_tokens"``. With ``api_key`` set, requests that carry that
key neither as ``x-api-key`` nor as ``Authorization: Bearer`` (newer SDKs send the latter) get 401.
Prompt caching as Anthropic bills it: the prompt up to a block marked ``cache_control`` is written to
the cache the first time (``cache_creation_input_tokens``) and read from it after
(``cache_read_input_tokens``); ``input_tokens`` is the rest::

    with AnthropicServer(api_key="test") as server:
        ModelConfig(id="anthropic/claude-test", base_url=server.url, api_key="test")
        server.script(AnthropicFault.overloaded(), step="coverage")
        server.message_requests(step="coverage")[0].body
"""

from __future__ import annotations

import json
import time
from typing import Any

from .faults import Fault, Reply
from .judge_server import JudgeServer
from .recorded import RecordedRequest, content_text, count_tokens

__all__ = ["AnthropicFault", "AnthropicServer", "as_chat_request"]


class AnthropicFault(Fault):
    """The faults of :class:`Fault`, plus Anthropic's own."""

    @staticmethod
    def overloaded(message: str = "Overloaded") -> Reply:
        return Reply(status=529, error=message, error_type="overloaded_error")

    @staticmethod
    def api_error(message: str = "Internal server error") -> Reply:
        return Reply(status=500, error=message, error_type="api_error")

    @staticmethod
    def tool_input(value: dict[str, Any]) -> Reply:
        """A tool call whose input is ``value`` as it is (for malformed inputs)."""
        return Reply(content=value)

    @staticmethod
    def text_only(text: str = "I think the summary is fine.") -> Reply:
        """A reply with a text block and no tool call."""
        return Reply(content=text)


def _cached_prefix(body: dict[str, Any]) -> str:
    """The prompt up to the last block marked ``cache_control`` (tools, system, messages), or ``""``."""
    parts = [json.dumps(body.get("tools") or [], sort_keys=True), str(body.get("system") or "")]
    marked = ""
    for message in body.get("messages") or []:
        content = message.get("content") if isinstance(message, dict) else None
        for block in content if isinstance(content, list) else [{"text": content}]:
            parts.append(str(block.get("text", "")) if isinstance(block, dict) else "")
            if isinstance(block, dict) and block.get("cache_control"):
                marked = "\n".join(parts)
    return marked


def _tool_schema(body: dict[str, Any]) -> tuple[str | None, dict[str, Any] | None]:
    """The forced tool's name and input schema."""
    tools = [t for t in body.get("tools") or [] if isinstance(t, dict)]
    choice = body.get("tool_choice") if isinstance(body.get("tool_choice"), dict) else {}
    wanted = choice.get("name") if choice.get("type") == "tool" else None
    for tool in tools:
        if wanted is None or tool.get("name") == wanted:
            schema = tool.get("input_schema")
            return tool.get("name"), schema if isinstance(schema, dict) else None
    return None, None


def as_chat_request(request: RecordedRequest) -> RecordedRequest:
    """The same request as a Chat Completions body, so the brains and step routing apply.

    The system prompt becomes a system message and the forced tool's schema a
    ``json_schema`` response format; headers and raw bytes are kept.
    """
    body = request.body if isinstance(request.body, dict) else {}
    system = body.get("system")
    if isinstance(system, list):
        system = content_text(system)
    messages: list[dict[str, Any]] = []
    if system:
        messages.append({"role": "system", "content": system})
    for m in body.get("messages") or []:
        if isinstance(m, dict):
            messages.append({"role": m.get("role"), "content": content_text(m.get("content"))})
    chat: dict[str, Any] = {"model": body.get("model"), "messages": messages}
    name, schema = _tool_schema(body)
    if schema is not None:
        chat["response_format"] = {"type": "json_schema", "json_schema": {"name": name, "schema": schema}}
    return RecordedRequest(
        method=request.method, path=request.path, headers=request.headers, raw=request.raw, body=chat
    )


def _anthropic_error(message: str, kind: str) -> bytes:
    return json.dumps({"type": "error", "error": {"type": kind, "message": message}}).encode("utf-8")


_ERROR_TYPES = {
    400: "invalid_request_error",
    401: "authentication_error",
    403: "permission_error",
    404: "not_found_error",
    429: "rate_limit_error",
    500: "api_error",
    529: "overloaded_error",
}


class AnthropicServer(JudgeServer):
    """A scripted Messages API server on 127.0.0.1; a context manager.

    ``url`` is what ``ANTHROPIC_BASE_URL`` (or ``ModelConfig.base_url``) takes: the SDK adds
    ``/v1/messages`` itself.
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._cache_prefixes: set[str] = set()

    def message_requests(self, step: str | None = None) -> list[RecordedRequest]:
        """The ``/v1/messages`` requests received (original bodies), optionally for one step."""
        with self._lock:
            calls = [r for r in self.requests if r.path.rstrip("/").endswith("/v1/messages")]
        return [r for r in calls if step is None or as_chat_request(r).step == step]

    def _answer(self, request: RecordedRequest) -> tuple[int, dict[str, str], bytes | None, float]:
        if (batch := self.batches.answer(request)) is not None:  # Message Batches
            return batch
        if request.method != "POST" or not request.path.rstrip("/").endswith("/v1/messages"):
            return 404, {}, _anthropic_error(f"Unknown path {request.path}", "not_found_error"), 0.0
        body = request.body
        if not isinstance(body, dict) or not isinstance(body.get("messages"), list):
            return 400, {}, _anthropic_error("messages: Field required", "invalid_request_error"), 0.0
        if "max_tokens" not in body:
            return 400, {}, _anthropic_error("max_tokens: Field required", "invalid_request_error"), 0.0
        if self.api_key is not None and self.api_key not in (
            request.headers.get("x-api-key"),
            request.headers.get("authorization", "").removeprefix("Bearer "),
        ):
            return 401, {}, _anthropic_error("invalid x-api-key", "authentication_error"), 0.0
        model = str(body.get("model", ""))
        if self.models is not None and model not in self.models:
            return 404, {}, _anthropic_error(f"model: {model}", "not_found_error"), 0.0

        chat = as_chat_request(request)
        reply = self._next_reply(chat) or Reply()
        brain_answer: Any = None
        if reply.content is None and not reply.drop and reply.status < 400:
            brain_answer = self.brain(chat)
            if isinstance(brain_answer, Reply):
                reply, brain_answer = brain_answer, brain_answer.content
        if reply.drop:
            return 0, {}, None, reply.delay
        if reply.status >= 400:
            kind = _ERROR_TYPES.get(reply.status, reply.error_type)
            payload = _anthropic_error(reply.error or "error", kind)
            return reply.status, dict(reply.headers), payload, reply.delay

        content: Any = reply.content if reply.content is not None else brain_answer
        if reply.transform is not None:
            content = reply.transform(content)
        name, _ = _tool_schema(body)
        stop = "tool_use"
        if isinstance(content, str) or name is None:
            text = content if isinstance(content, str) else json.dumps(content, ensure_ascii=False)
            blocks: list[dict[str, Any]] = [{"type": "text", "text": text}]
            stop = "end_turn"
            out_text = text
        else:
            tool_input = content
            if reply.truncate:  # cut off inside the tool input: what arrives is incomplete
                tool_input, stop = {}, "max_tokens"
            tool_id = f"toolu_{self.chat_calls + 1:06d}"
            blocks = [{"type": "tool_use", "id": tool_id, "name": name, "input": tool_input}]
            out_text = json.dumps(content, ensure_ascii=False)
        return self._message(chat, model, blocks, stop, out_text, dict(reply.headers), reply.delay)

    def _message(
        self,
        chat: RecordedRequest,
        model: str,
        blocks: list[dict[str, Any]],
        stop: str,
        out_text: str,
        headers: dict[str, str],
        delay: float,
    ) -> tuple[int, dict[str, str], bytes, float]:
        input_tokens = count_tokens(chat.prompt + json.dumps(chat.response_format or {}, ensure_ascii=False))
        output_tokens = count_tokens(out_text)
        prefix = _cached_prefix(json.loads(chat.raw or b"{}"))  # the Messages body, before conversion
        cache = {"cache_creation_input_tokens": 0, "cache_read_input_tokens": 0}
        if prefix:
            with self._lock:
                seen = prefix in self._cache_prefixes
                kind = "cache_read_input_tokens" if seen else "cache_creation_input_tokens"
                self._cache_prefixes.add(prefix)
            cache[kind] = min(input_tokens, count_tokens(prefix))
            input_tokens -= cache[kind]
        with self._lock:
            self.chat_calls += 1
            n = self.chat_calls
            self.usage["prompt_tokens"] += input_tokens
            self.usage["completion_tokens"] += output_tokens
        payload = {
            "id": f"msg_{n:06d}_{int(time.time())}",
            "type": "message",
            "role": "assistant",
            "model": model,
            "content": blocks,
            "stop_reason": stop,
            "stop_sequence": None,
            "usage": {"input_tokens": input_tokens, "output_tokens": output_tokens, **cache},
        }
        delay += self.latency + self.token_delay * output_tokens
        return 200, headers, json.dumps(payload, ensure_ascii=False).encode("utf-8"), delay
