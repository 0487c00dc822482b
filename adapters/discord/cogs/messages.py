"""Discord message intake: which messages the bot answers or learns from, and how replies go out.

Answered: DMs, direct mentions of the bot (anywhere it can read) and messages in the configured
`channels`. Learned from without replying: messages in `learn_channels`. Everything else is ignored,
as are bots (this one included), webhooks and system messages (joins, pins, boosts, thread
creation notices): those carry no conversation, and Discord writes their text, not a person.
A message left with no text once the bot's mention is removed (a bare ping) is ignored too.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Collection
from contextlib import AsyncExitStack
from dataclasses import dataclass
from datetime import UTC, datetime

import discord
from discord.ext import commands

from adapters.attachment_notes import attachment_note, with_notes
from adapters.base import IncomingMessage, TurnFunction
from adapters.coalescer import CoalesceConfig, Coalescer, Scheduler
from adapters.split import split_message
from memory.errors import CoalescerClosed
from memory.models import ConversationKind

from . import PLATFORM
from .conversations import place_of

log = logging.getLogger(__name__)

DISCORD_MESSAGE_LIMIT = 2000
# Replies never ping @everyone, @here or roles, whatever the model writes; people it names may be.
REPLY_MENTIONS = discord.AllowedMentions(everyone=False, roles=False, users=True, replied_user=False)
_CONVERSATION_TYPES = frozenset({discord.MessageType.default, discord.MessageType.reply})


@dataclass(frozen=True, slots=True)
class Routing:
    """What the bot does with one Discord message."""

    message: IncomingMessage
    respond: bool


def _mention_pattern(user_id: int) -> re.Pattern[str]:
    return re.compile(rf"<@!?{user_id}>\s?")


def route_message(
    message: discord.Message,
    me: discord.abc.User,
    channels: Collection[str],
    learn_channels: Collection[str],
) -> Routing | None:
    """The incoming message and whether to answer it, or None when the bot ignores it."""
    author = message.author
    if author.bot or author.id == me.id or message.webhook_id is not None:
        return None
    if message.type not in _CONVERSATION_TYPES:
        return None
    is_dm = isinstance(message.channel, discord.DMChannel)
    if not is_dm and message.guild is None:
        # A guild message from a guild discord.py has not cached (or a channel it cannot place):
        # taking it as a DM would file it with the author's private memories.
        log.debug("message from an unknown guild ignored", extra={"platform": PLATFORM})
        return None
    mentions_bot = any(user.id == me.id for user in message.mentions)
    # A thread is configured by its parent channel; its rows live under the parent too, unless
    # it is private (see `place_of`). The kind comes from discord.py's view of the channel.
    place = place_of(message.channel)
    if is_dm or mentions_bot or place.config_id in channels:
        respond = True
    elif place.config_id in learn_channels:
        respond = False
    else:
        return None
    text = _clean_text(message, me)
    if not text:
        return None
    if is_dm:
        workspace_id = f"dm-{author.id}"
    else:
        assert message.guild is not None  # not a DM, so sent in a guild
        workspace_id = str(message.guild.id)
    is_admin = isinstance(author, discord.Member) and author.guild_permissions.manage_guild
    incoming = IncomingMessage(
        platform=PLATFORM,
        workspace_id=workspace_id,
        channel_id=place.channel_id,
        author_id=str(author.id),
        author_name=author.display_name,
        text=text,
        timestamp=message.created_at.timestamp(),
        thread_id=place.thread_id,
        external_id=str(message.id),
        mentions_bot=mentions_bot,
        author_is_admin=bool(is_admin),
        kind=ConversationKind.DM if is_dm else place.kind,
    )
    return Routing(incoming, respond)


# Custom emoji (`<:name:id>`, animated `<a:name:id>`) and timestamps (`<t:1700000000:R>`).
_CUSTOM_EMOJI = re.compile(r"<a?(:\w{2,32}:)\d{15,21}>")
_TIMESTAMP = re.compile(r"<t:(-?\d{1,13})(?::[tTdDfFR])?>")


def _timestamp(match: re.Match[str]) -> str:
    try:
        moment = datetime.fromtimestamp(int(match.group(1)), tz=UTC)
    except (OverflowError, OSError, ValueError):
        return match.group(0)
    return moment.strftime("%Y-%m-%d %H:%M UTC")


def _clean_text(message: discord.Message, me: discord.abc.User) -> str:
    """The content without the bot's own mention; other people's, roles' and channels' mentions
    become `@name` and `#name`, custom emoji `:name:` and timestamps their date and time (UTC)."""
    # discord.py keeps the payload's `content` as sent: not always a string when Discord misbehaves.
    content = message.content if isinstance(message.content, str) else ""
    text = _mention_pattern(me.id).sub("", content)
    # `<@123>` means nothing to the model or to memory; the name does.
    names = {rf"<@!?{user.id}>": f"@{user.display_name}" for user in message.mentions if user.id != me.id}
    names |= {rf"<@&{role.id}>": f"@{role.name}" for role in message.role_mentions}
    if "<#" in content:
        # discord.py reads these from `content` itself, which fails when it is no string.
        names |= {rf"<#{channel.id}>": f"#{channel.name}" for channel in message.channel_mentions}
    for pattern, name in names.items():
        text = re.sub(pattern, lambda _match, name=name: name, text)
    text = _TIMESTAMP.sub(_timestamp, _CUSTOM_EMOJI.sub(r"\1", text))
    # An image's alt text (`description`) says what it shows: a picture with no words is still news.
    notes = [
        note
        for attachment in message.attachments
        if (
            note := attachment_note(
                getattr(attachment, "filename", None),
                getattr(attachment, "description", None),
                getattr(attachment, "content_type", None),
            )
        )
    ]
    return with_notes(text, notes).strip()


class DiscordIntake:
    """Coalesces accepted messages per conversation and runs one turn per batch, replying in Discord.

    It outlives any one connection (the adapter makes a new client after a failed start), so the
    coalescer and the messages waiting in it survive reconnects.
    """

    def __init__(
        self,
        turn: TurnFunction,
        coalesce: CoalesceConfig,
        *,
        scheduler: Scheduler | None = None,
        limit: int = DISCORD_MESSAGE_LIMIT,
    ) -> None:
        self._turn = turn
        self._limit = limit
        self.coalescer = Coalescer.from_settings(self._handle_batch, coalesce, scheduler=scheduler)
        # The Discord message behind each queued one (to reply to it) and whether it wants a reply.
        self._sources: dict[str, tuple[discord.Message, bool]] = {}
        self._accepting = True

    @property
    def accepting(self) -> bool:
        return self._accepting and not self.coalescer.closed

    def submit(self, source: discord.Message, routing: Routing) -> bool:
        """Queue a routed message; False once intake has stopped."""
        if not self.accepting:
            return False
        key = routing.message.external_id or str(source.id)
        self._sources[key] = (source, routing.respond)
        try:
            self.coalescer.submit(routing.message)
        except CoalescerClosed:
            self._sources.pop(key, None)
            return False
        return True

    async def drain(self) -> None:
        """Wait until every accepted message has been through its turn (and its reply sent)."""
        await self.coalescer.drain()

    def stop_intake(self) -> None:
        self._accepting = False

    async def aclose(self, grace: float | None = None) -> None:
        """Stop intake, send what is pending and wait for running turns, at most `grace` seconds."""
        self.stop_intake()
        await self.coalescer.aclose(grace)
        self._sources.clear()

    async def _handle_batch(self, batch: list[IncomingMessage]) -> None:
        entries = [self._sources.pop(m.external_id or "", None) for m in batch]
        sources = [entry[0] for entry in entries if entry is not None]
        respond = any(entry[1] for entry in entries if entry is not None)
        if not respond or not sources:
            await self._turn(batch, False)
            return
        last = sources[-1]
        async with AsyncExitStack() as stack:
            try:
                await stack.enter_async_context(last.channel.typing())
            except discord.HTTPException:
                # Typing is a courtesy: without the permission the reply still goes out.
                log.debug("could not show typing", exc_info=True)
            reply = await self._turn(batch, True)
        if reply:
            await self.send_reply(last, reply)

    async def send_reply(self, last: discord.Message, reply: str) -> int:
        """Post `reply` in chunks: the first answers `last`, the rest follow. Returns chunks sent."""
        sent = 0
        for chunk in split_message(reply, self._limit):
            try:
                if sent == 0:
                    await self._send_first(last, chunk)
                else:
                    await last.channel.send(chunk, allowed_mentions=REPLY_MENTIONS)
            except discord.HTTPException as exc:
                # Forbidden is an HTTPException too. Later chunks would fail the same way, and
                # posting them after a gap would garble the reply.
                log.warning(
                    "could not send a reply on Discord",
                    extra={
                        "platform": PLATFORM,
                        "channel_id": str(last.channel.id),
                        "status": getattr(exc, "status", None),
                        "chunks_sent": sent,
                    },
                )
                break
            sent += 1
        return sent

    async def _send_first(self, last: discord.Message, chunk: str) -> None:
        # The reply still posts if the message was deleted meanwhile (fail_if_not_exists=False).
        reference = last.to_reference(fail_if_not_exists=False)
        try:
            await last.channel.send(chunk, reference=reference, allowed_mentions=REPLY_MENTIONS)
        except discord.Forbidden:
            # Replying needs Read Message History on top of Send Messages; a plain message may
            # still be allowed. If it is not, this raises and the caller logs it.
            await last.channel.send(chunk, allowed_mentions=REPLY_MENTIONS)


class MessagesCog(commands.Cog):
    """Routes every message the bot sees into the intake (or nowhere)."""

    def __init__(
        self,
        bot: commands.Bot,
        intake: DiscordIntake,
        channels: Collection[str] = (),
        learn_channels: Collection[str] = (),
    ) -> None:
        self.bot = bot
        self.intake = intake
        self.channels = frozenset(str(c) for c in channels)
        self.learn_channels = frozenset(str(c) for c in learn_channels)

    @commands.Cog.listener()
    async def on_message(self, message: discord.Message) -> None:
        me = self.bot.user
        if me is None:
            return  # not logged in yet: cannot tell mentions of the bot apart
        routing = route_message(message, me, self.channels, self.learn_channels)
        if routing is None:
            return
        if not self.intake.submit(message, routing):
            log.debug("message dropped: intake stopped", extra={"platform": PLATFORM})
