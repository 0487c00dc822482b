"""Slack rendering: Block Kit for /memory results, reply splitting at platform limits, safe reply text."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from ..command_render import item_notes, render_text
from ..command_table import CommandResult, format_invocation
from ..split import split_message as split_text

# Slack's section text and our reply chunks stay under this; chat.postMessage accepts more, but
# long messages get collapsed behind "Show more" and section blocks reject > 3000.
SLACK_TEXT_LIMIT = 3000
# Block Kit hard limits.
MAX_BLOCKS = 50
HEADER_LIMIT = 150
BUTTON_VALUE_LIMIT = 2000
PAGE_ACTION_PREFIX = "memory_page"
PAGE_ACTION_PATTERN = re.compile(rf"^{PAGE_ACTION_PREFIX}(_prev|_next)?$")


# --- splitting -----------------------------------------------------------------------------------


def split_message(text: str, limit: int = SLACK_TEXT_LIMIT) -> list[str]:
    """Slack-sized chunks of a reply (the shared splitter keeps code fences whole)."""
    return split_text(text, limit)


_BROADCAST = re.compile(r"<!(channel|here|everyone)(\|[^>]*)?>")


def neutralize_broadcasts(text: str) -> str:
    """Escape channel-wide pings so nobody can make the bot notify a whole channel by asking."""
    return _BROADCAST.sub(lambda m: "&lt;!" + m.group(1) + "&gt;", text)


def escape_mrkdwn(text: str) -> str:
    """Escape the three characters Slack reserves for links, mentions and entities."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def strip_mention(text: str, bot_user_id: str | None) -> str:
    """Remove `<@BOTID>` (and `<@BOTID|name>`) from a message and tidy the spaces it leaves."""
    if not bot_user_id:
        return text.strip()
    cleaned = re.sub(rf"<@{re.escape(bot_user_id)}(\|[^>]*)?>", " ", text)
    cleaned = re.sub(r"[ \t]{2,}", " ", cleaned)
    return "\n".join(line.strip() for line in cleaned.split("\n")).strip()


# --- paging buttons ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PageRequest:
    """What a paging button carries: who may press it and the command line it runs."""

    owner_id: str
    command: str


def encode_page_value(owner_id: str, command: str) -> str | None:
    """The button value for `command`, or None when it would not fit Slack's 2,000-char limit."""
    value = json.dumps({"u": owner_id, "c": command}, ensure_ascii=False, separators=(",", ":"))
    return value if len(value) <= BUTTON_VALUE_LIMIT else None


def decode_page_value(value: str) -> PageRequest | None:
    """Parse a button value; None for anything malformed."""
    try:
        data = json.loads(value)
    except (TypeError, ValueError):
        return None
    if not isinstance(data, dict):
        return None
    owner, command = data.get("u"), data.get("c")
    if not isinstance(owner, str) or not isinstance(command, str) or not owner or not command:
        return None
    return PageRequest(owner, command)


# --- Block Kit -----------------------------------------------------------------------------------


def _plain(text: str, limit: int) -> dict[str, Any]:
    return {"type": "plain_text", "text": _clip(text, limit) or " ", "emoji": True}


def _mrkdwn(text: str) -> dict[str, Any]:
    return {"type": "mrkdwn", "text": _clip(text, SLACK_TEXT_LIMIT) or " "}


def _clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _section(text: str) -> dict[str, Any]:
    return {"type": "section", "text": _mrkdwn(text)}


def _item_text(number: int, item: dict[str, object]) -> str:
    content = escape_mrkdwn(str(item.get("content", "")))
    meta = [f"`{item.get('type', '')}`", str(item.get("date", "")), f"id `{item.get('id', '')}`"]
    meta += item_notes(item, private=":lock: private", code=lambda command: f"`{command}`")
    # The content is clipped, never the metadata: the id is what `/memory forget` needs.
    meta_line = " · ".join(meta)
    room = SLACK_TEXT_LIMIT - len(meta_line) - len(f"*{number}.* \n") - 1
    return f"*{number}.* {_clip(content, max(16, room))}\n{meta_line}"


