"""Brains: what answers a test server's request when no scripted reply is queued.

- :class:`SummarizationBrain` answers the summarization scorer's three steps (alignment,
  questions, coverage), told apart by the top-level property of the requested schema;
- :class:`SchemaBrain` writes a schema-valid object for any JSON schema (for benchmarks);
- :class:`NoisyBrain` wraps another and flips each verdict with probability ``flip`` (seeded), the
  run-to-run noise of a sampled judge, for measuring what repeated samples buy.

A brain is any ``callable(RecordedRequest)`` returning a dict/list (sent as JSON), a string
(sent as is) or a :class:`~sumjudge.testing.faults.Reply`.
"""

from __future__ import annotations

import hashlib
import random
import re
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from .recorded import RecordedRequest, content_text

Brain = Callable[[RecordedRequest], Any]
"""Answers a request: a dict/list (sent as JSON), a string (sent as is) or a :class:`Reply`."""

_QUESTION = re.compile(r"Does the source state fact (\d+)\?")
_SUMMARY = re.compile(r"<<<SUMMARY (\w+)>>>\n(.*?)\n<<<END SUMMARY \1>>>", re.DOTALL)
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+")
_LISTED_QUESTION = re.compile(r"^\s*(?:[-*\u2022]|\d+[.)]|\[\d+\]|Q\d+[:.])?\s*(.+\?)\s*$", re.MULTILINE)


@dataclass
class SummarizationBrain:
    """Answers the summarization scorer's three steps, well enough to score end to end.

    ``claims`` claims (the summary's sentences, in turn) of which the first ``unsupported`` are unsupported; ``questions``
    questions ("Does the source state fact N?"); on coverage, every question found in the
    prompt is answered in order, the first ``unanswered`` with no. Any other schema is
    answered by :class:`SchemaBrain`.
    """

    claims: int = 3
    unsupported: int = 0
    questions: int = 4
    unanswered: int = 0

    def __call__(self, request: RecordedRequest) -> Any:
        step = request.step
        if step == "alignment":
            parts = self.summary_parts(request)
            return {
                "alignment": [
                    {
                        "claim": parts[i % len(parts)],
                        "supported": i >= self.unsupported,
                        "reason": "The source says so." if i >= self.unsupported else "The source does not say this.",
                    }
                    for i in range(self.claims)
                ]
            }
        if step == "questions":
            return {"questions": [f"Does the source state fact {i + 1}?" for i in range(self.questions)]}
        if step == "coverage":
            asked = self.questions_in(request)
            return {
                "coverage": [
                    {
                        "question": q,
                        "answered": i >= self.unanswered,
                        "reason": "The summary says so." if i >= self.unanswered else "The summary does not say.",
                    }
                    for i, q in enumerate(asked)
                ]
            }
        return SchemaBrain()(request)

    @staticmethod
    def summary_parts(request: RecordedRequest) -> list[str]:
        """The sentences of the summary an alignment request fences: the claims this brain lists (a
        claim is the summary's own; the scorer refuses others)."""
        text = "\n".join(content_text(m.get("content")) for m in request.messages)
        fenced = _SUMMARY.search(text)
        summary = fenced.group(2).strip() if fenced else ""
        parts = [p.strip() for p in _SENTENCE_END.split(summary) if p.strip()]
        return parts or [summary or "The summary."]

    @staticmethod
    def questions_in(request: RecordedRequest) -> list[str]:
        """The questions a coverage request lists, in order."""
        text = "\n".join(content_text(m.get("content")) for m in request.messages if m.get("role") == "user")
        ours = list(dict.fromkeys(m.group(0) for m in _QUESTION.finditer(text)))
        if ours:
            return ours
        return list(dict.fromkeys(m.group(1).strip() for m in _LISTED_QUESTION.finditer(text)))


