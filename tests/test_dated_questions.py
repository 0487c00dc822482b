"""A question that names when ("what did Nate do on 25 May?") reads the turns said then: the period
it names, and the pre-hook's search of that period's turns on both backends."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from bot.llm.fake import ScriptedLLM, text
from bot.pipeline import TurnPipeline, TurnResult
from memory.engine import MemoryEngine
from memory.prehook import PreHook, PrehookConfig, PrehookResult
from memory.prehook.asked_period import asked_period
from tests.helpers import (
    DAY,
    FakeClock,
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


def _days(period: tuple[float, float] | None, tz: ZoneInfo | None = None) -> tuple[str, str] | None:
    zone = tz or UTC
    if period is None:
        return None
    since, until = period
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
