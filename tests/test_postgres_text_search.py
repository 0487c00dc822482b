"""PostgreSQL's full-text search reads each matching row's terms once, however many words it counts."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

import pytest

from memory.engine import MemoryEngine
from memory.storage.postgres import PostgresStorage
from tests.helpers import FakeClock, audience, draft

STORAGE_BACKENDS = ("postgres",)
WORDS = ["quokka", "cello", "zeppelin", "marmalade"]
ROWS = 30


async def test_full_text_scoring_reads_each_rows_terms_once(
    engine: MemoryEngine, clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    storage = engine.storage
    assert isinstance(storage, PostgresStorage)
    # Long notes: their terms and tsvectors are kept out of line (TOAST), where each read costs buffers.
    filler = " ".join(f"w{m * 7919 % 10007}q{m}" for m in range(160))
    # Stored as they are: `remember` would merge these look-alikes into one.
    notes = [engine.build_memory(draft(f"Note {n}: {' '.join(WORDS)} {filler} end{n}")) for n in range(ROWS)]
    await storage.memories.add_many(notes, await engine.embedder.embed([m.content for m in notes]))
    statements: list[tuple[str, Sequence[object]]] = []
    fetch = storage.db.fetch

    async def spy(sql: str, params: Sequence[object] = ()) -> Any:
        statements.append((sql, params))
        return await fetch(sql, params)

    monkeypatch.setattr(storage.db, "fetch", spy)
    query = (await engine.embedder.embed([" ".join(WORDS)]))[0]
    _, lexical = await storage.memories.hybrid_search(audience(), query, " ".join(WORDS), 5, clock())
    assert len(lexical) == 5
    sql, params = next((s, p) for s, p in statements if "search_text @@" in s and "FROM memories" in s)
    async with storage.db.pool.acquire() as conn:
        plan = json.loads(await conn.fetchval(f"EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) {sql}", *params))
    blocks = plan[0]["Plan"]["Shared Hit Blocks"] + plan[0]["Plan"]["Shared Read Blocks"]
    # A row costs its heap page and out-of-line reads of its tsvector (the match) and of its terms
    # (one copy for the scoring): under 5 blocks a row here. Read once more for the length alone,
    # they cost over 6; the tsvector read again by each word's test, over 12.
    assert blocks <= 6 * ROWS
