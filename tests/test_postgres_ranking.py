"""PostgreSQL ranks full-text hits by BM25 as the embedded index does: rare words count more."""

from __future__ import annotations

from collections.abc import Sequence

import asyncpg
import pytest

from memory.engine import MemoryEngine
from memory.models import Scope
from memory.storage.base import bm25_idf, scope_key
from memory.storage.postgres import PostgresStorage
from memory.storage.postgres.db import Params
from memory.storage.postgres.migrations import apply_migrations
from memory.storage.postgres.search import MAX_SCORED_ROWS, text_hits
from memory.storage.text_analysis import analyze, query_terms
from tests.helpers import FakeClock, audience, draft, past_turn, postgres_storage, spy_on_fetch

# Short rows holding a common word, one long row holding a rare one: ts_rank (no rarity, shorter
# rows first) put the short ones first; BM25 puts the rare word's row first.
COMMON = [
    "Caroline smiled",
    "Caroline waved",
    "Caroline laughed",
    "Caroline nodded",
    "Caroline left early",
]
STORAGE_BACKENDS = ("postgres",)

RARE = "Last spring someone at work finally signed up for the weekly pottery class downtown"


async def _lexical(engine: MemoryEngine, text: str, k: int = 10) -> list[str]:
    vector = (await engine.embedder.embed(["x"]))[0]
    _, lexical = await engine.storage.memories.hybrid_search(audience(), vector, text, k, engine.clock())
    return [h.id for h in lexical]


async def test_a_rare_word_outranks_a_common_one(engine: MemoryEngine) -> None:
    common = [(await engine.remember(draft(text))).memory.id for text in COMMON]
    rare = (await engine.remember(draft(RARE))).memory.id
    found = await _lexical(engine, "Did Caroline go to the pottery class?")
    assert found[0] == rare
    assert set(found[1:]) == set(common)


async def test_turns_are_ranked_by_rarity_too(engine: MemoryEngine, clock: FakeClock) -> None:
    turns = [past_turn(text, clock() - 60.0 * n) for n, text in enumerate([*COMMON, RARE])]
    await engine.store_messages(turns)
    vector = (await engine.embedder.embed(["x"]))[0]
    _, lexical = await engine.storage.turns.hybrid_search(audience(), vector, "Caroline pottery", 10)
    assert lexical[0].id == turns[-1].id
    assert len(lexical) == len(turns)


async def test_rarity_follows_what_a_small_scope_holds_now(engine: MemoryEngine) -> None:
    # "pottery" is the rarer word at first; once more rows hold it than hold "caroline", the
    # ranking turns over at the very next search (a small scope is counted on every search).
    carolines = [(await engine.remember(draft(f"Caroline waved {n}"))).memory.id for n in range(5)]
    kiln = (await engine.remember(draft("The pottery kiln was fired"))).memory.id
    assert (await _lexical(engine, "caroline pottery"))[0] == kiln
    for n in range(8):
        await engine.remember(draft(f"A pottery wheel number {n} spun"))
    assert (await _lexical(engine, "caroline pottery"))[0] in carolines


def test_idf_weighs_rare_terms_more_and_is_never_negative() -> None:
    assert bm25_idf(1000, 1) > bm25_idf(1000, 10) > bm25_idf(1000, 900) > 0
    assert bm25_idf(10, 10) > 0


async def _capped(engine: MemoryEngine, text: str, cap: int) -> list[str]:
    """The memories' full-text hits for `text` when a search scores at most `cap` rows."""
    storage = postgres_storage(engine)
    hits = await text_hits(
        storage.db, "memories", "NOT forgotten", Params(), text, 50, scope_key(audience()), cap=cap
    )
    return [h.id for h in hits]


async def _stored(engine: MemoryEngine, texts: Sequence[str]) -> dict[str, str]:
    memories = [engine.build_memory(draft(text)) for text in texts]
    await engine.storage.memories.add_many(memories, await engine.embedder.embed(texts))
    return {m.content: m.id for m in memories}


async def test_a_small_scope_scores_every_matching_row(engine: MemoryEngine) -> None:
    ids = await _stored(engine, [*(f"team chat {n}" for n in range(4)), "grafana board"])
    assert set(await _capped(engine, "team grafana", cap=5)) == set(ids.values())


