"""Tests for the LanceDB vector store: search, full-text search, privacy prefilters, persistence."""

from __future__ import annotations

import asyncio
import warnings
from collections.abc import AsyncIterator
from datetime import timedelta
from pathlib import Path

import numpy as np
import pytest
import pytest_asyncio
from lancedb.query import AsyncQuery

from memory.models import Audience, Visibility
from memory.scope import lance_audience_filter
from memory.storage.embedded.vectors import (
    OPTIMIZE_EVERY_WRITES,
    VectorHit,
    VectorStore,
    VectorTable,
    fts_query_terms,
)
from tests.helpers import RECORD_TIME as NOW
from tests.helpers import VECTOR_DIM as DIM
from tests.helpers import near_vector as near
from tests.helpers import unit_vector as unit
from tests.helpers import vector_record as rec


@pytest_asyncio.fixture
async def store(tmp_path: Path) -> AsyncIterator[VectorStore]:
    s = await VectorStore.open(tmp_path / "lance", dim=DIM)
    yield s
    await s.close()


def ids_of(hits: list[VectorHit]) -> list[str]:
    return [h.id for h in hits]


async def test_search_orders_by_cosine_and_scores_are_cosine(store: VectorStore) -> None:
    rng = np.random.default_rng(1)
    vectors = {f"m{i}": unit(rng) for i in range(30)}
    await store.memories.add([rec(i, v) for i, v in vectors.items()])
    query = near(vectors["m7"], rng, 0.05)

    hits = await store.memories.search(query, None, 5)

    expected = sorted(vectors, key=lambda i: -float(vectors[i] @ query))[:5]
    assert ids_of(hits) == expected
    assert hits[0].id == "m7"
    for hit in hits:
        assert hit.score == pytest.approx(float(vectors[hit.id] @ query), abs=1e-5)
        assert hit.vector is not None
        np.testing.assert_allclose(hit.vector, vectors[hit.id], atol=1e-7)
    assert [h.score for h in hits] == sorted((h.score for h in hits), reverse=True)


async def test_score_of_opposite_vector_is_minus_one(store: VectorStore) -> None:
    rng = np.random.default_rng(2)
    v = unit(rng)
    await store.memories.add([rec("a", v), rec("b", -v)])
    hits = await store.memories.search(v, None, 2)
    assert ids_of(hits) == ["a", "b"]
    assert hits[0].score == pytest.approx(1.0, abs=1e-5)
    assert hits[1].score == pytest.approx(-1.0, abs=1e-5)


async def test_search_rejects_wrong_dimension(store: VectorStore) -> None:
    with pytest.raises(ValueError, match="expects"):
        await store.memories.search(np.ones(DIM + 1, dtype=np.float32), None, 3)
    with pytest.raises(ValueError, match="expects"):
        await store.memories.add([rec("x", np.ones(DIM - 1, dtype=np.float32))])


async def test_where_is_a_prefilter_not_a_postfilter(store: VectorStore) -> None:
    rng = np.random.default_rng(3)
    target = unit(rng)
    # Fifty rows of another workspace sit right on the query; a postfilter over the top k
    # would return nothing from w1.
    crowd = [rec(f"other{i}", near(target, rng, 0.01), "crowd word", workspace_id="w2") for i in range(50)]
    mine = [rec(f"mine{i}", unit(rng), "crowd word", workspace_id="w1") for i in range(5)]
    await store.memories.add(crowd + mine)
    where = lance_audience_filter(Audience(platform="discord", workspace_id="w1"), NOW)

    hits = await store.memories.search(target, where, 5)
    assert sorted(ids_of(hits)) == sorted(r.id for r in mine)

    text_hits = await store.memories.text_search("crowd", where, 5)
    assert sorted(ids_of(text_hits)) == sorted(r.id for r in mine)


