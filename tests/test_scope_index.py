"""Tests for scoped search from RAM: same answers as LanceDB's filtered search, kept in step by writes."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import AsyncIterator
from pathlib import Path

import numpy as np
import pytest
import pytest_asyncio

from bot.app import App
from memory.models import Audience, MemoryDraft, Scope, Visibility
from memory.scope import lance_audience_filter
from memory.storage.embedded.vectors import VectorHit, VectorRecord, VectorStore
from memory.storage.text_analysis import analyze
from tests.fakes.embedders import HashEmbedder
from tests.helpers import RECORD_TIME as NOW
from tests.helpers import VECTOR_DIM as DIM
from tests.helpers import settings
from tests.helpers import unit_vector as unit
from tests.helpers import vector_record as rec

SCOPE = Scope("slack", "T1", "C1", agent_id="default")
WORDS = "lisbon trip dog piano budget deadline sister coffee marathon garden".split()
CHANNELS = ["c1", "c2", "c3"]
USERS = ["u1", "u2", "u3"]


def random_records(
    rng: random.Random, nrng: np.random.Generator, count: int, prefix: str
) -> list[VectorRecord]:
    records = []
    for n in range(count):
        visibility = rng.choice(list(Visibility))
        records.append(
            rec(
                f"{prefix}{n}",
                unit(nrng),
                " ".join(rng.choices(WORDS, k=rng.randint(1, 6)))
                + (" running runs" if n % 7 == 0 else "")
                # Stop words: LanceDB never matches them, so neither may the copy in RAM.
                + (" what she did" if n % 5 == 0 else ""),
                workspace_id=rng.choice(["w1", "w1", "w2"]),
                agent_id=rng.choice(["default", "default", "helper"]),
                channel_id=rng.choice(CHANNELS),
                author_id=rng.choice(USERS),
                visibility=visibility,
                expires_at=rng.choice([None, None, NOW - 10, NOW + 1000]),
            )
        )
    # Said over two days, an hour apart: the searches of a period (`said`) have rows to leave out.
    return [dataclasses.replace(r, created_at=NOW - (n % 48) * 3600.0) for n, r in enumerate(records)]


# Periods the rows were said in: the last morning's hours, and all of them.
SAID = ((NOW - 18 * 3600.0, NOW - 6 * 3600.0), (NOW - 48 * 3600.0, NOW + 1.0))


def audiences() -> list[Audience]:
    """Every kind of reader of the rows: the operator, and in each workspace and agent, a reader in
    one channel, another channel or none, as one user, another or nobody, with and without their
    private notes. The rows' third channel and user are the ones no reader is: a third reader
    would only repeat the second's relations to the rows."""
    found = [Audience("discord", "w1", "default", None, None, operator=True)]
    for workspace in ("w1", "w2"):
        for agent in ("default", "helper"):
            for channel in (*CHANNELS[:2], None):
                for viewer in (*USERS[:2], None):
                    for private_ok in (False, True):
                        found.append(
                            Audience("discord", workspace, agent, viewer, channel, private_ok=private_ok)
                        )
    return found


@pytest_asyncio.fixture
async def pair(tmp_path: Path) -> AsyncIterator[tuple[VectorStore, VectorStore]]:
    """The same rows in a store searched from RAM and in one searched through LanceDB only."""
    hot = await VectorStore.open(tmp_path / "hot", DIM)
    cold = await VectorStore.open(tmp_path / "cold", DIM, hot_rows=0)
    yield hot, cold
    await hot.close()
    await cold.close()


async def write_both(pair: tuple[VectorStore, VectorStore], records: list[VectorRecord]) -> None:
    for store in pair:
        await store.memories.add(records)


