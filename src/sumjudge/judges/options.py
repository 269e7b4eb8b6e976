"""A judge's options from the command line and the environment, read and checked in one place.

``--judge-option KEY=VALUE`` (repeatable, on ``score``, ``check``, ``probe``, ``questions`` and
``agreement``) and the environment variable ``SUMJUDGE_JUDGE_OPTIONS`` (``"KEY=VALUE,KEY=VALUE"``; a
flag's key wins over the variable's) become :attr:`~sumjudge.judges.base.ModelConfig.extra`. Which keys
a judge takes depends on its kind:

- ``local/reader`` (and ``reader-0.5b``, ``reader:/path.gguf``): the reader's settings and llama.cpp's;
- ``local/smollm2``, ``local/<file.gguf>``: llama.cpp's (:class:`~sumjudge.judges.local_settings.LocalSettings`);
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

import os
import re
from collections.abc import Mapping, Sequence
from typing import Any

from ..errors import ConfigurationError
from .base import REQUEST_FIELDS
from .option_sets import OptionSet
from .registry import JudgeEntry, judge_entry

OPTIONS_ENV_VAR = "SUMJUDGE_JUDGE_OPTIONS"
"""``"KEY=VALUE,KEY=VALUE"``: judge options for every command that takes ``--judge-option``."""

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


def option_set(model_id: str) -> OptionSet:
    """The options ``model_id``'s judge takes (its registry entry's)."""
    return judge_entry(model_id).options()


def checked_options(model_id: str, options: Mapping[str, Any], entry: JudgeEntry | None = None) -> dict[str, Any]:
    """``options`` for ``model_id``'s judge, each value of its type; one line naming the known keys
    when a key is unknown or a value is bad. ``entry``: the id's registry entry, when already found."""
    if not options:
        return {}
    taken = (entry or judge_entry(model_id)).options()
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
