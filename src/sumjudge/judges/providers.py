"""The provider table: for each ``provider`` of ``"provider/model"``, how to talk to it (its ``kind``),
where (default base URL), with which credentials (the environment variables it reads) and which
structured-output form it takes. Data and lookups only: it imports no provider, so every provider
module can import it (see :mod:`~sumjudge.judges.registry` for the way from a name to a judge).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Literal

from ..errors import ConfigurationError, MissingAPIKeyError
from .base import ModelConfig

Kind = Literal["openai_compat", "azure", "anthropic", "local", "offline"]
StructuredMode = Literal["json_schema", "json_object_schema", "json_object"]
"""How a server is asked for structured output:

- ``json_schema``: ``response_format={"type": "json_schema", "json_schema": {...,"strict": true}}``
- ``json_object_schema``: ``{"type": "json_object", "schema": {...}}`` (llama-cpp-python's server)
- ``json_object``: JSON mode, the schema stated in the prompt
"""


@dataclass(frozen=True)
class ProviderSpec:
    name: str
    kind: Kind
    base_url: str | None = None
    requires_key: bool = True
    structured: StructuredMode = "json_schema"
    label: str = ""
    key_env_aliases: tuple[str, ...] = ()
    """Further variables read for the key, after ``key_env`` (e.g. ``GEMINI_API_KEY``)."""
    key_var: str | None = None
    """The key's variable when it is not ``<PROVIDER>_API_KEY`` (e.g. ``AZURE_OPENAI_API_KEY``)."""
    base_url_var: str | None = None
    """The endpoint's variable when it is not ``<PROVIDER>_BASE_URL`` (e.g. ``AZURE_OPENAI_ENDPOINT``)."""
    max_tokens_field: str = "max_tokens"
    """The body field that caps the reply: OpenAI's own API and Azure take ``max_completion_tokens``
    (o-series and newer models reject ``max_tokens``); other servers know ``max_tokens``."""
    logprobs: bool = False
    """Whether the judge asks for token log-probabilities (``logprobs: true``, ``top_logprobs``), from
    which the scorer reads each verdict's probability: where the server is known to return them
    (docs/providers.md, "Verdict probabilities", names the sources). A model that refuses them (OpenAI's
    reasoning models) turns them off for that judge, at no retry cost."""

    @property
    def key_env(self) -> str:
        return self.key_var or f"{self.name.upper()}_API_KEY"

    @property
    def base_url_env(self) -> str:
        return self.base_url_var or f"{self.name.upper()}_BASE_URL"


def _p(name: str, kind: Kind, base_url: str | None = None, **kw: object) -> ProviderSpec:
    return ProviderSpec(name=name, kind=kind, base_url=base_url, **kw)  # type: ignore[arg-type]


PROVIDERS: dict[str, ProviderSpec] = {
    p.name: p
    for p in [
        _p(
            "openai",
            "openai_compat",
            "https://api.openai.com/v1",
            label="OpenAI",
            max_tokens_field="max_completion_tokens",
            logprobs=True,
        ),
        _p(
            "azure",
            "azure",
            label="Azure OpenAI (azure/<deployment>)",
            key_var="AZURE_OPENAI_API_KEY",
            base_url_var="AZURE_OPENAI_ENDPOINT",
            max_tokens_field="max_completion_tokens",
            logprobs=True,
        ),
        _p("ollama", "openai_compat", "http://localhost:11434/v1", requires_key=False, label="Ollama", logprobs=True),
        _p("vllm", "openai_compat", "http://localhost:8000/v1", requires_key=False, label="vLLM", logprobs=True),
        _p("lmstudio", "openai_compat", "http://localhost:1234/v1", requires_key=False, label="LM Studio"),
        _p(
            "llamacpp",
            "openai_compat",
            "http://localhost:8080/v1",
            requires_key=False,
            structured="json_object_schema",
            label="llama.cpp server",
            # not asked by default: llama-cpp-python's server sorts the whole vocabulary in Python at every
            # token it returns them for, 20 s against 3.4-5 s for 150 tokens of SmolLM2 (docs/providers.md);
            # ModelConfig(extra={"logprobs": True, "top_logprobs": 5}) asks for them
        ),
        _p("openrouter", "openai_compat", "https://openrouter.ai/api/v1", label="OpenRouter"),
        _p("groq", "openai_compat", "https://api.groq.com/openai/v1", label="Groq"),
        _p("together", "openai_compat", "https://api.together.ai/v1", label="Together AI"),
        _p("deepseek", "openai_compat", "https://api.deepseek.com/v1", structured="json_object", label="DeepSeek"),
        _p("mistral", "openai_compat", "https://api.mistral.ai/v1", label="Mistral"),
        _p("xai", "openai_compat", "https://api.x.ai/v1", label="xAI"),
        _p("fireworks", "openai_compat", "https://api.fireworks.ai/inference/v1", label="Fireworks"),
        _p(
            "google",
            "openai_compat",
            "https://generativelanguage.googleapis.com/v1beta/openai",
            label="Google Gemini (OpenAI-compatible endpoint)",
            key_env_aliases=("GEMINI_API_KEY",),
        ),
        _p("anthropic", "anthropic", "https://api.anthropic.com", label="Anthropic"),
        _p("local", "local", requires_key=False, label="llama.cpp in process"),
        _p("offline", "offline", requires_key=False, label="offline judges (no model)"),
    ]
}


def split_method(provider: str) -> tuple[str | None, str]:
    """``"reader+llamacpp"`` -> ``("reader", "llamacpp")``: a judge's method (the reader's yes/no
    questions) run on a provider's server; ``"openai"`` -> ``(None, "openai")``."""
    method, sep, server = provider.rpartition("+")
    return (method, server) if sep else (None, provider)


def parse_model_id(model_id: str) -> tuple[str, str]:
    """Split ``"provider/model"`` at the first ``/``; the model part may contain more slashes. The
    provider may name a method to run on an OpenAI-compatible provider's server, ``"method+provider"``
    (``reader+llamacpp/qwen``); which methods there are is the registry's business."""
    if not isinstance(model_id, str):
        raise ConfigurationError(f"a model must be a 'provider/model' string, got {type(model_id).__name__}")
    provider, sep, name = model_id.strip().partition("/")
    if not sep or not provider or not name.strip():
        raise ConfigurationError(
            f"malformed model {model_id!r}: expected 'provider/model', e.g. 'openai/gpt-4o-mini'"
        )
    method, server = split_method(provider)
    if server not in PROVIDERS:
        known = ", ".join(sorted(PROVIDERS))
        raise ConfigurationError(f"unknown provider {server!r} in {model_id!r}; known providers: {known}")
    if method is not None and (not method or PROVIDERS[server].kind != "openai_compat"):
        servers = ", ".join(sorted(p.name for p in PROVIDERS.values() if p.kind == "openai_compat"))
        raise ConfigurationError(
            f"{model_id!r}: 'method+provider/model' runs a method on an OpenAI-compatible server "
            f"(e.g. reader+llamacpp/<model>); the providers that take one: {servers}"
        )
    return provider, name.strip()


def resolve_base_url(spec: ProviderSpec, config: ModelConfig) -> str | None:
    return config.base_url or os.environ.get(spec.base_url_env) or spec.base_url


def resolve_api_key(spec: ProviderSpec, config: ModelConfig) -> str | None:
    """The API key to send, or ``None`` for servers that need none; fails naming the variable."""
    if config.api_key is not None:
        return config.api_key.get_secret_value()
    for env_var in (spec.key_env, *spec.key_env_aliases):
        key = os.environ.get(env_var)
        if key:
            return key
    if spec.requires_key:
        raise MissingAPIKeyError(spec.name, " or ".join((spec.key_env, *spec.key_env_aliases)))
    return None


__all__ = [
    "PROVIDERS",
    "Kind",
    "ProviderSpec",
    "StructuredMode",
    "parse_model_id",
    "resolve_api_key",
    "split_method",
    "resolve_base_url",
]
