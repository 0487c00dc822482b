"""The benchmarks on PostgreSQL: the backend in the JSON, the bulk load, a database never taken from
someone else, and bot processes sharing one database."""

from __future__ import annotations

import asyncio
import dataclasses
import json
import random
import signal
from collections.abc import Iterator
from functools import partial
from pathlib import Path
from urllib.parse import unquote

import asyncpg
import pytest

from bench.backend import BenchBackend, DatabaseNotEmpty, backend_from
from bench.latency import LatencyOptions, run_latency
from bench.load import LoadOptions, conversations, run_load, shards
from bench.locomo import run_locomo
from bench.synthetic import synthetic_drafts
from bot.cli import main
from bot.config import Settings
from memory.drafts import build_memory
from memory.embedders import CachedEmbedder
from memory.engine import MemoryEngine
from memory.errors import ConfigError
from memory.models import MemoryDraft, MemoryType, Scope
from memory.storage.postgres.bulk import DEFERRED_INDEXES
from tests.fakes.embedders import CountingEmbedder, HashEmbedder
from tests.fakes.postgres import PostgresTestServer
from tests.helpers import ROOT, child_env, spawn_python
from tests.helpers import TINY_LOCOMO as CONVERSATION

SECRET = "s3cret-pw"


def with_password(url: str) -> str:
    # The test server trusts local connections, so any password is accepted, and none may show.
    return url.replace("postgresql://postgres:@", f"postgresql://postgres:{SECRET}@", 1)


async def count_rows(url: str, table: str = "memories") -> int:
    conn = await asyncpg.connect(url)
    try:
        return int(await conn.fetchval(f"SELECT count(*) FROM {table}"))
    finally:
        await conn.close()


async def store_someone_elses_memory(url: str) -> None:
    engine = await MemoryEngine.open(url, CachedEmbedder(HashEmbedder()), reconcile=False)
    try:
        await engine.import_memories(
            [
                MemoryDraft(
                    content="Alice's own note, not the benchmark's",
                    scope=Scope("discord", "guild-1", "general", "default"),
                    memory_type=MemoryType.FACT,
                )
            ]
        )
    finally:
        await engine.close()


def latency_options(url: str, reset: bool = False, keep: bool = False) -> LatencyOptions:
    # No report written (`out`): these tests read the one returned, and each plot would cost a
    # second of CPU (tests/test_bench_smoke.py writes and reads one).
    return LatencyOptions(
        sizes=[200],
        out=None,
        runs=5,
        warmup=1,
        messages=20,
        backend=BenchBackend(with_password(url), reset=reset, keep=keep),
        maintenance_work_mem="64MB",
    )


async def test_latency_on_postgres_copies_the_memories_builds_the_indexes_and_empties_after(
    postgres_url: str,
) -> None:
    report = await run_latency(latency_options(postgres_url), CachedEmbedder(HashEmbedder()))

    text = json.dumps(report)
    assert SECRET not in text
    assert report["backend"]["name"] == "postgresql"
    assert report["backend"]["settings"]["fsync"] in ("on", "off")
    (run,) = report["runs"]
    assert run["setup"]["memories_stored"] == 200
    assert run["setup"]["populate_s_per_100k"] >= 0
    assert run["system"]["p50_ms"] <= run["system"]["p95_ms"] <= run["system"]["p99_ms"]
    assert run["system"]["p95_without_embed_ms"] <= run["system"]["p95_ms"]
    # The naive hook is LanceDB's: there is none on PostgreSQL.
    assert run["baseline"] is None and run["speedup_p95"] is None
    conn = await asyncpg.connect(postgres_url)
    try:
        indexes = {r[0] for r in await conn.fetch("SELECT indexname FROM pg_indexes")}
        hnsw = await conn.fetchval(
            "SELECT indexdef FROM pg_indexes WHERE indexname = 'ix_memories_embedding'"
        )
    finally:
        await conn.close()
    # The indexes dropped for the load are back, as the migration defines them.
    assert set(DEFERRED_INDEXES) <= indexes
    assert "hnsw" in hnsw and "vector_cosine_ops" in hnsw and "NOT forgotten" in hnsw
    # The run emptied what it wrote.
    assert await count_rows(postgres_url) == 0
    assert await count_rows(postgres_url, "messages") == 0


async def test_a_database_holding_rows_is_refused_and_left_untouched(
    postgres_url: str,
) -> None:
    await store_someone_elses_memory(postgres_url)

    with pytest.raises(DatabaseNotEmpty, match="--reset"):
        await run_latency(latency_options(postgres_url), CachedEmbedder(HashEmbedder()))

    assert await count_rows(postgres_url) == 1


