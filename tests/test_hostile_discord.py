"""Hostile input at the Discord edge, as `memorybot run` meets it: gateway payloads of the wrong
shape, mistyped fields, system messages, huge and odd text, frames that are not JSON, interactions
with options of the wrong type, all through the real discord.py client on the local wire fake. For
each: no traceback and no message body in any log line at INFO or above, nothing stored twice, what
should be taken is taken, and the bot answers afterwards."""

from __future__ import annotations

import json
import logging
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from adapters.discord import DiscordAdapter
from adapters.discord import bot as discord_bot
from bot.app import App
from bot.config import Settings
from bot.runner import BotRuntime
from memory.embedders import CachedEmbedder
from memory.models import Scope, Visibility
from tests import helpers
from tests.fakes import discord_api as fd
from tests.fakes.discord_api import FakeDiscord, Payload
from tests.fakes.embedders import HashEmbedder
from tests.helpers import ANY_VALUE, MARKER, assert_clean_logs


@dataclass
class World:
    """The running bot, the fake Discord it is connected to, and a guild with a public channel it
    answers in (`general`) and one person (`alice`)."""

    fake: FakeDiscord
    app: App
    runtime: BotRuntime
    guild: Payload
    general: Payload
    alice: Payload
    answered: int = 0

    @property
    def adapter(self) -> DiscordAdapter:
        adapter = self.runtime.adapters[0]
        assert isinstance(adapter, DiscordAdapter)
        return adapter

    def message(self, content: Any = f"hello {MARKER}", **fields: Any) -> Payload:
        data = fd.message(self.general, self.alice, "") | {"content": content}
        data.update(fields)
        return {k: v for k, v in data.items() if v is not _MISSING}

    async def settle(self) -> None:
        """Everything sent so far parsed, every turn it started finished."""
        await self.fake.sync()
        await self.adapter.intake.drain()
        await self.app.pipeline.idle()

    async def turns(self, channel_id: str | None = None) -> list[Any]:
        channel = channel_id or self.general["id"]
        rows = await self.app.engine.storage.turns.recent(
            Scope("discord", self.guild["id"], channel, "default"), limit=500
        )
        return [m for m in rows if m.role == "user"]

    async def assert_healthy(self) -> None:
        """Still connected, and a plain message is answered once."""
        self.answered += 1
        before = len(self.fake.sent_messages(self.general["id"]))
        data = fd.message(self.general, self.alice, f"are you still there? ({self.answered})")
        await self.fake.dispatch("MESSAGE_CREATE", data)
        await self.fake.wait_for(lambda: len(self.fake.sent_messages(self.general["id"])) == before + 1)
        await self.settle()
        assert len(self.fake.sent_messages(self.general["id"])) == before + 1
        bot = self.adapter.bot
        assert bot is not None and not bot.is_closed()


_MISSING = object()


def bot_settings(tmp_path: Path, general_id: str) -> Settings:
    return helpers.running_bot_settings(
        tmp_path,
        discord={
            "token": "fake-token",
            "channels": [general_id],
            "guild_ready_timeout_seconds": helpers.DISCORD_READY_WAIT_SECONDS,
        },
    )


async def start_world(fake: FakeDiscord, tmp_path: Path) -> World:
    guild_id = fd.snowflake()
    alice = fd.user("alice")
    general = fd.text_channel(guild_id, "general")
    guild = fake.add_guild(
        fd.guild(guild_id, "Acme", owner_id=alice["id"], channels=[general], members=[fd.member(alice)])
    )
    app = await App.start(bot_settings(tmp_path, general["id"]), embedder=CachedEmbedder(HashEmbedder()))
    runtime = BotRuntime(app.settings, app)
    await runtime.start()
    await fake.wait_ready()
    # READY and the GUILD_CREATE parsed is all messages need (discord.py's on_ready waits two
    # more seconds for guilds that will not come).
    return World(fake, app, runtime, guild, general | {"guild_id": guild_id}, alice)


@asynccontextmanager
async def running_world(tmp_path: Path) -> AsyncIterator[World]:
    """A world started on a fake Discord of its own; stopped on the way out."""
    async with FakeDiscord() as fake:
        world = await start_world(fake, tmp_path)
        try:
            yield world
        finally:
            await world.runtime.stop()