def _footer(result: CommandResult) -> str | None:
    parts: list[str] = []
    if result.items or result.total:
        noun = "memory" if result.total == 1 else "memories"
        parts.append(f"{result.total} {noun}")
    if result.pages > 1 or result.page > 1:
        parts.append(f"page {result.page}/{result.pages}")
    if result.attachment is not None:
        parts.append(f"{result.attachment.filename} ({len(result.attachment.data)} bytes)")
    return " · ".join(parts) or None


def _page_buttons(result: CommandResult, owner_id: str) -> dict[str, Any] | None:
    if not result.command or result.error:
        return None
    elements: list[dict[str, Any]] = []
    if 1 < result.page <= result.pages + 1:
        value = encode_page_value(owner_id, format_invocation(result.command, result.args, result.page - 1))
        if value is not None:
            elements.append(
                {
                    "type": "button",
                    "action_id": f"{PAGE_ACTION_PREFIX}_prev",
                    "text": _plain("◀ Previous", 75),
                    "value": value,
                }
            )
    if result.next_command:
        value = encode_page_value(owner_id, result.next_command)
        if value is not None:
            elements.append(
                {
                    "type": "button",
                    "action_id": f"{PAGE_ACTION_PREFIX}_next",
                    "text": _plain("Next ▶", 75),
                    "value": value,
                    "style": "primary",
                }
            )
    if not elements:
        return None
    return {"type": "actions", "block_id": "memory_paging", "elements": elements}


def render_blocks(result: CommandResult, owner_id: str) -> tuple[str, list[dict[str, Any]]]:
    """A /memory result as (fallback text, Block Kit blocks) for an ephemeral response.

    Header with the title, a section for notes, one section per memory (number, content, type,
    date, id), a context footer (count, page) and Previous/Next buttons whose values carry the
    command to run and the only user allowed to press them.
    """
    fallback = _clip(render_text(result), SLACK_TEXT_LIMIT)
    if result.error:
        blocks: list[dict[str, Any]] = [
            _section(f":warning: *{escape_mrkdwn(result.error)}*"),
        ]
        usage_lines = [escape_mrkdwn(line) for line in result.lines]
        if usage_lines:
            blocks.append({"type": "context", "elements": [_mrkdwn("\n".join(usage_lines))]})
        return fallback, blocks

    blocks = [{"type": "header", "text": _plain(result.title, HEADER_LIMIT)}]
    if result.lines:
        blocks.append(_section("\n".join(escape_mrkdwn(line) for line in result.lines)))
    # Leave room for the footer and the buttons within Slack's 50 blocks.
    room = MAX_BLOCKS - len(blocks) - 3
    shown = result.items[:room]
    if shown:
        blocks.append({"type": "divider"})
    for number, item in enumerate(shown, start=result.offset + 1):
        blocks.append(_section(_item_text(number, item)))
    if len(result.items) > len(shown):
        blocks.append(_section(f"…and {len(result.items) - len(shown)} more on this page."))
    footer = _footer(result)
    if footer:
        blocks.append({"type": "context", "elements": [_mrkdwn(escape_mrkdwn(footer))]})
    buttons = _page_buttons(result, owner_id)
    if buttons is not None:
        blocks.append(buttons)
    if len(blocks) == 1:
        blocks.append(_section("Nothing to show."))
    return fallback, blocks


def export_code_block(data: bytes, limit: int = SLACK_TEXT_LIMIT) -> str:
    """The export JSON as a code block, truncated to fit one section when it is too long."""
    text = data.decode("utf-8", errors="replace").rstrip("\n")
    room = limit - len("```\n\n```") - len("\n… (truncated)")
    if len(text) > room:
        text = text[:room] + "\n… (truncated)"
    # Backticks inside would close the block early.
    return "```\n" + text.replace("```", "`\u200b``") + "\n```"
