"""Isolation matrix: who is shown which memory, turn and summary, on every surface that reads memory."""

from __future__ import annotations

import asyncio
import dataclasses
import json
import shutil
import uuid
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypeVar

import pytest

from adapters.base import IncomingMessage
from bot.commands import Invoker, MemoryCommands
from bot.llm.types import ToolCall
from bot.memory_tools import MemoryToolbox, TurnContext
from bot.pipeline import audience_of, scope_of, visibility_of
from memory.embedders import CachedEmbedder, LocalEmbedder
from memory.engine import MemoryEngine, memory_record, message_record
from memory.models import Audience, Memory, MemoryDraft, MemoryType, Scope, StoredMessage, Visibility
from memory.preferences_cache import PreferencesCache
from memory.prehook import PreHook, PrehookRequest, PrehookResult
from memory.store import MemoryQuery
from memory.summaries import SummaryManager, summary_record
from memory.summarizer import ExtractiveSummarizer
from memory.summary_store import Summary
from tests.conftest import FakeClock

T = TypeVar("T")

PLATFORM = "slack"
AGENT = "default"
OTHER_AGENT = "agent-b"


@dataclass(frozen=True)
class Kind:
    """Where a group of memories (and the turn that goes with them) was learned, and by whom."""

    codeword: str  # a rare word in every text of the kind: its presence anywhere is a leak
    workspace: str
    channel: str
    author: str
    visibility: Visibility
    agent: str = AGENT


# Every memory is about Alice; Slack keeps DMs in the team, so private notes share the workspace.
KINDS = {
    "workspace": Kind("saffron", "T1", "general", "alice", Visibility.WORKSPACE),
    "channel": Kind("quokka", "T1", "general", "alice", Visibility.CHANNEL),
    "private": Kind("zeppelin", "T1", "D-alice", "alice", Visibility.PRIVATE),
    "bob_private": Kind("marzipan", "T1", "D-bob", "bob", Visibility.PRIVATE),  # Bob's DM note on Alice
    "elsewhere": Kind("tundra", "T2", "general", "alice", Visibility.WORKSPACE),
    "other_agent": Kind("obsidian", "T1", "general", "alice", Visibility.WORKSPACE, agent=OTHER_AGENT),
}

TEMPLATES = (
    (MemoryType.IDENTITY, "Alice is the captain of the {w} rowing club"),
    (MemoryType.PREFERENCE, "Alice loves {w} flavoured ice cream"),
    (MemoryType.DECISION, "Alice decided to book the {w} conference hall for March"),
)
TURN = "Yesterday I repainted the old {w} boathouse down by the river"


@dataclass(frozen=True)
class Actor:
    """Someone talking to the bot, or running `/memory`, somewhere."""

    user: str
    workspace: str
    channel: str
    is_dm: bool = False
    admin: bool = False
    agent: str = AGENT


ACTORS = {
    "owner_in_channel": Actor("alice", "T1", "general"),
    "owner_in_dm": Actor("alice", "T1", "D-alice", is_dm=True),
    "other_user_same_channel": Actor("bob", "T1", "general"),
    "other_user_other_channel": Actor("bob", "T1", "random"),
    "other_workspace": Actor("alice", "T2", "general"),
    "other_agent": Actor("alice", "T1", "general", agent=OTHER_AGENT),
    "admin": Actor("carol", "T1", "random", admin=True),
    "admin_other_workspace": Actor("carol", "T2", "random", admin=True),
}

