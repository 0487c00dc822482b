"""Each test's store starts empty and as a first open makes it, however the test before left its own.

The embedded backend's data directory is a copy of one made at the start of the session; the
PostgreSQL backend's database is the session's one test database, emptied (tests/fakes/postgres.py).
"""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import asyncpg
import pytest

from memory.engine import MemoryEngine
from tests.fakes.embedders import HashEmbedder
from tests.fakes.postgres import MIGRATIONS_TABLE, PostgresTestServer
from tests.helpers import add_turn, draft


def sqlite_rows(data_dir: Path) -> dict[str, int]:
    """The rows of every table of the embedded backend's SQLite file."""
    with sqlite3.connect(data_dir / "memorybot.sqlite3") as conn:
        tables = [r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
        return {t: conn.execute(f'SELECT count(*) FROM "{t}"').fetchone()[0] for t in tables}


def sqlite_schema(data_dir: Path) -> list[tuple[str, str]]:
    with sqlite3.connect(data_dir / "memorybot.sqlite3") as conn:
        return sorted(conn.execute("SELECT name, coalesce(sql, '') FROM sqlite_master"))


async def test_an_embedded_copy_is_what_a_first_open_makes_and_the_original_stays_empty(
    engine: MemoryEngine, storage_location: Path, empty_data_dir: Path, tmp_path: Path
) -> None:
    await engine.remember(draft("Mickael likes tea"))
    fresh = await MemoryEngine.open(tmp_path / "fresh", HashEmbedder())
    await fresh.close()
    assert sqlite_schema(storage_location) == sqlite_schema(tmp_path / "fresh")
    assert sorted(p.name for p in (storage_location / "lancedb").iterdir()) == sorted(
        p.name for p in (tmp_path / "fresh" / "lancedb").iterdir()
    )
    assert sqlite_rows(storage_location)["memories"] == 1
    assert sqlite_rows(empty_data_dir) == sqlite_rows(tmp_path / "fresh")


async def reset(server: PostgresTestServer) -> asyncpg.Connection:
    """A connection to the test database, emptied (the server's admin work runs on its own thread)."""
    name = await asyncio.to_thread(server.reset)
    return await asyncpg.connect(server.url(name))


async def row_counts(conn: asyncpg.Connection) -> dict[str, int]:
    """The rows of every table of the schema but the migrations record."""
    tables = await conn.fetch(
        "SELECT tablename FROM pg_tables WHERE schemaname = 'public' AND tablename <> $1", MIGRATIONS_TABLE
    )
    return {
        t["tablename"]: int(await conn.fetchval(f'SELECT count(*) FROM "{t["tablename"]}"')) for t in tables
    }


async def test_each_reset_empties_every_table_and_restarts_the_sequences(
    postgres_server: PostgresTestServer,
) -> None:
    conn = await reset(postgres_server)
    try:
        first = [await add_turn(conn, f"t{n}") for n in range(3)]
        await conn.execute("INSERT INTO seen_events (key, seen_at) VALUES ('slack:E1', now())")
        written = await row_counts(conn)
        # The turns' word counts (term_counts) are written with them, by the database.
        assert (written["messages"], written["seen_events"]) == (3, 1) and written["term_counts"] > 0
        assert sum(written.values()) == 4 + written["term_counts"]
    finally:
        await conn.close()
    conn = await reset(postgres_server)
    try:
        counts = await row_counts(conn)
        assert {"memories", "messages", "summaries", "seen_events"} <= counts.keys()
        assert set(counts.values()) == {0}
        assert await add_turn(conn, "again") == first[0]
        # The migrations record is schema: it stays.
        assert await conn.fetchval(f"SELECT count(*) FROM {MIGRATIONS_TABLE}") > 0
    finally:
        await conn.close()


async def test_a_reset_restarts_the_sequences_of_tables_emptied_by_the_test_itself(
    postgres_server: PostgresTestServer,
) -> None:
    """Reset truncates only the tables holding rows: the sequence of one a test filled and emptied
    again must restart all the same."""
    conn = await reset(postgres_server)
    try:
        first = await add_turn(conn, "t0")
        await add_turn(conn, "t1")
        await conn.execute("DELETE FROM messages")
    finally:
        await conn.close()
    conn = await reset(postgres_server)
    try:
        assert await add_turn(conn, "again") == first
    finally:
        await conn.close()


async def test_a_connection_left_in_a_transaction_does_not_hold_up_the_next_test(
    postgres_server: PostgresTestServer,
) -> None:
    left = await reset(postgres_server)
    transaction = left.transaction()
    await transaction.start()
    await add_turn(left, "uncommitted")
    await left.execute("LOCK TABLE memories IN ACCESS EXCLUSIVE MODE")
    conn = await reset(postgres_server)
    try:
        assert set((await row_counts(conn)).values()) == {0}
        with pytest.raises((asyncpg.PostgresConnectionError, asyncpg.InterfaceError, ConnectionError)):
            await left.fetchval("SELECT 1")
    finally:
        await conn.close()
        left.terminate()


@pytest.mark.parametrize(
    ("change", "probe", "fresh"),
    [
        (
            "ALTER TABLE memories ADD COLUMN extra integer",
            "SELECT count(*) FROM information_schema.columns WHERE column_name = 'extra'",
            0,
        ),
        ("CREATE TABLE scratch (x integer)", "SELECT to_regclass('scratch') IS NULL", True),
        ("DROP INDEX ix_memories_hash", "SELECT to_regclass('ix_memories_hash') IS NOT NULL", True),
        (
            f"INSERT INTO {MIGRATIONS_TABLE} (name) VALUES ('m999_from_the_future')",
            f"SELECT count(*) FROM {MIGRATIONS_TABLE} WHERE name = 'm999_from_the_future'",
            0,
        ),
        (
            "DO $$ BEGIN EXECUTE format('ALTER DATABASE %I SET enable_seqscan = off', "
            "current_database()); END $$",
            "SELECT current_setting('enable_seqscan')",
            "on",
        ),
    ],
    ids=["column", "table", "index", "migration", "database_setting"],
)
async def test_a_changed_schema_is_made_again_from_the_template(
    postgres_server: PostgresTestServer, change: str, probe: str, fresh: object
) -> None:
    conn = await reset(postgres_server)
    try:
        await conn.execute(change)
    finally:
        await conn.close()
    conn = await reset(postgres_server)
    try:
        assert await conn.fetchval(probe) == fresh
    finally:
        await conn.close()


async def test_a_snapshot_brings_back_its_rows_vectors_text_and_sequences(
    postgres_server: PostgresTestServer,
) -> None:
    name = await asyncio.to_thread(postgres_server.create_database)
    try:
        source = await asyncpg.connect(postgres_server.url(name))
        try:
            await add_turn(source, "a", "the lisbon trip")
            await add_turn(source, "b", "a piano lesson")
        finally:
            await source.close()
        snapshot = await asyncio.to_thread(postgres_server.snapshot, name)
    finally:
        await asyncio.to_thread(postgres_server.drop_database, name)
    conn = await reset(postgres_server)
    try:
        await add_turn(conn, "junk")
    finally:
        await conn.close()
    for _ in range(2):  # restored as often as asked, each time the same
        conn = await asyncpg.connect(
            postgres_server.url(await asyncio.to_thread(postgres_server.reset, snapshot))
        )
        try:
            rows = await conn.fetch("SELECT id, seq, content FROM messages ORDER BY seq")
            assert [tuple(r) for r in rows] == [("a", 1, "the lisbon trip"), ("b", 2, "a piano lesson")]
            found = await conn.fetchval(
                "SELECT id FROM messages WHERE search_text @@ plainto_tsquery('english', 'lisbon')"
            )
            assert found == "a"
            same = "embedding = array_fill(0.5::real, ARRAY[384])::vector"
            assert await conn.fetchval(f"SELECT count(*) FROM messages WHERE {same}") == 2
            assert await add_turn(conn, "c") == 3
        finally:
            await conn.close()
