"""Builders and small doubles shared by the test modules: import them from here, never from a test module.

The fixtures built on them (`clock`, `embedder`, `engine`, `llm`, `pipeline`, `llm_server`, ...) are
in tests/conftest.py; the fake servers and embedders are in tests/fakes/.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import itertools
import json
import logging
import os
import re
import sys
import time
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator, Sequence
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, Self, TypeVar
from unittest.mock import AsyncMock

import asyncpg
import numpy as np
import pytest
from hypothesis import strategies as st
from slack_bolt.request.async_request import AsyncBoltRequest
from slack_sdk.web.async_client import AsyncWebClient

from adapters.base import IncomingMessage, TurnFunction
from adapters.discord import DiscordAdapter, MemoryBot
from adapters.discord import bot as discord_bot
from adapters.slack import SlackAdapter
from bot.commands import MemoryCommands
from bot.config import DiscordSettings, Settings, SlackSettings
from bot.llm.types import ChatMessage
from memory.engine import MemoryEngine
from memory.models import (
    Audience,
    Memory,
    MemoryDraft,
    MemoryType,
    Scope,
    Source,
    StoredMessage,
    Visibility,
)
from memory.prehook import PreHook, PrehookConfig, PrehookRequest
from memory.prehook.context_block import (
    BLOCK_CLOSE,
    BLOCK_OPEN,
    EMPTY_TIMELINE,
    PREAMBLE,
    TIMELINE_TRIMMED,
    Section,
)
from memory.storage import Storage, open_storage
from memory.storage.embedded.records import scoped_record
from memory.storage.embedded.vectors import VectorRecord
from memory.text import extract
from memory.turn_text import REPLY_GAP_SECONDS
from tests.fakes.llm_server import FakeLLMServer
from tests.fakes.slack_api import BOT_USER_ID, TEAM_ID, FakeSlackAPI

if TYPE_CHECKING:
    # The SDK providers load when a test builds one: importing both SDKs costs every test process
    # about two seconds at collection.
    from bot.llm import AnthropicProvider, OpenAIProvider
    from memory.storage.postgres import PostgresStorage

ROOT = Path(__file__).resolve().parents[1]  # the checkout: child processes run from here


def child_env(**values: str) -> dict[str, str]:
    """The environment for a child process: this one's without the API keys, tokens and base URLs a
    developer may have set (so nothing reaches a real service), the model loaded offline, `values` on top."""
    env = {k: v for k, v in os.environ.items() if not k.endswith(("_API_KEY", "_TOKEN", "_BASE_URL"))}
    env.update(HF_HUB_OFFLINE="1", **values)
    return env


# --- time ----------------------------------------------------------------------------------------

NOW = 1_790_000_000.0  # Monday 21 September 2026, 14:13 UTC: where FakeClock starts
DAY = 86_400.0
SUNDAY_NOON = datetime(2026, 11, 22, 12, tzinfo=UTC)  # "now" for the extraction and episode rules
WEDNESDAY_NOON = datetime(2026, 11, 25, 12, tzinfo=UTC)  # when the tables of chat lines are read


def utc_timestamp(y: int, m: int, d: int, h: int = 0, mi: int = 0) -> float:
    """The instant of that UTC day and time, as the rules' `event_at` holds it."""
    return datetime(y, m, d, h, mi, tzinfo=UTC).timestamp()


# --- the kind rules ------------------------------------------------------------------------------

FRIDAY_NOON = datetime(2026, 5, 8, 12, tzinfo=UTC)  # when Léa says what the kind rules read


def kind_contents(text: str, *kinds: str) -> list[str]:
    """The contents of the memories tagged with one of `kinds` ("kind:pet", ...) that `text` gives,
    said by Léa at FRIDAY_NOON."""
    return [item.content for item in extract(text, "Léa", FRIDAY_NOON) if set(kinds) & set(item.subjects)]


class FakeClock:
    """A clock tests move by hand: expiry and recency without sleeping."""

    def __init__(self, start: float = NOW) -> None:
        self.now = start

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


# --- settings ------------------------------------------------------------------------------------


T = TypeVar("T")


