"""Faults the bot rides out: model timeouts, 5xx, embedder and LanceDB failures, full disk, socket drops."""

from __future__ import annotations

import asyncio
import dataclasses
import json
import sqlite3
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any
from unittest.mock import MagicMock

import aiohttp
import discord
import pytest

from adapters.base import IncomingMessage
from adapters.discord import MemoryBot
from adapters.slack import DEDUP_FILENAME, SlackAdapter
from bot.commands import MemoryCommands
from bot.llm import LLMProvider, LLMResponse
from bot.llm.fake import ScriptedLLM, text, tool
from bot.pipeline import APOLOGY, STORAGE_APOLOGY, TurnPipeline, TurnResult
from memory.embedders import CachedEmbedder
from memory.engine import MemoryEngine, MemoryWriteError
from memory.models import Audience, MemoryDraft, Scope
from memory.summarizer import ExtractiveSummarizer
from tests import helpers
from tests.fakes.embedders import FlakyEmbedder
from tests.fakes.llm_server import (
    ANTHROPIC_PATH,
    OPENAI_PATH,
    FakeLLMServer,
    RecordedRequest,
    Reply,
    anthropic_text,
    error,
    hang,
    ok,
    openai_text,
)
from tests.fakes.slack_api import TEAM_ID, FakeSlackAPI
from tests.helpers import (
    WAIT_LIMIT_SECONDS,
    DiscordSessions,
    FakeClock,
    FakeTurn,
    anthropic_provider,
    assert_consistent,
    discord_giving_up,
    event_body,
    mention_text,
    message_event,
    openai_provider,
    send_event,
    settings,
    slack_adapter,
    watched_discord_adapter,
)

WORKSPACE = "T1"
# Short enough to keep the timeout tests quick, long enough for a loaded machine to answer a
# local request well within it: only the held request ever reaches it.
SHORT_TIMEOUT_SECONDS = 1.0


@pytest.fixture
def flaky() -> FlakyEmbedder:
    return FlakyEmbedder()


@pytest.fixture
def embedder(flaky: FlakyEmbedder) -> CachedEmbedder:
    """The fast embedder that faults on demand, cached as the bot caches it: what `engine` (on real
    SQLite and LanceDB files) embeds with."""
    return CachedEmbedder(flaky)


def make_pipeline(engine: MemoryEngine, tmp_path: Path, llm: LLMProvider | None) -> TurnPipeline:
    # Extractive summaries: background work must not take the scripted model answers.
    return TurnPipeline(engine, settings(tmp_path), llm=llm, summarizer=ExtractiveSummarizer())


@asynccontextmanager
async def running(
    engine: MemoryEngine, tmp_path: Path, llm: LLMProvider | None
) -> AsyncIterator[TurnPipeline]:
    """A pipeline answering with `llm`; on the way out it waits for the background work (repairs)
    its turns queued, then the model client closes."""
    pipeline = make_pipeline(engine, tmp_path, llm)
    try:
        yield pipeline
    finally:
        await pipeline.aclose()
        if llm is not None:
            await llm.aclose()


def message(text_: str, clock: FakeClock, channel: str = "C1") -> IncomingMessage:
    """Zed's message in a Slack channel of WORKSPACE, 10 s after the clock's last one."""
    return helpers.message(
        text_, clock, "U1", name="Zed", platform="slack", workspace=WORKSPACE, channel=channel, step=10
    )


async def stored(engine: MemoryEngine, channel: str = "C1") -> list[tuple[str, str]]:
    rows = await engine.storage.turns.recent(Scope("slack", WORKSPACE, channel, "default"), limit=50)
    return [(m.role, m.content) for m in rows]


async def settle(pipeline: TurnPipeline) -> None:
    """Let the background repair a turn queued finish (it fails while the fault lasts), so the
    next turn schedules a fresh one instead of finding this one still running."""
    if pipeline.background.maintenance is not None:
        await pipeline.background.maintenance


