"""Hostile input at the Slack edge, as `memorybot run` meets it: malformed, mistyped, replayed,
forged and huge payloads over Slack HTTP and Socket Mode. For each: the status Slack expects, no
traceback, no message body in any log line at INFO or above, nothing stored twice, and the bot
healthy afterwards. (The Discord gateway: tests/test_hostile_discord.py.)"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import aiohttp
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from slack_sdk.web.async_client import AsyncWebClient

from adapters.slack.directory import SlackDirectory
from adapters.slack.guards import loggable_id
from bot.app import App
from bot.config import Settings
from bot.runner import BotRuntime
from memory.embedders import CachedEmbedder
from memory.models import ConversationKind, Scope
from tests import helpers
from tests.fakes.embedders import HashEmbedder
from tests.fakes.slack_api import BOT_USER_ID, TEAM_ID, FakeSlackAPI
from tests.helpers import ANY_VALUE, MARKER, SECRET, assert_clean_logs
from tests.helpers import SLACK_ALICE as ALICE
from tests.helpers import SLACK_GENERAL as GENERAL
from tests.helpers import event_envelope as envelope
from tests.helpers import signed_headers as signed

ANSWER = "CANSWER01"
T = TypeVar("T")


def message(text: Any = f"hello {MARKER}", ts: Any = "1700000000.000100", **fields: Any) -> dict[str, Any]:
    event: dict[str, Any] = {
        "type": "message",
        "channel": ANSWER,
        "channel_type": "channel",
        "user": ALICE,
        "text": text,
        "ts": ts,
    }
    event.update(fields)
    return {k: v for k, v in event.items() if v is not _MISSING}


_MISSING = object()


def nested(depth: int) -> dict[str, Any]:
    node: dict[str, Any] = {"text": MARKER}
    for _ in range(depth):
        node = {"fallback": MARKER, "attachments": [node]}
    return node


@dataclass
class Case:
    """One hostile request: its raw body, how it is signed, the status Slack should get."""

    name: str
    body: bytes
    status: int
    headers: dict[str, str] | None = None  # default: signed now with the right secret
    content_type: str = "application/json"
    stored: int = 0  # turns this request should store (once, however often it is sent)
    sends: int = 1


def json_case(name: str, data: Any, status: int = 200, stored: int = 0, **kw: Any) -> Case:
    return Case(name, json.dumps(data).encode(), status, stored=stored, **kw)


def corpus() -> list[Case]:
    now = int(time.time())
    good = json.dumps(envelope(message(ts="1700000000.000900"), "EvGood")).encode()
    return [
        # Malformed: 400, not a 500 and a traceback from inside bolt.
        Case("not json", f"this is not json {MARKER}".encode(), 400),
        Case("json array", json.dumps([MARKER]).encode(), 400),
        Case("json string", json.dumps(MARKER).encode(), 400),
        Case("truncated json", good[:-7], 400),
        Case("not utf-8", b"\xff\xfe" + MARKER.encode(), 400),
        json_case("event is a string", envelope(MARKER, "Ev1"), 400),
        json_case("event is a list", envelope([MARKER], "Ev2"), 400),
        json_case(
            "callback without event", {"type": "event_callback", "event_id": "Ev3", "team_id": TEAM_ID}, 400
        ),
        Case("deeper than the parser", ("[" * 100_000 + "]" * 100_000).encode(), 400),
        Case(
            "form payload not json",
            f"payload=%7Bnot+json+{MARKER}".encode(),
            400,
            content_type="application/x-www-form-urlencoded",
        ),
        # Forged and replayed: 401.
        Case("forged signature", good, 401, headers=signed(good, secret="not-the-secret")),
        Case("replayed timestamp", good, 401, headers=signed(good, at=now - 3600)),
        Case("no signature", good, 401, headers={"Content-Type": "application/json"}),
        Case("garbage timestamp", good, 401, headers={**signed(good), "x-slack-request-timestamp": "soon"}),
        # Well formed but odd: acknowledged (Slack must not retry them), taken only when usable.
        json_case("text null", envelope(message(text=None, ts="1.01"), "Ev10")),
        json_case("text a number", envelope(message(text=4242, ts="1.02"), "Ev11")),
        json_case("text an object", envelope(message(text={"x": MARKER}, ts="1.03"), "Ev12")),
        json_case("user missing", envelope(message(user=_MISSING, ts="1.04"), "Ev13")),
        json_case("user a number", envelope(message(user=42, ts="1.05"), "Ev14"), 400),
        json_case("channel missing", envelope(message(channel=_MISSING, ts="1.06"), "Ev15")),
        json_case("channel an object", envelope(message(channel={"id": ANSWER}, ts="1.07"), "Ev16")),
        json_case("ts missing", envelope(message(ts=_MISSING), "Ev17")),
        json_case("ts a list", envelope(message(ts=["1"]), "Ev18")),
        json_case("ts garbage", envelope(message(ts="yesterday"), "Ev19"), stored=1),
        json_case("ts infinite", envelope(message(ts="1e999"), "Ev19b"), stored=1),
        json_case("thread_ts an object", envelope(message(ts="1.08", thread_ts={"a": 1}), "Ev20"), stored=1),
        json_case("subtype a list", envelope(message(ts="1.09", subtype=["x"]), "Ev21")),
        json_case("channel_type a number", envelope(message(ts="1.10", channel_type=7), "Ev22"), stored=1),
        json_case(
            "team_id an object", {**envelope(message(ts="1.11"), "Ev23"), "team_id": {"id": "T"}}, stored=1
        ),
        json_case(
            "message_changed",
            envelope(message(ts="1.12", subtype="message_changed", message={"text": MARKER}), "Ev24"),
        ),
        json_case(
            "message_deleted", envelope(message(ts="1.13", subtype="message_deleted", text=_MISSING), "Ev25")
        ),
        json_case("bot_message", envelope(message(ts="1.14", subtype="bot_message", bot_id="B1"), "Ev26")),
        json_case("channel_join", envelope(message(ts="1.15", subtype="channel_join"), "Ev27")),
        json_case(
            "blocks only",
            envelope(
                message(
                    ts="1.16",
                    text="",
                    blocks=[{"type": "section", "text": {"type": "mrkdwn", "text": MARKER}}],
                ),
                "Ev28",
            ),
        ),
        json_case(
            "300k characters",
            envelope(message(text=f"{MARKER} " + "x" * 300_000, ts="1.17"), "Ev29"),
            stored=1,
        ),
        json_case(
            "lone surrogates",
            envelope(message(text=f"{MARKER} \ud800 and \udfff", ts="1.18"), "Ev30"),
            stored=1,
        ),
        json_case(
            "control characters",
            envelope(message(text=f"{MARKER}\x00\x07\x1b[31m\u202e", ts="1.19"), "Ev31"),
            stored=1,
        ),
        json_case(
            "deeply nested attachments",
            envelope(message(ts="1.20", attachments=[nested(400)]), "Ev32"),
            stored=1,
        ),
        json_case(
            "unknown event type",
            envelope({"type": "reaction_added", "user": ALICE, "reaction": MARKER}, "Ev33"),
        ),
        json_case("event without a type", envelope({"text": MARKER}, "Ev34"), 400),
        json_case("unknown envelope type", {"type": "something_new", "payload": MARKER}),
        # Delivered three times (Slack retries): answered and stored once.
        json_case("retried delivery", envelope(message(ts="1.30"), "Ev40"), stored=1, sends=3),
    ]


# --- the running bot ------------------------------------------------------------------------------


@dataclass
class Bot:
    fake: FakeSlackAPI
    app: App
    runtime: BotRuntime
    url: str
    http: aiohttp.ClientSession
    stored_before: set[str] = field(default_factory=set)

    async def post(self, body: bytes, headers: dict[str, str], retry: int | None = None) -> int:
        if retry:
            headers = {**headers, "X-Slack-Retry-Num": str(retry), "X-Slack-Retry-Reason": "http_timeout"}
        async with self.http.post(f"{self.url}/slack/events", data=body, headers=headers) as response:
            await response.read()
            return response.status

    async def settle(self) -> None:
        adapter = self.runtime.adapters[0]
        await adapter.drain()  # type: ignore[attr-defined]
        await self.app.pipeline.idle()

    async def turns(self) -> list[Any]:
        """What users said in the answered channel (the bot's own replies left out)."""
        rows = await self.app.engine.storage.turns.recent(
            Scope("slack", TEAM_ID, ANSWER, "default"), limit=500
        )
        return [m for m in rows if m.role == "user"]


def bot_settings(tmp_path: Path, fake: FakeSlackAPI, **slack: Any) -> Settings:
    return helpers.running_bot_settings(
        tmp_path,
        slack={
            "bot_token": "xoxb-hostile",
            "signing_secret": SECRET,
            "mode": "http",
            "api_url": fake.api_url,
            "channels": [ANSWER],
            **slack,
        },
    )


@asynccontextmanager
async def running_bot(tmp_path: Path, **slack: Any) -> AsyncIterator[Bot]:
    """The whole bot against a fake Slack that knows Alice, once it is identified (and, in Socket
    Mode, connected); stopped on the way out."""
    async with FakeSlackAPI() as fake:
        fake.add_user(ALICE, "Alice")
        app = await App.start(bot_settings(tmp_path, fake, **slack), embedder=CachedEmbedder(HashEmbedder()))
        runtime = BotRuntime(app.settings, app)
        await runtime.start()
        try:
            await runtime.adapters[0].wait_until_ready()  # type: ignore[attr-defined]
            async with aiohttp.ClientSession() as http:
                yield Bot(fake, app, runtime, runtime.server.url, http)
        finally:
            await runtime.stop()


@pytest.fixture
async def bot(tmp_path: Path) -> AsyncIterator[Bot]:
    async with running_bot(tmp_path) as bot:
        yield bot


async def assert_healthy(bot: Bot, ts: str) -> None:
    """/healthz answers and a plain mention is answered once."""
    async with bot.http.get(f"{bot.url}/healthz") as response:
        assert response.status == 200 and (await response.json())["status"] == "ok"
    posted = len(bot.fake.posts())
    body = json.dumps(envelope(message(text="are you still there?", ts=ts), f"EvHealthy{ts}")).encode()
    assert await bot.post(body, signed(body)) == 200
    await bot.settle()
    assert len(bot.fake.posts()) == posted + 1


@pytest.mark.parametrize("case", corpus(), ids=lambda c: c.name)
async def test_a_hostile_slack_http_request_gets_its_status_and_leaves_no_trace(
    bot: Bot, case: Case, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    before = len(await bot.turns())
    for attempt in range(case.sends):
        headers = (
            case.headers if case.headers is not None else signed(case.body, content_type=case.content_type)
        )
        status = await bot.post(case.body, headers, retry=attempt or None)
        assert status == case.status, f"{case.name}: attempt {attempt}"
    await bot.settle()
    stored = await bot.turns()
    assert len(stored) - before == case.stored, case.name
    # Nothing stored twice: every external id appears once.
    ids = [m.external_id for m in stored if m.external_id]
    assert len(ids) == len(set(ids))
    assert_clean_logs(caplog.records, case.name)
    await assert_healthy(bot, "1800000000.000001")


# --- generated payloads ---------------------------------------------------------------------------

# Message events as Slack documents them, each field also replaced by values of the wrong kind.
SLACK_EVENT = st.fixed_dictionaries(
    {
        "type": st.sampled_from(["message", "app_mention", "reaction_added", "member_joined_channel"])
        | ANY_VALUE,
        "channel": st.sampled_from([ANSWER, GENERAL, "D0ALICE01", "G0GROUP01"]) | ANY_VALUE,
        "user": st.sampled_from([ALICE, BOT_USER_ID]) | ANY_VALUE,
        "text": st.text(max_size=200).map(lambda t: f"{MARKER} {t}") | ANY_VALUE,
        "ts": st.sampled_from(["1700000001.000100", "1700000002.000200"]) | ANY_VALUE,
    },
    optional={
        "subtype": st.sampled_from(["message_changed", "bot_message", "thread_broadcast", "file_share"])
        | ANY_VALUE,
        "thread_ts": st.just("1700000000.000001") | ANY_VALUE,
        "channel_type": st.sampled_from(["channel", "group", "im", "mpim"]) | ANY_VALUE,
        "bot_id": ANY_VALUE,
        "blocks": ANY_VALUE,
        "attachments": ANY_VALUE,
        "files": ANY_VALUE,
    },
)


@pytest.fixture(scope="module")
def generated(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[helpers.ExampleLoop, Bot]]:
    yield from helpers.across_examples(running_bot(tmp_path_factory.mktemp("hostile")))


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(event=SLACK_EVENT, event_id=st.text(max_size=12) | ANY_VALUE)
def test_generated_slack_events_are_acknowledged_or_refused_never_a_500(
    generated: tuple[helpers.ExampleLoop, Bot],
    event: dict[str, Any],
    event_id: Any,
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.clear()
    body = json.dumps(envelope(event, event_id)).encode()
    loop, bot = generated

    async def send() -> int:
        status = await bot.post(body, signed(body))
        await bot.settle()
        return status

    status = loop.run(send())
    assert status in (200, 400)
    assert_clean_logs(caplog.records, "generated event")


# --- Socket Mode ------------------------------------------------------------------------------------


def socket_frames() -> list[tuple[str, str]]:
    """(name, raw text frame) pushed over the Socket Mode connection."""

    def events_api(payload: Any, envelope_id: str) -> str:
        return json.dumps(
            {"envelope_id": envelope_id, "payload": payload, "type": "events_api", "retry_attempt": 0}
        )

    return [
        ("not json", f"this is not json {MARKER}"),
        ("truncated json", events_api(envelope(message(), "EvS1"), "s1")[:-9]),
        ("json array", json.dumps([MARKER])),
        ("envelope without type", json.dumps({"envelope_id": "s2", "payload": {"x": MARKER}})),
        ("payload a string", events_api(MARKER, "s3")),
        ("event a string", events_api(envelope(MARKER, "EvS4"), "s4")),
        ("user a number", events_api(envelope(message(user=42, ts="2.01"), "EvS5"), "s5")),
        ("text an object", events_api(envelope(message(text={"x": MARKER}, ts="2.02"), "EvS6"), "s6")),
        ("unknown event type", events_api(envelope({"type": "pin_added", "item": MARKER}, "EvS7"), "s7")),
        ("unknown envelope type", json.dumps({"envelope_id": "s8", "type": "brand_new", "payload": MARKER})),
        (
            "300k characters",
            events_api(envelope(message(text=MARKER + "y" * 300_000, ts="2.03"), "EvS9"), "s9"),
        ),
        (
            "lone surrogates",
            events_api(envelope(message(text=f"{MARKER} \ud800", ts="2.04"), "EvS10"), "s10"),
        ),
    ]


@pytest.fixture
async def socket_bot(tmp_path: Path) -> AsyncIterator[Bot]:
    async with running_bot(tmp_path, mode="socket", app_token="xapp-1-hostile") as bot:
        yield bot


@pytest.mark.parametrize(("name", "frame"), socket_frames(), ids=[n for n, _ in socket_frames()])
async def test_a_hostile_socket_mode_frame_leaves_no_trace(
    socket_bot: Bot, name: str, frame: str, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    bot = socket_bot
    await bot.fake.send_raw(frame)
    # A well-formed event after it is answered: the connection and the bot survived it.
    healthy = envelope(message(text="still there?", ts="2.99"), "EvSockHealthy")
    await bot.fake.send_envelope({"envelope_id": "healthy", "payload": healthy, "type": "events_api"})
    await bot.fake.wait_for(lambda: any(a.get("envelope_id") == "healthy" for a in bot.fake.socket_acks))
    await bot.settle()
    await bot.fake.wait_for(lambda: len(bot.fake.posts()) >= 1)
    envelope_id = (
        json.loads(frame).get("envelope_id") if frame.startswith("{") and frame.endswith("}") else None
    )
    if isinstance(envelope_id, str):
        # Every envelope is acknowledged, usable or not, so Slack does not deliver it again.
        assert any(a.get("envelope_id") == envelope_id for a in bot.fake.socket_acks), name
    ids = [m.external_id for m in await bot.turns() if m.external_id]
    assert len(ids) == len(set(ids))
    assert_clean_logs(caplog.records, name)


async def failed_lookup(
    lookup: Callable[[SlackDirectory], Awaitable[T]],
    caplog: pytest.LogCaptureFixture,
    method_errors: dict[str, str] | None = None,
) -> T:
    """What `lookup` gives from a directory on the fake Slack (failing the methods `method_errors`
    names), its log lines from INFO captured."""
    async with FakeSlackAPI() as fake:
        fake.method_errors.update(method_errors or {})
        client = AsyncWebClient(token="xoxb-test-token", base_url=fake.api_url)
        with caplog.at_level(logging.INFO):
            return await lookup(SlackDirectory(client, cache_seconds=60.0))


def assert_only_logged(caplog: pytest.LogCaptureFixture, line: str) -> None:
    """`line` is all that was logged at INFO or above, and no log record holds a body or the id
    (the ids under test are a body, or all "ü")."""
    assert [r.getMessage() for r in caplog.records if r.levelno >= logging.INFO] == [line]
    assert_clean_logs(caplog.records, "failed lookup")
    assert not any("ü" in str(v) for r in caplog.records for v in r.__dict__.values())


@pytest.mark.parametrize("user_id", [MARKER, f"U{MARKER.upper()} {MARKER}", "ü" * 50])
async def test_a_user_lookup_that_fails_logs_no_body_for_an_id(
    user_id: str, caplog: pytest.LogCaptureFixture
) -> None:
    # An event's `user` is whatever its sender wrote; Slack answers user_not_found for it.
    user = await failed_lookup(lambda directory: directory.user(user_id), caplog)
    assert user.display_name == user_id  # the turn still goes on, under the id
    assert_only_logged(caplog, "slack users.info failed")


@pytest.mark.parametrize("channel_id", [MARKER, f"C{MARKER.upper()} {MARKER}", "ü" * 50])
async def test_a_conversation_lookup_that_fails_logs_no_body_for_an_id(
    channel_id: str, caplog: pytest.LogCaptureFixture
) -> None:
    # An app mention's `channel` is whatever its sender wrote; Slack answers channel_not_found.
    kind = await failed_lookup(
        lambda directory: directory.kinds.get(channel_id),
        caplog,
        {"conversations.info": "channel_not_found"},
    )
    assert kind is ConversationKind.PRIVATE  # failing closed
    assert_only_logged(caplog, "slack conversations.info failed; treating the conversation as private")


def test_a_slack_id_is_logged_as_it_is() -> None:
    assert loggable_id("U0ALICE01") == "U0ALICE01"
    assert loggable_id("u0alice01") == loggable_id("") == "<not an id>"
