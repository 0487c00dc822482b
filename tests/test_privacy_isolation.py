"""Isolation matrix: who is shown which memory, turn and summary, by conversation kind, on every
surface that reads memory (pre-hook, searches, tools, `/memory`, and all the model reads)."""

from __future__ import annotations

import asyncio
import concurrent.futures
import dataclasses
import json
import shutil
import uuid
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypeVar

import pytest
import pytest_asyncio

from adapters.base import IncomingMessage
from adapters.command_table import Invoker
from bot.commands import MemoryCommands
from bot.llm.fake import ScriptedLLM, text
from bot.llm.types import ToolCall
from bot.memory_tools import MemoryToolbox, TurnContext
from bot.pipeline import TurnPipeline, audience_of, scope_of, to_stored, visibility_of
from memory.embedders import CachedEmbedder
from memory.engine import MemoryEngine
from memory.models import (
    Audience,
    ConversationKind,
    Memory,
    MemoryDraft,
    MemoryType,
    Scope,
    StoredMessage,
    Summary,
    Visibility,
)
from memory.people import ProfileStore
from memory.prehook import PreHook, PrehookRequest, PrehookResult
from memory.prehook.preferences_cache import PreferencesCache
from memory.storage import MemoryQuery
from memory.storage.embedded.records import memory_record, message_record, summary_record
from memory.summaries import SummaryManager
from memory.summarizer import ExtractiveSummarizer
from tests.fakes.embedders import HashEmbedder
from tests.fakes.postgres import PostgresTestServer, Snapshot
from tests.helpers import DAY, FakeClock, searchable_memory_ids, settings, stored_memory

T = TypeVar("T")

# Every test runs in the module's event loop, where the readers' shared engines live (the one
# test that awaits nothing is a coroutine too, so that the mark applies to all of them alike).
pytestmark = pytest.mark.asyncio(loop_scope="module")

# The whole matrix on both storage backends; each seeded once per module and copied per test.
STORAGE_BACKENDS = ("embedded", "postgres")

AGENT = "default"
OTHER_AGENT = "agent-b"
PUBLIC, PRIVATE, GROUP, DM = (
    ConversationKind.PUBLIC,
    ConversationKind.PRIVATE,
    ConversationKind.GROUP,
    ConversationKind.DM,
)


@dataclass(frozen=True)
class Layout:
    """Where a platform keeps its workspaces: Discord DMs are pseudo-workspaces of their own,
    Slack DMs live in the team."""

    w1: str
    w2: str
    dm_workspace: str | None  # None: "dm-<user>"

    def workspace(self, role: str, user: str) -> str:
        if role == "dm":
            return self.dm_workspace or f"dm-{user}"
        return self.w1 if role == "w1" else self.w2


LAYOUTS = {"discord": Layout("111", "222", None), "slack": Layout("T1", "T2", "T1")}


@dataclass(frozen=True)
class Place:
    """A conversation: the workspace role (w1, w2, dm), channel, thread, and its kind."""

    role: str
    channel: str
    kind: ConversationKind
    thread: str | None = None


GENERAL = Place("w1", "general", PUBLIC)
RANDOM = Place("w1", "random", PUBLIC)
SECRET = Place("w1", "secret", PRIVATE)  # a private channel (Slack) / hidden from @everyone (Discord)
PUBLIC_THREAD_OF_SECRET = Place("w1", "secret", PRIVATE, thread="t-pub")  # inherits its parent
PRIVATE_THREAD = Place("w1", "t-priv", PRIVATE, thread="t-priv")  # its own conversation
GROUP_DM = Place("w1", "G-group", GROUP)
ELSEWHERE = Place("w2", "general", PUBLIC)
VAULT = Place("w2", "vault", PRIVATE)


def dm_of(user: str) -> Place:
    return Place("dm", f"D-{user}", DM)


@dataclass(frozen=True)
class Kind:
    """Where a group of memories (and the turn that goes with them) was said, and by whom."""

    codeword: str  # a rare word in every text of the kind: its presence anywhere is a leak
    place: Place
    author: str
    agent: str = AGENT


# Every memory is about Alice.
KINDS = {
    "public": Kind("saffron", GENERAL, "alice"),
    "private_channel": Kind("quokka", SECRET, "alice"),
    "public_thread_of_private": Kind("lantern", PUBLIC_THREAD_OF_SECRET, "alice"),
    "private_thread": Kind("nebula", PRIVATE_THREAD, "alice"),
    "group_dm": Kind("walrus", GROUP_DM, "alice"),
    "dm": Kind("zeppelin", dm_of("alice"), "alice"),
    "bob_dm": Kind("marzipan", dm_of("bob"), "bob"),  # Bob's DM note on Alice
    "bob_public": Kind("pelican", GENERAL, "bob"),  # what Bob said of Alice in public
    "elsewhere": Kind("tundra", ELSEWHERE, "alice"),  # Alice, of herself, in another workspace
    "elsewhere_private": Kind("glacier", VAULT, "alice"),
    "other_agent": Kind("obsidian", GENERAL, "alice", agent=OTHER_AGENT),
}

