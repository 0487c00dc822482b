"""Conversation kinds: rows stored before a conversation was known private are narrowed to it, in
every store; a DM knows its person from what they said of themselves elsewhere."""

from __future__ import annotations

import uuid
from pathlib import Path

from adapters.base import IncomingMessage
from bot.llm.fake import ScriptedLLM, text
from bot.pipeline import TurnPipeline
from memory.conversations import ConversationKinds
from memory.engine import MemoryEngine
from memory.models import (
    Audience,
    Conversation,
    ConversationKind,
    MemoryDraft,
    MemoryType,
    Scope,
    StoredMessage,
    Visibility,
)
from memory.people import ProfileStore, ProfileUpdater, compact
from memory.prehook import PreHook
from memory.scope import lance_audience_filter
from memory.summaries import SummaryManager
from memory.summarizer import ExtractiveSummarizer
from tests import helpers
from tests.helpers import FakeClock, settings

PRIVATE = ConversationKind.PRIVATE
SECRET = Conversation("slack", "T1", "secret", PRIVATE)
# Narrowing on both storage backends.
STORAGE_BACKENDS = ("embedded", "postgres")

IN_GENERAL = Audience("slack", "T1", "default", viewer_id="bob", channel_id="general")
IN_SECRET = Audience("slack", "T1", "default", viewer_id="bob", channel_id="secret")


def turn(
    content: str, channel: str, clock: FakeClock, *, thread: str | None = None, workspace: str = "T1"
) -> StoredMessage:
    clock.advance(10)
    return StoredMessage(
        uuid.uuid4().hex, Scope("slack", workspace, channel, "default", thread), "dana", "Dana",
        "user", content, clock(), visibility=Visibility.WORKSPACE,
    )  # fmt: skip


async def stored_as_before(engine: MemoryEngine, clock: FakeClock, channel: str, thread: str | None = None):  # type: ignore[no-untyped-def]
    """A memory, a turn and its summary from `channel`, workspace-visible as older versions stored them."""
    memory = (
        await engine.remember(
            MemoryDraft(
                "Dana loves quokka flavoured ice cream",
                Scope("slack", "T1", channel, "default", thread),
                MemoryType.PREFERENCE,
                user_id="dana",
                author_id="dana",
                visibility=Visibility.WORKSPACE,
                confidence=0.9,
            )
        )
    ).memory
    said = turn("The quokka budget for next year is forty thousand", channel, clock, thread=thread)
    await engine.store_messages([said])
    summaries = SummaryManager(engine, ExtractiveSummarizer(), clock=engine.clock)
    summary = await summaries.summarize_turn(
        Scope("slack", "T1", channel, "default", thread), [said.id], condense=False
    )
    assert summary is not None and summary.visibility is Visibility.WORKSPACE
    return memory, said, summary


async def test_a_channel_found_private_has_its_older_rows_narrowed_in_every_store(
    engine: MemoryEngine, clock: FakeClock
) -> None:
    memory, said, summary = await stored_as_before(engine, clock, "secret")
    [query] = await engine.embedder.embed(["quokka budget"])
    # Before: found from any channel of the workspace, the leak the repair closes.
    assert memory.id in [h.memory.id for h in await engine.search("quokka", IN_GENERAL, threshold=0.0)]

    kinds = ConversationKinds(engine)
    report = await kinds.observe(SECRET)
    assert report is not None
    assert (report.memories, report.messages, report.summaries) == (1, 1, 1)

    assert (await helpers.stored_memory(engine, memory.id)).visibility is Visibility.CHANNEL  # type: ignore[union-attr]
    assert [m.visibility for m in await engine.storage.turns.get_unscoped([said.id])] == [Visibility.CHANNEL]
    assert [
        s.visibility
        for s in await SummaryManager(engine, ExtractiveSummarizer()).store.get_unscoped([summary.id])
    ] == [Visibility.CHANNEL]
    # Not found from another channel: not in SQLite's answer, nor LanceDB's pre-filter, nor RAM's.
    assert await engine.search("quokka", IN_GENERAL, threshold=0.0) == []
    assert await engine.search_messages("quokka budget", IN_GENERAL, threshold=0.0) == []
    if hasattr(engine.storage, "vectors"):  # the embedded backend's LanceDB tables and RAM index
        table = await engine.storage.vectors.summaries()
        for vectors in (engine.storage.vectors.memories, engine.storage.vectors.messages, table):
            assert await vectors.search(query, lance_audience_filter(IN_GENERAL), 10) == []
            assert await vectors.search_visible(IN_GENERAL, query, 10) == []
            assert len(await vectors.search_visible(IN_SECRET, query, 10)) == 1
    else:  # PostgreSQL: the row is the vector, searched under the filter in the same SQL
        assert await engine.storage.memories.search(IN_GENERAL, query, 10, clock()) == []
        assert await engine.storage.turns.search(IN_GENERAL, query, 10) == []
        assert await engine.storage.summaries.search(IN_GENERAL, query, 10, clock()) == []
        assert len(await engine.storage.memories.search(IN_SECRET, query, 10, clock())) == 1
        assert len(await engine.storage.turns.search(IN_SECRET, query, 10)) == 1
        assert len(await engine.storage.summaries.search(IN_SECRET, query, 10, clock())) == 1
    # Still found where it was said.
    assert [h.memory.id for h in await engine.search("quokka", IN_SECRET, threshold=0.0)] == [memory.id]
    assert [m.id for m, _ in await engine.search_messages("quokka budget", IN_SECRET, threshold=0.0)] == [
        said.id
    ]

    # Known now: the next message of the channel costs no repair; a forced one finds nothing left.
    assert await kinds.observe(SECRET) is None
    assert (await kinds.repair([SECRET])).rows == 0
    # Recorded, so a restarted bot (or the CLI) knows the kind.
    assert SECRET in await ConversationKinds(engine).recorded()