# The expected answers, written out by hand from DESIGN.md (never computed from the filters).
# In a conversation (pre-hook, searches, the model's tools): the workspace's shared memories,
# channel-only ones in their channel, private ones only in their author's DM; being an admin
# widens nothing, since everyone in the channel reads what is injected there.
CONVERSATION = {
    "owner_in_channel": {"workspace", "channel"},
    "owner_in_dm": {"workspace", "private"},
    "other_user_same_channel": {"workspace", "channel"},
    "other_user_other_channel": {"workspace"},
    "other_workspace": {"elsewhere"},
    "other_agent": {"other_agent"},
    "admin": {"workspace"},
    "admin_other_workspace": {"elsewhere"},
}
# `/memory list|search|about`: answers only the invoker reads, so their own private notes too;
# admins also see every channel's memories of their workspace, never anyone's private ones.
COMMAND = {
    "owner_in_channel": {"workspace", "channel", "private"},
    "owner_in_dm": {"workspace", "private"},
    "other_user_same_channel": {"workspace", "channel", "bob_private"},
    "other_user_other_channel": {"workspace", "bob_private"},
    "other_workspace": {"elsewhere"},
    "other_agent": {"other_agent"},
    "admin": {"workspace", "channel"},
    "admin_other_workspace": {"elsewhere"},
}
# `/memory export`: what the invoker may see there that is about them or was said by them.
EXPORT = {
    "owner_in_channel": {"workspace", "channel", "private"},
    "owner_in_dm": {"workspace", "private"},
    "other_user_same_channel": {"bob_private"},
    "other_user_other_channel": {"bob_private"},
    "other_workspace": {"elsewhere"},
    "other_agent": {"other_agent"},
    "admin": set(),
    "admin_other_workspace": set(),
}
# `/memory forget`: their own (by or about them) among what they see; admins any they see.
FORGET = {
    "owner_in_channel": {"workspace", "channel", "private"},
    "owner_in_dm": {"workspace", "private"},
    "other_user_same_channel": {"bob_private"},
    "other_user_other_channel": {"bob_private"},
    "other_workspace": {"elsewhere"},
    "other_agent": {"other_agent"},
    "admin": {"workspace", "channel"},
    "admin_other_workspace": {"elsewhere"},
}


@dataclass
class Seeded:
    """What was stored per kind, and the reverse map from any stored id to its kind."""

    memories: dict[str, list[Memory]] = field(default_factory=dict)
    turns: dict[str, StoredMessage] = field(default_factory=dict)
    summaries: dict[str, Summary] = field(default_factory=dict)
    kind_of: dict[str, str] = field(default_factory=dict)

    def kinds(self, ids: list[str]) -> set[str]:
        unknown = [i for i in ids if i not in self.kind_of]
        assert not unknown, f"ids that were never seeded: {unknown}"
        return {self.kind_of[i] for i in ids}


def kind_scope(kind: Kind) -> Scope:
    return Scope(PLATFORM, kind.workspace, kind.channel, kind.agent)


async def seed(engine: MemoryEngine, clock: FakeClock) -> Seeded:
    """Three memories, one past turn and its summary per kind; bulk writes keep it quick."""
    seeded = Seeded()
    drafts = [
        (name, MemoryDraft(
            template.format(w=kind.codeword),
            kind_scope(kind),
            memory_type,
            user_id="alice",
            author_id=kind.author,
            visibility=kind.visibility,
            confidence=0.9,
        ))
        for name, kind in KINDS.items()
        for memory_type, template in TEMPLATES
    ]  # fmt: skip
    stored = await engine.import_memories([draft for _, draft in drafts])
    assert len(stored) == len(drafts)
    for (name, _), memory in zip(drafts, stored, strict=True):
        seeded.memories.setdefault(name, []).append(memory)
        seeded.kind_of[memory.id] = name
    for name, kind in KINDS.items():
        seeded.turns[name] = StoredMessage(
            id=uuid.uuid4().hex,
            platform=PLATFORM,
            workspace_id=kind.workspace,
            channel_id=kind.channel,
            thread_id=None,
            agent_id=kind.agent,
            author_id=kind.author,
            author_name=kind.author.capitalize(),
            role="user",
            content=TURN.format(w=kind.codeword),
            created_at=clock(),
            visibility=kind.visibility,
        )
        seeded.kind_of[seeded.turns[name].id] = name
    assert len(await engine.store_messages(list(seeded.turns.values()))) == len(KINDS)
    summaries = SummaryManager(engine, ExtractiveSummarizer(), clock=engine.clock)
    for name, kind in KINDS.items():
        summary = await summaries.summarize_turn(kind_scope(kind), [seeded.turns[name].id], condense=False)
        # The summary takes its audience from the turn it covers.
        assert summary is not None and summary.visibility is kind.visibility
        seeded.summaries[name] = summary
        seeded.kind_of[summary.id] = name
    # Past turns are strictly older than "now" (timelines end at the present instant).
    clock.advance(60)
    return seeded


def incoming(actor: Actor, text: str, clock: FakeClock) -> IncomingMessage:
    return IncomingMessage(
        platform=PLATFORM,
        workspace_id=actor.workspace,
        channel_id=actor.channel,
        author_id=actor.user,
        author_name=actor.user.capitalize(),
        text=text,
        timestamp=clock(),
        is_dm=actor.is_dm,
        author_is_admin=actor.admin,
    )


def conversation_audience(actor: Actor, clock: FakeClock) -> Audience:
    """The audience the turn pipeline itself builds for a message from `actor`."""
    return audience_of(incoming(actor, "hello", clock), actor.agent)


