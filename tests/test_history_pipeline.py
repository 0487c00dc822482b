"""Conversation history in the pipeline: background summaries, episodes, aliases, profiles, summary recall."""

from __future__ import annotations

from pathlib import Path

from adapters.base import IncomingMessage
from bot.llm.fake import ScriptedLLM, text
from bot.llm.types import ChatMessage, LLMResponse, ToolSpec
from bot.pipeline import TurnPipeline
from memory.engine import MemoryEngine
from memory.models import Audience, MemoryDraft, MemoryType, Scope
from memory.prehook import PreHook, PrehookConfig, PrehookRequest
from memory.storage import MemoryQuery
from memory.summaries import SummaryManager
from memory.summarizer import ExtractiveSummarizer
from tests.helpers import GENERAL as SCOPE
from tests.helpers import FakeClock, message, past_turn, settings


def msg(
    text_: str, clock: FakeClock, author: str = "mickael", name: str | None = None, channel: str = "general"
) -> IncomingMessage:
    """Mickael's message (unless told otherwise), a minute after the clock's last one."""
    return message(text_, clock, author, name=name, channel=channel, step=60)


async def test_a_reply_costs_one_model_call_and_its_summaries_none(
    engine: MemoryEngine, tmp_path: Path, clock: FakeClock
) -> None:
    llm = ScriptedLLM([text("The budget is 5k.")])
    pipe = TurnPipeline(engine, settings(tmp_path), llm=llm)
    try:
        result = await pipe.handle([msg("what's the budget for the Lisbon offsite?", clock)])
        assert result.reply == "The budget is 5k."
        await pipe.idle()
        (summary,) = await pipe.summaries.pending_level1(SCOPE)
        assert "Lisbon offsite" in summary.content and "5k" in summary.content
        assert set(result.stored_message_ids) < set(summary.source_ids)  # the turn and the reply
        thread = await pipe.summaries.thread_summary(SCOPE)
        assert thread is not None and "Lisbon" in thread.content
        assert len(llm.calls) == 1 and pipe.model_budget.calls_total == 0
    finally:
        await pipe.aclose()


async def test_background_model_calls_stay_under_a_quarter_per_reply(
    engine: MemoryEngine, tmp_path: Path, clock: FakeClock
) -> None:
    """A long conversation: the model condenses the history and refreshes the thread summary now
    and then (never per reply), and the summaries still cover every turn."""

    def answer(system: str, messages: list[ChatMessage], tools: list[ToolSpec]) -> LLMResponse:
        if tools:
            return text("Thanks, noted: " + messages[-1].content[-60:])
        return text("Summary: " + messages[-1].content[-300:])

    llm = ScriptedLLM()
    pipe = TurnPipeline(engine, settings(tmp_path), llm=llm)
    replies = 40
    llm.add(*([answer] * replies * 2))
    try:
        for n in range(replies):
            said = f"Update {n}: the {['build', 'launch', 'audit', 'hiring'][n % 4]} plan moved again. " * 3
            result = await pipe.handle([msg(said, clock)])
            assert result.reply is not None
            await pipe.idle()
        usage = pipe.llm_usage.snapshot()
        calls = {purpose: counts.calls for (_, purpose), counts in usage.items()}
        background = sum(v for k, v in calls.items() if k != "reply")
        assert calls["reply"] == replies
        assert 0 < background <= replies / 4, calls
        assert background == pipe.model_budget.calls_total
        # Every turn is covered by a summary, condensed or not.
        covered = {i for s in await pipe.summaries.summaries(SCOPE) for i in s.source_ids}
        level1 = await pipe.summaries.summaries(SCOPE, level=1)
        assert len(level1) == replies and {i for s in level1 for i in s.source_ids} <= covered
    finally:
        await pipe.aclose()


