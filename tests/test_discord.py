"""The Discord adapter on spec'd discord.py mocks: /memory over real stores, message intake, start/stop."""

from __future__ import annotations

import asyncio
import functools
import json
import logging
from collections.abc import Sequence
from types import SimpleNamespace
from typing import Any
from unittest.mock import AsyncMock, MagicMock

import discord
import pytest
from discord import app_commands
from pydantic import ValidationError

from adapters.base import Adapter, IncomingMessage
from adapters.command_table import COMMANDS, CommandSpec, OptionSpec
from adapters.discord import DiscordAdapter, MemoryBot, sync_commands
from adapters.discord import bot as discord_bot
from adapters.discord.cogs.memory import MemoryCog, build_memory_group, build_subcommand, invoker_from
from adapters.discord.cogs.messages import DiscordIntake, MessagesCog
from adapters.discord.render import NOT_YOURS, PageView
from bot.commands import NOT_FOUND, MemoryCommands
from memory.engine import MemoryEngine
from memory.models import MemoryType, Scope, Visibility
from tests import helpers
from tests.fakes.discord_objects import ALICE, BOB, BOT_ID, CHANNEL_ID, GUILD_ID, LEARN_CHANNEL_ID, MOD, Chat
from tests.helpers import (
    NO_DEBOUNCE,
    DiscordSessions,
    FakeClock,
    discord_giving_up,
    discord_settings,
    watched_discord_adapter,
)

OTHER_CHANNEL_ID = 5999
PAGE_SIZE = 5

GUILD_SCOPE = Scope("discord", str(GUILD_ID), str(CHANNEL_ID), "default")


def dm_scope(user_id: int) -> Scope:
    return Scope("discord", f"dm-{user_id}", f"dm-channel-{user_id}", "default")


# --- memories on the real engine ------------------------------------------------------------------


# Alice's, in the guild channel, unless told otherwise.
remember = functools.partial(helpers.remember, scope=GUILD_SCOPE, user=str(ALICE))


ALICE_FACTS = [
    "Alice plays the cello in a string quartet",
    "Alice's cat is named Pixel",
    "Alice is allergic to peanuts",
    "Alice commutes by bicycle",
    "Alice grew up in Montreal",
    "Alice collects vintage fountain pens",
    "Alice keeps bees in her garden",
]


@pytest.fixture
def memory_commands(engine: MemoryEngine, clock: FakeClock) -> MemoryCommands:
    return MemoryCommands(engine, "default", page_size=PAGE_SIZE, clock=clock)


@pytest.fixture
def cog(memory_commands: MemoryCommands) -> MemoryCog:
    bot = MagicMock(spec=MemoryBot)
    bot.tree = MagicMock(spec=app_commands.CommandTree)
    return MemoryCog(bot, memory_commands)


# --- interactions -----------------------------------------------------------------------------------


class InteractionRecord:
    """A spec'd interaction plus the order in which it was answered."""

    def __init__(
        self,
        user_id: int,
        *,
        guild_id: int | None = GUILD_ID,
        channel_id: int = CHANNEL_ID,
        manage_guild: bool = False,
        channel_kind: type = discord.TextChannel,
    ) -> None:
        self.events: list[str] = []
        self.sent: list[dict[str, Any]] = []
        it = MagicMock(spec=discord.Interaction)
        user = MagicMock(spec=discord.Member if guild_id is not None else discord.User)
        user.id = user_id
        it.user = user
        it.guild_id = guild_id
        it.channel_id = channel_id
        channel = MagicMock(spec=channel_kind if guild_id is not None else discord.DMChannel)
        channel.id = channel_id
        it.channel = channel
        it.permissions = discord.Permissions(manage_guild=manage_guild)
        it.response = MagicMock(spec=discord.InteractionResponse)
        it.response.defer.side_effect = self._deferred
        it.response.send_message.side_effect = self._responded
        it.followup = MagicMock(spec=discord.Webhook)
        it.followup.send.side_effect = self._followed_up
        it.edit_original_response.side_effect = self._edited
        self.message = MagicMock(spec=discord.WebhookMessage)
        self.interaction = it

    async def _deferred(self, **kwargs: Any) -> None:
        self.events.append("defer")

    async def _responded(self, *args: Any, **kwargs: Any) -> None:
        self.events.append("respond")

    async def _followed_up(self, **kwargs: Any) -> discord.WebhookMessage:
        self.events.append("followup")
        self.sent.append(kwargs)
        return self.message

    async def _edited(self, **kwargs: Any) -> None:
        self.events.append("edit")
        self.sent.append(kwargs)

    @property
    def last(self) -> dict[str, Any]:
        assert self.sent, "nothing was sent"
        return self.sent[-1]

    @property
    def embed(self) -> discord.Embed:
        embed = self.last["embed"]
        assert isinstance(embed, discord.Embed)
        return embed