def invoker(actor: Actor) -> Invoker:
    return Invoker(
        PLATFORM, actor.workspace, actor.channel, actor.user, is_dm=actor.is_dm, is_admin=actor.admin
    )


def codewords_of(kinds: set[str]) -> list[str]:
    return [KINDS[k].codeword for k in kinds]


def assert_no_foreign_words(text: str, allowed: set[str], where: str) -> None:
    lowered = text.casefold()
    leaked = [name for name in KINDS if name not in allowed and KINDS[name].codeword in lowered]
    assert not leaked, f"{where}: text of {leaked} reached this audience"


@pytest.fixture(scope="module")
def shared_embedder(local_embedder: LocalEmbedder) -> CachedEmbedder:
    """One cache for the module: the tests query with the very texts the seeding embedded."""
    return CachedEmbedder(local_embedder)


@pytest.fixture(scope="module")
def template(
    tmp_path_factory: pytest.TempPathFactory, shared_embedder: CachedEmbedder
) -> tuple[Path, Seeded, float]:
    """The seeded stores, written once per module: each test works on its own copy."""
    data = tmp_path_factory.mktemp("privacy-template") / "data"

    async def build() -> tuple[Seeded, float]:
        clock = FakeClock()
        engine = await MemoryEngine.open(data, shared_embedder, clock=clock)
        try:
            return await seed(engine, clock), clock.now
        finally:
            await engine.close()

    seeded, now = asyncio.run(build())
    return data, seeded, now


@pytest.fixture
async def engine(
    template: tuple[Path, Seeded, float], tmp_path: Path, shared_embedder: CachedEmbedder, clock: FakeClock
) -> AsyncIterator[MemoryEngine]:
    source, _, now = template
    shutil.copytree(source, tmp_path / "data")
    clock.now = now
    eng = await MemoryEngine.open(tmp_path / "data", shared_embedder, clock=clock)
    yield eng
    await eng.close()


@pytest.fixture
def seeded(template: tuple[Path, Seeded, float]) -> Seeded:
    return template[1]


def test_the_tables_cover_every_actor() -> None:
    for table in (CONVERSATION, COMMAND, EXPORT, FORGET):
        assert set(table) == set(ACTORS)
        assert all(kinds <= set(KINDS) for kinds in table.values())


# --- pre-hook injection: memories, past turns and summaries ------------------------------------


def _candidate_ids(result: PrehookResult) -> list[str]:
    return [item.id for item, _ in result.candidates_ranked]


@pytest.mark.parametrize("actor_name", list(ACTORS))
async def test_prehook_injects_only_what_the_conversation_may_see(
    engine: MemoryEngine, clock: FakeClock, seeded: Seeded, actor_name: str
) -> None:
    actor = ACTORS[actor_name]
    allowed = CONVERSATION[actor_name]
    summaries = SummaryManager(engine, ExtractiveSummarizer(), clock=engine.clock)
    hook = PreHook(engine, summaries=summaries)
    viewer = conversation_audience(actor, clock)

    def request(text: str) -> PrehookRequest:
        return PrehookRequest(
            text=text,
            platform=PLATFORM,
            workspace_id=actor.workspace,
            channel_id=actor.channel,
            agent_id=actor.agent,
            viewer=viewer,
            # Talking about Alice: her identity and preferences are looked up whoever asks.
            participants=[actor.user, "alice"],
        )

    visible_memories = {m.id for k in allowed for m in seeded.memories[k]}
    all_memories = {m.id for ms in seeded.memories.values() for m in ms}
    for name, turn in seeded.turns.items():
        result = await hook.run(request(turn.content))
        assert not result.errors, result.errors
        ids = _candidate_ids(result)
        assert seeded.kinds(ids) <= allowed, f"query {name}: candidates"
        # Every memory the conversation may see is a candidate (the SQL sources reach them all).
        assert set(ids) & all_memories == visible_memories, f"query {name}: memories"
        assert (turn.id in ids) == (name in allowed), f"query {name}: its past turn"
        assert (seeded.summaries[name].id in ids) == (name in allowed), f"query {name}: its summary"
        assert_no_foreign_words(result.block or "", allowed, f"block for {name}")

    timeline = await hook.run(request("what did we talk about today?"))
    assert timeline.meta is not None and timeline.block is not None
    assert_no_foreign_words(timeline.block, allowed, "timeline")
    await hook.aclose()


# --- engine searches ---------------------------------------------------------------------------


