"""SQL of the `messages` table: the transcript of every conversation, and its visible reads."""

from __future__ import annotations

import json
from collections.abc import Sequence

import numpy as np

from ...models import Audience, Scope, StoredMessage, Visibility
from ...scope import sql_visibility_filter
from .sqlite import CHUNK, VISIBILITIES, SQLiteDatabase, chunks, from_blob, json_list, safe_text, to_blob

_MESSAGE_COLUMNS = (
    "id, platform, workspace_id, channel_id, thread_id, agent_id, author_id, author_name, role, "
    "content, created_at, external_id, visibility, tool_calls"
)
# `messages.indexed` of a turn kept out of search for good (never embedded, never repaired).
NOT_SEARCHABLE = -1


def _row_to_message(row: Sequence[object]) -> StoredMessage:
    return StoredMessage(
        id=str(row[0]),
        scope=Scope(str(row[1]), str(row[2]), str(row[3]), str(row[5]), row[4]),  # type: ignore[arg-type]
        author_id=str(row[6]),
        author_name=str(row[7]),
        role=str(row[8]),
        content=str(row[9]),
        created_at=float(row[10]),  # type: ignore[arg-type]
        external_id=row[11],  # type: ignore[arg-type]
        visibility=VISIBILITIES.get(row[12]) or Visibility(row[12]),  # type: ignore[arg-type]
        tool_calls=json_list(row[13]),
    )


