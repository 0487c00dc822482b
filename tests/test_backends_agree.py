"""Both backends give the same answers for the same data: every read of the storage seam, compared.

The same rows (memories, turns, summaries, people, conversation kinds) are written through the
seam into the embedded backend and into PostgreSQL; then every listing, count, filter and
timeline is read through a range of audiences and must come back identical (ids and order),
before and after a conversation is narrowed. Search is compared where the two must agree: the
set of rows a filter lets through, and cosine scores. Full text is analysed alike (LanceDB's
English analyser) and ranked by the same BM25 on both: its hits, their order and their scores.
"""

from __future__ import annotations

import dataclasses
import itertools
import json
import random
from collections.abc import AsyncIterator, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from memory.models import (
    Audience,
    Conversation,
    ConversationKind,
    Memory,
    MemoryType,
    Scope,
    Source,
    StoredMessage,
    Summary,
    SummaryKind,
    Visibility,
    content_hash,
)
from memory.storage import MemoryQuery, MemoryRead, Storage, VectorHit, about_read, between_read
from memory.storage.embedded import EmbeddedStorage
from memory.storage.postgres import PostgresStorage
from memory.turn_text import told_days
from tests.fakes.embedders import HashEmbedder
from tests.helpers import DAY, NOW, memory_row

PLATFORM, AGENT = "discord", "default"
WORKSPACES = ("guild-1", "guild-2")
CHANNELS = ("general", "random", "secret", "dm-alice")
PEOPLE = ("alice", "bob", "carol")
WORDS = (
    "lisbon office budget marathon cello quokka deploy pipeline release train zeppelin nebula "
    "peanuts bicycle chess garden opera kayak sourdough origami"
).split()
EMBEDDER = HashEmbedder()


def _vector(text: str) -> np.ndarray:
    return EMBEDDER._vector(text)


