"""PostgreSQL conversation kinds: the `conversation_kinds` table and the narrowing of rows."""

from __future__ import annotations

from ...models import Conversation, Visibility
from ..base import (
    NARROWED_TABLES,
    ConversationRepository,
    displaced_thread_summaries_sql,
    narrowed_rows_sql,
    record_kind_sql,
)
from .tables import PostgresTables

_CHANNEL = Visibility.CHANNEL.value
# $1 platform, $2 workspace, $3 channel.
_WHERE = narrowed_rows_sql("$1", "$2", "$3")


class PostgresConversations(PostgresTables, ConversationRepository):
    """Kinds as reported; narrowing changes rows and their vectors at once (they are one row)."""

    async def kinds(self) -> list[tuple[str, str, str, str]]:
        rows = await self._db.fetch(
            "SELECT platform, workspace_id, channel_id, kind FROM conversation_kinds "
            'ORDER BY platform COLLATE "C", workspace_id COLLATE "C", channel_id COLLATE "C"'
        )
        return [(r[0], r[1], r[2], r[3]) for r in rows]

    # What `record` runs for each conversation.
    _RECORD_KIND = record_kind_sql("$1, $2, $3, $4, $5", "ON CONSTRAINT conversation_kinds_pkey")

    @staticmethod
    def _params(c: Conversation) -> tuple[str, str, str]:
        return c.platform, c.workspace_id, c.channel_id

    async def _narrowed_ids(self, table: str, conversation: Conversation) -> list[str]:
        rows = await self._db.fetch(f"SELECT id FROM {table} WHERE {_WHERE}", self._params(conversation))
        return [r[0] for r in rows]

    async def _narrow_rows(self, conversation: Conversation) -> dict[str, list[str]]:
        params = self._params(conversation)
        found: dict[str, list[str]] = {}
        async with self._db.transaction() as conn:
            await conn.execute(displaced_thread_summaries_sql(_WHERE, "$3"), *params)
            for table in NARROWED_TABLES:
                rows = await conn.fetch(
                    f"UPDATE {table} SET visibility = '{_CHANNEL}', channel_id = $3 "
                    f"WHERE {_WHERE} RETURNING id",
                    *params,
                )
                found[table] = [r[0] for r in rows]
        return found
