"""Bound every array and string of a JSON schema, and the tokens a reply to it can take.

A model whose decoding is constrained by a grammar (llama.cpp) can only stop where the grammar
lets it. With unbounded arrays and strings, a weak model may keep writing claims, or one endless
reason, until ``max_tokens`` cuts it off mid-string: the reply is invalid JSON and a re-ask gets
the same. With every array and string bounded, the longest reply the grammar allows has a known
size, so ``max_tokens`` can be set above it and the model always reaches the closing brace.

Provider-neutral and step-neutral: it reads only the schema and the bounds the request carries
(:class:`~sumjudge.judges.base.ReplyBounds`, set by whoever asks), beside the judge's own limits
(:class:`SchemaBounds`).

- Top-level arrays hold ``ReplyBounds.min_items`` to ``ReplyBounds.max_items`` items (the judge's
  ``max_items`` when the request says nothing); a fixed count (one verdict per question) is never
  lowered, any other cap may be lowered further to fit a token budget (``max_top_items``).
- Nested arrays hold at most ``max_items``.
- Every string holds 1 to ``max_string_chars`` characters (or fewer, when the request says so).
"""

from __future__ import annotations

import copy
import json
from dataclasses import dataclass
from typing import Any

from .base import ReplyBounds

JSONSchema = dict[str, Any]


@dataclass(frozen=True)
class SchemaBounds:
    """Limits put on a schema before it becomes a grammar."""

    max_items: int = 8
    """Items of an array when the request says nothing more precise."""
    max_string_chars: int = 200
    """Characters of every string (claims, questions, reasons)."""
    min_string_chars: int = 1
    max_top_items: int | None = None
    """A further cap on top-level arrays (to fit a token budget); never below a fixed count."""

    def __post_init__(self) -> None:
        if self.max_items < 1 or self.max_string_chars < 1:
            raise ValueError("schema bounds must be at least 1")
        if self.max_top_items is not None and self.max_top_items < 1:
            raise ValueError("schema bounds must be at least 1")


def inline_refs(schema: JSONSchema) -> JSONSchema:
    """Replace local ``$ref``s (``#/$defs/...``) by the definitions they point to.

    Pydantic puts nested models under ``$defs``; grammar converters and the bounding below
    are simpler on a self-contained tree. Recursive schemas are refused.
    """
    defs = {**schema.get("definitions", {}), **schema.get("$defs", {})}

    def resolve(node: Any, seen: tuple[str, ...]) -> Any:
        if isinstance(node, dict):
            ref = node.get("$ref")
            if isinstance(ref, str):
                name = ref.rsplit("/", 1)[-1]
                if not ref.startswith("#/") or name not in defs:
                    raise ValueError(f"unsupported $ref {ref!r} in judge schema")
                if name in seen:
                    raise ValueError(f"recursive $ref {ref!r} cannot be bounded")
                merged = {**defs[name], **{k: v for k, v in node.items() if k != "$ref"}}
                return resolve(merged, (*seen, name))
            return {k: resolve(v, seen) for k, v in node.items() if k not in ("$defs", "definitions")}
        if isinstance(node, list):
            return [resolve(v, seen) for v in node]
        return node

    return resolve(copy.deepcopy(schema), ())


def top_level_item_bounds(reply: ReplyBounds, bounds: SchemaBounds) -> tuple[int, int]:
    """(minItems, maxItems) for the arrays at the top of the reply."""
    if reply.fixed:
        assert reply.max_items is not None
        return reply.max_items, reply.max_items
    hi = reply.max_items if reply.max_items is not None else bounds.max_items
    if bounds.max_top_items is not None:
        hi = min(hi, bounds.max_top_items)
    return min(reply.min_items, hi), hi


