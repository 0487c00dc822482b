"""The Discord adapter on the wire: the real discord.py client against a local fake of Discord's
gateway and REST API, so discord.py's own parsing of channels, overwrites, threads and
interactions decides what kind of conversation each message comes from."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass, field
from typing import Any

import discord
import pytest

from adapters.base import IncomingMessage
from adapters.discord import DiscordAdapter, MemoryBot
from bot.commands import MemoryCommands
from bot.config import DiscordSettings
from bot.llm.fake import ScriptedLLM, text
from bot.pipeline import TurnPipeline
from memory.engine import MemoryEngine
from memory.models import Conversation, ConversationKind, MemoryDraft, Scope, Visibility
from tests.fakes import discord_api as fd
from tests.fakes.discord_api import FakeDiscord, Payload
from tests.helpers import DISCORD_READY_WAIT_SECONDS, NO_DEBOUNCE, stored_memory

PUBLIC, PRIVATE, DM = ConversationKind.PUBLIC, ConversationKind.PRIVATE, ConversationKind.DM


@dataclass
class Server(fd.Acme):
    """A guild as Discord describes it: a public channel; a channel @everyone cannot view (with a
    public thread); a category hidden from @everyone whose channel copies its overwrites; a
    private thread in the public channel; people, one of them an admin."""

    hidden: Payload
    hidden_thread: Payload
    staff_chat: Payload
    private_thread: Payload
    bob: Payload


@pytest.fixture
async def server() -> AsyncIterator[Server]:
    async with FakeDiscord() as fake:
        guild_id = fd.snowflake()
        alice, bob, admin = fd.user("alice"), fd.user("bob"), fd.user("root")
        no_view = fd.overwrite(guild_id, deny=fd.VIEW_CHANNEL)
        bot_views = fd.overwrite(fake.bot_user["id"], member=True, allow=fd.VIEW_CHANNEL)
        general = fd.text_channel(guild_id, "general")
        hidden = fd.text_channel(guild_id, "hidden", position=1, overwrites=[no_view, bot_views])
        staff = fd.category(guild_id, "staff", overwrites=[no_view])
        staff_chat = fd.text_channel(
            guild_id, "staff-chat", parent_id=staff["id"], overwrites=[no_view, bot_views]
        )
        hidden_thread = fd.thread(hidden, "plans", owner_id=alice["id"])
        private_thread = fd.thread(general, "surprise", owner_id=alice["id"], private=True)
        channels = [general, hidden, staff, staff_chat]
        guild, admin_role = fd.add_acme(
            fake, guild_id, admin, [alice, bob], channels=channels, threads=[hidden_thread, private_thread]
        )
        acme = (fake, guild, general, alice, admin, admin_role)
        yield Server(*acme, hidden, hidden_thread, staff_chat, private_thread, bob)


@dataclass
class Turns:
    """The adapter's turn function: records every batch, answers with `reply`."""

    reply: str | None = "ok"
    batches: list[list[IncomingMessage]] = field(default_factory=list)
    arrived: asyncio.Event = field(default_factory=asyncio.Event)

    async def __call__(self, batch: Sequence[IncomingMessage], respond: bool) -> str | None:
        self.batches.append(list(batch))
        self.arrived.set()
        return self.reply if respond else None

    async def next(self) -> IncomingMessage:
        await asyncio.wait_for(self.arrived.wait(), fd.WAIT_LIMIT_SECONDS)
        self.arrived.clear()
        return self.batches[-1][-1]


@dataclass
class Found:
    """What the adapter reported as members-only conversations."""

    conversations: list[Conversation] = field(default_factory=list)
    changed: asyncio.Event = field(default_factory=asyncio.Event)

    async def __call__(self, conversations: Sequence[Conversation]) -> None:
        self.conversations.extend(conversations)
        self.changed.set()


