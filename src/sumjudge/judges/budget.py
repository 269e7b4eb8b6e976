"""How many tokens a judge can take, and how many a request needs: no request is sent over budget.

A judge's context window (prompt plus reply, in tokens) is, in this order: what the judge itself
reports (a local GGUF judge: the context it was loaded with), ``ModelConfig.context_window``, for a
local server (Ollama, llama.cpp's server, LM Studio: :data:`LOCAL_SERVER_WINDOWS`) the window the server
loads a model with by default, the table of known models below, a provider default, and
:data:`DEFAULT_CONTEXT_WINDOW`. :func:`window_for` says which of them gave the figure.

Tokens are counted with the model's own tokenizer where one is at hand: llama.cpp's for a local
judge (in process), ``tiktoken`` for OpenAI models when it is installed and its encoding is already
on disk (``pip install 'sumjudge[tokens]'``; nothing is downloaded here). Otherwise the count is an
estimate: :func:`estimate_tokens` (about four bytes of text a token, the figure for English with
the common BPE vocabularies) for cost forecasts, and :func:`conservative_tokens` (three bytes a
token, one token per non-ASCII character) for budgets, so that an estimate errs towards sending
less. A request that cannot be made to fit raises :class:`~sumjudge.errors.ContextOverflowError`
naming the sizes; nothing is ever cut silently.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..errors import ContextOverflowError
from .base import ChatMessage, JudgeModel, JudgeRequest, ModelConfig
from .structured import schema_instructions, strict_json_schema

DEFAULT_CONTEXT_WINDOW = 8192
"""For a model nobody told us about: small enough for most servers a user runs at home."""

TOKENS_PER_MESSAGE = 6
"""Chat-format tokens around each message (role markers, separators); OpenAI documents 3-4."""

LOCAL_SERVER_WINDOWS: dict[str, tuple[int, str]] = {
    # Ollama: 4,096 with under 24 GiB of VRAM (32k and 256k above; 2,048 in releases before 0.6),
    # OLLAMA_CONTEXT_LENGTH or a Modelfile's num_ctx to change; it cuts a longer prompt silently.
    "ollama": (4096, "Ollama's default context length (num_ctx) with under 24 GiB of VRAM"),
    # llama-server's --ctx-size was 4,096 (newer builds take the model's, split among --parallel slots);
    # llama-cpp-python's server loads 2,048 unless --n_ctx says otherwise.
    "llamacpp": (4096, "llama.cpp server's default --ctx-size"),
    # LM Studio loads a model with 4,096 unless its loader (or `lms load --context-length`) says more.
    "lmstudio": (4096, "LM Studio's default context length when it loads a model"),
}
"""Local servers load a model with a window of their own, whatever the model was trained for: that
window, not the model table's, is what a request must fit, unless ``context_window`` says the server
was started with more. (vLLM is not here: it serves the model's own window, ``--max-model-len``, and
refuses a longer request with an error instead of cutting it.)"""

PROVIDER_CONTEXT_WINDOWS: dict[str, int] = {
    **{name: window for name, (window, _) in LOCAL_SERVER_WINDOWS.items()},
    "anthropic": 200_000,
    "google": 1_048_576,
    "offline": 8192,
}
"""Defaults by provider, when the model is not in :data:`KNOWN_CONTEXT_WINDOWS`.

