"""The Slack adapter through real signed requests, a real bolt app and a local fake of the Slack API."""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import aiohttp
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from adapters.base import Adapter, IncomingMessage
from adapters.command_table import CommandResult
from adapters.slack import SlackAdapter
from adapters.slack.adapter import DEDUP_FILENAME
from adapters.slack.directory import MENTIONS_LOOKED_UP
from adapters.slack.markup import mentioned_users, plain_text
from adapters.slack.render import (
    decode_page_value,
    neutralize_broadcasts,
    render_blocks,
    split_message,
    strip_mention,
)
from bot.commands import MemoryCommands
from bot.config import SlackSettings
from bot.llm.fake import ScriptedLLM, text
from bot.metrics import Metrics
from bot.pipeline import TurnPipeline
from bot.server import HealthServer
from memory.engine import MemoryEngine
from memory.models import Audience, Conversation, ConversationKind, MemoryDraft, Scope, Visibility
from memory.storage.postgres import PostgresStorage
from tests import helpers
from tests.fakes.slack_api import BOT_USER_ID, TEAM_ID, FakeSlackAPI
from tests.helpers import (
    NO_DEBOUNCE,
    FakeClock,
    FakeTurn,
    dispatch,
    event_body,
    mention_text,
    message_event,
    send_event,
    signed_headers,
    slack_adapter,
)
from tests.helpers import SLACK_ALICE as ALICE
from tests.helpers import SLACK_ALICE_DM as ALICE_DM
from tests.helpers import SLACK_GENERAL as GENERAL

BOB, ADMIN = "UBOB00001", "UADMIN001"
ANSWER, LEARN = "CANSWER01", "CLEARN001"


# --- signed requests -----------------------------------------------------------------------------


def command_body(
    fake: FakeSlackAPI, text: str, *, user: str, channel: str = GENERAL, name: str = "cmd"
) -> str:
    return urlencode(
        {
            "token": "legacy-verification-token",
            "team_id": TEAM_ID,
            "team_domain": "acme",
            "channel_id": channel,
            "channel_name": "directmessage" if channel.startswith("D") else "general",
            "user_id": user,
            "user_name": user.lower(),
            "command": "/memory",
            "text": text,
            "api_app_id": "A0APP0001",
            "is_enterprise_install": "false",
            "response_url": fake.response_url(name),
            "trigger_id": "13345224609.738474920.8088930838d88f008e0",
        }
    )


async def run_command(
    adapter: SlackAdapter,
    fake: FakeSlackAPI,
    text: str,
    *,
    user: str,
    channel: str = GENERAL,
    name: str = "cmd",
) -> dict[str, Any]:
    """Send /memory, check the ack is immediate and empty, return the ephemeral response posted."""
    body = command_body(fake, text, user=user, channel=channel, name=name)
    headers = signed_headers(body, content_type="application/x-www-form-urlencoded")
    status, ack_body = await dispatch(adapter, body, headers=headers)
    assert status == 200
    assert ack_body == ""
    await adapter.drain()
    responses = fake.responses.get(name, [])
    assert len(responses) == 1, responses
    return responses[0]


async def click(
    adapter: SlackAdapter, fake: FakeSlackAPI, button: dict[str, Any], *, user: str, name: str
) -> list[dict[str, Any]]:
    payload = {
        "type": "block_actions",
        "user": {"id": user, "username": user.lower(), "name": user.lower(), "team_id": TEAM_ID},
        "api_app_id": "A0APP0001",
        "token": "legacy-verification-token",
        "container": {
            "type": "message",
            "message_ts": "1800000000.000100",
            "channel_id": GENERAL,
            "is_ephemeral": True,
        },
        "trigger_id": "1234.5678.abcd",
        "team": {"id": TEAM_ID, "domain": "acme"},
        "channel": {"id": GENERAL, "name": "general"},
        "response_url": fake.response_url(name),
        "actions": [
            {
                "action_id": button["action_id"],
                "block_id": "memory_paging",
                "text": button["text"],
                "value": button["value"],
                "type": "button",
                "action_ts": "1800000001.000200",
            }
        ],
    }
    body = urlencode({"payload": json.dumps(payload)})
    headers = signed_headers(body, content_type="application/x-www-form-urlencoded")
    status, _ = await dispatch(adapter, body, headers=headers)
    assert status == 200
    await adapter.drain()
    return fake.responses.get(name, [])


# --- fixtures ------------------------------------------------------------------------------------


@pytest.fixture
async def fake() -> AsyncIterator[FakeSlackAPI]:
    async with FakeSlackAPI() as server:
        server.add_user(ALICE, "Alice")
        server.add_user(BOB, "Bob")
        server.add_user(ADMIN, "Ada Admin", is_admin=True)
        yield server


@pytest.fixture
def commands(engine: MemoryEngine, clock: FakeClock) -> MemoryCommands:
    return MemoryCommands(engine, "default", page_size=2, clock=clock)


MakeAdapter = Callable[..., Awaitable[SlackAdapter]]


@pytest.fixture
async def make_adapter(
    tmp_path: Path, fake: FakeSlackAPI, commands: MemoryCommands, engine: MemoryEngine, clock: FakeClock
) -> AsyncIterator[MakeAdapter]:
    """Builds adapters (started unless told), each over a store that first remembers `knowing`, as
    Alice said it in #general; all are stopped after the test."""
    made: list[SlackAdapter] = []

    async def make(
        turn: FakeTurn | None = None,
        *,
        mode: str = "http",
        app_token: str | None = None,
        start: bool = True,
        identified: bool = True,
        knowing: Sequence[str] = (),
        **kwargs: Any,
    ) -> SlackAdapter:
        for content in knowing:
            await remember(engine, clock, content)
        slack = {"app_token": app_token, "mode": mode, "channels": [ANSWER], "learn_channels": [LEARN]}
        adapter = slack_adapter(fake, turn or FakeTurn(), commands, tmp_path / "data", slack=slack, **kwargs)
        made.append(adapter)
        if start:
            await adapter.start()
            if identified:
                assert await adapter.wait_until_identified() == BOT_USER_ID
        return adapter

    yield make
    for adapter in made:
        await adapter.stop(grace=5)


async def remember(
    engine: MemoryEngine,
    clock: FakeClock,
    content: str,
    *,
    author: str = ALICE,
    channel: str = GENERAL,
    visibility: Visibility = Visibility.WORKSPACE,
) -> str:
    scope = Scope("slack", TEAM_ID, channel, "default")
    return (
        await helpers.remember(engine, clock, content, scope=scope, user=author, visibility=visibility)
    ).id