@pytest.fixture
async def world(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[World]:
    # A client that crashed reconnects after the backoff: none here, so a test does not wait.
    monkeypatch.setattr(discord_bot, "RETRY_INITIAL_SECONDS", 0.0)
    async with running_world(tmp_path) as world:
        yield world


# --- the corpus ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Frame:
    """A DISPATCH of `event` with `data` as is, or with event "raw" a frame of text. `observe` lets
    the fake record it (an interaction it is to accept answers for)."""

    event: str
    data: Any
    observe: bool = False


@dataclass
class Case:
    """Frames to send, what should be stored in `general` from them, whether the client has to
    reconnect (a frame discord.py cannot read ends its connection, not the bot), and whether an
    interaction among them should be answered."""

    name: str
    frames: Callable[[World], list[Frame]]
    stored: int = 0
    reconnect: bool = False
    answered: bool = False
    replies: int | None = None


def message_case(name: str, stored: int = 0, **fields: Any) -> Case:
    return Case(name, lambda w: [Frame("MESSAGE_CREATE", w.message(**fields))], stored=stored)


def twice(w: World) -> list[Frame]:
    data = w.message("delivered twice " + MARKER)
    return [Frame("MESSAGE_CREATE", data), Frame("MESSAGE_CREATE", data)]


def nested_embed(depth: int) -> Payload:
    node: Payload = {"description": MARKER}
    for _ in range(depth):
        node = {"title": MARKER, "fields": [{"name": MARKER, "value": MARKER, "inline": False}], "x": node}
    return node


def interaction(name: str, subcommand: str, options: list[Payload], *, answered: bool = True) -> Case:
    def frames(w: World) -> list[Frame]:
        data = fd.command_interaction(
            name,
            user_data=w.alice,
            channel=w.general,
            application_id=w.fake.application_id,
            subcommand=subcommand,
            options=options,
        )
        return [Frame("INTERACTION_CREATE", data, observe=True)]

    return Case(f"/{name} {subcommand} {options}"[:60], frames, answered=answered)


def corpus() -> list[Case]:
    bot_author = fd.user("otherbot", bot=True)
    return [
        # Fields of the wrong type or missing: dropped, never half-taken.
        message_case("content null", content=None),
        message_case("content a number", content=4242),
        message_case("content an object", content={"text": MARKER}),
        message_case("content missing", content=_MISSING),
        message_case("author missing", author=_MISSING),
        message_case("author without an id", author={"username": MARKER}),
        message_case("id not a snowflake", id=f"not-a-snowflake-{MARKER}"),
        message_case("id missing", id=_MISSING),
        message_case("type a string", type="default"),
        message_case("attachments of the wrong shape", attachments=[{"name": MARKER}]),
        message_case("mentions are strings", mentions=[MARKER]),
        Case("data a string", lambda w: [Frame("MESSAGE_CREATE", MARKER)]),
        Case("data null", lambda w: [Frame("MESSAGE_CREATE", None)]),
        Case("data a list", lambda w: [Frame("MESSAGE_CREATE", [w.message()])]),
        # What is not someone talking: ignored.
        message_case("member joined (type 7)", type=7),
        message_case("pinned (type 6)", type=6),
        message_case("thread created (type 18)", type=18),
        message_case("from a bot", author=bot_author),
        message_case("from a webhook", webhook_id=fd.snowflake()),
        message_case("embeds only", content="", embeds=[{"title": MARKER, "description": MARKER}]),
        # Odd but someone talking: taken once.
        message_case("timestamp garbage", stored=1, timestamp=f"yesterday {MARKER}"),
        message_case("300k characters", stored=1, content=f"{MARKER} " + "x" * 300_000),
        message_case("lone surrogates", stored=1, content=f"{MARKER} \ud800 and \udfff"),
        message_case("control characters", stored=1, content=f"{MARKER}\x00\x07\x1b[31m\u202e"),
        message_case("deeply nested embed", stored=1, embeds=[nested_embed(200)]),
        Case("delivered twice", twice, stored=1, replies=1),
        # Other events of the wrong shape.
        Case("unknown event type", lambda w: [Frame("BRAND_NEW_EVENT", {"text": MARKER})]),
        Case("message update without ids", lambda w: [Frame("MESSAGE_UPDATE", {"content": MARKER})]),
        Case("message delete of garbage", lambda w: [Frame("MESSAGE_DELETE", {"id": MARKER})]),
        Case(
            "channel update with overwrites a string",
            lambda w: [Frame("CHANNEL_UPDATE", w.general | {"permission_overwrites": MARKER})],
        ),
        Case(
            "guild create of garbage",
            lambda w: [Frame("GUILD_CREATE", {"id": fd.snowflake(), "name": MARKER, "channels": MARKER})],
        ),
        Case(
            "interaction without an id", lambda w: [Frame("INTERACTION_CREATE", {"type": 2, "data": MARKER})]
        ),
        # Frames discord.py cannot read: the connection goes, the bot reconnects.
        Case("frame not json", lambda w: [Frame("raw", f"not json {MARKER}")], reconnect=True),
        Case("frame a json array", lambda w: [Frame("raw", json.dumps([MARKER]))], reconnect=True),
        Case(
            "hello without an interval",
            lambda w: [Frame("raw", json.dumps({"op": 10, "d": None}))],
            reconnect=True,
        ),
        Case("unknown opcode", lambda w: [Frame("raw", json.dumps({"op": 99, "d": MARKER}))]),
        # Commands with options of the wrong type: answered (with an error), not a traceback.
        interaction("memory", "search", [fd.option("query", 4242)]),
        interaction("memory", "forget", [fd.option("id", {"x": MARKER})]),
        interaction("memory", "no-such-subcommand", [fd.option("x", MARKER)]),
    ]


@pytest.mark.parametrize("case", corpus(), ids=lambda c: c.name)
async def test_a_hostile_discord_payload_leaves_no_trace(
    world: World, case: Case, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    fake = world.fake
    before = len(await world.turns())
    identifies, callbacks = fake.identifies, len(fake.callbacks())
    posts = len(fake.sent_messages(world.general["id"]))
    for frame in case.frames(world):
        if frame.event == "raw":
            await fake.send_raw(frame.data)
        else:
            await fake.dispatch(frame.event, frame.data, observe=frame.observe)
    if case.reconnect:
        await fake.wait_for(lambda: fake.identifies == identifies + 1)
        await fake.wait_ready()
    else:
        await world.settle()
        assert fake.identifies == identifies, "the connection did not survive"
    if case.answered:
        await fake.wait_for(lambda: len(fake.callbacks()) > callbacks)
    if case.replies is not None:
        assert len(fake.sent_messages(world.general["id"])) - posts == case.replies
    stored = await world.turns()
    assert len(stored) - before == case.stored, case.name
    ids = [m.external_id for m in stored if m.external_id]
    assert len(ids) == len(set(ids))
    await world.assert_healthy()
    assert_clean_logs(caplog.records, case.name)
    if not case.reconnect:
        # What Discord sent wrong is a warning at most: an error line means a listener broke on it.
        errors = [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]
        assert errors == [], case.name


async def test_a_message_from_a_channel_discord_py_has_not_cached_is_kept_to_that_channel(
    world: World, caplog: pytest.LogCaptureFixture
) -> None:
    """A channel discord.py does not know is placed as private (nothing said there leaks), and a
    guild it does not know is not taken at all: read as a DM, it would join the author's private
    memories and the DM's recall."""
    caplog.set_level(logging.DEBUG)
    bot_mention = f"<@{world.fake.bot_user['id']}>"
    unknown = fd.text_channel(world.guild["id"], "unknown")
    said = fd.message(
        unknown, world.alice, f"{bot_mention} my locker code is 4471", mentions=[world.fake.bot_user]
    )
    await world.fake.dispatch("MESSAGE_CREATE", said, observe=False)
    stranger_guild = fd.text_channel(fd.snowflake(), "elsewhere")
    elsewhere = fd.message(
        stranger_guild, world.alice, f"{bot_mention} my bike lock is 9912", mentions=[world.fake.bot_user]
    )
    await world.fake.dispatch("MESSAGE_CREATE", elsewhere, observe=False)
    # Without its member (discord.py drops the one with it, failing to place the member).
    await world.fake.dispatch(
        "MESSAGE_CREATE",
        {k: v for k, v in elsewhere.items() if k != "member"} | {"id": fd.snowflake()},
        observe=False,
    )
    await world.settle()
    kept = await world.turns(unknown["id"])
    assert [m.visibility for m in kept] == [Visibility.CHANNEL]
    dm_rows = await world.app.engine.storage.turns.recent(
        Scope("discord", f"dm-{world.alice['id']}", stranger_guild["id"], "default"), limit=10
    )
    assert dm_rows == []
    everything = json.dumps([m.content for m in await world.turns()])
    assert "9912" not in everything and "4471" not in everything
    await world.assert_healthy()
    assert_clean_logs(caplog.records, "uncached channel")


async def test_a_listener_that_breaks_logs_one_line_and_keeps_its_traceback_at_debug(
    world: World, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    bot = world.adapter.bot
    assert bot is not None

    async def broken(message: Any) -> None:
        raise RuntimeError(f"broken on {MARKER}")

    bot.add_listener(broken, "on_message")
    try:
        await world.assert_healthy()  # the bot's own listener still answers
    finally:
        bot.remove_listener(broken, "on_message")
    failed = [r for r in caplog.records if r.getMessage() == "discord listener failed"]
    assert [(r.levelno, getattr(r, "error", None)) for r in failed] == [(logging.ERROR, "RuntimeError")]
    assert any(r.levelno == logging.DEBUG and r.exc_info for r in caplog.records)
    assert_clean_logs(caplog.records, "broken listener")


# --- generated payloads ---------------------------------------------------------------------------


def message_payloads(world: World) -> st.SearchStrategy[Payload]:
    """MESSAGE_CREATE data as Discord documents it, each field also replaced by values of the
    wrong kind."""
    general, alice = world.general, world.alice
    snowflakes = st.integers(min_value=1 << 40, max_value=1 << 60).map(str)
    return st.fixed_dictionaries(
        {
            "id": snowflakes | ANY_VALUE,
            "channel_id": st.sampled_from([general["id"], fd.snowflake()]) | ANY_VALUE,
            "author": st.sampled_from([alice, fd.user("zed"), fd.user("robot", bot=True)]) | ANY_VALUE,
            "content": st.text(max_size=200).map(lambda t: f"{MARKER} {t}") | ANY_VALUE,
            "timestamp": st.just(fd.iso_now()) | ANY_VALUE,
            "type": st.sampled_from([0, 19, 7, 6, 18, 20]) | ANY_VALUE,
        },
        optional={
            "guild_id": st.sampled_from([world.guild["id"], fd.snowflake()]) | ANY_VALUE,
            "member": st.just(fd.member(alice)) | ANY_VALUE,
            "mentions": st.lists(st.just(world.fake.bot_user) | ANY_VALUE, max_size=2),
            "attachments": st.lists(st.just(fd.attachment("notes.txt")) | ANY_VALUE, max_size=2),
            "embeds": ANY_VALUE,
            "webhook_id": ANY_VALUE,
            "flags": ANY_VALUE,
            "edited_timestamp": ANY_VALUE,
            "message_reference": ANY_VALUE,
            "referenced_message": ANY_VALUE,
            "thread": ANY_VALUE,
        },
    )


@pytest.fixture(scope="module")
def generated(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[helpers.ExampleLoop, World]]:
    yield from helpers.across_examples(running_world(tmp_path_factory.mktemp("hostile-discord")))


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_generated_discord_messages_cost_at_most_their_event(
    generated: tuple[helpers.ExampleLoop, World], data: st.DataObject, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.clear()
    loop, world = generated
    payload = data.draw(message_payloads(world))
    identifies = world.fake.identifies

    async def send() -> None:
        await world.fake.dispatch("MESSAGE_CREATE", payload, observe=False)
        await world.settle()

    loop.run(send())
    assert world.fake.identifies == identifies, "a message payload cost the connection"
    assert world.adapter.bot is not None and not world.adapter.bot.is_closed()
    assert_clean_logs(caplog.records, "generated message")
