"""PostgreSQL turns: the transcript, each turn with its vector and full text in one row."""

from __future__ import annotations

import json
import logging
from collections.abc import Awaitable, Sequence

import numpy as np

from ...errors import EmbeddingError
from ...models import Audience, Scope, StoredMessage
from ...settled import gather_settled
from ..base import NewTurn, Period, ToldDays, TurnRepository, VectorHit, scope_key
from ..rows import MESSAGE_COLUMNS, message_from_row, message_values, told_values
from .db import Params, PostgresDatabase, check_vector, safe_text, visibility_where
from .search import dense_hits, ready, search_terms, text_hits
from .tables import PostgresTables, failing, insert_sql

log = logging.getLogger(__name__)

_WIDTH = len(MESSAGE_COLUMNS.split(","))
_INSERT = insert_sql(
    "messages",
    f"{MESSAGE_COLUMNS}, searchable, indexed_text, search_terms, told_since, told_until, told_read, "
    "embedding",
    " ON CONFLICT DO NOTHING RETURNING id",
)


def _aliased(alias: str) -> str:
    return ", ".join(f"{alias}.{c.strip()}" for c in MESSAGE_COLUMNS.split(","))


def _day(offset: str) -> str:
    # Days start at midnight `offset` seconds east of UTC; truncated as SQLite's CAST does.
    return f"trunc((extract(epoch FROM created_at)::float8 + {offset}::float8) / 86400)::bigint"


