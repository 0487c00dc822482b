"""Shared by adapters and the bot: the incoming message, the turn function, the adapter protocol."""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import Protocol, runtime_checkable


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


# What an adapter calls for every batch: store and learn from it, and (when `respond` is True)
# return the reply to post, or None when the bot stays silent (passive learning, duplicates).
TurnFunction = Callable[[Sequence[IncomingMessage], bool], Awaitable[str | None]]


@runtime_checkable
class Adapter(Protocol):
    """A platform edge the runner starts and stops; it never touches storage itself."""

    name: str

    @property
    def ready(self) -> bool:
        """True while connected and able to receive and send (reported by /healthz)."""
        ...

    async def start(self) -> None:
        """Begin receiving; returns promptly even when the platform is unreachable (it keeps retrying)."""
        ...

    async def stop(self, grace: float | None = None) -> None:
        """Stop intake, flush pending batches, finish in-flight turns within `grace`, disconnect."""
        ...
