"""The Discord adapter: a discord.py bot with the message and `/memory` cogs, and command sync."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import sys
from collections.abc import Sequence
from typing import Any, Protocol

import aiohttp
import discord
from discord import app_commands
from discord.ext import commands
from pydantic import SecretStr

from adapters.base import ChannelLists, ConversationsFound, TurnFunction
from adapters.coalescer import CoalesceConfig, Scheduler
from adapters.command_table import CommandRunner
from adapters.discord.cogs import PLATFORM
from adapters.discord.cogs.conversations import ConversationsCog
from adapters.discord.cogs.memory import MemoryCog, build_memory_group
from adapters.discord.cogs.messages import DiscordIntake, MessagesCog
from adapters.discord.gateway import guard_parsers
from adapters.discord.render import error_embed
from memory.errors import ConfigError

log = logging.getLogger(__name__)

# Reconnect backoff after a failed start; discord.py itself handles drops once connected.
RETRY_INITIAL_SECONDS = 1.0
RETRY_MAX_SECONDS = 300.0
# How long `stop` waits for the connection task to end after closing the client.
STOP_TIMEOUT_SECONDS = 10.0

# Raised by a start that no retry can fix: a bad token, a missing privileged intent, or gateway
# close codes for authentication failure (4004), bad shards (4010, 4011), version (4012), intents (4013).
_FATAL_CLOSE_CODES = frozenset({4004, 4010, 4011, 4012, 4013, 4014})
_RETRYABLE = (
    OSError,
    aiohttp.ClientError,
    TimeoutError,
    discord.GatewayNotFound,
    discord.ConnectionClosed,
    discord.HTTPException,
)


class DiscordConfig(ChannelLists, Protocol):
    """The settings the Discord adapter reads (the bot's `DiscordConfig`)."""

    @property
    def token(self) -> SecretStr | None: ...

    @property
    def message_content_intent(self) -> bool: ...

    @property
    def guild_ready_timeout_seconds(self) -> float: ...

    @property
    def shard_count(self) -> int | None: ...

    @property
    def shard_ids(self) -> Sequence[int]: ...


def bot_intents(settings: DiscordConfig) -> discord.Intents:
    """Default intents, plus message content (privileged: it must be enabled in the developer portal)."""
    intents = discord.Intents.default()
    intents.message_content = settings.message_content_intent
    return intents


class MemoryBot(commands.Bot):
    """The discord.py client: it carries the cogs and reports whether it is connected."""

    def __init__(
        self,
        settings: DiscordConfig,
        intake: DiscordIntake,
        memory_commands: CommandRunner,
        conversations: ConversationsFound | None = None,
        **client_options: Any,
    ) -> None:
        super().__init__(
            **client_options,
            command_prefix=commands.when_mentioned,
            intents=bot_intents(settings),
            help_command=None,
            allowed_mentions=discord.AllowedMentions(everyone=False, roles=False, users=True),
            # How long discord.py waits after READY for more GUILD_CREATEs before it is ready.
            guild_ready_timeout=settings.guild_ready_timeout_seconds,
        )
        self.settings = settings
        self.intake = intake
        self.memory_commands = memory_commands
        self.conversations = conversations
        self.connected = False
        self.ready_once = False
        self.tree.error(self._on_app_command_error)
        guard_parsers(self._connection.parsers)

    async def setup_hook(self) -> None:
        # Commands are not synced here: syncing is rate limited and only needed when the table
        # changes, so it runs on request (`memorybot discord sync`).
        if self.get_cog(MessagesCog.__cog_name__) is None:
            await self.add_cog(
                MessagesCog(self, self.intake, self.settings.channels, self.settings.learn_channels)
            )
        if self.get_cog(MemoryCog.__cog_name__) is None:
            await self.add_cog(MemoryCog(self, self.memory_commands))
        if self.conversations is not None and self.get_cog(ConversationsCog.__cog_name__) is None:
            await self.add_cog(ConversationsCog(self, self.conversations))

    async def close(self) -> None:
        # discord.py keeps waiting for GUILD_CREATEs (guild_ready_timeout) after its client is
        # closed; when the wait ends it dispatches `ready` on the closed client, which fails with a
        # traceback. A client closed (stopped or crashed) that soon after READY never gets ready.
        # Sharded, each shard waits in a task of its own (`shard_ready`), and the client's wait
        # only begins once every shard has its READY: a shard's is ended here too.
        state = self._connection
        waits = [getattr(state, "_ready_task", None), *getattr(state, "_ready_tasks", {}).values()]
        for waiting in waits:
            if waiting is not None and not waiting.done():
                waiting.cancel()
        await super().close()

    async def on_message(self, message: discord.Message, /) -> None:
        # No prefix commands: the messages cog's listener handles every message. Without this
        # override a mention followed by text would be parsed as a (missing) prefix command.
        return

    async def on_ready(self) -> None:
        self.connected = True
        self.ready_once = True
        user = self.user
        log.info(
            "connected to Discord",
            extra={
                "platform": PLATFORM,
                "bot_user": f"{user} ({user.id})" if user else None,
                "guilds": len(self.guilds),
            },
        )

    async def on_resumed(self) -> None:
        self.connected = True

    async def on_disconnect(self) -> None:
        if self.connected:
            log.warning("disconnected from Discord; reconnecting", extra={"platform": PLATFORM})
        self.connected = False

    async def on_error(self, event_method: str, /, *args: Any, **kwargs: Any) -> None:
        # discord.py's default logs the whole traceback at ERROR, for every odd message a listener
        # trips on: one line here (the event, the error's type, never the message), the
        # traceback at DEBUG for whoever asks for it.
        error = sys.exc_info()[1]
        log.error(
            "discord listener failed",
            extra={"platform": PLATFORM, "event": event_method, "error": type(error).__name__},
        )
        log.debug("discord listener failure", exc_info=error)

    async def _on_app_command_error(
        self, interaction: discord.Interaction, error: app_commands.AppCommandError
    ) -> None:
        cause = error.__cause__ or error
        # A command that raised is a bug here (ERROR); one Discord sent that no command matches,
        # or with options that do not convert, is the request's fault (WARNING).
        level = logging.ERROR if isinstance(error, app_commands.CommandInvokeError) else logging.WARNING
        log.log(
            level,
            "app command failed",
            extra={
                "platform": PLATFORM,
                "command": interaction.command.qualified_name if interaction.command else None,
                "error": type(cause).__name__,
            },
        )
        log.debug("app command failure", exc_info=error)
        embed = error_embed("Something went wrong running this command.")
        try:
            if interaction.response.is_done():
                await interaction.followup.send(embed=embed, ephemeral=True)
            else:
                await interaction.response.send_message(embed=embed, ephemeral=True)
        except discord.HTTPException:
            log.debug("could not report an app command error", exc_info=True)


class ShardedMemoryBot(MemoryBot, commands.AutoShardedBot):
    """The same bot running some shards of a sharded application (`DISCORD_SHARD_COUNT` and
    `DISCORD_SHARD_IDS`): one gateway connection per shard, each IDENTIFYing as [id, count], so
    Discord sends this process the events of the guilds of its shards only.

    It is connected while every one of its shards is. discord.py sends `ready` once per client,
    when all shards have their guilds, and `disconnect` and `resumed` without saying whose; the
    `shard_*` events say which shard went down or came back (`shard_ready` also after a shard
    identified again, when no `ready` follows)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.shards_down: set[int] = set()

    async def on_ready(self) -> None:
        await super().on_ready()
        self.connected = not self.shards_down

    async def on_resumed(self) -> None:
        return  # one shard's; on_shard_resumed says which

    async def on_disconnect(self) -> None:
        return  # one shard's; on_shard_disconnect says which

    async def on_shard_disconnect(self, shard_id: int) -> None:
        if shard_id not in self.shards_down:
            log.warning(
                "Discord shard disconnected; reconnecting", extra={"platform": PLATFORM, "shard": shard_id}
            )
        self.shards_down.add(shard_id)
        self.connected = False

    async def on_shard_ready(self, shard_id: int) -> None:
        self._shard_up(shard_id)

    async def on_shard_resumed(self, shard_id: int) -> None:
        self._shard_up(shard_id)

    def _shard_up(self, shard_id: int) -> None:
        self.shards_down.discard(shard_id)
        # Before `ready` the other shards may still be waiting for their guilds.
        self.connected = self.ready_once and not self.shards_down


def make_bot(
    settings: DiscordConfig,
    intake: DiscordIntake,
    memory_commands: CommandRunner,
    conversations: ConversationsFound | None = None,
) -> MemoryBot:
    """The unsharded bot, or (with a shard count) the shards this process runs, as discord.py
    shards: `AutoShardedBot(shard_ids=..., shard_count=...)`, every shard of the count when no
    ids are given."""
    if settings.shard_count is None:
        return MemoryBot(settings, intake, memory_commands, conversations)
    return ShardedMemoryBot(
        settings,
        intake,
        memory_commands,
        conversations,
        shard_count=settings.shard_count,
        shard_ids=list(settings.shard_ids) or None,
    )


class DiscordAdapter:
    """Runs the Discord bot for the app: connects in the background, retries, stops gracefully."""

    name = PLATFORM

    def __init__(
        self,
        settings: DiscordConfig,
        turn: TurnFunction,
        commands: CommandRunner,
        *,
        coalesce: CoalesceConfig,
        scheduler: Scheduler | None = None,
        conversations: ConversationsFound | None = None,
    ) -> None:
        if settings.token is None or not settings.token.get_secret_value().strip():
            raise ConfigError("DISCORD_TOKEN is not set")
        self.settings = settings
        self.memory_commands = commands
        self.conversations = conversations
        self.intake = DiscordIntake(turn, coalesce, scheduler=scheduler)
        self._bot: MemoryBot | None = None
        self._task: asyncio.Task[None] | None = None
        self._stopping = False
        self._wake = asyncio.Event()

    @property
    def bot(self) -> MemoryBot | None:
        """The current client (a new one is made for each connection attempt)."""
        return self._bot

    @property
    def ready(self) -> bool:
        bot = self._bot
        return bot is not None and bot.connected and not bot.is_closed()

    @property
    def connection_task(self) -> asyncio.Task[None] | None:
        return self._task

    def make_bot(self) -> MemoryBot:
        return make_bot(self.settings, self.intake, self.memory_commands, self.conversations)

    async def start(self) -> None:
        """Start connecting in the background and return at once."""
        if self._task is not None:
            return
        self._stopping = False
        self._wake.clear()
        self._task = asyncio.get_running_loop().create_task(self._run(), name="discord-connection")

    async def stop(self, grace: float | None = None) -> None:
        """Stop intake, finish pending batches within `grace` (replies need the connection), disconnect."""
        self._stopping = True
        self._wake.set()
        await self.intake.aclose(grace)
        if self._bot is not None:
            await self._bot.close()
        task, self._task = self._task, None
        if task is not None:
            _done, pending = await asyncio.wait({task}, timeout=STOP_TIMEOUT_SECONDS)
            if pending:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task

    async def _run(self) -> None:
        token = self._token()
        delay = RETRY_INITIAL_SECONDS
        while not self._stopping:
            bot = self._bot = self.make_bot()
            crashed = False
            try:
                await bot.start(token)
            except discord.LoginFailure:
                log.error(
                    "Discord rejected the bot token: check DISCORD_TOKEN (Developer Portal > Bot > Token); "
                    "not retrying",
                    extra={"platform": PLATFORM},
                )
                return
            except discord.PrivilegedIntentsRequired:
                log.error(
                    "Discord refused the Message Content intent: enable it in the Developer Portal "
                    "(Bot > Privileged Gateway Intents) or set DISCORD_MESSAGE_CONTENT_INTENT=false; "
                    "not retrying",
                    extra={"platform": PLATFORM},
                )
                return
            except _RETRYABLE as exc:
                if self._stopping:
                    return
                code = getattr(exc, "code", None)
                if isinstance(exc, discord.ConnectionClosed) and code in _FATAL_CLOSE_CODES:
                    log.error(
                        "Discord closed the connection for good (close code %s); not retrying",
                        code,
                        extra={"platform": PLATFORM},
                    )
                    return
                log.warning(
                    "cannot connect to Discord (%s: %s); retrying in %.0f s",
                    type(exc).__name__,
                    exc,
                    delay,
                    extra={"platform": PLATFORM},
                )
            except Exception as exc:
                if self._stopping:
                    return
                # What discord.py itself could not handle (a gateway frame that is not JSON, a
                # bug): the client is gone, the bot is not. A new client connects after a backoff
                # that keeps growing while crashes repeat, so a bug costs a reconnect every few
                # minutes at worst, never a storm of them. The traceback is at DEBUG.
                crashed = True
                log.error(
                    "Discord client crashed (%s); reconnecting in %.0f s",
                    type(exc).__name__,
                    delay,
                    extra={"platform": PLATFORM},
                )
                log.debug("Discord client crash", exc_info=exc)
            else:
                if self._stopping:
                    return
                log.warning("Discord client stopped unexpectedly; reconnecting", extra={"platform": PLATFORM})
            finally:
                if not bot.is_closed():
                    await bot.close()
            # A client that got connected before failing starts the backoff over, unless it crashed.
            wait = RETRY_INITIAL_SECONDS if bot.ready_once and not crashed else delay
            await self._backoff(wait)
            delay = min(RETRY_MAX_SECONDS, wait * 2)

    async def _backoff(self, delay: float) -> None:
        """Wait `delay` seconds, or less if `stop` is called meanwhile."""
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._wake.wait(), timeout=delay)

    def _token(self) -> str:
        token = self.settings.token
        assert token is not None  # checked in __init__
        return token.get_secret_value().strip()


async def _not_served(interaction: discord.Interaction, name: str, args: dict[str, object]) -> None:
    # The sync client never connects to the gateway, so no interaction can reach it.
    raise RuntimeError("the sync client does not serve commands")


async def sync_commands(token: str, guild_id: int | None = None) -> list[str]:
    """Register the `/memory` commands with Discord; returns the synced names (`memory list`, …).

    With `guild_id` the commands are copied to that guild, where they appear at once (handy while
    developing); without it they are registered globally, which Discord may take a while to show.
    Raises `discord.LoginFailure` for a bad token and `discord.HTTPException` when Discord refuses.
    """
    client = discord.Client(intents=discord.Intents.none())
    tree: app_commands.CommandTree[Any] = app_commands.CommandTree(client)
    tree.add_command(build_memory_group(_not_served))
    async with client:
        await client.login(token)
        if guild_id is None:
            synced = await tree.sync()
        else:
            guild = discord.Object(id=guild_id)
            tree.copy_global_to(guild=guild)
            synced = await tree.sync(guild=guild)
    names: list[str] = []
    for command in synced:
        subcommands = [o.name for o in command.options if isinstance(o, app_commands.AppCommandGroup)]
        names += [f"{command.name} {sub}" for sub in subcommands] or [command.name]
    log.info("synced Discord commands", extra={"platform": PLATFORM, "guild_id": guild_id, "commands": names})
    return names
