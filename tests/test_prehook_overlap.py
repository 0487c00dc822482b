"""The pre-hook's reads that need no query vector run while the query is embedded, on both backends."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import Any

import numpy as np
import pytest

from memory.embedders import WrappedEmbedder
from memory.engine import MemoryEngine
from memory.errors import EmbeddingError
from memory.prehook import PreHook, PrehookConfig
from memory.storage.postgres import PostgresStorage
from tests.helpers import FakeClock, draft, spy_on_fetch
from tests.helpers import prehook_request as request

STORAGE_BACKENDS = ("embedded", "postgres")

# Loop turns the test embedder gives the other tasks before it answers: enough for the pre-hook's
# tasks to reach their first statements (a handful of turns), no wall-clock wait.
LOOP_TURNS = 50


class WatchingEmbedder(WrappedEmbedder):
    """Lets the event loop turn `LOOP_TURNS` times before embedding, then notes what had begun by
    then (`seen_at_embed`, a copy of `started`); fails instead when `fail` is set."""

    def __init__(self, inner: Any, started: list[str]) -> None:
        super().__init__(inner)
        self.started = started
        self.seen_at_embed: list[str] | None = None
        self.fail = False

    async def embed(self, texts: Sequence[str]) -> np.ndarray:
        for _ in range(LOOP_TURNS):
            await asyncio.sleep(0)
        self.seen_at_embed = list(self.started)
        if self.fail:
            raise EmbeddingError("embedding service unavailable (injected fault)")
        return await self.inner.embed(texts)


@pytest.fixture
def started() -> list[str]:
    return []


@pytest.fixture
def watching(engine: MemoryEngine, started: list[str], monkeypatch: pytest.MonkeyPatch) -> WatchingEmbedder:
    """The engine's embedder, watched; the memories' SQL listing and (PostgreSQL) every statement
    note when they begin."""
    wrapper = WatchingEmbedder(engine.embedder, started)
    engine.embedder = wrapper  # type: ignore[assignment]
    memories = engine.storage.memories
    read_many = memories.read_many

    async def spy_read_many(*args: Any, **kwargs: Any) -> Any:
        started.append("read_many")
        return await read_many(*args, **kwargs)

    monkeypatch.setattr(memories, "read_many", spy_read_many)
    if isinstance(engine.storage, PostgresStorage):
        spy_on_fetch(monkeypatch, engine.storage, lambda sql, _: started.append(sql))
    return wrapper


async def test_sql_sources_and_full_text_start_before_the_embedding_is_done(
    engine: MemoryEngine, watching: WatchingEmbedder, started: list[str], clock: FakeClock
) -> None:
    await engine.remember(draft("Alice's quokka is named Pip", user_id="alice"))
    hook = PreHook(engine, PrehookConfig(), clock=clock)
    started.clear()  # the write's own statements
    try:
        result = await hook.run(request("what is the name of my quokka?"))
    finally:
        await hook.aclose()
    assert [m.content for m in result.injected] == ["Alice's quokka is named Pip"]
    assert watching.seen_at_embed is not None
    # The SQL sources were already reading when the embedding was computed...
    assert "read_many" in watching.seen_at_embed
    if isinstance(engine.storage, PostgresStorage):
        # ... and so were the full-text searches (one statement each), while no nearest-neighbour
        # search could begin without the vector.
        assert sum("term_counts" in s for s in watching.seen_at_embed) == 2
        assert not any("<=>" in s for s in watching.seen_at_embed)
        assert any("<=>" in s for s in started)


async def test_a_failed_embedding_skips_the_run_and_ends_its_reads(
    engine: MemoryEngine, watching: WatchingEmbedder, started: list[str], clock: FakeClock
) -> None:
    watching.fail = True
    hook = PreHook(engine, PrehookConfig(), clock=clock)
    try:
        before = asyncio.all_tasks()
        result = await hook.run(request("what is the name of my quokka?"))
        assert result.skipped_reason == "embedding failed: EmbeddingError"
        assert result.injected == [] and result.block is None
        # The reads begun beside the embedding have ended when the run returns, none left
        # waiting for a vector that will never come.
        pending = [t for t in asyncio.all_tasks() - before if not t.done()]
        assert not pending, pending
        # The next run (embedding again) works.
        watching.fail = False
        assert (await hook.run(request("what is the name of my quokka?"))).skipped_reason is None
    finally:
        await hook.aclose()


async def test_memory_hits_read_with_their_rows_are_not_read_again(
    engine: MemoryEngine, clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    await engine.remember(draft("Alice's quokka is named Pip", user_id="alice"))
    await engine.remember(draft("The quokka enclosure closes at noon", user_id="alice"))
    memories = engine.storage.memories
    visible = memories.visible
    read_by_id: list[list[str]] = []

    async def spy_visible(ids: Sequence[str], *args: Any) -> Any:
        read_by_id.append(list(ids))
        return await visible(ids, *args)

    monkeypatch.setattr(memories, "visible", spy_visible)
    viewer = request("quokka").viewer
    query = (await engine.embedder.embed(["quokka"]))[0]
    dense, lexical = await memories.hybrid_search(viewer, query, "quokka", 5, clock())
    hits = [*dense, *lexical]
    assert {h.id for h in hits} and read_by_id == []
    postgres = isinstance(engine.storage, PostgresStorage)
    if postgres:
        # The searches read the rows under the audience filter: the same memories `visible` gives.
        assert all(h.memory is not None for h in hits)
        rows = {m.id: m for m in await visible([h.id for h in hits], viewer, clock())}
        assert {h.id: h.memory for h in hits} == rows
    else:
        # The embedded index holds vectors only.
        assert all(h.memory is None for h in hits)
    hook = PreHook(engine, PrehookConfig(), clock=clock)
    try:
        result = await hook.run(request("quokka"))
    finally:
        await hook.aclose()
    assert sorted(m.content for m in result.injected) == [
        "Alice's quokka is named Pip",
        "The quokka enclosure closes at noon",
    ]
    if postgres:
        assert read_by_id == []  # the pre-hook read none of the hits' rows again
    else:
        # Every hit's row is read through the SQL filter.
        assert read_by_id and {i for ids in read_by_id for i in ids} == {h.id for h in hits}