async def run(cog: MemoryCog, name: str, rec: InteractionRecord, **options: Any) -> InteractionRecord:
    await cog.subcommand(name).callback(rec.interaction, **options)
    return rec


def member(user_id: int, name: str = "someone") -> MagicMock:
    person = MagicMock(spec=discord.Member)
    person.id = user_id
    person.display_name = name
    return person


# --- the table drives registration --------------------------------------------------------------------

KIND_TYPES = {
    "text": discord.AppCommandOptionType.string,
    "choice": discord.AppCommandOptionType.string,
    "user": discord.AppCommandOptionType.user,
    "id": discord.AppCommandOptionType.string,
    "int": discord.AppCommandOptionType.integer,
}


def assert_group_matches_table(group: app_commands.Group, table: Sequence[CommandSpec]) -> None:
    assert group.name == "memory"
    commands = group.commands
    assert [c.name for c in commands] == [spec.name for spec in table]
    for command, spec in zip(commands, table, strict=True):
        assert isinstance(command, app_commands.Command)
        assert command.description == spec.description
        registered = [
            (p.name, p.description, p.required, p.type, [c.value for c in p.choices], p.min_value)
            for p in command.parameters
        ]
        expected = [
            (
                o.name,
                o.description,
                o.required,
                KIND_TYPES[o.kind],
                list(o.choices),
                1 if o.kind in ("int", "id") else None,
            )
            for o in spec.options
        ]
        assert registered == expected, spec.name


async def test_the_wait_for_guilds_after_ready_is_the_setting(memory_commands: MemoryCommands) -> None:
    intake = DiscordIntake(AsyncMock(return_value=None), NO_DEBOUNCE)
    bot = MemoryBot(discord_settings(guild_ready_timeout_seconds=7.5), intake, memory_commands)
    try:
        assert bot._connection.guild_ready_timeout == 7.5
    finally:
        await bot.close()
    with pytest.raises(ValidationError, match="guild_ready_timeout_seconds"):
        discord_settings(guild_ready_timeout_seconds=-1)


async def test_registered_memory_group_equals_the_command_table(memory_commands: MemoryCommands) -> None:
    intake = DiscordIntake(AsyncMock(return_value=None), NO_DEBOUNCE)
    bot = MemoryBot(discord_settings(), intake, memory_commands)
    bot.tree.sync = AsyncMock()  # type: ignore[method-assign]
    try:
        await bot.setup_hook()
        group = bot.tree.get_command("memory")
        assert isinstance(group, app_commands.Group)
        assert_group_matches_table(group, COMMANDS)
        # The payload Discord would receive carries the same subcommands and choices.
        payload = group.to_dict(bot.tree)
        assert [o["name"] for o in payload["options"]] == [c.name for c in COMMANDS]
        list_type = payload["options"][0]["options"][0]
        assert [c["value"] for c in list_type["choices"]] == [t.value for t in MemoryType]
        # Registration is local only: nothing is synced with Discord on start.
        bot.tree.sync.assert_not_awaited()
    finally:
        await bot.close()