class SteadyLLM:
    """A model that answers `reply` to every call, however many turns and channels ask."""

    name = "steady"
    model = "steady"

    def __init__(self, reply: str) -> None:
        self.reply = reply

    async def complete(self, system: str, messages: Sequence[Any], tools: Sequence[Any] = ()) -> LLMResponse:
        return text(self.reply)

    async def aclose(self) -> None:
        return None


# --- language model: timeouts, 5xx, one channel's failure beside another ------------------------


PROVIDERS = {
    "anthropic": (anthropic_provider, ANTHROPIC_PATH, lambda s: ok(anthropic_text(s)), "anthropic"),
    "openai": (openai_provider, OPENAI_PATH, lambda s: ok(openai_text(s)), "openai"),
}


@pytest.mark.parametrize("provider", sorted(PROVIDERS))
async def test_a_model_timeout_gets_an_apology_and_the_next_turn_recovers(
    llm_server: FakeLLMServer, engine: MemoryEngine, tmp_path: Path, clock: FakeClock, provider: str
) -> None:
    build, path, answer, _ = PROVIDERS[provider]
    llm = build(llm_server, timeout=SHORT_TIMEOUT_SECONDS, max_retries=0)
    async with running(engine, tmp_path, llm) as pipeline:
        llm_server.queue(path, hang(), answer("Back again: your flat viewing is on Friday."))
        first = await pipeline.handle([message("When is my flat viewing?", clock)])
        second = await pipeline.handle([message("Are you there now?", clock)])
    assert first.reply == APOLOGY
    assert first.error is not None and "timed out" in first.error
    assert second.reply == "Back again: your flat viewing is on Friday." and second.error is None
    assert await stored(engine) == [
        ("user", "When is my flat viewing?"),
        ("user", "Are you there now?"),
        ("assistant", "Back again: your flat viewing is on Friday."),
    ]


@pytest.mark.parametrize("provider", sorted(PROVIDERS))
async def test_5xx_is_retried_then_apologised_for_and_the_bot_recovers(
    llm_server: FakeLLMServer, engine: MemoryEngine, tmp_path: Path, clock: FakeClock, provider: str
) -> None:
    build, path, answer, api = PROVIDERS[provider]
    llm = build(llm_server, max_retries=1)
    async with running(engine, tmp_path, llm) as pipeline:
        # Turn 1: both tries fail. Turn 2: the SDK's retry gets through.
        llm_server.queue(path, error(503, api), error(500, api), error(502, api), answer("All good now."))
        first = await pipeline.handle([message("Ping?", clock)])
        second = await pipeline.handle([message("Ping again?", clock)])
    assert first.reply == APOLOGY and first.error is not None and "HTTP 500" in first.error
    assert second.reply == "All good now."
    assert len(llm_server.requests_to(path)) == 4 and llm_server.pending(path) == 0
    assert ("user", "Ping?") in await stored(engine)


async def test_one_channels_model_failure_does_not_hold_up_another(
    llm_server: FakeLLMServer, engine: MemoryEngine, tmp_path: Path, clock: FakeClock
) -> None:
    llm = anthropic_provider(llm_server, max_retries=0)
    pipeline = make_pipeline(engine, tmp_path, llm)
    release = asyncio.Event()
    arrived = asyncio.Event()

    def route(request: RecordedRequest) -> Reply:
        # The two channels' requests may arrive in either order: route by the user's own words
        # (the last block; recalled turns of the other channel may sit in the context block).
        if "Aardvark" in request.body["messages"][-1]["content"][-1]["text"]:
            arrived.set()
            return dataclasses.replace(error(500), until=release)
        return ok(anthropic_text("Bumblebee answered."))

    llm_server.queue_anthropic(route, route)
    try:
        async with asyncio.timeout(WAIT_LIMIT_SECONDS):
            stuck = asyncio.create_task(pipeline.handle([message("Aardvark question", clock, "C-A")]))
            await arrived.wait()  # channel A's model call is now in flight, held by the server
            other = await pipeline.handle([message("Bumblebee question", clock, "C-B")])
            assert other.reply == "Bumblebee answered."
            assert not stuck.done()
            release.set()
            failed = await stuck
        assert failed.reply == APOLOGY and failed.error is not None and "HTTP 500" in failed.error
        # The failing channel is served again as soon as the model answers.
        llm_server.queue_anthropic(ok(anthropic_text("Aardvark answered.")))
        again = await pipeline.handle([message("Aardvark, second try", clock, "C-A")])
        assert again.reply == "Aardvark answered."
    finally:
        release.set()
        await pipeline.aclose()
        await llm.aclose()
    assert await stored(engine, "C-A") == [
        ("user", "Aardvark question"),
        ("user", "Aardvark, second try"),
        ("assistant", "Aardvark answered."),
    ]


