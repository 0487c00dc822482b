"""The memory engine on real SQLite and LanceDB files with the real local model."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import aiosqlite
import pytest

from memory.embedders import CachedEmbedder
from memory.engine import MemoryEngine, MemoryWriteError, StorageError
from memory.models import Audience, Fact, MemoryDraft, MemoryType, Predicate, Scope, StoredMessage, Visibility
from memory.storage import MemoryQuery
from memory.storage.embedded.migrations import MIGRATIONS
from memory.storage.embedded.vector_table import VectorTable
from memory.storage.rows import fact_json, fact_of_json
from memory.ttl import TTLError
from tests.helpers import GENERAL as SCOPE
from tests.helpers import OPERATOR, FakeClock, listed, searchable_memory_ids, stored_memory

# Every test through `engine` runs on both backends; those opening a data directory themselves
# (migrations of the SQLite file, crashes between SQLite and LanceDB) are the embedded one's.
STORAGE_BACKENDS = ("embedded", "postgres")


def draft(content: str, **kw: object) -> MemoryDraft:
    kw.setdefault("scope", SCOPE)
    return MemoryDraft(content=content, **kw)  # type: ignore[arg-type]


async def test_migrations_create_schema_and_are_idempotent(tmp_path: Path, embedder: CachedEmbedder) -> None:
    engine = await MemoryEngine.open(tmp_path, embedder)
    await engine.close()
    engine = await MemoryEngine.open(tmp_path, embedder)  # second open applies nothing new
    await engine.close()
    async with aiosqlite.connect(tmp_path / "memorybot.sqlite3") as db:
        async with db.execute("SELECT name FROM _migrations") as cur:
            assert [r[0] for r in await cur.fetchall()] == [name for name, _ in MIGRATIONS]
        async with db.execute("SELECT name FROM sqlite_master WHERE type IN ('table', 'index')") as cur:
            names = {r[0] for r in await cur.fetchall()}
        async with db.execute("PRAGMA journal_mode") as cur:
            assert (await cur.fetchone())[0] == "wal"  # type: ignore[index]
    assert {"memories", "messages", "summaries", "profiles", "aliases", "memory_subjects"} <= names
    assert {
        "ix_memories_scope_type",
        "ix_memories_scope_importance",
        "ix_memories_scope_created",
        "ix_memories_expires",
    } <= names


async def test_unknown_newer_migration_refuses_to_open(tmp_path: Path, embedder: CachedEmbedder) -> None:
    engine = await MemoryEngine.open(tmp_path, embedder)
    await engine.close()
    async with aiosqlite.connect(tmp_path / "memorybot.sqlite3") as db:
        await db.execute("INSERT INTO _migrations VALUES ('m999_future', 0)")
        await db.commit()
    with pytest.raises(RuntimeError, match="newer memorybot"):
        await MemoryEngine.open(tmp_path, embedder)


async def test_insert_sets_defaults_and_writes_both_stores(engine: MemoryEngine, clock: FakeClock) -> None:
    result = await engine.remember(
        draft(
            "Alice's favourite editor is Helix",
            memory_type=MemoryType.PREFERENCE,
            subjects=["Alice", "editor"],
        )
    )
    assert result.action == "inserted"
    memory = result.memory
    assert memory.importance == 0.7  # preference default
    assert memory.subjects == ["alice", "editor"]
    assert memory.created_at == clock.now
    assert await searchable_memory_ids(engine) == {memory.id}
    assert (await stored_memory(engine, memory.id)) is not None


async def test_a_memory_keeps_its_fact_as_fields(engine: MemoryEngine) -> None:
    located = Fact("", Predicate.LOCATION, "lives in Lyon")
    named = Fact("", Predicate.RELATIVE, "Léa\ud800", "sister")
    for content, fact in [("Mickael lives in Lyon", located), ("Mickael's sister is called Léa", named)]:
        written = (await engine.remember(draft(content, memory_type=MemoryType.IDENTITY, fact=fact))).memory
        stored = await stored_memory(engine, written.id)
        assert stored is not None and stored.fact == dataclasses.replace(
            fact, object=fact.object.replace("\ud800", "?")
        )
    # a memory without one (the model's words) reads back without one
    plain = (await engine.remember(draft("Mickael keeps bees"))).memory
    assert (await stored_memory(engine, plain.id)).fact is None  # type: ignore[union-attr]


@pytest.mark.parametrize(
    "stored",
    [None, "", "not json", "[]", "{}", '{"predicate": "sings", "object": "x"}', '{"predicate": "job"}'],
)
def test_a_fact_column_this_version_cannot_read_is_no_fact(stored: object) -> None:
    # The memory's words are read instead (a newer version's predicate, a damaged row).
    assert fact_of_json(stored) is None


def test_a_fact_column_round_trips() -> None:
    fact = Fact("", Predicate.FAVORITE, "a flat white", "favorite order")
    assert fact_of_json(fact_json(fact, str)) == fact
    assert fact_of_json(fact_json(Fact("Léa", Predicate.JOB, "nurse"), str)) == Fact(
        "Léa", Predicate.JOB, "nurse"
    )


async def test_exact_duplicate_is_a_no_op(engine: MemoryEngine) -> None:
    first = await engine.remember(draft("Bob plays the cello"))
    second = await engine.remember(draft("  bob plays   the CELLO "))
    assert second.action == "duplicate"
    assert second.memory.id == first.memory.id
    assert await engine.storage.memories.indexed_count() == 1


async def test_refinement_supersedes_and_keeps_old_as_forgotten(engine: MemoryEngine) -> None:
    old = (await engine.remember(draft("Mickael broke his shoulder"))).memory
    new = await engine.remember(draft("Mickael broke his shoulder on 10 January 2026"))
    assert new.action == "superseded" and new.replaced is not None and new.replaced.id == old.id
    assert await listed(engine) == ["Mickael broke his shoulder on 10 January 2026"]
    kept = await stored_memory(engine, old.id)
    assert kept is not None and kept.forgotten and kept.superseded_by == new.memory.id
    assert await searchable_memory_ids(engine) == {new.memory.id}
    restored = await engine.undo_supersede(new.memory.id)
    assert restored.id == old.id
    assert len(await listed(engine)) == 2


async def test_french_refinement_supersedes(engine: MemoryEngine) -> None:
    await engine.remember(draft("Mickael s'est cassé l'épaule"))
    result = await engine.remember(draft("Mickael s'est cassé l'épaule le 10 janvier 2026"))
    assert result.action == "superseded"
    assert await listed(engine) == ["Mickael s'est cassé l'épaule le 10 janvier 2026"]


async def test_distinct_facts_stay_apart(engine: MemoryEngine) -> None:
    await engine.remember(draft("David lives in Paris"))
    result = await engine.remember(draft("David has a son"))
    assert result.action == "inserted"
    assert await listed(engine) == ["David has a son", "David lives in Paris"]


async def test_less_precise_repeat_is_covered(engine: MemoryEngine) -> None:
    await engine.remember(draft("Mickael broke his shoulder on 10 January 2026"))
    result = await engine.remember(draft("Mickael broke his shoulder"))
    assert result.action == "covered"
    assert len(await listed(engine)) == 1


async def test_dedup_never_crosses_scopes(engine: MemoryEngine) -> None:
    await engine.remember(draft("Mickael broke his shoulder"))
    other = Scope("discord", "guild-2", "general", "default")
    result = await engine.remember(draft("Mickael broke his shoulder on 10 January 2026", scope=other))
    assert result.action == "inserted"
    assert await listed(engine) == ["Mickael broke his shoulder"]
    private = await engine.remember(
        draft("Mickael broke his shoulder", visibility=Visibility.PRIVATE, author_id="mickael")
    )
    assert private.action == "inserted"  # a DM note is not merged into the workspace's memory


async def test_bad_input_is_rejected_and_nothing_written(engine: MemoryEngine) -> None:
    for content, match in [("   ", "empty"), ("x" * 5000, "too long")]:
        with pytest.raises(ValueError, match=match):
            await engine.remember(draft(content))
    with pytest.raises(TTLError):
        await engine.remember(draft("Standup moved to 10am", ttl="tomorrow"))
    with pytest.raises(ValueError, match="importance"):
        await engine.remember(draft("Standup moved to 10am", importance=3))
    assert await engine.storage.memories.indexed_count() == 0
    assert await engine.storage.memories.count(OPERATOR, 0) == 0


async def test_ttl_and_sweep_remove_from_both_stores(engine: MemoryEngine, clock: FakeClock) -> None:
    short = (await engine.remember(draft("The office is closed today", ttl="1h"))).memory
    long = (await engine.remember(draft("The release freeze lasts a month", ttl="30d"))).memory
    permanent = (await engine.remember(draft("Carol is the release manager"))).memory
    assert short.expires_at == clock.now + 3600
    assert permanent.expires_at is None
    clock.advance(2 * 3600)
    # Expired memories vanish from queries at once, before any sweep.
    assert short.id not in {m.id for m in await engine.list_memories(OPERATOR)}
    assert await engine.sweep_expired() == 1
    assert await stored_memory(engine, short.id) is None
    assert await searchable_memory_ids(engine) == {long.id, permanent.id}
    clock.advance(31 * 86400)
    assert await engine.sweep_expired() == 1
    assert await searchable_memory_ids(engine) == {permanent.id}


async def test_forget_deletes_from_both_stores(engine: MemoryEngine) -> None:
    memory = (await engine.remember(draft("Dana's badge number is 4411"))).memory
    outsider = Audience("discord", "guild-2", "default", operator=True)
    assert await engine.forget(memory.id, outsider) is None  # not visible there: refused
    assert await engine.forget(memory.id, OPERATOR) is not None
    assert await stored_memory(engine, memory.id) is None
    assert memory.id not in await searchable_memory_ids(engine)
    assert await engine.search("badge number", OPERATOR) == []
    assert await engine.forget("does-not-exist", OPERATOR) is None


@pytest.mark.embedded_only("breaks the LanceDB write; PostgreSQL writes row and vector in one statement")
async def test_failed_vector_write_leaves_no_half_written_memory(
    engine: MemoryEngine, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def broken_add(records: object) -> None:
        raise OSError("disk full")

    monkeypatch.setattr(engine.storage.vectors.memories, "insert", broken_add)
    with pytest.raises(MemoryWriteError, match="not saved"):
        await engine.remember(draft("Erin moved to Berlin"))
    assert await engine.storage.memories.count(OPERATOR, 0) == 0
    assert await engine.storage.memories.unindexed() == []


async def test_reconcile_after_crash_between_the_two_writes(
    tmp_path: Path, embedder: CachedEmbedder, clock: FakeClock
) -> None:
    engine = await MemoryEngine.open(tmp_path, embedder, clock=clock)
    kept = (await engine.remember(draft("Frank speaks Portuguese"))).memory
    # Crash 1: the row was committed but the process died before the vector write.
    orphan_row = engine.build_memory(draft("Grace runs the Lisbon office"))
    await engine.storage.memories.insert_row(orphan_row, None)
    # Crash 2: a vector whose row was deleted (died between the SQLite and the LanceDB delete).
    gone = (await engine.remember(draft("Heidi owns the billing service"))).memory
    await engine.storage.memories.delete_rows([gone.id])
    await engine.close()

    engine = await MemoryEngine.open(tmp_path, embedder, clock=clock)
    try:
        assert await searchable_memory_ids(engine) == {kept.id, orphan_row.id}
        assert await engine.storage.memories.unindexed() == []
        hits = await engine.search("who runs the office in Lisbon?", OPERATOR)
        assert hits and hits[0].memory.id == orphan_row.id
        again = await engine.reconcile()
        assert again.details == []  # nothing left to repair
    finally:
        await engine.close()


async def test_opening_a_consistent_store_reads_each_vector_tables_ids_once(
    tmp_path: Path, embedder: CachedEmbedder, clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    engine = await MemoryEngine.open(tmp_path, embedder, clock=clock)
    await engine.remember(draft("Frank speaks Portuguese"))
    await engine.store_messages([StoredMessage("t1", SCOPE, "jo", "Jo", "user", "Lunch at noon?", clock.now)])
    await engine.close()
    reads: list[str] = []
    read_ids = VectorTable.ids

    async def counted(table: VectorTable) -> set[str]:
        reads.append(table.name)
        return await read_ids(table)

    monkeypatch.setattr(VectorTable, "ids", counted)
    engine = await MemoryEngine.open(tmp_path, embedder, clock=clock)
    try:
        # Nothing to repair: the ids read to find lost vectors also tell the stray ones.
        assert sorted(reads) == ["memories", "messages"]
        assert await searchable_memory_ids(engine) == {m.id for m in await engine.list_memories(OPERATOR)}
    finally:
        await engine.close()


@pytest.mark.model  # repaired vectors are found by paraphrase
async def test_failed_message_vector_write_and_lost_vectors_are_repaired_on_open(
    tmp_path: Path, embedder: CachedEmbedder, clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    engine = await MemoryEngine.open(tmp_path, embedder, clock=clock)
    turn = StoredMessage(
        "t1", SCOPE, "jo", "Jo", "user",
        "The printer on floor two is jammed again", clock.now,
    )  # fmt: skip

    async def broken_add(records: object) -> None:
        raise OSError("disk full")

    monkeypatch.setattr(engine.storage.vectors.messages, "insert", broken_add)
    # A turn is not lost to a failed vector write: the row is kept and queued for repair.
    assert await engine.store_messages([turn]) == ["t1"]
    monkeypatch.undo()
    assert [m.id for m, _ in await engine.storage.turns.unindexed()] == ["t1"]
    assert engine.needs_maintenance
    # LanceDB lost a write its row says landed (a power cut after the commit).
    lost = (await engine.remember(draft("Ivy keeps the spare office keys"))).memory
    await engine.storage.vectors.memories.delete([lost.id])
    await engine.close()  # the process ends before any background repair

    engine = await MemoryEngine.open(tmp_path, embedder, clock=clock)
    try:
        assert await engine.storage.vectors.messages.ids() == {"t1"}
        assert await searchable_memory_ids(engine) == {lost.id}
        assert await engine.storage.turns.unindexed() == []
        hits = await engine.search("who has the spare keys?", OPERATOR)
        assert hits and hits[0].memory.id == lost.id
        found = await engine.search_messages("printer jammed", OPERATOR)
        assert [m.id for m, _ in found] == ["t1"]
        assert (await engine.reconcile()).details == []
    finally:
        await engine.close()


async def test_scope_filters_for_queries_and_search(engine: MemoryEngine) -> None:
    await engine.remember(
        draft("Ivan is the on-call engineer", memory_type=MemoryType.IDENTITY, user_id="ivan")
    )
    await engine.remember(
        draft(
            "Ivan's salary review is in March 2027",
            visibility=Visibility.PRIVATE,
            author_id="ivan",
            user_id="ivan",
            scope=Scope("discord", "guild-1", "dm-ivan"),
        )
    )
    await engine.remember(
        draft(
            "Ops channel uses the red runbook",
            visibility=Visibility.CHANNEL,
            scope=Scope("discord", "guild-1", "ops"),
        )
    )
    await engine.remember(
        draft("Ivan likes green tea", scope=Scope("discord", "guild-1", "general", "other-agent"))
    )
    await engine.remember(draft("Ivan moved to Oslo", scope=Scope("slack", "guild-1", "general")))

    in_general = Audience("discord", "guild-1", "default", viewer_id="ivan", channel_id="general")
    in_ops = Audience("discord", "guild-1", "default", viewer_id="judy", channel_id="ops")
    ivan_dm = Audience(
        "discord", "guild-1", "default", viewer_id="ivan", channel_id="dm-ivan", private_ok=True
    )
    judy_dm = Audience(
        "discord", "guild-1", "default", viewer_id="judy", channel_id="dm-judy", private_ok=True
    )

    assert await listed(engine, in_general) == ["Ivan is the on-call engineer"]
    assert await listed(engine, in_ops) == [
        "Ivan is the on-call engineer",
        "Ops channel uses the red runbook",
    ]
    assert "Ivan's salary review is in March 2027" in await listed(engine, ivan_dm)
    assert "Ivan's salary review is in March 2027" not in await listed(engine, judy_dm)
    assert "Ivan's salary review is in March 2027" not in await listed(
        engine, OPERATOR
    )  # admins never see DMs
    for audience in (in_general, judy_dm, OPERATOR):
        found = [h.memory.content for h in await engine.search("Ivan salary review", audience, threshold=0.0)]
        assert "Ivan's salary review is in March 2027" not in found
        assert "Ivan likes green tea" not in found and "Ivan moved to Oslo" not in found
    found = [h.memory.content for h in await engine.search("Ivan salary review", ivan_dm, threshold=0.0)]
    assert found[0] == "Ivan's salary review is in March 2027"


async def test_query_api_by_subject_type_recent_important(engine: MemoryEngine, clock: FakeClock) -> None:
    await engine.remember(draft("Kim is the CTO", memory_type=MemoryType.IDENTITY, subjects=["kim"]))
    clock.advance(10 * 3600)
    await engine.remember(
        draft("Kim prefers async standups", memory_type=MemoryType.PREFERENCE, subjects=["kim"])
    )
    await engine.remember(
        draft("The team chose Rust for the agent", memory_type=MemoryType.DECISION, subjects=["rust"])
    )
    assert [m.content for m in await engine.by_subject(OPERATOR, ["KIM"])] == [
        "Kim prefers async standups",
        "Kim is the CTO",
    ]
    assert [m.content for m in await engine.by_type(OPERATOR, MemoryType.DECISION)] == [
        "The team chose Rust for the agent"
    ]
    recent = await engine.recent(OPERATOR, "6h")
    assert "Kim is the CTO" not in [m.content for m in recent] and len(recent) == 2
    important = await engine.important(OPERATOR, 0.8)
    assert [m.content for m in important] == ["Kim is the CTO", "The team chose Rust for the agent"]
    assert (
        await engine.storage.memories.count(OPERATOR, clock.now, MemoryQuery(types=[MemoryType.IDENTITY]))
        == 1
    )


async def test_search_ranks_the_relevant_memory_first(engine: MemoryEngine) -> None:
    for text in [
        "Liam's daughter is called Rose",
        "The deploy pipeline runs on GitHub Actions",
        "Liam is allergic to peanuts",
        "Quarterly planning happens in January",
    ]:
        await engine.remember(draft(text))
    hits = await engine.search("what is Liam allergic to?", OPERATOR)
    assert hits[0].memory.content == "Liam is allergic to peanuts"
    assert all(h.score >= 0.5 for h in hits)
    assert await engine.search("   ", OPERATOR) == []


@pytest.mark.embedded_only("LanceDB compaction; PostgreSQL indexes on every write")
async def test_maintenance_compacts_after_many_writes_and_keeps_data(engine: MemoryEngine) -> None:
    people = ["Ana", "Ben", "Cleo", "Dev", "Eli", "Fay", "Gus", "Hal", "Ivy", "Jo", "Kai", "Lea"]
    things = [
        "chess",
        "kayaking",
        "opera",
        "sourdough",
        "climbing",
        "jazz",
        "origami",
        "cycling",
        "poetry",
        "go",
    ]
    for person in people:
        for thing in things:
            await engine.remember(draft(f"{person} took up {thing} in {1990 + len(person + thing)}"))
    count = await engine.storage.memories.indexed_count()
    assert count > 100 and engine.needs_maintenance
    await engine.maintain()
    assert not engine.needs_maintenance
    assert await engine.storage.memories.indexed_count() == count
    hits = await engine.search("Cleo origami", OPERATOR, threshold=0.0)
    assert "Cleo took up origami in 2001" in [h.memory.content for h in hits]


async def test_a_rename_that_fails_part_way_still_tells_the_caches_what_it_rewrote(
    engine: MemoryEngine, monkeypatch: pytest.MonkeyPatch
) -> None:
    for content in ("Root broke their shoulder", "Root plays the cello"):
        await engine.remember(draft(content, user_id="u1"))
    heard: list[str] = []
    engine.on_write(lambda memory: heard.append(memory.content))
    rewrite = engine.storage.memories.rewrite
    calls = 0

    async def fail_second(memory: object, vector: object) -> None:
        nonlocal calls
        calls += 1
        if calls == 2:
            raise StorageError("write lock lost with its connection")
        await rewrite(memory, vector)  # type: ignore[arg-type]

    monkeypatch.setattr(engine.storage.memories, "rewrite", fail_second)
    with pytest.raises(StorageError, match="lock lost"):
        await engine.rename_person(SCOPE, "u1", ["Root"], "Mickael")
    # The first rewrite is stored and its listeners heard of it; the second kept the old name.
    stored = await listed(engine)
    assert len([c for c in stored if c.startswith("Mickael")]) == 1, stored
    assert len([c for c in stored if c.startswith("Root")]) == 1, stored
    assert [c for c in heard if c.startswith("Mickael")] == [c for c in stored if c.startswith("Mickael")]


async def test_a_kind_note_is_written_beside_the_statement_it_refines(engine: MemoryEngine) -> None:
    said = "Léa finished her first screenplay on Friday 27 May 2022"
    note = "Léa's written works include screenplay: Léa finished her first screenplay on Friday 27 May 2022"
    # Untagged, the note is a refinement of the statement (it holds all its words) ...
    await engine.remember(draft(said))
    assert (await engine.remember(draft(note))).action == "superseded"
    # ... tagged as one instance of a kind, it is written beside the statement, which stays.
    other = Scope("discord", "guild-2", "general", "default")
    kind = ["léa", "kind:made", "screenplay"]
    await engine.remember(draft(said, scope=other))
    assert (await engine.remember(draft(note, scope=other, subjects=kind))).action == "inserted"
    # Two notes of one kind still merge as any refinement does.
    longer = note + " and printed it"
    assert (await engine.remember(draft(longer, scope=other, subjects=kind))).action == "superseded"
