"""The platform event log: event ids already handled, so a redelivery is dropped."""

from __future__ import annotations

import time
from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass

# How long a platform event id is remembered: platforms retry for minutes, a day is plenty.
EVENT_TTL_SECONDS = 24 * 3600.0


@dataclass(frozen=True, slots=True)
class EventExpiry:
    """How long an event log remembers a key, the clock it reads, and how often (seconds) it purges
    expired keys; None purges at most once per TTL, capped at an hour."""

    ttl_seconds: float = EVENT_TTL_SECONDS
    clock: Callable[[], float] = time.time
    purge_interval: float | None = None

    def __post_init__(self) -> None:
        # Checked here, before a backend opens anything for a log it could not keep.
        if self.ttl_seconds <= 0:
            raise ValueError("ttl_seconds must be > 0")


class EventLog(ABC):
    """Platform event ids already handled, kept for a while so a redelivery is dropped.

    With the embedded backend the Slack adapter keeps its own (`adapters.event_dedup.EventDedup`,
    a file beside the data directory); the PostgreSQL backend keeps it in its database
    (`Storage.events`), shared by every process using it.
    """

    def __init__(self, expiry: EventExpiry) -> None:
        self.ttl_seconds = float(expiry.ttl_seconds)
        self._clock = expiry.clock
        # Expired keys are purged on the write path, at most once per interval.
        interval = expiry.purge_interval
        self._purge_interval = float(interval) if interval is not None else min(self.ttl_seconds, 3600.0)
        self._last_purge = float("-inf")
        self._closed = False

    def _purge_due(self, now: float) -> bool:
        return now - self._last_purge >= self._purge_interval

    @abstractmethod
    async def seen(self, key: str) -> bool:
        """Record `key`; True when it was already recorded and has not expired."""

    @abstractmethod
    async def purge(self) -> int:
        """Delete expired keys now; returns how many."""

    @abstractmethod
    async def count(self) -> int: ...

    @abstractmethod
    async def close(self) -> None: ...