async def assert_same_answers(pair: tuple[VectorStore, VectorStore], nrng: np.random.Generator) -> int:
    """Every audience gets the same dense and full-text hits from RAM as from LanceDB's filter.

    Audiences whose LanceDB filter is the same string (a viewer without private results reads
    what no viewer reads) share one query vector, and LanceDB is asked each (filter, query) once:
    the store does not change in between, so asking again would return the same rows. The RAM
    side is still searched, and compared, for every audience.
    """
    hot, cold = pair
    compared = 0
    queries: dict[str, np.ndarray] = {}
    dense: dict[tuple[str, bytes, int], list[VectorHit]] = {}
    lexical: dict[tuple[str, str], set[str]] = {}

    async def lancedb(query: np.ndarray, where: str, k: int) -> list[VectorHit]:
        key = (where, query.tobytes(), k)
        if key not in dense:
            dense[key] = await cold.memories.search(query, where, k)
        return dense[key]

    async def lancedb_text(text: str, where: str) -> set[str]:
        if (where, text) not in lexical:
            lexical[(where, text)] = {h.id for h in await cold.memories.text_search(text, where, 50)}
        return lexical[(where, text)]

    for audience in audiences():
        query = queries.setdefault(lance_audience_filter(audience), unit(nrng))
        for now in (None, NOW):
            where = lance_audience_filter(audience, now)
            got = await hot.memories.search_visible(audience, query, 8, now)
            want = await lancedb(query, where, 8)
            assert [h.id for h in got] == [h.id for h in want], audience
            assert np.allclose([h.score for h in got], [h.score for h in want], atol=1e-4)
            for visibility in Visibility:
                narrow = await hot.memories.search_visible(
                    audience, query, 5, now, visibility=visibility.value
                )
                narrowed = f"{where} AND visibility = '{visibility.value}'"
                assert [h.id for h in narrow] == [h.id for h in await lancedb(query, narrowed, 5)]
            for said in SAID:
                # LanceDB's own filter of the period (the store without RAM) against the RAM mask.
                in_period = await hot.memories.search_visible(audience, query, 5, now, said=said)
                want_period = await cold.memories.search_visible(audience, query, 5, now, said=said)
                assert [h.id for h in in_period] == [h.id for h in want_period], (audience, said)
                assert np.allclose([h.score for h in in_period], [h.score for h in want_period], atol=1e-4)
            for text in ("lisbon dog", "running", "garden budget coffee", "what did she do about the piano"):
                got_text = await hot.memories.text_search_visible(audience, text, 50, now)
                assert {h.id for h in got_text} == await lancedb_text(text, where), (audience, text)
                compared += len(got) + len(got_text)
    return compared


async def test_ram_search_matches_lancedb_filters_for_every_audience(pair) -> None:
    rng, nrng = random.Random(3), np.random.default_rng(3)
    await write_both(pair, random_records(rng, nrng, 240, "m"))
    assert await assert_same_answers(pair, nrng) > 500


async def test_writes_replacements_and_deletes_reach_loaded_scopes(pair) -> None:
    rng, nrng = random.Random(5), np.random.default_rng(5)
    hot, _ = pair
    await write_both(pair, random_records(rng, nrng, 120, "a"))
    # Every scope loaded before the writes below (the answers loading gives are the previous test's).
    for audience in audiences():
        await hot.memories.search_visible(audience, unit(nrng), 1)
    assert hot.memories._hot is not None
    assert all(
        hot.memories._hot.is_loaded(("discord", w, a)) for w in ("w1", "w2") for a in ("default", "helper")
    )
    await write_both(pair, random_records(rng, nrng, 60, "b"))
    # Replace some rows with another scope, visibility and text; delete others.
    moved = random_records(random.Random(9), np.random.default_rng(9), 30, "a")
    await write_both(pair, moved)
    for store in pair:
        await store.memories.delete([f"a{n}" for n in range(40, 70)] + [f"b{n}" for n in range(10)])
    await assert_same_answers(pair, nrng)
    audience = Audience("discord", "w1", "default", "u1", "c1", operator=True, private_ok=True)
    query = unit(nrng)
    ids = {h.id for h in await hot.memories.search_visible(audience, query, 1000)}
    assert not ids & {f"a{n}" for n in range(40, 70)}


async def test_a_new_row_is_found_at_once_and_a_deleted_one_never(pair) -> None:
    hot, _ = pair
    nrng = np.random.default_rng(1)
    audience = Audience("discord", "w1", "default", "u1", "c1")
    await hot.memories.add([rec("old", unit(nrng), "the marathon in spring")])
    assert [h.id for h in await hot.memories.text_search_visible(audience, "marathon", 5)] == ["old"]
    target = unit(nrng)
    await hot.memories.add([rec("new", target, "a second marathon")])
    hits = await hot.memories.search_visible(audience, target, 1)
    assert [h.id for h in hits] == ["new"]
    assert np.allclose(hits[0].vector, target, atol=1e-6)
    assert {h.id for h in await hot.memories.text_search_visible(audience, "marathons", 5)} == {"old", "new"}
    await hot.memories.delete(["new"])
    assert "new" not in {h.id for h in await hot.memories.search_visible(audience, target, 5)}
    assert {h.id for h in await hot.memories.text_search_visible(audience, "marathon", 5)} == {"old"}


