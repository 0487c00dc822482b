"""A question that names when ("what did Nate do on 25 May?") reads the turns said then: the period
it names, and the pre-hook's search of that period's turns on both backends."""

from __future__ import annotations

import dataclasses
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import UTC, datetime
from pathlib import Path
from zoneinfo import ZoneInfo

import aiosqlite
import asyncpg
import pytest

from bot.llm.fake import ScriptedLLM, text
from bot.pipeline import TurnPipeline, TurnResult
from memory.embedders import CachedEmbedder
from memory.engine import MemoryEngine
from memory.prehook import PreHook, PrehookConfig, PrehookResult
from memory.prehook.asked_period import AskedPeriod, asked_period
from memory.storage.embedded.storage import SQLITE_FILE
from memory.turn_text import told_days
from tests.helpers import (
    DAY,
    FakeClock,
    audience,
    blocks_in,
    message,
    past_turn,
    prehook_request,
    settings,
    store_apart,
)

STORAGE_BACKENDS = ("embedded", "postgres")

# Wednesday 20 December 2023, 15:00 UTC: when the questions are asked.
ASKED = datetime(2023, 12, 20, 15, tzinfo=UTC).timestamp()


def _days(period: AskedPeriod | None, tz: ZoneInfo | None = None) -> tuple[str, str] | None:
    zone = tz or UTC
    if period is None:
        return None
    since, until = period.since, period.until
    return (
        datetime.fromtimestamp(since, zone).isoformat(timespec="minutes"),
        datetime.fromtimestamp(until, zone).isoformat(timespec="minutes"),
    )


@pytest.mark.parametrize(
    ("question", "days"),
    [
        (
            "What did Nate do for Joanna on 25 May, 2022?",
            ("2022-05-25T00:00+00:00", "2022-05-26T00:00+00:00"),
        ),
        ("What did Nate share in November 2022?", ("2022-11-01T00:00+00:00", "2022-12-01T00:00+00:00")),
        # a year, and a period not over yet: it ends now
        ("What did John achieve in 2023?", ("2023-01-01T00:00+00:00", "2023-12-20T15:00+00:00")),
        # asked about the past: "in June" is the last June, "Monday" the last Monday
        ("When did Melanie go camping in June?", ("2023-06-01T00:00+00:00", "2023-07-01T00:00+00:00")),
        ("What did I say on Monday?", ("2023-12-18T00:00+00:00", "2023-12-19T00:00+00:00")),
        ("What did we decide last week?", ("2023-12-11T00:00+00:00", "2023-12-18T00:00+00:00")),
        # a part of a month: the month
        (
            "Which tournament did Nate win in the beginning of November 2022?",
            ("2022-11-01T00:00+00:00", "2022-12-01T00:00+00:00"),
        ),
        # two ends of one period
        (
            "Where was John between August 11 and August 15 2023?",
            ("2023-08-11T00:00+00:00", "2023-08-16T00:00+00:00"),
        ),
        ("Qu'a-t-on décidé mardi dernier ?", ("2023-12-19T00:00+00:00", "2023-12-20T00:00+00:00")),
        # a quarter: its three months
        ("What did we ship in Q3?", ("2023-07-01T00:00+00:00", "2023-10-01T00:00+00:00")),
        # no date, two that are no ends of one period, one still to come
        ("What do you think of pizza?", None),
        ("What did Maria do last weekend before April 10, 2023?", None),
        ("What will we do on 3 March 2031?", None),
    ],
)
def test_the_period_a_question_names(question: str, days: tuple[str, str] | None) -> None:
    assert _days(asked_period(question, ASKED, UTC)) == days


def test_the_period_begins_at_midnight_where_the_asker_is() -> None:
    paris = ZoneInfo("Europe/Paris")
    assert _days(asked_period("What did I say yesterday?", ASKED, paris), paris) == (
        "2023-12-19T00:00+01:00",
        "2023-12-20T00:00+01:00",
    )


# One turn on the day asked about; more turns on other days share more of the question's words,
# so that only the day brings the first one up.
ON_THE_DAY = "Looky here Joanna, Nate got this new pup for you!"
OTHER_DAYS = [
    f"Nate and Joanna did {thing} together, Joanna said Nate was great"
    for thing in (
        "the dishes",
        "a long walk",
        "the shopping",
        "a puzzle",
        "some baking",
        "a movie night",
        "the laundry",
        "a board game",
        "some gardening",
        "a bike ride",
        "the crossword",
        "a picnic",
    )
]


