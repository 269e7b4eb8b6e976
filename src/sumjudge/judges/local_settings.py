"""The settings of a llama.cpp model in process, read from ``ModelConfig.extra`` and checked.

``n_ctx`` (context tokens, default 8192), ``n_threads`` (default: every CPU this process may run on,
``os.sched_getaffinity``, else ``os.cpu_count()``; llama-cpp-python's own default is half of them),
``n_threads_batch`` (threads for reading the prompt; default: the same as ``n_threads``;
docs/results.md measures the choices, quiet and beside a busy process), ``max_items`` (array items
when the request does not fix them, default 10), ``max_string_chars`` (characters per claim,
question or reason, default 200), ``seed``, ``state_cache_mb`` (a yes/no reader's cache of read
sources), ``use_mmap`` (default 0: the file is read into memory once; 1 maps it, see
:attr:`LocalSettings.use_mmap`). Each is an integer within its bound (:mod:`sumjudge.guards.limits`).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any, ClassVar

from ..errors import ConfigurationError
from ..guards.limits import MAX_CONTEXT_TOKENS, MAX_MEMORY_MB, MAX_REPLY_CHARS, MAX_REPLY_ITEMS, MAX_SEED, MAX_THREADS

DEFAULT_N_CTX = 8192
DEFAULT_MAX_ITEMS = 10
DEFAULT_MAX_STRING_CHARS = 200
DEFAULT_STATE_CACHE_MB = 256
MIN_STRING_CHARS = 24
"""The shortest string bound a reply's schema may shrink to (:func:`~.local.fit_schema`)."""


@dataclass(frozen=True)
class LocalSettings:
    n_ctx: int = DEFAULT_N_CTX
    n_threads: int | None = None
    n_threads_batch: int | None = None
    seed: int | None = None
    max_items: int = DEFAULT_MAX_ITEMS
    max_string_chars: int = DEFAULT_MAX_STRING_CHARS
    state_cache_mb: int = DEFAULT_STATE_CACHE_MB
    """Megabytes of read sources' states a yes/no reader keeps (:class:`~.next_token.StateCache`)."""
    use_mmap: int = 0
    """1: llama.cpp maps the GGUF file. 0 (the default): it reads the file into its own buffers. On a
    CPU, llama.cpp repacks most quantized weights into a layout of its own (Q4_K for AVX2, say), so a
    mapped file keeps its pages resident beside the repacked copy: the 1.5B reader held 1.82 GB after
    loading mapped and 1.24 GB read, at the same speed (docs/results.md)."""

    KEYS: ClassVar[tuple[str, ...]] = (
        "n_ctx", "n_threads", "n_threads_batch", "seed", "max_items", "max_string_chars", "state_cache_mb",
        "use_mmap",
    )

    @classmethod
    def check(cls, extra: dict[str, Any]) -> dict[str, Any]:
        """``extra``'s settings, each an integer (or None), after the checks of :meth:`from_extra`."""
        settings = cls.from_extra(extra)
        return {k: getattr(settings, k) for k in extra}

    @classmethod
    def from_extra(cls, extra: dict[str, Any]) -> LocalSettings:
        known = set(cls.KEYS)
        unknown = sorted(set(extra) - known)
        if unknown:
            raise ConfigurationError(
                f"unknown setting(s) for the local judge: {', '.join(unknown)}; "
                f"known: {', '.join(sorted(known))}"
            )
        values: dict[str, int | None] = {}
        for k, v in extra.items():
            try:
                values[k] = _integer(v) if v is not None else None
            except (TypeError, ValueError):
                raise ConfigurationError(f"local judge setting {k} must be an integer, not {v!r}") from None
        settings = cls(**values)  # type: ignore[arg-type]
        for key, (low, high) in _RANGES.items():
            value = getattr(settings, key)
            if value is not None and not low <= value <= high:
                raise ConfigurationError(f"local judge setting {key}={value} is out of range: {low} to {high}")
        return settings

    def threads(self) -> tuple[int, int]:
        """(threads for generating, threads for reading the prompt): the user's, else every CPU this
        process may use (:func:`usable_cpus`)."""
        n = self.n_threads or usable_cpus()
        return n, self.n_threads_batch or n


_RANGES: dict[str, tuple[int, int]] = {
    "n_ctx": (512, MAX_CONTEXT_TOKENS), "n_threads": (1, MAX_THREADS), "n_threads_batch": (1, MAX_THREADS),
    "seed": (0, MAX_SEED), "max_items": (1, MAX_REPLY_ITEMS), "max_string_chars": (MIN_STRING_CHARS, MAX_REPLY_CHARS),
    "state_cache_mb": (0, MAX_MEMORY_MB), "use_mmap": (0, 1),
}
"""Each setting's least and greatest value: every size a bound (:mod:`sumjudge.guards.limits`)."""


def _integer(value: Any) -> int:
    """An integer setting: an int, or text that reads as one (``"4"``, not ``"4.5"``)."""
    if isinstance(value, bool) or not isinstance(value, (int, str)):
        raise ValueError(f"{value!r} is not an integer")
    return int(value)


def usable_cpus() -> int:
    """The CPUs this process may run on (its affinity mask: a container's or ``taskset``'s limit),
    else every CPU of the machine."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):  # macOS and Windows have no affinity call
        return max(1, os.cpu_count() or 1)


__all__ = ["DEFAULT_MAX_ITEMS", "DEFAULT_MAX_STRING_CHARS", "DEFAULT_N_CTX", "DEFAULT_STATE_CACHE_MB", "MIN_STRING_CHARS", "LocalSettings", "usable_cpus"]
