"""A statement of where someone lives, works or how old they are, or of a taste, that a newer one
replaced says so in the block ("since then: lives in Lyon"), as the profile line keeps only the newest."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import replace

import pytest

from memory.engine import MemoryEngine
from memory.models import Audience, MemoryDraft, MemoryType, Scope, Visibility
from memory.prehook import PreHook, PrehookResult
from tests.helpers import DAY, GENERAL, FakeClock, audience, insert_raw
from tests.helpers import prehook_request as request

STORAGE_BACKENDS = ("embedded", "postgres")
PREF = MemoryType.PREFERENCE


def about(content: str, memory_type: MemoryType = MemoryType.IDENTITY) -> MemoryDraft:
    """What the person `content` names first said of themselves, their name first (as the extractor
    writes it)."""
    name = content.split(" ", 1)[0]
    return MemoryDraft(
        content=content,
        scope=GENERAL,
        memory_type=memory_type,
        subjects=[name],
        user_id=name.lower(),
        author_id=name.lower(),
    )


Said = Callable[..., Awaitable[None]]


@pytest.fixture
def said(engine: MemoryEngine, clock: FakeClock) -> Said:
    """Stores each memory (a draft, or a content that `about` reads) a day after the one before, so
    which is newer is never a tie."""

    async def said(*memories: str | MemoryDraft, memory_type: MemoryType = MemoryType.IDENTITY) -> None:
        for memory in memories:
            clock.advance(DAY)
            await insert_raw(engine, [about(memory, memory_type) if isinstance(memory, str) else memory])

    return said


async def asked(hook: PreHook, question: str, *participants: str) -> PrehookResult:
    """The pre-hook's answer to `question`, asked in #general by the first of `participants`."""
    return await hook.run(request(question, audience(participants[0]), participants=list(participants)))


def line_of(result: PrehookResult, content: str) -> str:
    assert result.block is not None
    lines = [line for line in result.block.splitlines() if f'"{content}"' in line]
    assert len(lines) == 1, result.block
    return lines[0]


async def test_an_older_home_says_where_the_person_lives_now(said: Said, hook: PreHook) -> None:
    await said("Ana lives in Paris", "Bob lives in Rome", "Ana works at Acme", "Ana lives in Lyon")
    result = await asked(hook, "Where do Ana and Bob live?", "ana", "bob")
    assert 'since then: "lives in Lyon"' in line_of(result, "Ana lives in Paris")
    # The newest says nothing more, and neither does anyone else's home or another field.
    for content in ("Ana lives in Lyon", "Bob lives in Rome", "Ana works at Acme"):
        assert "since then" not in line_of(result, content)


async def test_fields_of_many_values_and_the_same_value_said_again_are_left_as_they_are(
    said: Said, hook: PreHook
) -> None:
    await said("Ana speaks French", "Ana speaks Spanish", "Ana is a nurse", "Ana is a nurse in Lyon")
    result = await asked(hook, "What does Ana do and speak?", "ana")
    assert result.block is not None
    assert (
        result.block.count("since then") == 1
    )  # "nurse" and "nurse in Lyon" differ; languages do not replace
    assert "since then" not in line_of(result, "Ana speaks French")


async def test_a_taste_that_changed_says_what_holds_now(said: Said, hook: PreHook) -> None:
    await said(
        "Sam loves working saturdays",
        "Ana likes coffee",
        "Sam likes coffee",
        "Sam dislikes working saturdays",
        "Ana no longer likes coffee",
        memory_type=PREF,
    )
    result = await asked(hook, "Do Sam and Ana like coffee and working saturdays?", "sam", "ana")
    assert 'since then: "dislikes working saturdays"' in line_of(result, "Sam loves working saturdays")
    assert 'since then: "no longer likes coffee"' in line_of(result, "Ana likes coffee")
    # Sam's coffee is his own taste, and the newest of each says nothing more.
    for content in ("Sam likes coffee", "Sam dislikes working saturdays", "Ana no longer likes coffee"):
        assert "since then" not in line_of(result, content)


async def test_a_newer_statement_the_reader_may_not_see_says_nothing(said: Said, hook: PreHook) -> None:
    """Sam's newer word, said in his DM, changes no line shown in #general: only what the block
    shows is compared, so a private statement never leaks as a "since then"."""
    dm = Scope("discord", "guild-1", "dm-sam", "default")
    await said(
        about("Sam likes coffee", PREF),
        "Sam lives in Paris",
        replace(about("Sam no longer likes coffee", PREF), scope=dm, visibility=Visibility.PRIVATE),
        replace(about("Sam lives in Lyon"), scope=dm, visibility=Visibility.PRIVATE),
    )
    question = "Does Sam like coffee, and where does he live?"
    shared = await asked(hook, question, "sam", "ana")
    for content in ("Sam likes coffee", "Sam lives in Paris"):
        assert "since then" not in line_of(shared, content)
    assert shared.block is not None and "no longer" not in shared.block and "Lyon" not in shared.block
    # In his DM, where he may read both, the block says which is the latest.
    own = Audience("discord", "guild-1", "default", viewer_id="sam", channel_id="dm-sam", private_ok=True)
    private = await hook.run(request(question, own, "dm-sam", ["sam"]))
    assert 'since then: "no longer likes coffee"' in line_of(private, "Sam likes coffee")
    assert 'since then: "lives in Lyon"' in line_of(private, "Sam lives in Paris")
