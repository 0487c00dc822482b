"""Per-conversation burst coalescer: turns a burst of incoming messages into one handler call."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import NamedTuple, Protocol

from memory.errors import CoalescerClosed

from .base import IncomingMessage

log = logging.getLogger(__name__)

BatchHandler = Callable[[list[IncomingMessage]], Awaitable[object]]

DEFAULT_DEBOUNCE_SECONDS = 1.5
DEFAULT_MAX_WAIT_SECONDS = 5.0


class ConversationKey(NamedTuple):
    """Identifies one conversation: a thread is a conversation of its own, apart from its channel."""

    platform: str
    workspace_id: str
    channel_id: str
    thread_id: str | None


def conversation_key(message: IncomingMessage) -> ConversationKey:
    """The conversation a message belongs to."""
    return ConversationKey(message.platform, message.workspace_id, message.channel_id, message.thread_id)


class TimerHandle(Protocol):
    def cancel(self) -> None: ...


class Scheduler(Protocol):
    """Clock and timers the coalescer runs on; tests swap in a fake that moves time by hand."""

    def now(self) -> float: ...

    def call_later(self, delay: float, callback: Callable[[], None]) -> TimerHandle: ...


class LoopScheduler:
    """The running asyncio loop's monotonic clock and timers."""

    def now(self) -> float:
        return asyncio.get_running_loop().time()

    def call_later(self, delay: float, callback: Callable[[], None]) -> TimerHandle:
        return asyncio.get_running_loop().call_later(delay, callback)


class CoalesceConfig(Protocol):
    """What `Coalescer.from_settings` reads; `bot.config.CoalesceSettings` fits it."""

    @property
    def debounce_seconds(self) -> float: ...

    @property
    def max_wait_seconds(self) -> float: ...


@dataclass(slots=True)
class _Conversation:
    pending: list[IncomingMessage] = field(default_factory=list)
    first_at: float = 0.0
    last_at: float = 0.0
    # Set by a DM, a mention or a flush: the pending batch goes out as soon as the channel is free.
    urgent: bool = False
    timer: TimerHandle | None = None
    task: asyncio.Task[None] | None = None


