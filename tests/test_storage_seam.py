"""The storage seam: the backend factory, and an engine that needs nothing but the base classes."""

from __future__ import annotations

import inspect
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from memory.embedders import CachedEmbedder
from memory.engine import MemoryEngine
from memory.errors import ConfigError, MemoryWriteError, StorageError
from memory.models import Audience, MemoryDraft, MemoryType, Visibility
from memory.storage import (
    ConversationRepository,
    MemoryRead,
    MemoryRepository,
    PeopleRepository,
    Storage,
    SummaryRepository,
    TurnRepository,
    about_read,
    between_read,
    open_storage,
)
from memory.storage.base import MemoryQuery
from memory.storage.embedded import EmbeddedStorage
from memory.storage.postgres import PostgresStorage
from tests.helpers import GENERAL, FakeClock, audience, draft, past_turn, remember

# Tests using `engine` or `storage_location` run on both backends; the ones below that open the
# embedded backend's files themselves stay embedded-only.
STORAGE_BACKENDS = ("embedded", "postgres")

# The CLI operator reading as Alice: every memory of the workspace, her private notes included.
OPERATOR = Audience("discord", "guild-1", "default", viewer_id="alice", private_ok=True, operator=True)


# --- the factory ---------------------------------------------------------------------------------


async def test_a_directory_opens_the_embedded_backend(tmp_path: Path) -> None:
    for location in (tmp_path / "plain", f"embedded://{tmp_path / 'named'}"):
        storage = await open_storage(location, dim=16)
        try:
            assert isinstance(storage, EmbeddedStorage)
            assert isinstance(storage, Storage)
        finally:
            await storage.close()
    assert (tmp_path / "plain" / "memorybot.sqlite3").exists()
    assert (tmp_path / "named" / "memorybot.sqlite3").exists()


async def test_a_postgresql_url_opens_the_postgres_backend(postgres_url: str) -> None:
    for location in (postgres_url, postgres_url.replace("postgresql://", "postgres://", 1)):
        storage = await open_storage(location, dim=384)
        try:
            assert isinstance(storage, PostgresStorage)
        finally:
            await storage.close()


async def test_an_unreachable_database_is_a_storage_error_without_the_password() -> None:
    with pytest.raises(StorageError, match="cannot connect to PostgreSQL") as raised:
        await open_storage("postgresql://bot:s3cret-pw@127.0.0.1:1/memorybot", dim=16)
    # A connection URL carries a password: the error never repeats it.
    assert "s3cret-pw" not in str(raised.value)


async def test_an_unknown_backend_is_a_config_error(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="unknown storage backend 'mongodb'"):
        await open_storage("mongodb://user:pw@host/db", dim=16)


def test_a_backend_must_implement_every_repository_method() -> None:
    class HalfDone(MemoryRepository):
        async def delete(self, ids: Any) -> int:
            return 0

    with pytest.raises(TypeError, match="abstract"):
        HalfDone()  # type: ignore[abstract]


# --- the engine on the base classes --------------------------------------------------------------

_INTERFACES = {
    "memories": MemoryRepository,
    "turns": TurnRepository,
    "summaries": SummaryRepository,
    "people": PeopleRepository,
    "conversations": ConversationRepository,
}


def _public(interface: type) -> set[str]:
    return {name for name, _ in inspect.getmembers(interface) if not name.startswith("_")}


class _Only:
    """A repository seen through its base class: anything the interface does not declare fails."""

    def __init__(self, inner: object, interface: type) -> None:
        self._inner, self._allowed, self._name = inner, _public(interface), interface.__name__

    def __getattr__(self, name: str) -> Any:
        if name not in self._allowed:
            raise AttributeError(f"{self._name} has no {name!r}: the engine reached past the seam")
        return getattr(self._inner, name)


