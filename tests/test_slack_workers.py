"""Slack over HTTP behind several workers on one PostgreSQL database: each event handled once, each
channel's turns one at a time across workers."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest

from adapters.slack import SlackAdapter
from bot.commands import MemoryCommands
from bot.llm.fake import ScriptedLLM, text
from bot.llm.types import ChatMessage, LLMResponse, ToolSpec
from bot.pipeline import TurnPipeline
from memory.embedders import CachedEmbedder
from memory.engine import MemoryEngine
from memory.models import MemoryDraft, MemoryType, Scope, Visibility
from memory.storage.postgres import PostgresStorage
from memory.storage.postgres import storage as storage_module
from memory.storage.postgres.storage import LOCK_WAIT_LOG
from memory.summarizer import ExtractiveSummarizer
from tests.fakes.embedders import HashEmbedder
from tests.fakes.local_server import WAIT_LIMIT_SECONDS
from tests.fakes.slack_api import FakeSlackAPI
from tests.helpers import (
    FakeTurn,
    ana_says,
    blocks_in,
    event_envelope,
    mention_text,
    message,
    message_event,
    send_event,
    settings,
    slack_adapter,
)

PipelinesOn = Callable[[Sequence[ScriptedLLM]], list[TurnPipeline]]


@pytest.fixture
async def pipelines_on(workers: list[MemoryEngine], tmp_path: Path) -> AsyncIterator[PipelinesOn]:
    """Each worker's turn pipeline, answering with one of `llms`; closed after the test."""
    made: list[TurnPipeline] = []

    def make(llms: Sequence[ScriptedLLM]) -> list[TurnPipeline]:
        pipelines = [
            TurnPipeline(engine, settings(tmp_path), llm=llm, summarizer=ExtractiveSummarizer())
            for engine, llm in zip(workers, llms, strict=True)
        ]
        made.extend(pipelines)
        return pipelines

    yield make
    for pipeline in made:
        await pipeline.aclose()


@pytest.fixture
async def workers(postgres_url: str) -> AsyncIterator[list[MemoryEngine]]:
    """Two bot processes' engines on one database (each with its own pools and connections)."""
    embedder = CachedEmbedder(HashEmbedder())
    engines = [await MemoryEngine.open(postgres_url, embedder) for _ in range(2)]
    yield engines
    for engine in engines:
        await engine.close()


async def start_adapters(
    fakes: Sequence[FakeSlackAPI],
    workers: Sequence[MemoryEngine],
    turns: Sequence[FakeTurn],
    tmp_path: Path,
    slack: dict[str, Any] | None = None,
) -> list[SlackAdapter]:
    """Each worker's Slack adapter, talking to its fake, its event log in the shared database."""
    adapters = []
    for n, (fake, engine, turn) in enumerate(zip(fakes, workers, turns, strict=True)):
        storage = engine.storage
        assert isinstance(storage, PostgresStorage)
        adapter = slack_adapter(
            fake,
            turn,
            MemoryCommands(engine, "default"),
            tmp_path / f"worker-{n}",  # no file in common: only the database is shared
            slack=slack,
            event_log=lambda ttl, storage=storage: storage.events(ttl_seconds=ttl),
        )
        await adapter.start()
        adapters.append(adapter)
    return adapters


async def test_an_event_delivered_to_two_workers_is_handled_once(
    workers: list[MemoryEngine], tmp_path: Path
) -> None:
    turns = [FakeTurn(), FakeTurn()]
    async with FakeSlackAPI() as fake:
        adapters = await start_adapters([fake, fake], workers, turns, tmp_path)
        event = message_event(mention_text("remember I like tea"), "1700000000.000400", kind="app_mention")
        # Slack retries an event it thinks was lost; behind a load balancer the retry reaches another worker.
        assert await send_event(adapters[0], event, "EvTwice") == 200
        assert await send_event(adapters[1], event, "EvTwice", retry=1) == 200
        for adapter in adapters:
            await adapter.drain()
            await adapter.stop(grace=5)
    assert [len(turn.calls) for turn in turns] == [1, 0]


