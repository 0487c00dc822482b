"""What every adapter hands to the bot: one normalised incoming message."""

from __future__ import annotations

import time
from dataclasses import dataclass, field


@dataclass(frozen=True, slots=True)
class IncomingMessage:
    """A message as the turn pipeline sees it, whatever platform it came from."""

    platform: str
    workspace_id: str
    channel_id: str
    author_id: str
    author_name: str
    text: str
    timestamp: float = field(default_factory=time.time)
    thread_id: str | None = None
    external_id: str | None = None
    is_dm: bool = False
    mentions_bot: bool = False
    is_system: bool = False
    author_is_admin: bool = False