async def _ask(engine: MemoryEngine, clock: FakeClock, question: str, **config: object) -> list[str]:
    hook = PreHook(engine, PrehookConfig(**config), clock=clock)  # type: ignore[arg-type]
    try:
        result = await hook.run(prehook_request(question))
    finally:
        await hook.aclose()
    assert not result.errors, result.errors
    return [m.content for m in result.injected_messages]


async def test_a_question_naming_a_day_gets_the_turn_said_that_day(
    engine: MemoryEngine, clock: FakeClock
) -> None:
    day = clock.now - 40 * DAY
    await store_apart(engine, OTHER_DAYS[:6], day - 3 * DAY)
    (gift,) = await store_apart(engine, [ON_THE_DAY], day + 3600)
    await store_apart(engine, OTHER_DAYS[6:], day + 5 * DAY)
    named = datetime.fromtimestamp(day + 3600, UTC).strftime("%-d %B %Y")

    question = f"What did Nate do for Joanna on {named}?"
    assert ON_THE_DAY in await _ask(engine, clock, question, message_top_k=4)
    # Off, or the day left unsaid: the turns of the other days fill the few places.
    assert ON_THE_DAY not in await _ask(engine, clock, question, message_top_k=4, dated_turns=0)
    assert ON_THE_DAY not in await _ask(engine, clock, "What did Nate do for Joanna?", message_top_k=4)
    # Another day named: not that turn either.
    other = datetime.fromtimestamp(day - 10 * DAY, UTC).strftime("%-d %B %Y")
    assert ON_THE_DAY not in await _ask(
        engine, clock, f"What did Nate do for Joanna on {other}?", message_top_k=4
    )
    assert gift.created_at == day + 3600


# Asked at 03:00 UTC on Wednesday 20 December 2023: 19:00 on Tuesday the 19th in Los Angeles. One
# turn said on the 18th there (12:00 UTC the 18th) and one on the 19th there (12:00 UTC the 19th).
LATE_IN_UTC = datetime(2023, 12, 20, 3, tzinfo=UTC).timestamp()
ON_THE_18TH = "Looky here Joanna, Nate got this new pup for you!"
ON_THE_19TH = "Hey Joanna, Nate got us tickets for the game!"
LOS_ANGELES = ZoneInfo("America/Los_Angeles")


async def _two_days(engine: MemoryEngine, clock: FakeClock) -> None:
    """The turns, said in #random (out of #general's history window), and the clock at the question:
    more turns of other days than a block holds, each sharing more of the question's words."""
    others = [
        *OTHER_DAYS,
        *(f"Nate and Joanna did chore {n} together, Joanna said Nate was great" for n in range(40)),
    ]
    said = [
        *((text_, LATE_IN_UTC - 9 * DAY + n * 1800) for n, text_ in enumerate(others[::2])),
        (ON_THE_18TH, datetime(2023, 12, 18, 12, tzinfo=UTC).timestamp()),
        (ON_THE_19TH, datetime(2023, 12, 19, 12, tzinfo=UTC).timestamp()),
        *((text_, LATE_IN_UTC - 5 * DAY + n * 1800) for n, text_ in enumerate(others[1::2])),
    ]
    await engine.store_messages([past_turn(text_, at, channel="random") for text_, at in said])
    clock.now = LATE_IN_UTC


async def _asked_in_utc_then_los_angeles(
    engine: MemoryEngine, clock: FakeClock, question: str, config: PrehookConfig
) -> tuple[PrehookResult, PrehookResult]:
    """The hook's answers to `question` over `_two_days`, asked from UTC (the hook's own zone), then
    from Los Angeles, each in a fresh conversation state."""
    await _two_days(engine, clock)
    hook = PreHook(engine, config, clock=clock)
    try:
        in_utc = await hook.run(prehook_request(question))
        hook.states = hook.config.make_states()
        return in_utc, await hook.run(prehook_request(question, asker_tz=LOS_ANGELES))
    finally:
        await hook.aclose()


