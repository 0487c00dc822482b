"""What is stored stays true: dates resolved when written, people named as they are called,
expiries kept, TTLs understood, merges undone, predicates kept, thresholds that say what they do."""

from __future__ import annotations

import dataclasses
import itertools
import json
import logging
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from adapters.base import IncomingMessage
from adapters.command_table import Invoker
from bench.relative_dates import load_cases, score
from bot.app import App
from bot.commands import MemoryCommands
from bot.llm.fake import ScriptedLLM, text, tool
from bot.pipeline import TurnPipeline
from memory.embedders import CachedEmbedder
from memory.engine import MemoryEngine
from memory.models import Audience, ConversationKind, MemoryDraft, MemoryType, Scope
from memory.storage import MemoryQuery
from memory.summarizer import ExtractiveSummarizer
from memory.text import date_mentions, extract
from tests.helpers import FakeClock, settings, stored_memory

# Tuesday 24 November 2026, 10:00 UTC.
TUESDAY = datetime(2026, 11, 24, 10, tzinfo=UTC).timestamp()
_ids = itertools.count(1)
EVERYTHING = Audience("console", "local", "default", viewer_id="root", private_ok=True, operator=True)


def say(text_: str, clock: FakeClock, author: str = "root", name: str = "root") -> IncomingMessage:
    clock.advance(60)
    return IncomingMessage(
        platform="console",
        workspace_id="local",
        channel_id="terminal",
        author_id=author,
        author_name=name,
        text=text_,
        timestamp=clock(),
        external_id=f"m{next(_ids)}",
        mentions_bot=True,
    )


@pytest.fixture
def tuesday(clock: FakeClock) -> FakeClock:
    clock.now = TUESDAY
    return clock


@pytest.fixture
async def offline(engine: MemoryEngine, tmp_path: Path, tuesday: FakeClock) -> AsyncIterator[TurnPipeline]:
    pipeline = TurnPipeline(engine, settings(tmp_path), summarizer=ExtractiveSummarizer())
    yield pipeline
    await pipeline.aclose()


async def contents(engine: MemoryEngine) -> list[str]:
    return [m.content for m in await engine.list_memories(EVERYTHING, MemoryQuery(limit=100))]


# --- dates ------------------------------------------------------------------------------------


def test_relative_dates_of_the_labelled_set() -> None:
    """The date rules on the labelled set (`memorybot bench dates` scores dateparser beside them)."""
    result = score(date_mentions, load_cases())
    assert result["accuracy"] >= 0.95, result["misses"]
    # The expressions the bot was seen getting wrong, each right now.
    said = {case["text"]: case for case in load_cases()}
    for text_ in (
        "I broke my shoulder skiing last week",
        "I saw Paul yesterday",
        "My daughter Léa starts school in Lyon next September",
        "We ship in two weeks",
        "J'ai vu Paul hier",
        "Je me suis cassé l'épaule la semaine dernière",
        "Ma fille Léa commence l'école en septembre prochain",
        "I've had my cat for 3 years now",
        "J'habite à Lyon depuis deux ans",
        "I lived in Berlin for 3 years",
    ):
        case = said[text_]
        got = [[d.isoformat(), unit] for d, unit in date_mentions(text_, datetime.fromisoformat(case["now"]))]
        assert got == case["expect"], text_


async def test_what_a_message_says_of_last_week_is_stored_as_that_week(
    offline: TurnPipeline, engine: MemoryEngine, tuesday: FakeClock
) -> None:
    await offline.handle([say("Mickael here: I broke my shoulder skiing last week", tuesday, name="Mickael")])
    await offline.handle([say("J'ai vu le kiné hier, on recommence le sport le mois prochain", tuesday)])
    stored = await contents(engine)
    assert any("in the week of Monday 16 November 2026" in c and "last week" not in c for c in stored), stored
    assert not any("hier" in c or "mois prochain" in c for c in stored), stored