class Coalescer:
    """Collects messages per conversation and hands each burst to `handler` as one batch.

    A batch goes out once its conversation has been quiet for `debounce` seconds, but never later than
    `max_wait` seconds after its first message. A DM or a direct mention of the bot sends the pending
    batch (itself included) at once. Each conversation has at most one handler call running; what
    arrives meanwhile becomes the next batch. Different conversations run concurrently.

    All methods must be called from the thread running the event loop.
    """

    def __init__(
        self,
        handler: BatchHandler,
        *,
        debounce: float = DEFAULT_DEBOUNCE_SECONDS,
        max_wait: float = DEFAULT_MAX_WAIT_SECONDS,
        scheduler: Scheduler | None = None,
    ) -> None:
        if debounce < 0 or max_wait < 0:
            raise ValueError("debounce and max_wait must be >= 0")
        self._handler = handler
        self._debounce = debounce
        self._max_wait = max_wait
        self._scheduler: Scheduler = scheduler if scheduler is not None else LoopScheduler()
        self._conversations: dict[ConversationKey, _Conversation] = {}
        # Strong references: the loop keeps only weak ones to tasks, and shutdown waits on these.
        self._tasks: set[asyncio.Task[None]] = set()
        self._closed = False

    @classmethod
    def from_settings(
        cls, handler: BatchHandler, settings: CoalesceConfig, *, scheduler: Scheduler | None = None
    ) -> Coalescer:
        """A coalescer configured from `CoalesceSettings` (or anything with the same two attributes)."""
        return cls(
            handler,
            debounce=float(settings.debounce_seconds),
            max_wait=float(settings.max_wait_seconds),
            scheduler=scheduler,
        )

    @property
    def debounce(self) -> float:
        return self._debounce

    @property
    def max_wait(self) -> float:
        return self._max_wait

    @property
    def closed(self) -> bool:
        return self._closed

    @property
    def pending_count(self) -> int:
        """Messages accepted but not yet handed to the handler."""
        return sum(len(conv.pending) for conv in self._conversations.values())

    @property
    def in_flight(self) -> int:
        """Conversations whose handler is running right now."""
        return sum(1 for conv in self._conversations.values() if conv.task is not None)

    def submit(self, message: IncomingMessage) -> None:
        """Queue one message; never blocks (it only arms a timer or starts a task).

        Synchronous so a platform callback can hand a message over and return at once (Slack must
        ack within 3 s). Raises `CoalescerClosed` after `aclose` has started.
        """
        if self._closed:
            raise CoalescerClosed("coalescer is closed; no more messages are accepted")
        key = conversation_key(message)
        conv = self._conversations.get(key)
        if conv is None:
            conv = self._conversations[key] = _Conversation()
        now = self._scheduler.now()
        if not conv.pending:
            conv.first_at = now
        conv.pending.append(message)
        conv.last_at = now
        if message.is_dm or message.mentions_bot:
            conv.urgent = True
        self._schedule(key, conv, now)

    async def flush(self) -> None:
        """Send every pending batch now; a conversation whose handler is running sends right after it.

        Does not wait for the handlers; `aclose` does.
        """
        self._flush_now()

    async def drain(self) -> None:
        """Send every pending batch now and wait until no handler runs; intake stays open."""
        self._flush_now()
        await self._drain(None)

    async def aclose(self, grace: float | None = None) -> list[ConversationKey]:
        """Stop intake, flush everything pending and wait for the handlers, at most `grace` seconds.

        Returns the conversations whose handler had not finished when the grace ran out; those
        handlers are cancelled and batches still waiting behind them are dropped (both logged).
        Without `grace`, waits for every handler and returns an empty list.
        """
        self._closed = True
        self._flush_now()
        if grace is None:
            await self._drain(None)
            return []
        loop = asyncio.get_running_loop()
        deadline: asyncio.Future[None] = loop.create_future()
        timer = self._scheduler.call_later(max(0.0, grace), lambda: _resolve(deadline))
        try:
            if grace > 0:
                await self._drain(deadline)
        finally:
            timer.cancel()
            if not deadline.done():
                deadline.cancel()
        return self._abandon(grace)

    def _flush_now(self) -> None:
        for key, conv in list(self._conversations.items()):
            if conv.pending:
                conv.urgent = True
                self._schedule(key, conv)

    def _schedule(self, key: ConversationKey, conv: _Conversation, now: float | None = None) -> None:
        """Arm, re-arm or skip this conversation's timer, or dispatch its batch now."""
        if conv.timer is not None:
            conv.timer.cancel()
            conv.timer = None
        if not conv.pending or conv.task is not None:
            # A running handler's completion re-enters here; one batch in flight per conversation.
            return
        if conv.urgent:
            self._dispatch(key, conv)
            return
        due = min(conv.last_at + self._debounce, conv.first_at + self._max_wait)
        # submit passes the instant it stamped on the message: re-reading a real clock here would
        # make a zero debounce look already overdue.
        delay = due - (self._scheduler.now() if now is None else now)
        if delay < 0:
            self._dispatch(key, conv)
            return
        # A zero delay still goes through a timer, so a zero debounce coalesces the messages that
        # arrive in the same loop turn.
        conv.timer = self._scheduler.call_later(delay, lambda: self._on_timer(key, conv))

    def _on_timer(self, key: ConversationKey, conv: _Conversation) -> None:
        # Every submit cancels and re-arms the timer, so a timer that fires is the current one and
        # its deadline has come; dispatching without re-checking the clock also absorbs loops that
        # fire timers a hair early.
        conv.timer = None
        if self._conversations.get(key) is conv and conv.pending and conv.task is None:
            self._dispatch(key, conv)

    def _dispatch(self, key: ConversationKey, conv: _Conversation) -> None:
        batch, conv.pending = conv.pending, []
        conv.urgent = False
        task = asyncio.get_running_loop().create_task(self._run(key, conv, batch))
        conv.task = task
        self._tasks.add(task)
        # A done callback, not the coroutine's own cleanup: a task cancelled before its first step
        # never runs any of its code.
        task.add_done_callback(self._tasks.discard)

    async def _run(self, key: ConversationKey, conv: _Conversation, batch: list[IncomingMessage]) -> None:
        try:
            await self._handler(batch)
        except Exception:
            # Logged and swallowed: one failed batch must not wedge the conversation.
            log.exception(
                "batch handler failed",
                extra={**_key_extra(key), "batch_size": len(batch)},
            )
        finally:
            conv.task = None
            if conv.pending:
                self._schedule(key, conv)
            elif self._conversations.get(key) is conv:
                # Idle conversations are forgotten so the map stays bounded by active channels.
                del self._conversations[key]

    async def _drain(self, deadline: asyncio.Future[None] | None) -> None:
        """Wait until no handler runs (follow-up batches included) or the deadline resolves."""
        while self._tasks:
            waiting: set[asyncio.Future[None]] = set(self._tasks)
            if deadline is not None:
                if deadline.done():
                    return
                waiting.add(deadline)
            await asyncio.wait(waiting, return_when=asyncio.FIRST_COMPLETED)

    def _abandon(self, grace: float) -> list[ConversationKey]:
        """After the grace: cancel running handlers, drop what waits behind them, report both."""
        unfinished = [
            key for key, conv in self._conversations.items() if conv.task is not None or conv.pending
        ]
        if not unfinished:
            return []
        dropped = 0
        for conv in self._conversations.values():
            if conv.task is not None:
                conv.task.cancel()
                conv.task = None
            # Cleared so a cancelled handler's cleanup finds nothing to start after shutdown.
            dropped += len(conv.pending)
            conv.pending = []
            if conv.timer is not None:
                conv.timer.cancel()
                conv.timer = None
        log.warning(
            "handlers did not finish within the shutdown grace",
            extra={
                "grace_seconds": grace,
                "conversations": [_key_extra(key) for key in unfinished],
                "dropped_messages": dropped,
            },
        )
        return unfinished


def _resolve(future: asyncio.Future[None]) -> None:
    if not future.done():
        future.set_result(None)


def _key_extra(key: ConversationKey) -> dict[str, str | None]:
    return {
        "platform": key.platform,
        "workspace_id": key.workspace_id,
        "channel_id": key.channel_id,
        "thread_id": key.thread_id,
    }