async def test_a_private_thread_once_stored_under_its_parent_becomes_its_own_conversation(
    engine: MemoryEngine, clock: FakeClock
) -> None:
    memory, said, _summary = await stored_as_before(engine, clock, "general", thread="t-9")
    elsewhere = turn("Lunch at noon?", "general", clock, thread="t-other")
    await engine.store_messages([elsewhere])
    report = await ConversationKinds(engine).observe(Conversation("slack", "T1", "t-9", PRIVATE))
    assert report is not None and report.rows == 3

    moved = await helpers.stored_memory(engine, memory.id)
    assert moved is not None and (moved.channel_id, moved.thread_id, moved.visibility) == (
        "t-9", "t-9", Visibility.CHANNEL
    )  # fmt: skip
    history = await engine.storage.turns.recent(Scope("slack", "T1", "t-9", "default", "t-9"), limit=10)
    assert [m.id for m in history] == [said.id]
    [kept] = await engine.storage.turns.get_unscoped([elsewhere.id])
    assert (kept.channel_id, kept.visibility) == ("general", Visibility.WORKSPACE)
    in_parent = Audience("slack", "T1", "default", viewer_id="bob", channel_id="general")
    in_thread = Audience("slack", "T1", "default", viewer_id="bob", channel_id="t-9")
    assert await engine.search("quokka", in_parent, threshold=0.0) == []
    assert [h.memory.id for h in await engine.search("quokka", in_thread, threshold=0.0)] == [memory.id]


async def test_narrowing_is_one_way(engine: MemoryEngine, clock: FakeClock) -> None:
    kinds = ConversationKinds(engine)
    assert await kinds.observe(Conversation("slack", "T1", "secret", ConversationKind.PUBLIC)) is None
    memory, _, _ = await stored_as_before(engine, clock, "secret")
    # Made private: what was said while it was public is narrowed too (the safe direction).
    report = await kinds.observe(SECRET)
    assert report is not None and report.memories == 1
    # Made public again: nothing said while it was private is widened.
    assert await kinds.observe(Conversation("slack", "T1", "secret", ConversationKind.PUBLIC)) is None
    assert (await helpers.stored_memory(engine, memory.id)).visibility is Visibility.CHANNEL  # type: ignore[union-attr]
    # A group DM is members-only too; a DM was always private and needs nothing.
    assert (await kinds.observe(Conversation("slack", "T1", "G1", ConversationKind.GROUP))) is not None
    assert await kinds.observe(Conversation("slack", "T1", "D1", ConversationKind.DM)) is None


async def test_narrowed_preferences_leave_profiles_and_cached_preferences(
    engine: MemoryEngine, clock: FakeClock
) -> None:
    profiles = ProfileStore(engine.storage, engine.clock)
    updater = ProfileUpdater(engine, profiles)
    hook = PreHook(engine)
    memory, _, _ = await stored_as_before(engine, clock, "secret")
    await updater.drain()
    line = compact(await profiles.get("slack", "T1", "dana", "default"))
    assert "quokka" in line
    assert [m.id for m in await hook.preferences.get(IN_GENERAL, "dana")] == [memory.id]

    await ConversationKinds(engine).observe(SECRET)
    await updater.drain()
    assert "quokka" not in compact(await profiles.get("slack", "T1", "dana", "default"))
    assert await hook.preferences.get(IN_GENERAL, "dana") == []
    assert [m.id for m in await hook.preferences.get(IN_SECRET, "dana")] == [memory.id]
    await updater.aclose()
    await hook.aclose()


