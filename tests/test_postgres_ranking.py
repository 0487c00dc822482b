"""PostgreSQL ranks full-text hits by BM25 as the embedded index does: rare words count more."""

from __future__ import annotations

from memory.engine import MemoryEngine
from memory.storage.base import bm25_idf, scope_key
from memory.storage.postgres import PostgresStorage
from memory.storage.postgres.search import MAX_SCORED_ROWS, candidate_terms
from memory.storage.postgres.term_stats import TermStatistics
from tests.helpers import FakeClock, audience, draft, past_turn

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


async def test_large_scopes_reuse_their_counts_until_they_age(engine: MemoryEngine) -> None:
    storage = engine.storage
    assert isinstance(storage, PostgresStorage)
    now = [100.0]
    stats = TermStatistics(
        storage.db, "memories", "NOT forgotten", clock=lambda: now[0], ttl=60.0, fresh_rows=0
    )
    scope = scope_key(audience())
    terms = await stats.query_terms(["Pottery", "the", "kilns"])
    assert terms == ["'potteri'", "'kiln'"]
    first = await stats.get(scope, terms)
    assert (first.rows, first.frequency) == (0, {"'potteri'": 0, "'kiln'": 0})
    await engine.remember(draft("pottery kiln"))
    # Within the time to live the counts stand; a term never counted is counted now.
    again = await stats.get(scope, [*terms, "'new'"])
    assert (again.rows, again.frequency["'kiln'"], again.frequency["'new'"]) == (0, 0, 0)
    now[0] += 61.0
    aged = await stats.get(scope, terms)
    assert (aged.rows, aged.frequency) == (1, {"'potteri'": 1, "'kiln'": 1})


async def test_a_word_is_counted_only_up_to_the_cap(engine: MemoryEngine) -> None:
    storage = engine.storage
    assert isinstance(storage, PostgresStorage)
    for n in range(5):
        await engine.remember(draft(f"The team met on day {n}"))
    await engine.remember(draft("A quokka visited"))
    stats = TermStatistics(storage.db, "memories", "NOT forgotten", fresh_rows=0, count_cap=3)
    counted = await stats.get(scope_key(audience()), ["'team'", "'quokka'"])
    assert (counted.rows, counted.frequency) == (6, {"'team'": 3, "'quokka'": 1})
