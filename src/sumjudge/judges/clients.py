"""One SDK client per event loop, for :class:`~sumjudge.judges.http.HTTPJudge`.

An SDK's async client is bound to the connections of the event loop it first ran on. A judge
can be used from several loops over its life (``run_sync`` starts a fresh one per call, threads
each run their own), so it keeps one client per running loop, shared by the calls in flight on
that loop and closed when the last of them ends: no connection outlives its loop.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Generic, TypeVar

C = TypeVar("C")
T = TypeVar("T")


@dataclass
class _Entry(Generic[C]):
    client: C
    users: int = 0


class LoopClients(Generic[C]):
    """One client per running event loop, made by ``make`` and closed with ``await client.close()``."""

    def __init__(self, make: Callable[[], C]) -> None:
        self._make = make
        self._lock = threading.Lock()
        self._entries: dict[asyncio.AbstractEventLoop, _Entry[C]] = {}

    def __len__(self) -> int:
        """How many clients are open now (one per loop with calls in flight)."""
        with self._lock:
            return len(self._entries)

    @asynccontextmanager
    async def get(self) -> AsyncIterator[C]:
        loop = asyncio.get_running_loop()
        with self._lock:
            entry = self._entries.get(loop)
            if entry is None:
                entry = self._entries[loop] = _Entry(self._make())
            entry.users += 1
        try:
            yield entry.client
        finally:
            with self._lock:
                entry.users -= 1
                last = entry.users == 0
                if last:
                    del self._entries[loop]
            if last:
                await asyncio.shield(entry.client.close())  # type: ignore[attr-defined]


__all__ = ["LoopClients"]