def _memories(rng: random.Random) -> list[Memory]:
    out = []
    for n in range(160):
        workspace = rng.choice(WORKSPACES)
        channel = rng.choice(CHANNELS)
        visibility = rng.choice(list(Visibility))
        author = rng.choice(PEOPLE)
        words = " ".join(rng.sample(WORDS, 3))
        content = f"{author.capitalize()} noted {words} number {n}"
        # A few share an instant and an importance: arrival must break the tie the same way (the
        # random part first, so the ids' order is not the order they are written in).
        created = NOW - (n // 3 if n % 7 == 0 else n) * 3600.0
        out.append(
            Memory(
                id=f"m{rng.randrange(10**6):06d}-{n:03d}",
                content=content,
                memory_type=rng.choice(list(MemoryType)),
                importance=rng.choice((0.3, 0.6, 0.8, 1.0)),
                confidence=rng.choice((0.5, 0.8, 0.9)),
                subjects=rng.sample(["alice", "bob", "lisbon", "release"], 2),
                source=Source.CONVERSATION,
                scope=Scope(PLATFORM, workspace, channel, AGENT, rng.choice((None, None, "t-1"))),
                user_id=rng.choice((*PEOPLE, None)),
                author_id=author,
                visibility=visibility,
                created_at=created,
                updated_at=created,
                expires_at=rng.choice((None, None, None, NOW - 10.0, NOW + DAY)),
                content_hash=content_hash(content),
            )
        )
    return out


# The turns stored searchable; the rest stay in the transcript only.
SEARCHABLE_TURNS = 100
TOLD = ("", "", " yesterday", " last week", " on Monday", " next Friday", " two days ago", " in May 2020")


def _turns(rng: random.Random) -> list[StoredMessage]:
    out = []
    for n in range(120):
        channel = rng.choice(CHANNELS)
        author = rng.choice(PEOPLE)
        out.append(
            StoredMessage(
                id=f"t{n:03d}",
                scope=Scope(PLATFORM, rng.choice(WORKSPACES), channel, AGENT, rng.choice((None, "t-1"))),
                author_id=author,
                author_name=author.capitalize(),
                role=rng.choice(("user", "user", "assistant")),
                # Some tell of days before or after the one they are said on (`told_days`).
                content=f"{author} says {' '.join(rng.sample(WORDS, 4))}{TOLD[n % len(TOLD)]}",
                # Several turns of one instant: arrival order breaks the tie.
                created_at=NOW - 20 * DAY + (n // 2) * 7 * 3600.0,
                external_id=f"x{n}" if n % 3 else None,
                visibility=rng.choice(list(Visibility)),
                tool_calls=[{"name": "search", "arguments": {"q": "x"}}] if n % 11 == 0 else [],
            )
        )
    return out


def _audiences(in_workspace: str | None = None) -> list[Audience]:
    """Readers of every kind: in each workspace, Alice (whose DM is dm-alice), Bob or nobody, in a
    public channel, the channel made private, Alice's DM or none, with and without private notes
    and her own elsewhere; the operator; another agent. Carol and #random play Bob's and
    #general's parts in the rows, so reading as them repeats those readers. With `in_workspace`,
    only those reading in it."""
    out = []
    for workspace in WORKSPACES:
        for viewer in ("alice", "bob", None):
            for channel in ("general", "secret", "dm-alice", None):
                out.append(Audience(PLATFORM, workspace, AGENT, viewer_id=viewer, channel_id=channel))
                out.append(
                    Audience(
                        PLATFORM,
                        workspace,
                        AGENT,
                        viewer_id=viewer,
                        channel_id=channel,
                        private_ok=True,
                        own_elsewhere=True,
                    )
                )
        out.append(Audience(PLATFORM, workspace, AGENT, viewer_id="alice", private_ok=True, operator=True))
    out.append(Audience(PLATFORM, "guild-1", "other-agent", viewer_id="alice", channel_id="general"))
    return [a for a in out if in_workspace in (None, a.workspace_id)]


def _summary(n: int, first: StoredMessage | Summary, **fields: Any) -> Summary:
    """Summary `s<n>` in the conversation of `first`, the earliest row it sums up, and read and written
    by whom that row was."""
    return Summary(f"s{n:03d}", first.scope, visibility=first.visibility, author_id=first.author_id, **fields)


async def _fill(storage: Storage, rng_seed: int) -> tuple[list[Memory], list[StoredMessage]]:
    rng = random.Random(rng_seed)
    memories = _memories(rng)
    await storage.memories.add_many(memories[:-20], [_vector(m.content) for m in memories[:-20]])
    # The last ones one by one, each superseding an older memory of its scope when there is one.
    for memory in memories[-20:]:
        older = next(
            (
                m
                for m in memories[:40]
                if (m.scope, m.visibility) == (memory.scope, memory.visibility) and not m.forgotten
            ),
            None,
        )
        await storage.memories.add(memory, _vector(memory.content), older.id if older else None, NOW)
        if older is not None:
            older.forgotten, older.superseded_by = True, memory.id
    await storage.memories.bump_access({memories[0].id: 3, memories[5].id: 1}, NOW)
    turns = _turns(rng)
    texts = [f"{t.author_name}: {t.content}" for t in turns]
    n = SEARCHABLE_TURNS
    await storage.turns.add(turns[:n], [_vector(t.content) for t in turns[:n]], texts[:n])
    await storage.turns.add_unsearchable(turns[n:])
    await storage.turns.add(turns[:3], [_vector(t.content) for t in turns[:3]], texts[:3])  # repeats
    by_scope: dict[Scope, list[StoredMessage]] = {}
    for turn in turns:
        by_scope.setdefault(turn.scope, []).append(turn)
    numbers = itertools.count()
    for _, group in sorted(by_scope.items(), key=lambda kv: repr(kv[0])):
        level1 = []
        for turn in group[:3]:
            summary = _summary(
                next(numbers),
                turn,
                level=1,
                kind=SummaryKind.TURNS,
                content=f"summary of {turn.content}",
                covers_from=turn.created_at,
                covers_to=turn.created_at + 60,
                source_ids=[turn.id],
                raw_chars=len(turn.content),
                created_at=turn.created_at + 120,
            )
            await storage.summaries.add(summary, _vector(summary.content))
            level1.append(summary)
        if len(level1) >= 2 and len({s.visibility for s in level1}) == 1:
            parts = level1[:2]
            condensed = _summary(
                next(numbers),
                parts[0],
                level=2,
                kind=SummaryKind.CONDENSED,
                content="condensed " + " ".join(s.content for s in parts),
                covers_from=parts[0].covers_from,
                covers_to=parts[1].covers_to,
                source_ids=[s.id for s in parts],
                created_at=NOW,
            )
            await storage.summaries.add(condensed, _vector(condensed.content), [s.id for s in parts])
        thread = _summary(
            next(numbers),
            group[0],
            level=99,
            kind=SummaryKind.THREAD,
            content=f"thread so far: {group[0].content}",
            covers_from=group[0].created_at,
            covers_to=group[-1].created_at,
            created_at=NOW,
        )
        await storage.summaries.replace_thread(thread, None)
    for i, person in enumerate(PEOPLE):
        await storage.people.save_profile(
            PLATFORM, "guild-1", person, AGENT, json.dumps({"name": person, "likes": WORDS[i]}), NOW + i
        )
        await storage.people.add_aliases(
            PLATFORM, "guild-1", person, [person.upper(), f"{person}-{i}", "Sam"], NOW + i, keep=2
        )
    await storage.conversations.record(
        [Conversation(PLATFORM, "guild-1", "secret", ConversationKind.PRIVATE)], NOW
    )
    return memories, turns


@pytest.fixture
async def both(tmp_path: Path, postgres_url: str) -> AsyncIterator[tuple[Storage, Storage]]:
    embedded = await EmbeddedStorage.open(tmp_path / "data", dim=EMBEDDER.dim)
    postgres = await PostgresStorage.open(postgres_url, dim=EMBEDDER.dim)
    try:
        yield embedded, postgres
    finally:
        await embedded.close()
        await postgres.close()


def _ids(rows: list[object]) -> list[str]:
    return [r.id for r in rows]  # type: ignore[attr-defined]


async def _same_memory_reads(a: Storage, b: Storage, memories: list[Memory], workspace: str) -> None:
    ids = [m.id for m in memories]
    queries = [
        MemoryQuery(limit=500),
        MemoryQuery(order="important", limit=500),
        MemoryQuery(order="important", limit=7, offset=5),
        MemoryQuery(limit=9, offset=9),
        MemoryQuery(types=[MemoryType.FACT, MemoryType.IDENTITY], limit=500),
        MemoryQuery(min_importance=0.8, min_confidence=0.8, limit=500),
        MemoryQuery(since=NOW - 40 * 3600, limit=500),
        MemoryQuery(channel_id="secret", limit=500),
        MemoryQuery(user_ids=["alice", "bob"], limit=500),
        MemoryQuery(subjects=["Lisbon"], limit=500),
        MemoryQuery(elsewhere=True, order="important", limit=500),
    ]
    for audience in _audiences(workspace):
        for query in queries:
            left = await a.memories.query(audience, NOW, query, {})
            right = await b.memories.query(audience, NOW, query, {})
            assert _ids(left) == _ids(right), (audience, query)
            assert [m.to_public_dict() for m in left] == [m.to_public_dict() for m in right]
            assert await a.memories.count(audience, NOW, query) == await b.memories.count(
                audience, NOW, query
            )
        assert await a.memories.count_by_type(audience, NOW) == await b.memories.count_by_type(audience, NOW)
        assert _ids(await a.memories.visible(ids, audience, NOW)) == _ids(
            await b.memories.visible(ids, audience, NOW)
        )
        about = [
            await s.memories.about(audience, NOW, ["alice", "carol"], list(MemoryType), 0.6, 500)
            for s in (a, b)
        ]
        assert _ids(about[0]) == _ids(about[1]), audience
        # The first few only: PostgreSQL takes each user's best rows, then the best of those.
        few = [
            await s.memories.about(audience, NOW, ["carol", "alice", "carol"], [MemoryType.FACT], None, 3)
            for s in (a, b)
        ]
        assert _ids(few[0]) == _ids(few[1]), audience
        assert all(m.user_id in ("alice", "carol") and m.memory_type is MemoryType.FACT for m in few[1])
        between = [await s.memories.between(audience, NOW, NOW - 50 * 3600, NOW, None, 500) for s in (a, b)]
        assert _ids(between[0]) == _ids(between[1]), audience
        for memory in memories[::9]:
            found = [
                await s.memories.find_by_hash(memory.content_hash, audience, NOW, memory.visibility)
                for s in (a, b)
            ]
            assert [f.id if f else None for f in found[:1]] == [f.id if f else None for f in found[1:]]
        query_vector = _vector("lisbon office budget")
        dense = [await s.memories.search(audience, query_vector, 500, NOW) for s in (a, b)]
        assert {h.id for h in dense[0]} == {h.id for h in dense[1]}, audience
        scores = {h.id: h.score for h in dense[0]}
        for hit in dense[1]:
            assert hit.score == pytest.approx(scores[hit.id], abs=1e-5)
        lexical = [
            (await s.memories.hybrid_search(audience, query_vector, "quokka cello", 500, NOW))[1]
            for s in (a, b)
        ]
        _same_ranking(lexical[0], lexical[1], audience)
    assert sorted(await a.memories.expired_ids(NOW)) == sorted(await b.memories.expired_ids(NOW))
    assert await a.memories.active_hash_matches([m.content_hash for m in memories], NOW) == (
        await b.memories.active_hash_matches([m.content_hash for m in memories], NOW)
    )
    assert await a.memories.merged_into(ids) == await b.memories.merged_into(ids)
    for memory in memories[-20:]:
        older = [await s.memories.superseded_unscoped(memory.id) for s in (a, b)]
        assert [o.to_public_dict() if o else None for o in older[:1]] == [
            o.to_public_dict() if o else None for o in older[1:]
        ]
    assert [m.to_public_dict() for m in await a.memories.get_unscoped(ids)] == [
        m.to_public_dict() for m in await b.memories.get_unscoped(ids)
    ]
    assert await a.memories.indexed_count() == await b.memories.indexed_count()


async def _same_turn_reads(a: Storage, b: Storage, turns: list[StoredMessage], workspace: str) -> None:
    ids = [t.id for t in turns]
    assert await a.turns.count() == await b.turns.count()
    # Every field alike (the dataclasses compare them all).
    assert await a.turns.get_unscoped(ids) == await b.turns.get_unscoped(ids)
    for scope in {t.scope for t in turns}:
        for before, after in ((None, None), (NOW - 10 * DAY, None), (None, NOW - 12 * DAY)):
            assert _ids(await a.turns.recent(scope, 7, before, after)) == _ids(
                await b.turns.recent(scope, 7, before, after)
            )
        left = await a.turns.between(scope, NOW - 30 * DAY, NOW, ("user", "assistant"), 5)
        assert _ids(left) == _ids(await b.turns.between(scope, NOW - 30 * DAY, NOW, ("user", "assistant"), 5))
    for turn in turns[::5]:
        if turn.external_id:
            found = [await s.turns.by_external_id(turn.scope, turn.external_id) for s in (a, b)]
            assert [f.id if f else None for f in found[:1]] == [f.id if f else None for f in found[1:]]
    for audience in _audiences(workspace):
        assert _ids(await a.turns.visible(ids, audience)) == _ids(await b.turns.visible(ids, audience))
        pairs = [await s.turns.visible_with_next(ids, audience, 8 * 3600) for s in (a, b)]
        assert [(t.id, n.id if n else None) for t, n in pairs[0]] == [
            (t.id, n.id if n else None) for t, n in pairs[1]
        ], audience
        for offset in (0.0, 7200.0, -5 * 3600.0):
            left = await a.turns.visible_between(audience, NOW - 30 * DAY, NOW, 2, offset, ("user",))
            right = await b.turns.visible_between(audience, NOW - 30 * DAY, NOW, 2, offset, ("user",))
            assert _ids(left) == _ids(right), (audience, offset)
            days = [
                await s.turns.days(audience, NOW - 30 * DAY, NOW, offset, ("user", "assistant"), ids[:10])
                for s in (a, b)
            ]
            assert days[0] == days[1], (audience, offset)
        query_vector = _vector("quokka deploy pipeline")
        dense = [await s.turns.search(audience, query_vector, 500) for s in (a, b)]
        assert {h.id for h in dense[0]} == {h.id for h in dense[1]}, audience
        # Said in a period: the same turns, and only turns of that period (both ends checked).
        for since, until in ((NOW - 10 * DAY, NOW - 3 * DAY), (NOW - 30 * DAY, NOW)):
            dated = [await s.turns.search_between(audience, query_vector, since, until, 500) for s in (a, b)]
            assert {h.id for h in dated[0]} == {h.id for h in dated[1]}, (audience, since)
            said = {t.id: t.created_at for t in turns}
            assert all(since <= said[h.id] < until for h in dated[0]), (audience, since)
            assert {h.id for h in dated[0]} <= {h.id for h in dense[0]}, (audience, since)
        # Telling of a period: the same turns with the same scores, and only those telling of it
        # (the order of near ties may differ, as for `search`: float32 against float8 cosines).
        told_of = {t.id: told_days(t) for t in turns}
        for since, until in ((NOW - 10 * DAY, NOW - 3 * DAY), (NOW - 30 * DAY, NOW + 30 * DAY)):
            told = [await s.turns.search_told(audience, query_vector, since, until, 500) for s in (a, b)]
            assert {h.id: h.score for h in told[1]} == pytest.approx(
                {h.id: h.score for h in told[0]}, rel=1e-5
            )
            readable = {t.id for t in await a.turns.visible(ids[:SEARCHABLE_TURNS], audience)}
            expected = {
                i for i in readable if (d := told_of[i]) is not None and since <= d[0] and d[1] <= until
            }
            assert {h.id for h in told[0]} == expected, (audience, since)
        assert any(told_of.values())
        lexical = [(await s.turns.hybrid_search(audience, query_vector, "zeppelin", 500))[1] for s in (a, b)]
        _same_ranking(lexical[0], lexical[1], audience)


def _same_ranking(left: Sequence[VectorHit], right: Sequence[VectorHit], context: object) -> None:
    """The same hits in the same order, with the same scores."""
    assert [h.id for h in left] == [h.id for h in right], context
    assert [h.score for h in right] == pytest.approx([h.score for h in left], rel=1e-5), context


async def _same_summary_reads(a: Storage, b: Storage, turns: list[StoredMessage], workspace: str) -> None:
    ids = [f"s{n:03d}" for n in range(400)]
    assert await a.summaries.get_unscoped(ids) == await b.summaries.get_unscoped(ids)
    # Every third reader of them all (those reading in `workspace`), and nobody.
    audiences = [None, *(r for r in _audiences()[::3] if r.workspace_id == workspace)]
    for scope in {t.scope for t in turns}:
        for audience in audiences:
            for kw in (
                {},
                {"level": 1},
                {"pending_only": True},
                {"kinds": (SummaryKind.THREAD,)},
                {"kinds": (SummaryKind.TURNS,), "pending_only": True},
            ):
                left = await a.summaries.query(scope, audience=audience, now=NOW, **kw)  # type: ignore[arg-type]
                right = await b.summaries.query(scope, audience=audience, now=NOW, **kw)  # type: ignore[arg-type]
                assert _ids(left) == _ids(right), (scope, audience, kw)
            threads = [await s.summaries.thread(scope, audience, NOW) for s in (a, b)]
            assert [t.id if t else None for t in threads[:1]] == [t.id if t else None for t in threads[1:]]
        for turn in [t for t in turns if t.scope == scope][:3]:
            found = [await s.summaries.find_turn(scope, [turn.id]) for s in (a, b)]
            assert [f.id if f else None for f in found[:1]] == [f.id if f else None for f in found[1:]]
    for audience in _audiences(workspace):
        assert _ids(await a.summaries.visible(ids, audience, NOW)) == _ids(
            await b.summaries.visible(ids, audience, NOW)
        )
        query_vector = _vector("summary of alice says quokka")
        found = [await s.summaries.search(audience, query_vector, 500, NOW, -1.0) for s in (a, b)]
        assert {x.id for x, _ in found[0]} == {x.id for x, _ in found[1]}, audience


async def _same_people(a: Storage, b: Storage) -> None:
    # Profiles come in no particular order on either backend.
    assert sorted(await a.people.profiles(PLATFORM, "guild-1", AGENT, PEOPLE)) == sorted(
        await b.people.profiles(PLATFORM, "guild-1", AGENT, PEOPLE)
    )
    assert await a.people.names_of(PLATFORM, "guild-1", PEOPLE) == await b.people.names_of(
        PLATFORM, "guild-1", PEOPLE
    )
    for names, ids in ((["Sam"], []), (["ALICE", "nobody"], ["carol"]), ([], ["bob"])):
        assert await a.people.users_named(PLATFORM, "guild-1", names, ids) == await b.people.users_named(
            PLATFORM, "guild-1", names, ids
        )
    for s in (a, b):
        assert await s.people.remove_aliases(PLATFORM, "guild-1", "alice", "Sam") == 1
        await s.people.save_profile(PLATFORM, "guild-1", "bob", AGENT, None, NOW)
    assert await a.people.names_of(PLATFORM, "guild-1", PEOPLE) == await b.people.names_of(
        PLATFORM, "guild-1", PEOPLE
    )
    assert sorted(await a.people.profiles(PLATFORM, "guild-1", AGENT, PEOPLE)) == sorted(
        await b.people.profiles(PLATFORM, "guild-1", AGENT, PEOPLE)
    )


# One run a workspace, so that pytest-xdist can spread the reads over its workers: each run fills
# both backends alike and compares every storage-wide read, and each read as the readers in it.
@pytest.mark.parametrize("workspace", WORKSPACES)
async def test_every_read_agrees_before_and_after_narrowing(
    both: tuple[Storage, Storage], workspace: str
) -> None:
    embedded, postgres = both
    memories, turns = await _fill(embedded, 7)
    memories_pg, _ = await _fill(postgres, 7)
    assert [m.id for m in memories] == [m.id for m in memories_pg]

    await _same_memory_reads(embedded, postgres, memories, workspace)
    await _same_turn_reads(embedded, postgres, turns, workspace)
    await _same_summary_reads(embedded, postgres, turns, workspace)
    await _same_people(embedded, postgres)
    assert await embedded.conversations.kinds() == await postgres.conversations.kinds()

    for conversation in (
        Conversation(PLATFORM, "guild-1", "secret", ConversationKind.PRIVATE),
        Conversation(PLATFORM, "guild-2", "t-1", ConversationKind.PRIVATE),
    ):
        dry = [await s.conversations.narrow(conversation, True) for s in (embedded, postgres)]
        assert {k: sorted(v) for k, v in dry[0].items()} == {k: sorted(v) for k, v in dry[1].items()}
        done = [await s.conversations.narrow(conversation, False) for s in (embedded, postgres)]
        assert {k: sorted(v) for k, v in done[0].items()} == {k: sorted(v) for k, v in done[1].items()}
        assert any(done[0].values())
        for s, found in zip((embedded, postgres), done, strict=True):
            await s.memories.rescope(found["memories"], conversation.channel_id)
            await s.turns.rescope(found["messages"], conversation.channel_id)
            await s.summaries.rescope(found["summaries"], conversation.channel_id)

    await _same_memory_reads(embedded, postgres, memories, workspace)
    await _same_turn_reads(embedded, postgres, turns, workspace)
    await _same_summary_reads(embedded, postgres, turns, workspace)

    # Deletes and restores agree too.
    gone = [m.id for m in memories[::4]]
    assert await embedded.memories.delete(gone) == await postgres.memories.delete(gone)
    for memory in memories[-20:]:
        for s in (embedded, postgres):
            older = await s.memories.superseded_unscoped(memory.id)
            if older is not None:
                await s.memories.restore(older, _vector(older.content), NOW + 1)
    await _same_memory_reads(embedded, postgres, memories, workspace)


# Chat as it comes: words repeated in one row, rows of every length, words the two analysers
# (PostgreSQL's English configuration and LanceDB's) stem or stop differently ("does", "only",
# "evening", "organization"), hyphens, apostrophes, numbers and accents.
CHAT = [
    "Does the pottery class only run in the evening? The pottery teacher said only Mondays.",
    "Pottery pottery pottery: I am obsessed with pottery now, honestly it's all I do",
    "The organization's charity run raised $4,000 for the shelter last week",
    "I organized a well-known charity event in the evening, with my sister's café friends",
    "ok",
    "Yes!",
    "What does Mel do on weekends? She paints, runs, and does pottery with the kids.",
    "International adoption agencies: the organization said the process takes 2-3 years",
    "We went camping at the lake; the kids roasted marshmallows, and we watched the stars all evening",
    "Only the evening shift is open; does that work for you, or only weekends?",
    "My café order is a flat white, always, every single morning before the run",
    "Mel's kids love the pottery workshop and the camping trips they take every summer",
]
QUERIES = [
    "What does Mel do with pottery in the evening?",
    "Which organization ran the charity event?",
    "only evening café",
    "How long does international adoption take?",
    "camping lake stars kids",
    "the",
]


async def test_full_text_ranks_the_same_rows_alike_on_both_backends(both: tuple[Storage, Storage]) -> None:
    scope = Scope(PLATFORM, "guild-1", "general", AGENT)
    viewer = Audience(PLATFORM, "guild-1", AGENT, viewer_id="alice", channel_id="general")
    memories = [
        memory_row(
            text,
            id=f"c{n:02d}",
            confidence=0.9,
            scope=scope,
            user_id="alice",
            created_at=NOW - n,
            updated_at=NOW - n,
            content_hash=content_hash(text),
        )
        for n, text in enumerate(CHAT)
    ]
    turns = [
        StoredMessage(
            id=f"u{n:02d}",
            scope=scope,
            author_id="alice",
            author_name="Alice",
            role="user",
            content=text,
            created_at=NOW - 100 + n,
            visibility=Visibility.WORKSPACE,
        )
        for n, text in enumerate(CHAT)
    ]
    vectors = [_vector(text) for text in CHAT]
    for storage in both:
        await storage.memories.add_many(memories, vectors)
        await storage.turns.add(turns, vectors, [f"Alice: {text}" for text in CHAT])
    for query in QUERIES:
        vector = _vector(query)
        found = [await s.memories.hybrid_search(viewer, vector, query, 8, NOW) for s in both]
        _same_ranking(found[0][1], found[1][1], query)
        said = [await s.turns.hybrid_search(viewer, vector, query, 8) for s in both]
        _same_ranking(said[0][1], said[1][1], query)
    # Ties (rows of the same words and length) go by arrival, then by id, on both.
    twins = [
        dataclasses.replace(memories[0], id="t0", content="tie breaker"),  # the newer
        dataclasses.replace(memories[1], id="t2", content="tie breaker"),
        dataclasses.replace(memories[1], id="t1", content="tie breaker"),  # the same instant
    ]
    for storage in both:
        await storage.memories.add_many(twins, [_vector("tie breaker")] * 3)
    vector = _vector("tie breaker")
    for k in (3, 2):
        ties = [(await s.memories.hybrid_search(viewer, vector, "tie breaker", k, NOW)) for s in both]
        for dense, lexical in ties:
            assert [h.id for h in lexical] == ["t1", "t2", "t0"][:k]
            # Equal vectors too, at the cut as well.
            assert [h.id for h in dense[:k]] == ["t1", "t2", "t0"][:k]


async def test_memories_of_one_instant_come_in_their_arrival_order_on_both_backends(
    both: tuple[Storage, Storage],
) -> None:
    # One turn's memories share their instant; their ids (random in the bot) say nothing of the
    # order they were written in.
    scope = Scope(PLATFORM, "guild-1", "general", AGENT)
    viewer = Audience(PLATFORM, "guild-1", AGENT, viewer_id="alice", channel_id="general")
    instant = NOW - DAY
    batch = [
        memory_row(
            f"alice said {word}",
            id=memory_id,
            importance=0.8,
            scope=scope,
            user_id="alice",
            created_at=instant,
            updated_at=instant,
            content_hash=content_hash(f"alice said {word}"),
        )
        for memory_id, word in zip(("k3", "k0", "k5", "k1", "k4", "k2"), WORDS, strict=False)
    ]
    latest_first = [m.id for m in reversed(batch)]
    for storage in both:
        await storage.memories.add_many(batch[:4], [_vector(m.content) for m in batch[:4]])
        for memory in batch[4:]:
            await storage.memories.add(memory, _vector(memory.content), None, NOW)
    for storage in both:
        memories = storage.memories
        assert _ids(await memories.query(viewer, NOW, MemoryQuery(limit=50))) == latest_first
        assert _ids(await memories.query(viewer, NOW, MemoryQuery(order="important"))) == latest_first
        # The cut and the pages keep to it.
        assert _ids(await memories.query(viewer, NOW, MemoryQuery(limit=2))) == latest_first[:2]
        pages = [await memories.query(viewer, NOW, MemoryQuery(limit=2, offset=n)) for n in (0, 2, 4)]
        assert [m.id for page in pages for m in page] == latest_first
        assert _ids(await memories.between(viewer, NOW, instant, instant + 1)) == latest_first
        assert (
            _ids(await memories.about(viewer, NOW, ["alice"], list(MemoryType), limit=3)) == latest_first[:3]
        )
        # The pre-hook's listings, read together (one statement on PostgreSQL).
        reads = [
            about_read(["alice"], list(MemoryType), limit=4),
            between_read(instant, instant + 1, None, 5),
            MemoryRead(MemoryQuery(order="important", limit=3)),
            MemoryRead(MemoryQuery(since=instant, limit=50)),
        ]
        assert [_ids(rows) for rows in await memories.read_many(viewer, NOW, reads, {})] == [
            latest_first[:4],
            latest_first[:5],
            latest_first[:3],
            latest_first,
        ]


async def test_equal_vectors_at_the_k_cut_are_kept_alike_on_both_backends(
    both: tuple[Storage, Storage],
) -> None:
    # The same note learned eight times (in two instants, ids in no useful order): whichever k
    # the search asks for, both backends keep the same rows, the earliest arrival first.
    scope = Scope(PLATFORM, "guild-1", "general", AGENT)
    viewer = Audience(PLATFORM, "guild-1", AGENT, viewer_id="alice", channel_id="general")
    twins = [
        memory_row(
            "the same note again",
            id=memory_id,
            scope=scope,
            created_at=NOW - (DAY if n < 4 else 2 * DAY),
            updated_at=NOW - DAY,
            content_hash=content_hash(f"the same note again {n}"),
        )
        for n, memory_id in enumerate(("e5", "e1", "e7", "e3", "e6", "e0", "e4", "e2"))
    ]
    others = [memory_row(f"{word} elsewhere", id=f"o{n}", scope=scope) for n, word in enumerate(WORDS[:6])]
    expected = ["e0", "e2", "e4", "e6", "e1", "e3", "e5", "e7"]
    vector = _vector("the same note again")
    for storage in both:
        await storage.memories.add_many(others, [_vector(m.content) for m in others])
        await storage.memories.add_many(twins, [vector] * len(twins))
    for k in (8, 5, 3, 2, 1):
        for storage in both:
            dense = await storage.memories.search(viewer, vector, k, NOW)
            assert [h.id for h in dense] == expected[:k], (storage, k)
            found, _ = await storage.memories.hybrid_search(viewer, vector, "same note", k, NOW)
            assert [h.id for h in found] == expected[:k], (storage, k)
