"""Embedded memories: the SQLite row and the LanceDB vector of each memory, kept consistent."""

from __future__ import annotations

import logging
import sqlite3
from collections.abc import Mapping, Sequence

import numpy as np

from ...errors import MemoryWriteError
from ...models import Audience, Memory, MemoryType, Visibility
from ..base import HashMatch, MemoryQuery, MemoryRepository, VectorHit
from .records import memory_record
from .store import SQLiteStore
from .vector_table import VectorTable
from .vectors import VectorStore

log = logging.getLogger(__name__)


class EmbeddedMemories(MemoryRepository):
    """Rows in SQLite (the source of truth), vectors in LanceDB: row first, then vector, and a
    row is marked indexed only once its vector is written, so start-up reconcile can finish
    whatever a crash interrupted."""

    def __init__(self, sql: SQLiteStore, vectors: VectorStore) -> None:
        self._sql = sql
        self._vectors = vectors

    @property
    def _table(self) -> VectorTable:
        # Looked up on every call: tests swap the table's methods to inject failures.
        return self._vectors.memories

    # --- writes

    async def add(self, memory: Memory, vector: np.ndarray, supersedes: str | None, now: float) -> None:
        """Row first, then vector; a failed vector write deletes the row so nothing is half-written."""
        try:
            await self._sql.insert_memory(memory, vector)
        except sqlite3.Error as exc:
            raise MemoryWriteError(f"memory not saved: {exc}") from exc
        try:
            await self._table.add([memory_record(memory, vector)])
        except BaseException as exc:
            try:
                await self._sql.delete_memories([memory.id])
            except Exception:
                # The row stays unindexed and start-up reconcile indexes it: kept, not half-written.
                log.error("could not roll back a memory row", extra={"memory_id": memory.id}, exc_info=True)
            raise MemoryWriteError(f"vector store write failed, memory not saved: {exc}") from exc
        await self._sql.complete_memory_write(memory.id, supersedes, now)
        if supersedes is not None:
            try:
                await self._table.delete([supersedes])
            except Exception:
                log.warning(
                    "could not delete superseded vector", extra={"memory_id": supersedes}, exc_info=True
                )

    async def add_many(self, memories: Sequence[Memory], vectors: Sequence[np.ndarray]) -> None:
        """One SQLite transaction, one vector write, then the rows are marked indexed; a failed
        vector write deletes the batch's rows."""
        await self._sql.insert_memories(memories, vectors)
        try:
            await self._table.add([memory_record(m, v) for m, v in zip(memories, vectors, strict=True)])
        except BaseException as exc:
            await self._sql.delete_memories([m.id for m in memories])
            raise MemoryWriteError(f"vector store write failed, batch not saved: {exc}") from exc
        await self._sql.mark_memories_indexed([m.id for m in memories])

    async def rewrite(self, memory: Memory, vector: np.ndarray) -> None:
        # SQLite first (left unindexed), then the vector row: a crash in between is repaired at start-up.
        await self._sql.rewrite_memory(memory, vector)
        await self._table.add([memory_record(memory, vector)])
        await self._sql.mark_memories_indexed([memory.id])

    async def restore(self, memory: Memory, vector: np.ndarray, now: float) -> None:
        await self._sql.restore_superseded(memory.id, now)
        await self._table.delete([memory.id])
        await self._table.add([memory_record(memory, vector)])
        await self._sql.mark_memories_indexed([memory.id])

    async def delete(self, ids: Sequence[str]) -> int:
        # SQLite first: if the vector delete then fails, the orphan vector is never shown (every
        # search joins SQLite) and start-up reconcile removes it.
        deleted = await self._sql.delete_memories(ids)
        try:
            await self._table.delete(ids)
        except Exception:
            log.warning(
                "vector delete failed; reconcile will remove", extra={"count": len(ids)}, exc_info=True
            )
        return deleted

    async def rescope(self, ids: Sequence[str], channel_id: str) -> None:
        await self._table.rescope(ids, Visibility.CHANNEL.value, channel_id)

    async def bump_access(self, counts: Mapping[str, int], now: float) -> None:
        await self._sql.bump_access(counts, now)

    # --- reads

    async def find_by_hash(
        self, content_hash: str, audience: Audience, now: float, visibility: Visibility
    ) -> Memory | None:
        return await self._sql.find_by_hash(content_hash, audience, now, visibility)

    async def active_hash_matches(self, hashes: Sequence[str], now: float) -> set[HashMatch]:
        return await self._sql.active_hash_matches(hashes, now)

    async def visible(self, ids: Sequence[str], audience: Audience, now: float) -> list[Memory]:
        return await self._sql.visible_memories(ids, audience, now)

    async def get_unscoped(self, ids: Sequence[str]) -> list[Memory]:
        return await self._sql.get_memories_unscoped(ids)

    async def superseded_unscoped(self, newer_id: str) -> Memory | None:
        return await self._sql.superseded_memory_unscoped(newer_id)

    async def merged_into(self, newer_ids: Sequence[str]) -> dict[str, str]:
        return await self._sql.merged_into(newer_ids)

    async def query(
        self,
        audience: Audience,
        now: float,
        query: MemoryQuery,
        vectors: dict[str, np.ndarray] | None = None,
    ) -> list[Memory]:
        return await self._sql.query_memories(audience, now, query, vectors)

    async def count(self, audience: Audience, now: float, query: MemoryQuery | None = None) -> int:
        return await self._sql.count_memories(audience, now, query)

    async def count_by_type(self, audience: Audience, now: float) -> dict[str, int]:
        return await self._sql.count_by_type(audience, now)

    async def about(
        self,
        audience: Audience,
        now: float,
        user_ids: Sequence[str],
        types: Sequence[MemoryType],
        min_confidence: float | None = None,
        limit: int = 20,
        vectors: dict[str, np.ndarray] | None = None,
    ) -> list[Memory]:
        return await self._sql.memories_about(audience, now, user_ids, types, min_confidence, limit, vectors)

    async def between(
        self,
        audience: Audience,
        now: float,
        since: float,
        until: float,
        channel_id: str | None = None,
        limit: int = 50,
        vectors: dict[str, np.ndarray] | None = None,
    ) -> list[Memory]:
        return await self._sql.memories_between(audience, now, since, until, channel_id, limit, vectors)

    async def embeddings(self, ids: Sequence[str]) -> dict[str, np.ndarray]:
        return await self._sql.get_embeddings(ids)

    async def expired_ids(self, now: float) -> list[str]:
        return await self._sql.expired_memory_ids(now)

    # --- search

    async def search(
        self, audience: Audience, vector: np.ndarray, k: int, now: float, visibility: str | None = None
    ) -> list[VectorHit]:
        return await self._table.search_visible(audience, vector, k, now, visibility=visibility)

    async def hybrid_search(
        self, audience: Audience, vector: np.ndarray, text: str, k: int, now: float
    ) -> tuple[list[VectorHit], list[VectorHit]]:
        return await self._table.hybrid_search_visible(audience, vector, text, k, now)

    async def indexed_count(self) -> int:
        return await self._table.count()
