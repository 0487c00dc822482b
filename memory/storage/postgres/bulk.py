"""Whole-database work for benchmarks on PostgreSQL: emptiness check, emptying, COPY-loading memories."""

from __future__ import annotations

import os
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager

import numpy as np

from ...errors import MemoryWriteError
from ...models import Memory
from ..base import MIGRATED_TABLES
from .db import DRIVER_ERRORS
from .memories import ROW_COLUMNS, _values, access_of, record_access
from .storage import PostgresStorage

# Every table holding rows (the event log too); `schema_migrations` is schema, not data.
DATA_TABLES = (*MIGRATED_TABLES, "memory_access", "seen_events")
# Indexes whose upkeep makes a row-by-row load slow: built once after the load instead.
DEFERRED_INDEXES = ("ix_memories_embedding", "ix_memories_search_text", "ix_memories_subjects")
_COPY_COLUMNS = [*(c.strip() for c in ROW_COLUMNS.split(",")), "search_terms", "embedding"]


async def is_empty(storage: PostgresStorage) -> bool:
    """Whether no data table of the database holds a row."""
    for table in DATA_TABLES:
        if await storage.db.fetchval(f"SELECT EXISTS (SELECT 1 FROM {table})"):
            return False
    return True


async def empty_tables(storage: PostgresStorage) -> None:
    """Delete every row of every data table (the schema stays): only for a database the caller owns."""
    await storage.db.execute(f"TRUNCATE {', '.join(DATA_TABLES)}")


async def copy_memories(
    storage: PostgresStorage, memories: Sequence[Memory], vectors: Sequence[np.ndarray]
) -> int:
    """Store memories with their vectors by COPY, as given (no duplicate check): for a fresh load."""
    if len(memories) != len(vectors):
        raise ValueError(f"{len(memories)} memories but {len(vectors)} embeddings")
    checked = storage.memories._vector  # the same shape and finiteness checks as every write
    records = [_values(m, checked(v, m.id)) for m, v in zip(memories, vectors, strict=True)]
    try:
        async with storage.db.pool.acquire() as conn:
            async with conn.transaction():
                await conn.copy_records_to_table("memories", records=records, columns=_COPY_COLUMNS)
                await record_access(conn, access_of(memories))
    except DRIVER_ERRORS as exc:
        raise MemoryWriteError(f"batch not copied: {type(exc).__name__}: {exc}") from exc
    return len(records)


# Where `indexes_deferred` keeps the definitions of the indexes it dropped until they are built
# again: a load killed in between leaves them here, and the next one builds them.
DEFERRED_RECORD = "bench_deferred_indexes"


@asynccontextmanager
async def indexes_deferred(
    storage: PostgresStorage, *, work_mem: str = "1GB", workers: int | None = None
) -> AsyncIterator[None]:
    """Drop the memories' vector and full-text indexes for the block, then build them again from
    their own definitions (HNSW with `work_mem` and up to `workers` parallel workers) and ANALYZE.

    A graph built once over every row is far cheaper than one grown a row at a time; the
    definitions are read from the database, so the rebuilt indexes are the migrations' own. They
    are recorded in the database before the drop, in the drop's transaction, and the record is
    cleared once they are built again: an index a killed load left dropped is built by the next
    load, from the definition it had.
    """
    workers = max(0, (os.cpu_count() or 1) - 1) if workers is None else workers
    db = storage.db
    await db.execute(
        f"CREATE TABLE IF NOT EXISTS {DEFERRED_RECORD} (name text PRIMARY KEY, definition text NOT NULL)"
    )
    async with db.transaction() as conn:
        present = await conn.fetch(
            "SELECT indexname, indexdef FROM pg_indexes WHERE tablename = 'memories' AND indexname = ANY($1)",
            list(DEFERRED_INDEXES),
        )
        await conn.executemany(
            f"INSERT INTO {DEFERRED_RECORD} (name, definition) VALUES ($1, $2) "
            "ON CONFLICT (name) DO UPDATE SET definition = excluded.definition",
            [(r["indexname"], r["indexdef"]) for r in present],
        )
        for row in present:
            await conn.execute(f"DROP INDEX IF EXISTS {row['indexname']}")
        # What an earlier, killed load recorded comes in too.
        recorded = {
            r["name"]: r["definition"]
            for r in await conn.fetch(f"SELECT name, definition FROM {DEFERRED_RECORD}")
        }
    definitions = [recorded[name] for name in DEFERRED_INDEXES if name in recorded]  # migrations' order
    try:
        yield
    finally:
        async with db.pool.acquire() as conn:
            # Session settings of this connection only, undone before it goes back to the pool
            # (which keeps its connections' sessions as they are).
            await conn.execute(f"SET maintenance_work_mem = '{_setting(work_mem)}'")
            await conn.execute(f"SET max_parallel_maintenance_workers = {int(workers)}")
            try:
                for definition in definitions:
                    await conn.execute(definition.replace("CREATE INDEX ", "CREATE INDEX IF NOT EXISTS ", 1))
                await conn.execute("ANALYZE memories")
                await conn.execute(f"DELETE FROM {DEFERRED_RECORD}")
            finally:
                await conn.execute("RESET maintenance_work_mem; RESET max_parallel_maintenance_workers")


def _setting(value: str) -> str:
    # A size such as "1GB" or "512MB": nothing that could close the quoted literal.
    if not value.replace(" ", "").isalnum():
        raise ValueError(f"not a memory size: {value!r}")
    return value
