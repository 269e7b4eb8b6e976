"""A judge's options from the command line and the environment, read and checked in one place.

``--judge-option KEY=VALUE`` (repeatable, on ``score``, ``check``, ``probe``, ``questions`` and
``agreement``) and the environment variable ``SUMJUDGE_JUDGE_OPTIONS`` (``"KEY=VALUE,KEY=VALUE"``; a
flag's key wins over the variable's) become :attr:`~sumjudge.judges.base.ModelConfig.extra`. Which keys
a judge takes depends on its kind:

- ``local/reader`` (and ``reader-0.5b``, ``reader:/path.gguf``): the reader's settings and llama.cpp's;
- ``local/smollm2``, ``local/<file.gguf>``: llama.cpp's (:class:`~sumjudge.judges.local.LocalSettings`);
- ``offline/...``: none;
- a judge over HTTP: any key but the request's own fields (:data:`REQUEST_FIELDS`: ``model``,
  ``messages``, ``response_format``, ``tools``, ...), sent in the request body as the provider's own
  parameter (a value that reads as JSON, ``0.5``, ``true``, ``[1, 2]``, is sent as that value, anything
  else as text; NaN and infinity are refused). Every one is part of the judge's identity
  (:func:`~sumjudge.judges.base.judge_identity`), so a run is resumed only under the same options.

An unknown key or a bad value is one :class:`~sumjudge.errors.ConfigurationError` naming the keys the
judge knows, raised before a judge is built, a file read or a model loaded.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..errors import ConfigurationError
from .base import REQUEST_FIELDS, extra_problem
from .providers import PROVIDERS, parse_model_id, split_method

OPTIONS_ENV_VAR = "SUMJUDGE_JUDGE_OPTIONS"
"""``"KEY=VALUE,KEY=VALUE"``: judge options for every command that takes ``--judge-option``."""

@dataclass(frozen=True)
class OptionSet:
    """The keys a kind of judge takes and the check that types them."""

    keys: tuple[str, ...] | None
    """``None``: any key (sent on to the provider)."""
    check: Callable[[dict[str, Any]], dict[str, Any]]
    """``extra`` -> the same keys, each value of its type; :class:`ConfigurationError` for a bad one."""

_KEY = re.compile(r"^[A-Za-z_][A-Za-z0-9_.\-]*$")


def parse_pairs(pairs: Sequence[str], origin: str) -> dict[str, str]:
    """``["k=v", ...]`` -> ``{"k": "v"}``, the last of a repeated key winning; ``origin`` names where
    they came from in the error (``--judge-option``, ``$SUMJUDGE_JUDGE_OPTIONS``)."""
    out: dict[str, str] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        key = key.strip()
        if not sep or not _KEY.match(key):
            raise ConfigurationError(f"{origin} {pair!r}: expected KEY=VALUE, e.g. n_threads=2")
        out[key] = value.strip()
    return out


def gathered_options(flags: Sequence[str] = (), environ: Mapping[str, str] | None = None) -> dict[str, str]:
    """The options of ``$SUMJUDGE_JUDGE_OPTIONS``, then the flags' (a flag's key wins), as text."""
    env = (os.environ if environ is None else environ).get(OPTIONS_ENV_VAR, "")
    options = parse_pairs([p for p in env.split(",") if p.strip()], f"${OPTIONS_ENV_VAR}")
    options.update(parse_pairs(list(flags), "--judge-option"))
    return options


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
    from .local import LocalSettings

    return LocalSettings.check(extra)


def _offline_options(extra: dict[str, Any]) -> dict[str, Any]:
    if extra:
        raise ConfigurationError(f"unknown option(s) {', '.join(sorted(extra))}: an offline judge takes none")
    return {}


def option_set(model_id: str) -> OptionSet:
    """The options ``model_id``'s judge takes."""
    from .local import LocalSettings
    from .registry import judge_family, method_family

    provider, name = parse_model_id(model_id)
    method, _ = split_method(provider)
    if method is not None:
        on_server = method_family(method)
        if on_server is not None and on_server.server_options is not None:
            return on_server.server_options()  # type: ignore[no-any-return]
        return OptionSet(None, _http_options)
    kind = PROVIDERS[provider].kind
    family = judge_family(provider, name) if kind in ("offline", "local") else None
    if family is not None and family.options is not None:
        return family.options()
    if kind == "offline":
        return OptionSet((), _offline_options)
    if kind == "local":
        return OptionSet(LocalSettings.KEYS, _local_options)
    return OptionSet(None, _http_options)


def checked_options(model_id: str, options: Mapping[str, Any]) -> dict[str, Any]:
    """``options`` for ``model_id``'s judge, each value of its type; one line naming the known keys
    when a key is unknown or a value is bad."""
    if not options:
        return {}
    taken = option_set(model_id)
    try:
        return taken.check(dict(options))
    except ConfigurationError as exc:
        if taken.keys is None:  # a judge over HTTP: every other key goes to the provider
            raise ConfigurationError(f"judge options for {model_id}: {exc}") from None
        known = ", ".join(sorted(taken.keys)) if taken.keys else "none"
        raise ConfigurationError(f"judge options for {model_id}: {exc}; known keys: {known}") from None


def judge_options(model_id: str, flags: Sequence[str] = (), environ: Mapping[str, str] | None = None) -> dict[str, Any]:
    """``--judge-option`` flags and ``$SUMJUDGE_JUDGE_OPTIONS`` for ``model_id``'s judge: read, typed
    and checked (:class:`~sumjudge.errors.ConfigurationError`, one line, on a bad one)."""
    return checked_options(model_id, gathered_options(flags, environ))


__all__ = ["OPTIONS_ENV_VAR", "REQUEST_FIELDS", "checked_options", "gathered_options", "judge_options", "option_set", "parse_pairs", "OptionSet"]