async def test_an_event_redelivered_to_another_socket_mode_process_is_handled_once(
    workers: list[MemoryEngine], tmp_path: Path
) -> None:
    turns = [FakeTurn(), FakeTurn()]
    # Each process holds its own Socket Mode connection (here each to its own fake Slack).
    async with FakeSlackAPI() as first, FakeSlackAPI() as second:
        fakes = [first, second]
        adapters = await start_adapters(
            fakes, workers, turns, tmp_path, slack={"mode": "socket", "app_token": "xapp-1-test"}
        )
        for adapter in adapters:
            await adapter.wait_until_ready()
        event = message_event(mention_text("remember I like tea"), "1700000000.000500", kind="app_mention")
        payload = event_envelope(event, "EvSocketTwice")
        # Slack redelivers an event whose ack it missed, over whichever connection it likes.
        for n, (fake, adapter) in enumerate(zip(fakes, adapters, strict=True)):
            envelope_id = f"env-{n}"
            await fake.send_envelope(
                {
                    "envelope_id": envelope_id,
                    "payload": payload,
                    "type": "events_api",
                    "accepts_response_payload": False,
                    "retry_attempt": n,
                }
            )
            await fake.wait_for(
                lambda fake=fake, e=envelope_id: any(a.get("envelope_id") == e for a in fake.socket_acks)
            )
            await adapter.drain()
        for adapter in adapters:
            await adapter.stop(grace=5)
        assert [len(fake.posts()) for fake in fakes] == [1, 0]
    assert [len(turn.calls) for turn in turns] == [1, 0]


class LockWaits(logging.Handler):
    """Sets `waiting` when a worker finds a conversation held by another process (the database said so)."""

    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.waiting = asyncio.Event()

    def emit(self, record: logging.LogRecord) -> None:
        if record.getMessage() == LOCK_WAIT_LOG:
            self.waiting.set()


@pytest.fixture
def lock_waits() -> Iterator[LockWaits]:
    handler = LockWaits()
    logger = logging.getLogger(storage_module.__name__)
    level = logger.level
    logger.addHandler(handler)
    logger.setLevel(logging.DEBUG)
    yield handler
    logger.removeHandler(handler)
    logger.setLevel(level)


async def test_two_workers_answer_one_channel_one_turn_at_a_time(
    pipelines_on: PipelinesOn, lock_waits: LockWaits
) -> None:
    events: list[str] = []
    first_started = asyncio.Event()
    let_first_finish = asyncio.Event()

    async def slow(_system: str, _messages: list[ChatMessage], _tools: list[ToolSpec]) -> LLMResponse:
        events.append("first:model")
        first_started.set()
        await let_first_finish.wait()
        events.append("first:answered")
        return text("The first answer.")

    def second_reply(_system: str, messages: list[ChatMessage], _tools: list[ToolSpec]) -> LLMResponse:
        events.append("second:model")
        # It reads the conversation as the first worker left it: that turn's reply is in its history.
        assert any(m.content == "The first answer." for m in messages)
        return text("The second answer.")

    llms = [ScriptedLLM([slow]), ScriptedLLM([second_reply])]
    pipelines = pipelines_on(llms)
    first = asyncio.create_task(pipelines[0].handle([ana_says("what did I say about the trip?")]))
    await first_started.wait()
    second = asyncio.create_task(pipelines[1].handle([ana_says("and about the hotel?")]))
    async with asyncio.timeout(WAIT_LIMIT_SECONDS):  # only turns a hang into a failure
        await lock_waits.waiting.wait()
    assert events == ["first:model"]  # the second worker waits while the first one answers
    let_first_finish.set()
    results = await asyncio.gather(first, second)
    assert events == ["first:model", "first:answered", "second:model"]
    assert [r.reply for r in results] == ["The first answer.", "The second answer."]