async def test_an_agreed_decision_is_stored_as_a_dated_episode(
    pipeline: TurnPipeline, engine: MemoryEngine, clock: FakeClock
) -> None:
    pipe = pipeline
    pipe.llm.add(text("Sounds good — Postgres it is."))  # type: ignore[union-attr]
    result = await pipe.handle([msg("let's go with Postgres for the billing service", clock)])
    await pipe.idle()
    audience = Audience("discord", "guild-1", "default", viewer_id="mickael", channel_id="general")
    decisions = await engine.list_memories(audience, MemoryQuery(types=[MemoryType.DECISION]))
    contents = [m.content for m in decisions]
    assert any("decided to go with Postgres for the billing service" in c for c in contents), contents
    decision = next(m for m in decisions if "Postgres" in m.content)
    assert result.stored_message_ids[0] in decision.sources  # it records the exchange it came from


async def test_an_alias_widens_who_the_hook_looks_up(
    pipeline: TurnPipeline, engine: MemoryEngine, clock: FakeClock
) -> None:
    pipe = pipeline
    # Old enough not to come back as a "recent" memory: only knowing who "dev" is brings it.
    await engine.remember(
        MemoryDraft(
            "Mickael works as a night-shift nurse",
            SCOPE,
            MemoryType.IDENTITY,
            user_id="mickael",
            created_at=clock() - 3 * 86400,
        )
    )
    pipe.llm.add(text("Sure, dev."), text("You're a nurse."))  # type: ignore[union-attr]
    # Said in another channel, so this channel's model has not been shown Mickael's notes yet.
    await pipe.handle([msg("from now on, call me dev", clock, channel="random")])
    # Later the same person writes from an account whose only name is "dev".
    result = await pipe.handle([msg("what do you know about me?", clock, author="dev", name="dev")])
    assert "Mickael works as a night-shift nurse" in [m.content for m in result.injected]
    assert result.prehook is not None and result.prehook.block is not None
    assert "## Identity" in result.prehook.block


async def test_a_new_preference_reaches_the_profile_in_the_prompt(
    pipeline: TurnPipeline, clock: FakeClock
) -> None:
    pipe = pipeline
    pipe.llm.add(text("Noted."), text("Tea, then."))  # type: ignore[union-attr]
    await pipe.handle([msg("I really prefer green tea over coffee", clock)])
    await pipe.profile_updater.drain()
    await pipe.handle([msg("what should I drink this afternoon?", clock)])
    system = pipe.llm.calls[-1].system  # type: ignore[union-attr]
    assert "People here" in system
    assert "green tea" in system.split("People here", 1)[1]


async def test_summaries_are_recalled_by_the_hook_when_their_turns_are_out_of_context(
    engine: MemoryEngine, clock: FakeClock
) -> None:
    summaries = SummaryManager(engine, ExtractiveSummarizer(), clock=clock)
    now = clock()
    turns = [
        past_turn("We agreed the Lisbon offsite will happen on 12 May with a 5k budget", now - 9 * 86400),
        past_turn("Great, I'll book the venue near Alfama", now - 9 * 86400 + 60, author="alice"),
    ]
    await engine.store_messages(turns)
    summary = await summaries.summarize_turn(SCOPE, [t.id for t in turns])
    assert summary is not None
    hook = PreHook(engine, PrehookConfig(message_top_k=0), clock=clock, summaries=summaries)
    viewer = Audience("discord", "guild-1", "default", viewer_id="bob", channel_id="general")

    def request(in_context: list[str]) -> PrehookRequest:
        return PrehookRequest(
            text="when is the Lisbon offsite and what's the budget?",
            scope=Scope("discord", "guild-1", "general"),
            viewer=viewer,
            in_context_message_ids=in_context,
        )

    # While its turns are in the model's window the summary would only repeat them...
    assert (await hook.run(request([t.id for t in turns]))).injected_summaries == []
    # ...once they are not, it is recalled, with its dates.
    fresh = PreHook(engine, PrehookConfig(message_top_k=0), clock=clock, summaries=summaries)
    result = await fresh.run(request([]))
    assert [s.id for s in result.injected_summaries] == [summary.id]
    assert result.block is not None and "summary:" in result.block and "12 May" in result.block
    await hook.aclose()
    await fresh.aclose()
