"""Run a coroutine from synchronous code, also when the calling thread already runs an event loop."""

from __future__ import annotations

import asyncio
import concurrent.futures
from collections.abc import Awaitable, Callable
from typing import TypeVar

T = TypeVar("T")


def run_sync(make_coro: Callable[[], Awaitable[T]]) -> T:
    """``asyncio.run`` the coroutine; inside a running loop (Jupyter), run it on a helper thread."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(_await(make_coro))
    with concurrent.futures.ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(lambda: asyncio.run(_await(make_coro))).result()


async def _await(make_coro: Callable[[], Awaitable[T]]) -> T:
    return await make_coro()