@pytest.mark.parametrize("actor_name", list(ACTORS))
async def test_engine_searches_return_only_what_the_conversation_may_see(
    engine: MemoryEngine, clock: FakeClock, seeded: Seeded, actor_name: str
) -> None:
    allowed = CONVERSATION[actor_name]
    audience = conversation_audience(ACTORS[actor_name], clock)
    for name, memories in seeded.memories.items():
        for memory in memories:
            hits = await engine.search(memory.content, audience, limit=50, threshold=0.0)
            ids = [h.memory.id for h in hits]
            assert seeded.kinds(ids) <= allowed, f"search for {name}"
            assert (memory.id in ids) == (name in allowed), f"search for {name}: {memory.content}"
        turn = seeded.turns[name]
        found = await engine.search_messages(turn.content, audience, limit=50, threshold=0.0)
        ids = [m.id for m, _ in found]
        assert seeded.kinds(ids) <= allowed, f"search_messages for {name}"
        assert (turn.id in ids) == (name in allowed), f"search_messages for {name}"


# --- the model's memory tools ------------------------------------------------------------------


@pytest.mark.parametrize("actor_name", list(ACTORS))
async def test_memory_tools_read_only_what_the_conversation_may_see(
    engine: MemoryEngine, clock: FakeClock, seeded: Seeded, actor_name: str
) -> None:
    actor = ACTORS[actor_name]
    allowed = CONVERSATION[actor_name]
    message = incoming(actor, "hello", clock)
    toolbox = MemoryToolbox(
        engine,
        TurnContext(
            scope=scope_of(message, actor.agent),
            audience=audience_of(message, actor.agent),
            author_id=actor.user,
            visibility=visibility_of(message),
            search_threshold=0.0,
        ),
    )

    async def call(name: str, **arguments: object) -> list[str]:
        result = json.loads(await toolbox.call(ToolCall(uuid.uuid4().hex, name, dict(arguments))))
        assert "error" not in result, result
        return [note["id"] for note in result["memories"]]

    recent = await call("get_recent_memories", limit=50)
    assert seeded.kinds(recent) == allowed
    assert len(recent) == len(TEMPLATES) * len(allowed)
    for name, memories in seeded.memories.items():
        for memory in memories:
            ids = await call("search_memories", query=memory.content, limit=20)
            assert seeded.kinds(ids) <= allowed, f"search_memories for {name}"
            assert (memory.id in ids) == (name in allowed), f"search_memories for {name}"


# --- /memory commands --------------------------------------------------------------------------

EXPORT_FIELDS = {
    "id",
    "content",
    "memory_type",
    "subjects",
    "importance",
    "confidence",
    "source",
    "visibility",
    "platform",
    "workspace_id",
    "channel_id",
    "thread_id",
    "user_id",
    "author_id",
    "agent_id",
    "created_at",
    "updated_at",
    "expires_at",
}


@pytest.mark.parametrize("actor_name", list(ACTORS))
async def test_memory_commands_show_export_and_forget_by_the_rules(
    engine: MemoryEngine, clock: FakeClock, seeded: Seeded, actor_name: str
) -> None:
    actor = ACTORS[actor_name]
    allowed = COMMAND[actor_name]
    commands = MemoryCommands(engine, actor.agent, page_size=50)
    who = invoker(actor)

    listed = await commands.execute("list", {}, who)
    assert listed.error is None
    assert seeded.kinds([str(i["id"]) for i in listed.items]) == allowed, "list"
    assert listed.total == len(TEMPLATES) * len(allowed)

    about = await commands.execute("about", {"user": "alice"}, who)
    assert seeded.kinds([str(i["id"]) for i in about.items]) == allowed, "about"

    for name, memories in seeded.memories.items():
        for memory in memories:
            found = await commands.execute("search", {"query": memory.content}, who)
            ids = [str(i["id"]) for i in found.items]
            assert seeded.kinds(ids) <= allowed, f"search for {name}"
            assert (memory.id in ids) == (name in allowed), f"search for {name}: {memory.content}"

    export = await commands.execute("export", {}, who)
    assert export.error is None and export.attachment is not None
    assert export.attachment.filename.endswith(".json")
    rows = json.loads(export.attachment.data.decode("utf-8"))
    assert isinstance(rows, list)
    assert seeded.kinds([row["id"] for row in rows]) == EXPORT[actor_name], "export"
    assert len(rows) == len(TEMPLATES) * len(EXPORT[actor_name])
    for row in rows:
        assert EXPORT_FIELDS <= set(row), set(row) ^ EXPORT_FIELDS
        assert actor.user in (row["user_id"], row["author_id"])
        assert (
            row["content"]
            == next(m for m in seeded.memories[seeded.kind_of[row["id"]]] if m.id == row["id"]).content
        )

    # Refused attempts first, so an allowed delete cannot hide a wrongly refused one.
    every = sorted(
        ((name, m) for name, ms in seeded.memories.items() for m in ms),
        key=lambda pair: pair[0] in FORGET[actor_name],
    )
    for name, memory in every:
        outcome = await commands.execute("forget", {"id": memory.id}, who)
        allowed_to_forget = name in FORGET[actor_name]
        assert (outcome.error is None) == allowed_to_forget, f"forget {name}"
        row = await engine.store.get_memory_unscoped(memory.id)
        vectors = await engine.vectors.memories.get_vectors([memory.id])
        if allowed_to_forget:
            assert row is None and vectors == {}, f"forget {name}: still stored"
        else:
            assert row is not None and memory.id in vectors, f"refused forget {name} deleted it"