def message(
    text_: str, channel: str, kind: ConversationKind, clock: FakeClock, workspace: str = "g1"
) -> IncomingMessage:
    """Alice's message in a Discord channel that Discord describes as `kind`."""
    return helpers.message(text_, clock, workspace=workspace, channel=channel, kind=kind)


async def test_the_pipeline_narrows_a_private_channel_at_its_first_message(
    engine: MemoryEngine, clock: FakeClock, tmp_path: Path
) -> None:
    old = (
        await engine.remember(
            MemoryDraft(
                "Alice's quokka plan ships in May",
                Scope("discord", "g1", "hidden"),
                user_id="alice",
                author_id="alice",
            )
        )
    ).memory
    pipeline = TurnPipeline(engine, settings(tmp_path), summarizer=ExtractiveSummarizer())
    try:
        result = await pipeline.handle(
            [message("I prefer tea to coffee", "hidden", PRIVATE, clock)], respond=False
        )
        assert result.learned and {m.visibility for m in result.learned} == {Visibility.CHANNEL}
        assert (await helpers.stored_memory(engine, old.id)).visibility is Visibility.CHANNEL  # type: ignore[union-attr]
        [stored] = await engine.storage.turns.get_unscoped(result.stored_message_ids)
        assert stored.visibility is Visibility.CHANNEL
    finally:
        await pipeline.aclose()


async def test_a_dm_knows_what_its_person_said_of_themselves_elsewhere_and_nothing_else(
    engine: MemoryEngine, clock: FakeClock, tmp_path: Path
) -> None:
    """Discord DMs are their own workspace: the person's own shared statements from servers reach
    their DM (profile line, pre-hook, search); what others said of them, or what they said in a
    private channel, does not."""

    def draft(
        content: str, channel: str, author: str, visibility: Visibility, mtype: MemoryType
    ) -> MemoryDraft:
        return MemoryDraft(
            content,
            Scope("discord", "g1", channel),
            mtype,
            user_id="alice",
            author_id=author,
            visibility=visibility,
            confidence=0.9,
        )

    own, said_by_bob, in_private = await engine.import_memories(
        [
            draft(
                "Alice loves saffron flavoured ice cream",
                "general",
                "alice",
                Visibility.WORKSPACE,
                MemoryType.PREFERENCE,
            ),
            draft("Alice lives in Pelicantown", "general", "bob", Visibility.WORKSPACE, MemoryType.IDENTITY),
            draft(
                "Alice loves quokka flavoured ice cream",
                "hidden",
                "alice",
                Visibility.CHANNEL,
                MemoryType.PREFERENCE,
            ),
        ]
    )
    for workspace in ("g1", "dm-alice"):
        await ProfileStore(engine.storage, engine.clock).rebuild("discord", workspace, "alice", "default")
    llm = ScriptedLLM([text("Saffron, I believe.")])
    pipeline = TurnPipeline(engine, settings(tmp_path), llm=llm, summarizer=ExtractiveSummarizer())
    try:
        dm = message(
            "Which ice cream flavour do I love?",
            "D-alice",
            ConversationKind.DM,
            clock,
            workspace="dm-alice",
        )
        result = await pipeline.handle([dm])
        assert result.error is None
        system = llm.calls[-1].system
        assert "saffron" in system  # the profile line: her own word, from the server
        assert "Pelicantown" not in system and "quokka" not in system
        injected = {m.id for m in result.injected}
        assert own.id in injected
        assert injected.isdisjoint({said_by_bob.id, in_private.id})
        audience = Audience(
            "discord",
            "dm-alice",
            "default",
            viewer_id="alice",
            channel_id="D-alice",
            private_ok=True,
            own_elsewhere=True,
        )
        found = [h.memory.id for h in await engine.search("ice cream Pelicantown", audience, threshold=0.0)]
        assert found == [own.id]
        # The same person in the server is not shown her DM: the reach is one way.
        assert result.stored_message_ids
        in_server = Audience("discord", "g1", "default", viewer_id="alice", channel_id="general")
        assert (
            await engine.search_messages("Which ice cream flavour do I love?", in_server, threshold=0.0) == []
        )
    finally:
        await pipeline.aclose()
