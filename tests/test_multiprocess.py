"""Several bot processes on one PostgreSQL database: what one writes or forgets, the others see next turn."""

from __future__ import annotations

import asyncio
import json
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, NamedTuple

import asyncpg
import pytest

from bot.app import App
from bot.llm.fake import ScriptedLLM, text
from memory.embedders import CachedEmbedder
from memory.engine import MemoryEngine
from memory.models import Audience, MemoryDraft, MemoryType, Scope
from memory.prehook import PreHook
from memory.storage import MemoryChange
from memory.storage.postgres.migrations import MANY_CHANGES
from tests.fakes.embedders import HashEmbedder
from tests.fakes.openai_embeddings import FakeOpenAIEmbeddings
from tests.helpers import ROOT, child_env, message, settings

WORKSPACE = Scope("discord", "guild-1", "general", "default")


class Listening(NamedTuple):
    """A running process's engine with a pre-hook and a record of the changes it heard, and another
    process's engine on the same database."""

    running: MemoryEngine
    other: MemoryEngine
    hook: PreHook
    heard: list[MemoryChange | None]


# Ana reading in the shared workspace: whose preferences the pre-hook caches.
READER = Audience(WORKSPACE.platform, WORKSPACE.workspace_id, WORKSPACE.agent_id, viewer_id="ana")


@pytest.fixture
async def listening(postgres_url: str) -> AsyncIterator[Listening]:
    embedder = CachedEmbedder(HashEmbedder())
    running = await MemoryEngine.open(postgres_url, embedder)
    other = await MemoryEngine.open(postgres_url, embedder)
    try:
        hook = PreHook(running)
        heard: list[MemoryChange | None] = []
        await running.storage.watch(heard.append)
        await running.storage.watch(hook.on_change)
        yield Listening(running, other, hook, heard)
    finally:
        await other.close()
        await running.close()


@pytest.fixture
async def embeddings() -> AsyncIterator[FakeOpenAIEmbeddings]:
    """OpenAI's embeddings endpoint answering with the hash embedder's vectors, so a `memorybot`
    child process embeds exactly as this process does (and loads no model)."""
    hashing = HashEmbedder()
    async with FakeOpenAIEmbeddings(lambda text: hashing.vector(text).tolist()) as server:
        yield server


# `memorybot` commands run one after another in one process, each as `python -m bot` runs it (its
# `main`), with what it printed and its exit code sent back as one JSON line.
_COMMANDS = """
import contextlib, io, json, sys
from bot.cli import main
for line in sys.stdin:
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        code = main(json.loads(line))
    sys.stdout.write(json.dumps({"code": code, "printed": printed.getvalue()}) + "\\n")
    sys.stdout.flush()
"""


class OtherProcess:
    """A process of its own on the database running a test's `memorybot memories ...` commands, one
    after another: a process per command would spend a second of CPU each importing the bot again."""

    def __init__(self, child: asyncio.subprocess.Process) -> None:
        self.child = child

    async def memories(self, *args: str) -> dict[str, Any]:
        """Run `memorybot memories ...` (in the workspace, as JSON); its JSON answer."""
        argv = ["memories", *args, "--platform", WORKSPACE.platform, "--workspace", WORKSPACE.workspace_id]
        assert self.child.stdin is not None and self.child.stdout is not None
        self.child.stdin.write(json.dumps([*argv, "--json"]).encode() + b"\n")
        await self.child.stdin.drain()
        # Asynchronous, so this process keeps answering the child's embedding requests meanwhile.
        line = await self.child.stdout.readline()
        assert line, "the command process ended"
        answer = json.loads(line)
        assert answer["code"] == 0, answer
        return json.loads(answer["printed"])


@asynccontextmanager
async def other_process(
    database_url: str, embeddings: FakeOpenAIEmbeddings, stderr_path: Path
) -> AsyncIterator[OtherProcess]:
    env = child_env(
        MEMORYBOT_DATABASE_URL=database_url,
        LLM_PROVIDER="offline",
        EMBEDDING_PROVIDER="openai",
        EMBEDDING_MODEL="all-MiniLM-L6-v2",  # 384 values, as the hash embedder gives
        OPENAI_BASE_URL=embeddings.base_url,
        OPENAI_API_KEY="not-needed",
    )
    with stderr_path.open("wb") as stderr:
        child = await asyncio.create_subprocess_exec(
            sys.executable,
            "-c",
            _COMMANDS,
            cwd=ROOT,
            env=env,
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            stderr=stderr,
        )
        try:
            yield OtherProcess(child)
        finally:
            assert child.stdin is not None
            child.stdin.close()  # no more commands: the process ends
            code = await child.wait()
    assert code == 0, await asyncio.to_thread(stderr_path.read_text, errors="replace")


def sent_to_model(call: Any) -> str:
    return "\n".join([call.system, *(m.content for m in call.messages)])


