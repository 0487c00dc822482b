"""The conversation repository: conversation kinds, and narrowing rows stored too widely."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from contextlib import AbstractContextManager
from typing import ClassVar

from ...models import Conversation, Visibility

# Tables whose rows carry a conversation's scope and visibility, in the order they are narrowed.
NARROWED_TABLES = ("memories", "messages", "summaries")


def narrowed_rows_sql(platform: str, workspace_id: str, channel_id: str) -> str:
    """The rows a narrowing moves to a conversation's own id: the channel's shared rows, and the
    rows of a thread of it stored under another channel id. The arguments are the marks of the
    bound values (SQLite's `?` then binds platform, workspace, channel, channel, platform,
    workspace, channel in that order)."""
    shared, private = Visibility.WORKSPACE.value, Visibility.PRIVATE.value
    # Two self-contained branches, so each is answered from an index (the channel's rows; a
    # thread's rows under another channel) instead of a scan of the table.
    return (
        f"((platform = {platform} AND workspace_id = {workspace_id} AND channel_id = {channel_id} "
        f"AND visibility = '{shared}') OR (thread_id = {channel_id} AND platform = {platform} "
        f"AND workspace_id = {workspace_id} AND channel_id <> {channel_id} AND visibility <> '{private}'))"
    )


def displaced_thread_summaries_sql(where: str, channel_id: str) -> str:
    """The DELETE each backend runs before narrowing: a thread summary (of the rows `where`
    selects) that moves to the thread's own id gives way to one already kept there, written since
    (one rolling summary per thread). `channel_id` is the mark of that id's bound value."""
    return (
        f"DELETE FROM summaries WHERE kind = 'thread' AND {where} AND EXISTS ("
        "SELECT 1 FROM summaries AS kept WHERE kept.kind = 'thread' "
        "AND kept.platform = summaries.platform AND kept.workspace_id = summaries.workspace_id "
        f"AND kept.agent_id = summaries.agent_id AND kept.channel_id = {channel_id} "
        "AND COALESCE(kept.thread_id, '') = COALESCE(summaries.thread_id, ''))"
    )


def record_kind_sql(marks: str, key: str) -> str:
    """The upsert `ConversationRepository.record` runs per conversation: `marks` are those of its
    platform, workspace_id, channel_id, kind and updated_at, `key` the backend's ON CONFLICT target
    for the table's key."""
    return (
        "INSERT INTO conversation_kinds (platform, workspace_id, channel_id, kind, updated_at) "
        f"VALUES ({marks}) ON CONFLICT {key} "
        "DO UPDATE SET kind = excluded.kind, updated_at = excluded.updated_at"
    )


class ConversationRepository(ABC):
    """Conversation kinds as the adapters report them, and the narrowing of rows stored too widely."""

    # `record_kind_sql` in the backend's dialect.
    _RECORD_KIND: ClassVar[str]

    @abstractmethod
    async def kinds(self) -> list[tuple[str, str, str, str]]:
        """(platform, workspace_id, channel_id, kind) of every conversation recorded."""

    async def record(self, conversations: Sequence[Conversation], now: float) -> None:
        """Store each conversation's kind as reported, replacing the one recorded before."""
        rows = [(c.platform, c.workspace_id, c.channel_id, c.kind.value, now) for c in conversations]
        with self._failing("conversation kind not recorded"):
            await self._write_many(self._RECORD_KIND, rows)

    async def narrow(self, conversation: Conversation, dry_run: bool) -> dict[str, list[str]]:
        """Make the conversation's workspace-visible rows channel-visible under its own id; returns
        the ids per kind ("memories", "messages", "summaries"), changed unless `dry_run`."""
        with self._failing("rows of a private conversation not narrowed"):
            found = {table: await self._narrowed_ids(table, conversation) for table in NARROWED_TABLES}
            if dry_run or not any(found.values()):
                # Nothing to narrow (the usual case for a conversation first seen): no write lock taken.
                return found
            return await self._narrow_rows(conversation)

    @abstractmethod
    async def _narrowed_ids(self, table: str, conversation: Conversation) -> list[str]:
        """The ids of `table`'s rows that narrowing `conversation` would move (`narrowed_rows_sql`)."""

    @abstractmethod
    async def _narrow_rows(self, conversation: Conversation) -> dict[str, list[str]]:
        """Narrow the rows in one transaction (the displaced thread summaries first); returns the
        ids changed per table, in the order of `NARROWED_TABLES`."""

    @abstractmethod
    def _failing(self, what: str) -> AbstractContextManager[None]:
        """Inside: the backend driver's error becomes a `StorageError` ("`what`: cause")."""

    @abstractmethod
    async def _write_many(self, sql: str, rows: Sequence[Sequence[object]]) -> None:
        """Run `sql` once per row of `rows`, all in one transaction."""