# --- embedder failures ---------------------------------------------------------------------------

GREETING = "I'm Zed and I prefer green tea over coffee"


@pytest.mark.parametrize(
    "failing_call",
    [1, 2, 3, 4],
    # The order today; the claim holds whichever step a call belongs to.
    ids=["incoming-turn", "heuristic-memory", "prehook", "reply-turn"],
)
async def test_any_single_embedding_failure_still_answers_and_stores_the_turn(
    engine: MemoryEngine, flaky: FlakyEmbedder, tmp_path: Path, clock: FakeClock, failing_call: int
) -> None:
    flaky.fail_calls = {failing_call}
    async with running(engine, tmp_path, SteadyLLM("Green tea it is, Zed.")) as pipeline:
        result = await pipeline.handle([message(GREETING, clock)])
    assert flaky.failed == [failing_call]
    assert result.reply == "Green tea it is, Zed." and result.error is None
    assert await stored(engine) == [("user", GREETING), ("assistant", "Green tea it is, Zed.")]
    await assert_consistent(engine)  # a turn stored without its vector was indexed in the background
    viewer = Audience("slack", WORKSPACE, "default", viewer_id="U1", channel_id="C1")
    found = await engine.search_messages(GREETING, viewer, limit=2)
    assert GREETING in [m.content for m, _ in found]


async def test_embedder_down_for_a_whole_turn_then_back(
    engine: MemoryEngine, flaky: FlakyEmbedder, tmp_path: Path, clock: FakeClock
) -> None:
    llm = SteadyLLM("Noted, Zed.")
    async with running(engine, tmp_path, llm) as pipeline:
        flaky.down = True
        down = await pipeline.handle([message(GREETING, clock)])
        assert down.reply == "Noted, Zed." and down.prehook is not None
        assert down.prehook.skipped_reason is not None and "embedding" in down.prehook.skipped_reason
        assert len(await engine.storage.turns.unindexed()) == 2  # the turn and the reply, queued
        await settle(pipeline)
        flaky.down = False
        back = await pipeline.handle([message("Do you remember what I drink?", clock)])
        assert back.reply == "Noted, Zed."
    assert [role for role, _ in await stored(engine)] == ["user", "assistant", "user", "assistant"]
    await assert_consistent(engine)


async def test_offline_responder_answers_with_the_embedder_down(
    engine: MemoryEngine, flaky: FlakyEmbedder, tmp_path: Path, clock: FakeClock
) -> None:
    async with running(engine, tmp_path, None) as pipeline:
        flaky.down = True
        result = await pipeline.handle([message(GREETING, clock)])
    assert result.reply and result.error is None
    assert [role for role, _ in await stored(engine)] == ["user", "assistant"]
    flaky.down = False
    # The user's turn is indexed now; the offline reply is kept out of search for good.
    assert await engine.repair_messages() == 1
    await assert_consistent(engine)


# --- LanceDB write failures ----------------------------------------------------------------------