class SeamOnly(Storage):
    """A `Storage` that forwards to a backend but exposes only the base classes."""

    def __init__(self, inner: Storage) -> None:
        self._inner = inner
        for attribute, interface in _INTERFACES.items():
            setattr(self, attribute, _Only(getattr(inner, attribute), interface))

    async def close(self) -> None:
        await self._inner.close()

    async def reconcile(self, embed: Any) -> Any:
        return await self._inner.reconcile(embed)

    @property
    def needs_maintenance(self) -> bool:
        return self._inner.needs_maintenance

    async def repair_turns(self, embed: Any) -> int:
        return await self._inner.repair_turns(embed)

    async def _index_turns(self, embed: Any) -> int:
        return await self._inner._index_turns(embed)

    async def maintain(self, embed: Any) -> None:
        await self._inner.maintain(embed)

    async def warm(self) -> int:
        return await self._inner.warm()


@pytest.fixture
async def seam_engine(
    storage_location: str | Path, embedder: CachedEmbedder, clock: FakeClock
) -> AsyncIterator[MemoryEngine]:
    inner = await open_storage(storage_location, dim=embedder.dim)
    engine = MemoryEngine(SeamOnly(inner), embedder, clock=clock)
    yield engine
    await engine.close()


async def test_the_engine_writes_and_reads_through_the_base_classes_only(
    seam_engine: MemoryEngine, clock: FakeClock
) -> None:
    engine = seam_engine
    assert (await engine.reconcile()).details == []
    first = await engine.remember(draft("Alice works on the billing service"))
    assert first.action == "inserted"
    assert (await engine.remember(draft("Alice works on the billing service"))).action == "duplicate"
    private = await engine.remember(
        MemoryDraft(
            "Alice's badge number is 4411", scope=GENERAL, author_id="alice", visibility=Visibility.PRIVATE
        )
    )
    assert [h.memory.id for h in await engine.search("billing service", audience(), threshold=0.0)][:1] == [
        first.memory.id
    ]
    assert private.memory.id not in {
        h.memory.id for h in await engine.search("badge", audience("bob"), threshold=0.0)
    }
    imported = await engine.import_memories([draft("Bob likes tea"), draft("Carol runs the Lisbon office")])
    assert len(imported) == 2
    assert await engine.count_memories(OPERATOR) == 4

    clock.advance(60)
    turns = [past_turn("where is the Lisbon office?", clock()), past_turn("near the river", clock() + 1)]
    assert await engine.store_messages(turns) == [t.id for t in turns]
    assert [m.id for m in await engine.recent_turns(GENERAL, 10)] == [t.id for t in turns]
    found = await engine.search_messages("Lisbon office", audience(), threshold=0.0)
    assert turns[0].id in {m.id for m, _ in found}

    about = (await engine.remember(draft("Alice broke her shoulder", user_id="alice"))).memory
    renamed = await engine.rename_person(GENERAL, "alice", ["Alice"], "Ally")
    assert about.id in {m.id for m in renamed}
    assert "Ally" in (await engine.visible_memory(about.id, OPERATOR)).content  # type: ignore[union-attr]
    assert await engine.forget(first.memory.id, OPERATOR) is not None
    assert await engine.visible_memory(first.memory.id, OPERATOR) is None
    await engine.maintain()
    assert await engine.sweep_expired() == 0


async def test_a_memory_listing_ends_where_until_says_as_between_does(
    engine: MemoryEngine, clock: FakeClock
) -> None:
    # `between` is a `MemoryQuery` with an end; the same end narrows a listing and a count.
    made = [await remember(engine, clock, f"Alice note {n}", scope=GENERAL, user="alice") for n in range(4)]
    since, until = made[1].created_at, made[3].created_at
    window = MemoryQuery(since=since, until=until)
    assert [m.id for m in await engine.list_memories(OPERATOR, window)] == [made[2].id, made[1].id]
    assert await engine.count_memories(OPERATOR, window) == 2
    between = await engine.storage.memories.between(OPERATOR, clock(), since, until)
    assert [m.id for m in between] == [made[2].id, made[1].id]


