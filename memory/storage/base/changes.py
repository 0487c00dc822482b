"""A memory change made by some process on a shared database, and who listens for them."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class MemoryChange:
    """A memory row written, changed or deleted by some process on a shared database.

    `gone` says it must no longer be shown (forgotten, superseded or deleted).
    """

    id: str
    memory_type: str
    platform: str
    workspace_id: str
    agent_id: str
    user_id: str | None
    gone: bool


# Called with each change another process (or this one) made; None when changes may have been
# missed (the feed was down): whatever the listener keeps in RAM must be dropped.
ChangeListener = Callable[[MemoryChange | None], None]
