"""The PostgreSQL backend's own promises: its schema, migrations, times, vectors, repairs and event log.

What both backends must do alike is tested by the engine-level modules that list
`STORAGE_BACKENDS`; this module checks what only PostgreSQL has.
"""

from __future__ import annotations

import asyncio
import signal
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import asyncpg
import numpy as np
import pytest

from adapters.base import IncomingMessage
from bot.app import App
from memory.embedders import CachedEmbedder
from memory.engine import MemoryEngine
from memory.errors import ConfigError, MemoryWriteError
from memory.models import Audience, MemoryType, Visibility
from memory.storage.postgres import PostgresStorage
from memory.storage.postgres.bulk import DEFERRED_INDEXES, DEFERRED_RECORD, indexes_deferred
from memory.storage.postgres.db import PostgresDatabase
from memory.storage.postgres.migrations import MIGRATIONS
from tests.fakes.embedders import HashEmbedder
from tests.fakes.postgres import BARE_TEMPLATE, PostgresTestServer
from tests.fakes.postgres_proxy import HeldCloseProxy
from tests.helpers import FakeClock, audience, draft, past_turn, postgres_storage, settings


@pytest.fixture
async def storage(postgres_url: str) -> AsyncIterator[PostgresStorage]:
    opened = await PostgresStorage.open(postgres_url, dim=384)
    yield opened
    await opened.close()


@pytest.fixture
async def pg_engine(
    postgres_url: str, embedder: CachedEmbedder, clock: FakeClock
) -> AsyncIterator[MemoryEngine]:
    engine = MemoryEngine(await PostgresStorage.open(postgres_url, dim=embedder.dim), embedder, clock=clock)
    yield engine
    await engine.close()


async def test_a_fresh_database_is_migrated_and_the_migrations_recorded(
    postgres_server: PostgresTestServer,
) -> None:
    name = postgres_server.create_database(template=BARE_TEMPLATE)
    try:
        url = postgres_server.url(name)
        storage = await PostgresStorage.open(url, dim=8)
        await storage.close()
        conn = await asyncpg.connect(url)
        try:
            recorded = [r[0] for r in await conn.fetch("SELECT name FROM schema_migrations ORDER BY name")]
            assert recorded == [name for name, _ in MIGRATIONS]
            # Opening again applies nothing twice.
            await (await PostgresStorage.open(url, dim=8)).close()
            assert await conn.fetchval("SELECT count(*) FROM schema_migrations") == len(MIGRATIONS)
        finally:
            await conn.close()
        # The vectors' size is part of the schema: another embedder is refused, not mixed in.
        with pytest.raises(ConfigError, match="8 dimensions"):
            await PostgresStorage.open(url, dim=384)
    finally:
        postgres_server.drop_database(name)


async def test_opening_a_store_opens_one_connection(postgres_url: str) -> None:
    # A connection is a server process: the migrations check runs on the pool's first one.
    async with HeldCloseProxy.before(postgres_url) as proxy:
        db = await PostgresDatabase.open(proxy.url, dim=384)
        try:
            assert proxy.connections == 1
            assert await db.fetchval("SELECT count(*) FROM memories") == 0
        finally:
            await db.close()


# Where pgvector is when the bot first opens the database, and how a query names its type.
PGVECTOR_PLACES = {
    # Not there yet: the pool's first connection is made before the migrations create the
    # extension, so it had no vector codec and must not be the one that serves the next query.
    "created_by_the_migrations": ([], "vector"),
    # A DBA may keep extensions out of `public`; the bot's role then finds them on its search_path.
    "in_a_schema_of_its_own": (
        [
            "CREATE SCHEMA extensions",
            "CREATE EXTENSION vector SCHEMA extensions",
            "ALTER DATABASE {name} SET search_path = public, extensions",
        ],
        "extensions.vector",
    ),
}


