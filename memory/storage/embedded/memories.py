"""Embedded memories: the SQLite row and the LanceDB vector of each memory, kept consistent."""

from __future__ import annotations

import logging
from collections.abc import Sequence

import numpy as np

from ...errors import MemoryWriteError
from ...models import Audience, Memory, Visibility
from ..base import MemoryRepository, VectorHit
from .memory_rows import MemoryRows
from .records import memory_record
from .sqlite import SQLiteDatabase, failing
from .vector_table import VectorTable
from .vectors import VectorStore

log = logging.getLogger(__name__)


class EmbeddedMemories(MemoryRows, MemoryRepository):
    """Rows in SQLite (the source of truth), vectors in LanceDB: row first, then vector, and a
    row is marked indexed only once its vector is written, so start-up reconcile can finish
    whatever a crash interrupted. The reads are `MemoryRows`'."""

    def __init__(self, sql: SQLiteDatabase, vectors: VectorStore) -> None:
        super().__init__(sql)
        self._vectors = vectors

    @property
    def _table(self) -> VectorTable:
        # Looked up on every call: tests swap the table's methods to inject failures.
        return self._vectors.memories

    # --- writes

    async def add(self, memory: Memory, vector: np.ndarray, supersedes: str | None, now: float) -> None:
        """Row first, then vector; a failed vector write deletes the row so nothing is half-written."""
        with failing("memory not saved", MemoryWriteError):
            await self.insert_row(memory, vector)
        try:
            await self._table.insert([memory_record(memory, vector)])
        except BaseException as exc:
            try:
                await self.delete_rows([memory.id])
            except Exception:
                # The row stays unindexed and start-up reconcile indexes it: kept, not half-written.
                log.error("could not roll back a memory row", extra={"memory_id": memory.id}, exc_info=True)
            raise MemoryWriteError(f"vector store write failed, memory not saved: {exc}") from exc
        await self.complete_write(memory.id, supersedes, now)
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
        await self.insert_rows(memories, vectors)
        try:
            await self._table.insert([memory_record(m, v) for m, v in zip(memories, vectors, strict=True)])
        except BaseException as exc:
            await self.delete_rows([m.id for m in memories])
            raise MemoryWriteError(f"vector store write failed, batch not saved: {exc}") from exc
        await self.mark_indexed([m.id for m in memories])

    async def rewrite(self, memory: Memory, vector: np.ndarray) -> None:
        # SQLite first (left unindexed), then the vector row: a crash in between is repaired at start-up.
        await self.rewrite_row(memory, vector)
        await self._table.add([memory_record(memory, vector)])
        await self.mark_indexed([memory.id])

    async def restore(self, memory: Memory, vector: np.ndarray, now: float) -> None:
        await self.restore_superseded(memory.id, now)
        await self._table.delete([memory.id])
        await self._table.insert([memory_record(memory, vector)])
        await self.mark_indexed([memory.id])

    async def delete(self, ids: Sequence[str]) -> int:
        # SQLite first: if the vector delete then fails, the orphan vector is never shown (every
        # search joins SQLite) and start-up reconcile removes it.
        deleted = await self.delete_rows(ids)
        try:
            await self._table.delete(ids)
        except Exception:
            log.warning(
                "vector delete failed; reconcile will remove", extra={"count": len(ids)}, exc_info=True
            )
        return deleted

    async def rescope(self, ids: Sequence[str], channel_id: str) -> None:
        await self._table.rescope(ids, Visibility.CHANNEL.value, channel_id)

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
