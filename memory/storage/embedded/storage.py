"""The embedded backend as one `Storage`: opening both stores, reconcile after a crash, upkeep."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from ...turn_text import message_embed_text
from ..base import Embed, ReconcileReport, Storage
from .conversations import EmbeddedConversations
from .lance_rows import VectorRecord
from .memories import EmbeddedMemories
from .people import EmbeddedPeople
from .records import memory_record, message_record
from .store import SQLiteStore
from .summaries import EmbeddedSummaries
from .turns import EmbeddedTurns
from .vector_table import VectorTable
from .vectors import DEFAULT_HOT_ROWS, VectorStore

log = logging.getLogger(__name__)

SQLITE_FILE = "memorybot.sqlite3"
LANCEDB_DIR = "lancedb"


class EmbeddedStorage(Storage):
    """SQLite (`sql`, the source of truth) and LanceDB (`vectors`, re-derivable from the rows)."""

    def __init__(self, sql: SQLiteStore, vectors: VectorStore) -> None:
        self.sql = sql
        self.vectors = vectors
        self.memories = EmbeddedMemories(sql, vectors)
        self.turns: EmbeddedTurns = EmbeddedTurns(sql, vectors)
        self.summaries: EmbeddedSummaries = EmbeddedSummaries(sql, vectors)
        self.people = EmbeddedPeople(sql)
        self.conversations = EmbeddedConversations(sql)

    @classmethod
    async def open(
        cls, data_dir: str | Path, *, dim: int, search_index_rows: int = DEFAULT_HOT_ROWS
    ) -> EmbeddedStorage:
        """Open (or create) the SQLite file and LanceDB directory under `data_dir`.

        `search_index_rows` bounds the rows per vector table searched from RAM (0: none).
        """
        data_dir = Path(data_dir)
        data_dir.mkdir(parents=True, exist_ok=True)
        sql = await SQLiteStore.open(data_dir / SQLITE_FILE)
        try:
            vectors = await VectorStore.open(data_dir / LANCEDB_DIR, dim=dim, hot_rows=search_index_rows)
        except BaseException:
            await sql.close()
            raise
        return cls(sql, vectors)

    async def close(self) -> None:
        await self.vectors.close()
        await self.sql.close()

    @property
    def needs_maintenance(self) -> bool:
        return (
            self.turns.repair_due
            or self.vectors.memories.needs_optimize
            or self.vectors.messages.needs_optimize
        )

    async def warm(self) -> int:
        """Load the busiest scopes of the memory and turn tables into RAM (see `VectorTable.warm`)."""
        return await self.vectors.memories.warm() + await self.vectors.messages.warm()

    async def build_indexes(self) -> None:
        for table in (self.vectors.memories, self.vectors.messages):
            await table.ensure_indexes()

    async def maintain(self, embed: Embed) -> None:
        """Index queued message rows, compact the vector tables, update their indexes."""
        if self.turns.repair_due:
            try:
                await self.repair_turns(embed)
            except Exception:
                # Compaction needs no embedder: it still runs, and the repair stays queued.
                log.warning("message repair failed; retried at the next maintenance", exc_info=True)
        for table in (self.vectors.memories, self.vectors.messages):
            if table.needs_optimize:
                await table.optimize()

    async def repair_turns(self, embed: Embed) -> int:
        """Index the message rows stored without a vector (embedder or LanceDB failed).

        Safe beside live writes: a vector write is an upsert by id, so a row being written right
        now ends with one vector either way. Memory rows are left to start-up reconcile: a failed
        memory write deletes its row, and a repair racing that delete could leave an orphan vector.
        """
        self.turns.repair_due = False
        try:
            repaired = await self._index_turns(embed)
        except BaseException:
            self.turns.repair_due = True
            raise
        if repaired:
            log.info("message vectors repaired", extra={"count": repaired})
        return repaired

    async def reconcile(self, embed: Embed) -> ReconcileReport:
        """Make both stores agree after a crash: index rows without vectors, drop vectors without rows."""
        report = ReconcileReport()
        # A row marked indexed whose vector is gone (LanceDB lost its last write to a power cut)
        # is queued again, like a row whose vector write never happened.
        lost = await self.sql.indexed_memory_ids() - await self.vectors.memories.ids()
        if lost:
            await self.sql.mark_memories_unindexed(sorted(lost))
        lost_messages = await self.sql.indexed_message_ids() - await self.vectors.messages.ids()
        if lost_messages:
            await self.sql.mark_messages_unindexed(sorted(lost_messages))
        report.memory_rows_repaired = await self._repair_rows(
            self.sql.unindexed_memories,
            self.vectors.memories,
            memory_record,
            lambda m: m.content,
            self.sql.mark_memories_indexed,
            embed,
        )
        report.message_rows_repaired = await self._index_turns(embed)
        orphans = await self.vectors.memories.ids() - await self.sql.indexed_memory_ids()
        if orphans:
            await self.vectors.memories.delete(sorted(orphans))
        report.memory_vectors_removed = len(orphans)
        message_orphans = await self.vectors.messages.ids() - await self.sql.indexed_message_ids()
        if message_orphans:
            await self.vectors.messages.delete(sorted(message_orphans))
        report.message_vectors_removed = len(message_orphans)
        for name in (
            "memory_rows_repaired",
            "memory_vectors_removed",
            "message_rows_repaired",
            "message_vectors_removed",
        ):
            if getattr(report, name):
                report.details.append(f"{name}={getattr(report, name)}")
        return report

    async def _index_turns(self, embed: Embed) -> int:
        return await self._repair_rows(
            self.sql.unindexed_messages,
            self.vectors.messages,
            message_record,
            message_embed_text,
            self.sql.mark_messages_indexed,
            embed,
        )

    @staticmethod
    async def _repair_rows(
        fetch: Callable[[int], Awaitable[Sequence[tuple[Any, np.ndarray | None]]]],
        table: VectorTable,
        to_record: Callable[[Any, np.ndarray], VectorRecord],
        text_of: Callable[[Any], str],
        mark: Callable[[Sequence[str]], Awaitable[None]],
        embed: Embed,
    ) -> int:
        repaired = 0
        while True:
            pending = await fetch(1000)
            if not pending:
                return repaired
            need_embedding = [item for item, vec in pending if vec is None]
            fresh = iter(await embed([text_of(i) for i in need_embedding])) if need_embedding else None
            records = []
            for item, vec in pending:
                records.append(to_record(item, vec if vec is not None else next(fresh)))  # type: ignore[arg-type]
            ids = [r.id for r in records]
            # A vector may already exist if the crash came after the vector write: replace, don't double.
            await table.delete(ids)
            await table.add(records)
            await mark(ids)
            repaired += len(ids)