@pytest.fixture
async def running(server: Server, engine: MemoryEngine):  # type: ignore[no-untyped-def]
    """Start a real DiscordAdapter against the fake; yields a function taking the turn function."""
    adapters: list[DiscordAdapter] = []

    async def start(turn: Any, found: Found | None = None) -> DiscordAdapter:
        settings = DiscordSettings(
            _env_file=None,  # type: ignore[call-arg]
            token="fake-token",
            channels=[server.general["id"], server.hidden["id"], server.staff_chat["id"]],
            guild_ready_timeout_seconds=DISCORD_READY_WAIT_SECONDS,
        )
        adapter = DiscordAdapter(
            settings, turn, MemoryCommands(engine, "default"), coalesce=NO_DEBOUNCE, conversations=found
        )
        adapters.append(adapter)
        await adapter.start()
        await server.fake.wait_ready()
        assert adapter.bot is not None
        await asyncio.wait_for(adapter.bot.wait_until_ready(), fd.WAIT_LIMIT_SECONDS)
        return adapter

    yield start
    for adapter in adapters:
        await adapter.stop(grace=5)


async def say(server: Server, channel: Payload, author: Payload, content: str) -> Payload:
    data = fd.message(channel, author, content)
    await server.fake.dispatch("MESSAGE_CREATE", data)
    return data


async def test_each_message_carries_its_conversations_kind_from_discord(server: Server, running: Any) -> None:
    turns = Turns()
    await running(turns)
    dm = fd.dm_channel(server.alice)
    cases = [
        (server.general, PUBLIC, server.general["id"], None),
        (server.hidden, PRIVATE, server.hidden["id"], None),
        # A public thread inherits its parent's kind and lives in the parent's conversation.
        (server.hidden_thread, PRIVATE, server.hidden["id"], server.hidden_thread["id"]),
        # A channel hidden by its category's overwrites (copied onto it, as Discord syncs them).
        (server.staff_chat, PRIVATE, server.staff_chat["id"], None),
        # A private thread is its own conversation, even inside a public channel.
        (server.private_thread, PRIVATE, server.private_thread["id"], server.private_thread["id"]),
        (dm, DM, dm["id"], None),
    ]
    for channel, kind, channel_id, thread_id in cases:
        await say(server, channel, server.alice, f"hello from {channel.get('name', 'a DM')}")
        message = await turns.next()
        assert (message.kind, message.channel_id, message.thread_id) == (kind, channel_id, thread_id), channel
        assert message.is_dm == (kind is DM)
    assert turns.batches[-1][-1].workspace_id == f"dm-{server.alice['id']}"

    # A thread created while running: discord.py learns its type from THREAD_CREATE.
    late = fd.thread(server.general, "late", owner_id=server.bob["id"], private=True)
    await server.fake.dispatch("THREAD_CREATE", fd.thread_create(late))
    await say(server, late, server.bob, "a new private thread")
    assert (await turns.next()).kind is PRIVATE
    # The channel opened to everyone: its next message is public.
    opened = {**server.hidden, "permission_overwrites": []}
    await server.fake.dispatch("CHANNEL_UPDATE", opened)
    await say(server, opened, server.alice, "now open")
    assert (await turns.next()).kind is PUBLIC


async def test_mentions_emoji_and_timestamps_reach_the_turn_as_people_read_them(
    server: Server, running: Any
) -> None:
    turns = Turns()
    await running(turns)
    [admin_role] = [role for role in server.guild["roles"] if role["name"] == "admin"]
    content = (
        f"<@{server.bob['id']}> ask <@&{admin_role['id']}> in <#{server.hidden['id']}> "
        "<:party:123456789012345678><a:dance:223456789012345678> by <t:1700000000:F>, "
        "not <#42> <t:9999999999999>"
    )
    data = fd.message(
        server.general, server.alice, content, mentions=[server.bob], mention_roles=[admin_role["id"]]
    )
    await server.fake.dispatch("MESSAGE_CREATE", data)
    said = await turns.next()
    assert (
        said.text
        == "@Bob ask @admin in #hidden :party::dance: by 2023-11-14 22:13 UTC, not <#42> <t:9999999999999>"
    )


