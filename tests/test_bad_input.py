"""Bad input end to end: odd messages, broken model output and tool arguments, ids, TTLs, platform events."""

from __future__ import annotations

import dataclasses
import json
import logging
from collections.abc import AsyncIterator, Sequence
from pathlib import Path
from typing import Any

import pytest

from adapters.attachment_notes import MAX_NOTE, attachment_note
from adapters.base import IncomingMessage
from adapters.command_table import Invoker, parse_command
from adapters.slack import SlackAdapter
from bot.commands import NOT_FOUND, MemoryCommands
from bot.json_reply import parse_reply
from bot.llm.fake import ScriptedLLM, text, tool
from bot.llm.types import LLMResponse, ToolCall, parse_arguments
from bot.memory_tools import MAX_SUBJECT_CHARS, MAX_SUBJECTS
from bot.pipeline import MAX_MESSAGE_CHARS, TurnPipeline
from memory.engine import MemoryEngine
from memory.errors import CommandError
from memory.models import MemoryDraft, Scope, StoredMessage
from memory.storage import MemoryQuery
from memory.ttl import TTLError
from tests.fakes.discord_objects import CHANNEL_ID, Chat
from tests.fakes.slack_api import FakeSlackAPI
from tests.helpers import GENERAL as SCOPE
from tests.helpers import SLACK_ALICE as ALICE
from tests.helpers import SLACK_ALICE_DM as ALICE_DM
from tests.helpers import (
    FakeClock,
    audience,
    dispatch,
    event_body,
    message,
    message_event,
    send_event,
    slack_adapter,
    tool_results,
)

BAD_TTLS = ["-1d", "0h", "99999999d", "1x"]


async def turns(engine: MemoryEngine, channel: str = "general") -> list[StoredMessage]:
    return await engine.storage.turns.recent(Scope("discord", "guild-1", channel, "default"), limit=100)


def utf8_clean(*texts: str) -> bool:
    """True when every text encodes as UTF-8 (as SQLite, LanceDB, logs and platform APIs need).

    Raises UnicodeEncodeError otherwise, so a failure names the character and its position.
    """
    for t in texts:
        t.encode("utf-8")
    return True


@dataclasses.dataclass
class Talk:
    """The pipeline under test, its scripted model, engine and clock, and the log it writes."""

    pipeline: TurnPipeline
    llm: ScriptedLLM
    engine: MemoryEngine
    clock: FakeClock
    caplog: pytest.LogCaptureFixture

    def problems(self) -> list[str]:
        """Warnings and errors the bot logged: a failure swallowed on the way would show here."""
        return [f"{r.name}: {r.getMessage()}" for r in self.caplog.records if r.levelno >= logging.WARNING]

    async def answered_cleanly(self, sent: str, reply: str) -> StoredMessage:
        """`sent` answered with `reply`, no error on the way (the pre-hook's included), both turns
        stored and the model given exactly the stored text; returns the stored user turn."""
        self.llm.add(text(reply))
        result = await self.pipeline.handle([message(sent, self.clock)])
        assert result.reply == reply and result.error is None
        assert result.prehook is not None and result.prehook.errors == []
        user, answer = await turns(self.engine)
        assert answer.content == reply
        assert self.llm.calls[0].messages[-1].content == user.content
        return user


@pytest.fixture
def talk(
    pipeline: TurnPipeline,
    llm: ScriptedLLM,
    engine: MemoryEngine,
    clock: FakeClock,
    caplog: pytest.LogCaptureFixture,
) -> Talk:
    return Talk(pipeline, llm, engine, clock, caplog)


def calls(*specs: tuple[str, Any]) -> LLMResponse:
    """One model response asking for several tool calls at once (one tool round)."""
    tool_calls = [ToolCall(f"bad-{n}", name, args) for n, (name, args) in enumerate(specs)]
    return LLMResponse(text="", tool_calls=tool_calls, stop_reason="tool_use")


