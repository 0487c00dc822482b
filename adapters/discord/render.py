"""Discord rendering of `/memory` results: embeds, the export file, and the pagination view."""

from __future__ import annotations

import io
import logging
from collections.abc import Awaitable, Callable

import discord

from adapters.command_render import render_item
from adapters.command_table import CommandResult, command_spec, usage

log = logging.getLogger(__name__)

COLOR_OK = discord.Color.blurple()
COLOR_ERROR = discord.Color.red()

# Discord rejects embeds past these sizes; memories are cut well before so a page of ten fits.
EMBED_DESCRIPTION_LIMIT = 4096
EMBED_TITLE_LIMIT = 256
ITEM_CONTENT_LIMIT = 300
# Interaction tokens (needed to edit an ephemeral message) last 15 minutes; the view ends before.
VIEW_TIMEOUT_SECONDS = 600.0
NOT_YOURS = "Only the person who ran the command can use these buttons."

PageFetcher = Callable[[int], Awaitable[CommandResult]]


def _truncate(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def _item_line(number: int, item: dict[str, object]) -> str:
    shown = dict(item)
    content = discord.utils.escape_markdown(str(item.get("content", "")))
    shown["content"] = _truncate(content, ITEM_CONTENT_LIMIT)
    # In code style so the id is easy to copy into `/memory forget`.
    shown["id"] = f"`{item.get('id')}`"
    return render_item(number, shown)


def result_embed(result: CommandResult) -> discord.Embed:
    """The embed for one command result (a red one with the usage line when it is an error)."""
    if result.error:
        return error_embed(result.error, _usage_for(result), title=result.title or "Memory command")
    lines = [*result.lines]
    lines += [_item_line(result.offset + n, item) for n, item in enumerate(result.items, start=1)]
    if result.attachment is not None:
        lines.append(f"Attached: `{result.attachment.filename}` ({len(result.attachment.data)} bytes)")
    if not lines:
        lines.append("Nothing to show.")
    embed = discord.Embed(
        # A search title echoes the query, which can be far longer than a title may be.
        title=_truncate(result.title, EMBED_TITLE_LIMIT),
        description=_truncate("\n".join(lines), EMBED_DESCRIPTION_LIMIT),
        color=COLOR_OK,
    )
    if result.pages > 1 or result.page > 1:
        embed.set_footer(text=f"Page {result.page}/{result.pages} · {result.total} in all")
    return embed


def error_embed(
    message: str, usage_line: str | None = None, *, title: str = "Memory command"
) -> discord.Embed:
    """A red embed with what went wrong and, when known, how to write the command."""
    embed = discord.Embed(
        title=_truncate(title, EMBED_TITLE_LIMIT),
        description=_truncate(message, EMBED_DESCRIPTION_LIMIT),
        color=COLOR_ERROR,
    )
    if usage_line:
        embed.add_field(name="Usage", value=f"`{usage_line}`", inline=False)
    return embed


def _usage_for(result: CommandResult) -> str | None:
    for line in result.lines:
        if line.startswith("usage: "):
            return line.removeprefix("usage: ")
    spec = command_spec(result.command)
    return usage(spec) if spec is not None else None


def result_file(result: CommandResult) -> discord.File | None:
    """The result's attachment (the export JSON) as an uploadable file."""
    if result.attachment is None:
        return None
    return discord.File(io.BytesIO(result.attachment.data), filename=result.attachment.filename)


def needs_pages(result: CommandResult) -> bool:
    return result.error is None and result.pages > 1


class PageView(discord.ui.View):
    """Previous/Next buttons over a paged result; only the person who ran the command may use them."""

    def __init__(
        self,
        owner_id: int,
        result: CommandResult,
        fetch: PageFetcher,
        *,
        timeout: float = VIEW_TIMEOUT_SECONDS,
    ) -> None:
        super().__init__(timeout=timeout)
        self.owner_id = owner_id
        self.result = result
        self.fetch = fetch
        # Set by whoever sends the view, so the timeout can disable the buttons on the message.
        self.message: discord.WebhookMessage | discord.InteractionMessage | None = None
        self._sync_buttons()

    def _sync_buttons(self) -> None:
        self.previous_page.disabled = self.result.page <= 1
        self.next_page.disabled = self.result.page >= self.result.pages

    async def interaction_check(self, interaction: discord.Interaction, /) -> bool:
        if interaction.user.id == self.owner_id:
            return True
        # The list may hold the invoker's private memories: nobody else may page through it.
        try:
            await interaction.response.send_message(NOT_YOURS, ephemeral=True)
        except discord.HTTPException as exc:
            log.warning("could not refuse a page button click", extra=http_error_fields(exc))
        return False

    @discord.ui.button(label="Previous", style=discord.ButtonStyle.secondary)
    async def previous_page(
        self, interaction: discord.Interaction, button: discord.ui.Button[PageView]
    ) -> None:
        await self._show(interaction, self.result.page - 1)

    @discord.ui.button(label="Next", style=discord.ButtonStyle.secondary)
    async def next_page(self, interaction: discord.Interaction, button: discord.ui.Button[PageView]) -> None:
        await self._show(interaction, self.result.page + 1)

    async def _show(self, interaction: discord.Interaction, page: int) -> None:
        # Acknowledge the click first: the query can take longer than the 3 s Discord waits for.
        await interaction.response.defer()
        result = await self.fetch(max(1, page))
        if result.error is None:
            self.result = result
        self._sync_buttons()
        try:
            await interaction.edit_original_response(embed=result_embed(result), view=self)
        except discord.HTTPException as exc:
            log.warning(
                "could not show page %s of /memory %s", page, result.command, extra=http_error_fields(exc)
            )

    async def on_timeout(self) -> None:
        for item in self.children:
            if isinstance(item, discord.ui.Button):
                item.disabled = True
        if self.message is None:
            return
        try:
            await self.message.edit(view=self)
        except discord.HTTPException:
            # The message may be gone, or the interaction token expired: the buttons just stay.
            log.debug("could not disable page buttons", exc_info=True)


def http_error_fields(exc: discord.HTTPException) -> dict[str, object]:
    """What a log line says of a refused Discord request: its status and Discord's error code (a
    traceback would add nothing, and the request may hold a message)."""
    return {"platform": "discord", "status": exc.status, "code": exc.code}
