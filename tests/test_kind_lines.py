"""A kind memory's line in the block names the other instances of its kind ("also a cat (3 May)"),
as the viewer may read them, once per conversation; and how such memories are read back."""

from __future__ import annotations

import dataclasses
from collections.abc import AsyncIterator

import pytest

from memory.engine import MemoryEngine
from memory.models import MemoryDraft, Scope, Visibility
from memory.prehook import PreHook, PrehookConfig, PrehookResult
from memory.text import KindNote, extract, read_kind_note
from tests.helpers import GENERAL, SUNDAY_NOON, FakeClock, audience, insert_raw
from tests.helpers import prehook_request as request

STORAGE_BACKENDS = ("embedded", "postgres")

SECRET = Scope("discord", "guild-1", "secret", "default")
# One line in the block, so the other instances can only come on it.
ONE_LINE = PrehookConfig(max_injection_count=1)
QUESTION = "What pets does Ana have?"


def kind(content: str, tag: str, scope: Scope = GENERAL, user: str = "ana", **fields: object) -> MemoryDraft:
    """A kind memory about `user` as the extraction rules write one, said by them."""
    thing = content.split(" include ", 1)[1].split(":", 1)[0]
    return MemoryDraft(
        content=content,
        scope=scope,
        subjects=[user, f"kind:{tag}", *thing.casefold().split()],
        user_id=user,
        author_id=user,
        **fields,  # type: ignore[arg-type]
    )


PETS = [
    kind("Ana's pets include a dog: Ana adopted a dog named Rex", "pet"),
    kind("Ana's pets include turtles: Ana's turtles love their new tank", "pet"),
    kind("Ana's pets include a hamster: Ana's hamster runs all night", "pet"),
]


@pytest.fixture
async def one_line(engine: MemoryEngine, clock: FakeClock) -> AsyncIterator[PreHook]:
    """The pre-hook with `ONE_LINE`, closed after the test."""
    hook = PreHook(engine, ONE_LINE, clock=clock)
    yield hook
    await hook.aclose()


async def ask(hook: PreHook, text: str = QUESTION) -> PrehookResult:
    return await hook.run(request(text, audience("ana"), participants=["ana"]))


def line_of(result: PrehookResult, head: str) -> str:
    assert result.block is not None
    lines = [line for line in result.block.splitlines() if head in line]
    assert len(lines) == 1, result.block
    return lines[0]


async def test_a_kind_memory_names_the_other_instances_of_its_kind_on_its_line(
    engine: MemoryEngine, one_line: PreHook
) -> None:
    await insert_raw(
        engine,
        [
            *PETS,
            kind("Bob's pets include a parrot: Bob's parrot talks", "pet", user="bob"),
            kind("Ana's outdoor activities include hiking: Ana went hiking", "activity"),
        ],
    )
    result = await ask(one_line)
    line = line_of(result, "Ana's pets include")
    assert "; also " in line
    for thing in ("a dog", "turtles", "a hamster"):
        assert line.count(f'"{thing}"') + line.count(f"include {thing}:") == 1, line
    assert "parrot" not in line and "hiking" not in line
    # The instances said on the line are injected memories too (recorded, counted, scored).
    assert sorted(m.content for m in result.injected) == sorted(d.content for d in PETS)


async def test_instances_already_given_to_the_conversation_are_not_said_again(
    engine: MemoryEngine, one_line: PreHook
) -> None:
    await insert_raw(engine, PETS)
    first = await ask(one_line)
    again = await ask(one_line)
    assert len(first.injected) == 3
    assert again.injected == []


async def test_only_what_the_conversation_may_read_is_named(engine: MemoryEngine, one_line: PreHook) -> None:
    await insert_raw(
        engine,
        [
            *PETS,
            kind(
                "Ana's pets include a cat: Ana's cat sleeps all day",
                "pet",
                SECRET,
                visibility=Visibility.CHANNEL,
            ),
        ],
    )
    in_general = await ask(one_line)
    in_secret = await one_line.run(request(QUESTION, audience("ana", channel="secret"), participants=["ana"]))
    assert "cat" not in (in_general.block or "")
    assert all("cat" not in m.content for m in in_general.injected)
    # In the channel it was said in, the cat is one of the pets like the others.
    assert any("a cat" in m.content for m in in_secret.injected)


async def test_the_instances_can_be_turned_off(engine: MemoryEngine, clock: FakeClock) -> None:
    await insert_raw(engine, PETS)
    hook = PreHook(engine, dataclasses.replace(ONE_LINE, kind_siblings=0), clock=clock)
    try:
        result = await ask(hook)
    finally:
        await hook.aclose()
    assert len(result.injected) == 1
    assert "; also " not in (result.block or "")


@pytest.mark.parametrize(
    "text",
    [
        "I adopted a dog last week",
        'I finally finished reading "Dune"',
        "I baked a cake yesterday",
        "I went hiking with my sister",
        "J'ai adopté un chien",
        "Je lis le roman « Dune » en ce moment",
    ],
)
def test_every_kind_memory_the_rules_write_is_read_back(text: str) -> None:
    notes = [m for m in extract(text, "Léa", SUNDAY_NOON) if any(s.startswith("kind:") for s in m.subjects)]
    assert notes, text
    for note in notes:
        read = read_kind_note(note.content)
        assert read is not None, note.content
        assert note.content.startswith(f"{read.kind} {read.thing}")


def test_a_quoted_title_keeps_its_colon_and_other_text_is_no_kind_note() -> None:
    assert read_kind_note('Ana\'s movies and TV shows include "Star Wars: A New Hope": Ana watched it') == (
        KindNote("Ana's movies and TV shows include", '"Star Wars: A New Hope"')
    )
    assert read_kind_note("Les animaux de Léa incluent un chien : Léa a adopté un chien") == KindNote(
        "Les animaux de Léa incluent", "un chien"
    )
    assert read_kind_note("Ana's pets include a dog") == KindNote("Ana's pets include", "a dog")
    assert read_kind_note("Ana lives in Lyon") is None
