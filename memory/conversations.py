"""Conversation kinds as the adapters report them, and the narrowing of rows stored before a
conversation was known to be private."""

from __future__ import annotations

import asyncio
import logging
import sqlite3
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass

from .engine import MemoryEngine, StorageError
from .models import Conversation, ConversationKind, Visibility

log = logging.getLogger(__name__)

# Tables whose rows carry a conversation's scope and visibility, in the order they are narrowed.
_TABLES = ("memories", "messages", "summaries")


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
        rows = await self.engine.store.fetch(
            "SELECT platform, workspace_id, channel_id, kind FROM conversation_kinds "
            "ORDER BY platform, workspace_id, channel_id"
        )
        found: list[Conversation] = []
        for platform, workspace_id, channel_id, kind in rows:
            try:
                parsed = ConversationKind(str(kind))
            except ValueError:
                # Written by a newer version: read it as the narrowest kind rather than fail.
                parsed = ConversationKind.PRIVATE
            found.append(Conversation(str(platform), str(workspace_id), str(channel_id), parsed))
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
        try:
            await self._record([conversation])
        except sqlite3.Error as exc:
            raise StorageError(f"conversation kind not recorded: {exc}") from exc
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

    async def _record(self, conversations: Sequence[Conversation]) -> None:
        now = self.engine.clock()
        async with self.engine.store.transaction() as db:
            await db.executemany(
                "INSERT INTO conversation_kinds (platform, workspace_id, channel_id, kind, updated_at) "
                "VALUES (?, ?, ?, ?, ?) ON CONFLICT (platform, workspace_id, channel_id) "
                "DO UPDATE SET kind = excluded.kind, updated_at = excluded.updated_at",
                [(c.platform, c.workspace_id, c.channel_id, c.kind.value, now) for c in conversations],
            )

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
                try:
                    found = await self._narrow(conversation, dry_run)
                except sqlite3.Error as exc:
                    raise StorageError(f"rows of a private conversation not narrowed: {exc}") from exc
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

    async def _narrow(self, conversation: Conversation, dry_run: bool) -> dict[str, list[str]]:
        """The ids of each table's rows to narrow, updated in SQLite unless `dry_run`."""
        c = conversation
        # Two self-contained branches, so SQLite answers each from an index (the channel's rows;
        # a thread's rows under another channel) instead of scanning the table.
        shared, private = Visibility.WORKSPACE.value, Visibility.PRIVATE.value
        where = (
            f"((platform = ? AND workspace_id = ? AND channel_id = ? AND visibility = '{shared}')"
            " OR (thread_id = ? AND platform = ? AND workspace_id = ? AND channel_id <> ?"
            f" AND visibility <> '{private}'))"
        )
        here = (c.platform, c.workspace_id, c.channel_id)
        params = (*here, c.channel_id, *here)
        found: dict[str, list[str]] = {}
        for table in _TABLES:
            rows = await self.engine.store.fetch(f"SELECT id FROM {table} WHERE {where}", params)
            found[table] = [str(r[0]) for r in rows]
        if dry_run or not any(found.values()):
            # Nothing to narrow (the usual case for a conversation first seen): no write lock taken.
            return found
        async with self.engine.store.transaction() as db:
            # A thread summary moving to the thread's own id gives way to one already kept there
            # (written since): one rolling summary per thread. Its vector is an orphan that the
            # start-up reconcile removes.
            await db.execute(
                f"DELETE FROM summaries WHERE kind = 'thread' AND {where} AND EXISTS ("
                "SELECT 1 FROM summaries AS kept WHERE kept.kind = 'thread' "
                "AND kept.platform = summaries.platform AND kept.workspace_id = summaries.workspace_id "
                "AND kept.agent_id = summaries.agent_id AND kept.channel_id = ? "
                "AND COALESCE(kept.thread_id, '') = COALESCE(summaries.thread_id, ''))",
                (*params, c.channel_id),
            )
            for table in _TABLES:
                rows = await db.execute_fetchall(f"SELECT id FROM {table} WHERE {where}", params)
                found[table] = [str(r[0]) for r in rows]
                if found[table]:
                    await db.execute(
                        f"UPDATE {table} SET visibility = '{Visibility.CHANNEL.value}', channel_id = ? "
                        f"WHERE {where}",
                        (c.channel_id, *params),
                    )
        return found
