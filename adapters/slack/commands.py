"""The /memory slash command and its paging buttons: run, render as Block Kit, answer ephemerally."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from slack_sdk.web.async_client import AsyncWebClient

from memory.errors import CommandError

from ..base import AdapterMetrics
from ..command_table import COMMANDS, CommandResult, CommandRunner, Invoker, error_result, parse_command
from .api import PLATFORM, error_code
from .directory import SlackDirectory
from .markup import unescape
from .render import decode_page_value, export_code_block, render_blocks

log = logging.getLogger(__name__)

_KNOWN_COMMANDS = frozenset({c.name for c in COMMANDS} | {"help"})


class SlackCommands:
    """Runs `/memory` and its paging buttons for the adapter, off the ack path."""

    def __init__(
        self,
        client: AsyncWebClient,
        commands: CommandRunner,
        directory: SlackDirectory,
        metrics: AdapterMetrics | None,
        team_id: Callable[[], str | None],
    ) -> None:
        self.client = client
        self._commands = commands
        self._directory = directory
        self._metrics = metrics
        # The workspace from auth.test, for payloads that do not name one.
        self._team_id = team_id

    async def _invoker(
        self, team_id: str, channel_id: str, channel_name: str | None, user_id: str
    ) -> Invoker:
        user = await self._directory.user(user_id)
        is_dm = channel_name == "directmessage" or channel_id.startswith("D")
        return Invoker(PLATFORM, team_id, channel_id, user_id, is_dm=is_dm, is_admin=user.is_admin)

    async def run_command(self, command: dict[str, Any], respond: Any) -> None:
        """A `/memory …` slash command, answered through its response_url."""
        try:
            invoker = await self._invoker(
                str(command.get("team_id") or self._team_id() or ""),
                str(command.get("channel_id") or ""),
                command.get("channel_name"),
                str(command.get("user_id") or ""),
            )
            # Slack escapes `&`, `<` and `>` in what was typed; its mentions stay for the parser.
            result = await self._execute(unescape(str(command.get("text") or "")), invoker)
            await self._send_result(result, invoker, respond, replace=False)
        except Exception:
            log.exception("slack /memory command failed")
            await respond_quietly(respond, "Sorry, that command failed. Please try again.", replace=False)

    async def run_page(self, body: dict[str, Any], action: dict[str, Any], respond: Any) -> None:
        """A paging button: the command it carries, run again for its owner, replacing the page."""
        try:
            request = decode_page_value(str(action.get("value") or ""))
            user = body.get("user") or {}
            user_id = str(user.get("id") or "")
            if request is None:
                log.warning("malformed paging button value")
                return
            if request.owner_id != user_id:
                # Ephemeral messages are only shown to their owner; this guards forged payloads.
                await respond_quietly(respond, "Only the person who ran this command can page through it.")
                return
            channel = body.get("channel") or {}
            container = body.get("container") or {}
            team = body.get("team") or {}
            invoker = await self._invoker(
                str(team.get("id") or user.get("team_id") or self._team_id() or ""),
                str(channel.get("id") or container.get("channel_id") or ""),
                channel.get("name"),
                user_id,
            )
            result = await self._execute(request.command, invoker)
            await self._send_result(result, invoker, respond, replace=True)
        except Exception:
            log.exception("slack paging failed")
            await respond_quietly(respond, "Sorry, that page could not be loaded.")

    async def _execute(self, text: str, invoker: Invoker) -> CommandResult:
        try:
            parsed = parse_command(text)
        except CommandError as exc:
            result = error_result(exc)
        else:
            result = await self._commands.execute(parsed.name, parsed.args, invoker, parsed.page)
        if self._metrics is not None:
            label = result.command if result.command in _KNOWN_COMMANDS else "invalid"
            self._metrics.commands.labels(PLATFORM, label).inc()
        log.info(
            "slack /memory command",
            extra={
                "command": result.command or "invalid",
                "ok": result.error is None,
                "is_dm": invoker.is_dm,
            },
        )
        return result

    async def _send_result(
        self, result: CommandResult, invoker: Invoker, respond: Any, *, replace: bool
    ) -> None:
        extra_blocks: list[dict[str, Any]] = []
        if result.attachment is not None and not result.error:
            if await self._upload_export(result, invoker):
                result.lines.append(f"Sent {result.attachment.filename} to you in a direct message.")
            else:
                extra_blocks.append(
                    {
                        "type": "section",
                        "text": {"type": "mrkdwn", "text": export_code_block(result.attachment.data)},
                    }
                )
        text, blocks = render_blocks(result, invoker.user_id)
        response = await respond(
            text=text, blocks=blocks + extra_blocks, response_type="ephemeral", replace_original=replace
        )
        status = getattr(response, "status_code", None)
        if status is not None and status >= 300:
            log.warning("slack response_url refused the result", extra={"status": status})

    async def _upload_export(self, result: CommandResult, invoker: Invoker) -> bool:
        attachment = result.attachment
        assert attachment is not None
        try:
            opened = await self.client.conversations_open(users=invoker.user_id)
            channel = (opened.get("channel") or {}).get("id")
            if not channel:
                return False
            await self.client.files_upload_v2(
                channel=channel,
                content=attachment.data,
                filename=attachment.filename,
                title=attachment.filename,
                initial_comment="Your memory export.",
            )
        except Exception as exc:
            log.warning("slack export upload failed; sending inline", extra={"error": error_code(exc)})
            return False
        return True


async def respond_quietly(respond: Any, text: str, *, replace: bool = False) -> None:
    """An ephemeral answer through response_url; an unreachable one is logged, not raised."""
    try:
        await respond(text=text, response_type="ephemeral", replace_original=replace)
    except Exception:
        log.warning("slack response_url unreachable", exc_info=True)
