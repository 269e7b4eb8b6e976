"""From ``"provider/model"`` to a judge: :func:`judge_entry` is the one function that resolves a name,
to how its judge is made and which options it takes (the judge used when none is named is
:mod:`~sumjudge.judges.default`'s).

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
from .option_sets import HTTP_OPTIONS, OFFLINE_OPTIONS, OptionSet, local_options
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
    """The judge's :class:`~.option_sets.OptionSet`, built when first asked (``None``: the provider kind's own)."""
    method: str | None = None
    """The family's method on any OpenAI-compatible server, named ``<method>+<provider>/<model>``
    (the entry point carries the method's name); ``None``: none."""
    on_server: Callable[[ProviderSpec, str, ModelConfig], JudgeModel] | None = None
    """How to make the method's judge for ``provider``'s server and its ``model``."""
    server_options: Callable[[], Any] | None = None
    """The method's :class:`~.option_sets.OptionSet` on a server (``None``: any key, as over HTTP)."""


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


LOCAL_FACTORY = "sumjudge.judges.local:create_local_judge"

FACTORIES: dict[Kind, str] = {
    "openai_compat": "sumjudge.judges.openai_compat:OpenAICompatJudge",
    "azure": "sumjudge.judges.azure:AzureOpenAIJudge",
    "anthropic": "sumjudge.judges.anthropic:AnthropicJudge",
    "local": LOCAL_FACTORY,
}
"""The factory of each provider kind whose judges this package makes, ``"module:attribute"`` (imported
when first used). Offline judges have none here: every one is a registered family."""


@dataclass(frozen=True)
class JudgeEntry:
    """What the registry knows of one model id: how to make its judge, and which options it takes.
    Found once per id by :func:`judge_entry`; making the judge and checking its options both read it."""

    model_id: str
    create: Callable[[ModelConfig], JudgeModel]
    """``settings -> judge`` (the settings' ``id`` is this entry's ``model_id``)."""
    options: Callable[[], OptionSet]
    """The judge's :class:`~.option_sets.OptionSet`, built when asked."""


def judge_entry(model_id: str) -> JudgeEntry:
    """The entry of ``model_id``: a method on a server (``<method>+<provider>/<model>``), a family another
    package registered (``offline/lexical``), or a provider kind's own judge. An unknown provider
    or a method or offline judge nobody registered is one :class:`ConfigurationError`."""
    provider, name = parse_model_id(model_id)
    method, server = split_method(provider)
    spec = PROVIDERS[server]
    if method is not None:
        family = method_family(method)
        if family is None or family.on_server is None:
            raise ConfigurationError(
                f"no judge method {method!r} is installed for {model_id} (registered under the entry points "
                f"{FAMILIES_GROUP!r})"
            )
        on_server, server_options = family.on_server, family.server_options
        return JudgeEntry(model_id, lambda config: on_server(spec, name, config),
                          server_options if server_options is not None else lambda: HTTP_OPTIONS)
    family = judge_family(spec.name, name) if spec.kind in ("offline", "local") else None
    if family is not None:
        create = family.create
        default = local_options if spec.kind == "local" else lambda: OFFLINE_OPTIONS
        return JudgeEntry(model_id, lambda config: create(name, config), family.options or default)
    if spec.kind == "offline":
        raise ConfigurationError(
            f"no offline judge {name!r} is installed (none is registered under the entry points "
            f"{FAMILIES_GROUP!r}): reinstall sumjudge"
        )
    factory: JudgeFactory = _load(FACTORIES[spec.kind])
    return JudgeEntry(model_id, lambda config: factory(spec, name, config),
                      local_options if spec.kind == "local" else lambda: HTTP_OPTIONS)


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
    return judge_entry(model.id).create(model)


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
    "JudgeEntry",
    "JudgeFamily",
    "judge_entry",
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
