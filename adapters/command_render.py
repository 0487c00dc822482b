"""Plain-text rendering of `/memory` command results, for the console and other text-only outputs."""

from __future__ import annotations

from collections.abc import Callable

from .command_table import CommandResult


def item_notes(
    item: dict[str, object], *, private: str = "private", code: Callable[[str], str] = str
) -> list[str]:
    """What a listed memory's line says after it: private, its search score, how to undo its merge
    (`code` formats the command as the platform shows code)."""
    notes = []
    if item.get("visibility") == "private":
        notes.append(private)
    if "score" in item:
        notes.append(f"score {item['score']}")
    if "replaced" in item:
        undo = f"/memory undo {item.get('id', '')}"
        notes.append(f"merged with an older note: {code(undo)}")
    return notes


def render_item(number: int, item: dict[str, object]) -> str:
    """`3. [preference] Alice likes tea — 2026-09-21 · id 3f9c… (private)`."""
    extras = item_notes(item)
    tail = f" ({', '.join(extras)})" if extras else ""
    return f"{number}. [{item['type']}] {item['content']} — {item['date']} · id {item['id']}{tail}"


def page_footer(result: CommandResult) -> str | None:
    """`page 2/5 — `/memory list 3` for more`, or None when everything fits on one page."""
    if result.pages <= 1 and result.page <= 1:
        return None
    footer = f"page {result.page}/{result.pages}"
    if result.next_command:
        footer += f" — `{result.next_command}` for more"
    return footer


def render_text(result: CommandResult) -> str:
    """The whole result as plain text lines: title, notes, numbered items, attachment, page footer."""
    if result.error:
        return "\n".join([f"Error: {result.error}", *result.lines])
    out = [result.title, *result.lines]
    out += [render_item(result.offset + n, item) for n, item in enumerate(result.items, start=1)]
    if result.attachment is not None:
        size = len(result.attachment.data)
        out.append(f"Attached: {result.attachment.filename} ({size} bytes)")
    if len(out) == 1 and result.total == 0:
        out.append("Nothing to show.")
    footer = page_footer(result)
    if footer:
        out.append(footer)
    return "\n".join(out)