async def test_a_table_change_changes_the_registration() -> None:
    spec = CommandSpec(
        "recent",
        "Recent memories",
        (OptionSpec("limit", "int", "How many", True), OptionSpec("who", "user", "Whose", False)),
    )
    command = build_subcommand(spec, AsyncMock())
    group = app_commands.Group(name="memory", description="d")
    group.add_command(command)
    assert_group_matches_table(group, [spec])
    with pytest.raises(AssertionError):
        assert_group_matches_table(build_memory_group(AsyncMock()), [*COMMANDS[:-1]])


async def test_options_reach_execute_as_plain_values() -> None:
    runner = AsyncMock()
    group = build_memory_group(runner)
    rec = InteractionRecord(ALICE)
    about = group.get_command("about")
    assert isinstance(about, app_commands.Command)
    await about.callback(rec.interaction, user=member(BOB), page=2)  # type: ignore[call-arg]
    runner.assert_awaited_once_with(rec.interaction, "about", {"user": str(BOB), "page": 2})
    listing = group.get_command("list")
    assert isinstance(listing, app_commands.Command)
    await listing.callback(rec.interaction, type=None, page=None)  # type: ignore[call-arg]
    assert runner.await_args is not None
    assert runner.await_args.args[1:] == ("list", {})


# --- /memory results ---------------------------------------------------------------------------------


async def test_list_is_deferred_ephemeral_and_paged_with_buttons_for_the_invoker_only(
    cog: MemoryCog, engine: MemoryEngine, clock: FakeClock
) -> None:
    for fact in ALICE_FACTS:
        await remember(engine, clock, fact)
    rec = await run(cog, "list", InteractionRecord(ALICE))

    rec.interaction.response.defer.assert_awaited_once_with(ephemeral=True, thinking=True)
    assert rec.events == ["defer", "followup"]
    sent = rec.last
    assert sent["ephemeral"] is True
    embed = rec.embed
    assert embed.title == "Your memories"
    newest_first = list(reversed(ALICE_FACTS))
    description = embed.description or ""
    assert all(discord.utils.escape_markdown(f) in description for f in newest_first[:PAGE_SIZE])
    assert not any(discord.utils.escape_markdown(f) in description for f in newest_first[PAGE_SIZE:])
    assert embed.footer.text is not None and embed.footer.text.startswith("Page 1/2")

    view = sent["view"]
    assert isinstance(view, PageView)
    assert view.message is rec.message
    assert view.previous_page.disabled and not view.next_page.disabled

    stranger = InteractionRecord(BOB)
    assert await view.interaction_check(stranger.interaction) is False
    stranger.interaction.response.send_message.assert_awaited_once_with(NOT_YOURS, ephemeral=True)
    owner = InteractionRecord(ALICE)
    assert await view.interaction_check(owner.interaction) is True
    owner.interaction.response.send_message.assert_not_awaited()

    click = InteractionRecord(ALICE)
    await view.next_page.callback(click.interaction)
    assert click.events == ["defer", "edit"]
    page2 = click.embed.description or ""
    assert all(discord.utils.escape_markdown(f) in page2 for f in newest_first[PAGE_SIZE:])
    assert not any(discord.utils.escape_markdown(f) in page2 for f in newest_first[:PAGE_SIZE])
    assert click.last["view"] is view
    assert view.next_page.disabled and not view.previous_page.disabled
    # Numbering continues across pages.
    assert page2.startswith(f"{PAGE_SIZE + 1}. ")

    await view.on_timeout()
    assert view.next_page.disabled and view.previous_page.disabled
    rec.message.edit.assert_awaited_once_with(view=view)


async def test_a_single_page_has_no_buttons(cog: MemoryCog, engine: MemoryEngine, clock: FakeClock) -> None:
    await remember(engine, clock, ALICE_FACTS[0])
    rec = await run(cog, "list", InteractionRecord(ALICE))
    assert "view" not in rec.last
    assert rec.last["ephemeral"] is True


