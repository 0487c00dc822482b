"""The `/memory` app-command group, generated from the shared command table, as a cog."""

from __future__ import annotations

import inspect
import logging
from collections.abc import Awaitable, Callable
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from adapters.command_table import (
    COMMANDS,
    ROOT_COMMAND,
    CommandResult,
    CommandRunner,
    CommandSpec,
    Invoker,
    OptionKind,
    OptionSpec,
)
from adapters.discord.render import (
    PageView,
    error_embed,
    http_error_fields,
    needs_pages,
    result_embed,
    result_file,
)

from . import PLATFORM
from .conversations import place_of

log = logging.getLogger(__name__)

GROUP_DESCRIPTION = "See and manage what the bot remembers"

# How each option kind of the table is declared to Discord. Discord checks these client-side;
# `CommandRunner.execute` checks them again, so a stale registration cannot slip bad values in.
OPTION_ANNOTATIONS: dict[OptionKind, Any] = {
    "text": str,
    "choice": str,
    "user": discord.User,  # resolved to a Member inside a guild, a User in DMs
    "id": app_commands.Range[str, 1, 64],
    "int": app_commands.Range[int, 1],
}

# What a generated subcommand calls with its options, already turned into the table's plain values.
Runner = Callable[[discord.Interaction, str, dict[str, object]], Awaitable[None]]


def _plain(value: object) -> object:
    """An option value as the command table wants it: a person becomes their id."""
    if isinstance(value, discord.User | discord.Member):
        return str(value.id)
    return value


def build_subcommand(spec: CommandSpec, run: Runner) -> app_commands.Command[Any, ..., None]:
    """One app subcommand whose name, description and options are exactly `spec`'s."""

    async def callback(interaction: discord.Interaction, **options: Any) -> None:
        args = {name: _plain(value) for name, value in options.items() if value is not None}
        await run(interaction, spec.name, args)

    # discord.py reads options from the callback's signature, so the signature is made from the table.
    params = [
        inspect.Parameter(
            "interaction", inspect.Parameter.POSITIONAL_OR_KEYWORD, annotation=discord.Interaction
        )
    ]
    params += [_parameter(opt) for opt in spec.options]
    callback.__signature__ = inspect.Signature(params)  # type: ignore[attr-defined]
    callback.__name__ = callback.__qualname__ = f"{ROOT_COMMAND}_{spec.name}"
    if spec.options:
        app_commands.describe(**{opt.name: opt.description for opt in spec.options})(callback)
    choices = {
        opt.name: [app_commands.Choice(name=choice, value=choice) for choice in opt.choices]
        for opt in spec.options
        if opt.choices
    }
    if choices:
        app_commands.choices(**choices)(callback)
    return app_commands.Command(name=spec.name, description=spec.description, callback=callback)


def _parameter(opt: OptionSpec) -> inspect.Parameter:
    return inspect.Parameter(
        opt.name,
        inspect.Parameter.KEYWORD_ONLY,
        annotation=OPTION_ANNOTATIONS[opt.kind],
        default=inspect.Parameter.empty if opt.required else None,
    )


def build_memory_group(run: Runner) -> app_commands.Group:
    """The `/memory` group with one subcommand per entry of `COMMANDS`, in table order."""
    group = app_commands.Group(name=ROOT_COMMAND, description=GROUP_DESCRIPTION)
    for spec in COMMANDS:
        group.add_command(build_subcommand(spec, run))
    return group


def invoker_from(interaction: discord.Interaction) -> Invoker:
    """Who runs the command and where, scoped like the messages of that conversation."""
    user = interaction.user
    if interaction.guild_id is None:
        # A DM is its own private pseudo-workspace, as for messages.
        return Invoker(PLATFORM, f"dm-{user.id}", str(interaction.channel_id), str(user.id), is_dm=True)
    # Commands look where the conversation's messages are stored: a public thread's parent
    # channel, a private thread itself (see `place_of`).
    channel = interaction.channel
    channel_id = place_of(channel).channel_id if channel is not None else str(interaction.channel_id)
    return Invoker(
        PLATFORM,
        str(interaction.guild_id),
        channel_id,
        str(user.id),
        is_admin=bool(interaction.permissions.manage_guild),
    )


class MemoryCog(commands.Cog):
    """Answers `/memory …`: every reply is ephemeral, deferred before the work, paged with buttons."""

    def __init__(self, bot: commands.Bot, memory_commands: CommandRunner) -> None:
        self.bot = bot
        self.memory_commands = memory_commands
        self.group = build_memory_group(self.run)

    async def cog_load(self) -> None:
        # The group is built per instance (its callbacks close over this cog), so it is added here
        # rather than found on the class by discord.py's cog machinery.
        self.bot.tree.add_command(self.group, override=True)

    async def cog_unload(self) -> None:
        self.bot.tree.remove_command(self.group.name)

    def subcommand(self, name: str) -> app_commands.Command[Any, ..., Any]:
        command = self.group.get_command(name)
        if not isinstance(command, app_commands.Command):
            raise KeyError(name)
        return command

    async def run(self, interaction: discord.Interaction, name: str, args: dict[str, object]) -> None:
        """Defer, execute, answer: the executor reads stores and may embed a query (slow)."""
        invoker = invoker_from(interaction)
        try:
            await interaction.response.defer(ephemeral=True, thinking=True)
        except discord.HTTPException as exc:
            # The interaction expired (3 s) or was answered already: nothing can be sent to it now.
            log.warning("could not defer /memory %s", name, extra=http_error_fields(exc))
            return
        try:
            result = await self.memory_commands.execute(name, args, invoker)
        except Exception:
            log.exception("/memory %s failed", name, extra={"platform": PLATFORM})
            await self._send(interaction, embed=error_embed("Something went wrong running this command."))
            return
        await self.send_result(interaction, invoker, result)

    async def send_result(
        self, interaction: discord.Interaction, invoker: Invoker, result: CommandResult
    ) -> None:
        """The result as an ephemeral follow-up: embed, export file, and page buttons when paged."""
        view: PageView | None = None
        if needs_pages(result):

            async def fetch(page: int) -> CommandResult:
                return await self.memory_commands.execute(result.command, result.args, invoker, page=page)

            view = PageView(interaction.user.id, result, fetch)
        message = await self._send(
            interaction, embed=result_embed(result), file=result_file(result), view=view
        )
        if view is not None:
            view.message = message

    async def _send(
        self,
        interaction: discord.Interaction,
        *,
        embed: discord.Embed,
        file: discord.File | None = None,
        view: discord.ui.View | None = None,
    ) -> discord.WebhookMessage | None:
        kwargs: dict[str, Any] = {"embed": embed, "ephemeral": True, "wait": True}
        # discord.py treats a None file or view as a value, not as "no file": leave them out.
        if file is not None:
            kwargs["file"] = file
        if view is not None:
            kwargs["view"] = view
        try:
            return await interaction.followup.send(**kwargs)
        except discord.HTTPException as exc:
            log.warning("could not send a /memory result", extra=http_error_fields(exc))
            if view is not None:
                view.stop()
            return None
