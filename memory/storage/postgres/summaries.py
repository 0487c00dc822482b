"""PostgreSQL summaries: turn summaries, condensations and rolling thread summaries, with their vectors."""

from __future__ import annotations

from collections.abc import Sequence

import asyncpg
import numpy as np

from ...errors import SummaryConflict
from ...models import Audience, Scope, Summary
from ..base import Embed, SummaryQuery, SummaryRepository
from ..rows import SUMMARY_COLUMNS, summary_from_row, summary_values
from .db import Params, affected, audience_where, check_vector, safe_text
from .search import dense_hits
from .tables import PostgresTables, insert_sql

_INSERT = insert_sql("summaries", f"{SUMMARY_COLUMNS}, embedding")


def _row(r: asyncpg.Record) -> Summary:
    return summary_from_row(r, list)


def _values(s: Summary, vector: np.ndarray | None) -> tuple[object, ...]:
    return (*summary_values(s, safe_text, list(s.source_ids)), vector)


def _scope(scope: Scope, p: Params) -> str:
    # A channel's top level (no thread) is its own conversation: NULL thread ids compare equal.
    return (
        f"platform = {p.add(scope.platform)} AND workspace_id = {p.add(scope.workspace_id)} "
        f"AND channel_id = {p.add(scope.channel_id)} AND agent_id = {p.add(scope.agent_id)} "
        f"AND thread_id IS NOT DISTINCT FROM {p.add(scope.thread_id)}::text"
    )


class PostgresSummaries(PostgresTables, SummaryRepository):
    """A summary and its vector are one row (a thread summary has none: it is never searched)."""

    async def add(self, summary: Summary, vector: np.ndarray, condenses: Sequence[str] = ()) -> None:
        vec = check_vector(vector, self._db.dim, summary.id)
        async with self._db.transaction() as conn:
            await conn.execute(_INSERT, *_values(summary, vec))
            wanted = list(dict.fromkeys(condenses))
            if wanted:
                marked = affected(
                    await conn.execute(
                        "UPDATE summaries SET condensed_into = $1 "
                        "WHERE id = ANY($2) AND condensed_into IS NULL",
                        summary.id,
                        wanted,
                    )
                )
                if marked != len(wanted):
                    raise SummaryConflict(f"summary {summary.id}: some sources were already condensed")

    async def replace_thread(self, summary: Summary, previous_id: str | None) -> None:
        async with self._db.transaction() as conn:
            if previous_id is not None:
                await conn.execute("DELETE FROM summaries WHERE id = $1 AND kind = 'thread'", previous_id)
            await conn.execute(_INSERT, *_values(summary, None))

    async def delete(self, ids: Sequence[str]) -> int:
        if not ids:
            return 0
        async with self._db.transaction() as conn:
            return affected(await conn.execute("DELETE FROM summaries WHERE id = ANY($1)", list(ids)))

    async def get_unscoped(self, ids: Sequence[str]) -> list[Summary]:
        return [_row(r) for r in await self._rows_by_id("summaries", SUMMARY_COLUMNS, ids)]

    async def page(self, after: str, limit: int) -> list[Summary]:
        return [_row(r) for r in await self._page("summaries", SUMMARY_COLUMNS, after, limit)]

    async def rewrite(self, summary: Summary, vector: np.ndarray | None) -> None:
        vec = check_vector(vector, self._db.dim, summary.id) if vector is not None else None
        await self._db.execute(
            "UPDATE summaries SET content = $2, embedding = $3 WHERE id = $1",
            (summary.id, safe_text(summary.content), vec),
        )

    async def find_turn(self, scope: Scope, source_ids: Sequence[str]) -> Summary | None:
        p = Params()
        where = _scope(scope, p)
        rows = await self._db.fetch(
            f"SELECT {SUMMARY_COLUMNS} FROM summaries WHERE {where} AND kind = 'turns' AND level = 1 "
            f"AND source_ids = {p.add(list(source_ids))}::text[] LIMIT 1",
            p.values,
        )
        return _row(rows[0]) if rows else None

    async def visible(self, ids: Sequence[str], audience: Audience, now: float) -> list[Summary]:
        rows = await self._rows_by_id(
            "summaries", SUMMARY_COLUMNS, ids, lambda p: audience_where(audience, now, p)
        )
        return [_row(r) for r in rows]

    async def _query(
        self, scope: Scope, query: SummaryQuery, audience: Audience | None, now: float
    ) -> list[Summary]:
        p = Params()
        clauses = [_scope(scope, p), f"kind = ANY({p.many([k.value for k in query.kinds])})"]
        if query.level is not None:
            clauses.append(f"level = {p.add(query.level)}")
        if query.pending_only:
            clauses.append("condensed_into IS NULL")
        if audience is not None:
            clauses.append(audience_where(audience, now, p))
        rows = await self._db.fetch(
            f"SELECT {SUMMARY_COLUMNS} FROM summaries WHERE {' AND '.join(clauses)} "
            "ORDER BY covers_to, created_at, seq",
            p.values,
        )
        return [_row(r) for r in rows]

    async def thread(
        self, scope: Scope, audience: Audience | None = None, now: float = 0.0
    ) -> Summary | None:
        p = Params()
        where = _scope(scope, p)
        if audience is not None:
            where = f"{where} AND {audience_where(audience, now, p)}"
        rows = await self._db.fetch(
            f"SELECT {SUMMARY_COLUMNS} FROM summaries WHERE {where} AND kind = 'thread' LIMIT 1", p.values
        )
        return _row(rows[0]) if rows else None

    async def search(
        self, audience: Audience, vector: np.ndarray, k: int, now: float, threshold: float = 0.0
    ) -> list[tuple[Summary, float]]:
        p = Params()
        where = f"{audience_where(audience, now, p)} AND embedding IS NOT NULL"
        hits = await dense_hits(self._db, "summaries", where, p, vector, k)
        kept = [(h.id, h.score) for h in hits if h.score >= threshold]
        rows = {s.id: s for s in await self.visible([i for i, _ in kept], audience, now)}
        return [(rows[i], score) for i, score in kept if i in rows]

    async def reconcile(self, embed: Embed) -> tuple[int, int]:
        # A summary is written with its vector in one statement: nothing to repair, nothing stray.
        return 0, 0

    async def rescope(self, ids: Sequence[str], channel_id: str) -> None:
        # The vector lives in the row `ConversationRepository.narrow` already changed.
        return None