async def test_two_workers_answer_different_channels_side_by_side(pipelines_on: PipelinesOn) -> None:
    both_in = asyncio.Event()
    inside: list[str] = []

    async def meet(_system: str, _messages: list[ChatMessage], _tools: list[ToolSpec]) -> LLMResponse:
        inside.append("in")
        if len(inside) == 2:
            both_in.set()
        await both_in.wait()  # only returns when the other worker's turn is in its model call too
        return text("ok")

    pipelines = pipelines_on([ScriptedLLM([meet]), ScriptedLLM([meet])])
    async with asyncio.timeout(WAIT_LIMIT_SECONDS):
        results = await asyncio.gather(
            pipelines[0].handle([ana_says("hello from one")]),
            pipelines[1].handle(
                [
                    message(
                        "hello from two",
                        None,
                        "U1",
                        platform="slack",
                        workspace="T1",
                        channel="C2",
                        mentions_bot=True,
                    )
                ]
            ),
        )
    assert [r.reply for r in results] == ["ok", "ok"]


NURSE = "Ana works as a nurse in Lyon"


async def remember_nurse(engine: MemoryEngine) -> str:
    scope = Scope("slack", "T1", "C1", "default")
    draft = MemoryDraft(NURSE, scope, memory_type=MemoryType.IDENTITY, user_id="U1", author_id="U1")
    return (await engine.remember(draft)).memory.id


def index_of(messages: list[ChatMessage], start: str) -> int:
    return next(n for n, m in enumerate(messages) if m.content.startswith(start))


async def test_a_channel_keeps_what_its_model_was_given_when_the_next_turn_lands_on_another_worker(
    workers: list[MemoryEngine], pipelines_on: PipelinesOn
) -> None:
    await remember_nurse(workers[0])
    llms = [ScriptedLLM([text("Noted.")]), ScriptedLLM([text("Sure.")])]
    pipelines = pipelines_on(llms)
    await pipelines[0].handle([ana_says("what do you know about my job?")])
    await pipelines[1].handle([ana_says("and where do I work again?")])
    first = llms[0].calls[0].messages
    second = llms[1].calls[0].messages
    [block] = [b for b in blocks_in(first) if NURSE in b]
    # The second worker shows the block the first one gave, where it was given (before the first
    # question), and does not inject the memory again beside its own question.
    assert [b for b in blocks_in(second) if NURSE in b] == [block]
    assert index_of(second, block) < index_of(second, "what do you know about my job?")


async def test_a_block_kept_for_a_channel_is_not_shown_after_its_memory_was_forgotten_elsewhere(
    workers: list[MemoryEngine], pipelines_on: PipelinesOn
) -> None:
    nurse = await remember_nurse(workers[0])
    llms = [ScriptedLLM([text("Noted.")]), ScriptedLLM([text("Sure.")])]
    pipelines = pipelines_on(llms)
    await pipelines[0].handle([ana_says("what do you know about my job?")])
    assert any(NURSE in b for b in blocks_in(llms[0].calls[0].messages))
    assert await workers[0].forget_unscoped(nurse) is not None
    await pipelines[1].handle([ana_says("and where do I work again?")])
    assert not any(NURSE in m.content for m in llms[1].calls[0].messages)


async def test_a_channel_state_saved_by_one_worker_never_reaches_another_channel(
    workers: list[MemoryEngine], pipelines_on: PipelinesOn
) -> None:
    # A channel-only memory shown in C1 by one worker: the state saved for C1 is C1's alone, so
    # another worker answering C2 of the same workspace neither shows C1's kept block nor the memory.
    scope = Scope("slack", "T1", "C1", "default")
    await workers[0].remember(
        MemoryDraft(
            NURSE,
            scope,
            memory_type=MemoryType.IDENTITY,
            user_id="U1",
            author_id="U1",
            visibility=Visibility.CHANNEL,
        )
    )
    llms = [ScriptedLLM([text("Noted.")]), ScriptedLLM([text("Sure."), text("Right.")])]
    pipelines = pipelines_on(llms)
    await pipelines[0].handle([ana_says("what do you know about my job?")])
    assert any(NURSE in b for b in blocks_in(llms[0].calls[0].messages))

    await pipelines[1].handle([ana_says("and where do I work again?", channel="C2")])
    assert not any(NURSE in m.content for m in llms[1].calls[0].messages)
    # The same worker answering C1 takes C1's state: the block is there (the state is saved at all).
    await pipelines[1].handle([ana_says("remind me?")])
    assert any(NURSE in b for b in blocks_in(llms[1].calls[1].messages))
