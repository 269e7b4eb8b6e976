"""The reader's method on a server: ``reader+<provider>/<model>`` (``reader+llamacpp/qwen``,
``reader+vllm/Qwen/Qwen2.5-1.5B-Instruct``, ``reader+ollama/qwen2.5-coder:1.5b``), the same claims,
questions, prompts and word proofs as ``local/reader``, each yes/no question asked of an
OpenAI-compatible server's ``/v1/completions`` (:mod:`sumjudge.judges.next_token_server`).

Options: the reader's own settings (thresholds, passages, window, layout, proof scale, word gaps;
not llama.cpp's, which are the server's), ``top_logprobs`` (alternatives read at the answer's token,
default 20) and ``base_url`` (the server, else the provider's variable, ``LLAMACPP_BASE_URL``, or its
default address). The judge's identity names the model as the server reports it.
"""

from __future__ import annotations

from dataclasses import fields
from typing import Any

from ...errors import ConfigurationError
from ...judges.base import ModelConfig
from ...judges.next_token_server import TOP_LOGPROBS, ServerYesNoModel
from ...judges.options import OptionSet
from ...judges.providers import ProviderSpec
from .judge import ReaderJudge
from .settings import ReaderSettings

IN_PROCESS_ONLY = ("state_disk_mb", "model_path")
"""The reader's settings that are about a model in this process: a server keeps its own."""

SERVER_KEYS: tuple[str, ...] = (
    *(f.name for f in fields(ReaderSettings) if f.name not in IN_PROCESS_ONLY), "top_logprobs", "base_url",
)


def check_server_options(extra: dict[str, Any]) -> dict[str, Any]:
    """``extra`` for the reader on a server, each value of its type; :class:`ConfigurationError` for an
    unknown key or a bad value."""
    unknown = sorted(set(extra) - set(SERVER_KEYS))
    if unknown:
        raise ConfigurationError(f"unknown option(s) {', '.join(unknown)}")
    mine = {k: v for k, v in extra.items() if k not in ("top_logprobs", "base_url")}
    settings, _ = ReaderSettings.split_extra(mine)
    typed: dict[str, Any] = {k: getattr(settings, k) for k in mine}
    if "top_logprobs" in extra:
        try:
            typed["top_logprobs"] = int(extra["top_logprobs"])
        except (TypeError, ValueError) as exc:
            raise ConfigurationError(f"top_logprobs: {exc}") from exc
        if not 1 <= typed["top_logprobs"] <= 20:
            raise ConfigurationError("top_logprobs must be 1 to 20 (OpenAI's limit)")
    if "base_url" in extra:
        typed["base_url"] = str(extra["base_url"])
    return typed


SERVER_OPTIONS = OptionSet(SERVER_KEYS, check_server_options)
"""The options ``reader+<provider>/<model>`` takes (:mod:`sumjudge.judges.options`)."""


def create_served_reader(spec: ProviderSpec, name: str, config: ModelConfig) -> ReaderJudge:
    """The registry's factory for ``reader+<provider>/<model>``."""
    extra = check_server_options(dict(config.extra))
    base_url = extra.pop("base_url", None) or config.base_url
    top = extra.pop("top_logprobs", TOP_LOGPROBS)
    server = config.model_copy(update={"id": f"{spec.name}/{name}", "extra": {}, "base_url": base_url})
    llm = ServerYesNoModel(spec, name, server, top=top)
    return ReaderJudge(name, config.model_copy(update={"extra": extra}), llm=llm)


__all__ = ["SERVER_KEYS", "SERVER_OPTIONS", "check_server_options", "create_served_reader"]