async def test_model_written_memories_are_dated_when_written(
    engine: MemoryEngine, tmp_path: Path, tuesday: FakeClock
) -> None:
    """The write path resolves what the model says too ("next Friday"), not only the heuristics."""
    llm = ScriptedLLM(
        [tool("remember", content="Alice's thesis defence is next Friday", type="event"), text("Good luck!")]
    )
    pipeline = TurnPipeline(engine, settings(tmp_path), llm=llm, summarizer=ExtractiveSummarizer())
    try:
        result = await pipeline.handle([say("my defence is in ten days", tuesday, "alice", "Alice")])
    finally:
        await pipeline.aclose()
    assert [m.content for m in result.remembered] == ["Alice's thesis defence is Friday 4 December 2026"]


# Monday 23 November 2026, 18:00 in Los Angeles: already Tuesday 02:00 in UTC.
LATE_MONDAY_IN_LOS_ANGELES = datetime(2026, 11, 24, 2, tzinfo=UTC).timestamp()


async def test_tomorrow_is_read_in_the_time_zone_its_author_said(
    engine: MemoryEngine, tmp_path: Path, clock: FakeClock
) -> None:
    """Alice said she is in PST: on her Monday evening, her "tomorrow" is Tuesday, in what the
    heuristics keep and in what the model writes; Bob said no zone, so UTC's Tuesday night reads his."""
    clock.now = LATE_MONDAY_IN_LOS_ANGELES
    llm = ScriptedLLM(
        [
            text("Noted."),
            tool("remember", content="Alice's dentist appointment is tomorrow", type="event"),
            text("Good luck!"),
            text("Good luck!"),
        ]
    )
    pipeline = TurnPipeline(engine, settings(tmp_path), llm=llm, summarizer=ExtractiveSummarizer())
    try:
        await pipeline.handle([say("I'm in PST", clock, "alice", "Alice")])
        await pipeline.idle()
        result = await pipeline.handle([say("My exam is tomorrow", clock, "alice", "Alice")])
        await pipeline.handle([say("My exam is tomorrow", clock, "bob", "Bob")])
    finally:
        await pipeline.aclose()
    stored = await contents(engine)
    assert "Alice is in the PST time zone" in stored
    assert "Alice's exam is Tuesday 24 November 2026" in stored
    assert [m.content for m in result.remembered] == [
        "Alice's dentist appointment is Tuesday 24 November 2026"
    ]
    assert "Bob's exam is Wednesday 25 November 2026" in stored


@pytest.mark.parametrize(
    ("said", "stored_as"),
    [
        ("I'm on Seattle time", "Alice is on Seattle time (America/Los_Angeles)"),
        ("I'm on West Coast time this week", "Alice is on West Coast time (America/Los_Angeles)"),
        ("je suis à l'heure de Los Angeles", "Alice est à l'heure de Los Angeles (America/Los_Angeles)"),
    ],
)
async def test_a_zone_named_by_a_place_reads_tomorrow_there(
    engine: MemoryEngine, tmp_path: Path, clock: FakeClock, said: str, stored_as: str
) -> None:
    """ "I'm on Seattle time" is a zone as "I'm in PST" is: her Monday evening's "tomorrow" is Tuesday."""
    clock.now = LATE_MONDAY_IN_LOS_ANGELES
    pipeline = TurnPipeline(engine, settings(tmp_path), summarizer=ExtractiveSummarizer())
    try:
        await pipeline.handle([say(said, clock, "alice", "Alice")])
        await pipeline.idle()
        result = await pipeline.handle([say("My exam is tomorrow", clock, "alice", "Alice")])
    finally:
        await pipeline.aclose()
    assert stored_as in await contents(engine)
    assert [m.content for m in result.learned] == ["Alice's exam is Tuesday 24 November 2026"]