async def test_an_image_reaches_the_turn_as_its_alt_text_says_and_a_file_by_its_name(
    server: Server, running: Any
) -> None:
    """A picture sent with no words is a turn: what its alt text says it shows is what memory keeps."""
    turns = Turns()
    await running(turns)
    dog = fd.attachment(
        "IMG_0042.jpg", content_type="image/jpeg", description="Our new puppy Max\nasleep on the couch"
    )
    notes = fd.attachment("notes.txt")
    data = fd.message(server.general, server.alice, "", attachments=[dog, notes])
    await server.fake.dispatch("MESSAGE_CREATE", data)
    said = await turns.next()
    assert said.text == "[image: Our new puppy Max asleep on the couch]\n[attachment: notes.txt]"
    # An image nobody described is its file name, after the words it came with.
    bare = fd.attachment("IMG_0043.png", content_type="image/png")
    await server.fake.dispatch(
        "MESSAGE_CREATE", fd.message(server.general, server.alice, "look!", attachments=[bare])
    )
    assert (await turns.next()).text == "look!\n[attachment: IMG_0043.png]"


async def test_members_only_conversations_are_reported_as_discord_describes_them(
    server: Server, running: Any
) -> None:
    found = Found()
    await running(Turns(), found)
    await asyncio.wait_for(found.changed.wait(), fd.WAIT_LIMIT_SECONDS)
    guild_id = server.guild["id"]
    assert sorted((c.channel_id, c.kind) for c in found.conversations) == sorted(
        [
            (server.hidden["id"], PRIVATE),
            (server.staff_chat["id"], PRIVATE),
            (server.private_thread["id"], PRIVATE),
        ]
    )
    assert {(c.platform, c.workspace_id) for c in found.conversations} == {("discord", guild_id)}

    # The public channel is made private: it is reported then.
    found.changed.clear()
    closed = {**server.general, "permission_overwrites": [fd.overwrite(guild_id, deny=fd.VIEW_CHANNEL)]}
    await server.fake.dispatch("CHANNEL_UPDATE", closed)
    await asyncio.wait_for(found.changed.wait(), fd.WAIT_LIMIT_SECONDS)
    assert (server.general["id"], PRIVATE) in [(c.channel_id, c.kind) for c in found.conversations]


async def _remember(engine: MemoryEngine, content: str, channel: str, guild: str) -> None:
    await engine.remember(
        MemoryDraft(
            content,
            Scope("discord", guild, channel),
            user_id="someone",
            author_id="someone",
            visibility=Visibility.CHANNEL,
        )
    )


async def _memory_list(fake: FakeDiscord, channel: Payload, who: Payload, permissions: int) -> str:
    """Run `/memory list` as `who` in `channel` through INTERACTION_CREATE; the follow-up's JSON."""
    before = len(fake.followups())
    data = fd.command_interaction(
        "memory",
        user_data=who,
        channel=channel,
        application_id=fake.application_id,
        subcommand="list",
        permissions=permissions,
    )
    await fake.dispatch("INTERACTION_CREATE", data)
    await fake.wait_for(lambda: len(fake.followups()) > before)
    return json.dumps(fake.followups()[-1])


async def test_memory_commands_read_the_conversation_discord_says_they_run_in(
    server: Server, running: Any, engine: MemoryEngine
) -> None:
    """`/memory list` in a private thread reads that thread's memories; an admin elsewhere does not."""
    guild_id = server.guild["id"]
    await _remember(engine, "The surprise party is on Friday", server.private_thread["id"], guild_id)
    await _remember(engine, "The hidden budget is forty thousand", server.hidden["id"], guild_id)
    await running(Turns())
    everyone = fd.EVERYONE_PERMISSIONS
    in_thread = await _memory_list(server.fake, server.private_thread, server.alice, everyone)
    assert "surprise party" in in_thread and "hidden budget" not in in_thread
    admin = everyone | fd.MANAGE_GUILD
    admin_in_general = await _memory_list(server.fake, server.general, server.admin, admin)
    assert "surprise party" not in admin_in_general and "hidden budget" not in admin_in_general
    # Inside the hidden channel (and its public thread) its memories are listed, admin or not.
    admin_inside = await _memory_list(server.fake, server.hidden_thread, server.admin, admin)
    assert "hidden budget" in admin_inside and "surprise party" not in admin_inside