def section_texts(response: dict[str, Any]) -> str:
    return "\n".join(
        block["text"]["text"] for block in response.get("blocks", []) if block["type"] == "section"
    )


# --- events --------------------------------------------------------------------------------------


async def test_adapter_fits_the_protocol_and_builds_without_network(make_adapter: MakeAdapter) -> None:
    adapter = await make_adapter(start=False)
    assert isinstance(adapter, Adapter)
    assert adapter.name == "slack"
    assert adapter.ready is False


async def test_mention_gets_exactly_one_threaded_reply(make_adapter: MakeAdapter, fake: FakeSlackAPI) -> None:
    turn = FakeTurn("Hello Alice!")
    metrics = Metrics()
    adapter = await make_adapter(turn, metrics=metrics)
    status = await send_event(
        adapter,
        message_event(mention_text("what's my name?"), "1700000000.000100", kind="app_mention"),
        "Ev1",
    )
    assert status == 200
    await adapter.drain()

    assert len(turn.calls) == 1
    (batch, respond) = turn.calls[0]
    assert respond is True
    [msg] = batch
    assert msg.text == "what's my name?"  # the bot mention is stripped
    assert (msg.platform, msg.workspace_id, msg.channel_id) == ("slack", TEAM_ID, GENERAL)
    assert msg.thread_id is None
    assert msg.external_id == f"{GENERAL}:1700000000.000100"
    assert msg.author_id == ALICE and msg.author_name == "Alice"
    assert msg.mentions_bot and not msg.is_dm
    assert msg.timestamp == pytest.approx(1700000000.0001)

    posts = fake.posts()
    assert len(posts) == 1
    assert posts[0]["channel"] == GENERAL
    assert posts[0]["text"] == "Hello Alice!"
    assert posts[0]["thread_ts"] == "1700000000.000100"
    rendered = metrics.render().decode()
    assert 'memorybot_replies_sent_total{platform="slack"} 1.0' in rendered
    # Turns are metered by the runner's turn function, not here: no double counting.
    assert "memorybot_turns_total{" not in rendered


class BlockingTurn(FakeTurn):
    """A turn that holds until released, like a slow model call."""

    def __init__(self, reply: str) -> None:
        super().__init__(reply)
        self.release = asyncio.Event()

    async def __call__(self, batch: Sequence[IncomingMessage], respond: bool) -> str | None:
        reply = await super().__call__(batch, respond)
        await self.release.wait()
        return reply


async def test_event_is_acked_before_the_turn_finishes(make_adapter: MakeAdapter, fake: FakeSlackAPI) -> None:
    turn = BlockingTurn("Finally.")
    adapter = await make_adapter(turn)
    status = await send_event(
        adapter, message_event(mention_text("slow one"), "1700000000.000150", kind="app_mention"), "EvSlow"
    )
    assert status == 200  # acked while the turn is still running
    assert fake.posts() == []
    turn.release.set()
    await adapter.drain()
    assert [p["text"] for p in fake.posts()] == ["Finally."]


class FrozenScheduler:
    """Timers that never fire on their own: only a flush (or stop) sends a debounced batch."""

    def now(self) -> float:
        return 0.0

    def call_later(self, delay: float, callback: Callable[[], None]) -> asyncio.TimerHandle:
        return asyncio.get_running_loop().call_later(3600, lambda: None)


async def test_stop_flushes_pending_batches_before_disconnecting(
    make_adapter: MakeAdapter, fake: FakeSlackAPI
) -> None:
    turn = FakeTurn("Flushed at shutdown.")
    adapter = await make_adapter(turn, scheduler=FrozenScheduler())
    await send_event(adapter, message_event("one", "1.10", channel=ANSWER), "EvPending1")
    await send_event(adapter, message_event("two", "1.11", channel=ANSWER), "EvPending2")
    assert adapter.coalescer.pending_count == 2 and turn.calls == []
    await adapter.stop(grace=5)
    assert [[m.text for m in batch] for batch, _ in turn.calls] == [["one", "two"]]  # one coalesced batch
    assert [p["text"] for p in fake.posts()] == ["Flushed at shutdown."]
    assert "thread_ts" not in fake.posts()[0]  # a followed channel without a mention: no thread


async def test_retries_are_dropped_by_the_databases_event_log_on_postgres(
    make_adapter: MakeAdapter, fake: FakeSlackAPI, postgres_url: str, tmp_path: Path
) -> None:
    """With the PostgreSQL backend the handled event ids live in the database (shared by every
    process), not in a file beside the data directory."""
    storage = await PostgresStorage.open(postgres_url, dim=384)
    try:
        turn = FakeTurn()
        adapter = await make_adapter(turn, event_log=lambda ttl: storage.events(ttl_seconds=ttl))
        event = message_event(mention_text("remember I like tea"), "1700000000.000300", kind="app_mention")
        assert await send_event(adapter, event, "EvShared") == 200
        await adapter.drain()
        assert await send_event(adapter, event, "EvShared", retry=1) == 200
        await adapter.drain()
        assert len(turn.calls) == 1
        assert await storage.events(ttl_seconds=60).count() >= 1
        assert not (tmp_path / "data" / DEDUP_FILENAME).exists()
        await adapter.stop(grace=5)
    finally:
        await storage.close()


async def test_retried_event_is_not_answered_twice(make_adapter: MakeAdapter, fake: FakeSlackAPI) -> None:
    turn = FakeTurn()
    metrics = Metrics()
    adapter = await make_adapter(turn, metrics=metrics)
    event = message_event(mention_text("remember I like tea"), "1700000000.000200", kind="app_mention")
    assert await send_event(adapter, event, "EvRetry") == 200
    await adapter.drain()
    assert await send_event(adapter, event, "EvRetry", retry=1) == 200
    assert await send_event(adapter, event, "EvRetry", retry=2) == 200
    await adapter.drain()
    assert len(turn.calls) == 1
    assert len(fake.posts()) == 1
    assert 'memorybot_events_deduplicated_total{platform="slack"} 2.0' in metrics.render().decode()


async def test_retry_after_a_restart_is_still_dropped(
    make_adapter: MakeAdapter, fake: FakeSlackAPI, tmp_path: Path
) -> None:
    first_turn = FakeTurn()
    first = await make_adapter(first_turn)
    event = message_event(mention_text("hi"), "1700000000.000300", kind="app_mention")
    await send_event(first, event, "EvRestart")
    await first.stop(grace=5)
    assert len(first_turn.calls) == 1

    second_turn = FakeTurn()
    second = await make_adapter(second_turn)  # same data dir: the record is on disk
    await send_event(second, event, "EvRestart", retry=1)
    await second.drain()
    assert second_turn.calls == []
    assert len(fake.posts()) == 1


