"""Which batch service answers for a judge: OpenAI's for ``openai/...``, Azure's for ``azure/...``,
Anthropic's Message Batches for ``anthropic/...``; the usage a reply body reports."""

from __future__ import annotations

from typing import Any

from ...errors import ConfigurationError
from ..base import JudgeModel, Usage
from .protocol import BatchService

BATCH_PROVIDERS: tuple[str, ...] = ("openai", "azure", "anthropic")


def batch_service(judge: JudgeModel) -> BatchService:
    """The batch service of ``judge``'s provider account (same key and endpoint as its live calls).

    Raises :class:`ConfigurationError` for a judge whose provider has no batch jobs."""
    from ..anthropic import AnthropicJudge
    from ..azure import AzureOpenAIJudge
    from ..openai_compat import OpenAICompatJudge

    provider = judge.model_id.partition("/")[0]
    if isinstance(judge, AnthropicJudge):
        from .anthropic_jobs import AnthropicBatchService

        return AnthropicBatchService(judge.make_client())
    if isinstance(judge, AzureOpenAIJudge):
        from .openai_jobs import OpenAIBatchService

        openai = judge._openai
        client = openai.AsyncAzureOpenAI(  # no deployment in the path: files and batches are the resource's
            api_key=judge._api_key, azure_endpoint=judge.base_url, api_version=judge.api_version,
            timeout=judge.config.timeout, max_retries=2, default_headers=dict(judge.config.headers) or None,
        )
        return OpenAIBatchService(client, provider="azure", url="/chat/completions")
    if isinstance(judge, OpenAICompatJudge) and provider == "openai":
        from .openai_jobs import OpenAIBatchService

        return OpenAIBatchService(judge.make_client(), provider="openai")
    raise ConfigurationError(
        f"--batch needs a judge with provider batch jobs ({', '.join(p + '/...' for p in BATCH_PROVIDERS)}); "
        f"{judge.model_id} has none"
    )


def reply_usage(provider: str, body: dict[str, Any] | None) -> Usage:
    """The tokens a reply body reports (a Chat Completion's ``usage``, a Message's), as :class:`Usage`."""
    usage = (body or {}).get("usage") or {}
    if provider == "anthropic":
        read = int(usage.get("cache_read_input_tokens") or 0)
        written = int(usage.get("cache_creation_input_tokens") or 0)
        return Usage(
            prompt_tokens=int(usage.get("input_tokens") or 0) + read + written,
            completion_tokens=int(usage.get("output_tokens") or 0),
            calls=1, cached_tokens=read, cache_write_tokens=written,
        )
    details = usage.get("prompt_tokens_details") or {}
    return Usage(
        prompt_tokens=int(usage.get("prompt_tokens") or 0),
        completion_tokens=int(usage.get("completion_tokens") or 0),
        calls=1, cached_tokens=int(details.get("cached_tokens") or 0),
    )


__all__ = ["BATCH_PROVIDERS", "batch_service", "reply_usage"]