async def test_a_fact_said_in_a_hidden_channel_is_not_recalled_in_a_public_one(
    server: Server, running: Any, pipeline: TurnPipeline, llm: ScriptedLLM
) -> None:
    """End to end: discord.py's view of the channel, the pipeline's storage, the pre-hook's recall."""
    replied = asyncio.Event()

    async def turn(batch: Sequence[IncomingMessage], respond: bool) -> str | None:
        result = await pipeline.handle(batch, respond)
        replied.set()
        return result.reply

    await running(turn)
    llm.add(text("Noted."))
    await say(
        server,
        server.hidden,
        server.alice,
        "Remember that the acquisition of Bluefin Robotics closes in March",
    )
    await asyncio.wait_for(replied.wait(), fd.WAIT_LIMIT_SECONDS)
    question = "What do you know about Bluefin Robotics?"
    inputs: list[str] = []
    for channel in (server.general, server.hidden):
        replied.clear()
        llm.add(text("Let me think."))
        await say(server, channel, server.bob, question)
        await asyncio.wait_for(replied.wait(), fd.WAIT_LIMIT_SECONDS)
        call = llm.calls[-1]
        inputs.append(
            "\n".join([call.system, *(m.content or "" for m in call.messages)]).replace(question, "")
        )
    in_general, in_hidden = inputs
    assert "acquisition" not in in_general
    assert "acquisition" in in_hidden
    # The reply went back to Discord in the channel it was asked in.
    await server.fake.wait_for(lambda: len(server.fake.sent_messages(server.hidden["id"])) == 2)


async def test_a_wrong_merge_is_undone_with_slash_memory_undo(
    server: Server, running: Any, engine: MemoryEngine
) -> None:
    guild_id, alice = server.guild["id"], server.alice["id"]
    scope = Scope("discord", guild_id, server.general["id"])
    older = await engine.remember(MemoryDraft("Alice broke her wrist", scope, user_id=alice, author_id=alice))
    newer = await engine.remember(
        MemoryDraft("Alice broke her wrist on 10 January 2026", scope, user_id=alice, author_id=alice)
    )
    assert newer.action == "superseded"
    await running(Turns())
    fake = server.fake
    before = len(fake.followups())
    data = fd.command_interaction(
        "memory",
        user_data=server.alice,
        channel=server.general,
        application_id=fake.application_id,
        subcommand="undo",
        options=[fd.option("id", newer.memory.id)],
    )
    await fake.dispatch("INTERACTION_CREATE", data)
    await fake.wait_for(lambda: len(fake.followups()) > before)
    assert older.memory.id in json.dumps(fake.followups()[-1])
    restored = await stored_memory(engine, older.memory.id)
    assert restored is not None and not restored.forgotten


async def test_a_client_closed_while_waiting_for_its_guilds_never_becomes_ready(
    server: Server, engine: MemoryEngine
) -> None:
    """discord.py would otherwise dispatch `ready` on the closed client when its wait ends."""
    settings = DiscordSettings(
        _env_file=None,  # type: ignore[call-arg]
        token="fake-token",
        guild_ready_timeout_seconds=600,  # still waiting when the adapter stops
    )
    adapter = DiscordAdapter(settings, Turns(), MemoryCommands(engine, "default"), coalesce=NO_DEBOUNCE)
    await adapter.start()
    try:
        await server.fake.wait_ready()
        assert adapter.bot is not None
        waiting = adapter.bot._connection._ready_task
        assert waiting is not None and not waiting.done()
    finally:
        await adapter.stop(grace=5)
    await asyncio.wait({waiting}, timeout=fd.WAIT_LIMIT_SECONDS)
    assert waiting.done()  # ended by the close, without dispatching `ready`
    assert not adapter.bot.ready_once