async def mention_twice(
    adapter: SlackAdapter, text: str, ts: str, channel: str, *deliveries: tuple[str, str]
) -> None:
    """One message mentioning the bot in `channel`, delivered as each (event id, event kind) in turn:
    Slack sends a mention both as a `message` and as an `app_mention` event."""
    for event_id, kind in deliveries:
        await send_event(adapter, message_event(mention_text(text), ts, channel=channel, kind=kind), event_id)


MESSAGE_FIRST = (("EvMsg", "message"), ("EvMention", "app_mention"))
MENTION_FIRST = (("EvMention", "app_mention"), ("EvMsg", "message"))


@pytest.mark.parametrize(
    ("text", "channel", "deliveries"),
    [
        # In a followed channel both deliveries are candidates; in either order only one is answered.
        ("ping", ANSWER, MESSAGE_FIRST),
        ("pong", GENERAL, MENTION_FIRST),
        # In a learn channel the mention is answered, and not learned from a second time as a message.
        ("what did we decide?", LEARN, MESSAGE_FIRST),
    ],
    ids=["followed, message first", "followed, mention first", "learn channel"],
)
async def test_mention_delivered_as_app_mention_and_message_gets_one_reply(
    make_adapter: MakeAdapter,
    fake: FakeSlackAPI,
    text: str,
    channel: str,
    deliveries: tuple[tuple[str, str], ...],
) -> None:
    turn = FakeTurn()
    adapter = await make_adapter(turn)
    ts = "1700000000.000400"
    await mention_twice(adapter, text, ts, channel, *deliveries)
    await adapter.drain()
    assert [(b[0].text, r) for b, r in turn.calls] == [(text, True)]
    assert [p["thread_ts"] for p in fake.posts()] == [ts]


async def test_bad_signature_is_rejected_and_url_verification_answered(
    make_adapter: MakeAdapter, fake: FakeSlackAPI
) -> None:
    turn = FakeTurn()
    adapter = await make_adapter(turn)
    body = event_body(message_event(mention_text("hi"), "1700000000.000600", kind="app_mention"), "EvForged")
    status, _ = await dispatch(adapter, body, headers=signed_headers(body, secret="not-the-secret"))
    assert status == 401
    tampered = signed_headers(body)
    status, _ = await dispatch(adapter, body.replace("hi", "ho"), headers=tampered)
    assert status == 401

    challenge = json.dumps(
        {
            "token": "t",
            "challenge": "3eZbrw1aBm2rZgRNFdxV2595E9CY3gmdALWMmHkvFXO7tYXAYM8P",
            "type": "url_verification",
        }
    )
    status, answer = await dispatch(adapter, challenge)
    assert status == 200
    assert json.loads(answer) == {"challenge": "3eZbrw1aBm2rZgRNFdxV2595E9CY3gmdALWMmHkvFXO7tYXAYM8P"}
    await adapter.drain()
    assert turn.calls == []
    assert fake.posts() == []


async def test_bot_and_own_messages_and_non_message_subtypes_are_ignored(
    make_adapter: MakeAdapter, fake: FakeSlackAPI
) -> None:
    turn = FakeTurn()
    adapter = await make_adapter(turn)
    ignored = [
        message_event("I am another bot", "1.1", channel=ANSWER, bot_id="B0OTHER01"),
        message_event("legacy bot", "1.2", channel=ANSWER, subtype="bot_message", user=None),
        message_event("my own echo", "1.3", channel=ANSWER, user=BOT_USER_ID),
        message_event("edited", "1.4", channel=ANSWER, subtype="message_changed"),
        message_event("deleted", "1.5", channel=ANSWER, subtype="message_deleted"),
        message_event("<@UALICE001> has joined the channel", "1.6", channel=ANSWER, subtype="channel_join"),
        message_event("not followed, no mention", "1.7", channel=GENERAL),
        message_event("bot in a DM", "1.8", channel=ALICE_DM, channel_type="im", bot_id="B0OTHER01"),
    ]
    for n, event in enumerate(ignored):
        assert await send_event(adapter, event, f"EvIgnored{n}") == 200
    # A control that must be taken, so the test proves the path works at all.
    await send_event(adapter, message_event("a real message", "1.9", channel=ANSWER), "EvTaken")
    await adapter.drain()
    assert [[m.text for m in batch] for batch, _ in turn.calls] == [["a real message"]]


async def test_learn_only_channel_learns_silently(make_adapter: MakeAdapter, fake: FakeSlackAPI) -> None:
    turn = FakeTurn("I should never be posted")
    metrics = Metrics()
    adapter = await make_adapter(turn, metrics=metrics)
    await send_event(
        adapter, message_event("we ship on Friday", "1700000000.000700", channel=LEARN), "EvLearn"
    )
    await adapter.drain()
    assert len(turn.calls) == 1
    batch, respond = turn.calls[0]
    assert respond is False
    assert batch[0].text == "we ship on Friday" and not batch[0].mentions_bot
    assert fake.posts() == []
    assert 'memorybot_replies_sent_total{platform="slack"}' not in metrics.render().decode()


async def test_dm_is_answered_in_the_channel_and_thread_is_its_own_conversation(
    make_adapter: MakeAdapter, fake: FakeSlackAPI
) -> None:
    turn = FakeTurn("Sure.")
    adapter = await make_adapter(turn)
    await send_event(
        adapter,
        message_event("hello there", "1700000000.000800", channel=ALICE_DM, channel_type="im"),
        "EvDM",
    )
    await adapter.drain()
    thread_event = message_event(
        mention_text("and in a thread?"),
        "1700000000.000900",
        kind="app_mention",
        thread_ts="1700000000.000850",
    )
    await send_event(adapter, thread_event, "EvThread")
    await adapter.drain()
    (dm_batch, _), (thread_batch, _) = turn.calls
    assert dm_batch[0].is_dm and dm_batch[0].mentions_bot and dm_batch[0].thread_id is None
    assert thread_batch[0].thread_id == "1700000000.000850"
    dm_post, thread_post = fake.posts()
    assert dm_post["channel"] == ALICE_DM and "thread_ts" not in dm_post
    assert thread_post["thread_ts"] == "1700000000.000850"


