"""Two processes on one PostgreSQL database writing the same thing at once: one fact, one profile."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Iterator, Sequence
from contextlib import AbstractAsyncContextManager

import asyncpg
import numpy as np
import pytest

from memory.dedup import DedupPolicy
from memory.embedders import CachedEmbedder
from memory.engine import MemoryEngine
from memory.errors import StorageError
from memory.models import Audience, Memory, MemoryDraft, MemoryType, Scope, Visibility
from memory.people import ProfileStore
from memory.storage.base import HashMatch, VectorHit
from memory.storage.postgres.memories import PostgresMemories
from memory.storage.postgres.people import PostgresPeople
from memory.storage.postgres.storage import WRITE_LOCK_CONNECTIONS, WRITE_LOCK_WAIT_LOG, PostgresStorage
from tests.fakes.embedders import HashEmbedder
from tests.fakes.postgres_proxy import HeldCloseProxy
from tests.helpers import add_turn, memory_row, unit_vector

WORKSPACE = Scope("discord", "guild-1", "general", "default")
# Cosine never reaches 2: only exact duplicates are merged, so a write of a fact close to another
# (the older wording of a merge, a renamed fact) is stored as its own memory.
EXACT_ONLY = DedupPolicy(supersede_at=2.0, refine_floor=2.0)


class Gate:
    """Holds both writers back until each has checked what is stored (the race), or until one of
    them waits for the other's write lock (the race prevented): the write goes ahead either way."""

    def __init__(self, checks: int) -> None:
        self.checks = checks
        self.opened = asyncio.Event()
        self.reached = asyncio.Event()  # a write is waiting at the gate

    def checked(self) -> None:
        self.checks -= 1
        if self.checks <= 0:
            self.opened.set()

    async def write(self) -> None:
        self.reached.set()
        await self.opened.wait()


class LockWaits(logging.Handler):
    """Opens the current gate when a storage logs that a writer waits for another process."""

    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.gate: Gate | None = None
        self.waits = 0

    def emit(self, record: logging.LogRecord) -> None:
        if record.getMessage() == WRITE_LOCK_WAIT_LOG and self.gate is not None:
            self.waits += 1
            self.gate.opened.set()


@pytest.fixture
def lock_waits() -> Iterator[LockWaits]:
    logger = logging.getLogger("memory.storage.postgres.storage")
    handler, level = LockWaits(), logger.level
    logger.addHandler(handler)
    logger.setLevel(logging.DEBUG)
    yield handler
    logger.removeHandler(handler)
    logger.setLevel(level)


class GatedMemories(PostgresMemories):
    """The real repository; its writes wait at the gate, its checks under the scope lock count."""

    gate: Gate

    async def search(
        self, audience: Audience, vector: np.ndarray, k: int, now: float, visibility: str | None = None
    ) -> list[VectorHit]:
        hits = await super().search(audience, vector, k, now, visibility)
        self.gate.checked()  # the near-duplicate check `remember` makes under the scope lock
        return hits

    async def active_hash_matches(self, hashes: Sequence[str], now: float) -> set[HashMatch]:
        found = await super().active_hash_matches(hashes, now)
        self.gate.checked()  # an import checks before its scope locks and again under them
        return found

    async def add(self, memory: Memory, vector: np.ndarray, supersedes: str | None, now: float) -> None:
        await self.gate.write()
        await super().add(memory, vector, supersedes, now)

    async def add_many(self, memories: Sequence[Memory], vectors: Sequence[np.ndarray]) -> None:
        await self.gate.write()
        await super().add_many(memories, vectors)

    async def restore(self, memory: Memory, vector: np.ndarray, now: float) -> None:
        await self.gate.write()
        await super().restore(memory, vector, now)

    async def rewrite(self, memory: Memory, vector: np.ndarray) -> None:
        await self.gate.write()
        await super().rewrite(memory, vector)


class GatedPeople(PostgresPeople):
    """The real repository; a profile's save waits at the gate, its reads count."""

    gate: Gate

    async def profiles(
        self, platform: str, workspace_id: str, agent_id: str, user_ids: Sequence[str]
    ) -> list[tuple[str, str, float]]:
        rows = await super().profiles(platform, workspace_id, agent_id, user_ids)
        self.gate.checked()
        return rows

    async def save_profile(
        self, platform: str, workspace_id: str, user_id: str, agent_id: str, data: str | None, now: float
    ) -> None:
        await self.gate.write()
        await super().save_profile(platform, workspace_id, user_id, agent_id, data, now)