@pytest.mark.model  # a question finds the fact it paraphrases
async def test_search_and_about_show_matching_memories(
    cog: MemoryCog, engine: MemoryEngine, clock: FakeClock
) -> None:
    await remember(engine, clock, "Alice's cat is named Pixel")
    await remember(engine, clock, "Bob prefers tea over coffee", user=str(BOB))
    rec = await run(cog, "search", InteractionRecord(ALICE), query="what is the name of the cat")
    assert "Pixel" in (rec.embed.description or "")
    assert rec.last["ephemeral"] is True
    long_query = await run(cog, "search", InteractionRecord(ALICE), query="cat " * 500)
    assert long_query.embed.title is not None and len(long_query.embed.title) <= 256
    about = await run(cog, "about", InteractionRecord(ALICE), user=member(BOB, "Bob"))
    assert "tea over coffee" in (about.embed.description or "")
    assert "Pixel" not in (about.embed.description or "")


async def test_forgetting_someone_elses_memory_needs_manage_server(
    cog: MemoryCog, engine: MemoryEngine, clock: FakeClock, memory_commands: MemoryCommands
) -> None:
    memory = await remember(engine, clock, "Alice is allergic to peanuts")
    refused = await run(cog, "forget", InteractionRecord(BOB, manage_guild=False), id=memory.id)
    assert refused.embed.color == discord.Color.red()
    assert NOT_FOUND.format(id=memory.id) in (refused.embed.description or "")
    assert refused.last["ephemeral"] is True
    assert [f.value for f in refused.embed.fields] == ["`/memory forget <id>`"]

    still_there = await run(cog, "list", InteractionRecord(ALICE))
    assert "peanuts" in (still_there.embed.description or "")

    done = await run(cog, "forget", InteractionRecord(MOD, manage_guild=True), id=memory.id)
    assert done.embed.color != discord.Color.red()
    assert done.embed.title == "Forgotten"
    gone = await run(cog, "list", InteractionRecord(ALICE))
    assert "peanuts" not in (gone.embed.description or "")


@pytest.mark.model  # the searches would find the secrets were they shown
async def test_another_users_private_memories_never_show(
    cog: MemoryCog, engine: MemoryEngine, clock: FakeClock
) -> None:
    secret_dm = "Bob is secretly interviewing at another company"
    secret_guild = "Bob's therapist appointment is on Friday"
    await remember(
        engine, clock, secret_dm, user=str(BOB), scope=dm_scope(BOB), visibility=Visibility.PRIVATE
    )
    await remember(engine, clock, secret_guild, user=str(BOB), visibility=Visibility.PRIVATE)
    await remember(engine, clock, "Alice's cat is named Pixel")

    def shown(rec: InteractionRecord) -> str:
        parts = [rec.embed.description or ""]
        file = rec.last.get("file")
        if isinstance(file, discord.File):
            parts.append(file.fp.read().decode("utf-8"))
        return "\n".join(parts)

    for guild_id in (GUILD_ID, None):
        for name, options in (
            ("list", {}),
            ("search", {"query": "Bob interviewing at another company"}),
            ("search", {"query": "therapist appointment"}),
            ("about", {"user": member(BOB, "Bob")}),
            ("export", {}),
        ):
            rec = await run(cog, name, InteractionRecord(ALICE, guild_id=guild_id), **options)
            text = shown(rec)
            # The query is echoed in the title, so look for words only the secrets contain.
            assert "secretly" not in text and "on Friday" not in text, (guild_id, name, text)

    # Bob himself sees his DM memory in his DM: the filter is privacy, not a blanket hide.
    own = await run(cog, "search", InteractionRecord(BOB, guild_id=None), query="interviewing")
    assert "secretly" in (own.embed.description or "")


async def test_export_sends_a_json_file_ephemerally(
    cog: MemoryCog, engine: MemoryEngine, clock: FakeClock
) -> None:
    await remember(engine, clock, "Alice's cat is named Pixel")
    await remember(engine, clock, "Bob prefers tea over coffee", user=str(BOB))
    rec = await run(cog, "export", InteractionRecord(ALICE))
    assert rec.events == ["defer", "followup"]
    assert rec.last["ephemeral"] is True
    file = rec.last["file"]
    assert isinstance(file, discord.File)
    assert file.filename.endswith(".json") and str(ALICE) in file.filename
    exported = json.loads(file.fp.read())
    assert [m["content"] for m in exported] == ["Alice's cat is named Pixel"]


