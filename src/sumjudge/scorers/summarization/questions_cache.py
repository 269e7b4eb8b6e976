"""The questions of each source, asked once per scorer even by concurrent evaluations (step B).

B never sees the summary, so every summary of one source is examined with the same questions: the
scorer keeps them per (source digest, judge model, max_questions), the oldest dropped first so
memory stays flat (:data:`QUESTION_CACHE_SIZE` sources).
"""

from __future__ import annotations

import asyncio
import threading
from collections import OrderedDict
from collections.abc import Awaitable, Callable

QUESTION_CACHE_SIZE = 4096
"""Sources whose questions a scorer remembers; old ones are dropped first, so memory stays flat."""

QuestionsKey = tuple[str, str, int]
"""(sha256 of the source, judge model id, max_questions)."""


class QuestionCache:
    """Questions per (source, judge model, max_questions), asked once even by concurrent runs.

    Thread-safe: completed answers are shared by every thread; a request in flight is shared by
    the runs of its own event loop.
    """

    def __init__(self, size: int = QUESTION_CACHE_SIZE) -> None:
        self._size = size
        self._done: OrderedDict[QuestionsKey, list[str]] = OrderedDict()
        self._inflight: dict[tuple[int, QuestionsKey], asyncio.Future[list[str]]] = {}
        self._lock = threading.Lock()

    async def get(self, key: QuestionsKey, ask: Callable[[], Awaitable[list[str]]]) -> list[str]:
        loop = asyncio.get_running_loop()
        slot = (id(loop), key)
        with self._lock:
            if key in self._done:
                self._done.move_to_end(key)
                return list(self._done[key])
            pending = self._inflight.get(slot)
            if pending is None:
                pending = self._inflight[slot] = loop.create_future()
                owner = True
            else:
                owner = False
        if not owner:
            return list(await asyncio.shield(pending))
        try:
            questions = await ask()
        except BaseException as exc:
            with self._lock:
                self._inflight.pop(slot, None)
            if isinstance(exc, asyncio.CancelledError):
                pending.cancel()
            else:
                pending.set_exception(exc)
                pending.exception()  # retrieved here, so an unawaited future logs nothing
            raise
        with self._lock:
            self._inflight.pop(slot, None)
            self._done[key] = questions
            while len(self._done) > self._size:
                self._done.popitem(last=False)
        pending.set_result(questions)
        return list(questions)
