"""Spec'd discord.py objects for the Discord adapter's message intake, without a gateway (not a test module).

`Chat` is a turn function plus the guild, channels and messages discord.py would hand the messages
cog, all recording what happens in order. For a real discord.py client on the wire, see discord_api.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any
from unittest.mock import AsyncMock, MagicMock

import discord

from adapters.base import IncomingMessage
from adapters.discord import MemoryBot
from adapters.discord.cogs.messages import DiscordIntake, MessagesCog
from tests.helpers import DISCORD_CHANNEL_ID as CHANNEL_ID  # answered
from tests.helpers import DISCORD_LEARN_CHANNEL_ID as LEARN_CHANNEL_ID  # learned from silently
from tests.helpers import NO_DEBOUNCE

GUILD_ID = 4000
BOT_ID = 9000
ALICE, BOB, MOD = 111, 222, 333


class FakeTyping:
    def __init__(self, events: list[str]) -> None:
        self.events = events

    async def __aenter__(self) -> None:
        self.events.append("typing-start")

    async def __aexit__(self, *exc: object) -> None:
        self.events.append("typing-stop")


class Chat:
    """A fake turn function and Discord objects that record what happens, in order."""

    def __init__(self, reply: str | None = "ok") -> None:
        self.reply = reply
        self.events: list[str] = []
        self.turns: list[tuple[list[IncomingMessage], bool]] = []
        self.sent: list[tuple[str, dict[str, Any]]] = []
        self.ids = itertools.count(1)
        self.me = MagicMock(spec=discord.ClientUser)
        self.me.id = BOT_ID
        self.me.display_name = "memorybot"
        bot = MagicMock(spec=MemoryBot)
        bot.user = self.me
        self.intake = DiscordIntake(self.turn, NO_DEBOUNCE)
        self.cog = MessagesCog(bot, self.intake, [str(CHANNEL_ID)], [str(LEARN_CHANNEL_ID)])
        self.guild = MagicMock(spec=discord.Guild)
        self.guild.id = GUILD_ID

    async def turn(self, batch: Sequence[IncomingMessage], respond: bool) -> str | None:
        self.events.append("turn")
        self.turns.append((list(batch), respond))
        return self.reply if respond else None

    def channel(self, channel_id: int = CHANNEL_ID, kind: type = discord.TextChannel) -> MagicMock:
        channel = MagicMock(spec=kind)
        channel.id = channel_id
        channel.typing = MagicMock(return_value=FakeTyping(self.events))

        async def send(content: str, **kwargs: Any) -> MagicMock:
            self.events.append("send")
            self.sent.append((content, kwargs))
            return MagicMock(spec=discord.Message)

        channel.send = AsyncMock(side_effect=send)
        return channel

    def message(
        self,
        content: str,
        *,
        author_id: int = ALICE,
        author_name: str = "Alice",
        channel: MagicMock | None = None,
        dm: bool = False,
        mentions: Sequence[Any] = (),
        is_bot: bool = False,
        webhook_id: int | None = None,
        kind: discord.MessageType = discord.MessageType.default,
        manage_guild: bool = False,
    ) -> MagicMock:
        msg = MagicMock(spec=discord.Message)
        msg.id = next(self.ids) + 100_000
        author = MagicMock(spec=discord.User if dm else discord.Member)
        author.id = author_id
        author.bot = is_bot
        author.display_name = author_name
        if not dm:
            author.guild_permissions = discord.Permissions(manage_guild=manage_guild)
        msg.author = author
        msg.content = content
        msg.mentions = list(mentions)
        msg.webhook_id = webhook_id
        msg.type = kind
        msg.attachments = []
        msg.created_at = datetime(2026, 3, 1, 12, 0, msg.id % 60, tzinfo=UTC)
        msg.guild = None if dm else self.guild
        msg.channel = (
            channel
            if channel is not None
            else self.channel(kind=discord.DMChannel if dm else discord.TextChannel)
        )
        msg.to_reference.return_value = discord.MessageReference(
            message_id=msg.id, channel_id=msg.channel.id, fail_if_not_exists=False
        )
        return msg

    async def deliver(self, *messages: MagicMock) -> None:
        for msg in messages:
            await self.cog.on_message(msg)
        # Flushes every pending batch and waits for its turn and reply: no timers involved.
        await self.intake.aclose()