@dataclass
class SchemaBrain:
    """Writes an object valid against any JSON schema: ``items`` per array, ``words`` per string."""

    items: int = 3
    words: int = 8

    def __call__(self, request: RecordedRequest) -> Any:
        schema = request.schema
        if schema is None:
            return "OK"
        return self.instance(schema, schema.get("$defs", {}))

    def instance(self, schema: dict[str, Any], defs: dict[str, Any], depth: int = 0) -> Any:
        if "$ref" in schema:
            return self.instance(defs.get(schema["$ref"].rsplit("/", 1)[-1], {}), defs, depth + 1)
        if "const" in schema:
            return schema["const"]
        if schema.get("enum"):
            return schema["enum"][0]
        for key in ("anyOf", "oneOf"):
            options = [s for s in schema.get(key, []) if s.get("type") != "null"] or schema.get(key, [])
            if options:
                return self.instance(options[0], defs, depth + 1)
        if schema.get("allOf"):
            return self.instance(schema["allOf"][0], defs, depth + 1)
        kind = schema.get("type")
        if isinstance(kind, list):
            kind = next((k for k in kind if k != "null"), "null")
        if kind == "object" or "properties" in schema:
            return {k: self.instance(v, defs, depth + 1) for k, v in schema.get("properties", {}).items()}
        if kind == "array":
            n = self.items if depth < 6 else 0
            n = max(int(schema.get("minItems", 0)), min(n, int(schema.get("maxItems", n))))
            return [self.instance(schema.get("items", {}), defs, depth + 1) for _ in range(n)]
        if kind == "boolean":
            return True
        if kind == "integer":
            return int(schema.get("minimum", 1))
        if kind == "number":
            return float(schema.get("minimum", 1.0))
        if kind == "null":
            return None
        text = " ".join(["lorem"] * self.words)
        max_len = schema.get("maxLength")
        if isinstance(max_len, int):
            text = text[:max_len]
        min_len = schema.get("minLength")
        if isinstance(min_len, int) and len(text) < min_len:
            text = text + "x" * (min_len - len(text))
        return text


_VERDICT_FIELD = {"alignment": "supported", "coverage": "answered"}


_FENCE_TOKEN = re.compile(rb"(?<![0-9a-f])[0-9a-f]{16}(?![0-9a-f])")
"""A fence token as the scorer's prompts write it: 16 hex digits (left out of :class:`NoisyBrain`'s key)."""


@dataclass
class NoisyBrain:
    """Another brain's answers with each verdict (``supported``, ``answered``) flipped with
    probability ``flip``, like a judge sampled at a temperature above 0.

    Seeded, yet a repeated request is a new draw: the flips of a request come from ``(seed, the
    request's bytes, how many times this server has seen those bytes)``. So two servers with the
    same seed answer the same sequence of identical requests alike, while asking the same question
    twice (a re-run, a second sample) gets an independent answer. The fence tokens around the
    scorer's texts (16 hex digits, an HMAC under a key each process draws) are left out of the
    request's bytes here, so a seeded run draws the same flips in every process.
    """

    inner: Brain = field(default_factory=SummarizationBrain)
    flip: float = 0.1
    seed: int = 0
    _seen: dict[str, int] = field(default_factory=dict, init=False, repr=False)
    _lock: threading.Lock = field(default_factory=threading.Lock, init=False, repr=False)

    def __post_init__(self) -> None:
        if not 0 <= self.flip <= 1:
            raise ValueError(f"flip must be a probability in [0, 1], got {self.flip!r}")

    def __call__(self, request: RecordedRequest) -> Any:
        answer = self.inner(request)
        name = _VERDICT_FIELD.get(request.step or "")
        if name is None or not isinstance(answer, dict) or not isinstance(answer.get(request.step), list):
            return answer
        key = hashlib.sha256(_FENCE_TOKEN.sub(b"", request.raw)).hexdigest()
        with self._lock:
            n = self._seen[key] = self._seen.get(key, 0) + 1
        rng = random.Random(f"{self.seed}:{key}:{n}")
        for verdict in answer[request.step]:
            if isinstance(verdict, dict) and rng.random() < self.flip:
                verdict[name] = not verdict.get(name)
        return answer


__all__ = ["Brain", "NoisyBrain", "SchemaBrain", "SummarizationBrain"]