async def test_bad_options_answer_with_a_red_usage_embed(cog: MemoryCog) -> None:
    rec = await run(cog, "list", InteractionRecord(ALICE), type="nonsense")
    assert rec.events == ["defer", "followup"]
    assert rec.embed.color == discord.Color.red()
    assert "type must be one of" in (rec.embed.description or "")
    assert [f.value for f in rec.embed.fields] == ["`/memory list [type] [page]`"]
    assert rec.last["ephemeral"] is True


async def test_a_crash_in_execute_still_answers(cog: MemoryCog, caplog: pytest.LogCaptureFixture) -> None:
    cog.memory_commands = MagicMock(spec=MemoryCommands)
    cog.memory_commands.execute.side_effect = RuntimeError("store is down")
    with caplog.at_level(logging.ERROR):
        rec = await run(cog, "stats", InteractionRecord(ALICE))
    assert rec.embed.color == discord.Color.red()
    assert rec.last["ephemeral"] is True
    assert "store is down" in caplog.text


def test_invoker_scopes_follow_the_conversation() -> None:
    dm = invoker_from(InteractionRecord(ALICE, guild_id=None, channel_id=77).interaction)
    assert (dm.workspace_id, dm.channel_id, dm.user_id, dm.is_dm, dm.is_admin) == (
        f"dm-{ALICE}",
        "77",
        str(ALICE),
        True,
        False,
    )
    admin = invoker_from(InteractionRecord(MOD, manage_guild=True).interaction)
    assert (admin.platform, admin.workspace_id, admin.is_dm, admin.is_admin) == (
        "discord",
        str(GUILD_ID),
        False,
        True,
    )
    thread_rec = InteractionRecord(ALICE, channel_id=88, channel_kind=discord.Thread)
    thread_rec.interaction.channel.parent_id = CHANNEL_ID
    assert invoker_from(thread_rec.interaction).channel_id == str(CHANNEL_ID)


# --- message intake ------------------------------------------------------------------------------------


class _AnyMentions:
    """Equal to allowed mentions that never ping everyone or roles."""

    def __eq__(self, other: object) -> bool:
        return isinstance(other, discord.AllowedMentions) and other.everyone is False and other.roles is False


ANY_MENTIONS = _AnyMentions()


async def test_bots_self_webhooks_and_system_messages_are_ignored() -> None:
    chat = Chat()
    me = chat.message("talking to myself", author_id=BOT_ID, is_bot=True)
    other_bot = chat.message("beep", author_id=4242, is_bot=True)
    hook = chat.message("from a webhook", webhook_id=77)
    joined = chat.message("Alice joined the server", kind=discord.MessageType.new_member)
    pinned = chat.message("pinned a message", kind=discord.MessageType.pins_add)
    await chat.deliver(me, other_bot, hook, joined, pinned)
    assert chat.turns == []
    assert chat.sent == []


async def test_a_dm_is_answered_in_a_private_workspace() -> None:
    chat = Chat(reply="hello Alice")
    msg = chat.message("hi there", dm=True, channel=chat.channel(1234, discord.DMChannel))
    await chat.deliver(msg)
    [(batch, respond)] = chat.turns
    assert respond is True
    [incoming] = batch
    assert incoming.is_dm and incoming.workspace_id == f"dm-{ALICE}"
    assert (incoming.channel_id, incoming.author_id, incoming.text) == ("1234", str(ALICE), "hi there")
    assert incoming.author_is_admin is False
    assert chat.sent == [
        ("hello Alice", {"reference": msg.to_reference.return_value, "allowed_mentions": ANY_MENTIONS})
    ]
    msg.to_reference.assert_called_once_with(fail_if_not_exists=False)