class ExampleLoop:
    """One event loop kept across generated examples (a bot or an engine per example would be slow):
    `run` awaits on it; `close` awaits what `on_close` was given, newest first, then closes it.
    As a context manager it closes on the way out (a module fixture yields it from a `with`)."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self._closers: list[Callable[[], Awaitable[object]]] = []

    def run(self, awaitable: Awaitable[T]) -> T:
        return self.loop.run_until_complete(awaitable)

    def on_close(self, closer: Callable[[], Awaitable[object]]) -> None:
        self._closers.append(closer)

    def close(self) -> None:
        for closer in reversed(self._closers):
            self.run(closer())
        self.loop.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class DiscordSessions:
    """Discord clients whose `start` is the test's own session (no gateway): closing one records it
    in `closed` and ends its `until_closed`; a failed connection is retried at once."""

    def __init__(self) -> None:
        self.closed: list[MemoryBot] = []
        self._close_events: dict[int, asyncio.Event] = {}

    def _closed_event(self, bot: MemoryBot) -> asyncio.Event:
        return self._close_events.setdefault(id(bot), asyncio.Event())

    async def until_closed(self, bot: MemoryBot) -> None:
        await self._closed_event(bot).wait()

    def install(self, monkeypatch: pytest.MonkeyPatch, start: Callable[..., Awaitable[None]]) -> None:
        async def close(bot: MemoryBot) -> None:
            self.closed.append(bot)
            bot.connected = False
            self._closed_event(bot).set()

        connect_through(monkeypatch, start)
        monkeypatch.setattr(MemoryBot, "close", close)
        monkeypatch.setattr(MemoryBot, "is_closed", lambda bot: bot in self.closed)


def connect_through(monkeypatch: pytest.MonkeyPatch, start: Callable[..., Awaitable[None]]) -> None:
    """Discord clients run `start` (the test's session) instead of connecting to a gateway, and a
    failed connection is retried at once."""
    monkeypatch.setattr(MemoryBot, "start", start)
    monkeypatch.setattr(discord_bot, "RETRY_INITIAL_SECONDS", 0.0)


def watched_discord_adapter(commands: MemoryCommands) -> DiscordAdapter:
    """A Discord adapter on `discord_settings()` whose turns go nowhere: for tests that watch its
    connection, not its answers."""
    return DiscordAdapter(discord_settings(), AsyncMock(), commands, coalesce=NO_DEBOUNCE)


# Turns a hang into a failure; a passing test never waits on it.
WAIT_LIMIT_SECONDS = 60


async def discord_giving_up(
    commands: MemoryCommands, monkeypatch: pytest.MonkeyPatch, session: Callable[[MemoryBot], Awaitable[None]]
) -> tuple[DiscordAdapter, list[MemoryBot]]:
    """A watched Discord adapter whose every client runs `session` (which fails), started and
    followed until its connection gives up: the adapter, and each client it tried."""
    attempts: list[MemoryBot] = []

    async def start(self: MemoryBot, token: str, *, reconnect: bool = True) -> None:
        attempts.append(self)
        await session(self)

    connect_through(monkeypatch, start)
    adapter = watched_discord_adapter(commands)
    await adapter.start()
    task = adapter.connection_task
    assert task is not None
    async with asyncio.timeout(WAIT_LIMIT_SECONDS):
        await task
    return adapter, attempts


def settings(tmp_path: Path, **sections: dict[str, Any]) -> Settings:
    """Settings as an empty environment gives them (no .env file read), storing under `tmp_path/data`.

    Each keyword is one section's values: `settings(tmp_path, llm={"max_background_calls": 1})`.
    """
    sections["storage"] = {"data_dir": tmp_path / "data", **sections.get("storage", {})}
    return Settings.load(env_file=None, **sections)


# The Discord channels the adapter answers and learns from (tests/fakes/discord_objects.py's too).
DISCORD_CHANNEL_ID = 5000
DISCORD_LEARN_CHANNEL_ID = 6000


# discord.py waits this long after READY for more GUILD_CREATEs (2 s by default); the fake
# gateway sends them all at once, and a late one is still cached when it comes.
DISCORD_READY_WAIT_SECONDS = 0.1


def discord_settings(**overrides: Any) -> DiscordSettings:
    """A token, one answered and one learning channel, message content on; `overrides` win."""
    values: dict[str, Any] = {
        "token": "test-token",
        "channels": [str(DISCORD_CHANNEL_ID)],
        "learn_channels": [str(DISCORD_LEARN_CHANNEL_ID)],
        "message_content_intent": True,
        "guild_ready_timeout_seconds": DISCORD_READY_WAIT_SECONDS,
    }
    values.update(overrides)
    return DiscordSettings(_env_file=None, **values)  # type: ignore[call-arg]


@dataclass(frozen=True, slots=True)
class Coalesce:
    """What an adapter reads of the coalescer's settings."""

    debounce_seconds: float = 0.0
    max_wait_seconds: float = 0.0


# Every message is its own batch, at once: no timer runs in a test.
NO_DEBOUNCE = Coalesce()


# --- conversations -------------------------------------------------------------------------------

GENERAL = Scope("discord", "guild-1", "general", "default")
_external_ids = itertools.count(1)


def message(
    text: str,
    clock: FakeClock | None = None,
    author: str = "alice",
    *,
    name: str | None = None,
    platform: str = "discord",
    workspace: str = "guild-1",
    channel: str = "general",
    step: float = 30.0,
    **fields: Any,
) -> IncomingMessage:
    """A message as an adapter hands it to the pipeline: Alice in #general of Discord's guild-1 unless
    told otherwise. With a clock, it is said `step` seconds after the clock's last message."""
    if clock is not None:
        clock.advance(step)
        fields.setdefault("timestamp", clock())
    fields.setdefault("external_id", f"ext-{next(_external_ids)}")
    return IncomingMessage(
        platform=platform,
        workspace_id=workspace,
        channel_id=channel,
        author_id=author,
        author_name=author.capitalize() if name is None else name,
        text=text,
        **fields,
    )


def ana_says(text: str, channel: str = "C1", **fields: Any) -> IncomingMessage:
    """Ana (U1) mentions the bot in Slack channel `channel` (C1) of workspace T1."""
    return message(
        text,
        None,
        "U1",
        name="Ana",
        platform="slack",
        workspace="T1",
        channel=channel,
        mentions_bot=True,
        **fields,
    )


def past_turn(
    text: str,
    at: float,
    author: str = "bob",
    channel: str = "general",
    thread: str | None = None,
    name: str | None = None,
    *,
    platform: str = "discord",
    workspace: str = "guild-1",
    scope: Scope | None = None,
    **fields: Any,
) -> StoredMessage:
    """A turn as the store returns it (what a pre-hook, a history or a summary reads): in `scope`, or
    else in the conversation that `platform`, `workspace`, `channel` and `thread` name."""
    fields.setdefault("id", uuid.uuid4().hex)
    if scope is None:
        scope = Scope(platform, workspace, channel, "default", thread)
    return StoredMessage(
        scope=scope,
        author_id=author,
        author_name=author.capitalize() if name is None else name,
        role=fields.pop("role", "user"),
        content=text,
        created_at=at,
        **fields,
    )


async def store_apart(engine: MemoryEngine, said: Sequence[str], at: float) -> list[StoredMessage]:
    """`said` stored as past turns from `at` on, three reply gaps apart (so none reads as the
    answer to the one before); returns them in order."""
    turns = [past_turn(text, at + n * 3 * REPLY_GAP_SECONDS) for n, text in enumerate(said)]
    await engine.store_messages(turns)
    return turns


async def ranked_ids(
    engine: MemoryEngine, clock: Callable[[], float], config: PrehookConfig, text: str
) -> list[str]:
    """Ids of the candidates a fresh pre-hook under `config` ranks for `text` (asked as Alice in #general)."""
    hook = PreHook(engine, config, clock=clock)
    try:
        result = await hook.run(prehook_request(text))
    finally:
        await hook.aclose()
    return [c.id for c, _ in result.candidates_ranked]


def audience(viewer: str = "alice", channel: str = "general", **kw: Any) -> Audience:
    """Who reads from #general of Discord's guild-1 (Alice, unless told otherwise)."""
    return Audience("discord", "guild-1", "default", viewer_id=viewer, channel_id=channel, **kw)


def prehook_request(
    text: str,
    viewer: Audience | None = None,
    channel_id: str | None = None,
    participants: Sequence[str] | None = None,
    **fields: Any,
) -> PrehookRequest:
    """A pre-hook request by `viewer` (Alice in #general unless told otherwise), in the viewer's
    channel unless `channel_id` names another, with the viewer as the one participant by default."""
    viewer = viewer if viewer is not None else audience()
    return PrehookRequest(
        text=text,
        scope=Scope(
            viewer.platform,
            viewer.workspace_id,
            (viewer.channel_id or "general") if channel_id is None else channel_id,
            viewer.agent_id,
        ),
        viewer=viewer,
        participants=[viewer.viewer_id or ""] if participants is None else participants,
        **fields,
    )


# --- a LoCoMo file ---------------------------------------------------------------------------------

# A two-session conversation in LoCoMo's format, for the benchmark's tests: two questions to score
# (category 4) and one adversarial (category 5) that is left out.
TINY_LOCOMO = [
    {
        "sample_id": "tiny-1",
        "conversation": {
            "speaker_a": "Ana",
            "speaker_b": "Ben",
            "session_1_date_time": "8:00 pm on 1 June, 2023",
            "session_1": [
                {
                    "speaker": "Ana",
                    "dia_id": "D1:1",
                    "text": "I adopted a grey cat named Pixel last weekend.",
                },
                {"speaker": "Ben", "dia_id": "D1:2", "text": "Congrats! Cats are great company."},
            ],
            "session_2_date_time": "9:00 am on 3 June, 2023",
            "session_2": [
                {
                    "speaker": "Ben",
                    "dia_id": "D2:1",
                    "text": "I just came back from a hiking trip in Norway.",
                },
                {"speaker": "Ana", "dia_id": "D2:2", "text": "Wow, how was the weather up there?"},
                {
                    "speaker": "Ben",
                    "dia_id": "D2:3",
                    "text": "Rainy but beautiful.",
                    "blip_caption": "a photo of a fjord under clouds",
                },
            ],
        },
        "qa": [
            {
                "question": "What is the name of Ana's cat?",
                "answer": "Pixel",
                "evidence": ["D1:1"],
                "category": 4,
            },
            {"question": "Where did Ben go hiking?", "answer": "Norway", "evidence": ["D2:1"], "category": 4},
            {
                "question": "Did Ben adopt a cat?",
                "adversarial_answer": "no",
                "evidence": ["D1:1"],
                "category": 5,
            },
        ],
    }
]


# --- memories ------------------------------------------------------------------------------------

# Reads every memory of guild-1, whoever wrote it and wherever.
OPERATOR = Audience("discord", "guild-1", "default", operator=True)


async def listed(engine: MemoryEngine, audience: Audience = OPERATOR) -> list[str]:
    """The contents of the memories `audience` may read, sorted."""
    return sorted(m.content for m in await engine.list_memories(audience))


async def add_turn(
    conn: asyncpg.Connection, turn_id: str, content: str = "hello there", channel: str = "C1"
) -> int:
    """One turn written into a PostgreSQL test database as the backend writes it, with a vector,
    in workspace T1; returns its arrival number."""
    return int(
        await conn.fetchval(
            "INSERT INTO messages (id, platform, workspace_id, channel_id, agent_id, author_id, "
            "author_name, role, content, indexed_text, created_at, visibility, embedding) VALUES "
            "($1, 'slack', 'T1', $3, 'default', 'u1', 'Ann', 'user', $2, $2, now(), 'channel', "
            "array_fill(0.5::real, ARRAY[384])::vector) RETURNING seq",
            turn_id,
            content,
            channel,
        )
    )


def draft(content: str, scope: Scope = GENERAL, **kw: Any) -> MemoryDraft:
    """A memory to store in `scope`, written by Alice unless `author_id` says otherwise."""
    kw.setdefault("author_id", "alice")
    return MemoryDraft(content=content, scope=scope, **kw)


async def insert_raw(engine: MemoryEngine, drafts: Sequence[MemoryDraft]) -> list[Memory]:
    """Write memories straight to both stores, past the dedup-on-store (which would merge look-alikes)."""
    memories = [engine.build_memory(d) for d in drafts]
    vectors = await engine.embedder.embed([m.content for m in memories])
    await engine.storage.memories.add_many(memories, vectors)
    return memories


async def remember(
    engine: MemoryEngine,
    clock: FakeClock,
    content: str,
    *,
    scope: Scope,
    user: str | None,
    author: str | None = None,
    memory_type: MemoryType = MemoryType.FACT,
    visibility: Visibility = Visibility.WORKSPACE,
    subjects: Sequence[str] = (),
) -> Memory:
    """Store one memory about `user` (said by `author`, by default the user), one second after the
    previous one, so "newest first" has one right order; it must be a new memory."""
    clock.advance(1)
    result = await engine.remember(
        MemoryDraft(
            content=content,
            scope=scope,
            memory_type=memory_type,
            subjects=list(subjects),
            user_id=user,
            author_id=author if author is not None else user,
            visibility=visibility,
        )
    )
    assert result.action == "inserted", (content, result.action)
    return result.memory


def memory_row(content: str, n: int = 0, **fields: Any) -> Memory:
    """A stored memory as the store returns it (id `m<n>`, a fact Alice noted three days before NOW)."""
    values: dict[str, Any] = {
        "id": f"m{n}",
        "content": content,
        "memory_type": MemoryType.FACT,
        "importance": 0.6,
        "confidence": 0.8,
        "subjects": [],
        "source": Source.CONVERSATION,
        "scope": Scope("discord", "guild-1", "general"),
        "user_id": None,
        "author_id": "alice",
        "visibility": Visibility.WORKSPACE,
        "created_at": NOW - 3 * DAY,
        "updated_at": NOW - 3 * DAY,
    }
    values.update(fields)
    return Memory(**values)


# --- what the model was sent ---------------------------------------------------------------------


def tool_results(call_messages: Sequence[ChatMessage]) -> list[dict[str, Any]]:
    """The decoded result of every tool call the model was answered."""
    return [json.loads(m.content) for m in call_messages if m.role == "tool"]


def blocks_in(call_messages: Sequence[ChatMessage]) -> list[str]:
    """Every memory block among the messages of one model call."""
    return [m.content for m in call_messages if m.content.startswith(BLOCK_OPEN)]


# Every JSON string literal in a line; the rest of the line is the block's own frame.
_QUOTED = re.compile(r'"(?:[^"\\]|\\.)*"')
_DATE = r"\d{1,2} [A-Z][a-z]{2}(?: \d{4})?"
_ITEM_SHAPES = [
    re.compile(rf"^- (?:\[[a-z]+\] )?Q \(first mentioned {_DATE}(?:, \d+ times)?(?:; updated {_DATE})?\)$"),
    # A past turn, with the turns shown after it on its line.
    re.compile(rf"^- {_DATE}, Q: Q(?:; then Q: Q)*$"),
    re.compile(rf"^- {_DATE}(?: – {_DATE})?, summary: Q$"),
    re.compile(r"^- (?:Q said|noted \([a-z]+\)): Q$"),
]
# A timeline's day: "Mon 21 Sep — 12 messages in 3 conversations:" (counts when it had turns).
_DAY_HEADING = re.compile(rf"^[A-Z][a-z]{{2}} {_DATE}(?: — \d+ messages? in \d+ conversations?)?:$")
_SECTION_HEADERS = {f"## {s.value}" for s in Section if s is not Section.TIMELINE}
_TIMELINE_HEADER = re.compile(rf"^## Timeline: [a-z0-9 ()]+ \({_DATE}(?: – {_DATE})?\)$")
_FRAME_LINES = {EMPTY_TIMELINE, TIMELINE_TRIMMED}


def quoted(line: str) -> list[str]:
    """The values quoted in one line of a memory block, decoded."""
    return [json.loads(q) for q in _QUOTED.findall(line)]


def skeleton(line: str) -> str:
    """The line with each quoted value replaced by `Q`: only the block's own frame is left."""
    return _QUOTED.sub("Q", line)


def is_turn_line(line: str) -> bool:
    """Whether a line of a block shows a past turn ("- 5 Oct, "bob": "…"", follow-ups and all)."""
    return _ITEM_SHAPES[1].match(skeleton(line)) is not None


def check_block(block: str) -> list[str]:
    """Assert the block has only its own structure; return every quoted value in it, decoded."""
    lines = block.split("\n")
    # No other line break of any kind (\r, \x85, \u2028, ...) hides inside a line.
    assert block.splitlines() == lines
    assert lines[0] == BLOCK_OPEN and lines[1] == PREAMBLE and lines[-1] == BLOCK_CLOSE
    assert block.count(BLOCK_OPEN) == 1 and block.count(BLOCK_CLOSE) == 1
    assert block.count("<") == 2 and block.count(">") == 2  # only the block's own tags
    headers: list[str] = []
    values: list[str] = []
    for line in lines[2:-1]:
        if line.startswith("## "):
            assert line in _SECTION_HEADERS or _TIMELINE_HEADER.match(line), line
            headers.append(line)
        elif line not in _FRAME_LINES and not _DAY_HEADING.match(line):
            assert any(shape.match(skeleton(line)) for shape in _ITEM_SHAPES), line
            values.extend(quoted(line))
    assert len(headers) == len(set(headers))  # no section opened twice
    return values


def anthropic_provider(server: FakeLLMServer, **kw: Any) -> AnthropicProvider:
    """The real Anthropic provider (SDK and all), talking to the fake server."""
    from bot.llm import AnthropicProvider

    return AnthropicProvider(api_key="sk-ant-test", base_url=server.anthropic_base_url, **kw)


def openai_provider(server: FakeLLMServer, **kw: Any) -> OpenAIProvider:
    """The real OpenAI provider (SDK and all), talking to the fake server."""
    from bot.llm import OpenAIProvider

    return OpenAIProvider(api_key="sk-test", base_url=server.openai_base_url, **kw)


# --- Slack requests ------------------------------------------------------------------------------

SECRET = "8f742231b10e8888abcd99yyyzzz85a5"  # the signing secret the Slack adapters under test get


def signed_headers(
    body: bytes | str,
    *,
    secret: str = SECRET,
    at: int | None = None,
    content_type: str = "application/json",
) -> dict[str, str]:
    """The headers Slack signs a request with (`at`: the request's timestamp, by default now)."""
    raw = body.encode("utf-8", "surrogatepass") if isinstance(body, str) else body
    timestamp = str(int(time.time()) if at is None else at)
    digest = hmac.new(secret.encode(), f"v0:{timestamp}:".encode() + raw, hashlib.sha256).hexdigest()
    return {
        "content-type": content_type,
        "x-slack-request-timestamp": timestamp,
        "x-slack-signature": f"v0={digest}",
    }


def event_envelope(event: Any, event_id: str, **extra: Any) -> dict[str, Any]:
    """An Events API callback around `event`, as Slack posts it to the bot's team."""
    return {
        "token": "legacy-verification-token",
        "team_id": TEAM_ID,
        "api_app_id": "A0APP0001",
        "event": event,
        "type": "event_callback",
        "event_id": event_id,
        "event_time": int(time.time()),
        "authorizations": [
            {
                "enterprise_id": None,
                "team_id": TEAM_ID,
                "user_id": BOT_USER_ID,
                "is_bot": True,
                "is_enterprise_install": False,
            }
        ],
        "is_ext_shared_channel": False,
        "event_context": f"4-ctx-{event_id}",
        **extra,
    }


def event_body(event: dict[str, Any], event_id: str) -> str:
    return json.dumps(event_envelope(event, event_id))


# Slack ids the tests share: Alice, her DM with the bot, #general.
SLACK_ALICE = "UALICE001"
SLACK_ALICE_DM = "DALICE001"
SLACK_GENERAL = "CGENERAL1"


def message_event(
    text: str,
    ts: str,
    *,
    user: str = SLACK_ALICE,
    channel: str = SLACK_GENERAL,
    kind: str = "message",
    channel_type: str | None = "channel",
    **extra: Any,
) -> dict[str, Any]:
    """A `message` (or, with `kind`, an `app_mention`) event, by default Alice's in #general."""
    event: dict[str, Any] = {
        "type": kind,
        "user": user,
        "text": text,
        "ts": ts,
        "channel": channel,
        "event_ts": ts,
        "team": TEAM_ID,
    }
    if kind == "message" and channel_type is not None:
        event["channel_type"] = channel_type
    event.update(extra)
    return event


def mention_text(text: str) -> str:
    return f"<@{BOT_USER_ID}> {text}"


async def dispatch(
    adapter: SlackAdapter, body: str, *, retry: int | None = None, headers: dict[str, str] | None = None
) -> tuple[int, str]:
    """Hand a request to the adapter's bolt app (signed now unless `headers` are given)."""
    all_headers = headers if headers is not None else signed_headers(body)
    if retry is not None:
        all_headers = {**all_headers, "x-slack-retry-num": str(retry), "x-slack-retry-reason": "http_timeout"}
    response = await adapter.app.async_dispatch(AsyncBoltRequest(body=body, headers=all_headers))
    return response.status, response.body


async def send_event(adapter: SlackAdapter, event: dict[str, Any], event_id: str, **kwargs: Any) -> int:
    status, _ = await dispatch(adapter, event_body(event, event_id), **kwargs)
    return status


def slack_adapter(
    fake: FakeSlackAPI,
    turn: TurnFunction,
    commands: MemoryCommands,
    data_dir: Path,
    *,
    slack: dict[str, Any] | None = None,
    **adapter: Any,
) -> SlackAdapter:
    """A Slack adapter (HTTP mode unless `slack` settings say otherwise) whose Web API is `fake`."""
    config = SlackSettings(
        **{"bot_token": "xoxb-test-token", "signing_secret": SECRET, "mode": "http", **(slack or {})}
    )
    client = AsyncWebClient(token="xoxb-test-token", base_url=fake.api_url)
    return SlackAdapter(
        config, turn, commands, data_dir=data_dir, coalesce=NO_DEBOUNCE, client=client, **adapter
    )


class FakeTurn:
    """An adapter's turn function that records every batch; answers `reply` when asked to respond."""

    def __init__(self, reply: str = "Noted, thanks!") -> None:
        self.reply = reply
        self.calls: list[tuple[list[IncomingMessage], bool]] = []

    async def __call__(self, batch: Sequence[IncomingMessage], respond: bool) -> str | None:
        self.calls.append((list(batch), respond))
        return self.reply if respond else None


# --- generated text ------------------------------------------------------------------------------

# Every category; surrogates and control/format characters are rare in the default mix, so weight them up.
ANY_CHAR = st.one_of(
    st.characters(exclude_categories=()),
    st.characters(categories=["Cs"]),
    st.characters(categories=["Cc", "Cf", "Zl", "Zp"]),
)


# --- logs ----------------------------------------------------------------------------------------

# In every text a hostile payload carries: a log line at INFO or above that holds it leaked a body.
MARKER = "hostilebody4242"
# Any JSON-ish value, the marker among them: what a hostile payload puts in a field of another kind.
ANY_SCALAR = st.one_of(
    st.none(), st.booleans(), st.integers(), st.floats(allow_nan=True), st.text(max_size=30), st.just(MARKER)
)
ANY_VALUE = st.recursive(
    ANY_SCALAR,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3),
    max_leaves=8,
)