async def test_audience_filter_is_honoured_by_both_searches(store: VectorStore) -> None:
    rng = np.random.default_rng(4)
    base = unit(rng)
    text = "mickael injured his knee skiing"
    rows = [
        rec("ok_workspace", near(base, rng, 0.1), text),
        rec("ok_channel", near(base, rng, 0.1), text, visibility=Visibility.CHANNEL, channel_id="c1"),
        rec("ok_private", near(base, rng, 0.1), text, visibility=Visibility.PRIVATE, author_id="alice"),
        rec("other_workspace", near(base, rng, 0.1), text, workspace_id="w2"),
        rec("other_agent", near(base, rng, 0.1), text, agent_id="pirate"),
        rec("other_platform", near(base, rng, 0.1), text, platform="slack"),
        rec("other_channel", near(base, rng, 0.1), text, visibility=Visibility.CHANNEL, channel_id="c2"),
        rec("private_of_bob", near(base, rng, 0.1), text, visibility=Visibility.PRIVATE, author_id="bob"),
        rec("expired", near(base, rng, 0.1), text, expires_at=NOW - 1),
        rec("not_expired", near(base, rng, 0.1), text, expires_at=NOW + 3600),
    ]
    await store.memories.add(rows)
    allowed = {"ok_workspace", "ok_channel", "ok_private", "not_expired"}
    dm = Audience(platform="discord", workspace_id="w1", viewer_id="alice", channel_id="c1", private_ok=True)
    where = lance_audience_filter(dm, NOW)

    assert set(ids_of(await store.memories.search(base, where, 20))) == allowed
    assert set(ids_of(await store.memories.text_search("knee skiing", where, 20))) == allowed

    # In a shared channel nothing private comes back, not even the viewer's own.
    shared = Audience(platform="discord", workspace_id="w1", viewer_id="alice", channel_id="c1")
    where_shared = lance_audience_filter(shared, NOW)
    shared_allowed = allowed - {"ok_private"}
    assert set(ids_of(await store.memories.search(base, where_shared, 20))) == shared_allowed
    assert set(ids_of(await store.memories.text_search("knee", where_shared, 20))) == shared_allowed

    # A quote inside an id used in the filter must not break or widen it.
    odd = Audience(platform="discord", workspace_id="w1' OR '1'='1")
    assert await store.memories.search(base, lance_audience_filter(odd, NOW), 20) == []
    assert await store.memories.text_search("knee", lance_audience_filter(odd, NOW), 20) == []


async def test_new_row_is_found_immediately_by_text_and_vector(store: VectorStore) -> None:
    rng = np.random.default_rng(5)
    await store.memories.add([rec(f"old{i}", unit(rng), f"ordinary note number {i}") for i in range(20)])
    await store.memories.ensure_indexes()  # the FTS index now covers every existing row
    fresh = unit(rng)
    await store.memories.add([rec("fresh", fresh, "Mickael adopted a hedgehog called Bramble")])

    text_hits = await store.memories.text_search("hedgehog", None, 5)
    assert ids_of(text_hits) == ["fresh"]
    assert text_hits[0].score > 0
    assert text_hits[0].vector is not None
    np.testing.assert_allclose(text_hits[0].vector, fresh, atol=1e-7)
    assert ids_of(await store.memories.search(fresh, None, 1)) == ["fresh"]

    # Stemming: "hedgehogs" still finds it, and case does not matter.
    assert ids_of(await store.memories.text_search("HEDGEHOGS", None, 5)) == ["fresh"]


async def test_text_search_ranks_better_match_first(store: VectorStore) -> None:
    rng = np.random.default_rng(6)
    await store.memories.add(
        [
            rec("both", unit(rng), "alice loves climbing and climbing gyms"),
            rec("one", unit(rng), "bob went climbing once"),
            rec("none", unit(rng), "carol bakes bread"),
        ]
    )
    hits = await store.memories.text_search("alice climbing", None, 10)
    assert ids_of(hits)[0] == "both"
    assert "none" not in ids_of(hits)
    assert [h.score for h in hits] == sorted((h.score for h in hits), reverse=True)


@pytest.mark.parametrize(
    "query",
    [
        "foo:bar (baz",
        '"',
        "   ",
        "\U0001f600\U0001f389",
        "x" * 10_000,
        "word " * 2_000,
        "AND OR NOT",
        "title:(a OR b) AND -c ~2 ^3 * ? [x TO y] {z}",
        "it's \"quoted\" 'single'",
        "\\ / ; -- DROP TABLE memories;",
        "caf\u00e9 na\u00efve \u65e5\u672c\u8a9e \u0645\u0631\u062d\u0628\u0627",
        "\x00\x01 control",
        "",
    ],
)
async def test_text_search_never_raises_on_odd_input(store: VectorStore, query: str) -> None:
    rng = np.random.default_rng(7)
    await store.memories.add([rec("a", unit(rng), "foo bar baz word caf\u00e9 quoted control")])
    hits = await store.memories.text_search(query, None, 5)
    assert isinstance(hits, list)
    assert all(h.id == "a" for h in hits)