@pytest.mark.parametrize("place", sorted(PGVECTOR_PLACES))
async def test_vectors_decode_wherever_pgvector_is(postgres_server: PostgresTestServer, place: str) -> None:
    statements, type_name = PGVECTOR_PLACES[place]
    name = postgres_server.create_database(template="template0")
    admin = await asyncpg.connect(postgres_server.url(name))
    try:
        for statement in statements:
            await admin.execute(statement.format(name=name))
        db = await PostgresDatabase.open(postgres_server.url(name), dim=3)
        try:
            value = await db.fetchval(f"SELECT '[4,5,6]'::{type_name}")
        finally:
            await db.close()
        assert isinstance(value, np.ndarray) and value.tolist() == [4.0, 5.0, 6.0]
    finally:
        await admin.close()
        postgres_server.drop_database(name)


async def test_a_newer_schema_is_refused(postgres_url: str) -> None:
    conn = await asyncpg.connect(postgres_url)
    try:
        await conn.execute("INSERT INTO schema_migrations (name) VALUES ('m999_from_the_future')")
    finally:
        await conn.close()
    with pytest.raises(Exception, match="newer memorybot"):
        await PostgresStorage.open(postgres_url, dim=384)


async def test_the_schema_is_one_a_dba_accepts(storage: PostgresStorage) -> None:
    db = storage.db
    # Every time is a timestamptz; no float epochs.
    times = await db.fetch(
        "SELECT table_name, column_name, data_type FROM information_schema.columns "
        "WHERE table_schema = 'public' AND (column_name LIKE '%\\_at' OR column_name LIKE 'covers\\_%')"
    )
    assert times and {r["data_type"] for r in times} == {"timestamp with time zone"}
    indexes = {
        r["indexname"]: r["indexdef"] for r in await db.fetch("SELECT indexname, indexdef FROM pg_indexes")
    }
    for table in ("memories", "messages", "summaries"):
        assert "USING hnsw (embedding vector_cosine_ops)" in indexes[f"ix_{table}_embedding"]
    for table in ("memories", "messages"):
        # Searches are within a workspace: the words' index keys each word by it.
        assert "USING gin (scoped_lexemes(workspace_id, search_text))" in indexes[f"ix_{table}_search_text"]
    foreign = {
        r["conname"]
        for r in await db.fetch(
            "SELECT conname FROM pg_constraint WHERE contype = 'f' AND connamespace = 'public'::regnamespace"
        )
    }
    assert {"memories_superseded_by_fkey", "summaries_condensed_into_fkey"} <= foreign
    # No index or constraint is left with a name the server made up.
    assert not [n for n in indexes if n.endswith(("_idx", "_idx1"))]


async def test_stored_vectors_sit_in_their_row(pg_engine: MemoryEngine) -> None:
    """A search computes a distance per candidate row: its vector must be in the row, not in the
    TOAST table (one more index lookup and page read per row)."""
    await pg_engine.remember(draft("Alice moved to Porto " + "and then some more " * 40))
    db = pg_engine.storage.db
    storage = {
        r[0]: r[1]
        for r in await db.fetch(
            "SELECT attrelid::regclass::text, attstorage::text FROM pg_attribute WHERE attname = 'embedding' "
            "AND attrelid IN ('memories'::regclass, 'messages'::regclass, 'summaries'::regclass)"
        )
    }
    assert storage == {"memories": "m", "messages": "m", "summaries": "m"}
    # The row as written: 1.5 kB of vector beside the text, the vector on the table's own page.
    toasted = await db.fetchval(
        "SELECT count(*) FROM memories WHERE pg_column_toast_chunk_id(embedding) IS NOT NULL"
    )
    assert toasted == 0


