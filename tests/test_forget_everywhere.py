"""Forgetting a memory removes it from both stores, the caches, the profiles and every later prompt."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from adapters.command_table import Invoker
from bot.commands import MemoryCommands
from bot.history import ShownBlock, ShownBlocks
from bot.llm.fake import RecordedCall, ScriptedLLM, text
from bot.pipeline import TurnPipeline, audience_of
from memory.engine import MemoryEngine
from memory.models import Memory, MemoryDraft, MemoryType, Source
from memory.people import compact
from memory.prehook.injection_state import ChannelKey
from tests.helpers import GENERAL, FakeClock, message, searchable_memory_ids, stored_memory

# Forgetting works the same on both storage backends.
STORAGE_BACKENDS = ("embedded", "postgres")

KEY = ChannelKey("discord", "guild-1", "general", None, "default")
FORGOTTEN = "durian"  # the one word of the forgotten memory; it must appear nowhere afterwards


def everything_sent(call: RecordedCall) -> str:
    """The system prompt and every message of one model call, as one text."""
    return "\n".join([call.system, *(m.content for m in call.messages)]).casefold()


async def remember(
    engine: MemoryEngine, content: str, memory_type: MemoryType, ttl: str | None = None
) -> Memory:
    draft = MemoryDraft(
        content,
        GENERAL,
        memory_type,
        user_id="alice",
        author_id="alice",
        source=Source.NOTE,
        confidence=0.9,
        ttl=ttl,
    )
    return (await engine.remember(draft)).memory


async def forget_by_command(engine: MemoryEngine, clock: FakeClock, memory: Memory) -> None:
    outcome = await MemoryCommands(engine, "default").execute(
        "forget", {"id": memory.id}, Invoker("discord", "guild-1", "general", "alice")
    )
    assert outcome.error is None, outcome.error


async def forget_by_expiry(engine: MemoryEngine, clock: FakeClock, memory: Memory) -> None:
    clock.advance(2 * 3600)
    assert await engine.sweep_expired() == 1


@pytest.mark.parametrize("forget", [forget_by_command, forget_by_expiry], ids=["command", "expiry"])
async def test_a_forgotten_memory_is_never_sent_again(
    pipeline: TurnPipeline, llm: ScriptedLLM, engine: MemoryEngine, clock: FakeClock, forget: object
) -> None:
    durian = await remember(engine, "Alice loves durian smoothies", MemoryType.PREFERENCE, ttl="1h")
    team = await remember(engine, "Alice's team meets every Tuesday morning", MemoryType.FACT)
    await pipeline.profile_updater.drain()

    # Turn 0: the preference reaches the model in the block and in Alice's profile line.
    llm.add(text("Something fruity, then."))
    first = await pipeline.handle([message("what should I order for Alice at the juice bar?", clock)])
    assert {durian.id, team.id} <= {m.id for m in first.injected}
    sent = everything_sent(llm.calls[-1])
    assert sent.count(FORGOTTEN) >= 2  # the block and the profile line
    audience = audience_of(message("hi", clock), "default")
    assert durian.id in [m.id for m in await pipeline.prehook.preferences.get(audience, "alice")]
    vectors_before = await engine.storage.memories.indexed_count()

    await forget(engine, clock, durian)  # type: ignore[operator]

    # Both stores.
    assert await stored_memory(engine, durian.id) is None
    assert durian.id not in await searchable_memory_ids(engine)
    assert await engine.storage.memories.indexed_count() == vectors_before - 1
    # The caches and the channel's injection state.
    assert durian.id not in [m.id for m in await pipeline.prehook.preferences.get(audience, "alice")]
    state = pipeline.prehook.states.get(*KEY)
    assert state.injected_turn(durian.id) is None
    assert all(durian.id not in b.memory_ids for b in pipeline.shown.get(KEY, state.turn))

    # Turn 1, at once: nothing the model is sent mentions it, not even the block kept from turn 0
    # or the profile line (whose rebuild the reply waits for).
    llm.add(text("Noted."))
    second = await pipeline.handle([message("anything else I should keep in mind for Alice?", clock)])
    sent = everything_sent(llm.calls[-1])
    assert FORGOTTEN not in sent
    assert durian.id not in {m.id for m in second.injected}
    # The other memory of the dropped block is not lost: the hook may show it again.
    assert "tuesday" in sent
    profile = await pipeline.profiles.get("discord", "guild-1", "alice", "default")
    assert FORGOTTEN not in compact(profile).casefold()


async def test_forgetting_drops_the_kept_blocks_of_every_channel_and_only_those(
    pipeline: TurnPipeline, engine: MemoryEngine, clock: FakeClock
) -> None:
    memory = await remember(engine, "Alice keeps a spare key under the blue flowerpot", MemoryType.FACT)
    other_key = KEY._replace(channel_id="random")
    kept = ShownBlock("anchor-2", "unrelated notes", ("m-other",), 0)
    pipeline.shown.add(KEY, ShownBlock("anchor-1", "notes with the key", (memory.id, "m-2"), 0))
    pipeline.shown.add(other_key, ShownBlock("anchor-3", "notes with the key", (memory.id,), 0))
    pipeline.shown.add(other_key, kept)
    for key in (KEY, other_key):
        pipeline.prehook.states.get(*key).record([(memory.id, 0.0, None), ("m-2", 0.0, None)])

    await forget_by_command(engine, clock, memory)

    assert pipeline.shown.get(KEY, 0) == []
    assert pipeline.shown.get(other_key, 0) == [kept]
    for key in (KEY, other_key):
        state = pipeline.prehook.states.get(*key)
        # The dropped block's other items may be injected again; the memory is simply gone.
        assert state.injected_turn(memory.id) is None
    assert pipeline.prehook.states.get(*KEY).injected_turn("m-2") is None


def test_drop_containing_returns_what_it_removed() -> None:
    shown = ShownBlocks(depth=5)
    first = ShownBlock("a", "one", ("x", "y"), 0)
    second = ShownBlock("b", "two", ("y",), 1)
    third = ShownBlock("c", "three", ("z",), 2)
    for block in (first, second, third):
        shown.add(KEY, block)
    removed: Sequence[tuple[ChannelKey, ShownBlock]] = shown.drop_containing("y")
    assert removed == [(KEY, first), (KEY, second)]
    assert shown.get(KEY, 2) == [third]
    assert shown.drop_containing("nothing") == []


async def test_settle_forgets_waits_for_the_profile_rebuild(
    pipeline: TurnPipeline, engine: MemoryEngine, clock: FakeClock
) -> None:
    durian = await remember(engine, "Alice loves durian smoothies", MemoryType.PREFERENCE)
    await pipeline.profile_updater.drain()
    profile = await pipeline.profiles.get("discord", "guild-1", "alice", "default")
    assert FORGOTTEN in compact(profile).casefold()
    await engine.forget_unscoped(durian.id)
    # The rebuild was only scheduled by the forget; the reply path waits for it here.
    await pipeline.profile_updater.settle_forgets()
    profile = await pipeline.profiles.get("discord", "guild-1", "alice", "default")
    assert FORGOTTEN not in compact(profile).casefold()
