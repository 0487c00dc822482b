"""PostgreSQL ranks full-text hits by BM25 as the embedded index does: rare words count more."""

from __future__ import annotations

import asyncio

import asyncpg
import pytest

from memory.engine import MemoryEngine
from memory.errors import StorageError
from memory.models import Scope
from memory.storage.base import bm25_idf, scope_key
from memory.storage.postgres import PostgresStorage
from memory.storage.postgres.migrations import apply_migrations
from memory.storage.postgres.search import MAX_SCORED_ROWS, candidate_terms
from memory.storage.postgres.term_stats import QueryWords, TermStatistics
from tests.helpers import FailingCall, FakeClock, audience, draft, past_turn

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


def test_a_small_scope_scores_every_matching_row() -> None:
    frequency = {"'team'": 900, "'grafana'": 40, "'absent'": 0}
    assert candidate_terms(frequency, rows=1000, cap=1000) == ["'grafana'", "'team'"]


def test_a_large_scope_scores_the_rows_of_its_rarest_words_within_the_cap() -> None:
    frequency = {"'team'": 9000, "'grafana'": 400, "'kiln'": 3, "'deploy'": 700, "'absent'": 0}
    assert candidate_terms(frequency, rows=100_000, cap=1000) == ["'kiln'", "'grafana'"]
    # The rarest word is always kept, even past the cap.
    assert candidate_terms({"'team'": 9000, "'the'": 20_000}, rows=100_000, cap=1000) == ["'team'"]
    assert MAX_SCORED_ROWS >= 1000


async def _recounted(storage: PostgresStorage) -> dict[tuple[str, ...], tuple[int, int]]:
    """term_counts as a count from scratch gives it (every scope, every lexeme, the totals)."""
    rows = await storage.db.fetch(
        "SELECT t, platform, workspace_id, agent_id, term, count(*), "
        "sum(CASE WHEN term = '' THEN length(search_text) ELSE 0 END) FROM ("
        "SELECT 'memories' AS t, platform, workspace_id, agent_id, search_text FROM memories "
        "WHERE NOT forgotten UNION ALL SELECT 'messages', platform, workspace_id, agent_id, search_text "
        "FROM messages WHERE searchable"
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
    storage = engine.storage
    assert isinstance(storage, PostgresStorage)
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
    await storage.db.execute("UPDATE memories SET access_count = access_count + 1")  # words unchanged
    await storage.db.execute("DELETE FROM messages WHERE content LIKE 'turn 2%'")
    assert await _kept(storage) == await _recounted(storage)
    async with storage.db.transaction() as conn:  # a statement of many rows, as COPY or a sweep makes
        await conn.execute("UPDATE memories SET forgotten = NOT forgotten")
    assert await _kept(storage) == await _recounted(storage)


async def test_a_failed_write_leaves_the_counts_as_they_were(engine: MemoryEngine) -> None:
    storage = engine.storage
    assert isinstance(storage, PostgresStorage)
    await engine.remember(draft("Ana keeps bees on the roof"))
    before = await _kept(storage)
    with pytest.raises(asyncpg.PostgresError):
        async with storage.db.transaction() as conn:
            await conn.execute("UPDATE memories SET forgotten = true")
            await conn.execute("SELECT 1 / 0")
    assert await _kept(storage) == before == await _recounted(storage)


async def test_counts_are_read_as_the_table_holds_them_now(engine: MemoryEngine) -> None:
    storage = engine.storage
    assert isinstance(storage, PostgresStorage)
    stats = TermStatistics(storage.db, "memories", QueryWords(storage.db))
    scope = scope_key(audience())
    terms = await stats.query_terms(["Pottery", "the", "kilns", "e-mail"])
    assert [t.query for t in terms] == ["'potteri'", "'kiln'", "'e-mail' & 'e' & 'mail'"]
    empty = await stats.get(scope, terms)
    assert (empty.rows, set(empty.frequency.values())) == (0, {0})
    await engine.remember(draft("pottery kiln"))
    await engine.remember(draft("an e-mail about the kiln"))
    await engine.remember(draft("mail came"))
    counted = await stats.get(scope, terms)
    assert counted.rows == 3
    # A word the parser splits counts as its rarest part ("e-mail" holds "mail", in two rows).
    assert counted.frequency == {"'potteri'": 1, "'kiln'": 2, "'e-mail' & 'e' & 'mail'": 1}
    lengths = await storage.db.fetchval("SELECT avg(length(search_text)) FROM memories")
    assert counted.average_length == pytest.approx(float(lengths))


async def test_one_request_analyses_its_words_once_for_both_tables(
    engine: MemoryEngine, monkeypatch: pytest.MonkeyPatch
) -> None:
    storage = engine.storage
    assert isinstance(storage, PostgresStorage)
    analysed: list[list[str]] = []
    words = storage.memories._terms.words
    assert storage.turns._terms.words is words
    real = words._analyse

    async def counted(batch: list[str]) -> None:
        analysed.append(sorted(batch))
        await real(batch)

    monkeypatch.setattr(words, "_analyse", counted)
    question = "which kilns fire pottery"
    # The memories' and the turns' searches of one request, side by side, as the pre-hook runs them.
    memory_terms, turn_terms = await asyncio.gather(
        storage.memories._terms.query_terms(question.split()),
        storage.turns._terms.query_terms(question.split()),
    )
    assert memory_terms == turn_terms and [t.query for t in memory_terms] == ["'kiln'", "'fire'", "'potteri'"]
    assert analysed == [["fire", "kilns", "pottery", "which"]]
    await storage.turns._terms.query_terms(["Kilns", "glaze"])  # only the new word is asked for
    assert analysed[1:] == [["glaze"]]


async def test_a_failed_word_analysis_is_retried_by_the_request_that_waited_on_it(
    engine: MemoryEngine, monkeypatch: pytest.MonkeyPatch
) -> None:
    storage = engine.storage
    assert isinstance(storage, PostgresStorage)
    words = storage.memories._terms.words
    # The pause: the second asker starts waiting on the failing statement.
    first_fails = FailingCall(words._analyse, 1, StorageError("connection lost"), pause=True)
    monkeypatch.setattr(words, "_analyse", first_fails)
    failed, retried = await asyncio.gather(
        words.terms(["pottery"]), words.terms(["pottery"]), return_exceptions=True
    )
    assert isinstance(failed, StorageError)
    assert [t.query for t in retried] == ["'potteri'"] and first_fails.calls == 2


async def test_the_migration_counts_the_rows_already_stored(engine: MemoryEngine, postgres_url: str) -> None:
    storage = engine.storage
    assert isinstance(storage, PostgresStorage)
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
            await conn.execute("DELETE FROM schema_migrations WHERE name = 'm004_term_counts'")
        assert await apply_migrations(conn, 384) == ["m004_term_counts"]
    finally:
        await conn.close()
    assert await _kept(storage) == expected != {}