async def test_long_reply_is_split_in_order_in_the_thread(
    make_adapter: MakeAdapter, fake: FakeSlackAPI
) -> None:
    paragraphs = [f"Paragraph {n}: " + " ".join(f"word{n}-{k}" for k in range(60)) for n in range(12)]
    code = "```python\n" + "\n".join(f"print({n})  # line {n}" for n in range(150)) + "\n```"
    reply = "\n\n".join([*paragraphs[:6], code, *paragraphs[6:]])
    assert len(reply) > 3 * 3000
    adapter = await make_adapter(FakeTurn(reply))
    ts = "1700000000.001000"
    await send_event(
        adapter, message_event(mention_text("tell me everything"), ts, kind="app_mention"), "EvLong"
    )
    await adapter.drain()
    posts = fake.posts()
    assert len(posts) >= 4
    assert all(p["thread_ts"] == ts for p in posts)
    texts = [p["text"] for p in posts]
    assert all(len(t) <= 3000 for t in texts)
    assert all(t.count("```") % 2 == 0 for t in texts)  # every chunk renders its code on its own
    # In order: the words appear in the same sequence as in the reply.
    joined = "\n".join(texts)
    assert re.findall(r"word\d+-\d+|print\(\d+\)", joined) == re.findall(r"word\d+-\d+|print\(\d+\)", reply)


async def test_reply_cannot_ping_the_whole_channel(make_adapter: MakeAdapter, fake: FakeSlackAPI) -> None:
    adapter = await make_adapter(FakeTurn("Hey <!channel> and <!here|here>, look"))
    await send_event(
        adapter, message_event(mention_text("say it"), "1700000000.001100", kind="app_mention"), "EvPing"
    )
    await adapter.drain()
    [post] = fake.posts()
    assert "<!channel>" not in post["text"] and "<!here" not in post["text"]
    assert "&lt;!channel&gt;" in post["text"]


async def test_failed_post_is_logged_not_retried_and_not_counted(
    make_adapter: MakeAdapter, fake: FakeSlackAPI
) -> None:
    fake.post_failures[ANSWER] = "not_in_channel"
    metrics = Metrics()
    turn = FakeTurn("x " * 4000)  # several chunks: none after the failed first one
    adapter = await make_adapter(turn, metrics=metrics)
    await send_event(adapter, message_event("hello", "1.4", channel=ANSWER), "EvFail")
    await adapter.drain()
    assert len(turn.calls) == 1
    assert len(fake.posts()) == 1
    assert 'memorybot_replies_sent_total{platform="slack"}' not in metrics.render().decode()


async def test_unknown_author_falls_back_to_the_id(make_adapter: MakeAdapter, fake: FakeSlackAPI) -> None:
    turn = FakeTurn()
    adapter = await make_adapter(turn)
    await send_event(adapter, message_event("hi", "1.2", user="UGHOST001", channel=ANSWER), "EvGhost")
    await send_event(adapter, message_event("hi again", "1.3", user=ADMIN, channel=ANSWER), "EvAdmin")
    await adapter.drain()
    authors = {m.author_id: (m.author_name, m.author_is_admin) for b, _ in turn.calls for m in b}
    assert authors == {"UGHOST001": ("UGHOST001", False), ADMIN: ("Ada Admin", True)}


async def test_the_author_s_slack_time_zone_reaches_the_turn(
    make_adapter: MakeAdapter, fake: FakeSlackAPI
) -> None:
    """users.info's `tz` is the zone their "tomorrow" is read in when they have not said theirs."""
    fake.add_user("ULA000001", "Lou", tz="America/Los_Angeles")
    turn = FakeTurn()
    adapter = await make_adapter(turn)
    await send_event(adapter, message_event("exam tomorrow", "3.1", user="ULA000001", channel=ANSWER), "EvTz")
    await send_event(adapter, message_event("hi", "3.2", user="UGHOST002", channel=ANSWER), "EvTzGhost")
    await adapter.drain()
    zones = {m.author_id: m.author_tz for batch, _ in turn.calls for m in batch}
    assert zones == {"ULA000001": "America/Los_Angeles", "UGHOST002": None}


async def test_markup_reaches_the_turn_as_typed_with_mentions_by_name(
    make_adapter: MakeAdapter, fake: FakeSlackAPI
) -> None:
    turn = FakeTurn()
    adapter = await make_adapter(turn)
    said = (
        f"Thanks <@{BOB}>! R&amp;D &lt;3, see <https://example.com/a?b=1&amp;c=2|the notes> in <#C0DEV|dev>"
    )
    await send_event(adapter, message_event(said, "2.1", channel=ANSWER), "EvMarkup")
    await adapter.drain()
    [message] = [m for batch, _ in turn.calls for m in batch]
    assert message.text == "Thanks @Bob! R&D <3, see the notes (https://example.com/a?b=1&c=2) in #dev"
    assert [c.args["user"] for c in fake.calls_to("users.info")].count(BOB) == 1


async def test_a_shared_file_reaches_the_turn_as_its_alt_text_or_title_says(
    make_adapter: MakeAdapter, fake: FakeSlackAPI
) -> None:
    """A picture shared with no words is a turn (it used to be dropped as empty); its alt text is
    read as typed, not as Slack markup."""
    turn = FakeTurn()
    adapter = await make_adapter(turn)
    photo = {"id": "F1", "name": "IMG_0042.jpg", "title": "IMG_0042.jpg", "mimetype": "image/jpeg"}
    files = [
        photo | {"alt_txt": "R&D team <3 at the <offsite>"},
        {"id": "F2", "name": "q3.pdf", "title": "Q3 figures", "mimetype": "application/pdf"},
        {"id": "F3", "name": "IMG_0043.jpg", "title": "IMG_0043.jpg", "mimetype": "image/jpeg"},
        "not a file",
    ]
    event = message_event("", "4.1", channel=ANSWER, subtype="file_share", files=files)
    await send_event(adapter, event, "EvFiles")
    await adapter.drain()
    [message] = [m for batch, _ in turn.calls for m in batch]
    assert message.text == (
        "[image: R&D team <3 at the <offsite>]\n[attachment: q3.pdf (Q3 figures)]\n[attachment: IMG_0043.jpg]"
    )


