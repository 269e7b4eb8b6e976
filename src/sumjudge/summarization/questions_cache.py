"""The questions of each source, asked once per scorer even by concurrent evaluations (step B).

B never sees the summary, so every summary of one source is examined with the same questions: the
scorer keeps them per (source digest, judge model, max_questions, sample), the oldest dropped first
so memory stays flat. A run whose own question call fails or is cancelled never takes another run
down with it: waiters ask again themselves, or record that same error.
"""

from __future__ import annotations

import asyncio
import threading
from collections import OrderedDict
from collections.abc import Awaitable, Callable

QUESTION_CACHE_SIZE = 4096
"""Sources whose questions a scorer remembers; old ones are dropped first, so memory stays flat."""


QuestionsKey = tuple[str, str, int, int, float | None]
"""(source digest, judge model, max_questions, sample index, sample temperature)."""


class QuestionCache:
    """Questions per (source, judge model, max_questions, sample), asked once even by concurrent runs.

    Thread-safe: completed answers are shared by every thread; a request in flight is shared by
    the runs of its own event loop.
    """

    def __init__(self, size: int = QUESTION_CACHE_SIZE) -> None:
        self._size = size
        self._done: OrderedDict[QuestionsKey, list[str]] = OrderedDict()
        self._inflight: dict[tuple[int, QuestionsKey], asyncio.Future[list[str]]] = {}
        self._lock = threading.Lock()

    async def get(self, key: QuestionsKey, ask: Callable[[], Awaitable[list[str]]]) -> list[str]:
        """The questions for ``key``: from memory, from the run already asking for them, or asked now.

        A run whose own question call fails or is cancelled never takes another run down with it:
        when the asker was cancelled (its item failed elsewhere), each waiting run asks for the
        questions itself; when the call failed, the waiting runs record that same error.
        """
        loop = asyncio.get_running_loop()
        slot = (id(loop), key)
        while True:
            with self._lock:
                if key in self._done:
                    self._done.move_to_end(key)
                    return list(self._done[key])
                pending = self._inflight.get(slot)
                owner = pending is None
                if pending is None:
                    pending = self._inflight[slot] = loop.create_future()
            if owner:
                return await self._ask_as_owner(key, slot, pending, ask)
            try:
                return list(await asyncio.shield(pending))
            except _Abandoned:
                continue  # the asker's item was cancelled: ask for the questions ourselves

    async def _ask_as_owner(
        self,
        key: QuestionsKey,
        slot: tuple[int, QuestionsKey],
        pending: asyncio.Future[list[str]],
        ask: Callable[[], Awaitable[list[str]]],
    ) -> list[str]:
        try:
            questions = await ask()
        except BaseException as exc:
            with self._lock:
                self._inflight.pop(slot, None)
            # never cancel the shared future: a waiter would take that for its own interrupt
            pending.set_exception(_Abandoned() if isinstance(exc, asyncio.CancelledError) else exc)
            pending.exception()  # retrieved here, so an unawaited future logs nothing
            raise
        with self._lock:
            self._inflight.pop(slot, None)
            self._done[key] = questions
            while len(self._done) > self._size:
                self._done.popitem(last=False)
        pending.set_result(questions)
        return list(questions)


class _Abandoned(Exception):
    """Set on a shared question request whose asker was cancelled: waiters ask again themselves."""


__all__ = ["QUESTION_CACHE_SIZE", "QuestionCache", "QuestionsKey"]
