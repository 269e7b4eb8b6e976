"""A request as the test servers received it, and what a brain reads off it (step, schema, prompt).

Shared by :mod:`~sumjudge.testing.judge_server` (Chat Completions), :mod:`~sumjudge.testing.anthropic_server`
(Messages API) and the brains of :mod:`~sumjudge.testing.brains`.
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class RecordedRequest:
    """One request as the server received it."""

    method: str
    path: str
    headers: dict[str, str]
    """Header names in lower case."""
    raw: bytes
    body: Any
    """The parsed JSON body, or ``None``."""

    @property
    def text(self) -> str:
        """The body as the client sent it (UTF-8)."""
        return self.raw.decode("utf-8", errors="replace")

    @property
    def messages(self) -> list[dict[str, Any]]:
        return list(self.body.get("messages", [])) if isinstance(self.body, dict) else []

    @property
    def prompt(self) -> str:
        """Every message's text, joined (content given as a list of parts counts its text parts)."""
        return "\n".join(content_text(m.get("content")) for m in self.messages)

    @property
    def response_format(self) -> dict[str, Any] | None:
        rf = self.body.get("response_format") if isinstance(self.body, dict) else None
        return rf if isinstance(rf, dict) else None

    @property
    def structured_form(self) -> str | None:
        """``json_schema``, ``json_object_schema``, ``json_object``, or ``None`` (none asked)."""
        return structured_form(self.response_format)

    @property
    def schema(self) -> dict[str, Any] | None:
        return find_schema(self.body) if isinstance(self.body, dict) else None

    @property
    def step(self) -> str | None:
        return step_of(self.schema, self.response_format)


def content_text(content: Any) -> str:
    """A message's text: a string as is, a list of parts (``{"type": "text", "text": ...}``) joined."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "\n".join(str(p.get("text", "")) for p in content if isinstance(p, dict) and p.get("type") == "text")
    return "" if content is None else str(content)


def structured_form(rf: dict[str, Any] | None) -> str | None:
    if not rf:
        return None
    kind = rf.get("type")
    if kind == "json_object" and isinstance(rf.get("schema"), dict):
        return "json_object_schema"
    return str(kind) if kind else None


def find_schema(body: dict[str, Any]) -> dict[str, Any] | None:
    """The JSON schema a request asks for: in ``response_format``, else stated in a message."""
    rf = body.get("response_format")
    if isinstance(rf, dict):
        js = rf.get("json_schema")
        if isinstance(js, dict) and isinstance(js.get("schema"), dict):
            return js["schema"]
        if isinstance(rf.get("schema"), dict):
            return rf["schema"]
    decoder = json.JSONDecoder()
    for msg in body.get("messages", []) or []:
        content = msg.get("content") if isinstance(msg, dict) else None
        if not isinstance(content, str):
            continue
        for match in re.finditer(r"\{\s*\"", content):
            try:
                value, _ = decoder.raw_decode(content, match.start())
            except ValueError:
                continue
            if isinstance(value, dict) and isinstance(value.get("properties"), dict):
                return value
    return None


def step_of(schema: dict[str, Any] | None, rf: dict[str, Any] | None = None) -> str | None:
    """The step a schema is for: its only top-level property (``alignment``...), else its name."""
    if schema and isinstance(schema.get("properties"), dict) and len(schema["properties"]) == 1:
        return next(iter(schema["properties"]))
    if rf and isinstance(rf.get("json_schema"), dict):
        return rf["json_schema"].get("name")
    return None


def count_tokens(text: str) -> int:
    """A rough token count: four UTF-8 bytes a token."""
    return math.ceil(len(text.encode("utf-8")) / 4) if text else 0


__all__ = ["RecordedRequest", "content_text", "count_tokens", "find_schema", "step_of", "structured_form"]
