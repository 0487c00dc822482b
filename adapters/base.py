"""The contract between the platform edges and the bot: the incoming message, the turn function,
the adapter protocol and the counters an adapter reports to. Adapters import this (and the
command table), never the bot; the bot's wiring imports it to drive them."""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import Protocol, runtime_checkable

from prometheus_client import Counter

from memory.models import Conversation, ConversationKind


@dataclass(frozen=True, slots=True)
class IncomingMessage:
    """A message as the turn pipeline sees it, whatever platform it came from.

    `kind` is what the platform says of the conversation (public, private, group, DM) and
    decides who may later be shown what is learned from it. Given only `is_dm`, the kind is a
    DM or a public channel; given a kind, `is_dm` follows it. A Discord private thread is its
    own conversation: its `channel_id` is the thread's id.
    """

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
    kind: ConversationKind | None = None
    # The time zone the platform knows the author in (Slack's profile: "America/Los_Angeles"), for
    # reading their "tomorrow" when they have not said theirs; None where the platform says none.
    author_tz: str | None = None

    def __post_init__(self) -> None:
        if self.kind is None:
            # Frozen: the derived field is set once, here.
            object.__setattr__(self, "kind", ConversationKind.DM if self.is_dm else ConversationKind.PUBLIC)
        elif self.is_dm != (self.kind is ConversationKind.DM):
            if self.is_dm:
                raise ValueError(f"a message marked is_dm cannot come from a {self.kind} conversation")
            object.__setattr__(self, "is_dm", True)

    @property
    def conversation(self) -> ConversationKind:
        """The conversation's kind (never None once constructed)."""
        assert self.kind is not None
        return self.kind


# What an adapter calls for every batch: store and learn from it, and (when `respond` is True)
# return the reply to post, or None when the bot stays silent (passive learning, duplicates).
TurnFunction = Callable[[Sequence[IncomingMessage], bool], Awaitable[str | None]]

# What an adapter calls with the conversations it can list (a Discord guild's channels at
# start-up, the Slack private channels and group DMs it is in): what was stored in private
# ones before their kind was known gets narrowed to them.
ConversationsFound = Callable[[Sequence[Conversation]], Awaitable[None]]


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


class ChannelLists(Protocol):
    """The channel settings every adapter reads (CHANNELS and LEARN_CHANNELS of its platform)."""

    @property
    def channels(self) -> Sequence[str]:
        """Channel ids answered without a mention."""
        ...

    @property
    def learn_channels(self) -> Sequence[str]:
        """Channel ids learned from without replying."""
        ...


class AdapterMetrics(Protocol):
    """The counters an adapter reports to (the bot's `Metrics` has them all)."""

    @property
    def events_deduplicated(self) -> Counter: ...

    @property
    def replies_sent(self) -> Counter: ...

    @property
    def commands(self) -> Counter: ...

    def track_pending(self, platform: str, pending: Callable[[], int | float]) -> None:
        """Read a coalescer's pending count whenever the metrics are scraped."""
        ...
