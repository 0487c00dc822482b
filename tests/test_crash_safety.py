"""A real process killed mid-ingestion: every acknowledged write survives; reopening repairs both stores."""

from __future__ import annotations

import asyncio
import signal
import sys
from dataclasses import dataclass, field
from pathlib import Path

import aiosqlite
import pytest

from adapters.base import IncomingMessage
from bot.app import App
from memory.engine import MemoryEngine
from memory.models import Audience
from tests.fakes.embedders import HashEmbedder
from tests.fakes.ingest_worker import CRASH_POINTS, WORKSPACE
from tests.helpers import ROOT, assert_consistent, child_env, settings

# Only turns a hung child into a failure; a passing run never gets near it.
CHILD_LIMIT_SECONDS = 120
KILL_AFTER_ACKS = 150
OPERATOR = Audience("slack", WORKSPACE, "default", operator=True)


@dataclass
class ChildRun:
    """What the child printed before it died: acknowledged ids, and the write in flight at a crash;
    its exit code and what it wrote to stderr."""

    messages: list[str] = field(default_factory=list)
    memories: list[str] = field(default_factory=list)
    crashed_kind: str | None = None
    crashed_ids: list[str] = field(default_factory=list)
    returncode: int | None = None
    stderr: str = ""

    def take(self, line: str) -> None:
        parts = line.split()
        if parts[:1] == ["ack"] and len(parts) == 3:
            (self.messages if parts[1] == "message" else self.memories).append(parts[2])
        elif parts[:1] == ["crash"]:
            self.crashed_kind, self.crashed_ids = parts[1], parts[2:]

    @property
    def acks(self) -> int:
        return len(self.messages) + len(self.memories)


async def run_child(data_dir: Path | str, stderr_path: Path, crash: str | None = None) -> ChildRun:
    """Run the ingest worker; SIGKILL it after KILL_AFTER_ACKS acks unless it kills itself first."""
    env = child_env(TRANSFORMERS_OFFLINE="1", PYTHONUNBUFFERED="1")
    args = [sys.executable, "-m", "tests.fakes.ingest_worker", str(data_dir)]
    if crash is not None:
        args += ["--crash", crash]
    run = ChildRun()
    with stderr_path.open("wb") as stderr:
        process = await asyncio.create_subprocess_exec(
            *args, stdout=asyncio.subprocess.PIPE, stderr=stderr, cwd=ROOT, env=env
        )
        assert process.stdout is not None
        try:
            async with asyncio.timeout(CHILD_LIMIT_SECONDS):
                while crash is not None or run.acks < KILL_AFTER_ACKS:
                    line = await process.stdout.readline()
                    if not line:
                        break  # the child died (by its own hand when `crash` is set)
                    run.take(line.decode())
                if process.returncode is None and crash is None:
                    process.send_signal(signal.SIGKILL)
                # Lines already in the pipe were acknowledged before the kill: they count too.
                # A line cut short by the kill has no newline and is not an ack.
                for line in (await process.stdout.read()).decode().splitlines(keepends=True):
                    if line.endswith("\n"):
                        run.take(line)
                run.returncode = await process.wait()
        finally:
            if process.returncode is None:
                process.kill()
                await process.wait()
    run.stderr = await asyncio.to_thread(stderr_path.read_text, errors="replace")
    return run


async def sqlite_ids(data_dir: Path, table: str, where: str = "1") -> set[str]:
    async with aiosqlite.connect(data_dir / "memorybot.sqlite3") as db:
        async with db.execute(f"SELECT id FROM {table} WHERE {where}") as cursor:
            return {str(row[0]) for row in await cursor.fetchall()}


async def assert_kept(engine: MemoryEngine, run: ChildRun) -> None:
    """Every message and memory the child acknowledged is a row of the reopened store."""
    assert set(run.messages) <= {m.id for m in await engine.storage.turns.get_unscoped(run.messages)}
    assert set(run.memories) <= {m.id for m in await engine.storage.memories.get_unscoped(run.memories)}


async def assert_searchable(engine: MemoryEngine, memory_ids: list[str], message_ids: list[str]) -> None:
    """The last five acknowledged memories still in search, and the last five messages, are found
    by a search for their own text."""
    memories = await engine.storage.memories.get_unscoped(memory_ids)
    # A memory superseded by a later refinement stays in the store, out of search by design.
    for memory in [m for m in memories if not m.forgotten][-5:]:
        hits = await engine.search(memory.content, OPERATOR, limit=3)
        assert memory.id in [h.memory.id for h in hits], memory.content
    for message in (await engine.storage.turns.get_unscoped(message_ids))[-5:]:
        audience = Audience("slack", WORKSPACE, "default", viewer_id=message.author_id)
        found = await engine.search_messages(message.content, audience, limit=3)
        assert message.id in [m.id for m, _ in found], message.content


