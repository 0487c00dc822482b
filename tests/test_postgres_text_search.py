"""PostgreSQL's full-text search reads its workspace's rows of its words only, each row's terms once."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

import pytest

from memory.engine import MemoryEngine
from memory.models import Memory, Scope
from memory.storage.base import VectorHit
from memory.storage.postgres import PostgresStorage
from tests.helpers import GENERAL, FakeClock, audience, draft, spy_on_fetch

STORAGE_BACKENDS = ("postgres",)
WORDS = ["quokka", "cello", "zeppelin", "marmalade"]
ROWS = 30
# How a full-text search matches rows: by their words keyed by their workspace.
SEARCH = "scoped_lexemes(workspace_id, search_text) @@"


def plan_nodes(node: dict[str, Any]) -> list[dict[str, Any]]:
    """Every node of an EXPLAIN (FORMAT JSON) plan, `node` first."""
    return [node, *(n for child in node.get("Plans", []) for n in plan_nodes(child))]


async def searched(
    engine: MemoryEngine, notes: list[Memory], k: int, clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> tuple[list[VectorHit], str, Sequence[object]]:
    """Store `notes` as they are, search them for WORDS as Alice in #general: the `k` full-text
    hits, and the statement (with its values) that found them."""
    storage = engine.storage
    assert isinstance(storage, PostgresStorage)
    await storage.memories.add_many(notes, await engine.embedder.embed([m.content for m in notes]))
    statements: list[tuple[str, Sequence[object]]] = []
    spy_on_fetch(monkeypatch, storage, lambda sql, params: statements.append((sql, params)))
    query = (await engine.embedder.embed([" ".join(WORDS)]))[0]
    _, lexical = await storage.memories.hybrid_search(audience(), query, " ".join(WORDS), k, clock())
    sql, params = next((s, p) for s, p in statements if SEARCH in s and "FROM memories" in s)
    return lexical, sql, params


async def test_full_text_scoring_reads_each_rows_terms_once(
    engine: MemoryEngine, clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    storage = engine.storage
    assert isinstance(storage, PostgresStorage)
    # Long notes: their terms and tsvectors are kept out of line (TOAST), where each read costs buffers.
    filler = " ".join(f"w{m * 7919 % 10007}q{m}" for m in range(160))
    # Stored as they are: `remember` would merge these look-alikes into one.
    notes = [engine.build_memory(draft(f"Note {n}: {' '.join(WORDS)} {filler} end{n}")) for n in range(ROWS)]
    lexical, sql, params = await searched(engine, notes, 5, clock, monkeypatch)
    assert len(lexical) == 5
    async with storage.db.pool.acquire() as conn:
        plan = json.loads(await conn.fetchval(f"EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) {sql}", *params))
    blocks = plan[0]["Plan"]["Shared Hit Blocks"] + plan[0]["Plan"]["Shared Read Blocks"]
    # A row costs its heap page and out-of-line reads of its tsvector (the match) and of its terms
    # (one copy for the scoring): under 5 blocks a row here. Read once more for the length alone,
    # they cost over 6; the tsvector read again by each word's test, over 12.
    assert blocks <= 6 * ROWS


async def test_a_search_reads_the_index_keys_of_its_own_workspace_only(
    engine: MemoryEngine, clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    storage = engine.storage
    assert isinstance(storage, PostgresStorage)
    elsewhere = Scope(GENERAL.platform, "guild-2", GENERAL.channel_id, GENERAL.agent_id)
    # The other workspace holds the same words in more rows: an index keyed by word alone (or
    # by workspace and word side by side) finds them too and intersects them with the workspace.
    notes = [
        engine.build_memory(draft(f"Note {n}: {' '.join(WORDS)} end{n}", scope))
        for scope, count in ((GENERAL, 4), (elsewhere, 40))
        for n in range(count)
    ]
    lexical, sql, params = await searched(engine, notes, 10, clock, monkeypatch)
    assert sorted(hit.id for hit in lexical) == sorted(m.id for m in notes[:4])
    async with storage.db.pool.acquire() as conn, conn.transaction():
        # A table this small is read whole otherwise: the plan a large one gets is the one checked.
        await conn.execute("SET LOCAL enable_seqscan = off")
        plan = json.loads(await conn.fetchval(f"EXPLAIN (ANALYZE, FORMAT JSON) {sql}", *params))
    nodes = plan_nodes(plan[0]["Plan"])
    (words,) = [n for n in nodes if n.get("Index Name") == "ix_memories_search_text"]
    assert "scoped_lexemes" in words["Index Cond"]
    assert words["Actual Rows"] == 4  # the workspace's rows of the words, none of guild-2's
    # Nothing else narrows the scan: ANDed with a btree of the workspace, it read all of its rows.
    assert not [n for n in nodes if n["Node Type"] == "BitmapAnd"]