def _pin_echo(tree: JSONSchema, texts: tuple[str, ...], field: str) -> None:
    """The top-level arrays as tuples (``prefixItems``), item i's ``field`` the constant ``texts[i]``."""
    for prop in tree.get("properties", {}).values():
        item = prop.get("items") if isinstance(prop, dict) and prop.get("type") == "array" else None
        if not isinstance(item, dict) or field not in item.get("properties", {}):
            continue
        pinned = []
        for text in texts:
            one = copy.deepcopy(item)
            one["properties"][field] = {"type": "string", "const": text}
            pinned.append(one)
        prop["prefixItems"] = pinned
        prop.pop("items", None)
        prop["minItems"] = prop["maxItems"] = len(texts)


def bound_schema(schema: JSONSchema, reply: ReplyBounds, bounds: SchemaBounds = SchemaBounds()) -> JSONSchema:
    """A copy of ``schema`` (refs inlined) with every array and string bounded."""
    tree = inline_refs(schema)
    top_min, top_max = top_level_item_bounds(reply, bounds)
    max_chars = bounds.max_string_chars
    if reply.max_string_chars is not None:
        max_chars = min(max_chars, reply.max_string_chars)

    def walk(node: Any, depth: int) -> None:
        if not isinstance(node, dict):
            return
        kind = node.get("type")
        if kind == "string" and "enum" not in node and "const" not in node:
            node["maxLength"] = min(node.get("maxLength", max_chars), max_chars)
            node.setdefault("minLength", min(bounds.min_string_chars, node["maxLength"]))
        elif kind == "array":
            if depth == 1:
                lo, hi = top_min, top_max
            else:
                lo, hi = 0, bounds.max_items
            node["maxItems"] = min(node.get("maxItems", hi), hi)
            node["minItems"] = min(max(node.get("minItems", 0), lo), node["maxItems"])
            walk(node.get("items"), depth + 1)
        elif kind == "object" or "properties" in node:
            for child in node.get("properties", {}).values():
                walk(child, depth + 1)
        for key in ("anyOf", "oneOf", "allOf"):
            for child in node.get(key, []) or []:
                walk(child, depth)

    walk(tree, 0)
    if reply.echo and reply.echo_field:
        _pin_echo(tree, reply.echo, reply.echo_field)
    return tree


def max_reply_chars(schema: JSONSchema) -> int:
    """The most characters a JSON reply to a bounded schema can take under llama.cpp's grammar.

    Counts every string at its ``maxLength`` plus quotes, every key with its punctuation, one
    optional space after each punctuation mark (llama.cpp's grammars allow a single space
    there, never more) and booleans/numbers at a generous width. Raises ``ValueError`` on an
    unbounded array or string (call :func:`bound_schema` first).
    """

    def size(node: Any) -> int:
        if not isinstance(node, dict):
            return 16
        for key in ("anyOf", "oneOf"):
            if key in node:
                return max(size(child) for child in node[key])
        kind = node.get("type")
        if "enum" in node:
            return max(len(json.dumps(v)) for v in node["enum"])
        if "const" in node:
            return len(json.dumps(node["const"]))
        if kind == "string":
            if "maxLength" not in node:
                raise ValueError("unbounded string in schema")
            return node["maxLength"] + 3
        if kind == "boolean":
            return 5
        if kind in ("integer", "number"):
            return 24
        if kind == "null":
            return 4
        if kind == "array":
            if "maxItems" not in node:
                raise ValueError("unbounded array in schema")
            if "prefixItems" in node:  # a tuple: each item its own schema (pinned texts, _pin_echo)
                return 3 + sum(size(item) + 2 for item in node["prefixItems"])
            n = node["maxItems"]
            return 3 + n * (size(node.get("items", {})) + 2)
        props = node.get("properties", {})
        return 3 + sum(len(json.dumps(name)) + 4 + size(child) for name, child in props.items())

    return size(schema)


def max_reply_tokens(schema: JSONSchema, *, tokens_per_char: float = 1.0, slack: int = 16) -> int:
    """A ``max_tokens`` that the longest reply the bounded schema allows fits under.

    With ``tokens_per_char=1`` (every token holds at least one character) this holds for text
    without escapes or byte-split characters; ``tokens_per_char`` above 1 leaves room for them.
    A reply that is cut off anyway is re-asked (``finish_reason == "length"``).
    """
    return int(max_reply_chars(schema) * tokens_per_char) + slack
