"""The bundled judge server's context window and prompt cache, as OpenAI's servers behave.

- A request whose prompt plus ``max_tokens`` exceeds the window is refused with HTTP 400 and
  ``code: "context_length_exceeded"`` (OpenAI's answer to a context overflow).
- A prompt that starts with a prefix the server saw before is partly "served from cache": the
  longest prefix shared with an earlier prompt, counted in blocks of 128 tokens and only from 1,024
  tokens on (OpenAI's published rule), is returned as ``usage.prompt_tokens_details.cached_tokens``.

Tokens are the server's own rough count, four UTF-8 bytes a token. The cached prefix is that of the
request as serialised for counting: the ``response_format`` (the step's schema) first, then the
messages in order, so prompts that share instructions and source share a prefix.
"""

from __future__ import annotations

import hashlib
import json
import math
import threading
from typing import Any

TOKEN_BYTES = 4
CACHE_BLOCK_TOKENS = 128
CACHE_MIN_TOKENS = 1024


def prompt_bytes(body: dict[str, Any], messages_text: str) -> bytes:
    """What the server counts and caches: the response format, then the messages' text."""
    rf = body.get("response_format")
    return ((json.dumps(rf, ensure_ascii=False) if isinstance(rf, dict) else "") + messages_text).encode("utf-8")


def overflow_error(limit: int, prompt_tokens: int, max_tokens: int | None) -> dict[str, Any] | None:
    """OpenAI's error body for a request over ``limit`` tokens, or ``None`` when it fits."""
    asked = prompt_tokens + (max_tokens or 0)
    if asked <= limit:
        return None
    completion = f" ({prompt_tokens} in the messages, {max_tokens} in the completion)" if max_tokens else ""
    return {
        "error": {
            "message": (
                f"This model's maximum context length is {limit} tokens. However, you requested {asked} tokens"
                f"{completion}. Please reduce the length of the messages or completion."
            ),
            "type": "invalid_request_error",
            "param": "messages",
            "code": "context_length_exceeded",
        }
    }


class PrefixCache:
    """Remembers every block-aligned prefix it has seen (as hashes); thread-safe, grows with use."""

    def __init__(self, block_tokens: int = CACHE_BLOCK_TOKENS, min_tokens: int = CACHE_MIN_TOKENS) -> None:
        self.block = block_tokens * TOKEN_BYTES
        self.min_bytes = min_tokens * TOKEN_BYTES
        self._seen: set[bytes] = set()
        self._lock = threading.Lock()

    def serve(self, prompt: bytes) -> int:
        """Tokens of ``prompt`` a prefix cache serves (then remembers ``prompt``'s own prefixes)."""
        digest = hashlib.sha256()
        prefixes: list[bytes] = []
        for end in range(self.block, len(prompt) + 1, self.block):
            digest.update(prompt[end - self.block : end])
            prefixes.append(digest.copy().digest())
        with self._lock:
            hit = 0
            for i, h in enumerate(prefixes):
                if h not in self._seen:
                    break
                hit = (i + 1) * self.block
            self._seen.update(prefixes)
        return hit // TOKEN_BYTES if hit >= self.min_bytes else 0

    def clear(self) -> None:
        with self._lock:
            self._seen.clear()


class ContextWindow:
    """One server's window (``limit=None``: none) and prompt cache, with what they saw. Thread-safe."""

    def __init__(self, limit: int | None = None) -> None:
        self.limit = limit
        self.cache = PrefixCache()
        self.largest_request = 0
        """The most tokens (prompt plus ``max_tokens``) any chat request asked for."""
        self.over_limit = 0
        """Requests refused for asking more than ``limit``."""
        self._lock = threading.Lock()

    def refuse(self, body: dict[str, Any], messages_text: str) -> dict[str, Any] | None:
        """OpenAI's error body when the request is over the window (and count it), else ``None``."""
        prompt = math.ceil(len(prompt_bytes(body, messages_text)) / TOKEN_BYTES)
        max_tokens = body.get("max_tokens") if isinstance(body.get("max_tokens"), int) else None
        with self._lock:
            self.largest_request = max(self.largest_request, prompt + (max_tokens or 0))
            error = overflow_error(self.limit, prompt, max_tokens) if self.limit else None
            self.over_limit += error is not None
        return error

    def reset(self) -> None:
        with self._lock:
            self.largest_request = self.over_limit = 0
        self.cache.clear()
