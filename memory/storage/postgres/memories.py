"""PostgreSQL memories: each row with its vector and full text, searched under the audience filter."""

from __future__ import annotations

from collections.abc import Awaitable, Iterable, Mapping, Sequence
from operator import itemgetter

import asyncpg
import numpy as np

from ...errors import EmbeddingError, MemoryWriteError
from ...models import Audience, Memory, Visibility
from ...settled import gather_settled
from ..base import HashMatch, MemoryQuery, MemoryRead, MemoryRepository, VectorHit, VectorSink, scope_key
from ..rows import MEMORY_COLUMNS as COLUMNS
from ..rows import memory_from_row, memory_values
from .db import Params, affected, audience_where, check_vector, safe_text
from .search import dense_hits, ready, search_terms, text_hits
from .tables import PostgresTables, failing, insert_sql

# The access counts live in `memory_access` (migration m012): a memory row holds the rest.
_ACCESS = ("last_accessed_at", "access_count")
_NAMES = [c.strip() for c in COLUMNS.split(",")]
_ACCESS_AT = [_NAMES.index(c) for c in _ACCESS]
_ROW_NAMES = [c for c in _NAMES if c not in _ACCESS]
ROW_COLUMNS = ", ".join(_ROW_NAMES)
_INSERT = insert_sql("memories", f"{ROW_COLUMNS}, search_terms, embedding")


def memory_columns(alias: str) -> str:
    """`MEMORY_COLUMNS` of the memories row `alias`, in their order and by their names, the access
    counts read from `memory_access` (none recorded: never accessed)."""
    counted = f"FROM memory_access AS a WHERE a.memory_id = {alias}.id"
    read = {
        "last_accessed_at": f"(SELECT a.last_accessed_at {counted}) AS last_accessed_at",
        "access_count": f"COALESCE((SELECT a.access_count {counted}), 0) AS access_count",
    }
    return ", ".join(read.get(name, f"{alias}.{name}") for name in _NAMES)


# A memory as the statements that read the table by its name (`FROM memories`) or as `m` give it.
_READ = memory_columns("memories")
_READ_M = memory_columns("m")


def row_to_memory(r: asyncpg.Record) -> Memory:
    return memory_from_row(r, list)


def _values(m: Memory, vector: np.ndarray | None) -> tuple[object, ...]:
    """The values of `ROW_COLUMNS`, `search_terms` and `embedding` for `m`."""
    subjects = [safe_text(s) for s in m.subjects]
    values = memory_values(m, safe_text, subjects, list(m.sources))
    row = tuple(v for n, v in enumerate(values) if n not in _ACCESS_AT)
    return (*row, search_terms(m.content), vector)


async def record_access(conn: asyncpg.Connection, counts: Iterable[tuple[str, int, float | None]]) -> None:
    """Keep the access counts (memory id, count, last access) that memories arrive with (a copy or
    an import), beside their rows just written: a new memory has none, and a count already
    recorded for a memory is left as it is."""
    counted = [c for c in counts if c[1] or c[2] is not None]
    if counted:
        await conn.executemany(
            "INSERT INTO memory_access (memory_id, access_count, last_accessed_at) VALUES ($1, $2, $3) "
            "ON CONFLICT ON CONSTRAINT memory_access_pkey DO NOTHING",
            counted,
        )


def access_of(memories: Iterable[Memory]) -> list[tuple[str, int, float | None]]:
    return [(m.id, m.access_count, m.last_accessed_at) for m in memories]


def _memories(rows: Sequence[asyncpg.Record], vectors: VectorSink) -> list[Memory]:
    """Memories from rows of `COLUMNS` (plus `embedding` last when `vectors` receives them)."""
    if vectors is None:
        return [row_to_memory(r) for r in rows]
    out = []
    for r in rows:
        memory = row_to_memory(r)
        if r[len(_NAMES)] is not None:  # `embedding`, right after the memory's columns
            vectors[memory.id] = r[len(_NAMES)]
        out.append(memory)
    return out


def _sort_keys(query: MemoryQuery) -> list[tuple[str, bool]]:
    """A listing's order, most significant first: (column, descending). Memories of one instant by
    arrival (`seq`), the latest first, as the embedded backend orders them. The SQL and the re-sort
    of `read_many` both come from it."""
    keys = [("created_at", True), ("seq", True)]
    if query.order == "important":
        keys.insert(0, ("importance", True))
    return keys


def _order_sql(keys: list[tuple[str, bool]]) -> str:
    return ", ".join(f"m.{column} DESC" if descending else f"m.{column}" for column, descending in keys)


