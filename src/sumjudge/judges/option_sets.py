"""Which ``--judge-option`` keys a kind of judge takes, and the check that types them.

A registry entry (:func:`~sumjudge.judges.registry.judge_entry`) carries the option set of its judge; the
provider kinds' own sets are here: a judge over HTTP takes any key but the request's own fields, a local
GGUF model llama.cpp's keys, an offline judge none.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..errors import ConfigurationError
from .base import extra_problem


@dataclass(frozen=True)
class OptionSet:
    """The keys a kind of judge takes and the check that types them."""

    keys: tuple[str, ...] | None
    """``None``: any key (sent on to the provider)."""
    check: Callable[[dict[str, Any]], dict[str, Any]]
    """``extra`` -> the same keys, each value of its type; :class:`ConfigurationError` for a bad one."""


def _json_value(text: str) -> Any:
    try:
        return json.loads(text)
    except ValueError:
        return text


def _http_options(extra: dict[str, Any]) -> dict[str, Any]:
    typed = {k: _json_value(v) if isinstance(v, str) else v for k, v in extra.items()}
    problem = extra_problem(typed)  # the request's own fields, NaN and infinity: what ModelConfig refuses too
    if problem:
        raise ConfigurationError(problem)
    return typed


def _local_options(extra: dict[str, Any]) -> dict[str, Any]:
    from .local_settings import LocalSettings

    return LocalSettings.check(extra)


def _offline_options(extra: dict[str, Any]) -> dict[str, Any]:
    if extra:
        raise ConfigurationError(f"unknown option(s) {', '.join(sorted(extra))}: an offline judge takes none")
    return {}


HTTP_OPTIONS = OptionSet(None, _http_options)
"""A judge over HTTP: any key but the request's own fields, sent in the body as the provider's parameter."""
OFFLINE_OPTIONS = OptionSet((), _offline_options)
"""An offline judge: no key."""


def local_options() -> OptionSet:
    """A GGUF model in process: llama.cpp's keys (:class:`~sumjudge.judges.local_settings.LocalSettings`, imported
    only when asked)."""
    from .local_settings import LocalSettings

    return OptionSet(LocalSettings.KEYS, _local_options)


__all__ = ["HTTP_OPTIONS", "OFFLINE_OPTIONS", "OptionSet", "local_options"]