async def test_yesterday_is_the_askers_yesterday(engine: MemoryEngine, clock: FakeClock) -> None:
    in_utc, in_los_angeles = await _asked_in_utc_then_los_angeles(
        engine, clock, "What did Nate do for Joanna yesterday?", PrehookConfig(message_top_k=4)
    )
    said = {m.content for m in in_utc.injected_messages}
    assert ON_THE_19TH in said and ON_THE_18TH not in said, said
    said = {m.content for m in in_los_angeles.injected_messages}
    assert ON_THE_18TH in said and ON_THE_19TH not in said, said


async def test_the_pipeline_asks_in_the_authors_zone(
    engine: MemoryEngine, clock: FakeClock, pipeline: TurnPipeline, llm: ScriptedLLM
) -> None:
    await _two_days(engine, clock)
    llm.add(text("A pup!"))
    asked = message("What did Nate do for Joanna yesterday?", clock, step=0, author_tz="America/Los_Angeles")
    result = await pipeline.handle([asked])
    assert result.error is None, result.error
    (block,) = blocks_in(llm.calls[-1].messages)
    assert ON_THE_18TH in block and ON_THE_19TH not in block, block


async def _asked_offline_from_los_angeles(
    engine: MemoryEngine, clock: FakeClock, tmp_path: Path, question: str
) -> TurnResult:
    """The turn of a pipeline with no model (the offline reply) when someone in Los Angeles asks
    `question` over `_two_days`."""
    await _two_days(engine, clock)
    offline = TurnPipeline(engine, settings(tmp_path), llm=None)
    try:
        return await offline.handle([message(question, clock, step=0, author_tz="America/Los_Angeles")])
    finally:
        await offline.aclose()


async def test_the_offline_reply_asks_in_the_authors_zone(
    engine: MemoryEngine, clock: FakeClock, tmp_path: Path
) -> None:
    result = await _asked_offline_from_los_angeles(
        engine, clock, tmp_path, "What did Nate do for Joanna yesterday?"
    )
    assert result.prehook is not None and result.reply is not None
    said = {m.content for m in result.prehook.injected_messages}
    assert ON_THE_18TH in said and ON_THE_19TH not in said, said
    assert ON_THE_18TH in result.reply


async def test_a_meta_question_reads_the_askers_yesterday(engine: MemoryEngine, clock: FakeClock) -> None:
    """ "What did we talk about yesterday?" is cut at the asker's midnight, and its days are theirs."""
    in_utc, in_los_angeles = await _asked_in_utc_then_los_angeles(
        engine, clock, "What did we talk about yesterday?", PrehookConfig()
    )
    assert in_utc.block is not None and in_los_angeles.block is not None
    assert ON_THE_19TH in in_utc.block and ON_THE_18TH not in in_utc.block, in_utc.block
    assert ON_THE_18TH in in_los_angeles.block and ON_THE_19TH not in in_los_angeles.block
    assert "Mon 18 Dec" in in_los_angeles.block and "19 Dec" not in in_los_angeles.block


async def test_the_offline_timeline_is_told_in_the_authors_days(
    engine: MemoryEngine, clock: FakeClock, tmp_path: Path
) -> None:
    result = await _asked_offline_from_los_angeles(
        engine, clock, tmp_path, "What did we talk about yesterday?"
    )
    assert result.reply is not None
    assert ON_THE_18TH in result.reply and ON_THE_19TH not in result.reply, result.reply
    assert "18 Dec" in result.reply and "19 Dec" not in result.reply, result.reply


# --- turns found by the days they tell of --------------------------------------------------------

# Thursday 16 November 2023, 15:00 UTC: when the turns below are said.
TOLD_AT = datetime(2023, 11, 16, 15, tzinfo=UTC).timestamp()


@pytest.mark.parametrize(
    ("content", "days"),
    [
        (
            "Guess what? I went to a castle during my trip to the UK last Friday.",
            ("2023-11-10", "2023-11-11"),
        ),
        # from the first day named to the end of the last
        ("Met my teammates on Monday and flew home yesterday", ("2023-11-13", "2023-11-16")),
        ("My colleagues and I went to a convention together last month", ("2023-10-01", "2023-11-01")),
        ("The camping trip last summer was the best", ("2023-06-01", "2023-09-01")),
        # days to come are told of too
        ("I'm flying to Lisbon next Tuesday", ("2023-11-21", "2023-11-22")),
        ("Sounds great, have fun!", None),
        # only the start of a long turn is read
        ("word " * 500 + "on 3 March 2021", None),
    ],
)
def test_the_days_a_turn_tells_of(content: str, days: tuple[str, str] | None) -> None:
    told = told_days(past_turn(content, TOLD_AT))
    if days is None:
        assert told is None
        return
    assert told is not None
    assert tuple(datetime.fromtimestamp(t, UTC).date().isoformat() for t in told) == days