async def test_reset_empties_a_database_before_the_run(postgres_url: str) -> None:
    await store_someone_elses_memory(postgres_url)

    report = await run_latency(latency_options(postgres_url, reset=True), CachedEmbedder(HashEmbedder()))

    # Only the benchmark's 200 memories were there during the run, none after it.
    assert report["runs"][0]["setup"]["memories_stored"] == 200
    assert "--reset" in report["backend"]["data"]
    assert await count_rows(postgres_url) == 0


def test_the_cli_refuses_a_non_empty_database(
    postgres_url: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    asyncio.run(store_someone_elses_memory(postgres_url))
    monkeypatch.setattr("bot.app.build_embedder", lambda settings: CachedEmbedder(HashEmbedder()))
    # The URL comes from the environment when --database-url is not given.
    monkeypatch.setenv("MEMORYBOT_DATABASE_URL", with_password(postgres_url))

    code = main(["bench", "latency", "--memories", "50", "--runs", "2", "--out", str(tmp_path)])

    assert code == 2
    err = capsys.readouterr().err
    assert "already holds memorybot rows" in err and SECRET not in err
    assert asyncio.run(count_rows(postgres_url)) == 1


def test_more_than_one_process_is_refused_on_the_embedded_backend(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.delenv("MEMORYBOT_DATABASE_URL", raising=False)
    with pytest.raises(ConfigError, match="PostgreSQL"):
        LoadOptions(workspaces=2, processes=2).check()

    assert main(["bench", "load", "--processes", "2", "--messages", "10"]) == 2
    assert "needs PostgreSQL" in capsys.readouterr().err


def test_an_empty_url_means_the_embedded_backend_and_other_schemes_are_refused() -> None:
    assert backend_from("").name == "embedded"
    assert backend_from(None).url is None
    assert backend_from("postgresql://h/db").name == "postgresql"
    with pytest.raises(ConfigError):
        backend_from("mysql://h/db")


def test_shards_keep_each_workspace_in_one_process_and_discord_dms_in_the_first() -> None:
    import random

    options = LoadOptions(channels=40, workspaces=4, processes=3)
    convs = conversations(options, random.Random(7))

    parts = shards(convs, 3)

    assert sorted(c.index for part in parts for c in part) == [c.index for c in convs]
    homes: dict[str, set[int]] = {}
    for n, part in enumerate(parts):
        for conv in part:
            if conv.platform == "discord" and conv.is_dm:
                assert n == 0
            else:
                homes.setdefault(conv.workspace_id, set()).add(n)
    assert all(len(home) == 1 for home in homes.values())
    assert all(part for part in parts)


async def test_two_bot_processes_share_one_database_and_lose_nothing(postgres_url: str) -> None:
    options = LoadOptions(
        channels=6,
        messages=50,
        workspaces=2,
        model_delay_ms=0,
        think=0,
        processes=2,
        backend=BenchBackend(postgres_url),
    )
    embedder = CachedEmbedder(HashEmbedder())

    report = await run_load(
        options,
        embedder,
        Settings.load(env_file=None),
        make_embedder=partial(CachedEmbedder, HashEmbedder()),
    )

    assert report["backend"]["name"] == "postgresql"
    assert report["processes"] == 2
    first, second = report["per_process"]
    # Each workspace lives in one process; together they sent every message, and nothing was lost.
    assert not set(first["workspaces"]) & set(second["workspaces"])
    assert first["messages"] > 0 and second["messages"] > 0
    assert first["messages"] + second["messages"] == 50
    assert first["channels"] + second["channels"] == 6
    assert report["messages_lost"] == 0 and report["cross_channel_leaks"] == 0
    assert report["throughput_msgs_per_s"] > 0
    assert await count_rows(postgres_url, "messages") == 0  # emptied after the run


async def test_locomo_on_postgres_says_so_and_empties_each_conversation(
    postgres_url: str, tmp_path: Path
) -> None:
    data = tmp_path / "tiny.json"
    data.write_text(json.dumps(CONVERSATION), encoding="utf-8")

    report = await run_locomo(data, CachedEmbedder(HashEmbedder()), None, backend=BenchBackend(postgres_url))

    assert report["backend"]["name"] == "postgresql"
    assert (report["conversations"], report["questions"]) == (1, 2)
    # The baselines are LanceDB's own searches, beside whichever backend runs the bot.
    assert report["baselines"]["vector_only"]["injected_items_mean"] == 5.0
    assert await count_rows(postgres_url, "messages") == 0


@pytest.mark.postgres  # starts a server of its own
async def test_the_bench_server_serves_a_durable_database_with_pgvector_and_cleans_up() -> None:
    # The worktree's code in the child, wherever the test runs from.
    env = child_env(PYTHONPATH=str(ROOT))
    proc = await spawn_python(
        "-m", "bench.pg_server", "--shared-buffers", "128MB", "--max-wal-size", "256MB", env=env
    )
    try:
        # A bound on a hung start, not a timing assertion.
        line = await asyncio.wait_for(proc.stdout.readline(), 180)  # type: ignore[union-attr]
        url = line.decode().strip()
        assert url.startswith("postgresql://"), (await proc.stderr.read()).decode()  # type: ignore[union-attr]
        conn = await asyncpg.connect(url)
        try:
            assert await conn.fetchval("SHOW fsync") == "on"
            assert await conn.fetchval("SHOW synchronous_commit") == "on"
            assert await conn.fetchval("SHOW shared_buffers") == "128MB"  # applied by the restart
            assert await conn.fetchval("SELECT extversion FROM pg_extension WHERE extname = 'vector'")
        finally:
            await conn.close()
        socket_dir = Path(unquote(url.partition("?host=")[2]))
        assert await asyncio.to_thread(socket_dir.exists)
    finally:
        if proc.returncode is None:
            proc.send_signal(signal.SIGTERM)
    assert await proc.wait() == 0
    assert not await asyncio.to_thread(socket_dir.exists)


async def test_stored_vectors_spare_the_next_run_embedding_the_memories_on_either_backend(
    postgres_url: str, tmp_path: Path
) -> None:
    vectors = tmp_path / "vectors"
    # The texts no clock changes (a relative date resolves against the run's clock).
    memory_texts = {
        d.content
        for d in synthetic_drafts(200, 0.0, random.Random(7))
        if build_memory(d, 1.7e9).content == build_memory(d, 1.8e9).content == d.content
    }
    assert len(memory_texts) > 100
    first = CountingEmbedder(HashEmbedder())
    options = dataclasses.replace(latency_options(postgres_url), vectors_dir=vectors)

    report = await run_latency(options, CachedEmbedder(first))

    assert report["runs"][0]["setup"]["vectors"] == "embedded"
    assert memory_texts <= {t for call in first.calls for t in call}
    again = CountingEmbedder(HashEmbedder())
    report = await run_latency(options, CachedEmbedder(again))
    assert report["runs"][0]["setup"]["vectors"] == "from file"
    assert report["runs"][0]["setup"]["memories_stored"] == 200
    # Only the past turns and the pre-hook's queries were embedded this time.
    assert not memory_texts & {t for call in again.calls for t in call}

    embedded = dataclasses.replace(options, backend=BenchBackend())
    report = await run_latency(embedded, CachedEmbedder(HashEmbedder()))
    assert report["runs"][0]["setup"]["vectors"] == "from file"


async def test_a_kept_fill_stays_and_the_next_run_times_it_again_without_filling(
    postgres_url: str,
) -> None:
    options = latency_options(postgres_url, keep=True)
    first = await run_latency(options, CachedEmbedder(HashEmbedder()))

    assert first["runs"][0]["setup"]["memories_stored"] == 200
    assert "--keep" in first["backend"]["data"]
    assert await count_rows(postgres_url) == 200 and await count_rows(postgres_url, "messages") == 20
    ids = await memory_ids(postgres_url)
    # The first run's pre-hook counted what it recalled; the next one starts from the fill's counts.
    assert await count_accessed(postgres_url) > 0
    again = CountingEmbedder(HashEmbedder())
    second = await run_latency(options, CachedEmbedder(again))

    setup = second["runs"][0]["setup"]
    assert setup["kept_fill"] == "timed again"
    assert setup["filled"]["memories_stored"] == 200
    assert setup["access_counts_cleared"] > 0
    assert second["runs"][0]["system"]["p50_ms"] > 0
    # The same rows, not a new fill: no memory was copied or embedded beyond the vectors checked.
    assert await memory_ids(postgres_url) == ids
    embedded = [t for call in again.calls for t in call]
    assert len([t for t in embedded if not t.endswith("]")]) <= 16
    # A record kept without the rows' fingerprint: they are checked against the fill made again,
    # and the fingerprint is recorded for the next run.
    conn = await asyncpg.connect(postgres_url)
    try:
        recorded = json.loads(await conn.fetchval("SELECT fill::text FROM bench_fill"))
        await conn.execute("UPDATE bench_fill SET fill = fill - 'fingerprint'")
        third = await run_latency(options, CachedEmbedder(HashEmbedder()))
        assert third["runs"][0]["setup"]["kept_fill"] == "timed again"
        again_recorded = json.loads(await conn.fetchval("SELECT fill::text FROM bench_fill"))
    finally:
        await conn.close()
    assert recorded["fingerprint"]["memories"][0] == 200
    assert again_recorded["fingerprint"] == recorded["fingerprint"]
    # Without --keep the kept fill is someone else's data: refused, then emptied on request.
    with pytest.raises(DatabaseNotEmpty):
        await run_latency(latency_options(postgres_url), CachedEmbedder(HashEmbedder()))
    assert await count_rows(postgres_url) == 200
    await run_latency(latency_options(postgres_url, reset=True), CachedEmbedder(HashEmbedder()))
    assert await count_rows(postgres_url) == 0


@pytest.fixture(scope="module")
def kept_fill(postgres_server: PostgresTestServer) -> Iterator[str]:
    """A database holding the fill a latency run with `keep` leaves (`latency_options`), made
    once for the module: a test that starts from it works on its own copy (`kept_fill_url`)."""
    name = postgres_server.create_database()
    options = latency_options(postgres_server.url(name), keep=True)
    asyncio.run(run_latency(options, CachedEmbedder(HashEmbedder())))
    yield name
    postgres_server.drop_database(name)


@pytest.fixture
def kept_fill_url(postgres_server: PostgresTestServer, kept_fill: str) -> Iterator[str]:
    """The URL of a copy of `kept_fill` for this test alone (a copy takes milliseconds, a fill a second)."""
    name = postgres_server.create_database(template=kept_fill)
    yield postgres_server.url(name)
    postgres_server.drop_database(name)


@pytest.mark.parametrize("change", ["seed", "size", "messages", "model"])
async def test_a_kept_fill_made_otherwise_is_refused_and_left_untouched(
    kept_fill_url: str, change: str
) -> None:
    options = latency_options(kept_fill_url, keep=True)
    ids = await memory_ids(kept_fill_url)
    assert len(ids) == 200
    embedder = HashEmbedder(name="another-model") if change == "model" else HashEmbedder()
    other = {
        "seed": dataclasses.replace(options, seed=8),
        "size": dataclasses.replace(options, sizes=[150]),
        "messages": dataclasses.replace(options, messages=21),
        "model": options,
    }[change]

    with pytest.raises(DatabaseNotEmpty, match="kept fill"):
        await run_latency(other, CachedEmbedder(embedder))

    assert await memory_ids(kept_fill_url) == ids


@pytest.mark.parametrize("recorded", [True, False])
@pytest.mark.parametrize("change", ["content", "gone", "extra turn", "vector"])
async def test_a_kept_fill_whose_rows_changed_is_refused(
    kept_fill_url: str, change: str, recorded: bool
) -> None:
    options = latency_options(kept_fill_url, keep=True)
    conn = await asyncpg.connect(kept_fill_url)
    try:
        if not recorded:  # a record without the rows' fingerprint: checked against the fill made again
            await conn.execute("UPDATE bench_fill SET fill = fill - 'fingerprint'")
        first = await conn.fetchval("SELECT id FROM memories ORDER BY content_hash LIMIT 1")
        if change == "content":
            await conn.execute("UPDATE memories SET content_hash = md5('x') WHERE id = $1", first)
        elif change == "gone":
            await conn.execute("DELETE FROM memories WHERE id = $1", first)
        elif change == "extra turn":
            await conn.execute(
                "INSERT INTO messages (id, platform, workspace_id, channel_id, agent_id, author_id, "
                "author_name, role, content, created_at, visibility) SELECT 'extra', platform, workspace_id, "
                "channel_id, agent_id, author_id, author_name, role, content, created_at, visibility "
                "FROM messages LIMIT 1"
            )
        else:  # the first memory the check compares with the model's vector
            await conn.execute(
                "UPDATE memories SET embedding = (SELECT embedding FROM memories WHERE id <> $1 "
                "ORDER BY content_hash DESC LIMIT 1) WHERE id = $1",
                first,
            )
    finally:
        await conn.close()

    with pytest.raises(DatabaseNotEmpty, match="vectors are not" if change == "vector" else "fingerprints"):
        await run_latency(options, CachedEmbedder(HashEmbedder()))


async def test_keep_takes_one_size_and_a_postgresql_database(postgres_url: str) -> None:
    options = dataclasses.replace(latency_options(postgres_url, keep=True), sizes=[100, 200])
    with pytest.raises(ConfigError, match="one size"):
        await run_latency(options, CachedEmbedder(HashEmbedder()))
    with pytest.raises(ConfigError, match="--database-url"):
        backend_from("", keep=True)
    assert await count_rows(postgres_url) == 0


async def memory_ids(url: str) -> set[str]:
    conn = await asyncpg.connect(url)
    try:
        return {r[0] for r in await conn.fetch("SELECT id FROM memories")}
    finally:
        await conn.close()


async def count_accessed(url: str) -> int:
    conn = await asyncpg.connect(url)
    try:
        return int(await conn.fetchval("SELECT count(*) FROM memory_access WHERE access_count > 0"))
    finally:
        await conn.close()