def guild_id_in_shard(shard_id: int, count: int) -> str:
    """A fresh snowflake whose guild falls in `shard_id` of `count` (Discord: (id >> 22) % count)."""
    base = int(fd.snowflake())
    timestamp = base >> 22
    return str(((timestamp - timestamp % count + shard_id) << 22) | (base & ((1 << 22) - 1)))


def add_guild_in_shard(fake: FakeDiscord, member: Payload, shard_id: int, count: int) -> Payload:
    """A guild of `shard_id` of `count`, with `member` in it; returns its one text channel."""
    guild_id = guild_id_in_shard(shard_id, count)
    channel = fd.text_channel(guild_id, "general")
    fake.add_guild(
        fd.guild(
            guild_id,
            f"guild {shard_id}",
            owner_id=member["id"],
            channels=[channel],
            members=[fd.member(member)],
        )
    )
    return channel


class ShardsAtOnce(DiscordAdapter):
    """The adapter whose clients identify every shard at once: discord.py sleeps 5 s before each
    IDENTIFY but a client's first (Discord's identify rate limit), which the fake does not have."""

    def make_bot(self) -> MemoryBot:
        bot = super().make_bot()

        async def at_once(shard_id: int | None, *, initial: bool = False) -> None:
            return None

        bot.before_identify_hook = at_once  # type: ignore[method-assign]
        return bot


async def start_shards(
    fake: FakeDiscord, engine: MemoryEngine, channels: Sequence[Payload], count: int, shard_ids: list[int]
) -> tuple[DiscordAdapter, Turns]:
    """A bot process running `shard_ids` of `count`, answering in `channels`; returns once every
    one of its shards has identified and the client is ready."""
    settings = DiscordSettings(
        _env_file=None,  # type: ignore[call-arg]
        token="fake-token",
        channels=[c["id"] for c in channels],
        guild_ready_timeout_seconds=DISCORD_READY_WAIT_SECONDS,
        shard_count=count,
        shard_ids=shard_ids,
    )
    turns = Turns()
    adapter = ShardsAtOnce(settings, turns, MemoryCommands(engine, "default"), coalesce=NO_DEBOUNCE)
    before = fake.identifies
    await adapter.start()
    try:
        await fake.wait_for(lambda: fake.identifies == before + len(shard_ids))
        for channel in channels:
            if fd.shard_of(channel["guild_id"], count) in shard_ids:
                await fake.wait_ready(channel["guild_id"])
        assert adapter.bot is not None
        await asyncio.wait_for(adapter.bot.wait_until_ready(), fd.WAIT_LIMIT_SECONDS)
    except BaseException:
        await adapter.stop(grace=0)
        raise
    return adapter, turns


class SecondShardHeld(ShardsAtOnce):
    """Shard 1 is not launched before the client closes (as while discord.py waits out the
    identify rate limit between shards): shard 0 is ready and waiting for its guilds, and the
    client, which waits for every shard, is not."""

    def make_bot(self) -> MemoryBot:
        bot = super().make_bot()
        assert isinstance(bot, discord.AutoShardedClient)
        closing = asyncio.Event()
        close, launch_shard = bot.close, bot.launch_shard

        async def close_and_let_go() -> None:
            closing.set()
            await close()

        async def hold_shard_1(gateway: Any, shard_id: int, *, initial: bool = False) -> None:
            if shard_id == 1:
                await closing.wait()
                return
            await launch_shard(gateway, shard_id, initial=initial)

        bot.close = close_and_let_go  # type: ignore[method-assign]
        bot.launch_shard = hold_shard_1  # type: ignore[method-assign]
        return bot