async def test_a_time_zone_said_in_a_dm_reads_only_that_dm(
    engine: MemoryEngine, tmp_path: Path, clock: FakeClock
) -> None:
    """What Alice says of herself in her DM is hers alone there, her zone as much as her name: in
    #general her "tomorrow" is read in the bot's zone, in the DM in hers."""
    clock.now = LATE_MONDAY_IN_LOS_ANGELES
    pipeline = TurnPipeline(engine, settings(tmp_path), summarizer=ExtractiveSummarizer())

    def in_dm(text_: str) -> IncomingMessage:
        return dataclasses.replace(
            say(text_, clock, "alice", "Alice"), channel_id="D-alice", is_dm=True, kind=ConversationKind.DM
        )

    try:
        await pipeline.handle([in_dm("I'm in PST")])
        await pipeline.idle()
        in_public = await pipeline.handle([say("My exam is tomorrow", clock, "alice", "Alice")])
        in_private = await pipeline.handle([in_dm("My interview is tomorrow")])
    finally:
        await pipeline.aclose()
    assert [m.content for m in in_public.learned] == ["Alice's exam is Wednesday 25 November 2026"]
    assert [m.content for m in in_private.learned] == ["Alice's interview is Tuesday 24 November 2026"]


async def test_the_platform_s_time_zone_reads_those_who_said_none(
    engine: MemoryEngine, tmp_path: Path, clock: FakeClock
) -> None:
    """Slack knows Lou is in Los Angeles: her Monday evening's "tomorrow" is Tuesday. What she says
    of herself wins over it ("I'm in JST": Tokyo is already at Tuesday 11:00, so Wednesday)."""
    clock.now = LATE_MONDAY_IN_LOS_ANGELES
    pipeline = TurnPipeline(engine, settings(tmp_path), summarizer=ExtractiveSummarizer())

    def lou(text_: str) -> IncomingMessage:
        return dataclasses.replace(say(text_, clock, "lou", "Lou"), author_tz="America/Los_Angeles")

    try:
        await pipeline.handle([lou("My exam is tomorrow")])
        await pipeline.handle([lou("I'm in JST")])
        await pipeline.idle()
        await pipeline.handle([lou("My interview is tomorrow")])
    finally:
        await pipeline.aclose()
    stored = await contents(engine)
    assert "Lou's exam is Tuesday 24 November 2026" in stored
    assert "Lou's interview is Wednesday 25 November 2026" in stored


async def test_the_bot_wide_time_zone_reads_those_who_said_none(
    tmp_path: Path, embedder: CachedEmbedder
) -> None:
    """MEMORY_TIMEZONE=UTC+10: 16:00 UTC on Tuesday is 02:00 on Wednesday there."""
    app = await App.start(
        settings(tmp_path, memory={"timezone": "UTC+10"}), embedder=embedder, with_llm=False
    )
    try:
        clock = FakeClock(datetime(2026, 11, 24, 16, tzinfo=UTC).timestamp())
        await app.pipeline.handle([say("My exam is tomorrow", clock, "bob", "Bob")])
        stored = await contents(app.engine)
    finally:
        await app.close()
    assert "Bob's exam is Thursday 26 November 2026" in stored


async def test_absolute_dates_are_left_as_said(engine: MemoryEngine, tuesday: FakeClock) -> None:
    draft = MemoryDraft(
        "Alice's birthday is on 3 June", Scope("console", "local", "terminal"), user_id="alice"
    )
    assert (await engine.remember(draft)).memory.content == "Alice's birthday is on 3 June"


# --- names ------------------------------------------------------------------------------------


async def test_memories_call_the_person_by_their_name_once_known(
    offline: TurnPipeline, engine: MemoryEngine, tuesday: FakeClock
) -> None:
    """Logged in as "root": what was learned before "my name is Mickael" is reworded, and every
    later memory says Mickael."""
    await offline.handle([say("I broke my shoulder skiing last week", tuesday)])
    assert any(c.casefold().startswith("root broke their shoulder") for c in await contents(engine))
    await offline.handle([say("my name is Mickael", tuesday)])
    await offline.idle()
    await offline.profile_updater.drain()
    await offline.handle([say("I love green tea", tuesday)])
    stored = await contents(engine)
    assert "Mickael loves green tea" in stored
    assert any(c.startswith("Mickael broke their shoulder skiing in the week of") for c in stored), stored
    assert not any(c.casefold().startswith("root broke") for c in stored)
    assert "root's name is Mickael" in stored  # the statement itself, as it was said
    # The reworded memory is found by the name, in full text and by meaning.
    audience = Audience("console", "local", "default", viewer_id="root", channel_id="terminal")
    found = [h.memory.content for h in await engine.search("Mickael shoulder", audience, threshold=0.0)]
    assert found and found[0].startswith("Mickael broke their shoulder")


