"""A question asking by kind ("what are Léa's hobbies?") reads that kind of memory about whom it names."""

from __future__ import annotations

import pytest

from memory.drafts import build_memory
from memory.engine import MemoryEngine
from memory.models import Audience, MemoryType, Scope, Visibility
from memory.prehook import PreHook, PrehookConfig
from memory.prehook.kinds import about_named, asked_kinds
from tests.helpers import DAY, FakeClock, draft
from tests.helpers import prehook_request as request

# The read goes through the storage seam: every test here runs on both backends.
STORAGE_BACKENDS = ("embedded", "postgres")


@pytest.mark.parametrize(
    ("text", "kinds"),
    [
        ("What sports does Léa play?", ["kind:activity"]),
        ("what are Bob's hobbies", ["kind:activity"]),
        ("What does Léa do for fun?", ["kind:activity"]),
        ("Which pets does Bob have?", ["kind:pet"]),
        ("What activities and animals does Bob like?", ["kind:activity", "kind:pet"]),
        ("Which countries has Bob visited?", ["kind:place"]),
        ("When is the release?", []),
        ("I sported a hat", []),  # a word that only starts like one
    ],
)
def test_the_kinds_a_question_asks_for(text: str, kinds: list[str]) -> None:
    assert asked_kinds(text) == kinds


def test_only_the_memories_about_someone_the_question_names_are_kept() -> None:
    lea = build_memory(draft("Léa hikes", subjects=["léa", "kind:activity", "hiking"], user_id="léa"), 0.0)
    bob = build_memory(
        draft("Bob's pets include a dog", subjects=["bob", "kind:pet", "dog"], user_id="bob"), 0.0
    )
    assert about_named([lea, bob], "What are Léa's hobbies?", "alice") == [lea]
    assert about_named([lea, bob], "what does bob do outdoors", "alice") == [bob]
    assert about_named([lea, bob], "What are my hobbies?", "bob") == [bob]  # the asker's own
    assert about_named([lea, bob], "What are the hobbies here?", "bob") == []


async def _kind_memories(engine: MemoryEngine, clock: FakeClock) -> None:
    old = clock.now - 40 * DAY  # neither recent nor fresh
    for content, user, subjects in (
        ("Léa went kayaking at dawn with her cousins", "léa", ["léa", "kind:activity", "kayaking"]),
        ("Bob went kayaking at dawn with his cousins", "bob", ["bob", "kind:activity", "kayaking"]),
    ):
        await engine.remember(draft(content, user_id=user, subjects=subjects, created_at=old))
    dm = Scope("discord", "guild-1", "dm-léa", "default")
    await engine.remember(
        draft(
            "Léa goes climbing in secret",
            dm,
            visibility=Visibility.PRIVATE,
            author_id="léa",
            user_id="léa",
            subjects=["léa", "kind:activity", "climbing"],
            created_at=old,
            memory_type=MemoryType.FACT,
        )
    )


@pytest.mark.parametrize("kind_read", [False, True])
async def test_a_question_by_kind_injects_that_kind_about_whom_it_names_when_on(
    engine: MemoryEngine, clock: FakeClock, kind_read: bool
) -> None:
    await _kind_memories(engine, clock)
    # No search hit is relevant enough here: only the kind read can bring a memory in.
    hook = PreHook(engine, PrehookConfig(min_relevance=0.99, kind_read=kind_read), clock=clock)
    try:
        result = await hook.run(request("What does Léa do for fun?"))
    finally:
        await hook.aclose()
    injected = [m.content for m in result.injected]
    # Never Bob's (not named), never Léa's private note in a shared channel.
    assert injected == (["Léa went kayaking at dawn with her cousins"] if kind_read else [])


async def test_the_kind_read_keeps_private_notes_to_their_dm(engine: MemoryEngine, clock: FakeClock) -> None:
    await _kind_memories(engine, clock)
    hook = PreHook(engine, PrehookConfig(min_relevance=0.99, kind_read=True), clock=clock)
    lea_dm = Audience("discord", "guild-1", "default", viewer_id="léa", channel_id="dm-léa", private_ok=True)
    try:
        result = await hook.run(request("What are my hobbies?", lea_dm, "dm-léa", ("léa",)))
    finally:
        await hook.aclose()
    assert "Léa goes climbing in secret" in [m.content for m in result.injected]