async def test_text_search_without_words_returns_nothing(store: VectorStore) -> None:
    rng = np.random.default_rng(8)
    await store.memories.add([rec("a", unit(rng), "anything at all")])
    for query in ["", "   ", "?!...", '"', "\U0001f600"]:
        assert await store.memories.text_search(query, None, 5) == []


async def test_text_search_finds_words_inside_punctuation(store: VectorStore) -> None:
    rng = np.random.default_rng(9)
    await store.memories.add([rec("a", unit(rng), "the deadline is friday"), rec("b", unit(rng), "other")])
    assert ids_of(await store.memories.text_search('deadline:"friday" (soon', None, 5)) == ["a"]


def test_fts_query_terms_sanitises() -> None:
    assert fts_query_terms('foo:bar (baz "qux"') == "foo bar baz qux"
    assert fts_query_terms("  ") == ""
    assert fts_query_terms("a a A b") == "a b"
    assert fts_query_terms("x" * 41 + " ok") == "ok"
    assert len(fts_query_terms(" ".join(f"w{i}" for i in range(1000))).split()) == 64


async def test_delete_removes_from_both_searches(store: VectorStore) -> None:
    rng = np.random.default_rng(10)
    keep, gone = unit(rng), unit(rng)
    await store.memories.add([rec("keep", keep, "tulip garden"), rec("gone", gone, "tulip bulbs")])
    await store.memories.ensure_indexes()  # deleting indexed rows, not just fresh ones
    await store.memories.add([rec("gone_fresh", near(gone, rng, 0.01), "tulip fresh")])

    await store.memories.delete(["gone", "gone_fresh", "never-existed", "quote'id"])

    assert "gone" not in ids_of(await store.memories.search(gone, None, 10))
    assert "gone_fresh" not in ids_of(await store.memories.search(gone, None, 10))
    assert ids_of(await store.memories.text_search("tulip", None, 10)) == ["keep"]
    assert await store.memories.ids() == {"keep"}
    await store.memories.delete([])  # no-op
    assert await store.memories.count() == 1


async def test_delete_many_ids_in_chunks(store: VectorStore) -> None:
    rng = np.random.default_rng(11)
    await store.memories.add([rec(f"m{i}", unit(rng)) for i in range(1_200)])
    await store.memories.delete([f"m{i}" for i in range(1_100)] + [f"ghost{i}" for i in range(100)])
    assert await store.memories.ids() == {f"m{i}" for i in range(1_100, 1_200)}