# Asked on Monday 20 November 2023: the second week of November is 6 to 12 November.
ASKED_AFTER_THE_WEEK = datetime(2023, 11, 20, 12, tzinfo=UTC).timestamp()
TOLD_OF_THE_WEEK = "Tim here, I was visiting the UK last Friday and saw a castle"


def _utc_day(year: int, month: int, day: int) -> tuple[float, float]:
    """From midnight to midnight (UTC) of that day: the bounds a search of the days turns tell of takes."""
    start = datetime(year, month, day, tzinfo=UTC).timestamp()
    return start, start + DAY


# What the turns said on TOLD_AT (a Thursday) tell of: "last Friday", and "on Monday" once rewritten.
FRIDAY_10TH = _utc_day(2023, 11, 10)
MONDAY_13TH = _utc_day(2023, 11, 13)


async def test_a_question_about_a_week_gets_the_turn_said_after_that_tells_of_it(
    engine: MemoryEngine, clock: FakeClock
) -> None:
    """Turns said that week say little of the question; turns of other days say more of it than the
    one told four days after the week, which only the days it tells of bring up."""
    in_the_week = [
        (f"Tim had {dish} for lunch", datetime(2023, 11, 7 + n % 5, 12, tzinfo=UTC).timestamp())
        for n, dish in enumerate(("soup", "pasta", "a salad", "tacos", "curry", "noodles"))
    ]
    other_days = [
        (
            f"Tim was visiting a country, Tim said it was {word}",
            datetime(2023, 10, 20 + n, 12, tzinfo=UTC).timestamp(),
        )
        for n, word in enumerate(("sunny", "rainy", "cold", "lovely", "busy", "quiet", "huge", "tiny"))
    ]
    said = [*in_the_week, *other_days, (TOLD_OF_THE_WEEK, TOLD_AT)]
    await engine.store_messages([past_turn(text_, at, channel="random") for text_, at in said])
    clock.now = ASKED_AFTER_THE_WEEK

    question = "Which country was Tim visiting in the second week of November?"
    assert TOLD_OF_THE_WEEK in await _ask(engine, clock, question, message_top_k=4)
    # Not named, or off: the turns of other days, and of that week, fill the few places.
    assert TOLD_OF_THE_WEEK not in await _ask(
        engine, clock, "Which country was Tim visiting?", message_top_k=4
    )
    assert TOLD_OF_THE_WEEK not in await _ask(engine, clock, question, message_top_k=4, dated_turns=0)
    # Another week named: it tells of none of its days.
    assert TOLD_OF_THE_WEEK not in await _ask(
        engine, clock, "Which country was Tim visiting in the first week of November?", message_top_k=4
    )


async def test_a_rewritten_turn_tells_of_the_days_its_new_words_name(engine: MemoryEngine) -> None:
    """A turn rewritten (a credential masked) is read again: the days it tells of are its new words'."""
    turn = past_turn("I changed the wifi password last Friday, it is now hunter2", TOLD_AT)
    await engine.store_messages([turn])
    (vector,) = await engine.embedder.embed(["wifi password"])
    turns, viewer = engine.storage.turns, audience()
    assert [h.id for h in await turns.search_told(viewer, vector, *FRIDAY_10TH, 5)] == [turn.id]

    await turns.rewrite([dataclasses.replace(turn, content="I changed the wifi password on Monday")])
    await engine.repair_messages()
    assert await turns.search_told(viewer, vector, *FRIDAY_10TH, 5) == []
    assert [h.id for h in await turns.search_told(viewer, vector, *MONDAY_13TH, 5)] == [turn.id]

    await turns.rewrite([dataclasses.replace(turn, content="I changed the wifi password")])
    await engine.repair_messages()
    assert await turns.search_told(viewer, vector, TOLD_AT - 400 * DAY, TOLD_AT + 400 * DAY, 5) == []