def _in_order(rows: list[asyncpg.Record], keys: list[tuple[str, bool]]) -> list[asyncpg.Record]:
    """`rows` (each with the `keys` columns by name) sorted by `keys`; arrival is unique, so the
    order is total."""
    for column, descending in reversed(keys):
        rows.sort(key=itemgetter(column), reverse=descending)
    return rows


class PostgresMemories(PostgresTables, MemoryRepository):
    """A memory and its vector are one row, so every write is one transaction: all or nothing.

    Searchable means active: not forgotten (a superseded memory is forgotten), not expired.
    """

    def _vector(self, vector: np.ndarray, memory_id: str) -> np.ndarray:
        try:
            return check_vector(vector, self._db.dim, memory_id)
        except (EmbeddingError, ValueError) as exc:
            raise MemoryWriteError(f"memory not saved: {exc}") from exc

    # --- writes

    async def add(self, memory: Memory, vector: np.ndarray, supersedes: str | None, now: float) -> None:
        vec = self._vector(vector, memory.id)
        with failing("memory not saved", MemoryWriteError):
            async with self._db.transaction() as conn:
                await conn.execute(_INSERT, *_values(memory, vec))
                await record_access(conn, access_of([memory]))
                if supersedes is not None:
                    await conn.execute(
                        "UPDATE memories SET forgotten = true, superseded_by = $1, updated_at = $2 "
                        "WHERE id = $3",
                        memory.id,
                        now,
                        supersedes,
                    )

    async def add_many(self, memories: Sequence[Memory], vectors: Sequence[np.ndarray]) -> None:
        if len(memories) != len(vectors):
            raise ValueError(f"{len(memories)} memories but {len(vectors)} embeddings")
        if not memories:
            return
        rows = [_values(m, self._vector(v, m.id)) for m, v in zip(memories, vectors, strict=True)]
        with failing("batch not saved", MemoryWriteError):
            async with self._db.transaction() as conn:
                await conn.executemany(_INSERT, rows)
                await record_access(conn, access_of(memories))

    async def rewrite(self, memory: Memory, vector: np.ndarray) -> None:
        vec = self._vector(vector, memory.id)
        # One statement is atomic alone (as `restore`'s): no BEGIN and COMMIT round trips around it.
        await self._db.execute(
            "UPDATE memories SET content = $1, content_hash = $2, subjects = $3, embedding = $4, "
            "updated_at = $5, search_terms = $7 WHERE id = $6",
            (
                safe_text(memory.content),
                memory.content_hash,
                [safe_text(s) for s in memory.subjects],
                vec,
                memory.updated_at,
                memory.id,
                search_terms(memory.content),
            ),
        )

    async def restore(self, memory: Memory, vector: np.ndarray, now: float) -> None:
        vec = self._vector(vector, memory.id)
        await self._db.execute(
            "UPDATE memories SET forgotten = false, superseded_by = NULL, updated_at = $1, "
            "embedding = $2 WHERE id = $3",
            (now, vec, memory.id),
        )

    async def delete(self, ids: Sequence[str]) -> int:
        if not ids:
            return 0
        async with self._db.transaction() as conn:
            return affected(await conn.execute("DELETE FROM memories WHERE id = ANY($1)", list(ids)))

    async def rescope(self, ids: Sequence[str], channel_id: str) -> None:
        # The vector is in the row `ConversationRepository.narrow` already changed: nothing to align.
        return None

    async def bump_access(self, counts: Mapping[str, int], now: float) -> None:
        if not counts:
            return
        async with self._db.transaction() as conn:
            # The memories first, in id order and only against their delete (a key share lock: a
            # rewrite or a forget goes on): a memory deleted since it was counted has no count
            # left to keep, and one still here stays until the counts are in.
            present = [
                r[0]
                for r in await conn.fetch(
                    "SELECT id FROM memories WHERE id = ANY($1::text[]) ORDER BY id FOR KEY SHARE",
                    list(counts),
                )
            ]
            # Then the counts, in id order too: two flushes of overlapping counts (processes on
            # their own timers, or a flush still running when the next starts) wait for each other
            # at their first common count; in any other order each could hold a count the other
            # waits for, and PostgreSQL would abort one, its counts lost. Processes flush on their
            # own timers: an older flush never moves the last access back.
            await conn.execute(
                "INSERT INTO memory_access AS a (memory_id, access_count, last_accessed_at) "
                "SELECT c.id, c.n, $3 FROM unnest($1::text[], $2::int[]) AS c(id, n) ORDER BY c.id "
                "ON CONFLICT ON CONSTRAINT memory_access_pkey DO UPDATE SET "
                "access_count = a.access_count + excluded.access_count, "
                "last_accessed_at = GREATEST(a.last_accessed_at, excluded.last_accessed_at)",
                present,
                [counts[i] for i in present],
                now,
            )

    # --- reads

    async def find_by_hash(
        self, content_hash: str, audience: Audience, now: float, visibility: Visibility
    ) -> Memory | None:
        p = Params(content_hash, visibility.value)
        where = audience_where(audience, now, p, subjects=True)
        rows = await self._db.fetch(
            f"SELECT {_READ} FROM memories WHERE content_hash = $1 AND visibility = $2 AND {where} LIMIT 1",
            p.values,
        )
        return row_to_memory(rows[0]) if rows else None

    async def active_hash_matches(self, hashes: Sequence[str], now: float) -> set[HashMatch]:
        if not hashes:
            return set()
        rows = await self._db.fetch(
            "SELECT content_hash, platform, workspace_id, agent_id, visibility, channel_id, author_id "
            "FROM memories WHERE content_hash = ANY($1) AND NOT forgotten "
            "AND (expires_at IS NULL OR expires_at > $2)",
            (list(dict.fromkeys(hashes)), now),
        )
        return {tuple(r) for r in rows}  # type: ignore[misc]

    async def visible(self, ids: Sequence[str], audience: Audience, now: float) -> list[Memory]:
        rows = await self._rows_by_id(
            "memories", _READ, ids, lambda p: audience_where(audience, now, p, subjects=True)
        )
        return [row_to_memory(r) for r in rows]

    async def get_unscoped(self, ids: Sequence[str]) -> list[Memory]:
        return [row_to_memory(r) for r in await self._rows_by_id("memories", _READ, ids)]

    async def superseded_unscoped(self, newer_id: str) -> Memory | None:
        rows = await self._db.fetch(
            f"SELECT {_READ} FROM memories WHERE superseded_by = $1 LIMIT 1", (newer_id,)
        )
        return row_to_memory(rows[0]) if rows else None

    async def merged_into(self, newer_ids: Sequence[str]) -> dict[str, str]:
        return await self._by_id(
            "SELECT superseded_by, id FROM memories WHERE superseded_by = ANY($1)", newer_ids
        )

    def _query_sql(self, audience: Audience, now: float, query: MemoryQuery, p: Params) -> str:
        clauses = [audience_where(audience, now, p, alias="m", subjects=True)]
        if query.types:
            clauses.append(f"m.memory_type = ANY({p.many([t.value for t in query.types])})")
        if query.min_importance is not None:
            clauses.append(f"m.importance >= {p.add(float(query.min_importance))}")
        if query.min_confidence is not None:
            clauses.append(f"m.confidence >= {p.add(float(query.min_confidence))}")
        if query.since is not None:
            clauses.append(f"m.created_at >= {p.add(query.since)}")
        if query.until is not None:
            clauses.append(f"m.created_at < {p.add(query.until)}")
        if query.channel_id is not None:
            clauses.append(f"m.channel_id = {p.add(query.channel_id)}")
        if query.user_ids:
            clauses.append(f"m.user_id = ANY({p.many(query.user_ids)})")
        if query.elsewhere:
            clauses.append(f"m.workspace_id <> {p.add(audience.workspace_id)}")
        if query.subjects:
            clauses.append(f"m.subjects && {p.add([s.casefold() for s in query.subjects])}::text[]")
        return " AND ".join(clauses)

    def _select_sql(
        self,
        audience: Audience,
        now: float,
        query: MemoryQuery,
        with_vectors: bool,
        p: Params,
        seq: bool = False,
    ) -> str:
        where = self._query_sql(audience, now, query, p)
        order = _order_sql(_sort_keys(query))
        columns = _READ_M
        if with_vectors:
            columns += ", m.embedding"
        if seq:  # last, after the columns `_memories` reads
            columns += ", m.seq"
        sql = f"SELECT {columns} FROM memories m WHERE {where} ORDER BY {order}"
        sql += f" LIMIT {p.add(query.limit)}"
        if query.offset:
            sql += f" OFFSET {p.add(query.offset)}"
        return sql

    async def _select(
        self, audience: Audience, now: float, query: MemoryQuery, vectors: VectorSink
    ) -> list[Memory]:
        p = Params()
        sql = self._select_sql(audience, now, query, vectors is not None, p)
        return _memories(await self._db.fetch(sql, p.values), vectors)

    async def read_many(
        self, audience: Audience, now: float, reads: Sequence[MemoryRead], vectors: VectorSink = None
    ) -> list[list[Memory]]:
        # One statement, each read a branch of a UNION ALL tagged with its place: a pre-hook's
        # four or five listings cost one round trip (and one server process woken), not five.
        if len(reads) < 2:
            return await super().read_many(audience, now, reads, vectors)
        p = Params()
        with_vectors = vectors is not None
        branches = []
        for n, r in enumerate(reads):
            sql = self._select_sql(audience, now, r.query, with_vectors, p, seq=True)
            branches.append(f"SELECT *, {n} AS read_no FROM ({sql}) AS r{n}")
        rows = await self._db.fetch(" UNION ALL ".join(branches), p.values)
        grouped: list[list[asyncpg.Record]] = [[] for _ in reads]
        for row in rows:
            grouped[row[-1]].append(row)
        # Each branch's rows come in its own order; sorted again (stable) so that holds whatever
        # plan the server picks for the union.
        return [
            _memories(_in_order(group, _sort_keys(r.query)), vectors)
            for group, r in zip(grouped, reads, strict=True)
        ]

    async def count(self, audience: Audience, now: float, query: MemoryQuery | None = None) -> int:
        p = Params()
        where = self._query_sql(audience, now, query or MemoryQuery(), p)
        return int(await self._db.fetchval(f"SELECT count(*) FROM memories m WHERE {where}", p.values))

    async def count_by_type(self, audience: Audience, now: float) -> dict[str, int]:
        p = Params()
        where = audience_where(audience, now, p, subjects=True)
        rows = await self._db.fetch(
            f"SELECT memory_type, count(*) FROM memories WHERE {where} GROUP BY memory_type", p.values
        )
        return {r[0]: int(r[1]) for r in rows}

    async def embeddings(self, ids: Sequence[str]) -> dict[str, np.ndarray]:
        return await self._by_id(
            "SELECT id, embedding FROM memories WHERE id = ANY($1) AND embedding IS NOT NULL", ids
        )

    async def expired_ids(self, now: float) -> list[str]:
        rows = await self._db.fetch(
            "SELECT id FROM memories WHERE expires_at IS NOT NULL AND expires_at <= $1", (now,)
        )
        return [r[0] for r in rows]

    # --- search

    def _searchable(self, audience: Audience, now: float, p: Params) -> str:
        # Only rows of the audience's own workspace (the embedded index is per workspace too):
        # the viewer's memories of other workspaces come from `query(elsewhere=True)`.
        where = audience_where(audience, now, p)
        return f"{where} AND embedding IS NOT NULL"

    async def search(
        self, audience: Audience, vector: np.ndarray, k: int, now: float, visibility: str | None = None
    ) -> list[VectorHit]:
        if k <= 0:
            return []
        p = Params()
        where = self._searchable(audience, now, p)
        if visibility is not None:
            where += f" AND visibility = {p.add(visibility)}"
        return await dense_hits(self._db, "memories", where, p, vector, k)

    async def hybrid_search(
        self, audience: Audience, vector: np.ndarray, text: str, k: int, now: float
    ) -> tuple[list[VectorHit], list[VectorHit]]:
        return await self.hybrid_search_awaiting(audience, ready(vector), text, k, now)

    async def hybrid_search_awaiting(
        self, audience: Audience, vector: Awaitable[np.ndarray], text: str, k: int, now: float
    ) -> tuple[list[VectorHit], list[VectorHit]]:
        if k <= 0:
            return [], []
        p = Params()
        where = self._searchable(audience, now, p)

        # Each hit comes with its memory, read under the filter `visible` applies (a looser one:
        # it adds the viewer's own rows of other workspaces): the pre-hook reads them no more.
        async def dense() -> list[VectorHit]:
            return await dense_hits(
                self._db,
                "memories",
                where,
                Params(*p.values),
                await vector,
                k,
                memory_columns,
                row_to_memory,
            )

        # Two statements side by side on two connections (each with its own copy of the filter's
        # values); the full-text one needs no vector, so it runs while the query is embedded.
        found, lexical = await gather_settled(
            dense(),
            text_hits(
                self._db,
                "memories",
                where,
                Params(*p.values),
                text,
                k,
                scope_key(audience),
                memory_columns,
                row_to_memory,
            ),
        )
        return found, lexical

    async def indexed_count(self) -> int:
        return int(
            await self._db.fetchval(
                "SELECT count(*) FROM memories WHERE NOT forgotten AND embedding IS NOT NULL"
            )
        )