async def test_a_name_and_a_fact_in_one_message(
    offline: TurnPipeline, engine: MemoryEngine, tuesday: FakeClock
) -> None:
    result = await offline.handle([say("my name is Mickael and I prefer tea to coffee", tuesday)])
    assert {m.content for m in result.learned} == {"root's name is Mickael", "Mickael prefers tea to coffee"}


@pytest.mark.model
async def test_a_past_home_and_a_move_said_in_one_message_keep_the_home_now(
    offline: TurnPipeline, engine: MemoryEngine, tuesday: FakeClock
) -> None:
    """ "Lives in Lyon" and "moved to Lyon in 2019" are 0.86 apart with MiniLM, over the update
    threshold: said in one message they are two facts, and the home now stays known."""
    said = "I used to live in Madrid before moving to Lyon in 2019"
    result = await offline.handle([say(said, tuesday, name="Mickael")])
    expected = {"Mickael used to live in Madrid", "Mickael lives in Lyon", "Mickael moved to Lyon in 2019"}
    assert {m.content for m in result.learned} == expected
    assert set(await contents(engine)) == expected
    # A later message refines as before: the move told again, with its month, replaces it.
    await offline.handle([say("I moved to Lyon in June 2019", tuesday, name="Mickael")])
    assert set(await contents(engine)) == expected - {"Mickael moved to Lyon in 2019"} | {
        "Mickael moved to Lyon in June 2019"
    }


@pytest.mark.model
async def test_how_a_home_was_never_replaces_how_it_is_unless_it_ended(
    offline: TurnPipeline, engine: MemoryEngine, tuesday: FakeClock
) -> None:
    """ "Lived in Lyon as a student" is 0.89 from "lives in Lyon" with MiniLM, over the update
    threshold: history beside the home now, both kept. After moving back, the old home stays too."""
    await offline.handle([say("I live in Lyon", tuesday, name="Mickael")])
    await offline.handle([say("I lived in Lyon as a student", tuesday, name="Mickael")])
    assert set(await contents(engine)) == {"Mickael lives in Lyon", "Mickael lived in Lyon as a student"}
    await offline.handle([say("I used to live in Madrid", tuesday, name="Mickael")])
    await offline.handle([say("I moved back to Madrid", tuesday, name="Mickael")])
    stored = set(await contents(engine))
    madrid = {"Mickael used to live in Madrid", "Mickael lives in Madrid", "Mickael moved back to Madrid"}
    assert madrid <= stored, stored
    # A past that says it ended still replaces the present.
    await offline.handle([say("I work at Acme", tuesday, name="Mickael")])
    await offline.handle([say("I used to work at Acme", tuesday, name="Mickael")])
    stored = set(await contents(engine))
    assert "Mickael used to work at Acme" in stored and "Mickael works at Acme" not in stored, stored


# --- expiries and TTLs ---------------------------------------------------------------------------


async def test_a_heuristic_deadline_reaches_the_store_with_its_expiry(
    offline: TurnPipeline, engine: MemoryEngine, tuesday: FakeClock
) -> None:
    result = await offline.handle([say("remind me to send the report by Friday", tuesday)])
    [todo] = [m for m in result.learned if m.memory_type is MemoryType.TODO]
    friday = datetime(2026, 11, 27, tzinfo=UTC).timestamp()
    stored = await stored_memory(engine, todo.id)
    assert stored is not None and stored.expires_at == pytest.approx(friday + 7 * 86400)