@pytest.fixture
async def processes(postgres_url: str) -> AsyncIterator[list[MemoryEngine]]:
    """Two engines, each on its own storage and pools, as two `memorybot` processes would be."""
    embedder = CachedEmbedder(HashEmbedder())
    engines = [await MemoryEngine.open(postgres_url, embedder) for _ in range(2)]
    for engine in engines:
        storage = engine.storage
        assert isinstance(storage, PostgresStorage)
        storage.memories = GatedMemories(storage.db)
        storage.people = GatedPeople(storage.db)
    yield engines
    for engine in engines:
        await engine.close()


def gate_all(engines: Sequence[MemoryEngine], lock_waits: LockWaits, checks: int) -> None:
    gate = lock_waits.gate = Gate(checks)
    for engine in engines:
        engine.storage.memories.gate = gate  # type: ignore[attr-defined]
        engine.storage.people.gate = gate  # type: ignore[attr-defined]


async def active_contents(engine: MemoryEngine, scope: Scope = WORKSPACE) -> list[str]:
    operator = Audience(scope.platform, scope.workspace_id, scope.agent_id, operator=True)
    return sorted(m.content for m in await engine.list_memories(operator) if m.is_active(engine.clock()))


async def test_two_processes_storing_one_fact_at_once_keep_one_memory(
    processes: list[MemoryEngine], lock_waits: LockWaits
) -> None:
    facts = ["Ana keeps bees on the roof", "Ana's sister lives in Lyon", "Ana plays the oboe"]
    for fact in facts:
        gate_all(processes, lock_waits, checks=2)
        results = await asyncio.gather(
            *(engine.remember(MemoryDraft(fact, WORKSPACE, user_id="ana")) for engine in processes)
        )
        assert sorted(r.action for r in results) == ["duplicate", "inserted"]
        assert results[0].memory.id == results[1].memory.id
    assert lock_waits.waits == len(facts)  # each time, one process waited for the other's write
    for engine in processes:
        assert await active_contents(engine) == sorted(facts)


async def test_two_processes_importing_the_same_facts_store_each_once_without_deadlock(
    processes: list[MemoryEngine], lock_waits: LockWaits
) -> None:
    # More scopes than the write-lock pool has connections: an import holds them all on one.
    scopes = [Scope("discord", f"guild-{n}", "general", "default") for n in range(WRITE_LOCK_CONNECTIONS + 2)]
    drafts = [MemoryDraft(f"Ana keeps bees in {s.workspace_id}", s, user_id="ana") for s in scopes]
    # Each import checks once before its scope locks and once under them.
    gate_all(processes, lock_waits, checks=4)
    first, second = await asyncio.gather(
        processes[0].import_memories(drafts), processes[1].import_memories(list(reversed(drafts)))
    )
    assert len(first) + len(second) == len(drafts)
    assert lock_waits.waits >= 1
    for scope, draft in zip(scopes, drafts, strict=True):
        assert await active_contents(processes[0], scope) == [draft.content]


async def test_two_processes_updating_one_profile_at_once_keep_both_facts(
    processes: list[MemoryEngine], lock_waits: LockWaits
) -> None:
    stores = [ProfileStore(engine.storage, engine.clock) for engine in processes]
    likes = ["tea", "chess"]
    memories = [
        processes[0].build_memory(
            MemoryDraft(
                f"Mickael likes {like}",
                WORKSPACE,
                MemoryType.PREFERENCE,
                subjects=["mickael"],
                user_id="u1",
                author_id="u1",
                visibility=Visibility.WORKSPACE,
            )
        )
        for like in likes
    ]
    gate_all(processes, lock_waits, checks=2)
    await asyncio.gather(
        *(store.update_from_memory(memory) for store, memory in zip(stores, memories, strict=True))
    )
    profile = await stores[0].get("discord", "guild-1", "u1", "default")
    assert profile is not None
    assert profile.memory_ids() == {m.id for m in memories}
    assert lock_waits.waits == 1  # one update waited for the other's


def open_gates(engines: Sequence[MemoryEngine], lock_waits: LockWaits) -> None:
    """Writes go ahead at once (setting up what the race starts from)."""
    gate_all(engines, lock_waits, checks=0)
    assert lock_waits.gate is not None
    lock_waits.gate.opened.set()


