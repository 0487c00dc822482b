"""Where the context block goes: a copy of the history with the block just before the last user turn."""

from __future__ import annotations

import copy
import dataclasses
from collections.abc import Mapping, Sequence
from typing import Any, TypeVar

T = TypeVar("T")


def _role(message: object) -> object:
    if isinstance(message, Mapping):
        return message.get("role")
    return getattr(message, "role", None)


def _block_message(template: object, block: str) -> Any:
    """A user-role message carrying `block`, shaped like the history's own messages."""
    if template is None or isinstance(template, Mapping):
        return {"role": "user", "content": block}
    if dataclasses.is_dataclass(template) and not isinstance(template, type):
        names = {f.name for f in dataclasses.fields(template)}
        # Not from any speaker: drop the name, tool calls and tool-call id of the template turn.
        blanks = {"name": None, "tool_call_id": None, "tool_calls": []}
        changes: dict[str, Any] = {"role": "user", "content": block}
        changes.update({k: v for k, v in blanks.items() if k in names})
        return dataclasses.replace(template, **changes)
    return {"role": "user", "content": block}


def inject_into(history: Sequence[T], block: str | None) -> list[T]:
    """A CLONE of `history` with `block` inserted just before the last user turn.

    The input list and its messages are never modified (messages are shallow-copied), so the
    transcript that is saved never contains the block. With no user turn the block goes last.
    """
    clone: list[T] = [dict(m) if isinstance(m, Mapping) else copy.copy(m) for m in history]  # type: ignore[misc]
    if not block:
        return clone
    index = next((n for n in range(len(clone) - 1, -1, -1) if _role(clone[n]) == "user"), len(clone))
    template = clone[index] if index < len(clone) else (clone[-1] if clone else None)
    clone.insert(index, _block_message(template, block))
    return clone