def assert_clean_logs(records: list[logging.LogRecord], where: str) -> None:
    """No traceback and no message body in a line at INFO or above (a traceback may still be
    had at DEBUG, for whoever asks for it)."""
    for record in records:
        text = record.getMessage() + " " + " ".join(str(v) for v in record.__dict__.values())
        if record.levelno >= logging.INFO:
            assert record.exc_info is None and record.exc_text is None, f"{where}: traceback in {record.name}"
            assert "Traceback" not in text, f"{where}: traceback text in {record.name}"
            assert MARKER not in text, f"{where}: body in an {record.levelname} line of {record.name}"
            assert "Suggestion" not in record.getMessage(), f"{where}: bolt's suggestion text"


# --- stores --------------------------------------------------------------------------------------


@asynccontextmanager
async def storage_at(location: str | Path, dim: int) -> AsyncIterator[Storage]:
    """The storage `location` names (a data directory or a PostgreSQL URL), closed on the way out."""
    storage = await open_storage(location, dim=dim)
    try:
        yield storage
    finally:
        await storage.close()


async def assert_consistent(engine: MemoryEngine) -> None:
    """Exactly one vector per live row in each table, no vector without its row, nothing unindexed."""
    memory_rows = await engine.storage.memories.indexed_ids()
    assert await engine.storage.memories.unindexed() == []
    assert await engine.storage.vectors.memories.ids() == memory_rows
    assert await engine.storage.vectors.memories.count() == len(memory_rows)
    message_rows = await engine.storage.turns.indexed_ids()
    assert await engine.storage.turns.unindexed() == []
    assert await engine.storage.vectors.messages.ids() == message_rows
    assert await engine.storage.vectors.messages.count() == len(message_rows)
    assert message_rows == {m.id for m in await engine.storage.turns.get_unscoped(list(message_rows))}


