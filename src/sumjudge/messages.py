"""Run input and output shapes: the text of a message, and which text is the source and the summary.

Accepted shapes (those Mastra passes, and plain strings):

- input: a string (the source), a list of messages, or a dict with ``input_messages``
  (or camelCase ``inputMessages``);
- output: a string (the summary), a list of messages, or one message;
- a message: ``{"id"?, "role", "content"}`` where content is a string, a list of parts
  (``{"type": "text", "text": ...}``), or Mastra's stored form with ``parts`` and
  ``toolInvocations`` (on the message or inside ``content``).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from .errors import InputError

RunInput = Any
RunOutput = Any
SourceExtractor = Callable[[Any, Any], str]


def _as_dict(message: Any) -> Mapping[str, Any]:
    if isinstance(message, Mapping):
        return message
    dump = getattr(message, "model_dump", None)  # pydantic objects
    if callable(dump):
        return dump()
    raise InputError(f"a message must be a mapping with 'role' and 'content', got {type(message).__name__}")


def input_messages(run_input: RunInput) -> list[Mapping[str, Any]]:
    """The messages of a run input; a plain string becomes one user message."""
    if run_input is None:
        return []
    if isinstance(run_input, str):
        return [{"role": "user", "content": run_input}]
    if isinstance(run_input, Mapping):
        for key in ("input_messages", "inputMessages"):
            if key in run_input:
                return _message_list(run_input[key], what=f"input[{key!r}]")
        if "role" in run_input:
            return [run_input]
        raise InputError(
            "run input must be a string, a list of messages, or a dict with 'input_messages' "
            f"(or 'inputMessages'); got a dict with keys {sorted(run_input)!r}"
        )
    return _message_list(run_input, what="input")


def output_messages(run_output: RunOutput) -> list[Mapping[str, Any]]:
    """The messages of a run output; a plain string becomes one assistant message."""
    if run_output is None:
        return []
    if isinstance(run_output, str):
        return [{"role": "assistant", "content": run_output}]
    if isinstance(run_output, Mapping) and "role" in run_output:
        return [run_output]
    return _message_list(run_output, what="output")


def _message_list(value: Any, *, what: str) -> list[Mapping[str, Any]]:
    if isinstance(value, (str, bytes)) or not isinstance(value, Iterable):
        raise InputError(f"{what} must be a list of messages, got {type(value).__name__}")
    return [_as_dict(m) for m in value]


def _parts(message: Mapping[str, Any]) -> list[Any]:
    """Mastra/AI SDK parts, wherever the message keeps them."""
    content = message.get("content")
    if isinstance(content, Mapping) and isinstance(content.get("parts"), list):
        return list(content["parts"])
    if isinstance(content, list):
        return content
    if isinstance(message.get("parts"), list):
        return list(message["parts"])
    return []


def message_text(message: Any) -> str:
    """The plain text of one message: its string content, or its text parts joined by newlines."""
    msg = _as_dict(message)
    content = msg.get("content")
    if isinstance(content, str):
        return content
    texts = [_part_text(p) for p in _parts(msg)]
    texts = [t for t in texts if t]
    if texts:
        return "\n".join(texts)
    if isinstance(content, Mapping) and isinstance(content.get("content"), str):
        return content["content"]  # Mastra v2 keeps a flat copy of the text here
    return ""


def _part_text(part: Any) -> str:
    if isinstance(part, str):
        return part
    if isinstance(part, Mapping) and part.get("type", "text") == "text" and isinstance(part.get("text"), str):
        return part["text"]
    return ""


def first_user_text(run_input: RunInput) -> str | None:
    for message in input_messages(run_input):
        if message.get("role") == "user":
            return message_text(message)
    return None


def last_assistant_text(run_output: RunOutput) -> str | None:
    """The summary: the last assistant message with non-blank text (a tool-calling turn is skipped)."""
    for message in reversed(output_messages(run_output)):
        if message.get("role") == "assistant":
            text = message_text(message)
            if text.strip():
                return text
    return None


def select_source(
    run_input: RunInput,
    run_output: RunOutput,
    *,
    source: str | None = None,
    source_extractor: SourceExtractor | None = None,
) -> str:
    """The text to judge against: the extractor's, else ``source``, else the first user message, else ""."""
    if source_extractor is not None:
        try:
            extracted = source_extractor(run_input, run_output)
        except Exception as exc:
            raise InputError(f"source_extractor failed: {type(exc).__name__}: {exc}") from exc
        if not isinstance(extracted, str):
            raise InputError(f"source_extractor must return a str, it returned {type(extracted).__name__}")
        return extracted
    if source is not None:
        return source
    return first_user_text(run_input) or ""