@pytest.mark.parametrize(
    ("ttl", "days"),
    [("3 days", 3), ("1 week", 7), ("2 weeks", 14), ("1 month", 30), ("permanent", None), (None, None)],
)
async def test_the_models_ttls_are_understood(
    engine: MemoryEngine, tmp_path: Path, tuesday: FakeClock, ttl: str | None, days: int | None
) -> None:
    arguments: dict[str, Any] = {"content": "Alice is on call", "type": "fact"}
    if ttl is not None:
        arguments["ttl"] = ttl
    llm = ScriptedLLM([tool("remember", **arguments), text("Noted.")])
    pipeline = TurnPipeline(engine, settings(tmp_path), llm=llm, summarizer=ExtractiveSummarizer())
    try:
        result = await pipeline.handle([say("I'm on call", tuesday, "alice", "Alice")])
    finally:
        await pipeline.aclose()
    [memory] = result.remembered
    expected = None if days is None else memory.created_at + days * 86400
    assert memory.expires_at == (pytest.approx(expected) if expected is not None else None)


async def test_a_ttl_the_model_got_wrong_is_refused_to_the_tool_and_dropped_from_a_json_reply(
    engine: MemoryEngine, tmp_path: Path, tuesday: FakeClock, caplog: pytest.LogCaptureFixture
) -> None:
    llm = ScriptedLLM(
        [
            tool("remember", content="Alice is on call", ttl="until Sunday"),
            text(
                json.dumps({"message": "ok", "memories": [{"content": "Bob is on call", "ttl": "a while"}]})
            ),
        ]
    )
    pipeline = TurnPipeline(engine, settings(tmp_path), llm=llm, summarizer=ExtractiveSummarizer())
    try:
        with caplog.at_level(logging.WARNING):
            result = await pipeline.handle([say("who is on call?", tuesday, "alice", "Alice")])
    finally:
        await pipeline.aclose()
    tool_result = json.loads(llm.calls[1].messages[-1].content)
    assert "`ttl`" in tool_result["error"] and "'until Sunday'" in tool_result["error"]
    [kept] = result.remembered
    assert (kept.content, kept.expires_at) == ("Bob is on call", None)
    assert any("kept without its TTL" in r.getMessage() for r in caplog.records)


# --- undoing a merge ----------------------------------------------------------------------------


async def test_a_wrong_merge_is_undone_with_memory_undo(engine: MemoryEngine, tuesday: FakeClock) -> None:
    scope = Scope("discord", "g1", "general")
    older = (
        await engine.remember(MemoryDraft("Mickael broke his shoulder", scope, user_id="u1", author_id="u1"))
    ).memory
    newer = await engine.remember(
        MemoryDraft("Mickael broke his shoulder on 10 January 2026", scope, user_id="u1", author_id="u1")
    )
    assert newer.action == "superseded" and newer.replaced is not None and newer.replaced.id == older.id
    commands = MemoryCommands(engine, "default")
    owner = Invoker("discord", "g1", "general", "u1")
    listed = await commands.execute("list", {}, owner)
    assert [(i["id"], i.get("replaced")) for i in listed.items] == [(newer.memory.id, older.id)]
    # Someone else cannot undo it, and says so the same way as for an unknown id.
    other = await commands.execute("undo", {"id": newer.memory.id}, Invoker("discord", "g1", "general", "u2"))
    assert other.error is not None and "No merge to undo" in other.error
    undone = await commands.execute("undo", {"id": newer.memory.id}, owner)
    assert undone.error is None and [i["id"] for i in undone.items] == [older.id]
    listed = await commands.execute("list", {}, owner)
    assert {i["id"] for i in listed.items} == {older.id, newer.memory.id}
    assert (await commands.execute("undo", {"id": newer.memory.id}, owner)).error is not None  # nothing left


# --- extraction keeps the predicate ------------------------------------------------------------