async def test_an_undo_racing_a_write_of_the_restored_fact_keeps_one_active_copy(
    processes: list[MemoryEngine], lock_waits: LockWaits
) -> None:
    open_gates(processes, lock_waits)
    older = await processes[0].remember(MemoryDraft("Ana keeps bees", WORKSPACE, user_id="ana"))
    newer = await processes[0].remember(MemoryDraft("Ana keeps bees on the roof", WORKSPACE, user_id="ana"))
    assert newer.replaced is not None and newer.replaced.id == older.memory.id
    processes[1].policy = EXACT_ONLY
    # The restore waits until the other process has checked what is active (the race), or until
    # one of them waits for the other's write lock (the race prevented).
    gate_all(processes, lock_waits, checks=1)
    restored, written = await asyncio.gather(
        processes[0].undo_supersede(newer.memory.id),
        processes[1].remember(MemoryDraft("Ana keeps bees", WORKSPACE, user_id="ana")),
    )
    assert await active_contents(processes[0]) == ["Ana keeps bees", "Ana keeps bees on the roof"]
    # Whichever came second found the other's copy and wrote nothing.
    assert restored.id == written.memory.id


async def test_a_rename_racing_a_write_of_the_renamed_fact_keeps_one_active_copy(
    processes: list[MemoryEngine], lock_waits: LockWaits
) -> None:
    open_gates(processes, lock_waits)
    for engine in processes:
        engine.policy = EXACT_ONLY
    await processes[0].remember(MemoryDraft("Root broke their shoulder", WORKSPACE, user_id="u1"))
    gate_all(processes, lock_waits, checks=1)  # the rewrite waits for the other's check, as above
    renamed, written = await asyncio.gather(
        processes[0].rename_person(WORKSPACE, "u1", ["Root"], "Mickael"),
        processes[1].remember(MemoryDraft("Mickael broke their shoulder", WORKSPACE, user_id="u1")),
    )
    assert await active_contents(processes[0]) == ["Mickael broke their shoulder"]
    # Either the rename went first (the write found it) or the write did (the rename dropped its copy).
    assert [m.id for m in renamed] in ([written.memory.id], [])
    assert (written.action == "duplicate") == bool(renamed)


async def drop_lock_connections(postgres_url: str) -> int:
    """Terminate every connection holding an advisory lock in this database; returns how many."""
    admin = await asyncpg.connect(postgres_url)
    try:
        # Matching on the last query's text also caught other databases' lock connections on a
        # shared server.
        return int(
            await admin.fetchval(
                "SELECT count(pg_terminate_backend(l.pid)) FROM pg_locks l "
                "JOIN pg_stat_activity a ON a.pid = l.pid "
                "WHERE l.locktype = 'advisory' AND l.granted AND a.datname = current_database() "
                "AND l.pid <> pg_backend_pid()"
            )
        )
    finally:
        await admin.close()


async def test_a_write_whose_lock_connection_dropped_fails_and_the_fact_is_stored_once(
    processes: list[MemoryEngine], lock_waits: LockWaits, postgres_url: str
) -> None:
    fact = MemoryDraft("Ana keeps bees on the roof", WORKSPACE, user_id="ana")
    gate_all(processes, lock_waits, checks=2)  # never reached: only this test opens it
    held = processes[0].storage.memories.gate  # type: ignore[attr-defined]
    first = asyncio.create_task(processes[0].remember(fact))
    await held.reached.wait()  # checked under the scope lock, about to insert
    assert await drop_lock_connections(postgres_url) == 1
    # The lock went with its connection: the other process takes the scope and stores the fact.
    open_gate = Gate(0)
    open_gate.opened.set()
    processes[1].storage.memories.gate = open_gate  # type: ignore[attr-defined]
    assert (await processes[1].remember(fact)).action == "inserted"
    held.opened.set()
    # The first insert would now land beside it: it fails instead, and writes nothing.
    with pytest.raises(StorageError, match="write lock lost"):
        await first
    assert await active_contents(processes[0]) == [fact.content]
    processes[0].storage.memories.gate = open_gate  # type: ignore[attr-defined]
    assert (await processes[0].remember(fact)).action == "duplicate"  # and locks again on a new connection


async def test_a_write_lock_whose_connection_dropped_lets_the_key_go(postgres_url: str) -> None:
    storages = [await PostgresStorage.open(postgres_url, dim=384) for _ in range(2)]
    try:
        async with storages[0].write_lock(["k"]):
            dropped = await drop_lock_connections(postgres_url)
            assert dropped == 1
        # The lock went with its connection: another process takes the key at once.
        async with storages[1].write_lock(["k"]):
            pass
        async with storages[0].write_lock(["k"]):  # and the first one, on a new connection
            pass
    finally:
        for storage in storages:
            await storage.close()


