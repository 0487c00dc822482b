"""Bulk import: validated up front, exact duplicates skipped, one embed and one write per batch."""

from __future__ import annotations

import pytest

from memory.engine import MemoryEngine, MemoryWriteError
from memory.models import Memory, MemoryDraft, MemoryType, Scope, Visibility
from tests.fakes.embedders import CountingEmbedder
from tests.helpers import GENERAL as SCOPE
from tests.helpers import OPERATOR, FailingCall, listed


def draft(content: str, **kw: object) -> MemoryDraft:
    kw.setdefault("scope", SCOPE)
    return MemoryDraft(content=content, **kw)  # type: ignore[arg-type]


async def test_import_stores_rows_and_vectors_marked_indexed(engine: MemoryEngine) -> None:
    drafts = [
        draft("Alice lives in Lisbon", memory_type=MemoryType.IDENTITY, subjects=["alice"], user_id="alice"),
        draft("Bob prefers tea over coffee", memory_type=MemoryType.PREFERENCE, sources=["m1", "m2"]),
        draft("The billing service is written in Go", created_at=1_700_000_000.0),
    ]
    inserted = await engine.import_memories(drafts)

    assert [m.content for m in inserted] == [d.content for d in drafts]
    assert await listed(engine) == sorted(d.content for d in drafts)
    ids = {m.id for m in inserted}
    assert await engine.storage.memories.indexed_ids() == ids
    assert await engine.storage.vectors.memories.ids() == ids
    assert await engine.storage.memories.unindexed() == []
    rows = {m.content: m for m in await engine.storage.memories.get_unscoped(list(ids))}
    assert rows["Bob prefers tea over coffee"].sources == ["m1", "m2"]
    assert rows["The billing service is written in Go"].created_at == 1_700_000_000.0
    assert rows["Alice lives in Lisbon"].importance == 1.0  # the type's default, as remember() sets
    # The stored vector is the embedding of the content, so the pre-hook can compare without re-embedding.
    stored = await engine.storage.memories.embeddings([inserted[0].id])
    expected = (await engine.embedder.embed(["Alice lives in Lisbon"]))[0]
    assert float(stored[inserted[0].id] @ expected) == pytest.approx(1.0, abs=1e-5)
    hits = await engine.search("where does Alice live?", OPERATOR, threshold=0.2)
    assert hits and hits[0].memory.content == "Alice lives in Lisbon"


async def test_one_embed_call_per_batch(engine: MemoryEngine) -> None:
    counting = CountingEmbedder(engine.embedder)
    engine.embedder = counting
    drafts = [
        draft(f"Project {name} ships on Friday") for name in ("atlas", "borealis", "cirrus", "delta", "eos")
    ]

    inserted = await engine.import_memories(drafts, batch_size=2)

    assert len(inserted) == 5
    assert [len(call) for call in counting.calls] == [2, 2, 1]


async def test_exact_duplicates_are_skipped_within_the_import_and_against_the_store(
    engine: MemoryEngine,
) -> None:
    await engine.remember(draft("Carol owns the Kafka migration"))
    drafts = [
        draft("carol owns   the Kafka migration"),  # same normalised text as the stored one
        draft("Dave is on call this sprint"),
        draft("Dave is on call this sprint"),  # repeated inside the import
        draft("Dave is on call this sprint", scope=Scope("discord", "guild-2", "general", "default")),
    ]
    inserted = await engine.import_memories(drafts)

    assert [(m.content, m.workspace_id) for m in inserted] == [
        ("Dave is on call this sprint", "guild-1"),
        ("Dave is on call this sprint", "guild-2"),
    ]
    assert await listed(engine) == ["Carol owns the Kafka migration", "Dave is on call this sprint"]
    # Re-running the same import is a no-op.
    assert await engine.import_memories(drafts) == []


async def test_channel_and_private_duplicates_follow_their_scope(engine: MemoryEngine) -> None:
    general = SCOPE
    random_ = Scope("discord", "guild-1", "random", "default")
    drafts = [
        draft("The deploy freeze starts Monday", scope=general, visibility=Visibility.CHANNEL),
        draft("The deploy freeze starts Monday", scope=random_, visibility=Visibility.CHANNEL),
        draft("The deploy freeze starts Monday", scope=random_, visibility=Visibility.CHANNEL),
        draft("My PIN hint is the cat", visibility=Visibility.PRIVATE, author_id="erin"),
        draft("My PIN hint is the cat", visibility=Visibility.PRIVATE, author_id="frank"),
        draft("My PIN hint is the cat", visibility=Visibility.PRIVATE, author_id="erin"),
    ]
    inserted = await engine.import_memories(drafts)

    assert [(m.channel_id, m.author_id) for m in inserted] == [
        ("general", None),
        ("random", None),
        ("general", "erin"),
        ("general", "frank"),
    ]


async def test_an_invalid_draft_fails_the_import_before_anything_is_written(engine: MemoryEngine) -> None:
    drafts = [draft("A valid memory"), draft("   "), draft("Another valid one")]
    with pytest.raises(ValueError, match="draft 1"):
        await engine.import_memories(drafts)
    assert await listed(engine) == []
    assert await engine.storage.vectors.memories.count() == 0


async def test_a_failed_vector_write_rolls_back_only_its_batch(
    engine: MemoryEngine, monkeypatch: pytest.MonkeyPatch
) -> None:
    table = engine.storage.vectors.memories
    monkeypatch.setattr(table, "insert", FailingCall(table.insert, 2, OSError("disk full")))
    drafts = [draft(f"Fact number {word} about the roadmap") for word in ("one", "two", "three", "four")]

    with pytest.raises(MemoryWriteError, match="disk full"):
        await engine.import_memories(drafts, batch_size=2)

    assert await listed(engine) == ["Fact number one about the roadmap", "Fact number two about the roadmap"]
    assert await engine.storage.memories.unindexed() == []  # no half-written rows left to repair
    assert len(await table.ids()) == 2


async def test_listeners_hear_every_inserted_memory(engine: MemoryEngine) -> None:
    heard: list[Memory] = []
    engine.on_write(heard.append)
    await engine.remember(draft("Grace likes sushi", memory_type=MemoryType.PREFERENCE))
    heard.clear()

    inserted = await engine.import_memories(
        [draft("Grace likes sushi", memory_type=MemoryType.PREFERENCE), draft("Heidi likes ramen")]
    )

    assert [m.content for m in heard] == ["Heidi likes ramen"]
    assert [m.id for m in heard] == [m.id for m in inserted]


async def test_batch_size_must_be_positive(engine: MemoryEngine) -> None:
    with pytest.raises(ValueError, match="batch_size"):
        await engine.import_memories([draft("x")], batch_size=0)
