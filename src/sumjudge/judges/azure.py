"""Azure OpenAI: ``azure/<deployment>`` through the openai SDK's ``AsyncAzureOpenAI``.

Everything but the client (:meth:`AzureOpenAIJudge.make_client`) is the OpenAI-compatible judge's: structured output and its fallbacks,
re-asks, retries, the limiter, the per-loop client pool. The client sends each request to
``{endpoint}/openai/deployments/<deployment>/chat/completions?api-version=...`` with the
``api-key`` header. Settings, each overridden by :class:`~sumjudge.judges.base.ModelConfig`:

- key: ``AZURE_OPENAI_API_KEY`` (``ModelConfig.api_key``)
- endpoint: ``AZURE_OPENAI_ENDPOINT``, e.g. ``https://my-resource.openai.azure.com`` (``base_url``)
- API version: ``OPENAI_API_VERSION`` (``api_version``), else :data:`DEFAULT_API_VERSION`
"""

from __future__ import annotations

import functools
import os
from typing import Any

from .openai_compat import OpenAICompatJudge

API_VERSION_ENV = "OPENAI_API_VERSION"
DEFAULT_API_VERSION = "2024-10-21"
"""A generally available Azure OpenAI API version with structured outputs (json_schema)."""


class AzureOpenAIJudge(OpenAICompatJudge):
    """A judge on an Azure OpenAI deployment (the model part of ``azure/<deployment>``)."""

    key_in_authorization = False  # the key goes in the api-key header: Basic auth from the URL goes beside it

    @functools.cached_property
    def api_version(self) -> str:
        """``ModelConfig.api_version``, else ``$OPENAI_API_VERSION``, else :data:`DEFAULT_API_VERSION`."""
        return self.config.api_version or os.environ.get(API_VERSION_ENV) or DEFAULT_API_VERSION

    @property
    def deployment(self) -> str:
        return self._name

    def __repr__(self) -> str:
        return f"AzureOpenAIJudge({self.model_id!r}, endpoint={self.base_url!r}, api_version={self.api_version!r})"

    def make_client(self) -> Any:
        openai = self._openai
        return openai.AsyncAzureOpenAI(
            api_key=self._api_key,
            azure_endpoint=self.base_url,
            azure_deployment=self.deployment,
            api_version=self.api_version,
            timeout=self.config.timeout,
            max_retries=0,
            default_headers=dict(self.config.headers) or None,
            http_client=self._http_client_class(verify=self._ssl()),
        )


__all__ = ["DEFAULT_API_VERSION", "AzureOpenAIJudge"]
