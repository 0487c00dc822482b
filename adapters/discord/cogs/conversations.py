"""Which conversation a Discord channel is (where its rows live, and what kind it is), and the
listeners that report members-only conversations as the bot learns of them."""

from __future__ import annotations

import logging
from collections.abc import Iterable
from dataclasses import dataclass

import discord
from discord.ext import commands

from adapters.base import ConversationsFound
from memory.models import Conversation, ConversationKind

from . import PLATFORM

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Place:
    """Where a Discord message belongs.

    `channel_id` is the conversation rows are kept under: the channel itself, the parent channel
    of a public thread (which inherits the parent's kind), or a private thread's own id (only its
    members read it, not the whole parent channel). `config_id` is the id the bot's channel
    settings name (the parent of any thread).
    """

    channel_id: str
    thread_id: str | None
    kind: ConversationKind
    config_id: str


def kind_of(channel: object) -> ConversationKind:
    """The kind of a channel from discord.py's own view of it: DM, group DM, a private thread,
    a channel (or thread of one) that `@everyone` cannot view, or public. What discord.py cannot
    place (a channel it has not cached) counts as private: nothing learned there leaks."""
    if isinstance(channel, discord.DMChannel):
        return ConversationKind.DM
    if isinstance(channel, discord.GroupChannel):
        return ConversationKind.GROUP
    if isinstance(channel, discord.Thread):
        if channel.type is discord.ChannelType.private_thread:
            return ConversationKind.PRIVATE
        parent = channel.parent
        return kind_of(parent) if parent is not None else ConversationKind.PRIVATE
    if isinstance(channel, discord.abc.GuildChannel):
        # The permissions someone with only @everyone has here: the role's guild permissions
        # with the channel's overwrites (category overwrites are copied onto synced channels).
        everyone = channel.guild.default_role
        return (
            ConversationKind.PUBLIC
            if channel.permissions_for(everyone).view_channel
            else ConversationKind.PRIVATE
        )
    return ConversationKind.PRIVATE


def place_of(channel: object) -> Place:
    """Where a message sent in `channel` belongs (see `Place`)."""
    kind = kind_of(channel)
    channel_id = str(getattr(channel, "id", ""))
    if isinstance(channel, discord.Thread):
        parent_id = str(channel.parent_id)
        if channel.type is discord.ChannelType.private_thread:
            return Place(channel_id, channel_id, kind, parent_id)
        return Place(parent_id, channel_id, kind, parent_id)
    return Place(channel_id, None, kind, channel_id)


def members_only(guild: discord.Guild, channels: Iterable[object]) -> list[Conversation]:
    """The conversations among `channels` that only their members may read."""
    found: dict[str, Conversation] = {}
    for channel in channels:
        if isinstance(channel, discord.CategoryChannel):
            continue  # a category holds no messages; its channels carry its overwrites
        place = place_of(channel)
        if place.kind is not ConversationKind.PUBLIC:
            found[place.channel_id] = Conversation(PLATFORM, str(guild.id), place.channel_id, place.kind)
    return list(found.values())


class ConversationsCog(commands.Cog):
    """Reports a guild's members-only channels and threads when it becomes available (start-up,
    reconnects, joins) and when a channel is created or its permissions change, so what was
    stored in them before their kind was known is narrowed to them."""

    def __init__(self, bot: commands.Bot, found: ConversationsFound) -> None:
        self.bot = bot
        self.found = found

    async def _report(self, guild: discord.Guild, channels: Iterable[object]) -> None:
        conversations = members_only(guild, channels)
        if conversations:
            await self.found(conversations)
            log.debug(
                "discord conversations classified", extra={"platform": PLATFORM, "count": len(conversations)}
            )

    @commands.Cog.listener()
    async def on_guild_available(self, guild: discord.Guild) -> None:
        await self._report(guild, [*guild.channels, *guild.threads])

    @commands.Cog.listener()
    async def on_guild_join(self, guild: discord.Guild) -> None:
        await self._report(guild, [*guild.channels, *guild.threads])

    @commands.Cog.listener()
    async def on_guild_channel_create(self, channel: discord.abc.GuildChannel) -> None:
        await self._report(channel.guild, [channel])

    @commands.Cog.listener()
    async def on_guild_channel_update(
        self, before: discord.abc.GuildChannel, after: discord.abc.GuildChannel
    ) -> None:
        # A channel made private narrows what was said in it, and its public threads with it.
        threads = [t for t in after.guild.threads if t.parent_id == after.id]
        await self._report(after.guild, [after, *threads])

    @commands.Cog.listener()
    async def on_guild_role_update(self, before: discord.Role, after: discord.Role) -> None:
        # @everyone losing View Channel makes every channel members-only.
        if after.is_default():
            await self._report(after.guild, [*after.guild.channels, *after.guild.threads])

    @commands.Cog.listener()
    async def on_thread_create(self, thread: discord.Thread) -> None:
        await self._report(thread.guild, [thread])
