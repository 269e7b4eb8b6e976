"""Which judge failures heal, and how long to wait before trying again.

Provider-neutral: a provider hands :func:`call_with_retries` one attempt (a coroutine
function) and a ``classify`` function that maps the exceptions of its own SDK to

- :class:`Transient`: worth another try (429, 5xx, timeouts, dropped connections), with the
  server's ``Retry-After`` when it sent one;
- :class:`Permanent`: will never heal (400, 401, 403, 404, unknown model): raised at once as
  :class:`~sumjudge.errors.JudgeRequestError` naming the status and the server's message;
- ``None``: not a transport failure; the exception propagates unchanged.

Waits grow exponentially with jitter and are bounded by :class:`RetryPolicy` (from
``ModelConfig.max_retries`` and ``ModelConfig.max_retry_time``). A ``Retry-After`` is honoured
as a lower bound; one that points past the time budget ends the retries at once. ``sleep`` and
``clock`` are injectable so tests never wait for real.
"""

from __future__ import annotations

import asyncio
import email.utils
import random
import time
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from datetime import timezone
from typing import TypeVar

from ..errors import JudgeRequestError, JudgeUnavailableError
from .base import ModelConfig

T = TypeVar("T")

Sleep = Callable[[float], Awaitable[object]]
Clock = Callable[[], float]

RETRYABLE_STATUSES = frozenset({408, 409, 425, 429, 500, 502, 503, 504, 520, 521, 522, 523, 524, 529})
"""Statuses that heal by waiting. Any other 5xx heals too (see :func:`is_retryable_status`)."""


@dataclass(frozen=True)
class Transient:
    """A failure worth another try."""

    reason: str
    retry_after: float | None = None
    """Seconds the server asked us to wait (``Retry-After``), when it said."""
    status: int | None = None

    @property
    def rate_limited(self) -> bool:
        return self.status == 429


@dataclass(frozen=True)
class Permanent:
    """A failure that will not heal: the request itself is wrong."""

    reason: str
    status: int | None = None


Classification = Transient | Permanent | None
Classify = Callable[[BaseException], Classification]


@dataclass(frozen=True)
class RetryPolicy:
    """How often and how long to retry one call."""

    max_retries: int = 4
    """Retries after the first attempt (so at most ``max_retries + 1`` attempts)."""
    max_retry_time: float = 120.0
    """Seconds spent on one call, all attempts and waits together, before giving up."""
    base_delay: float = 0.5
    max_delay: float = 30.0

    @classmethod
    def from_config(cls, config: ModelConfig) -> RetryPolicy:
        return cls(max_retries=config.max_retries, max_retry_time=config.max_retry_time)

    def backoff(self, retry_number: int, rng: random.Random | None = None) -> float:
        """Wait before retry ``retry_number`` (1-based): exponential, capped, with equal jitter.

        Half of the exponential step is fixed and half is random, so many clients failing
        at once spread out but still back off.
        """
        step = min(self.max_delay, self.base_delay * (2 ** (retry_number - 1)))
        r = (rng or random).random()
        return step / 2 + step / 2 * r


def is_retryable_status(status: int) -> bool:
    return status in RETRYABLE_STATUSES or status >= 500


def parse_retry_after(value: str | None, *, now: float | None = None) -> float | None:
    """Seconds to wait from a ``Retry-After`` value: delta-seconds or an HTTP-date.

    Also accepts fractional seconds (some servers send them). Returns ``None`` when the
    value is missing or unreadable, and never a negative number.
    """
    if value is None:
        return None
    value = value.strip()
    if not value:
        return None
    try:
        seconds = float(value)
    except ValueError:
        pass
    else:
        if seconds != seconds or seconds in (float("inf"), float("-inf")):
            return None
        return max(0.0, seconds)
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError, IndexError):
        return None
    if when is None:
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=timezone.utc)
    current = now if now is not None else time.time()
    return max(0.0, when.timestamp() - current)


def retry_after_from_headers(headers: Mapping[str, str] | None) -> float | None:
    """``retry-after-ms`` (OpenAI, Azure) or ``Retry-After`` from response headers."""
    if not headers:
        return None
    ms = headers.get("retry-after-ms")
    if ms is not None:
        try:
            return max(0.0, float(ms) / 1000.0)
        except ValueError:
            pass
    return parse_retry_after(headers.get("retry-after"))


def classify_status(status: int, message: str, headers: Mapping[str, str] | None = None) -> Transient | Permanent:
    """Classify an HTTP error status; what a provider does for its SDK's status errors."""
    label = f"HTTP {status}"
    text = f"{label}: {message}" if message else label
    if is_retryable_status(status):
        return Transient(text, retry_after=retry_after_from_headers(headers), status=status)
    hint = _PERMANENT_HINTS.get(status)
    if hint:
        text = f"{text} ({hint})"
    return Permanent(text, status=status)


_PERMANENT_HINTS = {
    400: "the server rejected the request",
    401: "check the API key",
    403: "the key may not use this model or endpoint",
    404: "unknown model or wrong base URL",
    422: "the server rejected the request",
}

OnRetry = Callable[[Transient, int, float], object]
"""Called before each wait with the failure, the retry number (1-based) and the wait in seconds."""


async def call_with_retries(
    attempt: Callable[[], Awaitable[T]],
    *,
    classify: Classify,
    policy: RetryPolicy,
    step: str | None = None,
    what: str = "judge call",
    sleep: Sleep = asyncio.sleep,
    clock: Clock = time.monotonic,
    rng: random.Random | None = None,
    on_retry: OnRetry | None = None,
) -> T:
    """Run ``attempt`` until it succeeds, a failure is permanent, or the budget is spent.

    Raises :class:`JudgeRequestError` (permanent failure, at once) or
    :class:`JudgeUnavailableError` (transient failures outlasted the budget).
    """
    started = clock()
    retries = 0
    while True:
        try:
            return await attempt()
        except Exception as exc:  # noqa: BLE001 - classified below, re-raised when not ours
            verdict = classify(exc)
            if verdict is None:
                raise
            if isinstance(verdict, Permanent):
                raise JudgeRequestError(
                    f"{what} failed and will not be retried: {verdict.reason}",
                    status=verdict.status,
                    step=step,
                ) from exc
            elapsed = clock() - started
            if retries >= policy.max_retries:
                raise JudgeUnavailableError(
                    f"{what} failed {retries + 1} time(s) in {elapsed:.1f}s; last error: {verdict.reason}",
                    step=step,
                ) from exc
            retries += 1
            delay = policy.backoff(retries, rng)
            if verdict.retry_after is not None:
                delay = max(delay, verdict.retry_after)
            remaining = policy.max_retry_time - elapsed
            if delay > remaining:
                asked = (
                    f" (the server asked to wait {verdict.retry_after:.1f}s)"
                    if verdict.retry_after is not None
                    else ""
                )
                raise JudgeUnavailableError(
                    f"{what} failed {retries} time(s); retry budget of {policy.max_retry_time:.0f}s "
                    f"would be exceeded{asked}; last error: {verdict.reason}",
                    step=step,
                ) from exc
            if on_retry is not None:
                on_retry(verdict, retries, delay)
            await sleep(delay)


__all__ = [
    "RETRYABLE_STATUSES",
    "Classify",
    "Classification",
    "Permanent",
    "RetryPolicy",
    "Transient",
    "call_with_retries",
    "classify_status",
    "is_retryable_status",
    "parse_retry_after",
    "retry_after_from_headers",
]