VECTOR_DIM = 16  # small vectors for the vector store's own tests
RECORD_TIME = 1_700_000_000.0


def unit_vector(rng: np.random.Generator, dim: int = VECTOR_DIM) -> np.ndarray:
    v = rng.normal(size=dim).astype(np.float32)
    return v / np.linalg.norm(v)


def near_vector(base: np.ndarray, rng: np.random.Generator, noise: float) -> np.ndarray:
    v = base + noise * rng.normal(size=base.shape).astype(np.float32)
    return (v / np.linalg.norm(v)).astype(np.float32)


def vector_record(
    id: str,
    vector: np.ndarray,
    text: str = "",
    *,
    workspace_id: str = "w1",
    channel_id: str = "c1",
    agent_id: str = "default",
    visibility: Visibility = Visibility.WORKSPACE,
    author_id: str | None = "u1",
    platform: str = "discord",
    kind: str = "fact",
    expires_at: float | None = None,
) -> VectorRecord:
    """A row of a vector table, written at RECORD_TIME by `author_id` about themselves."""
    return scoped_record(
        Scope(platform, workspace_id, channel_id, agent_id),
        id=id,
        vector=vector,
        text=text or f"memory {id}",
        user_id=author_id,
        author_id=author_id,
        visibility=visibility.value,
        kind=kind,
        created_at=RECORD_TIME,
        expires_at=expires_at,
    )


