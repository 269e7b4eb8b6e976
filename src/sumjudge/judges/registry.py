"""From ``"provider/model"`` to a judge: the one function that resolves a name (the judge used
when none is named is :mod:`~sumjudge.judges.default`'s).

Which provider a name means, and how to reach it, is data in :mod:`~sumjudge.judges.providers`.
Which code makes the judge is named here by import path (:data:`FACTORIES`) and imported only when
a judge of that kind is made: the core installs without optional extras, and the registry and the
provider modules never import each other (no import cycle).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

from ..errors import ConfigurationError
from .base import JudgeModel, ModelConfig
from .default import DEFAULT_JUDGE_NOTICE, DEFAULT_MODEL, MODEL_ENV_VAR, default_chosen_for_user, default_model_id
from .providers import PROVIDERS, Kind, ProviderSpec, parse_model_id, resolve_api_key, resolve_base_url

JudgeFactory = Callable[[ProviderSpec, str, ModelConfig], JudgeModel]
"""``(provider entry, model name, settings) -> judge``."""

OFFLINE_FACTORY = "sumjudge.scorers.summarization.offline:create_offline_judge"
"""``name -> judge`` for ``offline/<name>``. The offline lexical judge answers only the summarization
scorer's steps and lives with it; named by path, so no module under judges/ imports it."""


READER_FACTORY = "sumjudge.scorers.summarization.reader:create_reader_judge"
"""``(name, settings) -> judge`` for ``local/reader``, ``local/reader-0.5b`` and ``local/reader:/path.gguf``:
the offline judge's claims and questions, a local model's yes/no verdicts; it lives with the scorer
(named by path, as the offline judge is)."""
LOCAL_FACTORY = "sumjudge.judges.local:create_local_judge"


def is_reader_name(name: str) -> bool:
    """``reader``, ``reader-<size>`` or ``reader:<path>``: the ``local/`` names the reader answers to."""
    key = name.strip().lower()
    return key == "reader" or key.startswith("reader:") or (key.startswith("reader-") and "/" not in key and not key.endswith(".gguf"))


def _create_local_judge(spec: ProviderSpec, name: str, config: ModelConfig) -> JudgeModel:
    if is_reader_name(name):
        return _load(READER_FACTORY)(name, config)  # type: ignore[no-any-return]
    return _load(LOCAL_FACTORY)(spec, name, config)  # type: ignore[no-any-return]


def _create_offline_judge(spec: ProviderSpec, name: str, config: ModelConfig) -> JudgeModel:
    return _load(OFFLINE_FACTORY)(name)  # type: ignore[no-any-return]


FACTORIES: dict[Kind, str | JudgeFactory] = {
    "openai_compat": "sumjudge.judges.openai_compat:OpenAICompatJudge",
    "azure": "sumjudge.judges.azure:AzureOpenAIJudge",
    "anthropic": "sumjudge.judges.anthropic:AnthropicJudge",
    "local": _create_local_judge,
    "offline": _create_offline_judge,
}
"""The factory of each provider kind: ``"module:attribute"`` (imported when first used) or a callable."""


def resolve_judge(model: str | ModelConfig | JudgeModel | None = None) -> JudgeModel:
    """Turn what a user passed as ``model`` into a judge.

    ``None`` means ``SUMJUDGE_MODEL`` or, failing that, ``offline/lexical``. A ready judge
    object (anything with ``model_id`` and ``async generate``) is used as it is.
    """
    if model is None:
        model = default_model_id()
    if isinstance(model, str):
        model = ModelConfig(id=model)
    if not isinstance(model, ModelConfig):
        if isinstance(model, JudgeModel):
            return model
        raise ConfigurationError(
            f"model must be a 'provider/model' string, a ModelConfig or a judge object, "
            f"got {type(model).__name__}"
        )
    provider, name = parse_model_id(model.id)
    spec = PROVIDERS[provider]
    entry = FACTORIES[spec.kind]
    factory: JudgeFactory = _load(entry) if isinstance(entry, str) else entry
    return factory(spec, name, model)


def _load(path: str) -> Any:
    """The object named by ``"package.module:attribute"``, its module imported now (not before)."""
    module, _, attribute = path.partition(":")
    return getattr(importlib.import_module(module), attribute)


__all__ = [
    "DEFAULT_JUDGE_NOTICE",
    "DEFAULT_MODEL",
    "FACTORIES",
    "MODEL_ENV_VAR",
    "OFFLINE_FACTORY",
    "READER_FACTORY",
    "is_reader_name",
    "PROVIDERS",
    "ProviderSpec",
    "default_chosen_for_user",
    "default_model_id",
    "parse_model_id",
    "resolve_api_key",
    "resolve_base_url",
    "resolve_judge",
]