# --- odd messages through the pipeline ------------------------------------------------------------


async def test_blank_messages_in_a_batch_are_skipped_and_the_rest_answered(
    pipeline: TurnPipeline, llm: ScriptedLLM, engine: MemoryEngine, clock: FakeClock
) -> None:
    blank = ["", " \t\r\n", "\u3000\u2003\u00a0"]  # ideographic, em and no-break spaces count as blank
    assert (await pipeline.handle([message(b, clock) for b in blank])).reply is None
    assert llm.calls == [] and await turns(engine) == []

    llm.add(text("Hi!"))
    result = await pipeline.handle([*(message(b, clock) for b in blank), message("hello", clock)])
    assert result.reply == "Hi!" and len(result.stored_message_ids) == 1
    assert [(m.role, m.content) for m in await turns(engine)] == [("user", "hello"), ("assistant", "Hi!")]
    assert [m.content for m in llm.calls[0].messages] == ["hello"]


async def test_a_100k_character_message_is_answered_and_stored_truncated(talk: Talk) -> None:
    huge = ("I moved to Lyon last year and my sister lives in Oslo. " * 2000)[:100_000]
    user = await talk.answered_cleanly(huge, "That's a lot of text!")
    # Stored as its first MAX_MESSAGE_CHARS characters; the model got exactly what was stored.
    assert user.content == huge[:MAX_MESSAGE_CHARS] and len(user.content) == MAX_MESSAGE_CHARS
    assert talk.problems() == []


ODD_TEXTS = {
    "nuls": ("a\x00b\x00\x00c", "a\x00b\x00\x00c"),
    "binary": (bytes(range(256)).decode("latin-1"), bytes(range(256)).decode("latin-1")),
    "controls": ("\x1b[31mred\x1b[0m \x07\x08\x7f bell", "\x1b[31mred\x1b[0m \x07\x08\x7f bell"),
    "surrogates": ("caf\udce9 \ud800 \udfff ok", "caf? ? ? ok"),
    "only a surrogate": ("\ud83d", "?"),
    "bidi and zero-width": ("\u202eevil\u202c\u200b\u2028x", "\u202eevil\u202c\u200b\u2028x"),
}


TTL_FORMS = "'30m', '6h', '3 days', '1 week', '2w', '1 month' or 'permanent'"


@pytest.mark.parametrize("name", list(ODD_TEXTS))
async def test_odd_characters_are_answered_and_stored_as_valid_text(name: str, talk: Talk) -> None:
    sent, expected = ODD_TEXTS[name]
    user = await talk.answered_cleanly(sent, "Got it.")
    assert user.content == expected
    call = talk.llm.calls[0]
    assert utf8_clean(call.system, *(m.content for m in call.messages))
    # Both turns' vectors landed too (a surrogate used to fail the LanceDB write).
    assert await talk.engine.storage.turns.unindexed() == []
    assert await talk.engine.storage.vectors.messages.count() == 2
    assert talk.problems() == []


async def test_a_display_name_with_a_lone_surrogate_is_stored_and_learned_cleanly(talk: Talk) -> None:
    odd = dataclasses.replace(message("call me Zed please", talk.clock), author_name="Al\ud800ice")
    talk.llm.add(text("Sure, Zed."))
    result = await talk.pipeline.handle([odd])
    assert result.reply == "Sure, Zed."
    (user, _) = await turns(talk.engine)
    assert user.author_name == "Al?ice"
    assert talk.llm.calls[0].messages[-1].name == "Al?ice"
    assert "zed" in await talk.pipeline.aliases.names_for("discord", "guild-1", "alice")
    assert talk.problems() == []  # the alias write used to fail on the surrogate and log it


# --- broken model output --------------------------------------------------------------------------


