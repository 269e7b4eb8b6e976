"""Awaitables that live and die together: when one fails (or the caller is cancelled), the others are
cancelled and awaited before the error goes on, so no judge call is left running unowned."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable
from typing import Any


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