async def test_sigkill_mid_ingestion_loses_no_acknowledged_write(tmp_path: Path) -> None:
    data_dir = tmp_path / "data"
    run = await run_child(data_dir, tmp_path / "child.stderr")
    assert run.returncode == -signal.SIGKILL, run.stderr
    assert run.acks >= KILL_AFTER_ACKS and run.messages and run.memories, run.stderr

    # Straight off the disk, before anything repairs: every acknowledged write is a committed row.
    assert set(run.messages) <= await sqlite_ids(data_dir, "messages")
    assert set(run.memories) <= await sqlite_ids(data_dir, "memories")

    engine = await MemoryEngine.open(data_dir, HashEmbedder())
    try:
        await assert_kept(engine, run)
        await assert_consistent(engine)
        await assert_searchable(engine, run.memories, run.messages)
        again = await engine.reconcile()
        assert again.details == []  # the open already repaired everything
    finally:
        await engine.close()

    # The repaired stores take new writes and survive another open untouched.
    engine = await MemoryEngine.open(data_dir, HashEmbedder())
    try:
        assert (await engine.reconcile()).details == []
        await assert_consistent(engine)
    finally:
        await engine.close()


async def test_sigkill_mid_ingestion_loses_no_acknowledged_write_on_postgres(
    tmp_path: Path, postgres_url: str
) -> None:
    """The same kill on PostgreSQL: a row and its vector commit together, so every acknowledged
    write is whole and searchable at once, with nothing for the next open to repair."""
    run = await run_child(postgres_url, tmp_path / "child.stderr")
    assert run.returncode == -signal.SIGKILL, run.stderr
    assert run.acks >= KILL_AFTER_ACKS and run.messages and run.memories, run.stderr

    engine = await MemoryEngine.open(postgres_url, HashEmbedder(), reconcile=False)
    try:
        await assert_kept(engine, run)
        memories = await engine.storage.memories.get_unscoped(run.memories)
        active = {m.id for m in memories if not m.forgotten}
        assert active <= set((await engine.storage.memories.embeddings(list(active))).keys())
        assert (await engine.reconcile()).details == []
        await assert_searchable(engine, run.memories, run.messages)
    finally:
        await engine.close()


@pytest.mark.parametrize("crash", CRASH_POINTS)
async def test_process_death_between_the_two_stores_is_repaired_on_open(tmp_path: Path, crash: str) -> None:
    data_dir = tmp_path / "data"
    run = await run_child(data_dir, tmp_path / "child.stderr", crash=crash)
    assert run.returncode == -signal.SIGKILL, run.stderr
    kind = crash.split(":")[0]
    assert run.crashed_kind == kind and run.crashed_ids, run.stderr
    table = "messages" if kind == "message" else "memories"
    # The row was committed and the process died before its vector was written or marked.
    assert set(run.crashed_ids) <= await sqlite_ids(data_dir, table, "indexed = 0")

    engine = await MemoryEngine.open(data_dir, HashEmbedder())
    try:
        await assert_kept(engine, run)
        await assert_consistent(engine)
        vectors = engine.storage.vectors.messages if kind == "message" else engine.storage.vectors.memories
        # The row that was in flight is whole now: one vector, found by a search for its text.
        assert set(run.crashed_ids) <= await vectors.ids()
        if kind == "memory":
            await assert_searchable(engine, run.crashed_ids, [])
        else:
            await assert_searchable(engine, [], run.crashed_ids)
    finally:
        await engine.close()


async def test_summaries_whose_vector_never_landed_are_indexed_at_start_up(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    config = settings(tmp_path)
    app = await App.start(config, embedder=HashEmbedder(), with_llm=False)
    try:
        table = await app.pipeline.summaries.store.table()

        async def broken_add(records: object) -> None:
            raise OSError("lance: no space left on device")

        monkeypatch.setattr(table, "insert", broken_add)
        turn = IncomingMessage("slack", WORKSPACE, "C1", "U1", "Zed", "The offsite moved to Lisbon in May")
        assert (await app.pipeline.handle([turn])).reply
        await app.pipeline.idle()  # the turn's summary is written in the background
        pending = [summary.id for summary, _ in await app.pipeline.summaries.store.unindexed()]
        assert len(pending) == 1
        monkeypatch.undo()
    finally:
        await app.close()

    app = await App.start(config, embedder=HashEmbedder(), with_llm=False)
    try:
        assert await app.pipeline.summaries.store.unindexed() == []
        assert await (await app.pipeline.summaries.store.table()).ids() == set(pending)
    finally:
        await app.close()