async def test_a_shard_waiting_for_its_guilds_when_the_client_closes_never_becomes_ready(
    engine: MemoryEngine,
) -> None:
    """discord.py waits for a shard's guilds in a task of its own, and would dispatch `shard_ready`
    on the closed client when that wait ends; the client's own wait, which `close` ends, only
    begins once every shard is ready."""
    async with FakeDiscord() as fake:
        alice = fd.user("alice")
        channel = add_guild_in_shard(fake, alice, 0, 2)
        settings = DiscordSettings(
            _env_file=None,  # type: ignore[call-arg]
            token="fake-token",
            channels=[channel["id"]],
            guild_ready_timeout_seconds=600,  # still waiting when the adapter stops
            shard_count=2,
        )
        adapter = SecondShardHeld(settings, Turns(), MemoryCommands(engine, "default"), coalesce=NO_DEBOUNCE)
        await adapter.start()
        try:
            await fake.wait_ready(channel["guild_id"])  # shard 0 has parsed its READY
            assert adapter.bot is not None
            state = adapter.bot._connection
            assert state._ready_task is None
            [waiting] = state._ready_tasks.values()
            assert not waiting.done()
        finally:
            await adapter.stop(grace=5)
        await asyncio.wait({waiting}, timeout=fd.WAIT_LIMIT_SECONDS)
        assert waiting.done()  # ended by the close, so `shard_ready` never comes
        assert 0 in state._ready_states  # the wait was cut short, not finished
        assert not adapter.bot.ready_once


def identified_shards(fake: FakeDiscord) -> list[list[int]]:
    """The `shard` of every IDENTIFY the fake gateway received, in order."""
    return [p["d"]["shard"] for p in fake.gateway_received if p.get("op") == 2]


def guild_ids(adapter: DiscordAdapter) -> list[str]:
    assert adapter.bot is not None
    return sorted(str(g.id) for g in adapter.bot.guilds)


async def test_each_process_identifies_with_its_shard_and_answers_its_guilds_only(
    engine: MemoryEngine,
) -> None:
    async with FakeDiscord() as fake:
        alice = fd.user("alice")
        channels = [add_guild_in_shard(fake, alice, shard_id, 2) for shard_id in (0, 1)]
        processes: list[tuple[DiscordAdapter, Turns]] = []
        try:
            for shard_id in (0, 1):  # two bot processes, one shard each
                processes.append(await start_shards(fake, engine, channels, 2, [shard_id]))
            assert identified_shards(fake) == [[0, 2], [1, 2]]
            for shard_id, (adapter, _) in enumerate(processes):
                assert guild_ids(adapter) == [channels[shard_id]["guild_id"]]
            # Each guild's message reaches the process running its shard, and only that one.
            for shard_id in (1, 0):
                await fake.dispatch(
                    "MESSAGE_CREATE", fd.message(channels[shard_id], alice, f"hello shard {shard_id}")
                )
                message = await processes[shard_id][1].next()
                assert (message.workspace_id, message.text) == (
                    channels[shard_id]["guild_id"],
                    f"hello shard {shard_id}",
                )
            assert [[[m.text for m in batch] for batch in turns.batches] for _, turns in processes] == [
                [["hello shard 0"]],
                [["hello shard 1"]],
            ]
        finally:
            for adapter, _ in processes:
                await adapter.stop(grace=5)


async def answered(fake: FakeDiscord, turns: Turns, channel: Payload, author: Payload, text: str) -> None:
    """`text` said in `channel` reaches `turns`, and the reply lands in that channel over REST."""
    before = len(fake.sent_messages(channel["id"]))
    await fake.dispatch("MESSAGE_CREATE", fd.message(channel, author, text))
    message = await turns.next()
    assert (message.workspace_id, message.channel_id, message.text) == (
        channel["guild_id"],
        channel["id"],
        text,
    )
    await fake.wait_for(lambda: len(fake.sent_messages(channel["id"])) == before + 1)
    assert fake.sent_messages(channel["id"])[-1]["content"] == turns.reply