# --- the store's queries called directly -------------------------------------------------------

# Audiences a buggy or malicious caller might build, and what each may get back.
HOSTILE = {
    # Claims a private view without being anyone's author: shared memories only.
    "stranger_claiming_private": (
        Audience(PLATFORM, "T1", AGENT, viewer_id="mallory", channel_id="random", private_ok=True),
        {"workspace"},
    ),
    # An admin's widest view: channels of the workspace, still nobody's private notes.
    "admin_claiming_private": (
        Audience(PLATFORM, "T1", AGENT, viewer_id="mallory", private_ok=True, admin=True),
        {"workspace", "channel"},
    ),
    # Private allowed but no viewer: no private row can match.
    "private_without_viewer": (
        Audience(PLATFORM, "T1", AGENT, channel_id="D-alice", private_ok=True),
        {"workspace"},
    ),
    # Alice herself, but under an agent that learned nothing.
    "unknown_agent": (
        Audience(PLATFORM, "T1", "agent-c", viewer_id="alice", channel_id="general", private_ok=True),
        set(),
    ),
    # Alice herself, in a workspace that learned nothing; then on another platform.
    "unknown_workspace": (
        Audience(PLATFORM, "T3", AGENT, viewer_id="alice", channel_id="general", private_ok=True),
        set(),
    ),
    "other_platform": (
        Audience("discord", "T1", AGENT, viewer_id="alice", channel_id="general", private_ok=True),
        set(),
    ),
}


@pytest.mark.parametrize("name", list(HOSTILE))
async def test_store_queries_return_nothing_foreign_to_a_hostile_audience(
    engine: MemoryEngine, clock: FakeClock, seeded: Seeded, name: str
) -> None:
    audience, allowed = HOSTILE[name]
    store = engine.store
    now = clock()
    every_memory = [m for ms in seeded.memories.values() for m in ms]
    memory_ids = [m.id for m in every_memory]
    expected = {m.id for k in allowed for m in seeded.memories[k]}

    def kinds_of(rows: list[Memory]) -> set[str]:
        return seeded.kinds([m.id for m in rows])

    assert {m.id for m in await store.visible_memories(memory_ids, audience, now)} == expected
    assert {m.id for m in await store.query_memories(audience, now, MemoryQuery(limit=500))} == expected
    assert await store.count_memories(audience, now) == len(expected)
    assert sum((await store.count_by_type(audience, now)).values()) == len(expected)
    about = await store.memories_about(audience, now, ["alice"], list(MemoryType), limit=500)
    assert {m.id for m in about} == expected
    between = await store.memories_between(audience, now, 0.0, now + 1, limit=500)
    assert {m.id for m in between} == expected
    for memory in every_memory:
        found = await store.find_by_hash(memory.content_hash, audience, now, memory.visibility)
        assert (found is not None) == (memory.id in expected), f"find_by_hash {memory.content}"
    preferences = await PreferencesCache(store, clock).get(audience, "alice")
    assert kinds_of(preferences) == allowed

    turn_ids = [t.id for t in seeded.turns.values()]
    assert seeded.kinds([m.id for m in await store.visible_messages(turn_ids, audience)]) == allowed

    summaries = SummaryManager(engine, ExtractiveSummarizer(), clock=engine.clock)
    summary_ids = [s.id for s in seeded.summaries.values()]
    assert seeded.kinds([s.id for s in await summaries.store.visible(summary_ids, audience, now)]) == allowed
    for kind in KINDS.values():
        pending = await summaries.pending_level1(kind_scope(kind), audience)
        assert seeded.kinds([s.id for s in pending]) <= allowed

    # And through the engine's searches, which read the same rows after LanceDB.
    for kind_name, memories in seeded.memories.items():
        hits = await engine.search(memories[0].content, audience, limit=50, threshold=0.0)
        assert seeded.kinds([h.memory.id for h in hits]) <= allowed, f"search {kind_name}"
        turns = await engine.search_messages(seeded.turns[kind_name].content, audience, threshold=0.0)
        assert seeded.kinds([m.id for m, _ in turns]) <= allowed, f"search_messages {kind_name}"
        found = await summaries.search(
            (await engine.embedder.embed([seeded.turns[kind_name].content]))[0], audience, 20
        )
        assert seeded.kinds([s.id for s, _ in found]) <= allowed, f"summaries {kind_name}"


