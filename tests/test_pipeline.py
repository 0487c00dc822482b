"""The turn pipeline with a scripted model: tools, JSON replies, errors, and injection across turns."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bot.llm.fake import ScriptedLLM, text, tool
from bot.llm.types import LLMResponse, ToolCall
from bot.pipeline import APOLOGY, TurnPipeline, TurnResult
from memory.dedup import DedupPolicy
from memory.embedders import CachedEmbedder
from memory.engine import MemoryEngine
from memory.errors import LLMError
from memory.models import Audience, Fact, MemoryDraft, MemoryType, Predicate, Scope, Visibility
from memory.prehook.context_block import BLOCK_OPEN
from memory.storage import MemoryQuery
from memory.summarizer import ExtractiveSummarizer
from tests.helpers import (
    GENERAL,
    FakeClock,
    audience,
    blocks_in,
    message,
    settings,
    stored_memory,
    tool_results,
)


async def all_memories(engine: MemoryEngine, aud: Audience | None = None) -> list[str]:
    rows = await engine.list_memories(aud or audience(), MemoryQuery(limit=500))
    return [m.content for m in rows]


# --- tools and reply forms ----------------------------------------------------------------------


async def test_remember_tool_round_trip_stores_a_memory(
    pipeline: TurnPipeline, llm: ScriptedLLM, engine: MemoryEngine, clock: FakeClock
) -> None:
    llm.add(
        tool("remember", content="Mickael is allergic to peanuts", subjects=["mickael", "allergy"]),
        text("Noted, no peanuts for Mickael."),
    )
    result = await pipeline.handle([message("btw Mickael can't eat peanuts, he's allergic", clock)])
    assert result.reply == "Noted, no peanuts for Mickael."
    assert [m.content for m in result.remembered] == ["Mickael is allergic to peanuts"]
    stored = result.remembered[0]
    assert stored.subjects[:2] == ["mickael", "allergy"]
    assert stored.visibility is Visibility.WORKSPACE and stored.author_id == "alice"
    assert stored.sources == result.stored_message_ids
    assert "Mickael is allergic to peanuts" in await all_memories(engine)
    # The second call carries the tool result; the model saw "stored".
    second = llm.calls[1].messages
    assert second[-2].role == "assistant" and second[-2].tool_calls[0].name == "remember"
    assert tool_results(second)[0]["status"] == "stored"
    assert {t.name for t in llm.calls[0].tools} == {"remember", "search_memories", "get_recent_memories"}
    # The reply is stored as an assistant turn after the user's message.
    recent = await engine.storage.turns.recent(GENERAL)
    assert [m.role for m in recent] == ["user", "assistant"]
    assert recent[-1].content == "Noted, no peanuts for Mickael."
    # The assistant turn keeps the tool calls it made, with what each returned.
    (logged,) = recent[-1].tool_calls
    assert logged["name"] == "remember"
    assert logged["arguments"] == {
        "content": "Mickael is allergic to peanuts",
        "subjects": ["mickael", "allergy"],
    }
    assert json.loads(str(logged["result"]))["status"] == "stored"


async def test_search_and_recent_tools_read_memory_within_the_audience(
    pipeline: TurnPipeline, llm: ScriptedLLM, engine: MemoryEngine, clock: FakeClock
) -> None:
    await engine.remember(
        MemoryDraft("Bob's sister lives in Lisbon", GENERAL, user_id="bob", author_id="bob")
    )
    other = Scope("discord", "guild-2", "general", "default")
    await engine.remember(MemoryDraft("Bob's sister lives in Oslo", other, user_id="bob", author_id="bob"))
    llm.add(
        tool("search_memories", query="where does Bob's sister live?"),
        tool("get_recent_memories", limit=5),
        text("In Lisbon."),
    )
    result = await pipeline.handle([message("remind me where bob's sister lives", clock)])
    assert result.reply == "In Lisbon."
    found = tool_results(llm.calls[1].messages)[0]["memories"]
    assert [m["content"] for m in found] == ["Bob's sister lives in Lisbon"]
    recent = tool_results(llm.calls[2].messages)[1]["memories"]
    assert "Bob's sister lives in Oslo" not in [m["content"] for m in recent]
    assert result.tool_calls == 2


async def test_malformed_tool_arguments_are_answered_with_an_error(
    pipeline: TurnPipeline, llm: ScriptedLLM, clock: FakeClock
) -> None:
    broken = LLMResponse(
        text="",
        tool_calls=[
            ToolCall("c1", "remember", {}, error="tool arguments are not valid JSON: x at position 3")
        ],
        stop_reason="tool_use",
    )
    llm.add(
        broken,
        tool("remember", content="", subjects="not-a-list"),
        tool("remember", content="Alice runs marathons", ttl="until she stops"),
        tool("remember", content="Alice runs marathons", type="feeling"),
        tool("forget_everything"),
        text("Sorry, I could not save that."),
    )
    result = await pipeline.handle([message("I run marathons", clock)])
    assert result.reply == "Sorry, I could not save that."
    errors = [r["error"] for r in tool_results(llm.calls[-1].messages)]
    assert len(errors) == 5
    assert "not valid JSON" in errors[0]
    assert "`content`" in errors[1]
    assert "`ttl`" in errors[2]
    assert "`type` must be one of" in errors[3]
    assert "unknown tool 'forget_everything'" in errors[4]
    assert result.remembered == []


async def test_tool_rounds_are_capped(
    pipeline: TurnPipeline, llm: ScriptedLLM, engine: MemoryEngine, clock: FakeClock
) -> None:
    llm.add(*[tool("get_recent_memories") for _ in range(6)], text("done"))
    result = await pipeline.handle([message("hello there", clock)])
    assert result.reply == "done"
    assert result.tool_calls == 5  # five rounds ran; the sixth request was answered "limit reached"
    assert len(llm.calls) == 7
    assert "limit reached" in tool_results(llm.calls[-1].messages)[-1]["error"]


async def test_json_reply_form_stores_memories_and_shows_only_the_message(
    pipeline: TurnPipeline, llm: ScriptedLLM, engine: MemoryEngine, clock: FakeClock
) -> None:
    reply = {
        "message": "Enjoy the tea!",
        "memories": [
            {
                "content": "Alice prefers green tea to coffee",
                "subjects": ["alice", "tea"],
                "type": "preference",
            },
            {"content": "Alice has a dentist appointment on Friday", "ttl": "7d", "type": "event"},
            {"content": "", "type": "fact"},
            {"content": "Alice is in a bad mood", "ttl": "soon"},
            42,
        ],
    }
    llm.add(text("```json\n" + json.dumps(reply) + "\n```"))
    result = await pipeline.handle([message("making some tea before the dentist on friday", clock)])
    assert result.reply == "Enjoy the tea!"
    kinds = {m.content: m.memory_type for m in result.remembered}
    # "Friday" is written as the Friday it meant; a TTL that is no duration costs the TTL, not the memory.
    assert kinds == {
        "Alice prefers green tea to coffee": MemoryType.PREFERENCE,
        "Alice has a dentist appointment on Friday 25 September 2026": MemoryType.EVENT,
        "Alice is in a bad mood": MemoryType.FACT,
    }
    dentist = next(m for m in result.remembered if m.memory_type is MemoryType.EVENT)
    assert dentist.expires_at == pytest.approx(dentist.created_at + 7 * 86400)
    mood = next(m for m in result.remembered if m.content == "Alice is in a bad mood")
    assert mood.expires_at is None
    recent = await engine.storage.turns.recent(GENERAL)
    assert recent[-1].content == "Enjoy the tea!"  # not the JSON


async def test_json_that_is_not_the_reply_form_is_shown_as_text(
    pipeline: TurnPipeline, llm: ScriptedLLM, clock: FakeClock
) -> None:
    llm.add(text('{"name": "memorybot", "version": 1}'), text('{"message": "unterminated'))
    first = await pipeline.handle([message("show me a JSON example", clock)])
    assert first.reply == '{"name": "memorybot", "version": 1}'
    second = await pipeline.handle([message("and a broken one", clock)])
    assert second.reply == '{"message": "unterminated'
    assert first.remembered == [] and second.remembered == []


async def test_provider_error_apologises_and_keeps_the_message(
    pipeline: TurnPipeline, llm: ScriptedLLM, engine: MemoryEngine, clock: FakeClock
) -> None:
    llm.add(LLMError("anthropic: HTTP 529 overloaded_error"))
    result = await pipeline.handle([message("My name is Alice and I love climbing", clock)])
    assert result.reply == APOLOGY
    assert result.error == "anthropic: HTTP 529 overloaded_error"
    recent = await engine.storage.turns.recent(GENERAL)
    assert [(m.role, m.content) for m in recent] == [("user", "My name is Alice and I love climbing")]
    assert result.learned  # the heuristic memories were still kept
    # The next turn sends the unanswered message again, in order, and works.
    llm.add(text("Hi Alice!"))
    again = await pipeline.handle([message("are you back?", clock)])
    assert again.reply == "Hi Alice!"
    sent = [m.content for m in llm.calls[-1].messages if not m.content.startswith(BLOCK_OPEN)]
    assert sent == ["My name is Alice and I love climbing", "are you back?"]


async def test_unexpected_provider_exception_is_handled_like_an_error(
    pipeline: TurnPipeline, llm: ScriptedLLM, clock: FakeClock
) -> None:
    llm.add(RuntimeError("socket closed"))
    result = await pipeline.handle([message("hello", clock)])
    assert result.reply == APOLOGY and result.error == "RuntimeError"


# --- batches, duplicates, system messages -------------------------------------------------------


async def test_a_coalesced_batch_runs_the_hook_once_on_the_combined_text(
    pipeline: TurnPipeline, llm: ScriptedLLM, engine: MemoryEngine, clock: FakeClock
) -> None:
    await engine.remember(MemoryDraft("The team standup is at 9:30", GENERAL, author_id="bob"))
    state = pipeline.prehook.states.get("discord", "guild-1", "general", None, "default")
    llm.add(text("It's at 9:30."))
    batch = [
        message("quick question", clock),
        message("about the standup", clock, "bob"),
        message("what time?", clock),
    ]
    result = await pipeline.handle(batch)
    assert state.turn == 1  # one pre-hook run for three messages
    assert len(llm.calls) == 1
    assert [m.content for m in result.injected] == ["The team standup is at 9:30"]
    sent = llm.calls[0].messages
    # The block sits before the batch's first turn; the three turns follow with their speakers.
    assert sent[0].content.startswith(BLOCK_OPEN)
    assert [(m.name, m.content) for m in sent[1:]] == [
        ("Alice", "quick question"),
        ("Bob", "about the standup"),
        ("Alice", "what time?"),
    ]


async def test_system_messages_are_stored_but_never_run_the_hook(
    pipeline: TurnPipeline, llm: ScriptedLLM, engine: MemoryEngine, clock: FakeClock
) -> None:
    result = await pipeline.handle([message("Bob pinned a message", clock, "system", is_system=True)])
    assert result.reply is None and result.prehook is None
    assert llm.calls == []
    state = pipeline.prehook.states.get("discord", "guild-1", "general", None, "default")
    assert state.turn == 0
    assert await engine.storage.turns.count() == 1


async def test_a_redelivered_message_is_not_answered_twice(
    pipeline: TurnPipeline, llm: ScriptedLLM, clock: FakeClock
) -> None:
    said = message("what's new?", clock)
    llm.add(text("Not much."))
    first = await pipeline.handle([said])
    second = await pipeline.handle([said])
    assert first.reply == "Not much."
    assert second.reply is None and second.duplicate
    assert len(llm.calls) == 1


async def test_passive_batches_learn_without_calling_the_model(
    pipeline: TurnPipeline, llm: ScriptedLLM, engine: MemoryEngine, clock: FakeClock
) -> None:
    result = await pipeline.handle([message("I prefer tabs over spaces", clock)], respond=False)
    assert result.reply is None and llm.calls == []
    assert [m.memory_type for m in result.learned] == [MemoryType.PREFERENCE]


async def test_what_is_learned_of_the_speaker_keeps_its_fact_and_news_of_others_none(
    pipeline: TurnPipeline, engine: MemoryEngine, clock: FakeClock
) -> None:
    said = "I live in Lyon. Dave lives in Leeds now. My sister is called Léa. I broke my wrist."
    result = await pipeline.handle([message(said, clock, name="Alice")], respond=False)
    facts = {m.content: m.fact for m in result.learned}
    assert facts == {
        "Alice lives in Lyon": Fact("", Predicate.LOCATION, "lives in Lyon"),
        "Dave lives in Leeds now": None,  # about Dave: his words are all there is
        "Alice's sister is called Léa": Fact("", Predicate.RELATIVE, "Léa", "sister"),
        "Alice broke their wrist": None,  # an event: no profile reads it
    }
    # ... as stored, and as the profile reads it
    stored = [await stored_memory(engine, m.id) for m in result.learned]
    assert {m.content: m.fact for m in stored if m is not None} == facts


async def test_empty_and_blank_batches_do_nothing(pipeline: TurnPipeline, llm: ScriptedLLM) -> None:
    assert (await pipeline.handle([])).reply is None
    clock = FakeClock()
    assert (await pipeline.handle([message("   \n", clock)])).reply is None
    assert llm.calls == []


# --- injection across turns ---------------------------------------------------------------------


def injected_ids(result: TurnResult) -> set[str]:
    return {m.id for m in result.injected}


async def test_no_memory_is_injected_twice_within_the_depth_and_the_block_stays_in_context(
    engine: MemoryEngine, llm: ScriptedLLM, tmp_path: Path, clock: FakeClock
) -> None:
    depth = 3
    pipe = TurnPipeline(
        engine,
        settings(tmp_path, prehook={"context_window_depth": depth}),
        llm=llm,
        summarizer=ExtractiveSummarizer(),
    )
    rex = (await engine.remember(MemoryDraft("Alice's dog is called Rex", GENERAL, author_id="alice"))).memory
    seen_at: list[int] = []
    for turn in range(depth + 2):
        llm.add(text(f"reply {turn}"))
        result = await pipe.handle([message("tell me about my dog again", clock)])
        if rex.id in injected_ids(result):
            seen_at.append(turn)
        # Whatever the turn, the model sees Rex exactly once: in the block of the turn it was injected.
        sent = llm.calls[-1].messages
        assert sum("Rex" in b for b in blocks_in(sent)) == 1
    assert seen_at == [0, depth]  # injected, skipped for `depth` turns, then injected again
    await pipe.aclose()


async def test_the_block_is_never_written_to_the_transcript(
    pipeline: TurnPipeline, llm: ScriptedLLM, engine: MemoryEngine, clock: FakeClock
) -> None:
    await engine.remember(MemoryDraft("The office wifi password rotates monthly", GENERAL, author_id="bob"))
    llm.add(text("It rotates monthly."), text("Yes."))
    first = await pipeline.handle([message("how often does the office wifi password change?", clock)])
    await pipeline.handle([message("ok thanks", clock)])
    assert first.injected
    assert any(b for b in blocks_in(llm.calls[1].messages))  # still shown to the model...
    stored = await engine.storage.turns.recent(GENERAL, limit=50)
    assert len(stored) == 4
    assert all(BLOCK_OPEN not in m.content for m in stored)  # ...never stored
    assert [m.role for m in stored] == ["user", "assistant", "user", "assistant"]


async def test_compaction_keeps_the_injection_state_and_the_blocks(
    engine: MemoryEngine, llm: ScriptedLLM, tmp_path: Path, clock: FakeClock
) -> None:
    # Four stored turns fit the window: after two exchanges the first turn is compacted away,
    # its summary stands in for it, and the block injected with it stays in front of the model.
    pipe = TurnPipeline(
        engine, settings(tmp_path, history={"max_messages": 4}), llm=llm, summarizer=ExtractiveSummarizer()
    )
    rex = (await engine.remember(MemoryDraft("Alice's dog is called Rex", GENERAL, author_id="alice"))).memory
    seen: list[bool] = []
    state = pipe.prehook.states.get("discord", "guild-1", "general", None, "default")
    questions = ["what's my dog's name?", "and what breed is Rex?", "how old is my dog Rex?", "is Rex fed?"]
    for n, question in enumerate(questions):
        llm.add(text(f"reply {n}"))
        result = await pipe.handle([message(question, clock)])
        await pipe.idle()  # the background summary of this turn is written before the next one
        seen.append(rex.id in injected_ids(result))
        sent = llm.calls[-1].messages
        assert sum("Alice's dog is called Rex" in b for b in blocks_in(sent)) == 1
    assert seen == [True, False, False, False]  # never re-injected: the state was not reset
    assert state.turn == 4
    last = llm.calls[-1].messages
    # The compacted first turn is gone from the history, replaced by its summary...
    assert "what's my dog's name?" not in [m.content for m in last if not m.content.startswith("<")]
    earlier = [m.content for m in last if m.content.startswith("<earlier_conversation>")]
    assert len(earlier) == 1 and '"memorybot: reply 0"' in earlier[0]  # turn 0's summary
    # ...and the block injected with it now leads the history, after the summaries.
    assert last[1].content.startswith(BLOCK_OPEN)
    await pipe.aclose()


@pytest.mark.model  # two wordings of one fact are near-duplicates
async def test_near_duplicates_are_filtered_by_stored_vectors_across_turns(
    tmp_path: Path, embedder: CachedEmbedder, clock: FakeClock, llm: ScriptedLLM
) -> None:
    # A write policy that never merges, so two wordings of one fact are both stored.
    loose = DedupPolicy(supersede_at=0.999, refine_floor=0.998)
    engine = await MemoryEngine.open(tmp_path / "loose", embedder, policy=loose, clock=clock)
    try:
        pipe = TurnPipeline(engine, settings(tmp_path), llm=llm, summarizer=ExtractiveSummarizer())
        first = (
            await engine.remember(MemoryDraft("Alice's dog is named Rex", GENERAL, author_id="a"))
        ).memory
        llm.add(text("Rex!"), text("Still Rex."))
        one = await pipe.handle([message("what is my dog called?", clock)])
        second = (
            await engine.remember(MemoryDraft("Alice's dog is called Rex", GENERAL, author_id="a"))
        ).memory
        assert second.id != first.id
        vectors = await engine.storage.memories.embeddings([first.id, second.id])
        assert float(vectors[first.id] @ vectors[second.id]) > 0.85
        two = await pipe.handle([message("remind me what my dog is called", clock)])
        assert injected_ids(one) == {first.id}
        assert two.prehook is not None
        assert second.id in {m.id for m, _ in two.prehook.candidates_ranked}
        assert second.id not in injected_ids(two)  # a near-duplicate of what the channel holds
        await pipe.aclose()
    finally:
        await engine.close()


async def test_memories_of_another_agent_or_workspace_are_never_injected(
    engine: MemoryEngine, llm: ScriptedLLM, tmp_path: Path, clock: FakeClock
) -> None:
    fact = "The release freeze starts on December 15"
    elsewhere = [
        Scope("discord", "guild-2", "general", "default"),  # another workspace
        Scope("discord", "guild-1", "general", "other-agent"),  # another persona, same channel
        Scope("slack", "guild-1", "general", "default"),  # same ids on another platform
    ]
    foreign = [(await engine.remember(MemoryDraft(fact, s, author_id="bob"))).memory.id for s in elsewhere]
    dm = Scope("discord", "guild-1", "dm-bob", "default")
    private = await engine.remember(
        MemoryDraft(
            "Bob is interviewing at another company",
            dm,
            author_id="bob",
            user_id="bob",
            visibility=Visibility.PRIVATE,
        )
    )
    pipe = TurnPipeline(engine, settings(tmp_path), llm=llm, summarizer=ExtractiveSummarizer())
    llm.add(text("No idea."), text("No idea either."))
    result = await pipe.handle([message("when does the release freeze start?", clock, "bob")])
    other = await pipe.handle([message("is bob interviewing anywhere?", clock, "carol")])
    assert not injected_ids(result) & set(foreign)
    assert private.memory.id not in injected_ids(other)
    sent = "\n".join(blocks_in(llm.calls[0].messages) + blocks_in(llm.calls[1].messages))
    assert "December 15" not in sent and "interviewing" not in sent
    await pipe.aclose()


async def test_the_batchs_own_facts_are_not_injected_back(
    pipeline: TurnPipeline, llm: ScriptedLLM, clock: FakeClock
) -> None:
    llm.add(text("Nice to meet you, Alice."))
    result = await pipeline.handle([message("Hi, my name is Alice and I work as a nurse", clock)])
    assert result.learned
    assert not injected_ids(result) & {m.id for m in result.learned}


async def test_what_the_model_remembered_is_not_injected_back_next_turn(
    pipeline: TurnPipeline, llm: ScriptedLLM, clock: FakeClock
) -> None:
    llm.add(tool("remember", content="Alice is training for the Berlin marathon"), text("Good luck!"))
    first = await pipeline.handle([message("training for Berlin this autumn", clock)])
    llm.add(text("Still training?"))
    second = await pipeline.handle([message("how is my marathon training going?", clock)])
    written = first.remembered[0]
    assert written.id not in injected_ids(second)


async def test_a_turn_reads_the_speakers_profile_and_the_message_its_reply_answers_once(
    pipeline: TurnPipeline,
    llm: ScriptedLLM,
    engine: MemoryEngine,
    clock: FakeClock,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The speaker's name and zone, read as the turn begins, serve its episodes too; the reply is
    indexed after the message it answers without reading that message back."""
    llm.add(text("Hello!"), text("See you then."))
    await pipeline.handle([message("hi there", clock)])
    await pipeline.idle()
    profiles, recent = engine.storage.people.profiles, engine.storage.turns.recent
    reads: list[str] = []

    async def counted_profiles(*args: object, **kwargs: object) -> object:
        reads.append("profiles")
        return await profiles(*args, **kwargs)  # type: ignore[arg-type]

    async def counted_recent(*args: object, **kwargs: object) -> object:
        if kwargs.get("before") is not None and kwargs.get("limit") == 1:
            reads.append("predecessor")
        return await recent(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(engine.storage.people, "profiles", counted_profiles)
    monkeypatch.setattr(engine.storage.turns, "recent", counted_recent)
    clock.advance(60)
    result = await pipeline.handle([message("let's meet on Friday at 10", clock)])
    await pipeline.idle()
    assert result.reply == "See you then."
    # One read for the speaker's name (episodes included), one for the prompt's profile lines.
    assert reads.count("profiles") == 2, reads
    # The user's message follows the last stored turn; the reply follows the user's message.
    assert reads.count("predecessor") == 1, reads
    (question, reply) = (await engine.storage.turns.recent(GENERAL))[-2:]
    assert (question.role, reply.role) == ("user", "assistant")


async def test_a_request_to_forget_teaches_nothing_and_the_model_is_told_how_notes_go(
    pipeline: TurnPipeline, llm: ScriptedLLM, engine: MemoryEngine, clock: FakeClock
) -> None:
    llm.add(text("I can't delete notes myself: /memory forget removes one."))
    result = await pipeline.handle([message("please forget that I live in Paris", clock)])
    assert result.learned == []
    assert "Paris" not in " ".join(await all_memories(engine))
    system = llm.calls[0].system
    assert "/memory forget <id>" in system and "/memory search" in system


async def test_offline_a_request_to_forget_is_answered_with_how_notes_go(
    engine: MemoryEngine, clock: FakeClock, tmp_path: Path
) -> None:
    offline = TurnPipeline(engine, settings(tmp_path), llm=None)
    try:
        told = await offline.handle([message("I live in Paris", clock)])
        asked = await offline.handle([message("can you forget that I live in Paris?", clock)])
    finally:
        await offline.aclose()
    assert told.reply is not None and "/memory forget" not in told.reply
    assert asked.reply is not None and "`/memory forget <id>` removes it" in asked.reply
    assert asked.learned == [] and "Noted:" not in asked.reply
