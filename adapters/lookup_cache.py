"""A bounded, expiring cache for platform lookups, where concurrent lookups of one key share a call."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from typing import Generic, TypeVar

K = TypeVar("K")
V = TypeVar("V")

# What a lookup returns: the value, and whether it may be cached (a fallback after an API error
# is used once, and the next caller asks again).
Fetch = Callable[[K], Awaitable[tuple[V, bool]]]


class LookupCache(Generic[K, V]):
    """`get(key)` answers from memory for `ttl` seconds, else calls `fetch` once for all waiters."""

    def __init__(
        self,
        fetch: Fetch[K, V],
        ttl: float,
        max_entries: int = 10_000,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._fetch = fetch
        self._ttl = ttl
        self._max = max_entries
        self._clock = clock
        self._entries: dict[K, tuple[float, V]] = {}
        self._pending: dict[K, asyncio.Future[V]] = {}

    def put(self, key: K, value: V) -> None:
        """Store a value learned elsewhere (e.g. from an event's own payload)."""
        self._entries.pop(key, None)
        if len(self._entries) >= self._max:
            # Oldest first: dicts keep insertion order.
            self._entries.pop(next(iter(self._entries)))
        self._entries[key] = (self._clock() + self._ttl, value)

    def peek(self, key: K) -> V | None:
        """The cached value if still fresh, without fetching."""
        cached = self._entries.get(key)
        return cached[1] if cached is not None and cached[0] > self._clock() else None

    async def get(self, key: K) -> V:
        cached = self._entries.get(key)
        if cached is not None and cached[0] > self._clock():
            return cached[1]
        pending = self._pending.get(key)
        if pending is not None:
            return await asyncio.shield(pending)
        future: asyncio.Future[V] = asyncio.get_running_loop().create_future()
        self._pending[key] = future
        try:
            # `fetch` turns API failures into an uncached fallback; only cancellation or a bug
            # gets here as an exception, which the waiters then see too.
            value, cacheable = await self._fetch(key)
        except BaseException as exc:
            if isinstance(exc, Exception):
                future.set_exception(exc)
                future.exception()  # retrieved: no "never retrieved" warning when nobody waits
            else:
                future.cancel()
            raise
        else:
            future.set_result(value)
        finally:
            self._pending.pop(key, None)
        if cacheable:
            self.put(key, value)
        return value
