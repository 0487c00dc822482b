"""A statement of where someone lives, works or how old they are, or of a taste, that a newer one
replaced says so in the block ("since then: lives in Lyon"), as the profile line keeps only the newest."""

from __future__ import annotations

from dataclasses import replace

from memory.engine import MemoryEngine
from memory.models import Audience, MemoryDraft, MemoryType, Scope, Visibility
from memory.prehook import PreHook, PrehookResult
from tests.helpers import DAY, GENERAL, FakeClock, audience, insert_raw
from tests.helpers import prehook_request as request

STORAGE_BACKENDS = ("embedded", "postgres")
PREF = MemoryType.PREFERENCE


def about(user: str, content: str, memory_type: MemoryType = MemoryType.IDENTITY) -> MemoryDraft:
    """What `user` said of themselves, their name first (as the extractor writes it)."""
    return MemoryDraft(
        content=content,
        scope=GENERAL,
        memory_type=memory_type,
        subjects=[content.split(" ", 1)[0]],
        user_id=user,
        author_id=user,
    )


async def said_in_turn(engine: MemoryEngine, clock: FakeClock, *drafts: MemoryDraft) -> None:
    """Each memory a day after the one before, so which is newer is never a tie."""
    for d in drafts:
        clock.advance(DAY)
        await insert_raw(engine, [d])


def line_of(result: PrehookResult, content: str) -> str:
    assert result.block is not None
    lines = [line for line in result.block.splitlines() if f'"{content}"' in line]
    assert len(lines) == 1, result.block
    return lines[0]


async def test_an_older_home_says_where_the_person_lives_now(
    engine: MemoryEngine, clock: FakeClock, hook: PreHook
) -> None:
    await said_in_turn(
        engine,
        clock,
        about("ana", "Ana lives in Paris"),
        about("bob", "Bob lives in Rome"),
        about("ana", "Ana works at Acme"),
        about("ana", "Ana lives in Lyon"),
    )
    result = await hook.run(
        request("Where do Ana and Bob live?", audience("ana"), participants=["ana", "bob"])
    )
    assert 'since then: "lives in Lyon"' in line_of(result, "Ana lives in Paris")
    # The newest says nothing more, and neither does anyone else's home or another field.
    for content in ("Ana lives in Lyon", "Bob lives in Rome", "Ana works at Acme"):
        assert "since then" not in line_of(result, content)


async def test_fields_of_many_values_and_the_same_value_said_again_are_left_as_they_are(
    engine: MemoryEngine, clock: FakeClock, hook: PreHook
) -> None:
    await said_in_turn(
        engine,
        clock,
        about("ana", "Ana speaks French"),
        about("ana", "Ana speaks Spanish"),
        about("ana", "Ana is a nurse"),
        about("ana", "Ana is a nurse in Lyon"),
    )
    result = await hook.run(request("What does Ana do and speak?", audience("ana"), participants=["ana"]))
    assert result.block is not None
    assert (
        result.block.count("since then") == 1
    )  # "nurse" and "nurse in Lyon" differ; languages do not replace
    assert "since then" not in line_of(result, "Ana speaks French")


async def test_a_taste_that_changed_says_what_holds_now(
    engine: MemoryEngine, clock: FakeClock, hook: PreHook
) -> None:
    await said_in_turn(
        engine,
        clock,
        about("sam", "Sam loves working saturdays", PREF),
        about("ana", "Ana likes coffee", PREF),
        about("sam", "Sam likes coffee", PREF),
        about("sam", "Sam dislikes working saturdays", PREF),
        about("ana", "Ana no longer likes coffee", PREF),
    )
    result = await hook.run(
        request(
            "Do Sam and Ana like coffee and working saturdays?",
            audience("sam"),
            participants=["sam", "ana"],
        )
    )
    assert 'since then: "dislikes working saturdays"' in line_of(result, "Sam loves working saturdays")
    assert 'since then: "no longer likes coffee"' in line_of(result, "Ana likes coffee")
    # Sam's coffee is his own taste, and the newest of each says nothing more.
    for content in ("Sam likes coffee", "Sam dislikes working saturdays", "Ana no longer likes coffee"):
        assert "since then" not in line_of(result, content)


async def test_a_newer_statement_the_reader_may_not_see_says_nothing(
    engine: MemoryEngine, clock: FakeClock, hook: PreHook
) -> None:
    """Sam's newer word, said in his DM, changes no line shown in #general: only what the block
    shows is compared, so a private statement never leaks as a "since then"."""
    dm = Scope("discord", "guild-1", "dm-sam", "default")
    await said_in_turn(
        engine,
        clock,
        about("sam", "Sam likes coffee", PREF),
        about("sam", "Sam lives in Paris"),
        replace(about("sam", "Sam no longer likes coffee", PREF), scope=dm, visibility=Visibility.PRIVATE),
        replace(about("sam", "Sam lives in Lyon"), scope=dm, visibility=Visibility.PRIVATE),
    )
    question = "Does Sam like coffee, and where does he live?"
    shared = await hook.run(request(question, audience("sam"), participants=["sam", "ana"]))
    for content in ("Sam likes coffee", "Sam lives in Paris"):
        assert "since then" not in line_of(shared, content)
    assert shared.block is not None and "no longer" not in shared.block and "Lyon" not in shared.block
    # In his DM, where he may read both, the block says which is the latest.
    own = Audience("discord", "guild-1", "default", viewer_id="sam", channel_id="dm-sam", private_ok=True)
    private = await hook.run(request(question, own, "dm-sam", ["sam"]))
    assert 'since then: "no longer likes coffee"' in line_of(private, "Sam likes coffee")
    assert 'since then: "lives in Lyon"' in line_of(private, "Sam lives in Paris")