def broken(exc: BaseException) -> Callable[..., Any]:
    async def fail(*args: Any, **kwargs: Any) -> None:
        raise exc

    return fail


async def test_remember_with_a_failing_vector_write_leaves_neither_row_nor_vector(
    engine: MemoryEngine, monkeypatch: pytest.MonkeyPatch
) -> None:
    scope = Scope("slack", WORKSPACE, "C1", "default")
    monkeypatch.setattr(
        engine.storage.vectors.memories, "insert", broken(OSError("lance: no space left on device"))
    )
    with pytest.raises(MemoryWriteError, match="vector store write failed, memory not saved"):
        await engine.remember(MemoryDraft("Zed drinks green tea", scope))
    monkeypatch.undo()
    assert await engine.storage.memories.unindexed() == []
    assert await engine.storage.memories.indexed_ids() == set() == await engine.storage.vectors.memories.ids()
    # Once LanceDB takes writes again, the same memory goes in whole.
    result = await engine.remember(MemoryDraft("Zed drinks green tea", scope))
    assert result.action == "inserted"
    await assert_consistent(engine)


async def test_vector_store_down_during_a_turn_costs_no_reply(
    engine: MemoryEngine, tmp_path: Path, clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    llm = ScriptedLLM(
        [
            tool("remember", content="Zed's flat viewing is on Friday", type="event"),
            text("Noted, Friday."),
            text("You're welcome."),
        ]
    )
    async with running(engine, tmp_path, llm) as pipeline:
        lance_down = OSError("lance: no space left on device")
        monkeypatch.setattr(engine.storage.vectors.memories, "insert", broken(lance_down))
        monkeypatch.setattr(engine.storage.vectors.messages, "insert", broken(lance_down))
        result = await pipeline.handle([message(GREETING + "; my flat viewing is on Friday", clock)])
        assert result.reply == "Noted, Friday."
        # The model was told its memory did not go in, and no memory row was left behind.
        tool_result = json.loads(llm.calls[1].messages[-1].content)
        assert "remember failed" in tool_result["error"]
        assert result.learned == [] and result.remembered == []
        assert await engine.storage.memories.indexed_ids() == set()
        assert await engine.storage.memories.unindexed() == []
        # Both turns are stored, waiting for their vectors.
        assert len(await engine.storage.turns.unindexed()) == 2
        await settle(pipeline)
        monkeypatch.undo()
        assert (await pipeline.handle([message("Thanks!", clock)])).reply == "You're welcome."
    assert [role for role, _ in await stored(engine)] == ["user", "assistant", "user", "assistant"]
    await assert_consistent(engine)


# --- a full disk ---------------------------------------------------------------------------------


async def fill_database(engine: MemoryEngine) -> None:
    """A real SQLITE_FULL: the writer may not grow the file by one page (as on a full disk)."""
    writer = engine.storage.sql._writer
    async with writer.execute("PRAGMA page_count") as cursor:
        row = await cursor.fetchone()
    assert row is not None
    await writer.execute(f"PRAGMA max_page_count = {int(row[0])}")


async def free_space(engine: MemoryEngine) -> None:
    await engine.storage.sql._writer.execute("PRAGMA max_page_count = 1073741823")


async def test_disk_full_gets_a_clear_apology_and_writes_resume_once_space_is_freed(
    engine: MemoryEngine, tmp_path: Path, clock: FakeClock
) -> None:
    async with running(engine, tmp_path, SteadyLLM("Got it.")) as pipeline:
        # Longer than a page, so storing it needs a new page whatever free room the file has.
        long_text = "Here are my notes from the offsite: " + "budget and hiring plans, " * 300
        await fill_database(engine)
        full = await pipeline.handle([message(long_text, clock)])
        assert full.reply == STORAGE_APOLOGY
        assert full.storage_error is not None and "database or disk is full" in full.storage_error
        assert full.stored_message_ids == [] and await stored(engine) == []
        await free_space(engine)
        # The writer is not left inside a dead transaction: the same message now goes in.
        after = await pipeline.handle([message(long_text, clock)])
        assert after.reply == "Got it." and after.storage_error is None
    assert await stored(engine) == [("user", long_text), ("assistant", "Got it.")]
    await assert_consistent(engine)


async def test_disk_full_answers_every_channel_and_none_is_stuck(
    engine: MemoryEngine, tmp_path: Path, clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with running(engine, tmp_path, SteadyLLM("Served.")) as pipeline:
        real_insert = engine.storage.turns.insert_rows

        async def disk_full(*args: Any, **kwargs: Any) -> list[str]:
            raise sqlite3.OperationalError("database or disk is full")

        channels = ["C-1", "C-2", "C-3"]
        monkeypatch.setattr(engine.storage.turns, "insert_rows", disk_full)
        async with asyncio.timeout(WAIT_LIMIT_SECONDS):
            during = await asyncio.gather(
                *(pipeline.handle([message(f"Hello from {c}", clock, c)]) for c in channels)
            )
        assert [r.reply for r in during] == [STORAGE_APOLOGY] * 3
        # Learning-only batches (a channel the bot only listens to) stay silent.
        silent = await pipeline.handle([message("Just chatting", clock, "C-4")], respond=False)
        assert silent.reply is None and silent.storage_error is not None
        monkeypatch.setattr(engine.storage.turns, "insert_rows", real_insert)
        async with asyncio.timeout(WAIT_LIMIT_SECONDS):
            after: list[TurnResult] = await asyncio.gather(
                *(pipeline.handle([message(f"Hello again from {c}", clock, c)]) for c in channels)
            )
        assert [r.reply for r in after] == ["Served."] * 3
    for channel in channels:
        assert await stored(engine, channel) == [
            ("user", f"Hello again from {channel}"),
            ("assistant", "Served."),
        ]


# --- platform connections ------------------------------------------------------------------------


async def test_slack_socket_mode_reconnects_after_a_drop_and_answers(
    tmp_path: Path, engine: MemoryEngine, clock: FakeClock
) -> None:
    async with FakeSlackAPI() as fake:
        fake.add_user("UALICE001", "Alice")
        turn = FakeTurn("Still here.")
        adapter = slack_adapter(
            fake,
            turn,
            MemoryCommands(engine, "default", clock=clock),
            tmp_path / "slack",
            slack={"app_token": "xapp-1-test", "mode": "socket"},
        )
        await adapter.start()
        try:
            async with asyncio.timeout(WAIT_LIMIT_SECONDS):
                await adapter.wait_until_ready()
                assert adapter.ready
                await fake.drop_sockets()
                await fake.wait_for(
                    lambda: len(fake.calls_to("apps.connections.open")) == 2 and fake.socket_connected
                )
                event = message_event(
                    mention_text("after the drop?"), "1700000000.002000", kind="app_mention"
                )
                await fake.send_envelope(
                    {
                        "envelope_id": "env-after-drop",
                        "payload": json.loads(event_body(event, "EvAfterDrop")),
                        "type": "events_api",
                        "accepts_response_payload": False,
                        "retry_attempt": 0,
                    }
                )
                await fake.wait_for(
                    lambda: any(a.get("envelope_id") == "env-after-drop" for a in fake.socket_acks)
                )
                await fake.wait_for(lambda: len(fake.posts()) == 1)
                await adapter.drain()
            assert adapter.ready
            assert fake.posts()[0]["text"] == "Still here."
            assert [m.text for m in turn.calls[0][0]] == ["after the drop?"]
            assert turn.calls[0][0][0].workspace_id == TEAM_ID
        finally:
            await adapter.stop(grace=5)


async def test_slack_claims_lost_to_a_power_cut_never_mean_a_second_answer(
    tmp_path: Path, engine: MemoryEngine, clock: FakeClock
) -> None:
    pipeline = make_pipeline(engine, tmp_path, SteadyLLM("Answered once."))
    results: list[TurnResult] = []

    async def turn(batch: Sequence[IncomingMessage], respond: bool) -> str | None:
        results.append(await pipeline.handle(batch, respond))
        return results[-1].reply

    event = message_event(mention_text("did you get this?"), "1700000000.003000", kind="app_mention")
    async with FakeSlackAPI() as fake:
        fake.add_user("UALICE001", "Alice")

        def adapter() -> SlackAdapter:
            return slack_adapter(
                fake, turn, MemoryCommands(engine, "default", clock=clock), tmp_path / "slack"
            )

        first = adapter()
        await first.start()
        await first.wait_until_identified()
        assert await send_event(first, event, "EvPowerCut") == 200
        await first.drain()
        await first.stop(grace=5)
        assert len(fake.posts()) == 1
        # The event record (synchronous=NORMAL) lost its last claims; the main store did not.
        for suffix in ("", "-wal", "-shm"):
            (tmp_path / "slack" / (DEDUP_FILENAME + suffix)).unlink(missing_ok=True)
        second = adapter()
        await second.start()
        try:
            await second.wait_until_identified()
            assert await send_event(second, event, "EvPowerCut", retry=1) == 200
            await second.drain()
        finally:
            await second.stop(grace=5)
            await pipeline.aclose()
        # The redelivery got through to the pipeline, which knew the message and stayed silent.
        assert [r.duplicate for r in results] == [False, True]
        assert len(fake.posts()) == 1 and fake.posts()[0]["text"] == "Answered once."


def closed_socket(code: int) -> discord.ConnectionClosed:
    socket = MagicMock(spec=aiohttp.ClientWebSocketResponse)
    socket.close_code = code
    return discord.ConnectionClosed(socket, shard_id=None, code=code)


async def test_discord_reconnects_with_a_fresh_client_after_a_dropped_session(
    memory_commands: MemoryCommands, monkeypatch: pytest.MonkeyPatch
) -> None:
    attempts: list[MemoryBot] = []
    sessions = [asyncio.Event(), asyncio.Event()]
    drop = asyncio.Event()
    clients = DiscordSessions()
    closed = clients.closed

    async def session(self: MemoryBot, token: str, *, reconnect: bool = True) -> None:
        attempts.append(self)
        await self.on_ready()
        sessions[len(attempts) - 1].set()
        if len(attempts) == 1:
            await drop.wait()
            await self.on_disconnect()
            # A close code discord.py's own resume could not handle: the session is gone.
            raise closed_socket(1006)
        await clients.until_closed(self)  # until the adapter closes it

    clients.install(monkeypatch, session)
    adapter = watched_discord_adapter(memory_commands)
    await adapter.start()
    try:
        async with asyncio.timeout(WAIT_LIMIT_SECONDS):
            await sessions[0].wait()
            assert adapter.ready
            drop.set()
            await sessions[1].wait()
        assert len(attempts) == 2 and attempts[0] is not attempts[1]
        assert attempts[0] in closed and adapter.bot is attempts[1] and adapter.ready
        assert adapter.intake.accepting  # intake stayed open across the reconnect
    finally:
        await adapter.stop(grace=0)
    assert attempts[1] in closed and adapter.connection_task is None


async def test_discord_does_not_retry_a_session_closed_for_good(
    memory_commands: MemoryCommands, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    async def session(bot: MemoryBot) -> None:
        await bot.on_ready()
        raise closed_socket(4014)  # disallowed intents: reconnecting would fail the same way

    adapter, attempts = await discord_giving_up(memory_commands, monkeypatch, session)
    assert len(attempts) == 1
    assert "close code 4014" in caplog.text and not adapter.ready
    await adapter.stop(grace=0)


@pytest.fixture
def memory_commands(engine: MemoryEngine, clock: FakeClock) -> MemoryCommands:
    return MemoryCommands(engine, "default", clock=clock)