TEMPLATES = (
    (MemoryType.IDENTITY, "Alice is the captain of the {w} rowing club"),
    (MemoryType.PREFERENCE, "Alice loves {w} flavoured ice cream"),
    (MemoryType.DECISION, "Alice decided to book the {w} conference hall for March"),
    # A kind memory: its line in the block names the other instances of its kind Alice has.
    (MemoryType.FACT, "Alice's pets include a {w} cat: Alice adopted a {w} cat"),
    # A profile field of one value: the newest Alice may be shown is on her profile line.
    (MemoryType.IDENTITY, "Alice is in the {w} time zone"),
)
KIND_SUBJECTS = ["alice", "kind:pet"]
TURN = "Yesterday I repainted the old {w} boathouse down by the river"


@dataclass(frozen=True)
class Actor:
    """Someone talking to the bot, or running `/memory`, somewhere."""

    user: str
    place: Place
    admin: bool = False
    agent: str = AGENT


ACTORS = {
    "owner_public": Actor("alice", GENERAL),
    "owner_private_channel": Actor("alice", SECRET),
    "owner_public_thread_of_private": Actor("alice", PUBLIC_THREAD_OF_SECRET),
    "owner_private_thread": Actor("alice", PRIVATE_THREAD),
    "owner_group_dm": Actor("alice", GROUP_DM),
    "owner_dm": Actor("alice", dm_of("alice")),
    "bob_public": Actor("bob", GENERAL),
    "bob_private_channel": Actor("bob", SECRET),
    "bob_dm": Actor("bob", dm_of("bob")),
    "admin_public": Actor("carol", RANDOM, admin=True),
    "admin_private_channel": Actor("carol", SECRET, admin=True),
    "owner_other_workspace": Actor("alice", ELSEWHERE),
    "other_agent": Actor("alice", GENERAL, agent=OTHER_AGENT),
}