async def test_a_mention_is_stripped_and_answered_anywhere() -> None:
    chat = Chat()
    elsewhere = chat.channel(OTHER_CHANNEL_ID)
    bob = member(BOB, "Bob")
    msg = chat.message(
        f"<@{BOT_ID}> what does <@!{BOB}> like?  <@!{BOT_ID}>",
        channel=elsewhere,
        mentions=[chat.me, bob],
        manage_guild=True,
    )
    await chat.deliver(msg)
    [(batch, respond)] = chat.turns
    assert respond is True
    [incoming] = batch
    assert incoming.text == "what does @Bob like?"
    assert incoming.mentions_bot is True
    assert incoming.author_is_admin is True
    assert incoming.platform == "discord"
    assert incoming.workspace_id == str(GUILD_ID) and incoming.channel_id == str(OTHER_CHANNEL_ID)
    assert incoming.external_id == str(msg.id)
    assert incoming.author_name == "Alice"
    assert incoming.timestamp == msg.created_at.timestamp()
    assert [content for content, _ in chat.sent] == ["ok"]


async def test_a_bare_mention_and_an_unconfigured_channel_are_ignored() -> None:
    chat = Chat()
    elsewhere = chat.channel(OTHER_CHANNEL_ID)
    await chat.deliver(
        chat.message("just chatting", channel=elsewhere),
        chat.message(f"<@{BOT_ID}>", channel=elsewhere, mentions=[chat.me]),
    )
    assert chat.turns == []
    assert chat.sent == []


async def test_a_configured_channel_is_answered_as_one_batch() -> None:
    chat = Chat(reply="both noted")
    channel = chat.channel(CHANNEL_ID)
    first = chat.message("I moved to Lyon", channel=channel)
    second = chat.message("and I started a new job", channel=channel)
    await chat.deliver(first, second)
    [(batch, respond)] = chat.turns
    assert respond is True
    assert [m.text for m in batch] == ["I moved to Lyon", "and I started a new job"]
    [(_content, kwargs)] = chat.sent
    # The reply answers the last message of the burst.
    assert kwargs["reference"] is second.to_reference.return_value
    first.to_reference.assert_not_called()


async def test_a_learn_channel_learns_without_replying_or_typing() -> None:
    chat = Chat(reply="should not be sent")
    channel = chat.channel(LEARN_CHANNEL_ID)
    await chat.deliver(chat.message("the deploy is on Tuesday", channel=channel))
    [(batch, respond)] = chat.turns
    assert respond is False
    assert batch[0].text == "the deploy is on Tuesday"
    assert chat.sent == []
    channel.typing.assert_not_called()


async def test_a_thread_maps_to_its_parent_channel() -> None:
    chat = Chat()
    thread = chat.channel(7777, discord.Thread)
    thread.parent_id = CHANNEL_ID
    await chat.deliver(chat.message("in a thread", channel=thread))
    [(batch, respond)] = chat.turns
    assert respond is True
    assert (batch[0].channel_id, batch[0].thread_id) == (str(CHANNEL_ID), "7777")


async def test_a_long_reply_is_split_in_order_while_typing_came_first() -> None:
    paragraphs = [f"Paragraph {i}: " + ("lorem ipsum dolor sit amet " * 20).strip() for i in range(9)]
    reply = "\n\n".join(paragraphs)
    assert len(reply) > 4000
    chat = Chat(reply=reply)
    msg = chat.message("tell me everything", dm=True)
    await chat.deliver(msg)
    contents = [content for content, _ in chat.sent]
    assert len(contents) >= 3
    assert all(0 < len(c) <= 2000 for c in contents)
    assert "\n\n".join(contents).split() == reply.split()
    assert chat.sent[0][1]["reference"] is msg.to_reference.return_value
    assert all("reference" not in kwargs for _, kwargs in chat.sent[1:])
    # Typing shows while the turn runs and stops before the reply is posted.
    assert chat.events[:3] == ["typing-start", "turn", "typing-stop"]
    assert chat.events[3:] == ["send"] * len(contents)


async def test_send_errors_are_logged_and_do_not_crash(caplog: pytest.LogCaptureFixture) -> None:
    chat = Chat(reply="x " * 1500)
    channel = chat.channel(CHANNEL_ID)
    forbidden = discord.Forbidden(MagicMock(status=403, reason="Forbidden"), "Missing Permissions")
    channel.send = AsyncMock(side_effect=forbidden)
    with caplog.at_level(logging.WARNING):
        await chat.deliver(chat.message("hello", channel=channel))
    assert len(chat.turns) == 1
    # The reply failed, then the plain message: the remaining chunks are not attempted.
    assert channel.send.await_count == 2
    assert "reference" in channel.send.await_args_list[0].kwargs
    assert "reference" not in channel.send.await_args_list[1].kwargs
    assert "could not send a reply" in caplog.text