def select_summary(run_output: RunOutput) -> str:
    return last_assistant_text(run_output) or ""


def tool_results(run_output: RunOutput) -> list[dict[str, Any]]:
    """Every finished tool result in the messages, as ``{tool_name, tool_call_id, args, result}``.

    Reads AI SDK / Mastra parts (``tool-invocation`` with state ``result``, ``tool-result``),
    Mastra's ``toolInvocations`` lists, and OpenAI-style ``tool_calls`` + ``role: "tool"``
    messages. Each call id appears once. Non-string results are turned into text by the caller.
    """
    found: dict[str, dict[str, Any]] = {}
    call_args: dict[str, Any] = {}
    call_names: dict[str, str] = {}
    anonymous: list[dict[str, Any]] = []

    def add(call_id: Any, name: Any, args: Any, result: Any) -> None:
        entry = {"tool_name": name or call_names.get(str(call_id), ""), "tool_call_id": call_id,
                 "args": args if args is not None else call_args.get(str(call_id)), "result": result}
        if call_id is None:
            anonymous.append(entry)
        elif str(call_id) not in found:
            found[str(call_id)] = entry

    messages = output_messages(run_output)
    for message in messages:  # first pass: remember what each call asked for
        for call in message.get("tool_calls") or []:
            if isinstance(call, Mapping):
                fn = call.get("function") or {}
                call_names[str(call.get("id"))] = fn.get("name", "")
                call_args[str(call.get("id"))] = _maybe_json(fn.get("arguments"))
        for part in _parts(message):
            if isinstance(part, Mapping) and part.get("type") == "tool-call":
                call_names[str(part.get("toolCallId"))] = part.get("toolName", "")
                call_args[str(part.get("toolCallId"))] = part.get("args", part.get("input"))

    for message in messages:
        invocations: list[Any] = []
        for part in _parts(message):
            if not isinstance(part, Mapping):
                continue
            if part.get("type") == "tool-invocation":
                invocations.append(part.get("toolInvocation") or {})
            elif part.get("type") == "tool-result":
                add(part.get("toolCallId"), part.get("toolName"), part.get("args"),
                    part.get("result", part.get("output")))
        content = message.get("content")
        for holder in (message, content if isinstance(content, Mapping) else {}):
            invocations.extend(holder.get("toolInvocations") or [])
        for inv in invocations:
            if isinstance(inv, Mapping) and inv.get("state") == "result":
                add(inv.get("toolCallId"), inv.get("toolName"), inv.get("args"), inv.get("result"))
        if message.get("role") == "tool" and "tool_call_id" in message:
            add(message.get("tool_call_id"), message.get("name"), None, message_text(message))
    return list(found.values()) + anonymous


def _maybe_json(value: Any) -> Any:
    if isinstance(value, str):
        try:
            return json.loads(value)
        except ValueError:
            return value
    return value


def result_text(result: Any) -> str:
    """A tool result as text: strings as they are, anything else as JSON (never ``str()``)."""
    if isinstance(result, str):
        return result
    return json.dumps(result, ensure_ascii=False, default=str)


