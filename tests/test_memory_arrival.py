"""Memories of one instant are listed by arrival, also after upgrading a database written before."""

from __future__ import annotations

from pathlib import Path

import aiosqlite
import asyncpg

from memory.models import Audience, Memory, content_hash
from memory.storage import MemoryQuery, Storage
from memory.storage.embedded.storage import SQLITE_FILE
from memory.storage.migrate import migrate_to_postgres
from memory.storage.postgres.migrations import apply_migrations
from tests.fakes.embedders import HashEmbedder
from tests.helpers import DAY, GENERAL, NOW, memory_row, storage_at

EMBEDDER = HashEmbedder()
VIEWER = Audience("discord", "guild-1", "default", viewer_id="alice", channel_id="general")
INSTANT = NOW - DAY


def one_instant(ids: list[str]) -> list[Memory]:
    """Memories learned together (one turn's), written in the order of `ids`."""
    return [
        memory_row(
            f"alice mentioned item {memory_id}",
            id=memory_id,
            scope=GENERAL,
            created_at=INSTANT,
            updated_at=INSTANT,
            content_hash=content_hash(f"alice mentioned item {memory_id}"),
        )
        for memory_id in ids
    ]


async def add(storage: Storage, memories: list[Memory]) -> None:
    await storage.memories.add_many(memories, [EMBEDDER._vector(m.content) for m in memories])


async def listed(storage: Storage) -> list[str]:
    return [m.id for m in await storage.memories.query(VIEWER, NOW, MemoryQuery(limit=50))]


async def test_sqlite_rows_written_before_take_their_write_order_and_new_ones_come_after(
    tmp_path: Path,
) -> None:
    async with storage_at(tmp_path, EMBEDDER.dim) as storage:
        await add(storage, one_instant(["b", "d", "a", "c"]))
    # The file as the version before migration m005 left it: no arrival column.
    async with aiosqlite.connect(tmp_path / SQLITE_FILE) as db:
        await db.executescript(
            """
            DROP INDEX ux_memories_seq;
            DROP INDEX ix_memories_scope_importance;
            CREATE INDEX ix_memories_scope_importance ON memories
                (platform, workspace_id, agent_id, importance DESC, created_at DESC, id,
                 memory_type, visibility, channel_id)
                WHERE forgotten = 0;
            DROP INDEX ix_memories_scope_created;
            CREATE INDEX ix_memories_scope_created ON memories
                (platform, workspace_id, agent_id, created_at) WHERE forgotten = 0;
            ALTER TABLE memories DROP COLUMN seq;
            DELETE FROM _migrations WHERE name = 'm005_memory_arrival';
            """
        )
        await db.commit()

    async with storage_at(tmp_path, EMBEDDER.dim) as storage:
        # The order they were written in, the latest first (the ids' order was a, b, c, d).
        assert await listed(storage) == ["c", "a", "d", "b"]
        await storage.memories.delete(["c"])
    async with aiosqlite.connect(tmp_path / SQLITE_FILE) as db:
        await db.execute("VACUUM")
    async with storage_at(tmp_path, EMBEDDER.dim) as storage:
        # The latest row gone and the file vacuumed: a new row still comes after every other one.
        await add(storage, one_instant(["0"]))
        assert await listed(storage) == ["0", "a", "d", "b"]


async def test_postgres_rows_written_before_keep_their_order_and_new_ones_come_after(
    postgres_url: str,
) -> None:
    async with storage_at(postgres_url, EMBEDDER.dim) as storage:
        await add(storage, one_instant(["b", "d", "a", "c"]))
    conn = await asyncpg.connect(postgres_url)
    try:  # the database as the version before migration m010 left it: no arrival column
        async with conn.transaction():
            await conn.execute(
                """
                DROP INDEX ix_memories_scope_importance;
                CREATE INDEX ix_memories_scope_importance ON memories
                    (platform, workspace_id, agent_id, importance DESC, created_at DESC, id)
                    WHERE NOT forgotten;
                DROP INDEX ix_memories_scope_important;
                CREATE INDEX ix_memories_scope_important ON memories
                    (platform, workspace_id, agent_id, importance DESC, created_at DESC, id)
                    WHERE NOT forgotten AND memory_type <> 'identity';
                DROP INDEX ix_memories_scope_created;
                CREATE INDEX ix_memories_scope_created ON memories
                    (platform, workspace_id, agent_id, created_at) WHERE NOT forgotten;
                ALTER TABLE memories DROP COLUMN seq;
                DELETE FROM schema_migrations WHERE name = 'm010_memory_arrival';
                """
            )
        assert await apply_migrations(conn, EMBEDDER.dim) == ["m010_memory_arrival"]
        created = await conn.fetchval(
            "SELECT indexdef FROM pg_indexes WHERE indexname = 'ix_memories_scope_created'"
        )
    finally:
        await conn.close()
    assert "created_at, seq" in created

    async with storage_at(postgres_url, EMBEDDER.dim) as storage:
        # No arrival was on record: they keep the order they were listed in before (by id).
        assert await listed(storage) == ["a", "b", "c", "d"]
        await storage.memories.delete(["d"])
        await add(storage, one_instant(["0", "z"]))
        assert await listed(storage) == ["z", "0", "a", "b", "c"]


async def test_the_copy_to_postgres_keeps_the_arrival_order(tmp_path: Path, postgres_url: str) -> None:
    async with storage_at(tmp_path, EMBEDDER.dim) as storage:
        for ids in (["q", "e"], ["w"], ["r", "t", "a"]):
            await add(storage, one_instant(ids))
        written = await listed(storage)
    assert written == ["a", "t", "r", "w", "e", "q"]

    # Batches smaller than the rows: the order holds across them.
    report = await migrate_to_postgres(tmp_path, postgres_url, batch_size=2)

    assert report.ok
    async with storage_at(postgres_url, EMBEDDER.dim) as target:
        assert await listed(target) == written