async def test_a_refused_reply_falls_back_to_a_plain_message() -> None:
    chat = Chat(reply="answer")
    channel = chat.channel(CHANNEL_ID)
    sent: list[dict[str, Any]] = []

    async def send(content: str, **kwargs: Any) -> None:
        if "reference" in kwargs:
            # Replying needs Read Message History, which this channel denies.
            raise discord.Forbidden(MagicMock(status=403, reason="Forbidden"), "Missing Permissions")
        sent.append({"content": content, **kwargs})

    channel.send = AsyncMock(side_effect=send)
    await chat.deliver(chat.message("hello", channel=channel))
    assert [s["content"] for s in sent] == ["answer"]


async def test_typing_failure_does_not_block_the_reply() -> None:
    chat = Chat(reply="still here")
    channel = chat.channel(CHANNEL_ID)
    channel.typing = MagicMock(side_effect=discord.Forbidden(MagicMock(status=403, reason="x"), "no"))
    await chat.deliver(chat.message("hello", channel=channel))
    assert [content for content, _ in chat.sent] == ["still here"]


async def test_no_intake_after_stop() -> None:
    chat = Chat()
    await chat.intake.aclose()
    await chat.cog.on_message(chat.message("late", dm=True))
    assert chat.turns == []
    assert chat.intake.accepting is False


# --- the adapter ---------------------------------------------------------------------------------------


def test_bot_intents_follow_settings(memory_commands: MemoryCommands) -> None:
    assert discord_bot.bot_intents(discord_settings(message_content_intent=True)).message_content is True
    assert discord_bot.bot_intents(discord_settings(message_content_intent=False)).message_content is False


def test_adapter_needs_a_token(memory_commands: MemoryCommands) -> None:
    with pytest.raises(ValueError, match="DISCORD_TOKEN"):
        DiscordAdapter(discord_settings(token=None), AsyncMock(), memory_commands, coalesce=NO_DEBOUNCE)