class PostgresTurns(PostgresTables, TurnRepository):
    """A turn's row holds its vector; one stored without (the embedder failed) sets `repair_due`
    and `PostgresStorage.maintain` embeds it."""

    def __init__(self, db: PostgresDatabase) -> None:
        super().__init__(db)
        self.repair_due = False

    async def _insert(self, turns: Sequence[NewTurn], searchable: bool) -> set[str]:
        rows = [self._row(m, searchable, text, self._usable(m, v)) for m, v, text in turns]
        inserted: set[str] = set()
        with failing("messages not saved"):
            async with self._db.transaction() as conn:
                for row in rows:
                    new = await conn.fetchval(_INSERT, *row)
                    if new is not None:
                        inserted.add(new)
        if searchable and any(row[-1] is None and row[0] in inserted for row in rows):
            self.repair_due = True
        return inserted

    def _usable(self, m: StoredMessage, vector: np.ndarray | None) -> np.ndarray | None:
        # A vector the database would refuse is stored as missing, and repaired like one.
        if vector is None:
            return None
        try:
            return check_vector(vector, self._db.dim, m.id)
        except (EmbeddingError, ValueError):
            log.warning("unusable message vector; queued for repair", exc_info=True)
            return None

    @staticmethod
    def _row(m: StoredMessage, searchable: bool, text: str, vector: np.ndarray | None) -> tuple[object, ...]:
        indexed = safe_text(text)
        told = (*told_values(m), True)  # told_since, told_until, told_read
        return (*message_values(m, safe_text), searchable, indexed, search_terms(indexed), *told, vector)

    async def visible(self, ids: Sequence[str], audience: Audience) -> list[StoredMessage]:
        rows = await self._rows_by_id(
            "messages", MESSAGE_COLUMNS, ids, lambda p: visibility_where(audience, p)
        )
        return [message_from_row(r) for r in rows]

    async def visible_with_next(
        self, ids: Sequence[str], audience: Audience, within: float
    ) -> list[tuple[StoredMessage, StoredMessage | None]]:
        if not ids:
            return []
        p = Params(list(dict.fromkeys(ids)), float(within))
        hit_where = visibility_where(audience, p, alias="h")
        next_where = visibility_where(audience, p, alias="m")
        sql = (
            f"SELECT {_aliased('h')}, {_aliased('m')} FROM messages h "
            "LEFT JOIN LATERAL (SELECT n.id FROM messages n WHERE n.platform = h.platform "
            "AND n.workspace_id = h.workspace_id AND n.channel_id = h.channel_id "
            "AND n.agent_id = h.agent_id AND n.thread_id IS NOT DISTINCT FROM h.thread_id "
            "AND (n.created_at > h.created_at OR (n.created_at = h.created_at AND n.seq > h.seq)) "
            "AND n.created_at <= h.created_at + make_interval(secs => $2) AND n.searchable "
            "ORDER BY n.created_at, n.seq LIMIT 1) nx ON true "
            f"LEFT JOIN messages m ON m.id = nx.id AND {next_where} "
            f"WHERE h.id = ANY($1) AND {hit_where}"
        )
        found: dict[str, tuple[StoredMessage, StoredMessage | None]] = {}
        for record in await self._db.fetch(sql, p.values):
            row = tuple(record)
            turn = message_from_row(row[:_WIDTH])
            after = message_from_row(row[_WIDTH:]) if row[_WIDTH] is not None else None
            found[turn.id] = (turn, after)
        return [found[i] for i in ids if i in found]

    async def get_unscoped(self, ids: Sequence[str]) -> list[StoredMessage]:
        return [message_from_row(r) for r in await self._rows_by_id("messages", MESSAGE_COLUMNS, ids)]

    async def by_external_id(self, scope: Scope, external_id: str) -> StoredMessage | None:
        rows = await self._db.fetch(
            f"SELECT {MESSAGE_COLUMNS} FROM messages WHERE platform = $1 AND workspace_id = $2 "
            "AND channel_id = $3 AND agent_id = $4 AND external_id = $5",
            (scope.platform, scope.workspace_id, scope.channel_id, scope.agent_id, external_id),
        )
        return message_from_row(rows[0]) if rows else None

    async def recent(
        self, scope: Scope, limit: int = 20, before: float | None = None, after: float | None = None
    ) -> list[StoredMessage]:
        p = Params(scope.platform, scope.workspace_id, scope.channel_id, scope.agent_id)
        sql = (
            f"SELECT {MESSAGE_COLUMNS} FROM messages WHERE platform = $1 AND workspace_id = $2 "
            "AND channel_id = $3 AND agent_id = $4"
        )
        if scope.thread_id is not None:
            sql += f" AND thread_id = {p.add(scope.thread_id)}"
        if before is not None:
            sql += f" AND created_at < {p.add(before)}"
        if after is not None:
            sql += f" AND created_at > {p.add(after)}"
        sql += f" ORDER BY created_at DESC, seq DESC LIMIT {p.add(limit)}"
        rows = await self._db.fetch(sql, p.values)
        return [message_from_row(r) for r in reversed(rows)]

    async def _latest(self, scope: Scope, period: Period, limit: int) -> list[StoredMessage]:
        rows = await self._db.fetch(
            f"SELECT {MESSAGE_COLUMNS} FROM messages WHERE platform = $1 AND workspace_id = $2 "
            "AND channel_id = $3 AND agent_id = $4 AND created_at >= $5 AND created_at < $6 "
            "AND role = ANY($7) ORDER BY created_at DESC, seq DESC LIMIT $8",
            (
                scope.platform,
                scope.workspace_id,
                scope.channel_id,
                scope.agent_id,
                period.since,
                period.until,
                list(period.roles),
                limit,
            ),
        )
        return [message_from_row(r) for r in rows]

    def _in_period(self, audience: Audience, period: Period, p: Params) -> str:
        # `p` holds the UTC offset first: `_day('$1')` reads it.
        where = visibility_where(audience, p)
        return (
            f"{where} AND created_at >= {p.add(period.since)} AND created_at < {p.add(period.until)} "
            f"AND role = ANY({p.many(period.roles)})"
        )

    async def _per_day(self, audience: Audience, period: Period, per_day: int) -> list[StoredMessage]:
        p = Params(float(period.utc_offset))
        rows = await self._db.fetch(
            f"SELECT {MESSAGE_COLUMNS} FROM (SELECT {MESSAGE_COLUMNS}, seq, row_number() OVER ("
            f"PARTITION BY {_day('$1')} ORDER BY created_at DESC, seq DESC) AS n FROM messages "
            f"WHERE {self._in_period(audience, period, p)}) AS t WHERE n <= {p.add(per_day)} "
            # Turns of one instant come latest-first, as the embedded backend's sort leaves them.
            "ORDER BY created_at, seq DESC",
            p.values,
        )
        return [message_from_row(r) for r in rows]

    async def _day_counts(
        self, audience: Audience, period: Period, exclude: Sequence[str]
    ) -> Sequence[Sequence[object]]:
        p = Params(float(period.utc_offset))
        where = self._in_period(audience, period, p)
        unless = f" AND NOT (id = ANY({p.many(exclude)}))" if exclude else ""
        return await self._db.fetch(
            f"SELECT {_day('$1')} AS day, count(*), "
            "count(DISTINCT channel_id || chr(31) || COALESCE(thread_id, '')) "
            f"FROM messages WHERE {where}{unless} GROUP BY day ORDER BY day",
            p.values,
        )

    async def count(self) -> int:
        return int(await self._db.fetchval("SELECT count(*) FROM messages"))

    def _searchable(self, audience: Audience, p: Params) -> str:
        return f"{visibility_where(audience, p)} AND searchable AND embedding IS NOT NULL"

    async def search(self, audience: Audience, vector: np.ndarray, k: int) -> list[VectorHit]:
        p = Params()
        return await dense_hits(self._db, "messages", self._searchable(audience, p), p, vector, k)

    async def search_between(
        self, audience: Audience, vector: np.ndarray, since: float, until: float, k: int
    ) -> list[VectorHit]:
        p = Params()
        said = f"created_at >= {p.add(since)} AND created_at < {p.add(until)}"
        where = f"{self._searchable(audience, p)} AND {said}"
        return await dense_hits(self._db, "messages", where, p, vector, k)

    async def search_told(
        self, audience: Audience, vector: np.ndarray, since: float, until: float, k: int
    ) -> list[VectorHit]:
        p = Params()
        told = (
            f"told_since >= {p.add(since)} AND told_since < {p.add(until)} AND told_until <= {p.add(until)}"
        )
        where = f"{told} AND {self._searchable(audience, p)}"
        return await dense_hits(self._db, "messages", where, p, vector, k)

    async def hybrid_search(
        self, audience: Audience, vector: np.ndarray, text: str, k: int
    ) -> tuple[list[VectorHit], list[VectorHit]]:
        return await self.hybrid_search_awaiting(audience, ready(vector), text, k)

    async def hybrid_search_awaiting(
        self, audience: Audience, vector: Awaitable[np.ndarray], text: str, k: int
    ) -> tuple[list[VectorHit], list[VectorHit]]:
        if k <= 0:
            return [], []
        p = Params()
        where = self._searchable(audience, p)

        async def dense() -> list[VectorHit]:
            return await dense_hits(self._db, "messages", where, Params(*p.values), await vector, k)

        # Side by side on two connections, as the memories' two searches are: the full-text one
        # while the query is embedded.
        found, lexical = await gather_settled(
            dense(),
            text_hits(self._db, "messages", where, Params(*p.values), text, k, scope_key(audience)),
        )
        return found, lexical

    async def rescope(self, ids: Sequence[str], channel_id: str) -> None:
        # The vector lives in the row `ConversationRepository.narrow` already changed.
        return None

    async def page(self, after: str, limit: int) -> list[StoredMessage]:
        return [message_from_row(r) for r in await self._page("messages", MESSAGE_COLUMNS, after, limit)]

    async def rewrite(self, messages: Sequence[StoredMessage]) -> None:
        if not messages:
            return
        with failing("turns not rewritten"):
            async with self._db.transaction() as conn:
                for m in messages:
                    text = safe_text(m.content)
                    # A turn kept out of search keeps no index text; the others are indexed under
                    # their own words, and their vectors made again (`unindexed`).
                    await conn.execute(
                        "UPDATE messages SET content = $2, tool_calls = $3, embedding = NULL, "
                        "told_since = $6, told_until = $7, told_read = true, "
                        "indexed_text = CASE WHEN searchable THEN $4 ELSE '' END, "
                        "search_terms = CASE WHEN searchable THEN $5::text[] ELSE search_terms END "
                        "WHERE id = $1",
                        m.id,
                        text,
                        safe_text(json.dumps(m.tool_calls, ensure_ascii=False)),
                        text,
                        search_terms(text),
                        *told_values(m),
                    )
                    # The next turn of its conversation was indexed under this one's words too.
                    after = await conn.fetchrow(
                        "SELECT n.id, n.content FROM messages AS n, messages AS m WHERE m.id = $1 "
                        "AND n.platform = m.platform AND n.workspace_id = m.workspace_id "
                        "AND n.channel_id = m.channel_id AND n.agent_id = m.agent_id AND n.searchable "
                        "AND (n.created_at, n.seq) > (m.created_at, m.seq) "
                        "ORDER BY n.created_at, n.seq LIMIT 1",
                        m.id,
                    )
                    if after is not None:
                        own = safe_text(after["content"])
                        await conn.execute(
                            "UPDATE messages SET indexed_text = $2, search_terms = $3 WHERE id = $1",
                            after["id"],
                            own,
                            search_terms(own),
                        )
        self.repair_due = True

    async def told_unread(self, limit: int) -> list[StoredMessage]:
        rows = await self._db.fetch(
            f"SELECT {MESSAGE_COLUMNS} FROM messages WHERE NOT told_read ORDER BY seq LIMIT $1", (limit,)
        )
        return [message_from_row(r) for r in rows]

    async def _set_told(self, told: Sequence[ToldDays]) -> None:
        # Another process reading the same old turns writes the same days: the first one wins.
        async with self._db.transaction() as conn:
            await conn.executemany(
                "UPDATE messages SET told_since = $2, told_until = $3, told_read = true "
                "WHERE id = $1 AND NOT told_read",
                told,
            )

    async def unindexed(self, limit: int = 1000) -> list[StoredMessage]:
        """Searchable turns stored without a vector (the embedder failed), oldest first."""
        rows = await self._db.fetch(
            f"SELECT {MESSAGE_COLUMNS} FROM messages WHERE searchable AND embedding IS NULL "
            "ORDER BY seq LIMIT $1",
            (limit,),
        )
        return [message_from_row(r) for r in rows]

    async def set_vectors(self, ids: Sequence[str], vectors: Sequence[np.ndarray]) -> None:
        checked = [check_vector(v, self._db.dim, i) for i, v in zip(ids, vectors, strict=True)]
        async with self._db.transaction() as conn:
            await conn.executemany(
                "UPDATE messages SET embedding = $2 WHERE id = $1", list(zip(ids, checked, strict=True))
            )
