"""PostgreSQL conversation kinds: the `conversation_kinds` table and the narrowing of rows."""

from __future__ import annotations

from collections.abc import Sequence

from ...models import Conversation, Visibility
from ..base import (
    NARROWED_TABLES,
    ConversationRepository,
    displaced_thread_summaries_sql,
    narrowed_rows_sql,
)
from .tables import PostgresTables, failing

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

    async def record(self, conversations: Sequence[Conversation], now: float) -> None:
        with failing("conversation kind not recorded"):
            async with self._db.transaction() as conn:
                await conn.executemany(
                    "INSERT INTO conversation_kinds (platform, workspace_id, channel_id, kind, updated_at) "
                    "VALUES ($1, $2, $3, $4, $5) ON CONFLICT ON CONSTRAINT conversation_kinds_pkey "
                    "DO UPDATE SET kind = excluded.kind, updated_at = excluded.updated_at",
                    [(c.platform, c.workspace_id, c.channel_id, c.kind.value, now) for c in conversations],
                )

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