``offline`` is the lexical judge's: it has no context limit, but its verdicts lose precision
when a claim may match anywhere in a long text (a word-overlap window finds a spurious match
somewhere), so long sources take the retrieval path with it too."""

NOMINAL_WINDOWS = frozenset({"offline"})
"""Providers whose window chooses a path and limits nothing (the lexical judge reads any length): a
request past it is never refused as too large, whatever its size."""

PROVIDER_PROMPT_OVERHEAD: dict[str, int] = {
    # The system prompt Anthropic adds for tool use (313-346 tokens by model, as documented); the
    # Anthropic judge answers through a forced tool, so every one of its requests carries it.
    "anthropic": 350,
}
"""Prompt tokens a provider adds to every request of its own, counted in every budget."""

KNOWN_CONTEXT_WINDOWS: dict[str, int] = {
    # OpenAI (model-name prefixes; the longest matching prefix wins)
    "gpt-3.5-turbo": 16_385,
    "gpt-4": 8192,
    "gpt-4-32k": 32_768,
    "gpt-4-turbo": 128_000,
    "gpt-4o": 128_000,
    "gpt-4o-mini": 128_000,
    "gpt-4.1": 1_047_576,
    "gpt-4.5": 128_000,
    "gpt-5": 400_000,
    "o1": 200_000,
    "o3": 200_000,
    "o4-mini": 200_000,
    # Anthropic
    "claude-": 200_000,
    # Google
    "gemini-1.5": 1_048_576,
    "gemini-2": 1_048_576,
    # Mistral, DeepSeek, Meta, Qwen (as the hosted providers serve them)
    "mistral-large": 128_000,
    "mistral-small": 32_000,
    "deepseek-chat": 64_000,
    "deepseek-reasoner": 64_000,
    "llama-3.1": 131_072,
    "llama-3.3": 131_072,
    "qwen2.5": 32_768,
    "grok-": 131_072,
}


@dataclass(frozen=True)
class ContextWindow:
    """A judge's context window and where the figure came from (for ``sumjudge estimate`` and errors)."""

    tokens: int
    origin: str
    """``judge`` (what a loaded model reports), ``context_window`` (the user's setting), ``provider
    default`` (a local server's load-time window, or a provider's own), ``model table`` or ``fallback``."""
    detail: str = ""

    def describe(self) -> str:
        """``"4,096 tokens (provider default: Ollama's default ...; set context_window ...)"``."""
        what = {
            "judge": "the loaded model's context",
            "context_window": "set by context_window",
            "model table": "the model table",
            "fallback": "fallback for a model the table does not know",
        }.get(self.origin, self.origin)
        if self.detail:
            what = f"{what}: {self.detail}"
        return f"{self.tokens:,} tokens ({what})"


def _table_window(model_id: str) -> int | None:
    name = model_id.partition("/")[2].lower()
    candidates = [name, name.rsplit("/", 1)[-1]]  # openrouter: "openai/gpt-4o" -> "gpt-4o"
    best: tuple[int, int] | None = None
    for candidate in candidates:
        for prefix, window in KNOWN_CONTEXT_WINDOWS.items():
            if candidate.startswith(prefix) and (best is None or len(prefix) > best[0]):
                best = (len(prefix), window)
    return None if best is None else best[1]


def window_for(model_id: str, configured: int | None = None) -> ContextWindow:
    """The window for ``"provider/model"`` without a judge, and where it came from (see the module)."""
    provider = model_id.partition("/")[0]
    if configured is not None:
        return ContextWindow(configured, "context_window")
    if provider in LOCAL_SERVER_WINDOWS:
        window, why = LOCAL_SERVER_WINDOWS[provider]
        hint = "set context_window (--context-window) if the server loads the model with more"
        return ContextWindow(window, "provider default", f"{why}; {hint}")
    table = _table_window(model_id)
    if table is not None:
        return ContextWindow(table, "model table")
    if provider in PROVIDER_CONTEXT_WINDOWS:
        return ContextWindow(PROVIDER_CONTEXT_WINDOWS[provider], "provider default", f"for {provider} models")
    return ContextWindow(DEFAULT_CONTEXT_WINDOW, "fallback", "set context_window if the model takes more")


def known_context_window(model_id: str) -> int | None:
    """The context window the tables give ``"provider/model"`` (a local server's default before the
    model table), or ``None``."""
    found = window_for(model_id)
    return None if found.origin == "fallback" else found.tokens


def config_of(judge: JudgeModel) -> ModelConfig | None:
    """The judge's :class:`ModelConfig`, public (``config``) or, for older judges, private."""
    for attr in ("config", "_config"):
        config = getattr(judge, attr, None)
        if isinstance(config, ModelConfig):
            return config
    inner = getattr(judge, "inner", None)  # a cache wrapper
    return config_of(inner) if inner is not None else None


def context_window_of(judge: JudgeModel) -> int:
    """Tokens the judge takes per call, prompt and reply together (see the module's order)."""
    return window_of(judge).tokens


def window_of(judge: JudgeModel) -> ContextWindow:
    """:func:`context_window_of` with where the figure came from."""
    own = getattr(judge, "context_window", None)
    if isinstance(own, int) and own > 0:
        return ContextWindow(own, "judge")
    config = config_of(judge)
    return window_for(judge.model_id, config.context_window if config is not None else None)


# ------------------------------------------------------------------------------------------------
# Counting


def estimate_tokens(text: str) -> int:
    """A central estimate: about four UTF-8 bytes a token (English with GPT-style vocabularies)."""
    return math.ceil(len(text.encode("utf-8")) / 4) if text else 0


