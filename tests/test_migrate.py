"""`memorybot migrate --to postgresql://…`: an embedded data directory copied into PostgreSQL.

A data directory is filled through the engine (memories of every visibility, a superseded and an
expiring one, access counts, turns, a summary, a profile, aliases, a conversation kind), copied
into a fresh database of the session's PostgreSQL, and then the PostgreSQL engine must answer as
the embedded one did: the same rows, vectors, search hits and scores, and the same privacy. The
copy embeds nothing, skips what is already there (a second run, a run after an interruption) and
refuses a database made for another vector size.
"""

from __future__ import annotations

import asyncio
import json
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

from bot.cli import main
from memory.embedders import CachedEmbedder
from memory.engine import MemoryEngine
from memory.errors import ConfigError, StorageError
from memory.models import (
    Audience,
    Conversation,
    ConversationKind,
    MemoryDraft,
    Scope,
    StoredMessage,
    Visibility,
)
from memory.storage import Storage, open_storage
from memory.storage.base import MIGRATED_TABLES
from memory.storage.migrate import migrate_to_postgres
from memory.storage.postgres import PostgresStorage
from memory.summaries import SummaryManager
from memory.summarizer import ExtractiveSummarizer
from tests.fakes.embedders import CountingEmbedder, HashEmbedder
from tests.fakes.postgres import BARE_TEMPLATE, PostgresTestServer
from tests.helpers import DAY, FakeClock, past_turn

GENERAL = Scope("discord", "g1", "general")
SECRET = Scope("discord", "g1", "secret")
DM = Scope("discord", "g1", "dm-alice")
ALICE_DM = Audience("discord", "g1", "default", viewer_id="alice", channel_id="dm-alice", private_ok=True)
BOB = Audience("discord", "g1", "default", viewer_id="bob", channel_id="general")
ALICE = Audience("discord", "g1", "default", viewer_id="alice", channel_id="general")
AUDIENCES = (
    ALICE,
    ALICE_DM,
    BOB,
    Audience("discord", "g1", "default", viewer_id="carol", channel_id="secret"),
)
QUERIES = ("cello", "Lyon wedding", "shoulder January", "deploy friday", "secret plan")


def _draft(content: str, scope: Scope = GENERAL, **kw: object) -> MemoryDraft:
    kw.setdefault("author_id", "alice")
    kw.setdefault("user_id", "alice")
    return MemoryDraft(content=content, scope=scope, **kw)  # type: ignore[arg-type]


def _turn(n: int, scope: Scope, content: str, at: float, role: str = "user", **kw: object) -> StoredMessage:
    author = "memorybot" if role == "assistant" else str(kw.pop("author_id", "alice"))
    return past_turn(content, at, author, scope=scope, id=f"turn-{n:03d}", role=role, **kw)


async def _fill(data_dir: Path) -> dict[str, str]:
    """Write a small but complete history through the engine; returns the ids tests look at."""
    clock = FakeClock()
    engine = await MemoryEngine.open(data_dir, CachedEmbedder(HashEmbedder()), clock=clock)
    try:
        ids: dict[str, str] = {}
        ids["cello"] = (
            await engine.remember(_draft("Bob plays the cello on Sundays", subjects=["bob"]))
        ).memory.id
        clock.advance(10)
        old = (await engine.remember(_draft("Mickael broke his shoulder"))).memory
        clock.advance(10)
        new = await engine.remember(_draft("Mickael broke his shoulder on 10 January 2026"))
        assert new.action == "superseded" and new.replaced is not None and new.replaced.id == old.id
        ids["superseded"], ids["successor"] = old.id, new.memory.id
        clock.advance(10)
        ids["expiring"] = (
            await engine.remember(_draft("Deploy freeze until friday", ttl="3 days"))
        ).memory.id
        clock.advance(10)
        private = _draft("Alice's secret plan is a surprise party in Lyon", DM, visibility=Visibility.PRIVATE)
        ids["private"] = (await engine.remember(private)).memory.id
        clock.advance(10)
        channel = _draft("The secret channel plans the Lyon wedding", SECRET, visibility=Visibility.CHANNEL)
        ids["channel"] = (await engine.remember(channel)).memory.id
        await engine.storage.memories.bump_access({ids["cello"]: 3, ids["channel"]: 1}, clock.now)
        for n in range(6):
            clock.advance(60)
            words = f"Does the cello lesson move to friday number {n}?"
            await engine.store_messages(
                [
                    _turn(2 * n, GENERAL, words, clock.now),
                    _turn(2 * n + 1, GENERAL, f"Yes {n}", clock.now + 1, "assistant"),
                ]
            )
        await engine.store_messages(
            [_turn(90, DM, "my secret plan is the party", clock.now + 5, visibility=Visibility.PRIVATE)]
        )
        await engine.store_messages([_turn(91, GENERAL, "Typing…", clock.now + 6)], searchable=False)
        summary = await SummaryManager(engine, ExtractiveSummarizer()).summarize_turn(
            GENERAL, ["turn-000", "turn-001"]
        )
        assert summary is not None
        ids["summary"] = summary.id
        people = engine.storage.people
        await people.save_profile(
            "discord", "g1", "alice", "default", json.dumps({"city": "Lyon"}), clock.now
        )
        await people.add_aliases("discord", "g1", "alice", ["Ali", "Alice B."], clock.now, keep=5)
        await engine.storage.conversations.record(
            [Conversation("discord", "g1", "secret", ConversationKind.PRIVATE)], clock.now
        )
        return ids
    finally:
        await engine.close()


