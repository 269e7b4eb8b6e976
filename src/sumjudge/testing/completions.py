"""The legacy Completions endpoint of the test server (``POST /v1/completions``): a prompt's next token
with its top log-probabilities, in the shape llama-cpp-python's server and vLLM give
(``choices[0].logprobs.top_logprobs[0]``, ``{token: logprob}``), what the reader's server-backed
yes/no questions read (:mod:`sumjudge.judges.next_token_server`).

A :data:`NextToken` function gives the distribution of the token after a prompt (the default: "Yes"
at .9, "No" at .1); the reply keeps the ``logprobs`` likeliest (none when the request asks for none),
the likeliest first, which is the token "written". A scripted :class:`~.faults.Reply` whose
``content`` is a dict stands for that distribution; one whose ``content`` is text is sent as the
body as it is (a malformed reply).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Mapping
from typing import Any

from .recorded import count_tokens

NextToken = Callable[[str], Mapping[str, float]]
"""A prompt's text -> ``{token: logprob}`` of the token after it."""

YES_AT_NINE_TENTHS: dict[str, float] = {"Yes": math.log(0.9), "No": math.log(0.1)}


def default_next_token(prompt: str) -> Mapping[str, float]:
    return YES_AT_NINE_TENTHS


def completion_payload(
    body: dict[str, Any], distribution: Mapping[str, float], *, number: int, cached_tokens: int = 0
) -> dict[str, Any]:
    """The Completions reply to ``body`` (``max_tokens`` 1 or more: one token is written either way)."""
    prompt = str(body.get("prompt", ""))
    ranked = sorted(distribution.items(), key=lambda item: -item[1])
    token, logprob = ranked[0] if ranked else ("", 0.0)
    k = body.get("logprobs")
    logprobs = None
    if isinstance(k, int) and not isinstance(k, bool) and k > 0:
        logprobs = {
            "tokens": [token], "token_logprobs": [logprob], "top_logprobs": [dict(ranked[:k])],
            "text_offset": [len(prompt)],
        }
    prompt_tokens = count_tokens(prompt)
    return {
        "id": f"cmpl-{number}",
        "object": "text_completion",
        "created": int(time.time()),
        "model": body.get("model", "test-model"),
        "choices": [{"text": token, "index": 0, "logprobs": logprobs, "finish_reason": "length"}],
        "usage": {
            "prompt_tokens": prompt_tokens, "completion_tokens": 1, "total_tokens": prompt_tokens + 1,
            "prompt_tokens_details": {"cached_tokens": cached_tokens},
        },
    }


__all__ = ["NextToken", "YES_AT_NINE_TENTHS", "completion_payload", "default_next_token"]