async def test_rows_of_equal_score_come_in_arrival_then_id_order(pair) -> None:
    # As PostgreSQL orders them: the backends then rank the same rows alike, even at the cut.
    hot, _ = pair
    nrng = np.random.default_rng(3)
    same = unit(nrng)
    text = "the marathon in spring"
    await hot.memories.add([rec(f"e{n}", same, text) for n in (5, 2, 9, 7)])
    # The earliest, whatever its id; the others arrived at one instant.
    await hot.memories.add([dataclasses.replace(rec("e8", same, text), created_at=NOW - 1)])
    await hot.memories.add([rec("far", unit(nrng), "a dog")])
    audience = Audience("discord", "w1", "default", "u1", "c1")
    expected = ["e8", "e2", "e5", "e7", "e9"]
    for k in (5, 3):
        assert [h.id for h in await hot.memories.search_visible(audience, same, k)] == expected[:k]
        assert [h.id for h in await hot.memories.text_search_visible(audience, "marathon", k)] == expected[:k]


async def test_a_scope_over_the_budget_stays_on_lancedb(tmp_path: Path) -> None:
    store = await VectorStore.open(tmp_path, DIM, hot_rows=10)
    try:
        nrng = np.random.default_rng(2)
        big = [rec(f"big{n}", unit(nrng), "lisbon", workspace_id="big") for n in range(25)]
        small = [rec(f"small{n}", unit(nrng), "lisbon", workspace_id="small") for n in range(5)]
        await store.memories.add(big + small)
        for workspace, expected in (("big", 25), ("small", 5)):
            audience = Audience("discord", workspace, "default", None, "c1")
            assert len(await store.memories.text_search_visible(audience, "lisbon", 100)) == expected
            assert len(await store.memories.search_visible(audience, unit(nrng), 100)) == expected
        assert await store.memories.warm() == 5  # only the small scope fits
    finally:
        await store.close()


async def test_warm_loads_the_largest_scopes_first(tmp_path: Path) -> None:
    store = await VectorStore.open(tmp_path, DIM, hot_rows=30)
    try:
        nrng = np.random.default_rng(4)
        rows = [rec(f"a{n}", unit(nrng), workspace_id="a") for n in range(20)]
        rows += [rec(f"b{n}", unit(nrng), workspace_id="b") for n in range(15)]
        rows += [rec(f"c{n}", unit(nrng), workspace_id="c") for n in range(8)]
        await store.memories.add(rows)
        assert await store.memories.warm() == 28  # a (20) and c (8); b would pass the budget
    finally:
        await store.close()


@pytest.mark.parametrize(
    ("text", "terms"),
    [
        ("The runners were Running", ["runner", "run"]),
        ("Does she only care about it?", ["doe", "onli", "care"]),
        ("Café au lait", ["cafe", "au", "lait"]),
        ("", []),
        ("😀 !!", []),
    ],
)
def test_terms_are_analysed_like_the_lancedb_index(text: str, terms: list[str]) -> None:
    assert analyze(text) == terms


async def test_a_started_bot_loads_its_search_index_in_the_background(tmp_path: Path) -> None:
    config = settings(tmp_path)
    app = await App.start(config, embedder=HashEmbedder(), with_llm=False, warm=False)
    memory = (await app.engine.remember(MemoryDraft("The offsite is in Lisbon", scope=SCOPE))).memory
    await app.close()

    app = await App.start(config, embedder=HashEmbedder(), with_llm=False)
    try:
        assert app.warming is not None
        await app.warming
        table = app.engine.storage.vectors.memories
        assert table._hot is not None and table._hot.is_loaded(("slack", "T1", "default"))
        audience = Audience("slack", "T1", "default", "U1", "C1")
        assert [h.id for h in await table.text_search_visible(audience, "Lisbon", 5)] == [memory.id]
    finally:
        await app.close()


async def test_search_stays_on_lancedb_when_the_index_is_off(tmp_path: Path) -> None:
    config = settings(tmp_path, storage={"search_index_rows": 0})
    app = await App.start(config, embedder=HashEmbedder(), with_llm=False)
    try:
        await app.warming
        memory = (await app.engine.remember(MemoryDraft("The offsite is in Lisbon", scope=SCOPE))).memory
        assert app.engine.storage.vectors.memories._hot is None
        hits = await app.engine.search(
            "Lisbon offsite", Audience("slack", "T1", "default", "U1", "C1"), threshold=0
        )
        assert [h.memory.id for h in hits] == [memory.id]
    finally:
        await app.close()
