"""The `/memory` command table, text parser, executor and plain-text rendering, on real stores."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from adapters.command_render import render_text
from adapters.command_table import COMMANDS, CommandResult, Invoker, format_invocation, parse_command, usage
from bot.commands import NOT_FOUND, MemoryCommands
from memory.engine import MemoryEngine
from memory.errors import CommandError
from memory.models import Memory, MemoryType, Scope, Visibility
from tests import helpers
from tests.helpers import GENERAL as GUILD
from tests.helpers import FakeClock, searchable_memory_ids, stored_memory

# Every command on both storage backends.
STORAGE_BACKENDS = ("embedded", "postgres")

RANDOM = Scope("discord", "guild-1", "random", "default")
OTHER_GUILD = Scope("discord", "guild-2", "general", "default")
ALICE = Invoker("discord", "guild-1", "general", "111")
BOB = Invoker("discord", "guild-1", "general", "222")
ADMIN = Invoker("discord", "guild-1", "general", "999", is_admin=True)
OTHER_ADMIN = Invoker("discord", "guild-2", "general", "999", is_admin=True)

# Distinct facts: the write path's dedup must keep every one of them apart.
FACTS = [
    "Alice plays the cello in a string quartet",
    "The team standup moved to 9:30 every weekday",
    "Alice's cat is named Pixel",
    "The staging database runs PostgreSQL 16",
    "Alice is allergic to peanuts",
    "Quarterly planning happens in the first week of April",
    "Alice commutes by bicycle",
    "The office wifi password rotates monthly",
    "Alice grew up in Montreal",
    "Deploys are frozen during the holiday week",
    "Alice collects vintage fountain pens",
    "The design review board meets on Thursdays",
    "Alice ran the Berlin marathon last autumn",
    "Customer support escalations go to the on-call engineer",
    "Alice speaks Portuguese fluently",
    "The billing service is written in Go",
    "Alice volunteers at an animal shelter on weekends",
    "Invoices are sent on the last business day of the month",
    "Alice is learning to play chess",
    "The mobile app release train leaves every two weeks",
    "Alice keeps bees in her garden",
    "Security training is mandatory once a year",
    "Alice's favourite film is Spirited Away",
]


async def remember(
    engine: MemoryEngine,
    clock: FakeClock,
    content: str,
    *,
    user: str | None = "111",
    scope: Scope = GUILD,
    **kw: Any,
) -> Memory:
    return await helpers.remember(engine, clock, content, scope=scope, user=user, **kw)


@pytest.fixture
def commands(engine: MemoryEngine, clock: FakeClock) -> MemoryCommands:
    return MemoryCommands(engine, "default", page_size=10, clock=clock)


def ids(result: CommandResult) -> list[str]:
    return [str(item["id"]) for item in result.items]


# --- the table -----------------------------------------------------------------------------------


def test_table_follows_discord_rules_and_is_consistent() -> None:
    names = [c.name for c in COMMANDS]
    assert names == ["list", "search", "about", "forget", "undo", "export", "stats"]
    assert len(set(names)) == len(names)
    discord_name = re.compile(r"^[-_a-z0-9]{1,32}$")
    for spec in COMMANDS:
        assert discord_name.match(spec.name)
        assert 1 <= len(spec.description) <= 100
        option_names = [o.name for o in spec.options]
        assert len(set(option_names)) == len(option_names)
        seen_optional = False
        for opt in spec.options:
            assert discord_name.match(opt.name)
            assert 1 <= len(opt.description) <= 100
            assert not (opt.required and seen_optional), f"{spec.name}: required {opt.name} after optional"
            seen_optional = seen_optional or not opt.required
            assert bool(opt.choices) == (opt.kind == "choice")
            assert len(opt.choices) <= 25
    list_type = COMMANDS[0].options[0]
    assert list_type.choices == tuple(t.value for t in MemoryType)


def test_usage_lines_come_from_the_table() -> None:
    search = next(c for c in COMMANDS if c.name == "search")
    assert usage(search) == "/memory search <query> [page]"
    assert usage() == "/memory list|search|about|forget|undo|export|stats|help"


# --- parsing -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "name", "args", "page"),
    [
        ("list", "list", {}, 1),
        ("list preference", "list", {"type": "preference"}, 1),
        ("list\tpreference", "list", {"type": "preference"}, 1),
        ("list Preferences", "list", {"type": "preference"}, 1),
        ("list 2", "list", {}, 2),
        ("list goal 3", "list", {"type": "goal"}, 3),
        ("list type:event page:4", "list", {"type": "event"}, 4),
        ("/memory list todo", "list", {"type": "todo"}, 1),
        ("search where does Mickael live", "search", {"query": "where does Mickael live"}, 1),
        ("search where   does Mickael live page:2", "search", {"query": "where does Mickael live"}, 2),
        ("about <@U123|mickael>", "about", {"user": "U123"}, 1),
        ("about <@U123>", "about", {"user": "U123"}, 1),
        ("about <@123>", "about", {"user": "123"}, 1),
        ("about <@!123> 2", "about", {"user": "123"}, 2),
        ("about @mickael", "about", {"user": "mickael"}, 1),
        ("about Mickael", "about", {"user": "Mickael"}, 1),
        ('about "Mickael Durand"', "about", {"user": "Mickael Durand"}, 1),
        ("forget abc123", "forget", {"id": "abc123"}, 1),
        ("forget `3f9c0a1b2d4e5f60`", "forget", {"id": "3f9c0a1b2d4e5f60"}, 1),
        ("export", "export", {}, 1),
        ("STATS", "stats", {}, 1),
        ("", "help", {}, 1),
        ("   ", "help", {}, 1),
        ("help", "help", {}, 1),
        ("help forget", "help", {"command": "forget"}, 1),
    ],
)
def test_parse_command(text: str, name: str, args: dict[str, object], page: int) -> None:
    parsed = parse_command(text)
    assert (parsed.name, parsed.args, parsed.page) == (name, args, page)


@pytest.mark.parametrize(
    ("text", "message", "usage_line"),
    [
        (
            "remember this",
            "unknown command 'remember'",
            "/memory list|search|about|forget|undo|export|stats|help",
        ),
        ("search", "missing query", "/memory search <query> [page]"),
        ("search page:2", "missing query", "/memory search <query> [page]"),
        ("about", "missing user", "/memory about <user> [page]"),
        ("forget", "missing id", "/memory forget <id>"),
        ("list nonsense", "type must be one of: identity, fact,", "/memory list [type] [page]"),
        ("list preference 0", "page must be 1 or more", "/memory list [type] [page]"),
        ("forget abc def", "too many arguments: 'def'", "/memory forget <id>"),
        ("forget no/such!id", "is not a memory id", "/memory forget <id>"),
        ("about <@&42>", "user must be a person", "/memory about <user> [page]"),
        ("stats now", "too many arguments", "/memory stats"),
    ],
)
def test_parse_errors_carry_a_usage_line(text: str, message: str, usage_line: str) -> None:
    with pytest.raises(CommandError) as info:
        parse_command(text)
    assert message in info.value.message
    assert info.value.usage == usage_line
    assert str(info.value).endswith(f"usage: {usage_line}")


@pytest.mark.parametrize(
    ("name", "args", "page", "expected"),
    [
        ("list", {}, 3, "/memory list 3"),
        ("list", {"type": "preference"}, 2, "/memory list preference 2"),
        ("search", {"query": "where does Mickael live"}, 2, "/memory search where does Mickael live page:2"),
        ("about", {"user": "Mickael Durand"}, 2, '/memory about "Mickael Durand" 2'),
        ("about", {"user": "U123"}, 1, "/memory about U123"),
    ],
)
def test_next_page_command_parses_back(name: str, args: dict[str, object], page: int, expected: str) -> None:
    line = format_invocation(name, args, page)
    assert line == expected
    parsed = parse_command(line)
    assert (parsed.name, parsed.args, parsed.page) == (name, args, page)


# --- list, search, about -------------------------------------------------------------------------


async def test_list_paginates_newest_first(
    engine: MemoryEngine, clock: FakeClock, commands: MemoryCommands
) -> None:
    stored = [await remember(engine, clock, fact) for fact in FACTS]
    pages = [await commands.execute("list", {}, ALICE, page=p) for p in (1, 2, 3)]
    assert [(r.page, r.pages, r.total, len(r.items)) for r in pages] == [
        (1, 3, 23, 10),
        (2, 3, 23, 10),
        (3, 3, 23, 3),
    ]
    listed = [i for r in pages for i in ids(r)]
    assert listed == [m.id for m in reversed(stored)]
    assert pages[0].items[0]["content"] == FACTS[-1]
    assert pages[1].next_command == "/memory list 3" and pages[2].next_command is None
    text = render_text(pages[1])
    assert "page 2/3 — `/memory list 3` for more" in text
    assert f"11. [fact] {stored[12].content}" in text  # numbering continues across pages
    # Stored with its season written out (said on 21 September 2026: the autumn before).
    assert stored[12].content == "Alice ran the Berlin marathon in autumn 2025"

    beyond = await commands.execute("list", {"page": 4}, ALICE)
    assert beyond.items == [] and beyond.page == 4
    assert "there are 3 pages" in render_text(beyond)


async def test_list_type_filter(engine: MemoryEngine, clock: FakeClock, commands: MemoryCommands) -> None:
    await remember(engine, clock, "Alice prefers tea over coffee", memory_type=MemoryType.PREFERENCE)
    await remember(engine, clock, "Alice likes dark mode in every editor", memory_type=MemoryType.PREFERENCE)
    await remember(engine, clock, "Alice moved to Lisbon in March")
    result = await commands.execute("list", {"type": "preference"}, ALICE)
    assert result.total == 2
    assert {i["type"] for i in result.items} == {"preference"}
    assert result.title == "Your preference memories"

    none = await commands.execute("list", {"type": "goal"}, ALICE)
    assert none.total == 0 and none.items == []
    assert "No goal memories you can see yet." in render_text(none)

    bad = await commands.execute("list", {"type": "nonsense"}, ALICE)
    assert bad.error is not None and "type must be one of" in bad.error
    assert render_text(bad).startswith("Error: type must be one of")


@pytest.mark.model  # "where does Mickael live" finds "Mickael lives in Lyon"
async def test_search_finds_a_stored_memory(
    engine: MemoryEngine, clock: FakeClock, commands: MemoryCommands
) -> None:
    lyon = await remember(engine, clock, "Mickael lives in Lyon", subjects=("mickael",))
    await remember(engine, clock, "The billing service is written in Go")
    parsed = parse_command("search where does Mickael live")
    result = await commands.execute(parsed.name, parsed.args, ALICE, parsed.page)
    assert result.error is None
    assert ids(result)[0] == lyon.id
    assert isinstance(result.items[0]["score"], float) and result.items[0]["score"] >= 0.5
    assert "Mickael lives in Lyon" in render_text(result)


async def test_about_matches_user_id_and_subject(
    engine: MemoryEngine, clock: FakeClock, commands: MemoryCommands
) -> None:
    by_id = await remember(engine, clock, "Mickael broke his shoulder in January", user="123")
    by_subject = await remember(
        engine, clock, "Mickael's team won the hackathon", user=None, author="222", subjects=("mickael",)
    )
    unrelated = await remember(engine, clock, "Alice grew up in Montreal")

    mention = parse_command("about <@123>")
    result = await commands.execute(mention.name, mention.args, ALICE)
    assert ids(result) == [by_id.id]

    named = parse_command("about Mickael")
    result = await commands.execute(named.name, named.args, ALICE)
    assert ids(result) == [by_subject.id]
    assert unrelated.id not in ids(result)

    nobody = await commands.execute("about", {"user": "zoe"}, ALICE)
    assert nobody.total == 0
    assert "Nothing remembered about zoe that you can see." in render_text(nobody)


# --- forget --------------------------------------------------------------------------------------


async def test_forget_own_memory_cleans_both_stores(
    engine: MemoryEngine, clock: FakeClock, commands: MemoryCommands
) -> None:
    mine = await remember(engine, clock, "Alice is allergic to peanuts")
    result = await commands.execute("forget", {"id": mine.id}, ALICE)
    assert result.error is None and ids(result) == [mine.id]
    assert await stored_memory(engine, mine.id) is None
    assert mine.id not in await searchable_memory_ids(engine)
    again = await commands.execute("forget", {"id": mine.id}, ALICE)
    assert again.error == NOT_FOUND.format(id=mine.id)


async def test_forget_someone_elses_memory_is_refused_like_a_missing_one(
    engine: MemoryEngine, clock: FakeClock, commands: MemoryCommands
) -> None:
    bobs = await remember(engine, clock, "Bob plays the trumpet", user="222")
    refused = await commands.execute("forget", {"id": bobs.id}, ALICE)
    missing = await commands.execute("forget", {"id": "0000000000000000"}, ALICE)
    assert refused.error is not None
    assert refused.error.replace(bobs.id, "X") == missing.error.replace("0000000000000000", "X")
    assert await stored_memory(engine, bobs.id) is not None

    # A memory about Alice that Bob wrote is hers to forget.
    about_alice = await remember(engine, clock, "Alice won the chess tournament", user="111", author="222")
    assert (await commands.execute("forget", {"id": about_alice.id}, ALICE)).error is None
    assert await stored_memory(engine, about_alice.id) is None


async def test_admin_forgets_workspace_memories_but_never_across_workspaces(
    engine: MemoryEngine, clock: FakeClock, commands: MemoryCommands
) -> None:
    bobs = await remember(engine, clock, "Bob plays the trumpet", user="222")
    other_channel = await remember(
        engine, clock, "Bob's sprint ends Friday", user="222", visibility=Visibility.CHANNEL, scope=RANDOM
    )
    elsewhere = await remember(engine, clock, "Bob owns a sailboat", user="222", scope=OTHER_GUILD)

    assert (await commands.execute("forget", {"id": bobs.id}, ADMIN)).error is None
    assert await stored_memory(engine, bobs.id) is None
    # A channel's own memories are out of an admin's reach from another channel (they may not be a
    # member of it), and within it from inside.
    refused = await commands.execute("forget", {"id": other_channel.id}, ADMIN)
    assert refused.error == NOT_FOUND.format(id=other_channel.id)
    assert other_channel.id not in ids(await commands.execute("list", {}, ADMIN))
    admin_in_random = Invoker("discord", "guild-1", "random", "999", is_admin=True)
    assert (await commands.execute("forget", {"id": other_channel.id}, admin_in_random)).error is None
    assert await stored_memory(engine, other_channel.id) is None

    crossed = await commands.execute("forget", {"id": elsewhere.id}, ADMIN)
    assert crossed.error == NOT_FOUND.format(id=elsewhere.id)
    assert await stored_memory(engine, elsewhere.id) is not None
    assert (await commands.execute("forget", {"id": bobs.id}, OTHER_ADMIN)).error is not None
    # The other guild's admin sees only their guild.
    assert ids(await commands.execute("list", {}, OTHER_ADMIN)) == [elsewhere.id]


# --- privacy -------------------------------------------------------------------------------------


async def test_private_memory_is_shown_only_to_its_owner(
    engine: MemoryEngine, clock: FakeClock, commands: MemoryCommands
) -> None:
    secret = await remember(
        engine,
        clock,
        "Alice is interviewing at another company",
        visibility=Visibility.PRIVATE,
        scope=Scope("discord", "guild-1", "dm-111", "default"),
    )
    public = await remember(engine, clock, "Alice commutes by bicycle")

    assert ids(await commands.execute("list", {}, ALICE)) == [public.id, secret.id]
    assert (await commands.execute("list", {}, ALICE)).items[1]["visibility"] == "private"
    assert "(private)" in render_text(await commands.execute("list", {}, ALICE))
    for viewer in (BOB, ADMIN):
        assert ids(await commands.execute("list", {}, viewer)) == [public.id]
        found = await commands.execute("search", {"query": "interviewing at another company"}, viewer)
        assert secret.id not in ids(found)
        assert secret.id not in ids(await commands.execute("about", {"user": "111"}, viewer))
        assert (await commands.execute("stats", {}, viewer)).data["total"] == 1
    found = await commands.execute("search", {"query": "interviewing at another company"}, ALICE)
    assert secret.id in ids(found)

    refused = await commands.execute("forget", {"id": secret.id}, ADMIN)
    assert refused.error == NOT_FOUND.format(id=secret.id)
    assert await stored_memory(engine, secret.id) is not None


# --- export and stats ----------------------------------------------------------------------------


async def test_export_round_trips_only_the_invokers_visible_memories(
    engine: MemoryEngine, clock: FakeClock, commands: MemoryCommands
) -> None:
    about_me = await remember(engine, clock, "Alice speaks Portuguese fluently")
    by_me = await remember(engine, clock, "Bob is moving to the platform team", user="222", author="111")
    private = await remember(
        engine, clock, "Alice wants a new job", visibility=Visibility.PRIVATE, memory_type=MemoryType.GOAL
    )
    await remember(engine, clock, "Bob plays the trumpet", user="222")
    await remember(engine, clock, "Alice owns a sailboat", scope=OTHER_GUILD)
    await remember(
        engine, clock, "Bob's private plan is to retire early", user="222", visibility=Visibility.PRIVATE
    )

    result = await commands.execute("export", {}, ALICE)
    assert result.error is None and result.attachment is not None
    assert result.attachment.filename.endswith(".json")
    exported = json.loads(result.attachment.data.decode("utf-8"))
    expected = [private, by_me, about_me]  # newest first
    assert [e["id"] for e in exported] == [m.id for m in expected]
    stored = await engine.storage.memories.get_unscoped([m.id for m in expected])
    assert exported == [m.to_public_dict() for m in stored]
    assert "Exported 3 memories" in render_text(result)
    assert "Attached: " in render_text(result)

    empty = await commands.execute("export", {}, Invoker("discord", "guild-1", "general", "555"))
    assert empty.attachment is not None and json.loads(empty.attachment.data) == []


async def test_stats_counts(engine: MemoryEngine, clock: FakeClock, commands: MemoryCommands) -> None:
    await remember(engine, clock, "Alice prefers tea over coffee", memory_type=MemoryType.PREFERENCE)
    await remember(engine, clock, "Alice's name is Alice Martin", memory_type=MemoryType.IDENTITY)
    await remember(engine, clock, "Bob plays the trumpet", user="222")
    await remember(engine, clock, "Alice grew up in Montreal")
    await remember(engine, clock, "Alice owns a sailboat", scope=OTHER_GUILD)

    alice = await commands.execute("stats", {}, ALICE)
    assert alice.data == {
        "total": 4,
        "by_type": {"identity": 1, "fact": 2, "preference": 1},
        "about_you": 3,
    }
    text = render_text(alice)
    assert "4 memories you can see, 3 about you." in text and "fact: 2" in text
    bob = await commands.execute("stats", {}, BOB)
    assert bob.data["about_you"] == 1


async def test_execute_reports_mistakes_instead_of_raising(commands: MemoryCommands) -> None:
    unknown = await commands.execute("remember", {}, ALICE)
    assert unknown.error == "unknown command 'remember'"
    missing = await commands.execute("search", {}, ALICE)
    assert missing.error == "missing query" and missing.lines == ["usage: /memory search <query> [page]"]
    extra = await commands.execute("stats", {"page": 2}, ALICE)
    assert extra.error is not None and "unknown option 'page'" in extra.error
    helped = await commands.execute("help", {}, ALICE)
    assert helped.error is None and helped.lines[0].startswith("/memory list [type] [page]")
    assert "identity, fact" in render_text(helped)