async def test_model_text_and_json_with_lone_surrogates_are_made_valid(talk: Talk) -> None:
    structured = json.dumps(
        {
            "message": "Enjoy \ud83d!",
            "memories": [{"content": "Alice likes caf\udce9", "subjects": ["caf\udce9"]}],
        }
    )
    assert "\\ud83d" in structured  # JSON spells the surrogate as an escape; parsing revives it
    talk.llm.add(text("caf\udce9 is ready"), text(structured))
    first = await talk.pipeline.handle([message("coffee?", talk.clock)])
    second = await talk.pipeline.handle([message("I like cafe", talk.clock)])
    assert first.reply == "caf? is ready" and second.reply == "Enjoy ?!"
    (memory,) = second.remembered
    assert (memory.content, memory.subjects) == ("Alice likes caf?", ["caf?"])
    replies = [m.content for m in await turns(talk.engine) if m.role == "assistant"]
    assert replies == ["caf? is ready", "Enjoy ?!"]
    assert talk.problems() == []


async def test_tool_arguments_with_lone_surrogates_are_stored_with_the_reply(talk: Talk) -> None:
    talk.llm.add(
        tool("remember", content="Alice's cat is called \ud83d", subjects=["\udc00", "cat"]), text("Done.")
    )
    result = await talk.pipeline.handle([message("my cat has an emoji name", talk.clock)])
    assert result.reply == "Done."
    (memory,) = result.remembered
    assert memory.content == "Alice's cat is called ?" and memory.subjects[:2] == ["?", "cat"]
    (_, reply) = await turns(talk.engine)
    (logged,) = reply.tool_calls  # used to fail the whole reply insert
    assert logged["name"] == "remember" and json.loads(str(logged["result"]))["status"] == "stored"
    assert talk.problems() == []


async def test_model_replies_that_are_empty_or_only_broken_memories_are_a_clean_skip(
    pipeline: TurnPipeline, llm: ScriptedLLM, engine: MemoryEngine, clock: FakeClock
) -> None:
    llm.add(
        text(""),
        text('{"memories": [{"content": ""}, {"content": "x", "type": "feeling"}, [], null]}'),
        text('{"message": "", "memories": []}'),
    )
    for said in ("one", "two", "three"):
        result = await pipeline.handle([message(said, clock)])
        assert result.reply is None and result.error is None and result.remembered == []
    # The user's messages are kept; no empty assistant turn is stored.
    assert [(m.role, m.content) for m in await turns(engine)] == [
        ("user", "one"),
        ("user", "two"),
        ("user", "three"),
    ]


def test_deeply_nested_json_is_refused_with_a_reason_not_a_crash() -> None:
    deep = "[" * 100_000 + "]" * 100_000
    arguments, error = parse_arguments(deep)
    assert arguments == {} and error == "tool arguments are nested too deeply to parse"
    reply = f'{{"message": "hi", "memories": {deep}}}'
    parsed = parse_reply(reply)
    # Not the reply form after all: shown as text, so nothing the model said is lost.
    assert parsed.message == reply and not parsed.structured and parsed.memories == []


async def test_deeply_nested_json_reply_is_shown_as_text(
    pipeline: TurnPipeline, llm: ScriptedLLM, clock: FakeClock
) -> None:
    reply = '{"message": "hi", "x": ' + '{"a": ' * 5000 + "1" + "}" * 5000 + "}"
    llm.add(text(reply))
    result = await pipeline.handle([message("nest", clock)])
    assert result.reply == reply and result.error is None