async def test_an_invalid_token_is_logged_and_not_retried(
    memory_commands: MemoryCommands, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    async def bad_login(bot: MemoryBot) -> None:
        raise discord.LoginFailure("Improper token has been passed.")

    with caplog.at_level(logging.ERROR):
        adapter, attempts = await discord_giving_up(memory_commands, monkeypatch, bad_login)
    assert isinstance(adapter, Adapter)
    assert adapter.name == "discord"
    assert len(attempts) == 1
    assert "rejected the bot token" in caplog.text and "DISCORD_TOKEN" in caplog.text
    assert adapter.ready is False
    await adapter.stop(grace=0)


async def test_network_errors_are_retried_with_a_fresh_client_and_stop_disconnects(
    memory_commands: MemoryCommands, monkeypatch: pytest.MonkeyPatch
) -> None:
    attempts: list[MemoryBot] = []
    connected = asyncio.Event()
    clients = DiscordSessions()
    closed = clients.closed

    async def flaky_start(self: MemoryBot, token: str, *, reconnect: bool = True) -> None:
        attempts.append(self)
        assert token == "test-token"
        if len(attempts) == 1:
            raise OSError("network is unreachable")
        await self.on_ready()
        connected.set()
        await clients.until_closed(self)

    clients.install(monkeypatch, flaky_start)
    adapter = watched_discord_adapter(memory_commands)
    await adapter.start()
    assert adapter.ready is False
    await connected.wait()
    assert len(attempts) == 2 and attempts[0] is not attempts[1]
    assert attempts[0] in closed  # the failed client was released before the retry
    assert adapter.ready is True and adapter.bot is attempts[1]

    await adapter.stop(grace=1)
    assert adapter.ready is False
    assert attempts[1] in closed
    assert adapter.connection_task is None
    assert adapter.intake.accepting is False


async def test_stop_flushes_pending_batches_before_disconnecting(
    memory_commands: MemoryCommands, monkeypatch: pytest.MonkeyPatch
) -> None:
    order: list[str] = []

    async def turn(batch: Sequence[IncomingMessage], respond: bool) -> str | None:
        order.append("turn")
        return None

    closing = asyncio.Event()
    running = asyncio.Event()

    async def fake_start(self: MemoryBot, token: str, *, reconnect: bool = True) -> None:
        running.set()
        await closing.wait()

    async def fake_close(self: MemoryBot) -> None:
        order.append("close")
        closing.set()

    monkeypatch.setattr(MemoryBot, "start", fake_start)
    monkeypatch.setattr(MemoryBot, "close", fake_close)
    monkeypatch.setattr(MemoryBot, "is_closed", lambda self: closing.is_set())
    # A long debounce: the message would wait if stop did not flush it.
    slow = SimpleNamespace(debounce_seconds=3600.0, max_wait_seconds=3600.0)
    adapter = DiscordAdapter(discord_settings(), turn, memory_commands, coalesce=slow)
    await adapter.start()
    await running.wait()
    chat = Chat()
    msg = chat.message("passive", channel=chat.channel(LEARN_CHANNEL_ID))
    cog = MessagesCog(chat.cog.bot, adapter.intake, [], [str(LEARN_CHANNEL_ID)])
    await cog.on_message(msg)
    assert order == []
    await adapter.stop(grace=5)
    assert order == ["turn", "close"]


async def test_sync_commands_registers_the_group_globally_or_per_guild(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    logins: list[str] = []
    syncs: list[tuple[Any, list[str]]] = []

    async def fake_login(self: discord.Client, token: str) -> None:
        logins.append(token)

    async def fake_sync(self: app_commands.CommandTree[Any], *, guild: Any = None) -> list[Any]:
        commands = self.get_commands(guild=guild)
        syncs.append((guild, [c.name for c in commands]))
        return [
            app_commands.AppCommand(
                data={**c.to_dict(self), "id": "1", "application_id": "2", "version": "1"},  # type: ignore[typeddict-item]
                state=self.client._connection,
            )
            for c in commands
        ]

    monkeypatch.setattr(discord.Client, "login", fake_login)
    monkeypatch.setattr(app_commands.CommandTree, "sync", fake_sync)
    names = await sync_commands("tok", None)
    assert names == [f"memory {c.name}" for c in COMMANDS]
    guild_names = await sync_commands("tok", 42)
    assert guild_names == names
    assert logins == ["tok", "tok"]
    assert syncs[0] == (None, ["memory"])
    assert syncs[1][0].id == 42 and syncs[1][1] == ["memory"]


async def test_a_process_running_several_shards_is_connected_only_while_every_shard_is(
    memory_commands: MemoryCommands, caplog: pytest.LogCaptureFixture
) -> None:
    """discord.py's connection events for shards 0 and 2 of one client, in the order it sends them:
    `disconnect` and `resumed` come for any one shard, `ready` only once per client."""
    settings = discord_settings(shard_count=3, shard_ids=[0, 2])
    bot = DiscordAdapter(settings, AsyncMock(), memory_commands, coalesce=NO_DEBOUNCE).make_bot()
    assert isinstance(bot, discord.AutoShardedClient)
    await bot.on_shard_ready(0)
    assert not bot.connected  # shard 2 still waits for its guilds
    await bot.on_shard_ready(2)
    await bot.on_ready()
    assert bot.connected
    with caplog.at_level(logging.WARNING):
        for shard_id in (0, 2):
            await bot.on_disconnect()
            await bot.on_shard_disconnect(shard_id)
    assert not bot.connected
    assert [r.__dict__.get("shard") for r in caplog.records if r.name == discord_bot.__name__] == [0, 2]
    await bot.on_resumed()
    await bot.on_shard_resumed(0)
    assert not bot.connected  # shard 2 is still away
    await bot.on_shard_ready(2)  # it identified again: no `ready` follows
    assert bot.connected
