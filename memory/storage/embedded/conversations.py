"""Embedded conversation kinds: the `conversation_kinds` table and the narrowing of rows in SQLite."""

from __future__ import annotations

from ...models import Conversation, Visibility
from ..base import (
    NARROWED_TABLES,
    ConversationRepository,
    displaced_thread_summaries_sql,
    narrowed_rows_sql,
    record_kind_sql,
)
from .sqlite import SQLiteTables


class EmbeddedConversations(SQLiteTables, ConversationRepository):
    """Kinds as reported, and the SQL half of narrowing (the vector half is each repository's `rescope`)."""

    async def kinds(self) -> list[tuple[str, str, str, str]]:
        rows = await self._db.fetch(
            "SELECT platform, workspace_id, channel_id, kind FROM conversation_kinds "
            "ORDER BY platform, workspace_id, channel_id"
        )
        return [(str(p), str(w), str(c), str(k)) for p, w, c, k in rows]

    # What `record` runs for each conversation.
    _RECORD_KIND = record_kind_sql("?, ?, ?, ?, ?", "(platform, workspace_id, channel_id)")

    @staticmethod
    def _where(c: Conversation) -> tuple[str, tuple[str, ...]]:
        # SQLite's `?` binds in order: the marks `narrowed_rows_sql` writes need these seven values.
        here = (c.platform, c.workspace_id, c.channel_id)
        return narrowed_rows_sql("?", "?", "?"), (*here, c.channel_id, *here)

    async def _narrowed_ids(self, table: str, conversation: Conversation) -> list[str]:
        where, params = self._where(conversation)
        rows = await self._db.fetch(f"SELECT id FROM {table} WHERE {where}", params)
        return [str(r[0]) for r in rows]

    async def _narrow_rows(self, conversation: Conversation) -> dict[str, list[str]]:
        c = conversation
        where, params = self._where(c)
        found: dict[str, list[str]] = {}
        async with self._db.transaction() as db:
            # The vector of a summary deleted here is an orphan that the start-up reconcile removes.
            await db.execute(displaced_thread_summaries_sql(where, "?"), (*params, c.channel_id))
            for table in NARROWED_TABLES:
                rows = await db.execute_fetchall(f"SELECT id FROM {table} WHERE {where}", params)
                found[table] = [str(r[0]) for r in rows]
                if found[table]:
                    await db.execute(
                        f"UPDATE {table} SET visibility = '{Visibility.CHANNEL.value}', channel_id = ? "
                        f"WHERE {where}",
                        (c.channel_id, *params),
                    )
        return found