async def test_malformed_tool_arguments_each_get_a_precise_error(
    pipeline: TurnPipeline, llm: ScriptedLLM, engine: MemoryEngine, clock: FakeClock
) -> None:
    llm.add(
        calls(
            ("remember", ["content", "Alice likes tea"]),  # a JSON list, not an object
            ("remember", {"content": {"text": "Alice likes tea"}}),
            ("remember", {"content": "Alice likes tea " * 200}),
            ("remember", {"content": "Alice likes tea", "subjects": {"alice": 1}}),
            ("remember", {"content": "Alice likes tea", "subjects": [1, 2]}),
            ("remember", {"content": "Alice likes tea", "ttl": 7}),
            ("remember", {"content": "Alice likes tea", "ttl": ["7d"]}),
            *(("remember", {"content": "Alice likes tea", "ttl": bad}) for bad in BAD_TTLS),
            ("remember", {"content": "Alice likes tea", "type": ["fact"]}),
            ("remember", {"content": "\x00\u200b\x07"}),
            ("search_memories", {"query": 42}),
            ("search_memories", {"query": "tea", "limit": "lots"}),
            ("search_memories", {"query": "tea", "limit": float("inf")}),
            ("get_recent_memories", {"limit": float("nan")}),
        ),
        text("Sorry, nothing saved."),
    )
    result = await pipeline.handle([message("I like tea", clock)])
    assert result.reply == "Sorry, nothing saved."
    assert result.remembered == [] and len(result.learned) <= 1  # only the heuristic note, if any
    errors = [r["error"] for r in tool_results(llm.calls[-1].messages)]
    expected = [
        "tool arguments must be a JSON object, got list",
        "`content` must be a non-empty string",
        "`content` is too long (3199 characters, at most 2000)",
        "`subjects` must be a list of strings",
        "`subjects` must be a list of strings",
        '`ttl` must be a duration string such as "3 days", "1 week" or "1 month"',
        '`ttl` must be a duration string such as "3 days", "1 week" or "1 month"',
        f"`ttl`: invalid TTL '-1d': use a number and a unit, like {TTL_FORMS}",
        "`ttl`: invalid TTL '0h': it must be longer than zero",
        f"`ttl`: invalid TTL '99999999d': use a number and a unit, like {TTL_FORMS}",
        f"`ttl`: invalid TTL '1x': use a number and a unit, like {TTL_FORMS}",
        "`type` must be one of identity, fact, preference, decision, event, goal, todo, observation, "
        "got ['fact']",
        "memory content has no visible characters",
        "`query` must be a non-empty string",
        "`limit` must be an integer between 1 and 20",
        "`limit` must be an integer between 1 and 20",
        "`limit` must be an integer between 1 and 50",
    ]
    assert errors == expected


async def test_oversized_but_usable_tool_arguments_are_trimmed_and_unknown_keys_ignored(
    pipeline: TurnPipeline, llm: ScriptedLLM, engine: MemoryEngine, clock: FakeClock
) -> None:
    kept = await engine.remember(MemoryDraft("Bob's sister lives in Lisbon", SCOPE, author_id="bob"))
    llm.add(
        calls(
            (
                "remember",
                {
                    "content": "Alice is training for the Berlin marathon",
                    "subjects": ["x" * 100_000] * 1000 + ["alice"],
                    # Not parameters of `remember`: an id the model made up must not touch other notes.
                    "id": kept.memory.id,
                    "forget": True,
                    "memory_id": "deadbeefdeadbeef",
                },
            ),
            ("search_memories", {"query": "sister " * 50_000, "limit": 10**30}),
            ("get_recent_memories", {"limit": -5}),
        ),
        text("Good luck in Berlin!"),
    )
    result = await pipeline.handle([message("guess what", clock)])
    assert result.reply == "Good luck in Berlin!"
    stored, searched, recent = tool_results(llm.calls[-1].messages)
    assert stored["status"] == "stored"
    (memory,) = [m for m in result.remembered if "Berlin" in m.content]
    assert len(memory.subjects) <= MAX_SUBJECTS and all(len(s) <= MAX_SUBJECT_CHARS for s in memory.subjects)
    assert "memories" in searched and "memories" in recent and len(recent["memories"]) == 1
    contents = [m.content for m in await engine.list_memories(audience(), MemoryQuery(limit=50))]
    assert "Bob's sister lives in Lisbon" in contents
    # The transcript logs the calls cut to size: 100 MB of made-up subjects are not stored with the reply.
    reply = (await turns(engine))[-1]
    logged = {call["name"]: call["arguments"] for call in reply.tool_calls}
    assert set(logged) == {"remember", "search_memories", "get_recent_memories"}
    assert len(json.dumps(reply.tool_calls)) < 50_000
    assert logged["remember"]["content"] == "Alice is training for the Berlin marathon"
    assert len(logged["remember"]["subjects"]) < 1000
    assert logged["search_memories"]["query"].startswith("sister")


