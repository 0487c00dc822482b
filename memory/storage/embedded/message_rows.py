"""SQL of the `messages` table: the transcript of every conversation, and its visible reads."""

from __future__ import annotations

import json
from collections.abc import Sequence

import numpy as np

from ...models import Audience, Scope, StoredMessage
from ...scope import sql_visibility_filter
from ..base import Period, ToldDays
from ..rows import MESSAGE_COLUMNS, message_from_row, message_values, told_values
from .sqlite import SQLiteTables, chunks, from_blob, safe_text, to_blob

# `messages.indexed` of a turn kept out of search for good (never embedded, never repaired).
NOT_SEARCHABLE = -1
# A conversation's turns, whatever their thread: see `_conversation`.
_CONVERSATION = "platform = ? AND workspace_id = ? AND channel_id = ? AND agent_id = ?"


def _conversation(scope: Scope) -> tuple[str, str, str, str]:
    return scope.platform, scope.workspace_id, scope.channel_id, scope.agent_id


class MessageRows(SQLiteTables):
    """Turn rows: stored in batches, read by conversation or through the visibility filter (the reads
    of `TurnRepository`, documented there)."""

    # --- messages ---------------------------------------------------------------------------

    async def insert_rows(
        self,
        messages: Sequence[StoredMessage],
        embeddings: Sequence[np.ndarray | None] | None = None,
        indexed: int = 0,
    ) -> list[str]:
        """Store turns in one transaction; a repeated external id is skipped. Returns new ids.

        `indexed` 0 queues them for the vector index; `NOT_SEARCHABLE` keeps them out of it."""
        inserted: list[str] = []
        vectors = embeddings if embeddings is not None else [None] * len(messages)
        async with self._db.transaction() as db:
            for message, vector in zip(messages, vectors, strict=True):
                cursor = await db.execute(
                    f"INSERT OR IGNORE INTO messages ({MESSAGE_COLUMNS}, embedding, indexed, "
                    "told_since, told_until, told_read) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,1)",
                    (*message_values(message, safe_text), to_blob(vector), indexed, *told_values(message)),
                )
                if cursor.rowcount:
                    inserted.append(message.id)
        return inserted

    async def rewrite_rows(self, messages: Sequence[StoredMessage]) -> list[str]:
        """New content and tool calls for stored turns, queued for a new vector; the next turn of
        each conversation (indexed under both turns' words) queued to be indexed again. Returns the
        ids of those next turns."""
        next_turns: list[str] = []
        async with self._db.transaction() as db:
            for m in messages:
                await db.execute(
                    "UPDATE messages SET content = ?, tool_calls = ?, embedding = NULL, told_since = ?, "
                    "told_until = ?, told_read = 1, "
                    f"indexed = CASE WHEN indexed = {NOT_SEARCHABLE} THEN indexed ELSE 0 END "
                    "WHERE id = ?",
                    (
                        safe_text(m.content),
                        safe_text(json.dumps(m.tool_calls, ensure_ascii=False)),
                        *told_values(m),
                        m.id,
                    ),
                )
                # The turn said next (ties broken by arrival, as the transcript reads).
                cursor = await db.execute(
                    f"SELECT id FROM messages WHERE {_CONVERSATION} AND indexed = 1 AND id <> ? "
                    "AND (created_at > ? OR (created_at = ? AND rowid > "
                    "(SELECT rowid FROM messages WHERE id = ?))) "
                    "ORDER BY created_at, rowid LIMIT 1",
                    (*_conversation(m.scope), m.id, m.created_at, m.created_at, m.id),
                )
                found = await cursor.fetchone()
                if found is not None:
                    next_turns.append(str(found[0]))
                    await db.execute("UPDATE messages SET indexed = 0 WHERE id = ?", (found[0],))
        return next_turns

    async def told_unread(self, limit: int) -> list[StoredMessage]:
        rows = await self._db.fetch(
            f"SELECT {MESSAGE_COLUMNS} FROM messages WHERE told_read = 0 ORDER BY rowid LIMIT ?", [limit]
        )
        return [message_from_row(r) for r in rows]

    async def _set_told(self, told: Sequence[ToldDays]) -> None:
        async with self._db.transaction() as db:
            await db.executemany(
                "UPDATE messages SET told_since = ?, told_until = ?, told_read = 1 "
                "WHERE id = ? AND told_read = 0",
                [(since, until, turn_id) for turn_id, since, until in told],
            )

    async def page(self, after: str, limit: int) -> list[StoredMessage]:
        return [message_from_row(r) for r in await self._page("messages", MESSAGE_COLUMNS, after, limit)]

    async def mark_indexed(self, ids: Sequence[str]) -> None:
        await self._set_indexed("messages", ids, 1)

    async def mark_unindexed(self, ids: Sequence[str]) -> None:
        """Queue these rows for re-indexing (their vector was found missing)."""
        await self._set_indexed("messages", ids, 0)

    async def get_unscoped(self, ids: Sequence[str]) -> list[StoredMessage]:
        # Summaries of one known scope, benchmarks: what a person or a model is shown reads
        # through `visible`.
        return [message_from_row(r) for r in await self._db.rows_by_id("messages", MESSAGE_COLUMNS, ids)]

    async def visible(self, ids: Sequence[str], audience: Audience) -> list[StoredMessage]:
        # Search hits are ids from the vector store; this is where their rows are read, so a vector
        # row left with stale scope columns can never bring a foreign turn back.
        where, params = sql_visibility_filter(audience, keyed=True)
        rows = await self._db.rows_by_id("messages", MESSAGE_COLUMNS, ids, where, params)
        return [message_from_row(r) for r in rows]

    async def told_between(
        self, audience: Audience, since: float, until: float, limit: int
    ) -> list[tuple[str, np.ndarray | None, float]]:
        """The indexed turns `audience` may read that tell only of days in [since, until)
        (`turn_text.told_days`): id, the vector kept with the row (None once a repair wrote it to
        the index only) and when said; at most `limit`, those telling of the latest days first."""
        where, params = sql_visibility_filter(audience, keyed=True)
        rows = await self._db.fetch(
            "SELECT id, embedding, created_at FROM messages WHERE told_since >= ? AND told_since < ? "
            f"AND told_until <= ? AND indexed = 1 AND {where} ORDER BY told_since DESC, rowid DESC LIMIT ?",
            [since, until, until, *params, limit],
        )
        return [(str(i), from_blob(blob), float(said)) for i, blob, said in rows]  # type: ignore[arg-type]

    async def visible_with_next(
        self, ids: Sequence[str], audience: Audience, within: float
    ) -> list[tuple[StoredMessage, StoredMessage | None]]:
        """The turns of `ids` that `audience` may read, in the order given, each with the next
        turn of its conversation (same channel, thread and agent) if that came within `within`
        seconds and `audience` may read it too.

        One query per 500 ids: the successor is found through the channel index, and both rows
        are read through the same visibility filter as every other read.
        """
        hit_where, hit_params = sql_visibility_filter(audience, alias="h", keyed=True)
        next_where, next_params = sql_visibility_filter(audience, alias="m", keyed=True)
        hit_columns = ", ".join(f"h.{c.strip()}" for c in MESSAGE_COLUMNS.split(","))
        next_columns = ", ".join(f"m.{c.strip()}" for c in MESSAGE_COLUMNS.split(","))
        width = len(MESSAGE_COLUMNS.split(","))
        found: dict[str, tuple[StoredMessage, StoredMessage | None]] = {}
        for chunk in chunks(list(dict.fromkeys(ids))):
            marks = ",".join("?" * len(chunk))
            sql = (
                f"SELECT {hit_columns}, {next_columns} FROM messages h LEFT JOIN messages m ON m.id = ("
                "SELECT n.id FROM messages n WHERE n.platform = h.platform "
                "AND n.workspace_id = h.workspace_id AND n.channel_id = h.channel_id "
                "AND n.agent_id = h.agent_id AND n.thread_id IS h.thread_id "
                "AND (n.created_at > h.created_at OR (n.created_at = h.created_at AND n.rowid > h.rowid)) "
                f"AND n.created_at <= h.created_at + ? AND n.indexed <> {NOT_SEARCHABLE} "
                "ORDER BY n.created_at, n.rowid LIMIT 1) "
                f"AND {next_where} WHERE h.id IN ({marks}) AND {hit_where}"
            )
            for row in await self._db.fetch(sql, (within, *next_params, *chunk, *hit_params)):
                turn = message_from_row(row[:width])
                after = message_from_row(row[width:]) if row[width] is not None else None
                found[turn.id] = (turn, after)
        return [found[i] for i in ids if i in found]

    async def following(
        self, ids: Sequence[str], audience: Audience, within: float
    ) -> dict[str, StoredMessage]:
        """For each turn of `ids` that `audience` may read, the next one if it may read it too
        (see `visible_with_next`)."""
        pairs = await self.visible_with_next(ids, audience, within)
        return {turn.id: after for turn, after in pairs if after is not None}

    async def by_external_id(self, scope: Scope, external_id: str) -> StoredMessage | None:
        rows = await self._db.fetch(
            f"SELECT {MESSAGE_COLUMNS} FROM messages WHERE {_CONVERSATION} AND external_id = ?",
            (*_conversation(scope), external_id),
        )
        return message_from_row(rows[0]) if rows else None

    async def recent(
        self, scope: Scope, limit: int = 20, before: float | None = None, after: float | None = None
    ) -> list[StoredMessage]:
        # Scoped by the conversation itself (platform, workspace, channel, agent): everyone in it
        # saw these turns, and the bot's own replies in a DM belong to no viewer by author.
        sql = f"SELECT {MESSAGE_COLUMNS} FROM messages WHERE {_CONVERSATION}"
        params: list[object] = list(_conversation(scope))
        if scope.thread_id is not None:
            sql += " AND thread_id = ?"
            params.append(scope.thread_id)
        if before is not None:
            sql += " AND created_at < ?"
            params.append(before)
        if after is not None:
            sql += " AND created_at > ?"
            params.append(after)
        sql += " ORDER BY created_at DESC, rowid DESC LIMIT ?"
        params.append(limit)
        rows = await self._db.fetch(sql, params)
        return [message_from_row(r) for r in reversed(rows)]

    async def _latest(self, scope: Scope, period: Period, limit: int) -> list[StoredMessage]:
        # Scoped by the conversation, like `recent`: a timeline of the channel it runs in.
        marks = ",".join("?" * len(period.roles))
        rows = await self._db.fetch(
            f"SELECT {MESSAGE_COLUMNS} FROM messages WHERE {_CONVERSATION} "
            f"AND created_at >= ? AND created_at < ? AND role IN ({marks}) "
            "ORDER BY created_at DESC, rowid DESC LIMIT ?",
            (*_conversation(scope), period.since, period.until, *period.roles, limit),
        )
        return [message_from_row(r) for r in rows]

    async def _per_day(self, audience: Audience, period: Period, per_day: int) -> list[StoredMessage]:
        # Across every conversation of the workspace it can see.
        where, params = sql_visibility_filter(audience)
        marks = ",".join("?" * len(period.roles))
        rows = await self._db.fetch(
            f"SELECT {MESSAGE_COLUMNS} FROM (SELECT {MESSAGE_COLUMNS}, ROW_NUMBER() OVER ("
            "PARTITION BY CAST((created_at + ?) / 86400 AS INTEGER) ORDER BY created_at DESC, rowid DESC"
            f") AS n FROM messages WHERE {where} AND created_at >= ? AND created_at < ? "
            f"AND role IN ({marks})) WHERE n <= ? ORDER BY created_at",
            (period.utc_offset, *params, period.since, period.until, *period.roles, per_day),
        )
        return [message_from_row(r) for r in rows]

    async def _day_counts(
        self, audience: Audience, period: Period, exclude: Sequence[str]
    ) -> Sequence[Sequence[object]]:
        where, params = sql_visibility_filter(audience)
        marks = ",".join("?" * len(period.roles))
        unless = f"AND id NOT IN ({','.join('?' * len(exclude))}) " if exclude else ""
        return await self._db.fetch(
            "SELECT CAST((created_at + ?) / 86400 AS INTEGER) AS day, COUNT(*), "
            "COUNT(DISTINCT channel_id || char(31) || COALESCE(thread_id, '')) "
            f"FROM messages WHERE {where} AND created_at >= ? AND created_at < ? AND role IN ({marks}) "
            f"{unless}GROUP BY day ORDER BY day",
            (period.utc_offset, *params, period.since, period.until, *period.roles, *exclude),
        )

    async def unindexed(self, limit: int = 1000) -> list[tuple[StoredMessage, np.ndarray | None]]:
        rows = await self._db.fetch(
            f"SELECT {MESSAGE_COLUMNS}, embedding FROM messages WHERE indexed = 0 LIMIT ?", (limit,)
        )
        return [(message_from_row(r), from_blob(r[-1])) for r in rows]  # type: ignore[arg-type]

    async def indexed_ids(self) -> set[str]:
        rows = await self._db.fetch("SELECT id FROM messages WHERE indexed = 1")
        return {str(r[0]) for r in rows}

    async def count(self) -> int:
        rows = await self._db.fetch("SELECT COUNT(*) FROM messages")
        return int(rows[0][0])  # type: ignore[call-overload]
