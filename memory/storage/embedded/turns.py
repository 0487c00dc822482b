"""Embedded turns: SQLite transcript rows and their LanceDB vectors, repaired when a vector is missing."""

from __future__ import annotations

import logging
import sqlite3
from collections.abc import Sequence

import numpy as np

from ...errors import StorageError
from ...models import Audience, Scope, StoredMessage, Visibility
from ..base import TurnRepository, VectorHit
from .records import message_record
from .store import NOT_SEARCHABLE, SQLiteStore
from .vector_table import VectorTable
from .vectors import VectorStore

log = logging.getLogger(__name__)


class EmbeddedTurns(TurnRepository):
    """Rows are committed first; a turn whose vector could not be written stays unindexed and
    `repair_due` asks `EmbeddedStorage.maintain` to index it."""

    def __init__(self, sql: SQLiteStore, vectors: VectorStore) -> None:
        self._sql = sql
        self._vectors = vectors
        # Set when a message row was kept without its vector; maintenance then indexes it.
        self.repair_due = False

    @property
    def _table(self) -> VectorTable:
        return self._vectors.messages

    async def add(
        self,
        messages: Sequence[StoredMessage],
        vectors: Sequence[np.ndarray | None],
        search_texts: Sequence[str],
    ) -> list[str]:
        try:
            inserted = set(await self._sql.insert_messages(messages, vectors))
        except sqlite3.Error as exc:
            raise StorageError(f"messages not saved: {exc}") from exc
        new = [
            (m, v, text)
            for m, v, text in zip(messages, vectors, search_texts, strict=True)
            if m.id in inserted
        ]
        records = [message_record(m, v, text=text) for m, v, text in new if v is not None]
        if len(records) < len(new):
            self.repair_due = True
        if records:
            try:
                await self._table.add(records)
                await self._sql.mark_messages_indexed([r.id for r in records])
            except Exception:
                # The rows are committed either way; the repair leaves exactly one vector per row.
                log.warning("message vector write failed; queued for repair", exc_info=True)
                self.repair_due = True
        return [m.id for m in messages if m.id in inserted]

    async def add_unsearchable(self, messages: Sequence[StoredMessage]) -> list[str]:
        try:
            return await self._sql.insert_messages(messages, indexed=NOT_SEARCHABLE)
        except sqlite3.Error as exc:
            raise StorageError(f"messages not saved: {exc}") from exc

    async def visible(self, ids: Sequence[str], audience: Audience) -> list[StoredMessage]:
        return await self._sql.visible_messages(ids, audience)

    async def visible_with_next(
        self, ids: Sequence[str], audience: Audience, within: float
    ) -> list[tuple[StoredMessage, StoredMessage | None]]:
        return await self._sql.visible_turns_and_next(ids, audience, within)

    async def get_unscoped(self, ids: Sequence[str]) -> list[StoredMessage]:
        return await self._sql.get_messages_unscoped(ids)

    async def by_external_id(self, scope: Scope, external_id: str) -> StoredMessage | None:
        return await self._sql.message_by_external_id(
            scope.platform, scope.workspace_id, scope.channel_id, scope.agent_id, external_id
        )

    async def recent(self, scope: Scope, limit: int = 20, before: float | None = None) -> list[StoredMessage]:
        return await self._sql.recent_messages(
            scope.platform,
            scope.workspace_id,
            scope.channel_id,
            scope.agent_id,
            limit,
            scope.thread_id,
            before,
        )

    async def between(
        self,
        scope: Scope,
        since: float,
        until: float,
        roles: Sequence[str] = ("user",),
        limit: int = 50,
    ) -> list[StoredMessage]:
        return await self._sql.messages_between(
            scope.platform, scope.workspace_id, scope.channel_id, scope.agent_id, since, until, roles, limit
        )

    async def visible_between(
        self,
        audience: Audience,
        since: float,
        until: float,
        per_day: int,
        utc_offset: float = 0.0,
        roles: Sequence[str] = ("user",),
    ) -> list[StoredMessage]:
        return await self._sql.visible_messages_between(audience, since, until, per_day, utc_offset, roles)

    async def days(
        self,
        audience: Audience,
        since: float,
        until: float,
        utc_offset: float = 0.0,
        roles: Sequence[str] = ("user",),
        exclude: Sequence[str] = (),
    ) -> list[tuple[float, int, int]]:
        return await self._sql.message_days(audience, since, until, utc_offset, roles, exclude)

    async def count(self) -> int:
        return await self._sql.count_messages()

    async def search(self, audience: Audience, vector: np.ndarray, k: int) -> list[VectorHit]:
        return await self._table.search_visible(audience, vector, k)

    async def hybrid_search(
        self, audience: Audience, vector: np.ndarray, text: str, k: int
    ) -> tuple[list[VectorHit], list[VectorHit]]:
        return await self._table.hybrid_search_visible(audience, vector, text, k)

    async def rescope(self, ids: Sequence[str], channel_id: str) -> None:
        await self._table.rescope(ids, Visibility.CHANNEL.value, channel_id)
