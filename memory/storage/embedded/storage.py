"""The embedded backend as one `Storage`: opening both stores, reconcile after a crash, upkeep."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path
from typing import Any, Protocol

import lancedb
import numpy as np

from ...errors import ConfigError
from ...turn_text import message_embed_text
from ..base import MIGRATED_TABLES, Embed, ReconcileReport, Storage
from ..rows import json_list
from .conversations import EmbeddedConversations
from .lance_rows import VectorRecord
from .memories import EmbeddedMemories
from .message_rows import NOT_SEARCHABLE
from .people import EmbeddedPeople
from .records import memory_record, message_record
from .sqlite import SQLiteDatabase, from_blob
from .summaries import EmbeddedSummaries
from .turns import EmbeddedTurns
from .vector_table import VectorTable
from .vectors import DEFAULT_HOT_ROWS, VectorStore

SQLITE_FILE = "memorybot.sqlite3"
LANCEDB_DIR = "lancedb"


class _IndexedRows(Protocol):
    """Rows of one table that carry an indexed mark (memories, turns)."""

    async def indexed_ids(self) -> set[str]: ...

    async def mark_unindexed(self, ids: Sequence[str]) -> None: ...


async def _indexed_ids(vectors: VectorTable, rows: _IndexedRows) -> tuple[set[str], set[str]]:
    # Vectors first: a write's vector then its mark landing between the two reads looks lost,
    # which a repair makes whole.
    return await vectors.ids(), await rows.indexed_ids()


async def _requeue_lost(rows: _IndexedRows, vector_ids: set[str], row_ids: set[str]) -> set[str]:
    lost = row_ids - vector_ids
    if lost:
        await rows.mark_unindexed(sorted(lost))
    return lost


async def _drop_orphans(vectors: VectorTable, vector_ids: set[str], row_ids: set[str]) -> int:
    orphans = vector_ids - row_ids
    if orphans:
        await vectors.delete(sorted(orphans))
    return len(orphans)


class EmbeddedStorage(Storage):
    """SQLite (`sql`, the source of truth) and LanceDB (`vectors`, re-derivable from the rows)."""

    def __init__(self, sql: SQLiteDatabase, vectors: VectorStore) -> None:
        self.sql = sql
        self.vectors = vectors
        self.memories: EmbeddedMemories = EmbeddedMemories(sql, vectors)
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
        sql = await SQLiteDatabase.open(data_dir / SQLITE_FILE)
        try:
            vectors = await VectorStore.open(data_dir / LANCEDB_DIR, dim=dim, hot_rows=search_index_rows)
        except BaseException:
            await sql.close()
            raise
        storage = cls(sql, vectors)
        # Turns stored before the days they tell of were kept are read at the next maintenance.
        storage.turns.told_due = bool(await storage.turns.told_unread(1))
        return storage

    @staticmethod
    async def stored_dim(data_dir: str | Path) -> int:
        """The vector size an existing data directory was written with; ConfigError if there is none."""
        data_dir = Path(data_dir)
        if not (data_dir / SQLITE_FILE).is_file():
            raise ConfigError(f"no memorybot data in {data_dir} (no {SQLITE_FILE})")
        db = await lancedb.connect_async(str(data_dir / LANCEDB_DIR))
        try:
            try:
                table = await db.open_table("memories")
            except ValueError:
                raise ConfigError(f"no vector store in {data_dir} (no {LANCEDB_DIR}/memories)") from None
            schema = await table.schema()
            table.close()
        finally:
            db.close()
        size = getattr(schema.field("vector").type, "list_size", None)
        if not isinstance(size, int) or size <= 0:
            raise ConfigError(f"the vector store in {data_dir} has no fixed vector size")
        return size

    async def table_counts(self) -> dict[str, int]:
        counts = {}
        for table in MIGRATED_TABLES:
            rows = await self.sql.fetch(f"SELECT count(*) FROM {table}")
            counts[table] = int(rows[0][0])  # type: ignore[call-overload]
        return counts

    async def export_rows(self, table: str, offset: int, limit: int) -> list[dict[str, Any]]:
        if table not in MIGRATED_TABLES:
            raise ValueError(f"not a migrated table: {table!r}")
        # In arrival order (a memory's `seq`, else the rowid): the target numbers the rows as they
        # come, so rows of one instant keep their order there.
        arrival = "seq" if table == "memories" else "rowid"
        rows: list[dict[str, Any]] = await self.sql.fetch_named(
            f"SELECT * FROM {table} ORDER BY {arrival} LIMIT ? OFFSET ?",
            (limit, offset),
        )
        if table in ("memories", "messages", "summaries"):
            for row in rows:
                row["vector"] = from_blob(row.pop("embedding"))
                if "forgotten" in row:
                    row["forgotten"] = bool(row["forgotten"])
            # A row whose SQLite copy lacks its vector still has it in LanceDB if it was indexed.
            missing = [r["id"] for r in rows if r["vector"] is None]
            if missing:
                lance = await self._vector_table(table)
                found = await lance.get_vectors(missing)
                for row in rows:
                    if row["vector"] is None:
                        row["vector"] = found.get(row["id"])
        if table == "memories":
            for row in rows:
                row["subjects"] = json_list(row["subjects"])
                row["sources"] = json_list(row["sources"])
        elif table == "summaries":
            for row in rows:
                row["source_ids"] = json_list(row["source_ids"])
                row.pop("indexed", None)
        elif table == "messages":
            indexed = [r["id"] for r in rows if r["indexed"] == 1]
            texts = await self.vectors.messages.get_texts(indexed) if indexed else {}
            for row in rows:
                row["searchable"] = row.pop("indexed") != NOT_SEARCHABLE
                row["told_read"] = bool(row["told_read"])
                # The text a turn was found under (its words after the question's), as indexed.
                row["indexed_text"] = texts.get(row["id"], row["content"]) if row["searchable"] else ""
        return rows

    async def _vector_table(self, table: str) -> VectorTable:
        if table == "memories":
            return self.vectors.memories
        if table == "messages":
            return self.vectors.messages
        return await self.vectors.summaries()

    async def close(self) -> None:
        await self.vectors.close()
        await self.sql.close()

    @property
    def needs_maintenance(self) -> bool:
        return (
            self.turns.repair_due
            or self.turns.told_due
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
        """Index queued message rows, read the days old turns tell of, compact the vector tables,
        update their indexes."""
        # Compaction needs no embedder: it runs even when the repair fails.
        await self.repair_turns_if_due(embed)
        if self.turns.told_due:
            await self.turns.read_told_days()
        for table in (self.vectors.memories, self.vectors.messages):
            if table.needs_optimize:
                await table.optimize()

    async def reconcile(self, embed: Embed) -> ReconcileReport:
        """Make both stores agree after a crash: index rows without vectors, drop vectors without rows."""
        report = ReconcileReport()
        # Runs as the store opens, before this process writes (one process owns a data directory);
        # vectors are read before rows all the same (`_indexed_ids`).
        memory_ids = await _indexed_ids(self.vectors.memories, self.memories)
        message_ids = await _indexed_ids(self.vectors.messages, self.turns)
        # A row marked indexed whose vector is gone (LanceDB lost its last write to a power cut)
        # is queued again, like a row whose vector write never happened.
        lost = await _requeue_lost(self.memories, *memory_ids)
        lost_messages = await _requeue_lost(self.turns, *message_ids)
        report.memory_rows_repaired = await self._repair_rows(
            self.memories.unindexed,
            self.vectors.memories,
            memory_record,
            lambda m: m.content,
            self.memories.mark_indexed,
            embed,
        )
        report.message_rows_repaired = await self._index_turns(embed)
        # Each read takes every id of a table (a LanceDB scan, an SQLite query), so the ids read
        # above are used again unless a repair has since written vectors and marked rows (a vector
        # written before a crash for a row never marked is no orphan once the repair replaced it).
        if lost or report.memory_rows_repaired:
            memory_ids = await _indexed_ids(self.vectors.memories, self.memories)
        report.memory_vectors_removed = await _drop_orphans(self.vectors.memories, *memory_ids)
        if lost_messages or report.message_rows_repaired:
            message_ids = await _indexed_ids(self.vectors.messages, self.turns)
        report.message_vectors_removed = await _drop_orphans(self.vectors.messages, *message_ids)
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
        # Safe beside live writes: a vector write is an upsert by id, so a row being written right
        # now ends with one vector either way. Memory rows are left to start-up reconcile: a failed
        # memory write deletes its row, and a repair racing that delete could leave an orphan vector.
        return await self._repair_rows(
            self.turns.unindexed,
            self.vectors.messages,
            message_record,
            message_embed_text,
            self.turns.mark_indexed,
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
            await table.insert(records)
            await mark(ids)
            repaired += len(ids)
