"""Awaiting several things at once without leaving any of them running behind."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable
from typing import Any


async def gather_settled(*awaitables: Awaitable[Any]) -> list[Any]:
    """Every result, in order; when some fail, the first error once all of them have finished.

    `asyncio.gather` returns at the first error and leaves the others running on their own (a
    statement, a search nobody waits for); cancelling them instead leaves asyncpg a task of its own
    that cancels the statement on the server. Either outlives the caller.
    """
    results = await asyncio.gather(*awaitables, return_exceptions=True)
    for result in results:
        if isinstance(result, BaseException):
            raise result
    return results
