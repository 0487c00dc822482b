"""SQL of the `summaries` table: turn summaries, condensations and rolling thread summaries."""

from __future__ import annotations

import json
from collections.abc import Sequence

import numpy as np

from ...errors import SummaryConflict
from ...models import Audience, Scope, Summary
from ...scope import sql_audience_filter
from ..base import SummaryQuery
from ..rows import SUMMARY_COLUMNS, json_list, summary_from_row, summary_values
from .sqlite import SQLiteTables, chunks, from_blob, safe_text, to_blob


def _row(row: Sequence[object]) -> Summary:
    return summary_from_row(row, json_list)


def _values(s: Summary, embedding: np.ndarray | None) -> tuple[object, ...]:
    return (*summary_values(s, safe_text, json.dumps(s.source_ids)), to_blob(embedding))


def _scope_clause(scope: Scope) -> tuple[str, list[object]]:
    # `IS` compares NULL thread ids as equal: a channel's top level is its own conversation.
    return (
        "platform = ? AND workspace_id = ? AND channel_id = ? AND agent_id = ? AND thread_id IS ?",
        [scope.platform, scope.workspace_id, scope.channel_id, scope.agent_id, scope.thread_id],
    )


class SummaryRows(SQLiteTables):
    """Summary rows beside the engine's tables, sharing its connections.

    Writes go through `SQLiteDatabase.transaction()` (the single writer); reads through its reader
    pool, so summary work never holds the writer longer than one statement batch.
    """

    # --- writes -------------------------------------------------------------------------------

    async def insert(
        self, summary: Summary, embedding: np.ndarray | None, condenses: Sequence[str] = ()
    ) -> None:
        """Insert `summary` (not yet indexed) and, atomically, mark `condenses` as condensed into it.

        Raises SummaryConflict, storing nothing, when one of `condenses` was condensed already.
        """
        async with self._db.transaction() as db:
            await db.execute(
                f"INSERT INTO summaries ({SUMMARY_COLUMNS}, embedding, indexed) "
                "VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,0)",
                _values(summary, embedding),
            )
            marked = 0
            for chunk in chunks(list(dict.fromkeys(condenses))):
                marks = ",".join("?" * len(chunk))
                cursor = await db.execute(
                    f"UPDATE summaries SET condensed_into = ? WHERE id IN ({marks}) "
                    "AND condensed_into IS NULL",
                    (summary.id, *chunk),
                )
                marked += cursor.rowcount
            if marked != len(set(condenses)):
                raise SummaryConflict(f"summary {summary.id}: some sources were already condensed")

    async def replace_thread(self, summary: Summary, previous_id: str | None) -> None:
        """Make `summary` the scope's one thread summary, replacing `previous_id` in the same commit."""
        async with self._db.transaction() as db:
            if previous_id is not None:
                await db.execute("DELETE FROM summaries WHERE id = ? AND kind = 'thread'", (previous_id,))
            await db.execute(
                f"INSERT INTO summaries ({SUMMARY_COLUMNS}, embedding, indexed) "
                "VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,0)",
                _values(summary, None),
            )

    async def set_content(self, summary: Summary, embedding: np.ndarray | None) -> None:
        """A summary's new content and vector (not yet indexed, when it has one)."""
        async with self._db.transaction() as db:
            await db.execute(
                "UPDATE summaries SET content = ?, embedding = ?, "
                "indexed = CASE WHEN ? THEN 0 ELSE indexed END WHERE id = ?",
                (safe_text(summary.content), to_blob(embedding), embedding is not None, summary.id),
            )

    async def page(self, after: str, limit: int) -> list[Summary]:
        return [_row(r) for r in await self._page("summaries", SUMMARY_COLUMNS, after, limit)]

    async def mark_indexed(self, ids: Sequence[str], indexed: bool = True) -> None:
        await self._set_indexed("summaries", ids, int(indexed))

    async def delete(self, ids: Sequence[str]) -> int:
        deleted = 0
        async with self._db.transaction() as db:
            for chunk in chunks(list(ids)):
                marks = ",".join("?" * len(chunk))
                cursor = await db.execute(f"DELETE FROM summaries WHERE id IN ({marks})", tuple(chunk))
                deleted += cursor.rowcount
        return deleted

    # --- reads --------------------------------------------------------------------------------

    async def get_unscoped(self, ids: Sequence[str]) -> list[Summary]:
        """Rows for these ids whoever may read them, in the order given (unknown ids are absent).

        For maintenance and tests; what is shown reads through `visible`.
        """
        return [_row(r) for r in await self._db.rows_by_id("summaries", SUMMARY_COLUMNS, ids)]

    async def visible(self, ids: Sequence[str], audience: Audience, now: float) -> list[Summary]:
        # The rules memories obey.
        where, params = sql_audience_filter(audience, now, keyed=True)
        return [_row(r) for r in await self._db.rows_by_id("summaries", SUMMARY_COLUMNS, ids, where, params)]

    async def find_turn(self, scope: Scope, source_ids: Sequence[str]) -> Summary | None:
        """The level-1 summary already written for exactly these messages, if any (retries)."""
        where, params = _scope_clause(scope)
        rows = await self._db.fetch(
            f"SELECT {SUMMARY_COLUMNS} FROM summaries WHERE {where} AND kind = 'turns' AND level = 1 "
            "AND source_ids = ? LIMIT 1",
            (*params, json.dumps(list(source_ids))),
        )
        return _row(rows[0]) if rows else None

    async def _query(
        self, scope: Scope, query: SummaryQuery, audience: Audience | None, now: float
    ) -> list[Summary]:
        where, params = _scope_clause(scope)
        clauses = [where, f"kind IN ({','.join('?' * len(query.kinds))})"]
        params.extend(k.value for k in query.kinds)
        if query.level is not None:
            clauses.append("level = ?")
            params.append(query.level)
        if query.pending_only:
            clauses.append("condensed_into IS NULL")
        if audience is not None:
            visible, more = sql_audience_filter(audience, now)
            clauses.append(visible)
            params.extend(more)
        rows = await self._db.fetch(
            f"SELECT {SUMMARY_COLUMNS} FROM summaries WHERE {' AND '.join(clauses)} "
            "ORDER BY covers_to, created_at, rowid",
            params,
        )
        return [_row(r) for r in rows]

    async def thread(
        self, scope: Scope, audience: Audience | None = None, now: float = 0.0
    ) -> Summary | None:
        where, params = _scope_clause(scope)
        if audience is not None:
            visible, more = sql_audience_filter(audience, now)
            where = f"{where} AND {visible}"
            params.extend(more)
        rows = await self._db.fetch(
            f"SELECT {SUMMARY_COLUMNS} FROM summaries WHERE {where} AND kind = 'thread' LIMIT 1", params
        )
        return _row(rows[0]) if rows else None

    async def unindexed(self, limit: int = 1000) -> list[tuple[Summary, np.ndarray | None]]:
        """Searchable summaries whose vector write never completed."""
        rows = await self._db.fetch(
            f"SELECT {SUMMARY_COLUMNS}, embedding FROM summaries WHERE indexed = 0 AND forgotten = 0 "
            "AND kind != 'thread' LIMIT ?",
            (limit,),
        )
        return [(_row(r), from_blob(r[-1])) for r in rows]  # type: ignore[arg-type]

    async def indexed_ids(self) -> set[str]:
        rows = await self._db.fetch("SELECT id FROM summaries WHERE indexed = 1 AND forgotten = 0")
        return {str(r[0]) for r in rows}
