"""Token log-probabilities for the test server's replies, in Chat Completions' shape.

:func:`logprobs_payload` cuts a reply into tokens (runs of letters or digits, runs of whitespace,
single punctuation marks) and gives each its log-probability: 0 (certain) for every token but the
JSON booleans outside strings, where the one written has the probability that ``confidence`` gives
it (a number for all of them, or a function of the boolean's index in the reply) and the other
literal the rest. That is the shape a real server returns (``choices[0].logprobs.content``, each
token with ``top_logprobs``), with figures a test chooses.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from typing import Any

Confidence = float | Callable[[int], float]
"""The probability of each boolean as written: one number, or a function of its index in the reply."""

OPENAI_LOGPROBS_REFUSAL = "Unsupported parameter: 'logprobs' is not supported with this model."
"""What OpenAI answers (HTTP 400) to a reasoning model asked for log-probabilities."""

_TOKEN = re.compile(r"\w+|\s+|[^\w\s]")
_OTHER = {"true": "false", "false": "true"}


def _entry(token: str, logprob: float, top: list[tuple[str, float]]) -> dict[str, Any]:
    return {
        "token": token,
        "logprob": logprob,
        "bytes": list(token.encode("utf-8")),
        "top_logprobs": [{"token": t, "logprob": lp, "bytes": list(t.encode("utf-8"))} for t, lp in top],
    }


def logprobs_payload(text: str, confidence: Confidence, top_logprobs: int = 5) -> dict[str, Any]:
    """``choices[0].logprobs`` for ``text`` (see the module docstring); ``top_logprobs`` alternatives
    at most per token."""
    content: list[dict[str, Any]] = []
    in_string = escaped = False
    booleans = 0
    for token in _TOKEN.findall(text):
        if token in _OTHER and not in_string:
            p = confidence(booleans) if callable(confidence) else confidence
            p = min(max(float(p), 1e-6), 1 - 1e-6)
            booleans += 1
            top = [(token, math.log(p)), (_OTHER[token], math.log(1 - p))]
            top.sort(key=lambda alt: -alt[1])
            content.append(_entry(token, math.log(p), top[: max(1, top_logprobs)]))
            continue
        if token == '"' and not escaped:
            in_string = not in_string
        escaped = token == "\\" and not escaped
        content.append(_entry(token, 0.0, [(token, 0.0)][:top_logprobs]))
    return {"content": content, "refusal": None}


__all__ = ["OPENAI_LOGPROBS_REFUSAL", "Confidence", "logprobs_payload"]