async def test_a_message_naming_many_users_costs_a_bounded_number_of_lookups(
    make_adapter: MakeAdapter, fake: FakeSlackAPI
) -> None:
    turn = FakeTurn()
    adapter = await make_adapter(turn)
    crowd = [f"U0CROWD{n:03d}" for n in range(MENTIONS_LOOKED_UP * 3)]
    said = " ".join(f"<@{uid}|member{n}>" for n, uid in enumerate(crowd))
    await send_event(adapter, message_event(said, "2.2", channel=ANSWER), "EvCrowd")
    await adapter.drain()
    [message] = [m for batch, _ in turn.calls for m in batch]
    # Unknown to users.info or never looked up: each keeps the label Slack sent.
    assert message.text == " ".join(f"@member{n}" for n in range(len(crowd)))
    looked_up = {c.args["user"] for c in fake.calls_to("users.info")} & set(crowd)
    assert looked_up == set(crowd[:MENTIONS_LOOKED_UP])


@pytest.mark.parametrize(
    ("markup", "typed"),
    [
        ("no markup at all", "no markup at all"),
        ("a &lt; b &amp;&amp; c &gt; d", "a < b && c > d"),
        ("&amp;lt; stays a literal entity", "&lt; stays a literal entity"),
        ("<@U1> and <@U2|two> and <@W3>", "@One and @two and @W3"),
        ("<#C1|general> <#C2>", "#general #C2"),
        ("<!here> <!channel> <!everyone|everyone>", "@here @channel @everyone"),
        ("<!subteam^S1|@devs> <!subteam^S2>", "@devs @S2"),
        ("<!date^1392734382^{date_num}|Feb 18, 2014> it is", "Feb 18, 2014 it is"),
        ("<https://example.com>", "https://example.com"),
        (
            "<http://example.com|example.com> and <mailto:ann@example.com|ann@example.com>",
            "example.com and ann@example.com",
        ),
        ("<https://example.com/x|our docs>", "our docs (https://example.com/x)"),
        ("an unclosed <@U1 stays", "an unclosed <@U1 stays"),
        ("émoji ✨ and 名前 <@U1>", "émoji ✨ and 名前 @One"),
    ],
)
def test_slack_markup_reads_back_as_typed(markup: str, typed: str) -> None:
    assert plain_text(markup, {"U1": "One"}) == typed


@settings(max_examples=150, deadline=None)
@given(st.text())
def test_markup_reading_never_raises_and_leaves_plain_text_alone(said: str) -> None:
    read = plain_text(said, {"U1": "One"})
    if not any(char in said for char in "<>&"):
        assert read == said
    # What Slack would have sent for this text, typed as is, reads back as the text.
    escaped = said.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    assert plain_text(escaped, {}) == said


def test_mentioned_users_are_listed_once_in_order() -> None:
    assert mentioned_users("<@U2> <@U1|one> <@U2> <#C1> <!here> <@W9>") == ["U2", "U1", "W9"]


async def test_http_endpoint_through_the_web_server(make_adapter: MakeAdapter, fake: FakeSlackAPI) -> None:
    turn = FakeTurn("Over HTTP.")
    adapter = await make_adapter(turn)
    server = HealthServer(0, Metrics(), host="127.0.0.1")
    server.add_route("POST", "/slack/events", adapter.handle_http)
    server.register_adapter(adapter)
    async with server, aiohttp.ClientSession() as http:
        body = event_body(
            message_event(mention_text("via http"), "1700000000.001200", kind="app_mention"), "EvHttp"
        )
        async with http.post(f"{server.url}/slack/events", data=body, headers=signed_headers(body)) as resp:
            assert resp.status == 200
        async with http.post(
            f"{server.url}/slack/events", data=body, headers=signed_headers(body, secret="wrong")
        ) as resp:
            assert resp.status == 401
        challenge = json.dumps({"token": "t", "challenge": "abc123", "type": "url_verification"})
        async with http.post(
            f"{server.url}/slack/events", data=challenge, headers=signed_headers(challenge)
        ) as resp:
            assert resp.status == 200
            assert (await resp.json())["challenge"] == "abc123"
        async with http.get(f"{server.url}/healthz") as resp:
            assert (await resp.json())["adapters"] == {"slack": {"ready": True}}
        await adapter.drain()
        await adapter.stop(grace=5)
        async with http.post(f"{server.url}/slack/events", data=body, headers=signed_headers(body)) as resp:
            assert resp.status == 503  # Slack retries later, when a new process can take it
        async with http.get(f"{server.url}/healthz") as resp:
            assert (await resp.json()) == {"status": "degraded", "adapters": {"slack": {"ready": False}}}
    assert [p["text"] for p in fake.posts()] == ["Over HTTP."]


# --- identity ------------------------------------------------------------------------------------


async def test_ready_waits_for_auth_test_and_retries_with_backoff(
    make_adapter: MakeAdapter, fake: FakeSlackAPI
) -> None:
    fake.auth_failures = 3
    slept: asyncio.Queue[float] = asyncio.Queue()
    release: asyncio.Queue[None] = asyncio.Queue()

    async def controlled_sleep(delay: float) -> None:
        await slept.put(delay)
        await release.get()

    adapter = await make_adapter(identified=False, sleep=controlled_sleep, auth_backoff=(0.5, 1.5))
    delays = []
    for attempt in range(1, 4):
        delays.append(await slept.get())  # the adapter is now between attempts
        assert len(fake.calls_to("auth.test")) == attempt
        assert adapter.ready is False
        assert adapter.bot_user_id is None
        release.put_nowait(None)
    assert await adapter.wait_until_identified() == BOT_USER_ID
    assert delays == [0.5, 1.0, 1.5]  # doubling, capped
    assert adapter.ready is True
    assert slept.empty()


async def test_events_before_identity_use_the_payload_authorizations(
    make_adapter: MakeAdapter, fake: FakeSlackAPI
) -> None:
    fake.auth_failures = 1_000  # never identified during this test
    release = asyncio.Event()

    async def blocked_sleep(delay: float) -> None:
        await release.wait()

    turn = FakeTurn()
    adapter = await make_adapter(turn, identified=False, sleep=blocked_sleep)
    assert adapter.ready is False
    await send_event(adapter, message_event(mention_text("early bird"), "1.5", kind="app_mention"), "EvEarly")
    await adapter.drain()
    assert [m.text for m in turn.calls[0][0]] == ["early bird"]
    assert len(fake.posts()) == 1


# --- /memory -------------------------------------------------------------------------------------