async def test_a_large_scope_scores_the_rows_of_its_rarest_words_within_the_cap(engine: MemoryEngine) -> None:
    ids = await _stored(
        engine,
        [*(f"team chat {n}" for n in range(6)), "grafana board", "grafana team", "kiln fired"],
    )
    # 9 rows past a cap of 3: "kiln" (1 row) and "grafana" (2) fit in it, "team" (7) does not.
    found = await _capped(engine, "team grafana kiln", cap=3)
    # The rarest word first; its common word still adds to the score of a row found by a rare one.
    assert found == [ids["kiln fired"], ids["grafana team"], ids["grafana board"]]
    # The rarest word is always kept, even past the cap: then any `cap` of its rows.
    assert len(await _capped(engine, "team", cap=3)) == 3
    assert MAX_SCORED_ROWS >= 1000


async def _recounted(storage: PostgresStorage) -> dict[tuple[str, ...], tuple[int, int]]:
    """term_counts as a count from scratch gives it (every scope, every lexeme, the totals)."""
    rows = await storage.db.fetch(
        "SELECT t, platform, workspace_id, agent_id, term, count(*), "
        "sum(CASE WHEN term = '' THEN COALESCE(cardinality(search_terms), length(search_text)) ELSE 0 END) "
        "FROM (SELECT 'memories' AS t, platform, workspace_id, agent_id, search_text, search_terms "
        "FROM memories WHERE NOT forgotten UNION ALL SELECT 'messages', platform, workspace_id, agent_id, "
        "search_text, search_terms FROM messages WHERE searchable"
        ") AS r, unnest(array_append(tsvector_to_array(search_text), '')) AS term GROUP BY 1, 2, 3, 4, 5"
    )
    return {tuple(r[:5]): (int(r[5]), int(r[6])) for r in rows}


async def _kept(storage: PostgresStorage) -> dict[tuple[str, ...], tuple[int, int]]:
    rows = await storage.db.fetch(
        "SELECT table_name, platform, workspace_id, agent_id, term, rows, lengths "
        "FROM term_counts WHERE rows <> 0"
    )
    return {tuple(r[:5]): (int(r[5]), int(r[6])) for r in rows}


async def test_the_kept_counts_follow_every_kind_of_write(engine: MemoryEngine, clock: FakeClock) -> None:
    storage = postgres_storage(engine)
    first = (await engine.remember(draft("Ana keeps bees on the roof"))).memory
    await engine.remember(draft("Ana keeps bees and a kiln", user_id="bob"))
    await engine.remember(
        draft("The pottery kiln was fired", scope=Scope("discord", "guild-2", "c", "default"))
    )
    await engine.store_messages([past_turn(f"turn {n} about the bees", clock() - n) for n in range(3)])
    assert await _kept(storage) == await _recounted(storage) != {}
    assert await engine.forget(first.id, audience()) is not None
    await storage.db.execute("UPDATE messages SET searchable = false WHERE content LIKE 'turn 1%'")
    await storage.db.execute("UPDATE memories SET content = 'Ana keeps wasps' WHERE content LIKE '%kiln'")
    await storage.db.execute("UPDATE memories SET importance = importance / 2")  # words unchanged
    await storage.db.execute("DELETE FROM messages WHERE content LIKE 'turn 2%'")
    assert await _kept(storage) == await _recounted(storage)
    async with storage.db.transaction() as conn:  # a statement of many rows, as COPY or a sweep makes
        await conn.execute("UPDATE memories SET forgotten = NOT forgotten")
    assert await _kept(storage) == await _recounted(storage)


async def test_a_failed_write_leaves_the_counts_as_they_were(engine: MemoryEngine) -> None:
    storage = postgres_storage(engine)
    await engine.remember(draft("Ana keeps bees on the roof"))
    before = await _kept(storage)
    with pytest.raises(asyncpg.PostgresError):
        async with storage.db.transaction() as conn:
            await conn.execute("UPDATE memories SET forgotten = true")
            await conn.execute("SELECT 1 / 0")
    assert await _kept(storage) == before == await _recounted(storage)