# The store as the version before migration m008 (SQLite) or m015 (PostgreSQL) left it: the turns
# stored before the told days were kept have none, and nothing says they were never read.
BEFORE_TOLD_READ = {
    "embedded": """
        DROP INDEX ix_messages_told_unread;
        ALTER TABLE messages DROP COLUMN told_read;
        UPDATE messages SET told_since = NULL, told_until = NULL;
        DELETE FROM _migrations WHERE name = 'm008_turn_told_read';
    """,
    "postgres": """
        DROP INDEX ix_messages_told_unread;
        ALTER TABLE messages DROP COLUMN told_read;
        UPDATE messages SET told_since = NULL, told_until = NULL;
        DELETE FROM schema_migrations WHERE name = 'm015_turn_told_read';
    """,
}


async def _as_before_told_read(backend: str, location: str | Path) -> None:
    if backend == "postgres":
        conn = await asyncpg.connect(str(location))
        try:
            async with conn.transaction():
                await conn.execute(BEFORE_TOLD_READ[backend])
        finally:
            await conn.close()
        return
    async with aiosqlite.connect(Path(location) / SQLITE_FILE) as db:
        await db.executescript(BEFORE_TOLD_READ[backend])
        await db.commit()


@asynccontextmanager
async def _engine_on(
    location: str | Path, embedder: CachedEmbedder, clock: FakeClock
) -> AsyncIterator[MemoryEngine]:
    """An engine on the store at `location`, closed on the way out: the upgrade tests close it to
    rewrite the store as an older version left it, then open it again."""
    engine = await MemoryEngine.open(location, embedder, clock=clock)
    try:
        yield engine
    finally:
        await engine.close()


async def test_turns_stored_before_the_told_days_were_kept_are_read_at_the_next_maintenance(
    backend: str, storage_location: str | Path, embedder: CachedEmbedder, clock: FakeClock
) -> None:
    """An upgraded store reads the days its old turns tell of once, off the reply path; the turns
    stored since are never read twice."""
    told, plain = past_turn(TOLD_OF_THE_WEEK, TOLD_AT), past_turn("Tim had soup for lunch", TOLD_AT + 60)
    async with _engine_on(storage_location, embedder, clock) as engine:
        await engine.store_messages([told, plain])
        assert not engine.storage.turns.told_due
        assert await engine.storage.turns.told_unread(10) == []  # read as they were stored
    await _as_before_told_read(backend, storage_location)

    (vector,) = await embedder.embed(["Which country was Tim visiting?"])
    async with _engine_on(storage_location, embedder, clock) as engine:
        turns = engine.storage.turns
        assert turns.told_due and engine.needs_maintenance
        assert [m.id for m in await turns.told_unread(10)] == [told.id, plain.id]
        assert await turns.search_told(audience(), vector, *FRIDAY_10TH, 5) == []
        await engine.maintain()
        assert [h.id for h in await turns.search_told(audience(), vector, *FRIDAY_10TH, 5)] == [told.id]
        assert not turns.told_due and await turns.told_unread(10) == []
    async with _engine_on(storage_location, embedder, clock) as engine:
        assert not engine.storage.turns.told_due


async def test_a_turn_rewritten_while_its_told_days_are_read_keeps_its_own(
    backend: str, storage_location: str | Path, embedder: CachedEmbedder, clock: FakeClock
) -> None:
    """The days read from an old turn's words never overwrite those its rewrite read meanwhile."""
    turn = past_turn(TOLD_OF_THE_WEEK, TOLD_AT)
    async with _engine_on(storage_location, embedder, clock) as engine:
        await engine.store_messages([turn])
    await _as_before_told_read(backend, storage_location)
    async with _engine_on(storage_location, embedder, clock) as engine:
        turns = engine.storage.turns
        (taken,) = await turns.told_unread(10)
        await turns.rewrite([dataclasses.replace(turn, content="I was visiting the UK on Monday")])
        await engine.repair_messages()
        # What a reader that took the turn before the rewrite writes after it.
        await turns._set_told([(taken.id, *(told_days(taken) or (None, None)))])
        (vector,) = await embedder.embed(["Which country was Tim visiting?"])
        assert await turns.search_told(audience(), vector, *FRIDAY_10TH, 5) == []
        assert [h.id for h in await turns.search_told(audience(), vector, *MONDAY_13TH, 5)] == [turn.id]
        assert await turns.told_unread(10) == []