@pytest.mark.parametrize("lock", ["write", "channel"])
async def test_a_lock_whose_server_ended_it_before_its_socket_closed_lets_the_key_go(
    postgres_url: str, lock: str
) -> None:
    # The server's "terminating connection" can reach asyncpg before the socket's close does; a
    # query between the two meets asyncpg's InternalClientError, not a closed connection.
    async with HeldCloseProxy.before(postgres_url) as proxy:
        storages = [await PostgresStorage.open(url, dim=384) for url in (proxy.url, postgres_url)]
        try:

            def hold(storage: PostgresStorage) -> AbstractAsyncContextManager[None]:
                return storage.write_lock(["k"]) if lock == "write" else storage.channel_lock("k")

            async with hold(storages[0]):
                proxy.hold_next_close()
                assert await drop_lock_connections(postgres_url) == 1
                await proxy.server_ended.wait()  # the goodbye is delivered, the close held back
                if lock == "write":  # the holder's own query says its lock is gone
                    with pytest.raises(StorageError, match="write lock lost"):
                        await storages[0].db.fetchval("SELECT 1")
            async with hold(storages[1]):  # another process takes the key at once
                pass
            async with hold(storages[0]):  # and the first one, on a new connection
                pass
        finally:
            for storage in storages:
                await storage.close()


async def _wait_for_a_lock(admin: asyncpg.Connection, pid: int) -> None:
    # Each check is a round trip to the server; the other connection's wait shows there at once.
    query = "SELECT wait_event_type IS NOT DISTINCT FROM 'Lock' FROM pg_stat_activity WHERE pid = $1"
    while not await admin.fetchval(query, pid):
        pass


async def test_two_transactions_writing_turns_of_one_workspace_cannot_deadlock_on_its_word_counts(
    postgres_url: str,
) -> None:
    # Each writes a word the other wrote first: took in the order of their statements, the word
    # counts' rows would have each wait for the other (PostgreSQL aborts one: turns lost). Every
    # statement that adds a row takes its scope's totals row first (term '' sorts first), so the
    # second transaction waits at its first statement instead.
    conns = [await asyncpg.connect(postgres_url) for _ in range(3)]
    first, second, admin = conns
    try:
        one = first.transaction()
        await one.start()
        await add_turn(first, "a1", "alpha", channel="general")

        async def other() -> None:
            async with second.transaction():
                await add_turn(second, "b1", "beta", channel="random")
                await add_turn(second, "b2", "alpha", channel="random")

        waiting = asyncio.create_task(other())
        await _wait_for_a_lock(admin, second.get_server_pid())
        await add_turn(first, "a2", "beta", channel="general")
        await one.commit()
        await waiting
        counts = dict(
            await admin.fetch(
                "SELECT term, rows FROM term_counts WHERE table_name = 'messages' AND term = ANY($1)",
                ["", "alpha", "beta"],
            )
        )
        assert counts == {"": 4, "alpha": 2, "beta": 2}
    finally:
        for conn in conns:
            await conn.close()


async def test_access_counts_flushed_at_once_lock_their_memories_in_id_order(postgres_url: str) -> None:
    # Two flushes of overlapping counts (two processes on their own timers, or a flush still
    # running when the next one starts) each update many rows: taken in any other order, each
    # would wait for a row the other holds, and PostgreSQL would abort one (its counts lost).
    # In id order, the second waits at its first row, holding none the first needs.
    storage = await PostgresStorage.open(postgres_url, dim=HashEmbedder().dim)
    admin = await asyncpg.connect(postgres_url)
    try:
        rng = np.random.default_rng(7)
        # Stored last id first, so that reading the table in its own order is not id order.
        memories = [memory_row(f"Note number {n}", n) for n in reversed(range(5))]
        await storage.memories.add_many(memories, [unit_vector(rng, storage.db.dim) for _ in memories])
        ids = sorted(m.id for m in memories)
        holder = admin.transaction()
        await holder.start()
        await admin.execute("SELECT 1 FROM memories WHERE id = $1 FOR UPDATE", ids[0])
        flush = asyncio.create_task(storage.memories.bump_access({i: 1 for i in reversed(ids)}, 1.0))
        waiting = await asyncpg.connect(postgres_url)
        try:
            while not await waiting.fetchval(
                "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
                "AND wait_event_type = 'Lock'"
            ):
                pass
            # The flush waits at the first id, holding no other row: the last one is free.
            async with waiting.transaction():
                locked = await waiting.fetchval(
                    "SELECT id FROM memories WHERE id = $1 FOR UPDATE NOWAIT", ids[-1]
                )
            assert locked == ids[-1]
        finally:
            await waiting.close()
        await holder.rollback()
        await flush
        counts = dict(await admin.fetch("SELECT memory_id, access_count FROM memory_access"))
        assert counts == dict.fromkeys(ids, 1)
    finally:
        await admin.close()
        await storage.close()