def _dump(data_dir: Path) -> list[str]:
    conn = sqlite3.connect(data_dir / "memorybot.sqlite3")
    try:
        return list(conn.iterdump())
    finally:
        conn.close()


async def _open(location: str | Path) -> Storage:
    return await open_storage(location, dim=384)


async def _all_memory_ids(storage: Storage) -> list[str]:
    return [r["id"] for r in await storage.export_rows("memories", 0, 10_000)]


@pytest.fixture
async def filled(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    data_dir = tmp_path / "data"
    return data_dir, await _fill(data_dir)


async def test_migration_copies_every_row_with_its_vector_and_postgres_answers_the_same(
    filled: tuple[Path, dict[str, str]], postgres_url: str
) -> None:
    data_dir, ids = filled
    before = _dump(data_dir)
    report = await migrate_to_postgres(data_dir, postgres_url, batch_size=2)
    assert report.ok, report.mismatches
    assert report.source == report.target == report.copied
    assert all(report.source[t] > 0 for t in MIGRATED_TABLES), report.source
    assert _dump(data_dir) == before  # the source is not changed

    source, target = await _open(data_dir), await _open(postgres_url)
    try:
        memory_ids = await _all_memory_ids(source)
        assert set(ids.values()) - {ids["summary"]} <= set(memory_ids)
        # Every field, superseded and forgotten state, access counts and expiry included.
        assert await target.memories.get_unscoped(memory_ids) == await source.memories.get_unscoped(
            memory_ids
        )
        old = (await target.memories.get_unscoped([ids["superseded"]]))[0]
        assert old.forgotten and old.superseded_by == ids["successor"]
        assert (await target.memories.get_unscoped([ids["cello"]]))[0].access_count == 3
        assert (await target.memories.get_unscoped([ids["expiring"]]))[0].expires_at is not None
        # The vectors as stored, bit for bit.
        src_vectors, dst_vectors = (
            await source.memories.embeddings(memory_ids),
            await target.memories.embeddings(memory_ids),
        )
        assert src_vectors.keys() == dst_vectors.keys() and len(src_vectors) >= len(memory_ids) - 1
        for key, vector in src_vectors.items():
            assert np.array_equal(vector, dst_vectors[key])
        turn_ids = [f"turn-{n:03d}" for n in (*range(12), 90, 91)]
        assert await target.turns.get_unscoped(turn_ids) == await source.turns.get_unscoped(turn_ids)
        assert await target.turns.count() == await source.turns.count() == len(turn_ids)
        summaries = await target.summaries.get_unscoped([ids["summary"]])
        assert summaries == await source.summaries.get_unscoped([ids["summary"]]) and summaries
        profiles = await target.people.profiles("discord", "g1", "default", ["alice"])
        assert profiles == await source.people.profiles("discord", "g1", "default", ["alice"])
        assert [(user, json.loads(data)) for user, data, _ in profiles] == [("alice", {"city": "Lyon"})]
        assert await target.people.names_of("discord", "g1", ["alice"]) == await source.people.names_of(
            "discord", "g1", ["alice"]
        )
        assert await target.conversations.kinds() == await source.conversations.kinds() != []
    finally:
        await source.close()
        await target.close()

    # The engines answer the same searches with the same ids and scores, and embed nothing more.
    clock = FakeClock(FakeClock().now + DAY)
    plain = CachedEmbedder(HashEmbedder())
    counting = CountingEmbedder(HashEmbedder())
    embedded = await MemoryEngine.open(data_dir, plain, clock=clock)
    postgres = await MemoryEngine.open(postgres_url, counting, clock=clock)
    try:
        assert not postgres.storage.needs_maintenance  # no turn was left waiting for a vector
        await postgres.maintain()
        told_found, later, both = False, clock.now + 30 * DAY, (embedded, postgres)
        for query in QUERIES:
            vector = (await plain.embed([query]))[0]
            for audience in AUDIENCES:
                want = await embedded.search(query, audience, threshold=0.0, vector=vector)
                got = await postgres.search(query, audience, threshold=0.0, vector=vector)
                assert [h.memory.id for h in got] == [h.memory.id for h in want], (query, audience)
                assert [h.score for h in got] == pytest.approx([h.score for h in want], abs=1e-5)
                # Every readable turn (k above their number): equal scores may tie in another order.
                turns_want = {
                    h.id: h.score for h in await embedded.storage.turns.search(audience, vector, 50)
                }
                turns_got = {h.id: h.score for h in await postgres.storage.turns.search(audience, vector, 50)}
                assert turns_got == pytest.approx(turns_want, abs=1e-5) and turns_want
                # The days the turns tell of came along ("… move to friday").
                hits = [await e.storage.turns.search_told(audience, vector, 0.0, later, 50) for e in both]
                told = [{h.id: h.score for h in found} for found in hits]
                assert told[1] == pytest.approx(told[0], abs=1e-5)
                told_found |= bool(told[0])
        assert told_found
        assert counting.calls == []
        # A private memory is still invisible to anyone else, and visible to its owner in her DM.
        vector = (await plain.embed(["secret plan"]))[0]
        assert ids["private"] not in {
            h.memory.id for h in await postgres.search("secret plan", BOB, vector=vector)
        }
        assert await postgres.visible_memory(ids["private"], BOB) is None
        assert await postgres.visible_memory(ids["private"], ALICE_DM) is not None
        assert await embedded.visible_memory(ids["private"], ALICE_DM) is not None
        for audience in AUDIENCES:
            assert await postgres.count_memories(audience) == await embedded.count_memories(audience)
    finally:
        await embedded.close()
        await postgres.close()


async def test_a_second_run_copies_nothing_and_duplicates_nothing(
    filled: tuple[Path, dict[str, str]], postgres_url: str
) -> None:
    data_dir, _ = filled
    first = await migrate_to_postgres(data_dir, postgres_url)
    second = await migrate_to_postgres(data_dir, postgres_url, batch_size=3)
    assert first.ok and second.ok
    assert sum(first.copied.values()) > 0
    assert second.copied == dict.fromkeys(MIGRATED_TABLES, 0)
    assert second.target == first.target == first.source


async def test_an_interrupted_migration_finishes_on_the_next_run(
    filled: tuple[Path, dict[str, str]], postgres_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    data_dir, ids = filled
    original = PostgresStorage.import_rows
    batches: list[str] = []

    async def fails_after_four(self: PostgresStorage, table: str, rows: list[dict[str, object]]) -> int:
        if len(batches) == 4:
            raise StorageError("connection lost")
        batches.append(table)
        return await original(self, table, rows)

    monkeypatch.setattr(PostgresStorage, "import_rows", fails_after_four)
    with pytest.raises(StorageError, match="connection lost"):
        await migrate_to_postgres(data_dir, postgres_url, batch_size=1)
    monkeypatch.undo()
    target = await _open(postgres_url)
    try:
        partial = await target.table_counts()
    finally:
        await target.close()
    assert partial["memories"] == 4 and partial["messages"] == 0  # four batches of one were committed

    report = await migrate_to_postgres(data_dir, postgres_url, batch_size=1)
    assert report.ok, report.mismatches
    assert report.copied["memories"] == report.source["memories"] - 4
    target = await _open(postgres_url)
    try:
        # The link to a successor copied after its predecessor is written once both are there.
        old = (await target.memories.get_unscoped([ids["superseded"]]))[0]
        assert old.superseded_by == ids["successor"]
    finally:
        await target.close()


async def test_turns_whose_told_days_were_never_read_are_read_on_postgresql(
    tmp_path: Path, postgres_url: str
) -> None:
    """A turn the data directory never read the told days of (stored before they were kept) is
    read at PostgreSQL's first maintenance; the turns it did read are not read again."""
    data_dir, clock = tmp_path / "data", FakeClock()
    embedder = CachedEmbedder(HashEmbedder())
    engine = await MemoryEngine.open(data_dir, embedder, clock=clock)
    try:
        await engine.store_messages(
            [
                _turn(1, GENERAL, "Does the cello lesson move to friday?", clock.now),
                _turn(2, GENERAL, "We played the cello yesterday", clock.now + 60),
            ]
        )
    finally:
        await engine.close()
    conn = sqlite3.connect(data_dir / "memorybot.sqlite3")
    try:  # turn 2 as the version before migration m008 left it: its told days never read
        conn.execute("UPDATE messages SET told_read = 0, told_since = NULL WHERE id = 'turn-002'")
        conn.commit()
    finally:
        conn.close()
    assert (await migrate_to_postgres(data_dir, postgres_url)).ok

    postgres = await MemoryEngine.open(postgres_url, embedder, clock=clock)
    try:
        turns = postgres.storage.turns
        assert turns.told_due and [m.id for m in await turns.told_unread(10)] == ["turn-002"]
        await postgres.maintain()
        (vector,) = await embedder.embed(["cello"])
        told = await turns.search_told(ALICE, vector, clock.now - 9 * DAY, clock.now + 9 * DAY, 10)
        assert sorted(h.id for h in told) == ["turn-001", "turn-002"]
        assert not turns.told_due and await turns.told_unread(10) == []
    finally:
        await postgres.close()


async def test_a_database_made_for_another_vector_size_is_refused(
    filled: tuple[Path, dict[str, str]], postgres_server: PostgresTestServer
) -> None:
    data_dir, _ = filled
    name = postgres_server.create_database(BARE_TEMPLATE)
    try:
        url = postgres_server.url(name)
        other = await open_storage(url, dim=8)
        await other.close()
        with pytest.raises(ConfigError, match="8 dimensions but the embedder makes 384"):
            await migrate_to_postgres(data_dir, url)
        other = await open_storage(url, dim=8)
        try:
            assert await other.table_counts() == dict.fromkeys(MIGRATED_TABLES, 0)
        finally:
            await other.close()
    finally:
        postgres_server.drop_database(name)


async def test_a_missing_data_directory_is_refused(tmp_path: Path, postgres_url: str) -> None:
    with pytest.raises(ConfigError, match="no memorybot data"):
        await migrate_to_postgres(tmp_path / "nothing", postgres_url)
    assert not (tmp_path / "nothing").exists()


@pytest.fixture
def filled_sync(tmp_path: Path) -> Iterator[Path]:
    """A filled data directory for the CLI tests, which run `main` (its own event loop)."""
    data_dir = tmp_path / "data"
    asyncio.run(_fill(data_dir))
    yield data_dir


def test_cli_migrates_and_prints_the_counts_as_json(
    filled_sync: Path, postgres_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(
        ["migrate", "--to", postgres_url, "--data-dir", str(filled_sync), "--json", "--batch-size", "5"]
    )
    out = capsys.readouterr()
    assert code == 0, out.err
    report = json.loads(out.out)
    assert report["ok"] is True and report["mismatches"] == []
    assert report["tables"]["memories"]["source"] == report["tables"]["memories"]["target"] > 0
    assert report["tables"]["messages"]["copied"] == 14

    # Counts that differ (the database already held another profile) exit non-zero, named.
    async def add_profile() -> None:
        target = await _open(postgres_url)
        try:
            await target.people.save_profile("discord", "g9", "zed", "default", "{}", 1.0)
        finally:
            await target.close()

    asyncio.run(add_profile())
    code = main(["migrate", "--to", postgres_url, "--data-dir", str(filled_sync)])
    out = capsys.readouterr()
    assert code == 1
    assert "profiles (source 1, target 2)" in out.err
    assert "memories" in out.out  # the table of counts is printed either way


def test_cli_refuses_a_target_that_is_not_postgres(
    filled_sync: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(["migrate", "--to", "mysql://somewhere/db", "--data-dir", str(filled_sync)])
    err = capsys.readouterr().err
    assert code == 2
    assert err.count("\n") == 1 and "postgresql://" in err
