"""PostgreSQL event log: platform event ids already handled, kept for a while so a redelivery is dropped."""

from __future__ import annotations

from ..base import EventExpiry, EventLog
from .db import PostgresDatabase, affected

# One statement decides and records: a new key is inserted, an expired one refreshed (both count
# as a row), a live one left alone (no row). Two deliveries racing each other cannot both be new.
_RECORD = (
    "INSERT INTO seen_events (key, seen_at) VALUES ($1, $2) ON CONFLICT ON CONSTRAINT seen_events_pkey "
    "DO UPDATE SET seen_at = excluded.seen_at WHERE seen_events.seen_at <= $3"
)


class PostgresEventLog(EventLog):
    """Keys (namespaced by callers, e.g. `slack:event:Ev123`) remembered for `ttl_seconds`, shared
    by every process on the database; expired rows are purged at most once per `purge_interval`."""

    def __init__(self, db: PostgresDatabase, expiry: EventExpiry) -> None:
        super().__init__(expiry)
        self._db = db

    async def seen(self, key: str) -> bool:
        if self._closed:
            raise RuntimeError("event log is closed")
        now = self._clock()
        changed = affected(await self._db.execute(_RECORD, (key, now, now - self.ttl_seconds)))
        if self._purge_due(now):
            await self._purge(now)
        return changed == 0

    async def _purge(self, now: float) -> int:
        self._last_purge = now
        return affected(
            await self._db.execute("DELETE FROM seen_events WHERE seen_at <= $1", (now - self.ttl_seconds,))
        )

    async def purge(self) -> int:
        return await self._purge(self._clock())

    async def count(self) -> int:
        return int(await self._db.fetchval("SELECT count(*) FROM seen_events"))

    async def close(self) -> None:
        # The pool belongs to the storage, which closes it.
        self._closed = True