@pytest.mark.asyncio
async def test_a_write_and_a_forget_in_another_process_reach_a_running_bot_at_its_next_turn(
    postgres_url: str, embeddings: FakeOpenAIEmbeddings, tmp_path: Path
) -> None:
    llm = ScriptedLLM([text("Noted."), text("Sure.")])
    config = settings(tmp_path, storage={"database_url": postgres_url})
    bot = await App.start(config, embedder=CachedEmbedder(HashEmbedder()), llm=llm, warm=False)
    try:
        async with other_process(postgres_url, embeddings, tmp_path / "commands.stderr") as other:
            tea = await other.memories(
                "add", "Ana prefers green tea", "--type", "preference", "--user", "ana"
            )
            # Turn 1: the running bot loads Ana's preferences (now cached) and shows them to its model.
            await bot.pipeline.handle([message("hello, what shall we drink today?", author="ana")])
            assert "green tea" in sent_to_model(llm.calls[0])

            coffee = await other.memories(
                "add", "Ana prefers black coffee", "--type", "preference", "--user", "ana"
            )
            forgotten = await other.memories("forget", tea["memory"]["id"])
            assert forgotten["forgotten"] is True

        # Turn 2: the forgotten preference is nowhere (not in a kept block, not from the cache, not
        # in Ana's profile line); the new one is there.
        await bot.pipeline.handle([message("and for dessert, any idea?", author="ana")])
        second = sent_to_model(llm.calls[1])
        assert "green tea" not in second
        assert "black coffee" in second
        assert coffee["action"] == "inserted"
    finally:
        await bot.close()


@pytest.mark.asyncio
async def test_a_cached_preference_is_dropped_when_another_process_writes_one(listening: Listening) -> None:
    running, other, hook, heard = listening

    def preference(text: str) -> MemoryDraft:
        return MemoryDraft(text, WORKSPACE, memory_type=MemoryType.PREFERENCE, user_id="ana", author_id="ana")

    first = (await other.remember(preference("Ana prefers green tea"))).memory
    await running.storage.catch_up()
    assert [m.id for m in await hook.preferences.get(READER, "ana")] == [first.id]
    assert [m.id for m in await hook.preferences.get(READER, "ana")] == [first.id]
    assert hook.preferences.hits == 1  # the second read came from RAM

    second = (await other.remember(preference("Ana prefers black coffee"))).memory
    await other.forget(
        first.id, Audience(WORKSPACE.platform, WORKSPACE.workspace_id, "default", operator=True)
    )
    await running.storage.catch_up()
    assert [m.id for m in await hook.preferences.get(READER, "ana")] == [second.id]
    assert [(c.id, c.gone) for c in heard if c is not None] == [
        (first.id, False),
        (second.id, False),
        (first.id, True),
    ]


async def test_access_counts_flushed_by_two_processes_add_up_and_keep_the_latest_access(
    postgres_url: str,
) -> None:
    embedder = CachedEmbedder(HashEmbedder())
    first = await MemoryEngine.open(postgres_url, embedder)
    second = await MemoryEngine.open(postgres_url, embedder)
    try:
        memory = (await first.remember(MemoryDraft("Ana keeps bees", WORKSPACE, user_id="ana"))).memory
        await first.storage.memories.bump_access({memory.id: 2}, now=2_000.0)
        # The other process's flush was gathered earlier and lands later.
        await second.storage.memories.bump_access({memory.id: 3}, now=1_000.0)
        [stored] = await second.storage.memories.get_unscoped([memory.id])
        assert (stored.access_count, stored.last_accessed_at) == (5, 2_000.0)
    finally:
        await second.close()
        await first.close()


async def test_changes_missed_while_the_feed_was_down_empty_the_caches(
    listening: Listening, postgres_url: str
) -> None:
    running, other, hook, heard = listening
    assert await hook.preferences.get(READER, "ana") == []  # cached: Ana has no preference yet
    # The database drops the listening connection (a restart, a network cut)...
    admin = await asyncpg.connect(postgres_url)
    try:
        dropped = await admin.fetchval(
            "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE query LIKE 'LISTEN %'"
        )
    finally:
        await admin.close()
    assert dropped == 1
    # ...and a write lands while nobody listens.
    draft = MemoryDraft(
        "Ana prefers black coffee", WORKSPACE, memory_type=MemoryType.PREFERENCE, user_id="ana"
    )
    coffee = (await other.remember(draft)).memory
    await running.storage.catch_up()
    assert None in heard  # told that changes may have been missed
    assert [m.id for m in await hook.preferences.get(READER, "ana")] == [coffee.id]
    # Listening again: the next change is heard as usual.
    await other.forget_unscoped(coffee.id)
    await running.storage.catch_up()
    assert heard[-1] is not None and (heard[-1].id, heard[-1].gone) == (coffee.id, True)


async def test_a_statement_changing_many_memories_is_announced_once(listening: Listening) -> None:
    running, other, _hook, heard = listening
    drafts = [
        MemoryDraft(f"Ana noted item {n} of the inventory", WORKSPACE, user_id="ana")
        for n in range(MANY_CHANGES + 5)
    ]
    stored = await other.import_memories(drafts)
    await running.storage.catch_up()
    assert len([c for c in heard if c is not None]) == len(stored)  # one statement each: one by one
    heard.clear()
    # One statement over them all (a sweep, a bulk change): one notification, and every process
    # drops what it keeps, as when changes were missed.
    assert await other.storage.db.execute("UPDATE memories SET importance = 0.9") == f"UPDATE {len(stored)}"
    await running.storage.catch_up()
    assert heard == [None]
    heard.clear()
    few = [m.id for m in stored[:3]]
    await other.storage.db.execute("UPDATE memories SET importance = 0.8 WHERE id = ANY($1)", (few,))
    await running.storage.catch_up()
    assert sorted(c.id for c in heard if c is not None) == sorted(few) and None not in heard
