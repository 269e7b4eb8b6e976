"""Concurrency that adapts to a rate-limited judge: fewer requests in flight after a 429.

:class:`AdaptiveLimiter` caps the requests one judge has in flight. Each request holds a
:class:`Ticket` while it runs and reports how it went:

- a 429 halves the limit (never below 1) once per "window" (several requests refused by the
  same burst lower it once, not once each) and pauses every new request of the judge until
  the server's ``Retry-After`` has passed, when that is within ``max_pause`` (the retry layer's
  time budget: a longer wait is one the retry layer will not make either, so the call that got
  it fails with an error saying so, and the other requests are not held up for it);
- a run of ``raise_after`` clean replies raises the limit by one, never above the maximum.

The state is guarded by a thread lock and waiters are woken on their own event loop, so one
judge may be shared by several event loops (``run_sync`` runs each call on a fresh one).
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections import deque
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass


@dataclass(frozen=True)
class Ticket:
    """One admitted request; ``epoch`` tells which window of the limit it started in."""

    epoch: int


class AdaptiveLimiter:
    def __init__(
        self,
        max_concurrency: int,
        *,
        raise_after: int = 8,
        max_pause: float | None = None,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], Awaitable[object]] = asyncio.sleep,
    ) -> None:
        if max_concurrency < 1:
            raise ValueError("max_concurrency must be at least 1")
        if raise_after < 1:
            raise ValueError("raise_after must be at least 1")
        self.max_concurrency = max_concurrency
        self.raise_after = raise_after
        self.max_pause = max_pause
        """Longest ``Retry-After`` that pauses every request (``None``: no bound)."""
        self._clock = clock
        self._sleep = sleep
        self._lock = threading.Lock()
        self._limit = max_concurrency
        self._in_flight = 0
        self._epoch = 0
        self._clean = 0
        self._paused_until = 0.0
        self._waiters: deque[tuple[asyncio.AbstractEventLoop, asyncio.Future[None]]] = deque()
        self.peak_in_flight = 0
        """The most requests ever in flight at once (for tests and progress displays)."""
        self.lowest_limit = max_concurrency
        """The lowest the limit went."""

    @property
    def limit(self) -> int:
        return self._limit

    @property
    def in_flight(self) -> int:
        return self._in_flight

    def paused_for(self) -> float:
        """Seconds left of the pause a ``Retry-After`` asked for (0 when none)."""
        return max(0.0, self._paused_until - self._clock())

    @asynccontextmanager
    async def slot(self) -> AsyncIterator[Ticket]:
        """Hold one place for the duration of a request."""
        ticket = await self.acquire()
        try:
            yield ticket
        finally:
            self.release()

    async def acquire(self) -> Ticket:
        loop = asyncio.get_running_loop()
        while True:
            pause = self.paused_for()
            if pause > 0:
                await self._sleep(pause)
                continue
            with self._lock:
                if self._in_flight < self._limit:
                    self._in_flight += 1
                    self.peak_in_flight = max(self.peak_in_flight, self._in_flight)
                    return Ticket(self._epoch)
                waiter: asyncio.Future[None] = loop.create_future()
                self._waiters.append((loop, waiter))
            try:
                await waiter
            except asyncio.CancelledError:
                with self._lock:
                    try:
                        self._waiters.remove((loop, waiter))
                        woken = False
                    except ValueError:
                        woken = True
                if woken:  # pass the wake-up on, or it is lost
                    self._wake(1)
                raise

    def release(self) -> None:
        with self._lock:
            self._in_flight -= 1
            free = self._limit - self._in_flight
        self._wake(free)

    def on_success(self, ticket: Ticket) -> None:
        """A clean reply: after ``raise_after`` in a row, one more request may be in flight."""
        raised = False
        with self._lock:
            self._clean += 1
            if self._clean >= self.raise_after and self._limit < self.max_concurrency:
                self._limit += 1
                self._clean = 0
                raised = True
        if raised:
            self._wake(1)

    def on_rate_limited(self, ticket: Ticket, retry_after: float | None = None) -> None:
        """A 429: halve the limit once per window and pause new requests for ``retry_after``."""
        with self._lock:
            self._clean = 0
            if ticket.epoch == self._epoch:
                self._limit = max(1, self._limit // 2)
                self._epoch += 1
                self.lowest_limit = min(self.lowest_limit, self._limit)
            if retry_after and (self.max_pause is None or retry_after <= self.max_pause):
                self._paused_until = max(self._paused_until, self._clock() + retry_after)

    def _wake(self, count: int) -> None:
        while count > 0:
            with self._lock:
                if not self._waiters:
                    return
                loop, waiter = self._waiters.popleft()
            try:
                loop.call_soon_threadsafe(_resolve, waiter)
            except RuntimeError:  # that loop is closed; its waiter is gone with it
                continue
            count -= 1


def _resolve(waiter: asyncio.Future[None]) -> None:
    if not waiter.done():
        waiter.set_result(None)


__all__ = ["AdaptiveLimiter", "Ticket"]