class MessageRows(SQLiteDatabase):
    """Turn rows: stored in batches, read by conversation or through the visibility filter."""

    # --- messages ---------------------------------------------------------------------------

    async def insert_messages(
        self,
        messages: Sequence[StoredMessage],
        embeddings: Sequence[np.ndarray | None] | None = None,
        indexed: int = 0,
    ) -> list[str]:
        """Store turns in one transaction; a repeated external id is skipped. Returns new ids.

        `indexed` 0 queues them for the vector index; `NOT_SEARCHABLE` keeps them out of it."""
        inserted: list[str] = []
        vectors = embeddings if embeddings is not None else [None] * len(messages)
        async with self.transaction() as db:
            for message, vector in zip(messages, vectors, strict=True):
                cursor = await db.execute(
                    f"INSERT OR IGNORE INTO messages ({_MESSAGE_COLUMNS}, embedding, indexed) "
                    "VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
                    (
                        message.id,
                        message.platform,
                        message.workspace_id,
                        message.channel_id,
                        message.thread_id,
                        message.agent_id,
                        message.author_id,
                        safe_text(message.author_name),
                        message.role,
                        safe_text(message.content),
                        message.created_at,
                        message.external_id,
                        message.visibility.value,
                        safe_text(json.dumps(message.tool_calls, ensure_ascii=False)),
                        to_blob(vector),
                        indexed,
                    ),
                )
                if cursor.rowcount:
                    inserted.append(message.id)
        return inserted

    async def mark_messages_indexed(self, ids: Sequence[str]) -> None:
        async with self.transaction() as db:
            for chunk in chunks(ids):
                marks = ",".join("?" * len(chunk))
                await db.execute(f"UPDATE messages SET indexed = 1 WHERE id IN ({marks})", tuple(chunk))

    async def mark_messages_unindexed(self, ids: Sequence[str]) -> None:
        """Queue these rows for re-indexing (their vector was found missing)."""
        async with self.transaction() as db:
            for chunk in chunks(ids):
                marks = ",".join("?" * len(chunk))
                await db.execute(f"UPDATE messages SET indexed = 0 WHERE id IN ({marks})", tuple(chunk))

    async def get_messages_unscoped(self, ids: Sequence[str]) -> list[StoredMessage]:
        """Turns by id whoever may read them, in the order given (summaries of one known scope,
        benchmarks); what a person or a model is shown reads through `visible_messages`."""
        return [_row_to_message(r) for r in await self.rows_by_id("messages", _MESSAGE_COLUMNS, ids)]

    async def visible_messages(self, ids: Sequence[str], audience: Audience) -> list[StoredMessage]:
        """The subset of turns `ids` that `audience` may read (the memories' rules), in the order given.

        Search hits are ids from the vector store; this is where their rows are read, so a vector
        row left with stale scope columns can never bring a foreign turn back.
        """
        where, params = sql_visibility_filter(audience, keyed=True)
        rows = await self.rows_by_id("messages", _MESSAGE_COLUMNS, ids, where, params)
        return [_row_to_message(r) for r in rows]

    async def visible_turns_and_next(
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
        hit_columns = ", ".join(f"h.{c.strip()}" for c in _MESSAGE_COLUMNS.split(","))
        next_columns = ", ".join(f"m.{c.strip()}" for c in _MESSAGE_COLUMNS.split(","))
        width = len(_MESSAGE_COLUMNS.split(","))
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
            for row in await self._fetch(sql, (within, *next_params, *chunk, *hit_params)):
                turn = _row_to_message(row[:width])
                after = _row_to_message(row[width:]) if row[width] is not None else None
                found[turn.id] = (turn, after)
        return [found[i] for i in ids if i in found]

    async def following_messages(
        self, ids: Sequence[str], audience: Audience, within: float
    ) -> dict[str, StoredMessage]:
        """For each turn of `ids` that `audience` may read, the next one if it may read it too
        (see `visible_turns_and_next`)."""
        pairs = await self.visible_turns_and_next(ids, audience, within)
        return {turn.id: after for turn, after in pairs if after is not None}

    async def message_by_external_id(
        self, platform: str, workspace_id: str, channel_id: str, agent_id: str, external_id: str
    ) -> StoredMessage | None:
        rows = await self._fetch(
            f"SELECT {_MESSAGE_COLUMNS} FROM messages WHERE platform = ? AND workspace_id = ? "
            "AND channel_id = ? AND agent_id = ? AND external_id = ?",
            (platform, workspace_id, channel_id, agent_id, external_id),
        )
        return _row_to_message(rows[0]) if rows else None

    async def recent_messages(
        self,
        platform: str,
        workspace_id: str,
        channel_id: str,
        agent_id: str,
        limit: int = 20,
        thread_id: str | None = None,
        before: float | None = None,
    ) -> list[StoredMessage]:
        """The channel's last `limit` turns, oldest first.

        Scoped by the conversation itself (platform, workspace, channel, agent): everyone in it
        saw these turns, and the bot's own replies in a DM belong to no viewer by author.
        """
        sql = (
            f"SELECT {_MESSAGE_COLUMNS} FROM messages WHERE platform = ? AND workspace_id = ? "
            "AND channel_id = ? AND agent_id = ?"
        )
        params: list[object] = [platform, workspace_id, channel_id, agent_id]
        if thread_id is not None:
            sql += " AND thread_id = ?"
            params.append(thread_id)
        if before is not None:
            sql += " AND created_at < ?"
            params.append(before)
        sql += " ORDER BY created_at DESC, rowid DESC LIMIT ?"
        params.append(limit)
        rows = await self._fetch(sql, params)
        return [_row_to_message(r) for r in reversed(rows)]

    async def messages_between(
        self,
        platform: str,
        workspace_id: str,
        channel_id: str,
        agent_id: str,
        since: float,
        until: float,
        roles: Sequence[str] = ("user",),
        limit: int = 50,
    ) -> list[StoredMessage]:
        """The channel's turns in [since, until) with one of `roles`: the last `limit`, oldest first.

        Scoped by the conversation, like `recent_messages`: a timeline of the channel it runs in.
        """
        marks = ",".join("?" * len(roles))
        rows = await self._fetch(
            f"SELECT {_MESSAGE_COLUMNS} FROM messages WHERE platform = ? AND workspace_id = ? "
            "AND channel_id = ? AND agent_id = ? AND created_at >= ? AND created_at < ? "
            f"AND role IN ({marks}) "
            "ORDER BY created_at DESC, rowid DESC LIMIT ?",
            (platform, workspace_id, channel_id, agent_id, since, until, *roles, limit),
        )
        return [_row_to_message(r) for r in reversed(rows)]

    async def visible_messages_between(
        self,
        audience: Audience,
        since: float,
        until: float,
        per_day: int,
        utc_offset: float = 0.0,
        roles: Sequence[str] = ("user",),
    ) -> list[StoredMessage]:
        """Turns `audience` may read in [since, until), across every conversation of the workspace
        it can see: the latest `per_day` of each day (days start at midnight `utc_offset` seconds
        east of UTC), oldest first. What a timeline quotes."""
        where, params = sql_visibility_filter(audience)
        marks = ",".join("?" * len(roles))
        rows = await self._fetch(
            f"SELECT {_MESSAGE_COLUMNS} FROM (SELECT {_MESSAGE_COLUMNS}, ROW_NUMBER() OVER ("
            "PARTITION BY CAST((created_at + ?) / 86400 AS INTEGER) ORDER BY created_at DESC, rowid DESC"
            f") AS n FROM messages WHERE {where} AND created_at >= ? AND created_at < ? "
            f"AND role IN ({marks})) WHERE n <= ? ORDER BY created_at",
            (utc_offset, *params, since, until, *roles, per_day),
        )
        return [_row_to_message(r) for r in rows]

    async def message_days(
        self,
        audience: Audience,
        since: float,
        until: float,
        utc_offset: float = 0.0,
        roles: Sequence[str] = ("user",),
        exclude: Sequence[str] = (),
    ) -> list[tuple[float, int, int]]:
        """Per day of [since, until) with turns `audience` may read (but `exclude`): (the day's
        midnight as a timestamp, how many turns, in how many conversations), oldest first."""
        where, params = sql_visibility_filter(audience)
        marks = ",".join("?" * len(roles))
        skip = list(exclude)[:CHUNK]
        unless = f"AND id NOT IN ({','.join('?' * len(skip))}) " if skip else ""
        rows = await self._fetch(
            "SELECT CAST((created_at + ?) / 86400 AS INTEGER) AS day, COUNT(*), "
            "COUNT(DISTINCT channel_id || char(31) || COALESCE(thread_id, '')) "
            f"FROM messages WHERE {where} AND created_at >= ? AND created_at < ? AND role IN ({marks}) "
            f"{unless}GROUP BY day ORDER BY day",
            (utc_offset, *params, since, until, *roles, *skip),
        )
        return [(int(day) * 86400.0 - utc_offset, int(count), int(places)) for day, count, places in rows]  # type: ignore[call-overload]

    async def unindexed_messages(self, limit: int = 1000) -> list[tuple[StoredMessage, np.ndarray | None]]:
        rows = await self._fetch(
            f"SELECT {_MESSAGE_COLUMNS}, embedding FROM messages WHERE indexed = 0 LIMIT ?", (limit,)
        )
        return [(_row_to_message(r), from_blob(r[-1])) for r in rows]  # type: ignore[arg-type]

    async def indexed_message_ids(self) -> set[str]:
        rows = await self._fetch("SELECT id FROM messages WHERE indexed = 1")
        return {str(r[0]) for r in rows}

    async def count_messages(self) -> int:
        rows = await self._fetch("SELECT COUNT(*) FROM messages")
        return int(rows[0][0])  # type: ignore[call-overload]