async def test_memory_list_renders_ephemeral_blocks_with_paging(
    make_adapter: MakeAdapter, fake: FakeSlackAPI, engine: MemoryEngine, clock: FakeClock
) -> None:
    ids = [
        await remember(engine, clock, "Alice plays the cello in a string quartet"),
        await remember(engine, clock, "The staging database runs PostgreSQL 16"),
        await remember(engine, clock, "Deploys are frozen during the holiday week"),
    ]
    metrics = Metrics()
    adapter = await make_adapter(metrics=metrics)
    response = await run_command(adapter, fake, "list", user=ALICE, name="list1")
    assert response["response_type"] == "ephemeral"
    blocks = response["blocks"]
    assert blocks[0] == {
        "type": "header",
        "text": {"type": "plain_text", "text": "Your memories", "emoji": True},
    }
    memory_sections = [b for b in blocks if b["type"] == "section" and "id `" in b["text"]["text"]]
    assert len(memory_sections) == 2  # page size 2, newest first
    assert f"id `{ids[2]}`" in memory_sections[0]["text"]["text"]
    assert "Deploys are frozen" in memory_sections[0]["text"]["text"]
    assert "`fact`" in memory_sections[0]["text"]["text"]
    assert re.search(r"\d{4}-\d{2}-\d{2}", memory_sections[0]["text"]["text"])
    footer = next(b for b in blocks if b["type"] == "context")
    assert "3 memories" in footer["elements"][0]["text"] and "page 1/2" in footer["elements"][0]["text"]
    actions = next(b for b in blocks if b["type"] == "actions")
    [next_button] = actions["elements"]
    assert next_button["action_id"] == "memory_page_next"
    page_request = decode_page_value(next_button["value"])
    assert page_request is not None
    assert (page_request.owner_id, page_request.command) == (ALICE, "/memory list 2")
    assert "Deploys are frozen" in response["text"]  # plain fallback for notifications
    assert 'memorybot_commands_total{command="list",platform="slack"} 1.0' in metrics.render().decode()

    # The invoker pages: the same ephemeral message is replaced with page 2.
    [page2] = await click(adapter, fake, next_button, user=ALICE, name="page2")
    assert page2["replace_original"] is True and page2["response_type"] == "ephemeral"
    assert f"id `{ids[0]}`" in section_texts(page2)
    assert ids[2] not in section_texts(page2)
    prev = next(b for b in page2["blocks"] if b["type"] == "actions")["elements"]
    assert [e["action_id"] for e in prev] == ["memory_page_prev"]

    # Someone else pressing Alice's button gets nothing of hers.
    [refused] = await click(adapter, fake, next_button, user=BOB, name="page-bob")
    assert "Only the person who ran this command" in refused["text"]
    assert "blocks" not in refused


async def test_private_dm_memory_is_not_shown_to_another_user(
    make_adapter: MakeAdapter, fake: FakeSlackAPI, engine: MemoryEngine, clock: FakeClock
) -> None:
    secret = "Alice is interviewing with a competitor next Tuesday"
    private_id = await remember(engine, clock, secret, channel=ALICE_DM, visibility=Visibility.PRIVATE)
    await remember(engine, clock, "The design review board meets on Thursdays")
    adapter = await make_adapter()

    bob_list = await run_command(adapter, fake, "list", user=BOB, name="bob-list")
    bob_search = await run_command(adapter, fake, f"search {secret}", user=BOB, name="bob-search")
    for response in (bob_list, bob_search):
        assert private_id not in json.dumps(response)
    assert "competitor" not in json.dumps(bob_list)
    assert "Nothing found" in section_texts(bob_search)  # the query is echoed, the memory is not
    assert "design review board" in section_texts(bob_list)  # Bob does see the shared one

    # The owner sees it (ephemeral), which proves the filter above is what hid it.
    alice_search = await run_command(
        adapter, fake, f"search {secret}", user=ALICE, channel=ALICE_DM, name="a"
    )
    assert private_id in section_texts(alice_search)
    assert ":lock: private" in section_texts(alice_search)


async def test_a_command_reads_what_was_typed_not_slack_s_escapes(
    make_adapter: MakeAdapter, fake: FakeSlackAPI
) -> None:
    # (No "Q3" in it: the store writes a quarter out with its year, which moves the fake embedder's
    # vector away from the query's.)
    adapter = await make_adapter(knowing=["Our R&D budget is 40k <3"])
    # Slack sends "/memory search R&D <3" as "search R&amp;D &lt;3".
    found = await run_command(adapter, fake, "search R&amp;D &lt;3", user=ALICE, name="rd")
    shown = section_texts(found)
    assert "R&amp;D budget" in shown  # the memory, escaped once for Slack to show "R&D"
    assert "&amp;amp;" not in json.dumps(found) and "&amp;lt;" not in json.dumps(found)


async def test_command_parse_error_renders_usage(make_adapter: MakeAdapter, fake: FakeSlackAPI) -> None:
    adapter = await make_adapter()
    response = await run_command(adapter, fake, "forget", user=ALICE, name="err")
    assert response["response_type"] == "ephemeral"
    assert ":warning: *missing id*" in section_texts(response)
    context = next(b for b in response["blocks"] if b["type"] == "context")
    assert "usage: /memory forget &lt;id&gt;" in context["elements"][0]["text"]


async def test_export_is_uploaded_to_a_dm(make_adapter: MakeAdapter, fake: FakeSlackAPI) -> None:
    adapter = await make_adapter(knowing=["Alice grew up in Montreal"])
    response = await run_command(adapter, fake, "export", user=ALICE, name="export")
    [opened] = fake.calls_to("conversations.open")
    assert opened.args["users"] == ALICE
    [complete] = fake.calls_to("files.completeUploadExternal")
    assert complete.args["channel_id"] == "DALICE001"
    [upload] = fake.uploads.values()
    exported = json.loads(upload.data)
    assert [m["content"] for m in exported] == ["Alice grew up in Montreal"]
    assert upload.filename.startswith("memories-slack-UALICE001-")
    assert "to you in a direct message" in section_texts(response)


async def test_export_falls_back_to_an_inline_code_block(
    make_adapter: MakeAdapter, fake: FakeSlackAPI
) -> None:
    adapter = await make_adapter(knowing=["Alice commutes by bicycle"])
    fake.method_errors["conversations.open"] = "missing_scope"
    response = await run_command(adapter, fake, "export", user=ALICE, name="export-inline")
    texts = section_texts(response)
    assert "```" in texts and "Alice commutes by bicycle" in texts
    assert fake.uploads == {}


# --- Socket Mode ---------------------------------------------------------------------------------


