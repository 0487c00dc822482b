"""Conversation kinds as the adapters report them, and the narrowing of rows stored before a
conversation was known to be private."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterable
from dataclasses import asdict, dataclass

from .engine import MemoryEngine
from .models import Conversation, ConversationKind, Visibility

log = logging.getLogger(__name__)


@dataclass(slots=True)
class RepairReport:
    """What a repair narrowed to its conversation: conversations looked at and rows per table."""

    conversations: int = 0
    memories: int = 0
    messages: int = 0
    summaries: int = 0

    @property
    def rows(self) -> int:
        return self.memories + self.messages + self.summaries

    def add(self, other: RepairReport) -> None:
        self.conversations += other.conversations
        self.memories += other.memories
        self.messages += other.messages
        self.summaries += other.summaries

    def to_dict(self) -> dict[str, int]:
        return asdict(self)


class ConversationKinds:
    """The `conversation_kinds` table, a RAM copy of it, and the repair of rows stored too widely.

    Rows learned in a private channel, a group DM or a private thread before the bot knew the
    conversation was private were stored `workspace`-visible (older versions did not ask).
    `observe` records each kind an adapter reports; the first time a conversation is known to be
    members-only, its rows are narrowed to `channel` visibility in SQLite and in the vector
    tables (and a private thread's rows, once stored under its parent channel, move to the
    thread). Narrowing is one-way: a conversation that later becomes public keeps what was said
    in it while it was private where it was.
    """

    def __init__(self, engine: MemoryEngine) -> None:
        self.engine = engine
        self._known: dict[tuple[str, str, str], ConversationKind] | None = None
        self._load_lock = asyncio.Lock()
        # One repair at a time: two observers of one conversation must not both narrow it.
        self._repair_lock = asyncio.Lock()

    async def _ensure_loaded(self) -> dict[tuple[str, str, str], ConversationKind]:
        if self._known is None:
            async with self._load_lock:
                if self._known is None:
                    self._known = {c.key: c.kind for c in await self.recorded()}
        return self._known

    async def recorded(self) -> list[Conversation]:
        """Every conversation an adapter has reported, with its latest kind."""
        rows = await self.engine.storage.conversations.kinds()
        found: list[Conversation] = []
        for platform, workspace_id, channel_id, kind in rows:
            try:
                parsed = ConversationKind(kind)
            except ValueError:
                # Written by a newer version: read it as the narrowest kind rather than fail.
                parsed = ConversationKind.PRIVATE
            found.append(Conversation(platform, workspace_id, channel_id, parsed))
        return found

    async def observe(self, conversation: Conversation) -> RepairReport | None:
        """Record a reported kind; narrow the conversation's rows the first time it is members-only.

        Cheap when nothing changed (a dictionary lookup), so adapters report every message.
        Returns the repair's report when one ran.
        """
        known = await self._ensure_loaded()
        previous = known.get(conversation.key)
        if previous is conversation.kind:
            return None
        report = None
        if conversation.members_only and (previous is None or previous.visibility is not Visibility.CHANNEL):
            # Before recording the kind: a repair that fails is tried again by the next message.
            report = await self.repair([conversation])
            if report.rows:
                log.info(
                    "rows narrowed to a private conversation",
                    extra={
                        "platform": conversation.platform,
                        "kind": conversation.kind.value,
                        **report.to_dict(),
                    },
                )
        await self.engine.storage.conversations.record([conversation], self.engine.clock())
        known[conversation.key] = conversation.kind
        return report

    async def observe_many(self, conversations: Iterable[Conversation]) -> RepairReport:
        """`observe` for every conversation an adapter lists at start-up; the combined report."""
        total = RepairReport()
        for conversation in conversations:
            report = await self.observe(conversation)
            if report is not None:
                total.add(report)
        return total

    async def repair(self, conversations: Iterable[Conversation], dry_run: bool = False) -> RepairReport:
        """Narrow the rows of these members-only conversations that are still workspace-visible.

        A conversation's rows are those stored under its channel id, and those stored under
        another channel with its id as their thread (a Discord private thread, which older
        versions kept under its parent channel). They become `channel`-visible, under the
        conversation's own id, in SQLite (one transaction per conversation) and then in the
        vector tables; every later search reads them with the new scope. Idempotent.
        """
        report = RepairReport()
        async with self._repair_lock:
            for conversation in conversations:
                if not conversation.members_only:
                    continue
                report.conversations += 1
                found = await self.engine.storage.conversations.narrow(conversation, dry_run)
                report.memories += len(found["memories"])
                report.messages += len(found["messages"])
                report.summaries += len(found["summaries"])
                if not dry_run and any(found.values()):
                    try:
                        await self.engine.rescope(
                            found["memories"], found["messages"], found["summaries"], conversation.channel_id
                        )
                    except Exception:
                        # SQLite already holds the narrowed rows and every search re-reads its hits
                        # there: a stale vector row costs a search slot, never a leak.
                        log.warning("vector rows not rescoped", extra=report.to_dict(), exc_info=True)
        return report