# --- the engine and the commands ------------------------------------------------------------------


@pytest.mark.parametrize("ttl", BAD_TTLS)
async def test_bad_ttls_are_refused_by_the_engine_and_nothing_is_stored(
    engine: MemoryEngine, ttl: str
) -> None:
    with pytest.raises(TTLError, match="invalid TTL"):
        await engine.remember(MemoryDraft("Alice is in Rome this week", SCOPE, ttl=ttl))
    assert await engine.list_memories(audience(), MemoryQuery(limit=10)) == []


@pytest.mark.parametrize(
    ("content", "reason"),
    [
        ("", "memory content is empty"),
        (" \n\t ", "memory content is empty"),
        ("\x00\x00", "memory content has no visible characters"),
        ("\u200b\u200d\ufeff", "memory content has no visible characters"),
        ("x" * 100_000, "memory content is too long (100000 characters, at most 2000)"),
        # a memory is read into other prompts and shown by /memory: no secret is ever one
        (
            "Alice's password is hunter2",
            "memory content holds a password; credentials are never stored as memories",
        ),
        (
            "The wifi password: coffee123",
            "memory content holds a password; credentials are never stored as memories",
        ),
        (
            "Alice's API key is sk-abc123def456ghi789jkl",
            "memory content holds a key or token; credentials are never stored as memories",
        ),
        (
            "Alice's card is 4111 1111 1111 1111",
            "memory content holds a card number; credentials are never stored as memories",
        ),
        (
            "Alice's SSN is 123-45-6789",
            "memory content holds a social security number; credentials are never stored as memories",
        ),
    ],
)
async def test_unusable_memory_content_is_refused_with_a_reason(
    engine: MemoryEngine, content: str, reason: str
) -> None:
    with pytest.raises(ValueError) as raised:
        await engine.remember(MemoryDraft(content, SCOPE))
    assert str(raised.value) == reason
    assert await engine.list_memories(audience(), MemoryQuery(limit=10)) == []


@pytest.mark.parametrize(
    "content",
    ["Alice's password is too long", "Alice forgot her password", "Alice's order number is 1234567890123"],
)
async def test_what_is_said_of_a_password_or_a_number_is_no_credential(
    engine: MemoryEngine, content: str
) -> None:
    await engine.remember(MemoryDraft(content, SCOPE))
    assert [m.content for m in await engine.list_memories(audience(), MemoryQuery(limit=10))] == [content]


async def test_a_password_asked_to_be_remembered_is_refused_on_every_path(
    pipeline: TurnPipeline, llm: ScriptedLLM, engine: MemoryEngine, clock: FakeClock
) -> None:
    """Neither the heuristics ("remember that ...") nor the model's tool keep it; the model is told why."""
    llm.add(calls(("remember", {"content": "Alice's password is hunter2"})), text("I won't keep passwords."))
    result = await pipeline.handle([message("remember that my password is hunter2", clock)])
    assert result.error is None and result.reply == "I won't keep passwords."
    assert result.remembered == [] and result.learned == []
    errors = [r["error"] for r in tool_results(llm.calls[-1].messages)]
    assert errors == ["memory content holds a password; credentials are never stored as memories"]
    stored = await engine.list_memories(audience(), MemoryQuery(limit=10))
    assert not any("hunter2" in m.content for m in stored)