async def test_socket_mode_connects_acks_and_answers(make_adapter: MakeAdapter, fake: FakeSlackAPI) -> None:
    turn = FakeTurn("Over the socket.")
    adapter = await make_adapter(turn, mode="socket", app_token="xapp-1-test")
    await adapter.wait_until_ready()
    assert fake.socket_connected
    [opened] = fake.calls_to("apps.connections.open")
    assert opened.token == "xapp-1-test"
    assert adapter.ready is True
    payload = json.loads(
        event_body(message_event(mention_text("socket?"), "1700000000.001300", kind="app_mention"), "EvSock")
    )
    await fake.send_envelope(
        {
            "envelope_id": "env-1",
            "payload": payload,
            "type": "events_api",
            "accepts_response_payload": False,
            "retry_attempt": 0,
        }
    )
    await fake.wait_for(lambda: any(a.get("envelope_id") == "env-1" for a in fake.socket_acks))
    await fake.wait_for(lambda: len(fake.posts()) == 1)
    await adapter.drain()
    assert fake.posts()[0]["text"] == "Over the socket."
    assert fake.posts()[0]["thread_ts"] == "1700000000.001300"
    # A redelivery over the socket (retry_attempt 1, same event id) is acked and dropped.
    await fake.send_envelope(
        {
            "envelope_id": "env-2",
            "payload": payload,
            "type": "events_api",
            "accepts_response_payload": False,
            "retry_attempt": 1,
        }
    )
    await fake.wait_for(lambda: any(a.get("envelope_id") == "env-2" for a in fake.socket_acks))
    await adapter.drain()
    assert len(turn.calls) == 1
    await adapter.stop(grace=5)
    assert adapter.ready is False


async def test_socket_mode_without_app_token_is_never_ready(make_adapter: MakeAdapter) -> None:
    adapter = await make_adapter(mode="socket", app_token=None)
    assert adapter.bot_user_id == BOT_USER_ID
    assert adapter.ready is False


async def test_http_mode_requires_a_signing_secret(commands: MemoryCommands, tmp_path: Path) -> None:
    settings = SlackSettings(bot_token="xoxb-x", app_token=None, signing_secret=None, mode="http")
    with pytest.raises(ValueError, match="SLACK_SIGNING_SECRET"):
        SlackAdapter(settings, FakeTurn(), commands, data_dir=tmp_path, coalesce=NO_DEBOUNCE)


# --- rendering and splitting ---------------------------------------------------------------------


def test_split_message_prefers_paragraphs_then_lines_then_words() -> None:
    text = "a" * 40 + "\n\n" + "b" * 40 + "\n" + "c" * 40
    assert split_message(text, 90) == ["a" * 40 + "\n\n" + "b" * 40, "c" * 40]
    assert split_message(text, 60) == ["a" * 40, "b" * 40, "c" * 40]
    words = " ".join(["word"] * 30)
    chunks = split_message(words, 50)
    assert all(len(c) <= 50 for c in chunks) and " ".join(chunks) == words
    assert split_message("x" * 100, 40) == ["x" * 40, "x" * 40, "x" * 20]
    assert split_message("short", 3000) == ["short"]
    assert split_message("\n\n", 3000) == []


def test_split_message_reopens_code_fences_with_their_language() -> None:
    code = "```python\n" + "\n".join(f"x = {n}" for n in range(40)) + "\n```"
    chunks = split_message("Intro line.\n\n" + code, 120)
    assert len(chunks) > 2
    for chunk in chunks:
        assert len(chunk) <= 120
        assert chunk.count("```") % 2 == 0
    assert chunks[1].startswith("```python\n")
    assert chunks[2].startswith("```python\n")
    lines = [line for c in chunks for line in c.split("\n") if line.startswith("x = ")]
    assert lines == [f"x = {n}" for n in range(40)]


@settings(max_examples=150, deadline=None)
@given(
    st.lists(
        st.one_of(
            st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=200),
            st.sampled_from(["\n\n", "\n", " ", "```", "```js\n", "\n```\n"]),
        ),
        max_size=40,
    ),
    st.integers(min_value=32, max_value=400),
)
def test_split_message_properties(parts: list[str], limit: int) -> None:
    text = "".join(parts)
    chunks = split_message(text, limit)
    assert all(len(c) <= limit for c in chunks)
    assert all(c.strip() for c in chunks)
    # Nothing but whitespace is lost, and the order is kept (re-opened fences only add characters).
    original = re.sub(r"\s", "", text)
    rebuilt = iter(re.sub(r"\s", "", "".join(chunks)))
    assert all(char in rebuilt for char in original)


def test_mentions_and_broadcasts_are_cleaned() -> None:
    assert strip_mention(f"<@{BOT_USER_ID}|memorybot>  hi <@{ALICE}>", BOT_USER_ID) == f"hi <@{ALICE}>"
    assert strip_mention(f"hey <@{BOT_USER_ID}> there", BOT_USER_ID) == "hey there"
    assert strip_mention("no id yet <@UX>", None) == "no id yet <@UX>"
    assert neutralize_broadcasts("<!everyone> <!subteam^S1> <@U1>") == "&lt;!everyone&gt; <!subteam^S1> <@U1>"


def test_render_blocks_caps_long_items_and_hides_buttons_when_single_page() -> None:
    result = CommandResult(
        command="list",
        title="Your memories",
        items=[
            {
                "id": "m1",
                "content": "<b>" + "z" * 5000,
                "type": "fact",
                "date": "2026-01-02",
                "visibility": "workspace",
            }
        ],
        total=1,
    )
    text, blocks = render_blocks(result, ALICE)
    assert not any(b["type"] == "actions" for b in blocks)
    [item] = [b for b in blocks if b["type"] == "section"]
    assert len(item["text"]["text"]) <= 3000
    assert item["text"]["text"].endswith("id `m1`")  # the id survives clipping
    assert "&lt;b&gt;" in item["text"]["text"]
    assert len(text) <= 3000


# --- conversation kinds --------------------------------------------------------------------------

SECRET_CHANNEL, GROUP_DM = "CSECRET01", "GMPIM0001"