# --- storage, whichever backend ------------------------------------------------------------------


async def stored_memory(engine: MemoryEngine, memory_id: str) -> Memory | None:
    """The stored row of a memory whoever may read it (None once deleted), on either backend."""
    rows = await engine.storage.memories.get_unscoped([memory_id])
    return rows[0] if rows else None


async def searchable_memory_ids(engine: MemoryEngine) -> set[str]:
    """Ids of the memories a vector search can return, read from the backend's own index: the
    LanceDB table (embedded), the rows holding a vector and not forgotten (PostgreSQL)."""
    storage: Any = engine.storage
    if hasattr(storage, "vectors"):
        return set(await storage.vectors.memories.ids())
    rows = await storage.db.fetch("SELECT id FROM memories WHERE NOT forgotten AND embedding IS NOT NULL")
    return {r[0] for r in rows}


def spy_on_fetch(
    monkeypatch: pytest.MonkeyPatch, storage: PostgresStorage, note: Callable[[str, Sequence[object]], object]
) -> None:
    """Calls `note(sql, params)` as each statement `storage` fetches begins; the statement still runs."""
    fetch = storage.db.fetch

    async def noted(sql: str, params: Sequence[object] = ()) -> Any:
        note(sql, params)
        return await fetch(sql, params)

    monkeypatch.setattr(storage.db, "fetch", noted)