async def test_get_vectors_returns_stored_vectors_in_one_query(
    store: VectorStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    rng = np.random.default_rng(12)
    vectors = {f"m{i}": unit(rng) for i in range(40)}
    await store.memories.add([rec(i, v) for i, v in vectors.items()])
    table = store.memories
    calls = 0
    real_query = table._table.query

    def counting_query() -> AsyncQuery:
        nonlocal calls
        calls += 1
        return real_query()

    monkeypatch.setattr(table._table, "query", counting_query)
    wanted = [f"m{i}" for i in range(0, 40, 3)] + ["missing", "m0"]
    got = await table.get_vectors(wanted)

    assert calls == 1
    assert set(got) == {f"m{i}" for i in range(0, 40, 3)}
    for row_id, vec in got.items():
        assert vec.dtype == np.float32
        np.testing.assert_array_equal(vec, vectors[row_id])
    assert await table.get_vectors([]) == {}


async def test_add_replaces_existing_id(store: VectorStore) -> None:
    rng = np.random.default_rng(13)
    old, new = unit(rng), unit(rng)
    await store.memories.add([rec("m", old, "likes tea")])
    await store.memories.add([rec("m", new, "likes coffee"), rec("m", new, "likes coffee")])

    assert await store.memories.count() == 1
    np.testing.assert_array_equal((await store.memories.get_vectors(["m"]))["m"], new)
    assert await store.memories.text_search("tea", None, 5) == []
    assert ids_of(await store.memories.text_search("coffee", None, 5)) == ["m"]


async def test_insert_appends_new_rows_without_joining_the_old_ones(
    store: VectorStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    rng = np.random.default_rng(15)
    await store.memories.add([rec("a", unit(rng), "likes tea")])

    def no_merge(on: str) -> None:
        raise AssertionError("a merge joins the whole id column: inserts of new ids append")

    monkeypatch.setattr(store.memories._table, "merge_insert", no_merge)
    fresh = unit(rng)
    await store.memories.insert([rec("b", unit(rng)), rec("c", unit(rng)), rec("c", fresh)])

    assert await store.memories.ids() == {"a", "b", "c"}
    assert await store.memories.count() == 3  # within a batch the last row of an id wins
    np.testing.assert_array_equal((await store.memories.get_vectors(["c"]))["c"], fresh)


async def test_after_a_failed_delete_insert_replaces_instead_of_doubling(
    store: VectorStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A row whose delete failed may still be there: inserting its id again must not double it."""
    rng = np.random.default_rng(16)
    await store.memories.insert([rec("m", unit(rng), "likes tea")])

    async def broken_delete(where: str) -> None:
        raise OSError("lance: no space left on device")

    with monkeypatch.context() as patch:
        patch.setattr(store.memories._table, "delete", broken_delete)
        with pytest.raises(OSError):
            await store.memories.delete(["m"])
    new = unit(rng)
    await store.memories.insert([rec("m", new, "likes coffee")])

    assert await store.memories.count() == 1
    np.testing.assert_array_equal((await store.memories.get_vectors(["m"]))["m"], new)
    assert ids_of(await store.memories.text_search("coffee", None, 5)) == ["m"]


async def test_ids_and_count(store: VectorStore) -> None:
    rng = np.random.default_rng(14)
    assert await store.memories.ids() == set()
    assert await store.memories.count() == 0
    await store.memories.add([rec(f"m{i}", unit(rng)) for i in range(7)])
    await store.messages.add([rec("msg1", unit(rng), kind="user")])
    assert await store.memories.ids() == {f"m{i}" for i in range(7)}
    assert await store.memories.count() == 7
    assert await store.messages.ids() == {"msg1"}


async def test_tables_are_separate_and_extra_tables_open_by_name(store: VectorStore) -> None:
    rng = np.random.default_rng(15)
    v = unit(rng)
    summaries = await store.table("summaries")
    assert await store.table("summaries") is summaries
    await summaries.add([rec("s1", v, "weekly summary", kind="summary")])
    assert ids_of(await summaries.search(v, None, 3)) == ["s1"]
    assert await store.memories.search(v, None, 3) == []
    assert await store.messages.text_search("summary", None, 3) == []
    with pytest.raises(ValueError, match="invalid vector table name"):
        await store.table("../escape")


async def test_reopen_persists_data(tmp_path: Path) -> None:
    rng = np.random.default_rng(16)
    v = unit(rng)
    first = await VectorStore.open(tmp_path / "db", dim=DIM)
    await first.memories.add([rec("m1", v, "persistent penguin")])
    await (await first.table("summaries")).add([rec("s1", v, "summary penguin", kind="summary")])
    await first.close()

    second = await VectorStore.open(tmp_path / "db", dim=DIM)
    try:
        assert await second.memories.ids() == {"m1"}
        assert ids_of(await second.memories.search(v, None, 1)) == ["m1"]
        assert ids_of(await second.memories.text_search("penguin", None, 1)) == ["m1"]
        assert ids_of(await (await second.table("summaries")).text_search("penguin", None, 1)) == ["s1"]
    finally:
        await second.close()


async def test_dim_mismatch_raises_clear_error(tmp_path: Path) -> None:
    first = await VectorStore.open(tmp_path / "db", dim=DIM)
    await first.close()
    with pytest.raises(ValueError, match=rf"'memories' stores {DIM}-dimensional vectors .* dim=8\b"):
        await VectorStore.open(tmp_path / "db", dim=8)


async def test_optimize_keeps_data_and_resets_write_counter(store: VectorStore) -> None:
    rng = np.random.default_rng(17)
    table = store.memories
    vectors = {}
    for i in range(OPTIMIZE_EVERY_WRITES + 10):
        vectors[f"m{i}"] = unit(rng)
        text = "note about a walrus" if i == 99 else f"note {i}"
        await table.add([rec(f"m{i}", vectors[f"m{i}"], text)])
    await table.delete(["m0"])
    assert table.needs_optimize

    await table.optimize()

    assert not table.needs_optimize
    assert await table.count() == OPTIMIZE_EVERY_WRITES + 9
    assert await table.ids() == set(vectors) - {"m0"}
    hits = await table.search(vectors["m42"], None, 1)
    assert ids_of(hits) == ["m42"]
    assert hits[0].score == pytest.approx(1.0, abs=1e-5)
    assert ids_of(await table.text_search("walrus", None, 3)) == ["m99"]
    assert await table.search(vectors["m0"], "id = 'm0'", 1) == []


async def test_optimize_cleans_up_old_versions(store: VectorStore) -> None:
    rng = np.random.default_rng(22)
    table = store.memories
    for i in range(5):
        await table.add([rec(f"m{i}", unit(rng), "kept")])
    assert len(await table._table.list_versions()) > 5
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # LanceDB warns that a zero window can break concurrent readers
        await table.optimize(cleanup_older_than=timedelta(0))
    # The index update commits after the prune, so the compacted version stays too.
    assert len(await table._table.list_versions()) <= 2
    assert await table.ids() == {f"m{i}" for i in range(5)}
    assert len(await table.text_search("kept", None, 10)) == 5


async def test_ensure_indexes_creates_fts_scalar_and_ann_indexes(tmp_path: Path) -> None:
    rng = np.random.default_rng(18)
    store = await VectorStore.open(tmp_path / "db", dim=DIM, ann_threshold=300)
    try:
        table: VectorTable = store.memories
        # A new table has its full-text index only: a filter column's index built on no rows
        # would cover none of the rows written before the next optimize.
        # (Each index is a commit: a new data directory made a dozen table versions at its open.)
        assert [ix.columns for ix in await table._table.list_indices()] == [["text"]]
        assert len(await table._table.list_versions()) <= 2

        vectors = {f"m{i}": unit(rng) for i in range(320)}
        await table.add([rec(i, v, workspace_id=f"w{int(i[1:]) % 2}") for i, v in vectors.items()])
        assert table.needs_optimize  # the ANN threshold was crossed
        await table.ensure_indexes()
        assert not table.needs_optimize
        assert table.has_ann_index
        columns = {tuple(ix.columns) for ix in await table._table.list_indices()}
        for column in ("text", "workspace_id", "channel_id", "agent_id", "platform", "visibility", "kind"):
            assert (column,) in columns
        assert ("vector",) in columns
        assert all(ix.num_unindexed_rows == 0 for ix in await table._table.list_indices())

        # With the ANN index, scores remain true cosine and the filter still holds.
        query = vectors["m11"]
        where = "workspace_id = 'w1'"  # odd-numbered ids
        hits = await table.search(query, where, 5)
        assert hits[0].id == "m11"
        assert all(int(h.id[1:]) % 2 == 1 for h in hits)
        for hit in hits:
            assert hit.score == pytest.approx(float(vectors[hit.id] @ query), abs=1e-5)
    finally:
        await store.close()


async def test_concurrent_writes_are_serialized_and_all_kept(
    store: VectorStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    rng = np.random.default_rng(19)
    table = store.memories
    active = 0
    most = 0
    real_merge_insert = table._table.merge_insert

    class Tracked:
        def __init__(self, builder: object) -> None:
            self.builder = builder

        def __getattr__(self, name: str) -> object:
            attr = getattr(self.builder, name)
            if name == "execute":

                async def execute(*args: object, **kwargs: object) -> object:
                    nonlocal active, most
                    active += 1
                    most = max(most, active)
                    try:
                        return await attr(*args, **kwargs)
                    finally:
                        active -= 1

                return execute
            return lambda *a, **kw: Tracked(attr(*a, **kw))

    monkeypatch.setattr(table._table, "merge_insert", lambda on: Tracked(real_merge_insert(on)))
    batches = [[rec(f"b{b}_{i}", unit(rng)) for i in range(5)] for b in range(10)]
    await asyncio.gather(*(table.add(batch) for batch in batches))

    assert most == 1
    assert await table.count() == 50


async def test_reads_do_not_wait_for_the_write_lock(store: VectorStore) -> None:
    rng = np.random.default_rng(21)
    v = unit(rng)
    await store.memories.add([rec("a", v, "lockless read")])
    async with store.memories._lock:
        hits = await asyncio.wait_for(store.memories.search(v, None, 1), timeout=30)
        text_hits = await asyncio.wait_for(store.memories.text_search("lockless", None, 1), timeout=30)
        vectors = await asyncio.wait_for(store.memories.get_vectors(["a"]), timeout=30)
    assert ids_of(hits) == ["a"]
    assert ids_of(text_hits) == ["a"]
    assert set(vectors) == {"a"}


async def test_k_zero_and_empty_table(store: VectorStore) -> None:
    rng = np.random.default_rng(20)
    v = unit(rng)
    assert await store.memories.search(v, None, 5) == []
    assert await store.memories.text_search("anything", None, 5) == []
    await store.memories.add([rec("a", v, "anything")])
    assert await store.memories.search(v, None, 0) == []
    assert await store.memories.text_search("anything", None, 0) == []