async def test_conversation_kinds_come_from_the_events_and_conversations_info(
    make_adapter: MakeAdapter, fake: FakeSlackAPI
) -> None:
    turn = FakeTurn()
    adapter = await make_adapter(turn)
    fake.add_channel(SECRET_CHANNEL, "private")
    # Message events say their channel's type; the answer channel is converted to private midway
    # (the newest event's word wins).
    typed = [
        (ANSWER, "channel", ConversationKind.PUBLIC),
        (ANSWER, "group", ConversationKind.PRIVATE),
        (LEARN, "mpim", ConversationKind.GROUP),
        (ALICE_DM, "im", ConversationKind.DM),
    ]
    for n, (channel, channel_type, _) in enumerate(typed):
        event = message_event(f"hello {n}", f"1.{n}", channel=channel, channel_type=channel_type)
        assert await send_event(adapter, event, f"EvType{n}") == 200
        await adapter.drain()
    assert [(b[0].channel_id, b[0].kind) for b, _ in turn.calls] == [(c, k) for c, _, k in typed]
    assert [b[0].is_dm for b, _ in turn.calls] == [False, False, False, True]
    assert fake.calls_to("conversations.info") == []  # the events said it all

    # An app mention carries no channel type: conversations.info says, once for the channel.
    for n in range(2):
        event = message_event(mention_text("hi"), f"2.{n}", channel=SECRET_CHANNEL, kind="app_mention")
        assert await send_event(adapter, event, f"EvMention{n}") == 200
        await adapter.drain()
    assert [b[0].kind for b, _ in turn.calls[-2:]] == [ConversationKind.PRIVATE] * 2
    assert [c.args["channel"] for c in fake.calls_to("conversations.info")] == [SECRET_CHANNEL]


async def test_a_conversation_slack_cannot_describe_is_treated_as_private(
    make_adapter: MakeAdapter, fake: FakeSlackAPI
) -> None:
    turn = FakeTurn()
    adapter = await make_adapter(turn)
    fake.method_errors["conversations.info"] = "missing_scope"
    event = message_event(mention_text("hi"), "3.1", channel="CUNKNOWN1", kind="app_mention")
    assert await send_event(adapter, event, "EvFail1") == 200
    await adapter.drain()
    assert turn.calls[-1][0][0].kind is ConversationKind.PRIVATE
    # Not cached: once the scope is granted, the next message is classified for real.
    del fake.method_errors["conversations.info"]
    event = message_event(mention_text("hi again"), "3.2", channel="CUNKNOWN1", kind="app_mention")
    assert await send_event(adapter, event, "EvFail2") == 200
    await adapter.drain()
    assert turn.calls[-1][0][0].kind is ConversationKind.PUBLIC


async def test_start_up_reports_the_private_channels_and_group_dms_it_is_in(
    make_adapter: MakeAdapter, fake: FakeSlackAPI
) -> None:
    fake.list_page_size = 2  # three conversations: two pages
    fake.add_channel(SECRET_CHANNEL, "private")
    fake.add_channel("CSECRET02", "private")
    fake.add_channel(GROUP_DM, "mpim")
    fake.add_channel("CPUBLIC01", "public")
    reported: list[Conversation] = []
    done = asyncio.Event()

    async def found(conversations: Sequence[Conversation]) -> None:
        reported.extend(conversations)
        done.set()

    await make_adapter(conversations=found)
    await asyncio.wait_for(done.wait(), 10)
    assert sorted((c.channel_id, c.kind) for c in reported) == [
        ("CSECRET01", ConversationKind.PRIVATE),
        ("CSECRET02", ConversationKind.PRIVATE),
        (GROUP_DM, ConversationKind.GROUP),
    ]
    assert {c.workspace_id for c in reported} == {TEAM_ID}
    assert len(fake.calls_to("conversations.list")) == 2


async def test_a_fact_said_in_a_private_channel_is_not_recalled_in_a_public_one(
    make_adapter: MakeAdapter,
    fake: FakeSlackAPI,
    engine: MemoryEngine,
    pipeline: TurnPipeline,
    llm: ScriptedLLM,
) -> None:
    """The reported leak, end to end through bolt: a private channel's fact quoted back elsewhere."""
    fake.add_channel(SECRET_CHANNEL, "private")

    async def turn(batch: Sequence[IncomingMessage], respond: bool) -> str | None:
        return (await pipeline.handle(batch, respond)).reply

    adapter = await make_adapter(turn)
    try:
        said = "Remember that the acquisition of Bluefin Robotics closes in March"
        llm.add(text("Noted."))
        event = message_event(mention_text(said), "4.1", channel=SECRET_CHANNEL, kind="app_mention")
        assert await send_event(adapter, event, "EvSecret") == 200
        await adapter.drain()
        learned = await engine.list_memories(Audience("slack", TEAM_ID, "default", operator=True))
        assert learned and {m.visibility for m in learned} == {Visibility.CHANNEL}

        question = "What do you know about Bluefin Robotics?"
        for channel, user, event_id in ((GENERAL, BOB, "EvPublic"), (SECRET_CHANNEL, BOB, "EvInside")):
            llm.add(text("Let me think."))
            event = message_event(
                mention_text(question), f"4.{event_id}", user=user, channel=channel, kind="app_mention"
            )
            assert await send_event(adapter, event, event_id) == 200
            await adapter.drain()
        public_call, inside_call = llm.calls[-2], llm.calls[-1]

        def model_input(call: Any) -> str:
            return "\n".join([call.system, *(m.content or "" for m in call.messages)]).replace(question, "")

        assert "acquisition" not in model_input(public_call)
        assert "acquisition" in model_input(inside_call)  # where it was said, it is recalled

        # /memory from the public channel does not show it either; from inside it does.
        outside = await run_command(adapter, fake, "search Bluefin acquisition", user=BOB, name="out")
        inside = await run_command(
            adapter, fake, "search Bluefin acquisition", user=BOB, channel=SECRET_CHANNEL, name="in"
        )
        assert "closes in March" not in section_texts(outside)
        assert "closes in March" in section_texts(inside)
    finally:
        await adapter.stop(grace=5)


async def test_a_wrong_merge_is_undone_with_slash_memory_undo(
    make_adapter: MakeAdapter, fake: FakeSlackAPI, engine: MemoryEngine, clock: FakeClock
) -> None:
    scope = Scope("slack", TEAM_ID, GENERAL, "default")
    older = await engine.remember(MemoryDraft("Alice broke her wrist", scope, user_id=ALICE, author_id=ALICE))
    newer = await engine.remember(
        MemoryDraft("Alice broke her wrist on 10 January 2026", scope, user_id=ALICE, author_id=ALICE)
    )
    assert newer.action == "superseded"
    adapter = await make_adapter()
    listed = await run_command(adapter, fake, "list", user=ALICE, name="list")
    assert f"`/memory undo {newer.memory.id}`" in section_texts(listed)
    undone = await run_command(adapter, fake, f"undo {newer.memory.id}", user=ALICE, name="undo")
    assert older.memory.id in section_texts(undone) and "Alice broke her wrist" in section_texts(undone)
    restored = await helpers.stored_memory(engine, older.memory.id)
    assert restored is not None and not restored.forgotten and restored.superseded_by is None