async def test_recent_turns_end_and_start_where_before_and_after_say(engine: MemoryEngine) -> None:
    # The thread summary reads the turns after its end with `after`; the limit keeps the newest.
    turns = [past_turn(f"turn {n}", 1000.0 + n * 10) for n in range(6)]
    await engine.store_messages(turns)
    ids = [t.id for t in turns]

    async def recent(**bounds: float) -> list[str]:
        return [t.id for t in await engine.storage.turns.recent(GENERAL, 3, **bounds)]

    assert await recent() == ids[3:]
    assert await recent(after=1020.0) == ids[3:]
    assert await recent(after=1030.0) == ids[4:]
    assert await recent(before=1030.0) == ids[:3]
    assert await recent(after=1000.0, before=1030.0) == ids[1:3]
    assert await recent(after=1050.0) == []


async def test_many_reads_at_once_give_what_each_read_gives_alone(
    engine: MemoryEngine, clock: FakeClock
) -> None:
    # Ties on purpose: two memories written in the same second, several of one importance.
    for n, (user, kind) in enumerate(
        [("alice", MemoryType.IDENTITY), ("bob", MemoryType.IDENTITY), ("alice", MemoryType.FACT)] * 3
    ):
        if n % 2 == 0:
            clock.advance(1)
        await engine.remember(draft(f"note {n} on {user}", user_id=user, memory_type=kind))
    now = clock()
    reads = [
        about_read(["alice", "bob"], [MemoryType.IDENTITY], limit=4),
        MemoryRead(MemoryQuery(order="important", limit=5)),
        MemoryRead(MemoryQuery(limit=4, offset=2)),
        between_read(now - 3, now, limit=20),
        MemoryRead(MemoryQuery(types=[MemoryType.FACT], user_ids=["nobody"])),
    ]
    memories = engine.storage.memories
    together: dict[str, Any] = {}
    many = await memories.read_many(OPERATOR, now, reads, together)
    alone: dict[str, Any] = {}
    each = [
        await memories.about(OPERATOR, now, ["alice", "bob"], [MemoryType.IDENTITY], limit=4, vectors=alone),
        await memories.query(OPERATOR, now, reads[1].query, alone),
        await memories.query(OPERATOR, now, reads[2].query, alone),
        await memories.between(OPERATOR, now, now - 3, now, limit=20, vectors=alone),
        await memories.query(OPERATOR, now, reads[4].query, alone),
    ]
    assert [[m.id for m in rows] for rows in many] == [[m.id for m in rows] for rows in each]
    assert [len(rows) for rows in many] == [4, 5, 4, 5, 0]
    assert together.keys() == alone.keys() and all((together[k] == alone[k]).all() for k in alone)


async def test_a_failed_vector_write_rolls_the_embedded_row_back(
    tmp_path: Path, embedder: CachedEmbedder, clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The two-store write is the embedded backend's own business: tested on its repository.
    storage = await EmbeddedStorage.open(tmp_path / "data", dim=embedder.dim)
    engine = MemoryEngine(storage, embedder, clock=clock)
    try:
        memory = engine.build_memory(draft("Erin moved to Berlin"))
        vector = (await embedder.embed([memory.content]))[0]

        async def broken_add(records: object) -> None:
            raise OSError("disk full")

        monkeypatch.setattr(storage.vectors.memories, "insert", broken_add)
        with pytest.raises(MemoryWriteError, match="vector store write failed, memory not saved: disk full"):
            await storage.memories.add(memory, vector, None, clock())
        assert await storage.memories.get_unscoped([memory.id]) == []
        assert await storage.memories.unindexed() == []
        with pytest.raises(MemoryWriteError, match="batch not saved"):
            await storage.memories.add_many([memory], [vector])
        assert await storage.memories.get_unscoped([memory.id]) == []
    finally:
        await engine.close()
