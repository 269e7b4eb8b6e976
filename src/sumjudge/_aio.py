"""The two asyncio helpers every layer shares.

- :func:`run_sync`: run a coroutine from synchronous code, also when the calling thread already runs an
  event loop (the sync twins at the edges are this one call).
- :func:`gather_or_cancel`: awaitables that live and die together: when one fails (or the caller is
  cancelled), the others are cancelled and awaited before the error goes on, so no judge call is left
  running unowned.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

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


async def gather_or_cancel(*aws: Awaitable[Any]) -> list[Any]:
    """Run concurrently and return every result in order; on the first failure cancel the rest, then raise."""
    tasks = [asyncio.ensure_future(a) for a in aws]
    try:
        return list(await asyncio.gather(*tasks))
    except BaseException:
        for t in tasks:
            t.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        raise