async def test_one_process_runs_several_shards_and_answers_the_guilds_of_each(engine: MemoryEngine) -> None:
    """Shards 0 and 2 of 3 in one process, shard 1 in another: one IDENTIFY per shard, and each
    process sees and answers exactly the guilds of its shards."""
    async with FakeDiscord() as fake:
        alice = fd.user("alice")
        channels = [add_guild_in_shard(fake, alice, shard_id, 3) for shard_id in (0, 1, 2)]
        processes: list[tuple[DiscordAdapter, Turns]] = []
        try:
            processes.append(await start_shards(fake, engine, channels, 3, [0, 2]))
            processes.append(await start_shards(fake, engine, channels, 3, [1]))
            (both, both_turns), (one, one_turns) = processes
            assert identified_shards(fake) == [[0, 3], [2, 3], [1, 3]]
            assert len(fake.connections) == 3  # a gateway connection per shard
            assert guild_ids(both) == sorted([channels[0]["guild_id"], channels[2]["guild_id"]])
            assert guild_ids(one) == [channels[1]["guild_id"]]
            assert both.bot is not None
            guild_2 = channels[2]["guild_id"]
            for shard_id in (0, 2):
                guild = both.bot.get_guild(int(channels[shard_id]["guild_id"]))
                assert guild is not None and guild.shard_id == shard_id
            assert both.ready and one.ready
            for shard_id in (2, 1, 0):
                turns = one_turns if shard_id == 1 else both_turns
                await answered(fake, turns, channels[shard_id], alice, f"hello shard {shard_id}")
            assert [[m.text for m in batch] for batch in both_turns.batches] == [
                ["hello shard 2"],
                ["hello shard 0"],
            ]
            assert [[m.text for m in batch] for batch in one_turns.batches] == [["hello shard 1"]]
            assert both.bot.get_guild(int(channels[1]["guild_id"])) is None
            # A DM comes on shard 0 (Discord's rule), so to the process running it.
            dm = fd.dm_channel(alice)
            await fake.dispatch("MESSAGE_CREATE", fd.message(dm, alice, "hello in private"))
            message = await both_turns.next()
            assert message.is_dm and message.channel_id == dm["id"]
            await fake.wait_for(lambda: len(fake.sent_messages(dm["id"])) == 1)
            # `/memory` comes on the shard of its guild, and is answered there.
            await _remember(engine, "The shard two guild meets on Tuesdays", channels[2]["id"], guild_2)
            listed = await _memory_list(fake, channels[2], alice, fd.EVERYONE_PERMISSIONS)
            assert "meets on Tuesdays" in listed
        finally:
            for adapter, _ in processes:
                await adapter.stop(grace=5)


@pytest.mark.parametrize(
    ("code", "back_event", "identified", "resumes"),
    [
        # Invalidated: shard 2 identifies again (no `ready` follows: discord.py sends it once per client).
        (4009, "shard_ready", [[0, 3], [2, 3], [2, 3]], 0),
        # Dropped: shard 2 resumes its session.
        (4000, "shard_resumed", [[0, 3], [2, 3]], 1),
    ],
)
async def test_a_shard_that_reconnects_leaves_the_others_answering_and_the_process_ready(
    engine: MemoryEngine, code: int, back_event: str, identified: list[list[int]], resumes: int
) -> None:
    """One shard of a process loses its connection: the other keeps its own and answers; once the
    shard is back with its guilds the process is ready again and the shard answers too."""
    async with FakeDiscord() as fake:
        alice = fd.user("alice")
        channels = [add_guild_in_shard(fake, alice, shard_id, 3) for shard_id in (0, 2)]
        adapter, turns = await start_shards(fake, engine, channels, 3, [0, 2])
        try:
            bot = adapter.bot
            assert bot is not None and adapter.ready
            back = bot.wait_for(back_event, check=lambda shard_id: shard_id == 2)
            await fake.close_session(code, guild_id=channels[1]["guild_id"])
            await answered(fake, turns, channels[0], alice, "shard 0 is still here")
            await asyncio.wait_for(back, fd.WAIT_LIMIT_SECONDS)
            await fake.wait_ready(channels[1]["guild_id"])  # after the handlers of the event
            assert identified_shards(fake) == identified and fake.resumes == resumes
            assert adapter.ready
            await answered(fake, turns, channels[1], alice, "shard 2 is back")
            assert guild_ids(adapter) == sorted(c["guild_id"] for c in channels)
        finally:
            await adapter.stop(grace=5)