async def test_times_and_vectors_come_back_exactly(pg_engine: MemoryEngine, clock: FakeClock) -> None:
    clock.now = 1_732_456_789.123456
    written = (await pg_engine.remember(draft("Alice moved to Porto", ttl="3 days"))).memory
    [read] = await pg_engine.storage.memories.get_unscoped([written.id])
    assert read.created_at == written.created_at == 1_732_456_789.123456
    # timestamptz keeps microseconds: a sum of floats comes back as its nearest microsecond.
    assert read.expires_at == pytest.approx(written.expires_at, abs=1e-6)
    stored = (await pg_engine.storage.memories.embeddings([written.id]))[written.id]
    assert stored.dtype == np.float32
    assert np.array_equal(stored, (await pg_engine.embedder.embed([written.content]))[0])


async def test_a_non_finite_vector_stores_nothing(storage: PostgresStorage, pg_engine: MemoryEngine) -> None:
    memory = pg_engine.build_memory(draft("Erin moved to Berlin"))
    bad = np.full(384, np.nan, dtype=np.float32)
    with pytest.raises(MemoryWriteError):
        await storage.memories.add(memory, bad, None, 0.0)
    assert await storage.memories.get_unscoped([memory.id]) == []


async def test_a_filtered_search_still_returns_k_rows(pg_engine: MemoryEngine, postgres_url: str) -> None:
    """The audience filter is in the SQL and the HNSW index scans on until k rows pass it."""
    others = [draft(f"Bob's secret note number {i}", author_id="bob") for i in range(300)]
    for d in others:
        d.visibility = Visibility.PRIVATE
    await pg_engine.import_memories(others)
    mine = await pg_engine.import_memories([draft(f"shared fact number {i}") for i in range(5)])
    query = (await pg_engine.embedder.embed(["secret note number"]))[0]
    conn = await asyncpg.connect(postgres_url)
    try:
        # Force the index, as on a large table: the iterative scan is then what finds the five.
        await conn.execute(
            "DO $$ BEGIN EXECUTE format('ALTER DATABASE %I SET enable_seqscan = off', "
            "current_database()); END $$"
        )
    finally:
        await conn.close()
    forced = await PostgresStorage.open(postgres_url, dim=384)
    try:
        async with forced.db.pool.acquire() as c:
            rows = await c.fetch(
                "EXPLAIN SELECT id FROM memories WHERE NOT forgotten ORDER BY embedding <=> $1 LIMIT 5", query
            )
        plan = "\n".join(r[0] for r in rows)
        assert "ix_memories_embedding" in plan
        hits = await forced.memories.search(audience("carol"), query, 5, pg_engine.clock())
    finally:
        await forced.close()
    assert sorted(h.id for h in hits) == sorted(m.id for m in mine)


async def full_text_ids(engine: MemoryEngine, query: str) -> list[str]:
    """Ids of the memories the full-text half of a hybrid search finds for `query` (top 5)."""
    vector = (await engine.embedder.embed(["x"]))[0]
    _, lexical = await engine.storage.memories.hybrid_search(audience(), vector, query, 5, engine.clock())
    return [h.id for h in lexical]


async def test_full_text_matches_english_stems_and_other_languages(pg_engine: MemoryEngine) -> None:
    running = (await pg_engine.remember(draft("Alice is running the Lisbon marathon"))).memory
    french = (await pg_engine.remember(draft("Le bureau de Jérôme est à Genève"))).memory
    assert await full_text_ids(pg_engine, "runs") == [running.id]
    assert await full_text_ids(pg_engine, "Genève") == [french.id]
    # Query syntax in user input is only words.
    assert await full_text_ids(pg_engine, "marathon & !( | :* '") == [running.id]


async def test_full_text_ignores_english_stop_words_even_as_written(pg_engine: MemoryEngine) -> None:
    # The words-as-written half (`simple`) keeps "the" and "what" in the stored text: matched in
    # the query they would pull in (and rank) nearly every row of a workspace.
    porto = (await pg_engine.remember(draft("Heidi booked the Porto offsite"))).memory
    await pg_engine.remember(draft("What a day: the cat sat on the mat"))
    assert await full_text_ids(pg_engine, "what about the Porto trip") == [porto.id]
    # A query of stop words alone matches nothing (and is no error).
    assert await full_text_ids(pg_engine, "what about the") == []