def conservative_tokens(text: str) -> int:
    """An upper estimate: three ASCII bytes a token and a token for every other character."""
    if not text:
        return 0
    if text.isascii():  # the common case, in C: the character loop below cost about 1 ms a call
        return math.ceil(len(text) / 3)
    non_ascii = len(text) - len(text.encode("ascii", "ignore"))
    return math.ceil((len(text) - non_ascii) / 3) + non_ascii


@dataclass(frozen=True)
class TokenCounter:
    """Counts tokens of text for one judge: ``exact`` when it is the model's own tokenizer."""

    name: str
    count: Callable[[str], int]
    exact: bool

    def central(self, text: str) -> int:
        """The best guess of the tokens a provider will bill (for forecasts)."""
        return self.count(text) if self.exact else estimate_tokens(text)

    def upper(self, text: str) -> int:
        """A count that is not below what the model will see (for budgets)."""
        return self.count(text) if self.exact else conservative_tokens(text)


ESTIMATE = TokenCounter("estimate", conservative_tokens, exact=False)

_TIKTOKEN_FILES = {"o200k_base": "o200k_base.tiktoken", "cl100k_base": "cl100k_base.tiktoken"}
_TIKTOKEN_BLOB = "https://openaipublic.blob.core.windows.net/encodings/"


def _tiktoken_encoding_for(model: str) -> str:
    name = model.lower().rsplit("/", 1)[-1]
    old = ("gpt-4-", "gpt-3.5")
    return "cl100k_base" if name == "gpt-4" or name.startswith(old) else "o200k_base"


def tiktoken_counter(model: str) -> TokenCounter | None:
    """``tiktoken``'s count for an OpenAI model, when it is installed and its encoding is on disk.

    tiktoken downloads an encoding on first use; sumjudge never does, so the encoding must already
    be in tiktoken's cache (``TIKTOKEN_CACHE_DIR``, as tiktoken reads it) or the estimate is used.
    """
    try:
        import tiktoken
    except ImportError:
        return None
    encoding = _tiktoken_encoding_for(model)
    cache_dir = os.environ.get("TIKTOKEN_CACHE_DIR") or os.environ.get("DATA_GYM_CACHE_DIR")
    folder = Path(cache_dir) if cache_dir else Path(tempfile.gettempdir()) / "data-gym-cache"
    blob = _TIKTOKEN_BLOB + _TIKTOKEN_FILES[encoding]
    if not (folder / hashlib.sha1(blob.encode()).hexdigest()).is_file():
        return None
    try:
        enc = tiktoken.get_encoding(encoding)
    except Exception:  # noqa: BLE001 - any failure to load means: use the estimate
        return None
    return TokenCounter(f"tiktoken/{encoding}", lambda text: len(enc.encode(text, disallowed_special=())), True)


def counter_for(judge: JudgeModel) -> TokenCounter:
    """The best token counter at hand for ``judge`` (see the module docstring)."""
    own = getattr(judge, "count_tokens", None)
    if callable(own):
        return TokenCounter(f"{judge.model_id} tokenizer", own, exact=True)
    inner = getattr(judge, "inner", None)
    if inner is not None:
        return counter_for(inner)
    provider, _, name = judge.model_id.partition("/")
    if provider in ("openai", "openrouter", "azure") and (name.startswith(("gpt-", "o1", "o3", "o4", "openai/"))):
        counted = tiktoken_counter(name)
        if counted is not None:
            return counted
    return ESTIMATE


# ------------------------------------------------------------------------------------------------
# The budget


def _overhead(model_id: str) -> int:
    return PROVIDER_PROMPT_OVERHEAD.get(model_id.partition("/")[0], 0)