@pytest.mark.parametrize(
    ("said", "expected"),
    [
        (
            "My daughter Léa starts school in Lyon next September",
            "Mickael's daughter Léa starts school in Lyon in September 2027",
        ),
        (
            "Ma fille Léa commence l'école à Lyon en septembre prochain",
            "La fille de Mickael, Léa, commence l'école à Lyon en septembre 2027",
        ),
        ("My wife Anna works at Google", "Mickael's wife Anna works at Google"),
    ],
)
async def test_extraction_keeps_what_a_named_relative_does(
    engine: MemoryEngine, said: str, expected: str
) -> None:
    now = datetime.fromtimestamp(TUESDAY, UTC)
    found = [e.content for e in extract(said, "Mickael", now)]
    assert expected in found, found
    # Both the name and the predicate are kept: the longer one does not swallow the other.
    scope = Scope("console", "local", "terminal")
    for content in found:
        await engine.remember(MemoryDraft(content, scope, user_id="mickael", author_id="mickael"))
    assert set(found) <= set(await contents_of(engine, scope))


async def contents_of(engine: MemoryEngine, scope: Scope) -> list[str]:
    audience = Audience(scope.platform, scope.workspace_id, scope.agent_id, operator=True)
    return [m.content for m in await engine.list_memories(audience)]


# --- thresholds that say what they do ----------------------------------------------------------


async def test_the_injection_floor_is_a_setting(
    engine: MemoryEngine, tmp_path: Path, tuesday: FakeClock
) -> None:
    scope = Scope("console", "local", "terminal")
    # Learned a month ago, so only the search brings it (a recent memory is never dropped by the floor).
    month_ago = TUESDAY - 30 * 86400
    draft = MemoryDraft("The printer on floor 3 jams on A3 paper", scope, user_id="x", author_id="x")
    draft.created_at = month_ago
    await engine.remember(draft)
    for floor, injected in ((0.3, True), (0.9, False)):
        pipeline = TurnPipeline(
            engine,
            settings(tmp_path, prehook={"min_relevance": floor}),
            llm=ScriptedLLM([text("ok")]),
            summarizer=ExtractiveSummarizer(),
        )
        try:
            assert pipeline.prehook.config.min_relevance == floor
            result = await pipeline.handle([say("is the printer working again?", tuesday, "bob", "Bob")])
        finally:
            await pipeline.aclose()
        assert any("printer" in m.content for m in result.injected) is injected, floor


# --- the first run shows the pre-hook ----------------------------------------------------------


async def test_offline_what_do_you_remember_about_me_lists_identity_preferences_and_events(
    offline: TurnPipeline, tuesday: FakeClock
) -> None:
    for said in ("my name is Mickael", "I love green tea", "I broke my shoulder skiing last week", "hello"):
        await offline.handle([say(said, tuesday)])
        await offline.idle()
    reply = (await offline.handle([say("What do you remember about me?", tuesday)])).reply
    assert reply is not None
    sections = reply.split("Identity:")[1]
    assert "root's name is Mickael" in sections.split("Preferences:")[0]
    assert "Mickael loves green tea" in sections.split("Preferences:")[1]
    assert "broke their shoulder" in reply
    # Asked again at once: still the whole answer (the question asks for it), not "nothing new".
    again = (await offline.handle([say("what do you know about me?", tuesday)])).reply
    assert again is not None and "Mickael loves green tea" in again


async def test_offline_what_did_we_talk_about_shows_the_timeline_or_says_there_is_none(
    offline: TurnPipeline, tuesday: FakeClock
) -> None:
    empty = (await offline.handle([say("what did we talk about last week?", tuesday)])).reply
    assert empty is not None and "No past conversations from last week" in empty
    for said in ("the offsite is in Lisbon", "I booked the flights"):
        await offline.handle([say(said, tuesday)])
    reply = (await offline.handle([say("tu te souviens de ce dont on a parlé ?", tuesday)])).reply
    assert reply is not None
    assert "Tue 24 Nov — 3 messages in 1 conversation" in reply
    assert '"the offsite is in Lisbon"' in reply and '"I booked the flights"' in reply


async def test_a_name_asked_for_is_used_when_no_name_was_given(
    offline: TurnPipeline, engine: MemoryEngine, tuesday: FakeClock
) -> None:
    await offline.handle([say("please call me Mick", tuesday)])
    await offline.idle()
    await offline.profile_updater.drain()
    result = await offline.handle([say("I love green tea", tuesday)])
    assert [m.content for m in result.learned] == ["Mick loves green tea"]