async def test_turns_stored_without_a_vector_are_repaired(
    pg_engine: MemoryEngine, clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def broken(texts: object) -> object:
        raise RuntimeError("embedder down")

    monkeypatch.setattr(pg_engine.embedder, "embed", broken)
    turn = past_turn("the deploy key rotates on Fridays", clock())
    assert await pg_engine.store_messages([turn]) == [turn.id]
    monkeypatch.undo()
    assert pg_engine.storage.needs_maintenance
    assert await pg_engine.search_messages("deploy key", audience(), threshold=0.0) == []
    assert await pg_engine.storage.repair_turns(pg_engine._embed) == 1
    assert not pg_engine.storage.needs_maintenance
    found = await pg_engine.search_messages("deploy key", audience(), threshold=0.0)
    assert [m.id for m, _ in found] == [turn.id]


async def test_reconcile_has_nothing_to_repair(pg_engine: MemoryEngine) -> None:
    await pg_engine.remember(draft("Alice works on billing"))
    report = await pg_engine.reconcile()
    assert report.details == []
    assert await pg_engine.storage.summaries.reconcile(pg_engine._embed) == (0, 0)


async def test_the_event_log_drops_redeliveries_until_they_expire(storage: PostgresStorage) -> None:
    clock = FakeClock()
    events = storage.events(ttl_seconds=60, clock=clock)
    assert await events.seen("slack:event:Ev1") is False
    assert await events.seen("slack:event:Ev1") is True
    assert await events.seen("slack:event:Ev2") is False
    clock.advance(61)
    # Expired: new again; the purge that runs with it (once a TTL) drops Ev2.
    assert await events.seen("slack:event:Ev1") is False
    assert await events.count() == 1
    clock.advance(61)
    assert await events.purge() == 1
    assert await events.count() == 0
    await events.close()
    with pytest.raises(RuntimeError):
        await events.seen("slack:event:Ev3")


async def test_access_counts_add_up(pg_engine: MemoryEngine, clock: FakeClock) -> None:
    a = (await pg_engine.remember(draft("Alice likes tea"))).memory
    b = (await pg_engine.remember(draft("Bob likes coffee"))).memory
    await pg_engine.storage.memories.bump_access({a.id: 2, b.id: 1}, clock())
    await pg_engine.storage.memories.bump_access({a.id: 1}, clock() + 5)
    rows = {m.id: m for m in await pg_engine.storage.memories.get_unscoped([a.id, b.id])}
    assert (rows[a.id].access_count, rows[a.id].last_accessed_at) == (3, clock() + 5)
    assert (rows[b.id].access_count, rows[b.id].last_accessed_at) == (1, clock())


async def test_an_access_count_leaves_the_memory_row_and_its_indexes_alone(
    pg_engine: MemoryEngine, clock: FakeClock
) -> None:
    # A count written into the memory row copied the row (vector and all) and gave the copy an
    # entry in every index of the table, the HNSW graph included: the row must stay where it is.
    storage = postgres_storage(pg_engine)
    a = (await pg_engine.remember(draft("Alice likes tea"))).memory
    place = "SELECT ctid::text || ' ' || xmin::text FROM memories WHERE id = $1"
    before = await storage.db.fetchval(place, (a.id,))
    for n in range(3):
        await storage.memories.bump_access({a.id: 1}, clock() + n)
    assert await storage.db.fetchval(place, (a.id,)) == before
    [read] = await storage.memories.get_unscoped([a.id])
    assert (read.access_count, read.last_accessed_at) == (3, clock() + 2)


async def test_a_count_for_a_memory_deleted_meanwhile_is_dropped_and_the_others_kept(
    pg_engine: MemoryEngine, clock: FakeClock
) -> None:
    a = (await pg_engine.remember(draft("Alice likes tea"))).memory
    b = (await pg_engine.remember(draft("Bob likes coffee"))).memory
    assert await pg_engine.storage.memories.delete([a.id]) == 1
    await pg_engine.storage.memories.bump_access({a.id: 4, b.id: 2}, clock())
    assert [m.access_count for m in await pg_engine.storage.memories.get_unscoped([a.id, b.id])] == [2]
    # And a memory's delete takes its count along.
    await pg_engine.storage.memories.delete([b.id])
    storage = postgres_storage(pg_engine)
    assert await storage.db.fetchval("SELECT count(*) FROM memory_access") == 0


async def test_counts_kept_in_the_memory_rows_move_to_their_own_table(postgres_url: str) -> None:
    from memory.storage.postgres.migrations import apply_migrations

    engine_storage = await PostgresStorage.open(postgres_url, dim=384)
    engine = MemoryEngine(engine_storage, HashEmbedder(), clock=FakeClock())
    try:
        kept = (await engine.remember(draft("Alice likes tea"))).memory
        never = (await engine.remember(draft("Bob likes coffee"))).memory
    finally:
        await engine.close()
    conn = await asyncpg.connect(postgres_url)
    try:  # the database as the version before migration m012 left it: counts in the memory rows
        async with conn.transaction():
            await conn.execute(
                """
                ALTER TABLE memories ADD COLUMN last_accessed_at timestamptz,
                    ADD COLUMN access_count integer NOT NULL DEFAULT 0;
                DROP TABLE memory_access;
                DELETE FROM schema_migrations WHERE name = 'm012_memory_access';
                """
            )
            await conn.execute(
                "UPDATE memories SET access_count = 5, last_accessed_at = to_timestamp(1000) WHERE id = $1",
                kept.id,
            )
        assert await apply_migrations(conn, 384) == ["m012_memory_access"]
        assert (
            await conn.fetchval(
                "SELECT count(*) FROM information_schema.columns "
                "WHERE table_name = 'memories' AND column_name IN ('access_count', 'last_accessed_at')"
            )
            == 0
        )
    finally:
        await conn.close()
    storage = await PostgresStorage.open(postgres_url, dim=384)
    try:
        read = {m.id: m for m in await storage.memories.get_unscoped([kept.id, never.id])}
    finally:
        await storage.close()
    assert (read[kept.id].access_count, read[kept.id].last_accessed_at) == (5, 1000.0)
    assert (read[never.id].access_count, read[never.id].last_accessed_at) == (0, None)


def test_the_operator_audience_is_translated_with_numbered_parameters() -> None:
    from memory.storage.postgres.db import Params, audience_where

    p = Params("first")
    where = audience_where(
        Audience(
            "discord", "g", "default", viewer_id="alice", channel_id="c", private_ok=True, own_elsewhere=True
        ),
        100.0,
        p,
        alias="m",
        subjects=True,
    )
    assert "?" not in where and "forgotten = 0" not in where
    assert "NOT m.forgotten" in where
    assert p.values[0] == "first" and p.values[-1] == 100.0
    assert f"${len(p.values)}" in where


async def test_every_pooled_connection_scans_the_index_iteratively(storage: PostgresStorage) -> None:
    for _ in range(3):  # a released connection is RESET; the setting must survive that
        assert await storage.db.fetchval("SHOW hnsw.iterative_scan") == "relaxed_order"


async def test_the_bot_runs_on_a_database_url(tmp_path: Path, postgres_url: str) -> None:
    """Settings to storage: MEMORYBOT_DATABASE_URL is what App.start opens; nothing is written
    beside the data directory's SQLite or LanceDB, and a restart reads the same memories."""
    config = settings(tmp_path, storage={"database_url": postgres_url})
    app = await App.start(config, embedder=HashEmbedder(), with_llm=False)
    try:
        assert isinstance(app.engine.storage, PostgresStorage)
        said = IncomingMessage("slack", "T1", "C1", "U1", "Zed", "remember that my name is Zed")
        assert (await app.pipeline.handle([said])).reply
        await app.pipeline.idle()
        operator = Audience("slack", "T1", "default", operator=True, viewer_id="U1", private_ok=True)
        learned = await app.engine.list_memories(operator)
        assert learned
        assert await app.engine.storage.turns.count() >= 1
    finally:
        await app.close()
    assert not (tmp_path / "data" / "memorybot.sqlite3").exists()
    assert not (tmp_path / "data" / "lancedb").exists()

    app = await App.start(config, embedder=HashEmbedder(), with_llm=False)
    try:
        assert [m.id for m in await app.engine.list_memories(operator)] == [m.id for m in learned]
    finally:
        await app.close()


async def test_a_pgvector_without_iterative_scans_is_refused() -> None:
    from memory.storage.postgres.migrations import check_pgvector

    class Reports:
        def __init__(self, version: str) -> None:
            self.version = version

        async def fetchval(self, sql: str) -> str:
            return self.version

    with pytest.raises(ConfigError, match=r"pgvector is 0\.7\.4; memorybot needs 0\.8"):
        await check_pgvector(Reports("0.7.4"))  # type: ignore[arg-type]
    for fine in ("0.8.0", "0.8.1", "1.0"):
        await check_pgvector(Reports(fine))  # type: ignore[arg-type]


async def test_every_statement_is_planned_for_its_own_values(storage: PostgresStorage) -> None:
    # asyncpg prepares statements; after five runs PostgreSQL may switch one to a generic plan,
    # which for the filtered nearest-neighbour query read a whole workspace and sorted it.
    async with storage.db.pool.acquire() as conn:
        assert await conn.fetchval("SHOW plan_cache_mode") == "force_custom_plan"
        assert await conn.fetchval("SHOW hnsw.iterative_scan") == "relaxed_order"


async def test_the_important_memories_are_read_without_walking_past_the_identities(
    storage: PostgresStorage,
) -> None:
    # Identities weigh 1.0; the pre-hook's important memories leave them out. Its query must be
    # answered by the index that holds no identity, whatever the types are spelled as.
    not_identity = [t.value for t in MemoryType if t is not MemoryType.IDENTITY]
    async with storage.db.pool.acquire() as conn, conn.transaction():
        await conn.execute("SET LOCAL enable_seqscan = off")  # as on a large table
        rows = await conn.fetch(
            "EXPLAIN SELECT id FROM memories WHERE platform = $1 AND workspace_id = $2 "
            "AND agent_id = $3 AND NOT forgotten AND memory_type = ANY($4) AND importance >= $5 "
            "ORDER BY importance DESC, created_at DESC LIMIT 20",
            "discord",
            "guild-1",
            "default",
            not_identity,
            0.8,
        )
    plan = "\n".join(r[0] for r in rows)
    assert "ix_memories_scope_important" in plan and "Sort" not in plan.split("Index")[0]


async def test_a_role_that_may_not_create_an_extension_is_told_what_to_ask_for(
    postgres_server: PostgresTestServer,
) -> None:
    # A managed database: pgvector created by an administrator, the bot's role may create tables
    # but not extensions. Migrating stops at the first one it lacks, with the statements to run.
    name = postgres_server.create_database(template=BARE_TEMPLATE)
    admin = await asyncpg.connect(postgres_server.url(name))
    try:
        role = f"bot_{name}"
        await admin.execute(f"CREATE ROLE {role} LOGIN")
        await admin.execute(f"GRANT CREATE ON SCHEMA public TO {role}")
        url = postgres_server.url(name).replace("postgres:@", f"{role}:@", 1)
        with pytest.raises(ConfigError, match="needs the btree_gin extension") as refused:
            await PostgresStorage.open(url, dim=8)
        assert "CREATE EXTENSION IF NOT EXISTS btree_gin" in str(refused.value)
        await admin.execute("CREATE EXTENSION btree_gin")
        storage = await PostgresStorage.open(url, dim=8)  # the rest of the migrations now apply
        await storage.close()
        assert await admin.fetchval("SELECT count(*) FROM schema_migrations") == len(MIGRATIONS)
        await admin.execute(f"DROP OWNED BY {role}")
        await admin.execute(f"DROP ROLE {role}")
    finally:
        await admin.close()
        postgres_server.drop_database(name)


async def test_a_pooled_connection_goes_back_without_a_second_round_trip(storage: PostgresStorage) -> None:
    # asyncpg's default reset sends one more statement after every query; the pool keeps none.
    async with storage.db.pool.acquire() as conn:
        pid = conn.get_server_pid()
    assert await storage.db.fetchval("SELECT 41 + 1") == 42
    async with storage.db.pool.acquire() as conn:
        assert conn.get_server_pid() == pid  # the one connection the pool had
    watcher = await asyncpg.connect(storage._dsn)  # type: ignore[arg-type]
    try:
        last = await watcher.fetchval("SELECT query FROM pg_stat_activity WHERE pid = $1", pid)
    finally:
        await watcher.close()
    assert last == "SELECT 41 + 1"


async def test_building_the_indexes_leaves_no_session_setting_on_the_pool(storage: PostgresStorage) -> None:
    async with indexes_deferred(storage, work_mem="96MB", workers=1):
        pass
    held = [await storage.db.pool.acquire() for _ in range(storage.db.pool.get_max_size())]
    try:
        settings = {await c.fetchval("SHOW maintenance_work_mem") for c in held}
        workers = {await c.fetchval("SHOW max_parallel_maintenance_workers") for c in held}
    finally:
        for conn in held:
            await storage.db.pool.release(conn)
    assert "96MB" not in settings and len(settings) == 1
    assert "1" not in workers and len(workers) == 1


# A load killed while the indexes are dropped: the process dies between the drop and the build.
_KILLED_LOAD = """
import asyncio, os, signal, sys
from memory.storage.postgres import PostgresStorage
from memory.storage.postgres.bulk import DEFERRED_INDEXES, DEFERRED_RECORD, indexes_deferred

async def main():
    storage = await PostgresStorage.open(sys.argv[1], dim=384)
    async with indexes_deferred(storage):
        os.kill(os.getpid(), signal.SIGKILL)

asyncio.run(main())
"""


async def _definitions(storage: PostgresStorage) -> dict[str, str]:
    rows = await storage.db.fetch(
        "SELECT indexname, indexdef FROM pg_indexes WHERE tablename = 'memories' AND indexname = ANY($1)",
        [list(DEFERRED_INDEXES)],
    )
    return {r["indexname"]: r["indexdef"] for r in rows}


async def test_indexes_a_killed_load_left_dropped_are_built_by_the_next(
    storage: PostgresStorage, postgres_url: str
) -> None:
    before = await _definitions(storage)
    assert set(before) == set(DEFERRED_INDEXES)
    killed = await asyncio.create_subprocess_exec(
        sys.executable, "-c", _KILLED_LOAD, postgres_url, stderr=asyncio.subprocess.PIPE
    )
    _, stderr = await killed.communicate()
    assert killed.returncode == -signal.SIGKILL, stderr.decode()
    assert await _definitions(storage) == {}  # dropped, never built again

    # The next load cannot read them from the catalogue any more: it builds them from its record.
    async with indexes_deferred(storage, work_mem="64MB", workers=0):
        assert await _definitions(storage) == {}
    assert await _definitions(storage) == before
    assert await storage.db.fetchval(f"SELECT count(*) FROM {DEFERRED_RECORD}") == 0