@dataclass(frozen=True)
class TokenBudget:
    """One judge's context window and token counter, with the arithmetic of fitting requests."""

    context_window: int
    counter: TokenCounter
    model_id: str = "judge"
    overhead: int = 0
    """Tokens the provider adds to every prompt (:data:`PROVIDER_PROMPT_OVERHEAD`)."""
    window: ContextWindow | None = None
    """Where ``context_window`` came from (:func:`window_for`), when known."""
    limit: bool = True
    """Whether the window is a limit: False for a judge with none (:data:`NOMINAL_WINDOWS`), whose
    window only chooses the long-source path; :meth:`check_prompt` then refuses nothing."""

    @classmethod
    def of(cls, judge: JudgeModel) -> TokenBudget:
        model_id = judge.model_id
        window = window_of(judge)
        limit = not (model_id.partition("/")[0] in NOMINAL_WINDOWS and window.origin == "provider default")
        return cls(window.tokens, counter_for(judge), model_id, _overhead(model_id), window, limit)

    @classmethod
    def for_config(cls, config: ModelConfig) -> TokenBudget:
        """A budget without a judge (no key, no connection): the tables, the config and tiktoken."""
        provider, _, name = config.id.partition("/")
        window = window_for(config.id, config.context_window)
        counter = (tiktoken_counter(name) if provider in ("openai", "openrouter") else None) or ESTIMATE
        return cls(window.tokens, counter, config.id, _overhead(config.id), window)

    def forecast_tokens(self, request: JudgeRequest[Any]) -> int:
        """The prompt tokens a provider will most likely bill for ``request`` (a central estimate)."""
        schema = json.dumps(strict_json_schema(request.output_type), ensure_ascii=False)
        overhead = TOKENS_PER_MESSAGE // 2
        return sum(self.counter.central(m.content) + overhead for m in request.messages) + self.counter.central(schema)

    def text_tokens(self, text: str) -> int:
        """Tokens of ``text`` as budgets count them (an upper figure when estimated)."""
        return self.counter.upper(text)

    def schema_tokens(self, output_type: Any) -> int:
        """Tokens of the step's JSON schema, which every provider sends along in some form: beside the
        messages, or stated in the prompt (the larger of the two, so any form a judge falls back to fits)."""
        schema = strict_json_schema(output_type)
        beside = self.counter.upper(json.dumps(schema, ensure_ascii=False))
        in_prompt = self.counter.upper(schema_instructions(schema)) + TOKENS_PER_MESSAGE  # a system message of its own
        return max(beside, in_prompt)

    def prompt_tokens(self, messages: Sequence[ChatMessage], output_type: Any = None) -> int:
        """Tokens of a prompt as the model will see it (an upper figure when estimated), the provider's
        own additions included; ``output_type``: with the step's schema."""
        total = self.overhead + sum(self.counter.upper(m.content) + TOKENS_PER_MESSAGE for m in messages)
        if output_type is not None:
            total += self.schema_tokens(output_type)
        return total

    def request_tokens(self, request: JudgeRequest[Any]) -> int:
        return self.prompt_tokens(request.messages, request.output_type)

    def fits(self, request: JudgeRequest[Any], reply_tokens: int | None = None) -> bool:
        """Whether prompt and reply room fit (``reply_tokens`` defaults to ``request.reply_tokens``)."""
        room = (request.reply_tokens or 0) if reply_tokens is None else reply_tokens
        return self.request_tokens(request) + room <= self.context_window

    def check(self, request: JudgeRequest[Any], reply_tokens: int | None = None, what: str | None = None) -> int:
        """The request's prompt tokens, or :class:`ContextOverflowError` when prompt and reply do not fit."""
        room = (request.reply_tokens or 0) if reply_tokens is None else reply_tokens
        return self.check_prompt(self.request_tokens(request), room, what or f"the {request.step} request")

    def check_prompt(self, prompt_tokens: int, reply_tokens: int, what: str) -> int:
        """``prompt_tokens``, or :class:`ContextOverflowError` naming the sizes when prompt and reply do not fit
        a window that is a :attr:`limit`."""
        if self.limit and prompt_tokens + reply_tokens > self.context_window:
            raise ContextOverflowError(
                what,
                needed=prompt_tokens + reply_tokens,
                prompt_tokens=prompt_tokens,
                reply_tokens=reply_tokens,
                context_window=self.context_window,
                model=self.model_id,
                counted_by=self.counter.name,
            )
        return prompt_tokens


__all__ = [
    "DEFAULT_CONTEXT_WINDOW",
    "ESTIMATE",
    "KNOWN_CONTEXT_WINDOWS",
    "LOCAL_SERVER_WINDOWS",
    "NOMINAL_WINDOWS",
    "PROVIDER_CONTEXT_WINDOWS",
    "PROVIDER_PROMPT_OVERHEAD",
    "ContextWindow",
    "TokenBudget",
    "TokenCounter",
    "config_of",
    "conservative_tokens",
    "context_window_of",
    "counter_for",
    "estimate_tokens",
    "known_context_window",
    "tiktoken_counter",
    "window_for",
    "window_of",
]
