"""A persistent, expiring record of platform event ids already handled, so redeliveries are dropped."""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path

import aiosqlite

from memory.storage import EventExpiry, EventLog

log = logging.getLogger(__name__)


_SCHEMA = """
CREATE TABLE IF NOT EXISTS seen_events (
    key TEXT PRIMARY KEY,
    seen_at REAL NOT NULL
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS seen_events_seen_at ON seen_events (seen_at);
"""

# One statement decides and records: a new key is inserted, an expired one is refreshed (both count as
# a change), a live one is left alone (no change). SQLite runs it atomically, so two deliveries of the
# same event racing each other cannot both be told "new".
_RECORD = """
INSERT INTO seen_events (key, seen_at) VALUES (?, ?)
ON CONFLICT (key) DO UPDATE SET seen_at = excluded.seen_at WHERE seen_events.seen_at <= ?
"""


class EventDedup(EventLog):
    """Remembers keys (event ids, message ids) for `ttl_seconds`; `seen` records and answers at once.

    Platform-neutral: callers namespace their keys (e.g. `slack:event:Ev123`). Backed by one SQLite
    file so a restart does not answer a retried delivery a second time. Expired rows are purged at
    most once per `purge_interval` seconds, on the write path.
    """

    def __init__(self, db: aiosqlite.Connection, expiry: EventExpiry) -> None:
        super().__init__(expiry)
        self._db = db
        # aiosqlite serialises single statements, but "record + commit" must not interleave with
        # another caller's statements on the same connection.
        self._lock = asyncio.Lock()

    @classmethod
    async def open(cls, path: str | Path, expiry: EventExpiry | None = None) -> EventDedup:
        """Open (creating if needed) the record at `path`; the parent directory is created too."""
        expiry = expiry if expiry is not None else EventExpiry()
        path = Path(path)
        await asyncio.to_thread(path.parent.mkdir, parents=True, exist_ok=True)
        db = await aiosqlite.connect(path)
        try:
            await db.execute("PRAGMA journal_mode=WAL")
            # NORMAL with WAL survives a killed process; only a power cut or OS crash can lose the
            # last claims. That is enough here: a claim is the fast first filter, not the record of
            # what was answered. The turn pipeline stores every message under its platform id in
            # the main store (synchronous=FULL) before it answers, and a message already stored is
            # never answered again, so a lost claim can only let through a redelivery whose
            # message was never stored, which then gets its one answer. FULL would cost an fsync
            # per event on the path Slack times (3 s) and buy nothing.
            await db.execute("PRAGMA synchronous=NORMAL")
            await db.executescript(_SCHEMA)
            await db.commit()
            return cls(db, expiry)
        except BaseException:
            await db.close()
            raise

    async def seen(self, key: str) -> bool:
        """Record `key` and return True when it was already recorded and has not expired."""
        if self._closed:
            raise RuntimeError("EventDedup is closed")
        now = self._clock()
        async with self._lock:
            cursor = await self._db.execute(_RECORD, (key, now, now - self.ttl_seconds))
            changed = cursor.rowcount
            await cursor.close()
            if self._purge_due(now):
                await self._purge_locked(now)
            await self._db.commit()
        return changed == 0

    async def purge(self) -> int:
        """Delete expired rows now; returns how many were removed."""
        async with self._lock:
            removed = await self._purge_locked(self._clock())
            await self._db.commit()
        return removed

    async def count(self) -> int:
        """Rows currently stored, expired ones included until the next purge."""
        async with self._db.execute("SELECT COUNT(*) FROM seen_events") as cursor:
            row = await cursor.fetchone()
        return int(row[0]) if row else 0

    async def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        async with self._lock:
            await self._db.close()

    async def _purge_locked(self, now: float) -> int:
        cursor = await self._db.execute(
            "DELETE FROM seen_events WHERE seen_at <= ?", (now - self.ttl_seconds,)
        )
        removed = cursor.rowcount
        await cursor.close()
        self._last_purge = now
        if removed:
            log.debug("expired event ids purged", extra={"count": removed})
        return max(0, removed)

    async def __aenter__(self) -> EventDedup:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.close()
