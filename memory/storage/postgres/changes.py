"""The memory changes other processes on the database announce (LISTEN/NOTIFY), handed to listeners."""

from __future__ import annotations

import json
import logging
from typing import Any

import asyncpg

from ...errors import StorageError
from ..base import ChangeListener, MemoryChange
from .db import DRIVER_ERRORS, redact
from .migrations import CHANGES_CHANNEL

log = logging.getLogger(__name__)


def parse_change(payload: str) -> MemoryChange | None:
    """The change a notification carries, or None when it cannot be read (a newer version's)."""
    try:
        data = json.loads(payload)
        return MemoryChange(
            id=str(data["id"]),
            memory_type=str(data["memory_type"]),
            platform=str(data["platform"]),
            workspace_id=str(data["workspace_id"]),
            agent_id=str(data["agent_id"]),
            user_id=None if data.get("user_id") is None else str(data["user_id"]),
            gone=bool(data["gone"]),
        )
    except (ValueError, KeyError, TypeError):
        return None


class ChangeFeed:
    """One connection of its own LISTENing on `CHANGES_CHANNEL` (pooled connections are reset when
    released, which would end a LISTEN), passing every change to the listeners.

    The triggers (migrations m002, m007) send each change at commit. A notification committed before
    `catch_up` starts is delivered on this connection before the answer to its query, and asyncpg
    schedules plain callbacks in arrival order, so they have all run when `catch_up` returns. If
    the connection is lost, changes may have been missed: the next `catch_up` reconnects and tells
    the listeners (None) to drop everything they keep.
    """

    def __init__(self, dsn: str) -> None:
        self._dsn = dsn
        self._listeners: list[ChangeListener] = []
        self._conn: asyncpg.Connection | None = None
        self._closed = False

    async def add(self, listener: ChangeListener) -> None:
        """Start hearing changes (connecting on the first listener)."""
        self._listeners.append(listener)
        if self._conn is None:
            await self._connect()

    async def _connect(self) -> None:
        try:
            conn = await asyncpg.connect(self._dsn)
            await conn.add_listener(CHANGES_CHANNEL, self._on_notify)
        except DRIVER_ERRORS as exc:
            raise StorageError(f"cannot listen for memory changes: {redact(str(exc), self._dsn)}") from None
        conn.add_termination_listener(self._on_lost)
        self._conn = conn

    def _on_notify(self, _conn: Any, _pid: int, _channel: str, payload: str) -> None:
        if payload.startswith('{"many"'):
            # One statement changed more memories than it announces one by one (migration m007):
            # what the listeners keep of any of them may be stale.
            self._tell(None)
            return
        change = parse_change(payload)
        if change is None:
            log.warning("unreadable memory change ignored")
            return
        self._tell(change)

    def _tell(self, change: MemoryChange | None) -> None:
        for listener in self._listeners:
            try:
                listener(change)
            except Exception:
                log.warning("memory change listener failed", exc_info=True)

    def _on_lost(self, _conn: Any) -> None:
        if not self._closed:
            log.warning("memory change feed lost; reconnecting at the next turn")
        self._conn = None

    async def catch_up(self) -> None:
        """Return once every change committed before the call has reached the listeners; never raises."""
        if not self._listeners or self._closed:
            return
        try:
            if self._conn is None or self._conn.is_closed():
                self._conn = None
                await self._connect()
                # Whatever was announced while nobody listened is unknown.
                self._tell(None)
            assert self._conn is not None
            await self._conn.execute("SELECT 1")
        except (StorageError, *DRIVER_ERRORS) as exc:
            # The turn goes on (its reads fail on their own if the database is gone), with nothing
            # from RAM that a missed change could have made stale.
            self._conn = None
            log.warning("memory change feed unavailable", extra={"error": type(exc).__name__})
            self._tell(None)

    async def close(self) -> None:
        self._closed = True
        conn, self._conn = self._conn, None
        if conn is not None:
            await conn.close()