# The expected answers, written out by hand from the privacy rules (README, "Privacy"), never
# computed from the filters.
# In a conversation (pre-hook, searches, the model's tools): the workspace's shared memories;
# what was said in a private channel, a group DM or a private thread only there (a public
# thread reads its parent's); private notes only in their author's DM; being an admin widens
# nothing. In a DM the person also gets what they said of themselves in the platform's other
# workspaces (never what others said of them, never other private conversations). Slack keeps
# DMs in the team, so a Slack DM also reads the team's shared memories.
SHARED = {"public", "bob_public"}
IN_SECRET = SHARED | {"private_channel", "public_thread_of_private"}
CONVERSATION_COMMON = {
    "owner_public": SHARED,
    "owner_private_channel": IN_SECRET,
    "owner_public_thread_of_private": IN_SECRET,
    "owner_private_thread": SHARED | {"private_thread"},
    "owner_group_dm": SHARED | {"group_dm"},
    "bob_public": SHARED,
    "bob_private_channel": IN_SECRET,
    "admin_public": SHARED,
    "admin_private_channel": IN_SECRET,
    "owner_other_workspace": {"elsewhere"},
    "other_agent": {"other_agent"},
}
CONVERSATION = {
    "discord": {
        **CONVERSATION_COMMON,
        "owner_dm": {"dm", "public", "elsewhere"},
        "bob_dm": {"bob_dm"},
    },
    "slack": {
        **CONVERSATION_COMMON,
        "owner_dm": {"dm", "public", "bob_public", "elsewhere"},
        "bob_dm": {"bob_dm", "public", "bob_public"},
    },
}
# Past turns and summaries: the same rules, but a DM reaches no other workspace (a turn is not
# a statement about oneself: it may speak of anyone).
TURNS = {
    "discord": {**CONVERSATION["discord"], "owner_dm": {"dm"}, "bob_dm": {"bob_dm"}},
    "slack": {**CONVERSATION["slack"], "owner_dm": {"dm", "public", "bob_public"}},
}
# `/memory list|search|about`: answers only the invoker reads, so also their own private notes
# of the same workspace (a Slack DM is in the team; a Discord DM is not in any guild).
COMMAND = {
    "discord": CONVERSATION["discord"],
    "slack": {
        **CONVERSATION["slack"],
        "owner_public": SHARED | {"dm"},
        "owner_private_channel": IN_SECRET | {"dm"},
        "owner_public_thread_of_private": IN_SECRET | {"dm"},
        "owner_private_thread": SHARED | {"private_thread", "dm"},
        "owner_group_dm": SHARED | {"group_dm", "dm"},
        "bob_public": SHARED | {"bob_dm"},
        "bob_private_channel": IN_SECRET | {"bob_dm"},
    },
}
# `/memory export`: what the invoker may see there that is about them or was said by them.
# Everything seeded is about Alice; Bob said two of the things.
EXPORT = {
    platform: {
        actor: (seen if ACTORS[actor].user == "alice" else seen & {"bob_public", "bob_dm"})
        if ACTORS[actor].user != "carol"
        else set()
        for actor, seen in COMMAND[platform].items()
    }
    for platform in COMMAND
}
# `/memory forget`: their own (by or about them) among what they see; admins any they see.
FORGET = {
    platform: {
        actor: seen if ACTORS[actor].admin else EXPORT[platform][actor]
        for actor, seen in COMMAND[platform].items()
    }
    for platform in COMMAND
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


def incoming(
    platform: str, user: str, place: Place, text_: str, clock: FakeClock, admin: bool = False
) -> IncomingMessage:
    """A message as an adapter hands it over, with the conversation kind the platform reported."""
    return IncomingMessage(
        platform=platform,
        workspace_id=LAYOUTS[platform].workspace(place.role, user),
        channel_id=place.channel,
        author_id=user,
        author_name=user.capitalize(),
        text=text_,
        timestamp=clock(),
        thread_id=place.thread,
        external_id=uuid.uuid4().hex,
        author_is_admin=admin,
        kind=place.kind,
    )


def kind_message(platform: str, kind: Kind, clock: FakeClock) -> IncomingMessage:
    return incoming(platform, kind.author, kind.place, TURN.format(w=kind.codeword), clock)


async def seed(engine: MemoryEngine, platform: str, clock: FakeClock) -> Seeded:
    """Three memories, one past turn and its summary per kind, stored with the scope and visibility
    the turn pipeline gives a message of that conversation (bulk writes keep it quick), and the
    profiles of Alice they make."""
    seeded = Seeded()
    drafts = []
    for name, kind in KINDS.items():
        message = kind_message(platform, kind, clock)
        for memory_type, template in TEMPLATES:
            draft = MemoryDraft(
                template.format(w=kind.codeword),
                scope_of(message, kind.agent),
                memory_type,
                subjects=[*KIND_SUBJECTS, kind.codeword] if " include " in template else [],
                user_id="alice",
                author_id=kind.author,
                visibility=visibility_of(message),
                confidence=0.9,
            )
            drafts.append((name, draft))
    stored = await engine.import_memories([draft for _, draft in drafts])
    assert len(stored) == len(drafts)
    for (name, _), memory in zip(drafts, stored, strict=True):
        seeded.memories.setdefault(name, []).append(memory)
        seeded.kind_of[memory.id] = name
    for name, kind in KINDS.items():
        seeded.turns[name] = to_stored(kind_message(platform, kind, clock), kind.agent)
        seeded.kind_of[seeded.turns[name].id] = name
    assert len(await engine.store_messages(list(seeded.turns.values()))) == len(KINDS)
    summaries = SummaryManager(engine, ExtractiveSummarizer(), clock=engine.clock)
    for name, turn in seeded.turns.items():
        scope = Scope(platform, turn.workspace_id, turn.channel_id, turn.agent_id, turn.thread_id)
        summary = await summaries.summarize_turn(scope, [turn.id], condense=False)
        # The summary takes its audience from the turn it covers.
        assert summary is not None and summary.visibility is turn.visibility
        seeded.summaries[name] = summary
        seeded.kind_of[summary.id] = name
    # Alice's profiles as their updater keeps them, in every workspace she was talked about in.
    profiles = ProfileStore(engine.storage, engine.clock)
    for workspace in {m.workspace_id for ms in seeded.memories.values() for m in ms}:
        for agent in (AGENT, OTHER_AGENT):
            await profiles.rebuild(platform, workspace, "alice", agent)
    # Past turns are strictly older than "now" (timelines end at the present instant).
    clock.advance(60)
    return seeded


def actor_message(platform: str, actor: Actor, text_: str, clock: FakeClock) -> IncomingMessage:
    return incoming(platform, actor.user, actor.place, text_, clock, admin=actor.admin)


def conversation_audience(platform: str, actor: Actor, clock: FakeClock) -> Audience:
    """The audience the turn pipeline itself builds for a message from `actor`."""
    return audience_of(actor_message(platform, actor, "hello", clock), actor.agent)


def invoker(platform: str, actor: Actor) -> Invoker:
    place = actor.place
    return Invoker(
        platform,
        LAYOUTS[platform].workspace(place.role, actor.user),
        place.channel,
        actor.user,
        is_dm=place.kind is DM,
        is_admin=actor.admin,
    )


def assert_no_foreign_words(text_: str, allowed: set[str], where: str) -> None:
    lowered = text_.casefold()
    leaked = [name for name in KINDS if name not in allowed and KINDS[name].codeword in lowered]
    assert not leaked, f"{where}: text of {leaked} reached this audience"


@pytest.fixture(scope="module")
def shared_embedder() -> CachedEmbedder:
    """One cache for the module: the tests query with the very texts the seeding embedded."""
    return CachedEmbedder(HashEmbedder())


class Templates:
    """The seeded stores of each platform on each backend, written once per module: a test that
    writes works on a copy (a copied directory, or the seeded rows restored in the test database);
    the tests that only read share one engine per store (`Readers`)."""

    def __init__(self, tmp_path_factory: pytest.TempPathFactory, embedder: CachedEmbedder) -> None:
        self._tmp = tmp_path_factory
        self._embedder = embedder
        self._built: dict[tuple[str, str], tuple[Path | Snapshot, Seeded, float]] = {}
        # The seeded PostgreSQL databases, kept for the readers and dropped with the module.
        self.databases: dict[tuple[str, str], str] = {}

    def get(
        self, backend: str, platform: str, server: PostgresTestServer | None
    ) -> tuple[Path | Snapshot, Seeded, float]:
        key = (backend, platform)
        if key not in self._built:
            if server is not None:
                name = server.create_database()
                target: str | Path = server.url(name)
            else:
                target = self._tmp.mktemp(f"privacy-{platform}") / "data"

            async def build() -> tuple[Seeded, float]:
                clock = FakeClock()
                engine = await MemoryEngine.open(target, self._embedder, clock=clock)
                try:
                    return await seed(engine, platform, clock), clock.now
                finally:
                    await engine.close()

            # Its own loop on its own thread: the fixture may be asked for inside the module's loop.
            with concurrent.futures.ThreadPoolExecutor(1) as pool:
                seeded, now = pool.submit(asyncio.run, build()).result()
            location: Path | Snapshot
            if server is not None:
                location = server.snapshot(name)
                self.databases[key] = name
            else:
                location = Path(target)
            self._built[key] = (location, seeded, now)
        return self._built[key]


@pytest.fixture(scope="module")
def templates(
    tmp_path_factory: pytest.TempPathFactory, shared_embedder: CachedEmbedder, request: pytest.FixtureRequest
) -> Iterator[Templates]:
    built = Templates(tmp_path_factory, shared_embedder)
    yield built
    if built.databases:
        server: PostgresTestServer = request.getfixturevalue("postgres_server")
        for name in built.databases.values():
            server.drop_database(name)


@pytest.fixture(params=list(LAYOUTS))
def platform(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture(params=list(ACTORS))
def actor_name(request: pytest.FixtureRequest) -> str:
    """Every actor of the tables, for each test that asks what one may see."""
    return str(request.param)


@pytest.fixture
def seeded_copy(
    templates: Templates, platform: str, backend: str, tmp_path: Path, request: pytest.FixtureRequest
) -> tuple[str | Path, Seeded, float]:
    """Where this test's copy of the seeded store is, what was seeded, and the clock after it."""
    if backend == "postgres":
        server: PostgresTestServer = request.getfixturevalue("postgres_server")
        rows, seeded, now = templates.get(backend, platform, server)
        assert isinstance(rows, Snapshot)
        return server.url(server.reset(rows)), seeded, now
    source, seeded, now = templates.get(backend, platform, None)
    assert isinstance(source, Path)
    shutil.copytree(source, tmp_path / "data")
    return tmp_path / "data", seeded, now


@pytest_asyncio.fixture(loop_scope="module")
async def engine(
    seeded_copy: tuple[str | Path, Seeded, float],
    shared_embedder: CachedEmbedder,
    clock: FakeClock,
) -> AsyncIterator[MemoryEngine]:
    location, _, now = seeded_copy
    clock.now = now
    eng = await MemoryEngine.open(location, shared_embedder, clock=clock)
    yield eng
    await eng.close()


@pytest.fixture
def seeded(seeded_copy: tuple[str | Path, Seeded, float]) -> Seeded:
    return seeded_copy[1]


@dataclass
class Reader:
    """An engine on a seeded store that the tests only read, shared by every such test of the store."""

    engine: MemoryEngine
    seeded: Seeded
    clock: FakeClock

    async def state(self) -> tuple[list[dict[str, object]], list[str], list[str], int]:
        """What a reading test must leave as it found it (reading only counts accesses)."""
        storage = self.engine.storage
        ids = list(self.seeded.kind_of)
        memories = [m.to_public_dict() for m in await storage.memories.get_unscoped(ids)]
        for memory in memories:
            del memory["access_count"]
        return (
            memories,
            [t.id for t in await storage.turns.get_unscoped(ids)],
            [s.id for s in await storage.summaries.get_unscoped(ids)],
            await storage.turns.count(),
        )


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def readers() -> AsyncIterator[dict[tuple[str, str], Reader]]:
    """The readers' engines by (backend, platform), opened by `reader` and closed with the module."""
    opened: dict[tuple[str, str], Reader] = {}
    yield opened
    for reader in opened.values():
        await reader.engine.close()


@pytest_asyncio.fixture(loop_scope="module")
async def reader(
    readers: dict[tuple[str, str], Reader],
    templates: Templates,
    shared_embedder: CachedEmbedder,
    tmp_path_factory: pytest.TempPathFactory,
    backend: str,
    platform: str,
    request: pytest.FixtureRequest,
) -> AsyncIterator[Reader]:
    """The shared engine of this backend's seeded store for `platform` (the seeded database itself on
    PostgreSQL, a copy of the seeded directory otherwise); fails a test that changed what it
    stores, since the tests after it read the same store."""
    key = (backend, platform)
    if key not in readers:
        if backend == "postgres":
            server: PostgresTestServer = request.getfixturevalue("postgres_server")
            _, seeded, now = templates.get(backend, platform, server)
            location: str | Path = server.url(templates.databases[key])
        else:
            source, seeded, now = templates.get(backend, platform, None)
            assert isinstance(source, Path)
            location = shutil.copytree(source, tmp_path_factory.mktemp(f"reader-{platform}") / "data")
        clock = FakeClock(now)
        engine = await MemoryEngine.open(location, shared_embedder, clock=clock)
        readers[key] = Reader(engine, seeded, clock)
    shared = readers[key]
    before = await shared.state()
    yield shared
    assert await shared.state() == before, "a reading test changed the shared store"


async def test_the_tables_cover_every_actor() -> None:
    for platform in LAYOUTS:
        for table in (CONVERSATION, TURNS, COMMAND, EXPORT, FORGET):
            assert set(table[platform]) == set(ACTORS)
            assert all(kinds <= set(KINDS) for kinds in table[platform].values())


async def test_the_seed_follows_the_conversation_kind(reader: Reader, platform: str) -> None:
    """What each conversation kind stores, as the pipeline classifies it (the matrix's premise)."""
    seeded = reader.seeded
    expected = {
        "public": Visibility.WORKSPACE,
        "private_channel": Visibility.CHANNEL,
        "public_thread_of_private": Visibility.CHANNEL,
        "private_thread": Visibility.CHANNEL,
        "group_dm": Visibility.CHANNEL,
        "dm": Visibility.PRIVATE,
        "bob_dm": Visibility.PRIVATE,
        "bob_public": Visibility.WORKSPACE,
        "elsewhere": Visibility.WORKSPACE,
        "elsewhere_private": Visibility.CHANNEL,
        "other_agent": Visibility.WORKSPACE,
    }
    for name, visibility in expected.items():
        assert {m.visibility for m in seeded.memories[name]} == {visibility}, name
        assert seeded.turns[name].visibility is visibility, name
        assert seeded.summaries[name].visibility is visibility, name
    # A private thread is its own conversation; a public one lives in its parent channel.
    assert {m.channel_id for m in seeded.memories["private_thread"]} == {"t-priv"}
    assert {m.channel_id for m in seeded.memories["public_thread_of_private"]} == {"secret"}


# --- pre-hook injection: memories, past turns and summaries ------------------------------------


def _candidate_ids(result: PrehookResult) -> list[str]:
    return [item.id for item, _ in result.candidates_ranked]


async def test_prehook_injects_only_what_the_conversation_may_see(
    reader: Reader, platform: str, actor_name: str
) -> None:
    actor = ACTORS[actor_name]
    allowed = CONVERSATION[platform][actor_name]
    allowed_turns = TURNS[platform][actor_name]
    summaries = SummaryManager(reader.engine, ExtractiveSummarizer(), clock=reader.engine.clock)
    hook = PreHook(reader.engine, summaries=summaries)
    viewer = conversation_audience(platform, actor, reader.clock)

    def request(text_: str) -> PrehookRequest:
        return PrehookRequest(
            text=text_,
            scope=Scope(platform, viewer.workspace_id, actor.place.channel, actor.agent, actor.place.thread),
            viewer=viewer,
            # Talking about Alice: her identity and preferences are looked up whoever asks.
            participants=[actor.user, "alice"],
        )

    visible_memories = {m.id for k in allowed for m in reader.seeded.memories[k]}
    all_memories = {m.id for ms in reader.seeded.memories.values() for m in ms}
    for name, turn in reader.seeded.turns.items():
        result = await hook.run(request(turn.content))
        assert not result.errors, result.errors
        ids = _candidate_ids(result)
        assert reader.seeded.kinds([i for i in ids if i in all_memories]) <= allowed, (
            f"query {name}: memories"
        )
        assert reader.seeded.kinds([i for i in ids if i not in all_memories]) <= allowed_turns, (
            f"query {name}: turns"
        )
        # Every memory the conversation may see is a candidate (the SQL sources reach them all).
        assert set(ids) & all_memories == visible_memories, f"query {name}: memories"
        assert (turn.id in ids) == (name in allowed_turns), f"query {name}: its past turn"
        assert (reader.seeded.summaries[name].id in ids) == (name in allowed_turns), (
            f"query {name}: its summary"
        )
        assert_no_foreign_words(result.block or "", allowed | allowed_turns, f"block for {name}")

    # A question that names a day also searches the turns said that day: the same filter holds.
    dated = await hook.run(request("What did Alice tell us today about the codewords?"))
    assert dated.meta is None and not dated.errors, dated.errors
    ids = _candidate_ids(dated)
    assert reader.seeded.kinds([i for i in ids if i not in all_memories]) <= allowed_turns, "dated: turns"
    assert_no_foreign_words(dated.block or "", allowed | allowed_turns, "block for a dated question")

    # One that names yesterday also searches the turns telling of it ("Yesterday I repainted…",
    # said today): the same filter holds.
    told = await hook.run(request("What did Alice do yesterday?"))
    assert told.meta is None and not told.errors, told.errors
    ids = _candidate_ids(told)
    assert reader.seeded.kinds([i for i in ids if i not in all_memories]) <= allowed_turns, "told: turns"
    assert_no_foreign_words(told.block or "", allowed | allowed_turns, "block for a question about yesterday")

    timeline = await hook.run(request("what did we talk about today?"))
    assert timeline.meta is not None and timeline.block is not None
    assert_no_foreign_words(timeline.block, allowed | allowed_turns, "timeline")
    await hook.aclose()


# --- engine searches ---------------------------------------------------------------------------


async def test_engine_searches_return_only_what_the_conversation_may_see(
    reader: Reader, platform: str, actor_name: str
) -> None:
    allowed = CONVERSATION[platform][actor_name]
    allowed_turns = TURNS[platform][actor_name]
    audience = conversation_audience(platform, ACTORS[actor_name], reader.clock)
    for name, memories in reader.seeded.memories.items():
        for memory in memories:
            hits = await reader.engine.search(memory.content, audience, limit=50, threshold=0.0)
            ids = [h.memory.id for h in hits]
            assert reader.seeded.kinds(ids) <= allowed, f"search for {name}"
            assert (memory.id in ids) == (name in allowed), f"search for {name}: {memory.content}"
        turn = reader.seeded.turns[name]
        found = await reader.engine.search_messages(turn.content, audience, limit=50, threshold=0.0)
        ids = [m.id for m, _ in found]
        assert reader.seeded.kinds(ids) <= allowed_turns, f"search_messages for {name}"
        assert (turn.id in ids) == (name in allowed_turns), f"search_messages for {name}"
    # The turns telling of a period, whenever said: each seeded turn tells of the day before it.
    (vector,) = await reader.engine.embedder.embed(["the old boathouse down by the river"])
    told = await reader.engine.storage.turns.search_told(audience, vector, 0.0, reader.clock() + DAY, 50)
    assert reader.seeded.kinds([h.id for h in told]) == allowed_turns, "search_told"


# --- the model's memory tools ------------------------------------------------------------------


async def test_memory_tools_read_only_what_the_conversation_may_see(
    reader: Reader, platform: str, actor_name: str
) -> None:
    actor = ACTORS[actor_name]
    allowed = CONVERSATION[platform][actor_name]
    message = actor_message(platform, actor, "hello", reader.clock)
    toolbox = MemoryToolbox(
        reader.engine,
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
    assert reader.seeded.kinds(recent) == allowed
    assert len(recent) == len(TEMPLATES) * len(allowed)
    for name, memories in reader.seeded.memories.items():
        for memory in memories:
            ids = await call("search_memories", query=memory.content, limit=20)
            assert reader.seeded.kinds(ids) <= allowed, f"search_memories for {name}"
            assert (memory.id in ids) == (name in allowed), f"search_memories for {name}"


# --- everything the model reads: prompt, profiles, summaries, history, memory block -------------


async def test_the_model_reads_only_what_the_conversation_may_see(
    engine: MemoryEngine, clock: FakeClock, seeded: Seeded, platform: str, actor_name: str, tmp_path: Path
) -> None:
    """Through the turn pipeline: system prompt (profile lines, thread summary), history and block."""
    actor = ACTORS[actor_name]
    allowed = CONVERSATION[platform][actor_name] | TURNS[platform][actor_name]
    llm = ScriptedLLM()
    config = settings(tmp_path, storage={"agent_id": actor.agent})
    pipeline = TurnPipeline(engine, config, llm=llm, summarizer=ExtractiveSummarizer())
    try:
        questions = [f"Tell me about the {kind.codeword} things Alice did" for kind in KINDS.values()]
        for question in questions:
            llm.add(text("Noted."))
            result = await pipeline.handle([actor_message(platform, actor, question, clock)])
            assert result.error is None, result.error
            call = llm.calls[-1]
            everything = "\n".join([call.system, *(m.content or "" for m in call.messages)])
            # The actor's own questions name every codeword (and come back as history and as
            # summaries of this conversation): only the rest of the input counts.
            for asked in questions:
                everything = everything.replace(asked, "")
            assert_no_foreign_words(everything, allowed, f"model input for {question!r}")
        if actor.user == "alice":
            # Her profile line is in the prompt, so the check above did read one.
            system = llm.calls[-1].system
            assert any(KINDS[k].codeword in system for k in allowed), system
    finally:
        await pipeline.aclose()


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


async def test_memory_commands_show_export_and_forget_by_the_rules(
    engine: MemoryEngine, clock: FakeClock, seeded: Seeded, platform: str, actor_name: str
) -> None:
    actor = ACTORS[actor_name]
    allowed = COMMAND[platform][actor_name]
    commands = MemoryCommands(engine, actor.agent, page_size=50)
    who = invoker(platform, actor)

    listed = await commands.execute("list", {}, who)
    assert listed.error is None
    assert seeded.kinds([str(i["id"]) for i in listed.items]) == allowed, "list"
    assert listed.total == len(TEMPLATES) * len(allowed)

    stats = await commands.execute("stats", {}, who)
    assert stats.data["total"] == len(TEMPLATES) * len(allowed), "stats"

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
    rows = json.loads(export.attachment.data.decode("utf-8"))
    assert seeded.kinds([row["id"] for row in rows]) == EXPORT[platform][actor_name], "export"
    assert len(rows) == len(TEMPLATES) * len(EXPORT[platform][actor_name])
    for row in rows:
        assert EXPORT_FIELDS <= set(row), set(row) ^ EXPORT_FIELDS
        assert actor.user in (row["user_id"], row["author_id"])

    # Refused attempts first, so an allowed delete cannot hide a wrongly refused one.
    every = sorted(
        ((name, m) for name, ms in seeded.memories.items() for m in ms),
        key=lambda pair: pair[0] in FORGET[platform][actor_name],
    )
    for name, memory in every:
        outcome = await commands.execute("forget", {"id": memory.id}, who)
        allowed_to_forget = name in FORGET[platform][actor_name]
        assert (outcome.error is None) == allowed_to_forget, f"forget {name}"
        row = await stored_memory(engine, memory.id)
        assert (row is None) == allowed_to_forget, f"forget {name}: {'still stored' if row else 'deleted'}"
    # Nothing is ever added back, so the index read once at the end holds every forget's outcome.
    searchable = await searchable_memory_ids(engine)
    for name, memory in every:
        allowed_to_forget = name in FORGET[platform][actor_name]
        assert (memory.id in searchable) != allowed_to_forget, f"forget {name}: index"


# --- the store's queries called directly -------------------------------------------------------


def hostile(platform: str) -> dict[str, tuple[Audience, set[str]]]:
    """Audiences a buggy or malicious caller might build, and what each may get back."""
    w1 = LAYOUTS[platform].w1
    return {
        # Claims a private view without being anyone's author: shared memories only.
        "stranger_claiming_private": (
            Audience(platform, w1, AGENT, viewer_id="mallory", channel_id="random", private_ok=True),
            SHARED,
        ),
        # The operator's widest view (the CLI): every channel of the workspace, nobody's DM notes.
        "operator_claiming_private": (
            Audience(platform, w1, AGENT, viewer_id="mallory", private_ok=True, operator=True),
            SHARED | {"private_channel", "public_thread_of_private", "private_thread", "group_dm"},
        ),
        # Someone else's own memories elsewhere: only what Mallory said of herself (nothing).
        "stranger_reaching_elsewhere": (
            Audience(platform, w1, AGENT, viewer_id="mallory", channel_id="random", own_elsewhere=True),
            SHARED,
        ),
        # Reaching elsewhere without a viewer reaches nothing more.
        "elsewhere_without_viewer": (
            Audience(platform, w1, AGENT, channel_id="random", own_elsewhere=True),
            SHARED,
        ),
        # Private allowed but no viewer: no private row can match.
        "private_without_viewer": (
            Audience(platform, w1, AGENT, channel_id="D-alice", private_ok=True),
            SHARED,
        ),
        # Alice herself, but under an agent that learned nothing.
        "unknown_agent": (
            Audience(platform, w1, "agent-c", viewer_id="alice", channel_id="general", private_ok=True),
            set(),
        ),
        # Alice herself, in a workspace that learned nothing; then on another platform.
        "unknown_workspace": (
            Audience(platform, "T3", AGENT, viewer_id="alice", channel_id="general", private_ok=True),
            set(),
        ),
        "other_platform": (
            Audience("console", w1, AGENT, viewer_id="alice", channel_id="general", private_ok=True),
            set(),
        ),
    }


@pytest.mark.parametrize(
    "name",
    [
        "stranger_claiming_private",
        "operator_claiming_private",
        "stranger_reaching_elsewhere",
        "elsewhere_without_viewer",
        "private_without_viewer",
        "unknown_agent",
        "unknown_workspace",
        "other_platform",
    ],
)
async def test_store_queries_return_nothing_foreign_to_a_hostile_audience(
    reader: Reader, platform: str, name: str
) -> None:
    audience, allowed = hostile(platform)[name]
    store = reader.engine.storage.memories
    now = reader.clock()
    every_memory = [m for ms in reader.seeded.memories.values() for m in ms]
    memory_ids = [m.id for m in every_memory]
    expected = {m.id for k in allowed for m in reader.seeded.memories[k]}

    def kinds_of(rows: list[Memory]) -> set[str]:
        return reader.seeded.kinds([m.id for m in rows])

    assert {m.id for m in await store.visible(memory_ids, audience, now)} == expected
    assert {m.id for m in await store.query(audience, now, MemoryQuery(limit=500))} == expected
    assert await store.count(audience, now) == len(expected)
    assert sum((await store.count_by_type(audience, now)).values()) == len(expected)
    about = await store.about(audience, now, ["alice"], list(MemoryType), limit=500)
    assert {m.id for m in about} == expected
    between = await store.between(audience, now, 0.0, now + 1, limit=500)
    assert {m.id for m in between} == expected
    for memory in every_memory:
        found = await store.find_by_hash(memory.content_hash, audience, now, memory.visibility)
        assert (found is not None) == (memory.id in expected), f"find_by_hash {memory.content}"
    preferences = await PreferencesCache(reader.engine.storage.memories, reader.clock, limit=len(KINDS)).get(
        audience, "alice"
    )
    assert kinds_of(preferences) == allowed

    turn_ids = [t.id for t in reader.seeded.turns.values()]
    assert (
        reader.seeded.kinds([m.id for m in await reader.engine.storage.turns.visible(turn_ids, audience)])
        == allowed
    )
    (vector,) = await reader.engine.embedder.embed(["the old boathouse down by the river"])
    told = await reader.engine.storage.turns.search_told(audience, vector, 0.0, now + DAY, 50)
    assert reader.seeded.kinds([h.id for h in told]) == allowed, "search_told"

    summaries = SummaryManager(reader.engine, ExtractiveSummarizer(), clock=reader.engine.clock)
    summary_ids = [s.id for s in reader.seeded.summaries.values()]
    assert (
        reader.seeded.kinds([s.id for s in await summaries.store.visible(summary_ids, audience, now)])
        == allowed
    )
    for turn in reader.seeded.turns.values():
        scope = Scope(platform, turn.workspace_id, turn.channel_id, turn.agent_id, turn.thread_id)
        pending = await summaries.pending_level1(scope, audience)
        assert reader.seeded.kinds([s.id for s in pending]) <= allowed

    # And through the reader.engine's searches, which read the same rows after LanceDB.
    for kind_name, memories in reader.seeded.memories.items():
        hits = await reader.engine.search(memories[0].content, audience, limit=50, threshold=0.0)
        assert reader.seeded.kinds([h.memory.id for h in hits]) <= allowed, f"search {kind_name}"
        turns = await reader.engine.search_messages(
            reader.seeded.turns[kind_name].content, audience, threshold=0.0
        )
        assert reader.seeded.kinds([m.id for m, _ in turns]) <= allowed, f"search_messages {kind_name}"
        found = await summaries.search(
            (await reader.engine.embedder.embed([reader.seeded.turns[kind_name].content]))[0], audience, 20
        )
        assert reader.seeded.kinds([s.id for s, _ in found]) <= allowed, f"summaries {kind_name}"


async def test_thread_summaries_are_read_only_by_their_audience(
    engine: MemoryEngine, clock: FakeClock, platform: str
) -> None:
    summaries = SummaryManager(engine, ExtractiveSummarizer(), clock=engine.clock)
    w1 = LAYOUTS[platform].w1
    for place, text_ in (
        (dm_of("alice"), "My zeppelin model kit finally arrived"),
        (PRIVATE_THREAD, "The nebula budget stays between us"),
        (SECRET, "The quokka plan is only for this channel"),
    ):
        message = incoming(platform, "alice", place, text_, clock)
        turn = to_stored(message, AGENT)
        await engine.store_messages([turn])
        scope = scope_of(message, AGENT)
        written = await summaries.update_thread_summary(scope, [turn.id])
        assert written.visibility is visibility_of(message)
        alice_there = audience_of(message, AGENT)
        found = await summaries.thread_summary(scope, alice_there)
        assert found is not None and found.id == written.id
        bob_there = Audience(platform, message.workspace_id, AGENT, viewer_id="bob", channel_id="elsewhere")
        assert await summaries.thread_summary(scope, bob_there) is None
        alice_in_general = Audience(platform, w1, AGENT, viewer_id="alice", channel_id="general")
        assert await summaries.thread_summary(scope, alice_in_general) is None


# --- rows whose vector store columns went stale ------------------------------------------------


@pytest.mark.embedded_only("writes LanceDB rows with stale scope columns; PostgreSQL has one row")
async def test_a_stale_vector_row_cannot_leak_a_private_turn_memory_or_summary(
    engine: MemoryEngine, clock: FakeClock, seeded: Seeded, platform: str
) -> None:
    """The LanceDB row only narrows the search; the SQL row decides what is returned."""
    for kind in ("dm", "private_channel"):
        turn = seeded.turns[kind]
        memory = seeded.memories[kind][0]
        summary = seeded.summaries[kind]
        vectors = await engine.embedder.embed([turn.content, memory.content, summary.content])
        # As if an old version or a crash had written these rows with the wrong scope columns.
        shared = Visibility.WORKSPACE
        await engine.storage.vectors.messages.add(
            [message_record(_with(turn, visibility=shared), vectors[0])]
        )
        await engine.storage.vectors.memories.add(
            [memory_record(_with(memory, visibility=shared), vectors[1])]
        )
        table = await SummaryManager(engine, ExtractiveSummarizer(), clock=engine.clock).store.table()
        await table.add([summary_record(_with(summary, visibility=shared), vectors[2])])

        bob = conversation_audience(platform, ACTORS["bob_public"], clock)
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
                scope=Scope(platform, bob.workspace_id, "general", AGENT),
                viewer=bob,
                participants=["bob", "alice"],
            )
        )
        assert {turn.id, memory.id, summary.id}.isdisjoint(_candidate_ids(result))
        assert_no_foreign_words(result.block or "", CONVERSATION[platform]["bob_public"], "block")
        await hook.aclose()


def _with(item: T, **changes: object) -> T:
    return dataclasses.replace(item, **changes)  # type: ignore[type-var]