async def test_subjects_that_are_not_strings_are_refused(engine: MemoryEngine) -> None:
    with pytest.raises(ValueError, match="subjects must be strings"):
        await engine.remember(MemoryDraft("Alice likes tea", SCOPE, subjects=["tea", 3]))  # type: ignore[list-item]


@pytest.mark.parametrize(
    ("value", "error"),
    [
        ("deadbeefdeadbeef", NOT_FOUND.format(id="deadbeefdeadbeef")),
        (123, NOT_FOUND.format(id="123")),  # a platform may pass a number
        ("' OR 1=1 --", '"\' OR 1=1 --" is not a memory id'),
        ("x" * 65, f"{'x' * 65!r} is not a memory id"),
        ("\x00", "'\\x00' is not a memory id"),
        ("\ud800", "'\\ud800' is not a memory id"),
        ("a\nb", "'a\\nb' is not a memory id"),
        (["a"], "\"['a']\" is not a memory id"),
        (1.5, "'1.5' is not a memory id"),
        ("", "id is empty"),
        (None, "missing id"),
    ],
)
async def test_forget_with_an_unknown_or_malformed_id_answers_and_deletes_nothing(
    engine: MemoryEngine, clock: FakeClock, value: object, error: str
) -> None:
    kept = await engine.remember(MemoryDraft("Alice likes tea", SCOPE, user_id="alice", author_id="alice"))
    commands = MemoryCommands(engine, "default", clock=clock)
    invoker = Invoker("discord", "guild-1", "general", "alice", is_admin=True)
    result = await commands.execute("forget", {"id": value}, invoker)
    assert result.error == error
    assert utf8_clean(result.error, *result.lines)  # safe to send back to any platform
    assert [m.id for m in await engine.list_memories(audience(), MemoryQuery(limit=10))] == [kept.memory.id]


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("forget", "missing id"),
        ("forget \ud800", "'\\ud800' is not a memory id"),
        ("forget id:", "'id:' is not a memory id"),
        ("forget a b", "too many arguments: 'b'"),
    ],
)
def test_forget_command_lines_that_cannot_run_say_why(line: str, message: str) -> None:
    with pytest.raises(CommandError) as raised:
        parse_command(line)
    assert raised.value.message == message


# --- platform events ------------------------------------------------------------------------------


class PipelineTurn:
    """The adapter's turn function backed by the real pipeline; records every batch it is given."""

    def __init__(self, pipeline: TurnPipeline) -> None:
        self.pipeline = pipeline
        self.batches: list[list[IncomingMessage]] = []

    async def __call__(self, batch: Sequence[IncomingMessage], respond: bool) -> str | None:
        self.batches.append(list(batch))
        return (await self.pipeline.handle(batch, respond)).reply


@pytest.fixture
async def slack(
    tmp_path: Path, engine: MemoryEngine, pipeline: TurnPipeline, clock: FakeClock
) -> AsyncIterator[tuple[SlackAdapter, FakeSlackAPI, PipelineTurn]]:
    async with FakeSlackAPI() as fake:
        fake.add_user(ALICE, "Alice")
        turn = PipelineTurn(pipeline)
        adapter = slack_adapter(
            fake, turn, MemoryCommands(engine, "default", clock=clock), tmp_path / "slack"
        )
        await adapter.start()
        await adapter.wait_until_identified()
        try:
            yield adapter, fake, turn
        finally:
            await adapter.stop(grace=5)


def dm_event(ts: str, text_: str = "hello there", **extra: Any) -> dict[str, Any]:
    return message_event(text_, ts, channel=ALICE_DM, channel_type="im", **extra)


def without(event: dict[str, Any], *keys: str) -> dict[str, Any]:
    return {k: v for k, v in event.items() if k not in keys}