async def test_thread_summaries_are_read_only_by_their_audience(
    engine: MemoryEngine, clock: FakeClock
) -> None:
    summaries = SummaryManager(engine, ExtractiveSummarizer(), clock=engine.clock)
    dm = kind_scope(KINDS["private"])
    turn = StoredMessage(
        uuid.uuid4().hex, PLATFORM, "T1", "D-alice", None, AGENT, "alice", "Alice",
        "user", "My zeppelin model kit finally arrived", clock(), visibility=Visibility.PRIVATE,
    )  # fmt: skip
    await engine.store_messages([turn])
    written = await summaries.update_thread_summary(dm, [turn.id])
    alice_in_dm = Audience(PLATFORM, "T1", AGENT, viewer_id="alice", channel_id="D-alice", private_ok=True)
    bob = Audience(PLATFORM, "T1", AGENT, viewer_id="bob", channel_id="D-alice", private_ok=True)
    alice_elsewhere = Audience(PLATFORM, "T1", AGENT, viewer_id="alice", channel_id="general")
    found = await summaries.thread_summary(dm, alice_in_dm)
    assert found is not None and found.id == written.id
    assert await summaries.thread_summary(dm, bob) is None
    assert await summaries.thread_summary(dm, alice_elsewhere) is None


# --- rows whose vector store columns went stale ------------------------------------------------


async def test_a_stale_vector_row_cannot_leak_a_private_turn_memory_or_summary(
    engine: MemoryEngine, clock: FakeClock, seeded: Seeded
) -> None:
    """The LanceDB row only narrows the search; the SQL row decides what is returned."""
    kind = "private"
    turn = seeded.turns[kind]
    memory = seeded.memories[kind][0]
    summary = seeded.summaries[kind]
    vectors = await engine.embedder.embed([turn.content, memory.content, summary.content])
    # As if an old version or a crash had written these rows with the wrong scope columns.
    shared = Visibility.WORKSPACE
    await engine.vectors.messages.add([message_record(_with(turn, visibility=shared), vectors[0])])
    await engine.vectors.memories.add([memory_record(_with(memory, visibility=shared), vectors[1])])
    table = await SummaryManager(engine, ExtractiveSummarizer(), clock=engine.clock).table()
    await table.add([summary_record(_with(summary, visibility=shared), vectors[2])])

    bob = conversation_audience(ACTORS["other_user_same_channel"], clock)
    turns = await engine.search_messages(turn.content, bob, limit=50, threshold=0.0)
    assert turn.id not in [m.id for m, _ in turns]
    hits = await engine.search(memory.content, bob, limit=50, threshold=0.0)
    assert memory.id not in [h.memory.id for h in hits]
    found = await SummaryManager(engine, ExtractiveSummarizer(), clock=engine.clock).search(
        vectors[2], bob, 20
    )
    assert summary.id not in [s.id for s, _ in found]

    hook = PreHook(engine, summaries=SummaryManager(engine, ExtractiveSummarizer(), clock=engine.clock))
    result = await hook.run(
        PrehookRequest(
            text=turn.content,
            platform=PLATFORM,
            workspace_id="T1",
            channel_id="general",
            agent_id=AGENT,
            viewer=bob,
            participants=["bob", "alice"],
        )
    )
    assert {turn.id, memory.id, summary.id}.isdisjoint(_candidate_ids(result))
    assert_no_foreign_words(result.block or "", CONVERSATION["other_user_same_channel"], "block")
    await hook.aclose()


def _with(item: T, **changes: object) -> T:
    return dataclasses.replace(item, **changes)  # type: ignore[type-var]