async def test_rows_are_analysed_as_the_embedded_index_analyses_them(engine: MemoryEngine) -> None:
    storage = postgres_storage(engine)
    text = "Does the organization only meet in the evening? The e-mail said café, café"
    memory = (await engine.remember(draft(text))).memory
    stored = await storage.db.fetchval("SELECT search_terms FROM memories WHERE id = $1", (memory.id,))
    # LanceDB's analysis: "does" and "only" stay (stemmed before its stop words go), "evening"
    # and "organization" keep their own stems, repeats are kept, accents folded.
    assert stored == analyze(text)
    assert {"doe", "onli", "evening", "organiz"} <= set(stored) and stored.count("cafe") == 2
    assert query_terms("What does the e-mail say, the e-mail?") == ["doe", "e", "mail", "say"]


async def test_a_full_text_search_is_one_statement(
    engine: MemoryEngine, clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    storage = postgres_storage(engine)
    await engine.remember(draft("Ana fires the pottery kiln on Sundays"))
    await engine.store_messages([past_turn("the kiln is hot", clock() - 5)])
    statements: list[str] = []
    spy_on_fetch(monkeypatch, storage, lambda sql, _: statements.append(sql))
    vector = (await engine.embedder.embed(["kiln"]))[0]
    _, memories = await storage.memories.hybrid_search(
        audience(), vector, "which kilns fire pottery", 5, clock()
    )
    _, turns = await storage.turns.hybrid_search(audience(), vector, "which kilns fire pottery", 5)
    assert len(memories) == len(turns) == 1
    # Each search: its dense statement and its full-text one (statistics and scoring together).
    assert len(statements) == 4
    assert sum("term_counts" in sql for sql in statements) == 2


async def test_rows_stored_before_their_terms_are_found_then_analysed(
    engine: MemoryEngine, clock: FakeClock
) -> None:
    storage = postgres_storage(engine)
    memory = (await engine.remember(draft("Ana keeps bees on the roof"))).memory
    await engine.store_messages([past_turn("the bees swarmed twice", clock() - 5)])
    # As migration m009 leaves the rows written before it: PostgreSQL's own analysis only.
    await storage.db.execute("UPDATE memories SET search_terms = NULL")
    await storage.db.execute("UPDATE messages SET search_terms = NULL")
    assert await _kept(storage) == await _recounted(storage)
    vector = (await engine.embedder.embed(["x"]))[0]
    _, found = await storage.memories.hybrid_search(audience(), vector, "bees", 5, clock())
    assert [h.id for h in found] == [memory.id] and found[0].score > 0
    assert await storage._unanalysed_rows()
    storage.analysis_due = True
    assert storage.needs_maintenance
    await engine.maintain()
    assert not storage.needs_maintenance and not await storage._unanalysed_rows()
    terms = await storage.db.fetchval("SELECT search_terms FROM memories WHERE id = $1", (memory.id,))
    assert terms == analyze("Ana keeps bees on the roof")
    assert await _kept(storage) == await _recounted(storage)
    assert await _lexical(engine, "bees") == [memory.id]


async def test_the_migration_counts_the_rows_already_stored(engine: MemoryEngine, postgres_url: str) -> None:
    storage = postgres_storage(engine)
    await engine.remember(draft("Ana keeps bees on the roof"))
    await engine.store_messages([past_turn("the bees swarmed", engine.clock() - 5)])
    expected = await _recounted(storage)
    conn = await asyncpg.connect(postgres_url)
    try:  # as a database migrated before m004 would be
        async with conn.transaction():
            for table in ("memories", "messages"):
                await conn.execute(f"DROP TRIGGER {table}_terms_insert ON {table}")
                await conn.execute(f"DROP TRIGGER {table}_terms_delete ON {table}")
                await conn.execute(f"DROP TRIGGER {table}_terms_update ON {table}")
                await conn.execute(f"DROP TRIGGER {table}_terms_truncate ON {table}")
                await conn.execute(f"DROP FUNCTION memorybot_{table}_terms()")
            await conn.execute("DROP TABLE term_counts")
            await conn.execute(
                "DELETE FROM schema_migrations WHERE name IN ('m004_term_counts', 'm009_search_terms')"
            )
        assert await apply_migrations(conn, 384) == ["m004_term_counts", "m009_search_terms"]
    finally:
        await conn.close()
    assert await _kept(storage) == expected != {}
