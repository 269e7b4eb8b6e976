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
from dataclasses import dataclass
from importlib.metadata import entry_points
from typing import Any

from ..errors import ConfigurationError
from .base import JudgeModel, ModelConfig
from .default import DEFAULT_JUDGE_NOTICE, DEFAULT_MODEL, MODEL_ENV_VAR, default_chosen_for_user, default_model_id
from .providers import PROVIDERS, Kind, ProviderSpec, parse_model_id, resolve_api_key, resolve_base_url, split_method

JudgeFactory = Callable[[ProviderSpec, str, ModelConfig], JudgeModel]
"""``(provider entry, model name, settings) -> judge``."""

FAMILIES_GROUP = "sumjudge.judges"
"""The entry-point group in which a package registers the judges it owns (``pyproject.toml``'s
``[project.entry-points."sumjudge.judges"]``): judges that live with the scorer whose steps they answer
register themselves there, so nothing in this package names them."""


@dataclass(frozen=True)
class JudgeFamily:
    """A kind of judge that another package provides: the provider it answers under, which model names
    it takes there, how to make one, and which ``--judge-option`` keys it takes."""

    provider: str
    accepts: Callable[[str], bool]
    create: Callable[[str, ModelConfig], JudgeModel]
    options: Callable[[], Any] | None = None
    """The judge's :class:`~.options.OptionSet`, built when first asked (``None``: the provider kind's own)."""
    method: str | None = None
    """The family's method on any OpenAI-compatible server, named ``<method>+<provider>/<model>``
    (the entry point carries the method's name); ``None``: none."""
    on_server: Callable[[ProviderSpec, str, ModelConfig], JudgeModel] | None = None
    """How to make the method's judge for ``provider``'s server and its ``model``."""
    server_options: Callable[[], Any] | None = None
    """The method's :class:`~.options.OptionSet` on a server."""


def judge_family(provider: str, name: str) -> JudgeFamily | None:
    """The registered family that answers ``provider/name``, or ``None``. An entry point is named for its
    provider (every name under it) or for the start of the model names it answers to, so only the
    packages that may answer are imported."""
    for entry in entry_points(group=FAMILIES_GROUP):
        if entry.name != provider and not name.strip().lower().startswith(entry.name):
            continue
        family = entry.load()
        if isinstance(family, JudgeFamily) and family.provider == provider and family.accepts(name):
            return family
    return None


def method_family(method: str) -> JudgeFamily | None:
    """The registered family whose method is ``method`` (its entry point carries that name), or ``None``."""
    for entry in entry_points(group=FAMILIES_GROUP):
        if entry.name != method:
            continue
        family = entry.load()
        if isinstance(family, JudgeFamily) and family.method == method and family.on_server is not None:
            return family
    return None


def _create_method_judge(method: str, spec: ProviderSpec, name: str, config: ModelConfig) -> JudgeModel:
    family = method_family(method)
    if family is None or family.on_server is None:
        raise ConfigurationError(
            f"no judge method {method!r} is installed for {method}+{spec.name}/{name} (registered under the "
            f"entry points {FAMILIES_GROUP!r})"
        )
    return family.on_server(spec, name, config)


LOCAL_FACTORY = "sumjudge.judges.local:create_local_judge"


def _create_local_judge(spec: ProviderSpec, name: str, config: ModelConfig) -> JudgeModel:
    family = judge_family(spec.name, name)
    if family is not None:
        return family.create(name, config)
    return _load(LOCAL_FACTORY)(spec, name, config)  # type: ignore[no-any-return]


def _create_offline_judge(spec: ProviderSpec, name: str, config: ModelConfig) -> JudgeModel:
    family = judge_family(spec.name, name)
    if family is None:
        raise ConfigurationError(
            f"no offline judge {name!r} is installed (none is registered under the entry points "
            f"{FAMILIES_GROUP!r}): reinstall sumjudge"
        )
    return family.create(name, config)


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
    method, server = split_method(provider)
    spec = PROVIDERS[server]
    if method is not None:
        return _create_method_judge(method, spec, name, model)
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
    "FAMILIES_GROUP",
    "JudgeFamily",
    "judge_family",
    "method_family",
    "PROVIDERS",
    "ProviderSpec",
    "default_chosen_for_user",
    "default_model_id",
    "parse_model_id",
    "resolve_api_key",
    "resolve_base_url",
    "resolve_judge",
]