@pytest.mark.parametrize(
    "event",
    [
        without(dm_event("1.01"), "user"),
        without(dm_event("1.02"), "text"),
        without(dm_event("1.03"), "channel"),
        without(dm_event("1.04"), "ts"),
        dm_event("1.05", text_=None),  # type: ignore[arg-type]
        dm_event("1.06", text_="   "),
        dm_event("1.07", user=""),
        without(dm_event("1.08"), "user", "text", "channel", "ts", "channel_type"),
    ],
    ids=["no user", "no text", "no channel", "no ts", "null text", "blank text", "empty user", "bare"],
)
async def test_slack_events_missing_fields_are_acked_and_dropped(
    slack: tuple[SlackAdapter, FakeSlackAPI, PipelineTurn],
    llm: ScriptedLLM,
    engine: MemoryEngine,
    event: dict[str, Any],
) -> None:
    adapter, fake, turn = slack
    assert await send_event(adapter, event, "EvBad") == 200
    await adapter.drain()
    assert turn.batches == [] and llm.calls == [] and fake.posts() == []
    assert await engine.storage.turns.count() == 0

    # The adapter is unharmed: the next well-formed message is answered and stored.
    llm.add(text("Hi Alice."))
    assert await send_event(adapter, dm_event("2.00"), "EvGood") == 200
    await adapter.drain()
    assert [p["text"] for p in fake.posts()] == ["Hi Alice."]
    assert await engine.storage.turns.count() == 2


async def test_a_slack_callback_without_an_event_is_acked(
    slack: tuple[SlackAdapter, FakeSlackAPI, PipelineTurn], engine: MemoryEngine
) -> None:
    adapter, fake, turn = slack
    body = json.loads(event_body(dm_event("3.00"), "EvNoEvent"))
    del body["event"]
    status, _ = await dispatch(adapter, json.dumps(body))
    assert status == 404  # no listener takes an event that is not there; nothing crashes
    await adapter.drain()
    assert turn.batches == [] and fake.posts() == [] and await engine.storage.turns.count() == 0


async def test_discord_messages_with_empty_content_are_ignored() -> None:
    chat = Chat()
    channel = chat.channel(CHANNEL_ID)
    await chat.deliver(
        chat.message("", dm=True),
        chat.message("", channel=channel),
        chat.message(" \n\t", channel=channel),
    )
    assert chat.turns == [] and chat.sent == []


@pytest.mark.parametrize(
    ("name", "description", "content_type", "note"),
    [
        ("cat.png", "a cat [asleep]\n\ton a mat", None, "[image: a cat (asleep) on a mat]"),
        ("scan.pdf", "signed lease", "application/pdf", "[attachment: scan.pdf (signed lease)]"),
        ("photo", "the team at the offsite", "IMAGE/WEBP", "[image: the team at the offsite]"),
        ("", "", "image/png", None),
        (None, 42, ["image/png"], None),
        ({"name": "x"}, "a described thing", None, "[attachment: a described thing]"),
        ("smile.gif", "😀 ﷽ e\u0301", "image/gif", "[image: 😀 ﷽ e\u0301]"),
    ],
)
def test_an_attachment_note_is_one_readable_line_whatever_the_payload_holds(
    name: object, description: object, content_type: object, note: str | None
) -> None:
    assert attachment_note(name, description, content_type) == note


def test_an_attachment_note_is_bounded() -> None:
    note = attachment_note("big.png", "word " * 5_000, "image/png")
    assert note is not None and len(note) <= MAX_NOTE + len("[image: ]")
    assert note.startswith("[image: word word") and note.endswith("…]")


async def test_a_discord_message_with_only_an_attachment_names_it() -> None:
    chat = Chat(reply="Nice photo!")
    photo = chat.message("", dm=True)
    photo.attachments = [type("Attachment", (), {"filename": "photo.png"})()]
    await chat.deliver(photo)
    [(batch, respond)] = chat.turns
    assert respond and [m.text for m in batch] == ["[attachment: photo.png]"]
    assert [content for content, _ in chat.sent] == ["Nice photo!"]