# --- faults ---------------------------------------------------------------------------------------


@dataclass
class FailingCall:
    """An async stand-in for `real` that raises `error` on call number `failing` (from 1) and passes
    every other call through; `calls` counts them all. With `pause` the failing call first lets the
    loop run, so a concurrent caller can start waiting on it."""

    real: Callable[..., Awaitable[Any]]
    failing: int
    error: Exception
    pause: bool = False
    calls: int = 0

    async def __call__(self, *args: Any, **kwargs: Any) -> Any:
        self.calls += 1
        if self.calls == self.failing:
            if self.pause:
                await asyncio.sleep(0)
            raise self.error
        return await self.real(*args, **kwargs)


# --- the whole bot against a fake platform --------------------------------------------------------


def across_examples(running: AbstractAsyncContextManager[T]) -> Iterator[tuple[ExampleLoop, T]]:
    """For a module fixture: what entering `running` gives (a bot against a fake platform), entered once
    on an ExampleLoop and kept for every generated example (a bot per example would be slow), with
    that loop to run each example's coroutines on; exited after the last example."""
    with ExampleLoop() as loop:
        value = loop.run(running.__aenter__())
        loop.on_close(lambda: running.__aexit__(None, None, None))
        yield loop, value


def running_bot_settings(tmp_path: Path, **platform: dict[str, Any]) -> Settings:
    """Settings for the whole bot running against a fake platform: a free port, the offline model and
    no coalescing wait; `platform` is the platform's own section (`discord={...}` or `slack={...}`)."""
    return settings(
        tmp_path,
        server={"port": 0},
        llm={"provider": "offline"},
        coalesce={"debounce_seconds": 0, "max_wait_seconds": 0},
        **platform,
    )


# --- child processes ------------------------------------------------------------------------------


async def spawn_python(*args: str, env: dict[str, str], **options: Any) -> asyncio.subprocess.Process:
    """This interpreter with `args` (`-m module ...` or `-c code ...`) as a child of the running event
    loop, in `env`, its stdout and stderr piped; `options` (cwd, stdin, ...) go to the spawn."""
    pipes = {"stdout": asyncio.subprocess.PIPE, "stderr": asyncio.subprocess.PIPE}
    return await asyncio.create_subprocess_exec(sys.executable, *args, env=env, **(pipes | options))


# --- PostgreSQL -----------------------------------------------------------------------------------


def postgres_storage(engine: MemoryEngine) -> PostgresStorage:
    """`engine`'s storage, which a PostgreSQL test needs to be PostgreSQL's (its SQL, its own state)."""
    from memory.storage.postgres import PostgresStorage  # imported when used, as at the top

    storage = engine.storage
    assert isinstance(storage, PostgresStorage)
    return storage
