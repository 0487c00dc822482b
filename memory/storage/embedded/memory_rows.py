"""SQL of the `memories` table (and its `memory_subjects`), always read through the audience filter."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence

import numpy as np

from ...models import Audience, Memory, Visibility
from ...scope import sql_audience_filter
from ..base import HashMatch, MemoryQuery, VectorSink
from ..rows import MEMORY_COLUMNS, json_list, memory_from_row, memory_values
from .sqlite import SQLiteTables, chunks, from_blob, safe_text, to_blob

# One mark per column of `MEMORY_COLUMNS`.
_MARKS = ",".join("?" * len(MEMORY_COLUMNS.split(",")))


def _row_to_memory(row: Sequence[object]) -> Memory:
    return memory_from_row(row, json_list)


def _values(m: Memory, vector: np.ndarray | None) -> tuple[object, ...]:
    subjects = json.dumps(m.subjects, ensure_ascii=False)
    return (*memory_values(m, safe_text, subjects, json.dumps(m.sources)), to_blob(vector))


def _memory_rows(rows: Sequence[tuple[object, ...]], vectors: VectorSink) -> list[Memory]:
    """Memories from rows of `MEMORY_COLUMNS` (plus `embedding` last when `vectors` is given,
    which then receives each row's stored vector)."""
    if vectors is None:
        return [_row_to_memory(r) for r in rows]
    memories = []
    for row in rows:
        memory = _row_to_memory(row[:-1])
        vector = from_blob(row[-1])  # type: ignore[arg-type]
        if vector is not None:
            vectors[memory.id] = vector
        memories.append(memory)
    return memories


class MemoryRows(SQLiteTables):
    """Memory rows: writes in one transaction each, reads through the audience filter (the reads of
    `MemoryRepository`, documented there)."""

    # --- memories: writes -------------------------------------------------------------------

    async def insert_row(self, memory: Memory, embedding: np.ndarray | None) -> None:
        """Insert a memory (not yet marked as indexed in the vector store)."""
        await self.insert_rows([memory], [embedding])

    async def rewrite_row(self, memory: Memory, embedding: np.ndarray) -> None:
        """Store new wording for an existing memory (content, hash, subjects, vector); it is then
        unindexed until its vector row is replaced, so a crash in between is repaired at start-up."""
        async with self._db.transaction() as db:
            await db.execute(
                "UPDATE memories SET content = ?, content_hash = ?, subjects = ?, embedding = ?, "
                "updated_at = ?, indexed = 0 WHERE id = ?",
                (
                    safe_text(memory.content),
                    memory.content_hash,
                    json.dumps(memory.subjects, ensure_ascii=False),
                    to_blob(embedding),
                    memory.updated_at,
                    memory.id,
                ),
            )
            await db.execute("DELETE FROM memory_subjects WHERE memory_id = ?", (memory.id,))
            await db.executemany(
                "INSERT OR IGNORE INTO memory_subjects (memory_id, subject) VALUES (?, ?)",
                [(memory.id, s) for s in memory.subjects],
            )

    async def insert_rows(self, memories: Sequence[Memory], embeddings: Sequence[np.ndarray | None]) -> None:
        """Insert many memories in ONE transaction (bulk import); not yet marked as indexed."""
        if len(memories) != len(embeddings):
            raise ValueError(f"{len(memories)} memories but {len(embeddings)} embeddings")
        if not memories:
            return
        rows = [_values(m, v) for m, v in zip(memories, embeddings, strict=True)]
        async with self._db.transaction() as db:
            await db.executemany(
                # Arrival: one past the largest (the unique index finds it), so a row written later
                # sorts after every row already here, whatever was deleted or vacuumed before.
                f"INSERT INTO memories ({MEMORY_COLUMNS}, embedding, indexed, seq) "
                f"VALUES ({_MARKS},?,0,"
                "(SELECT COALESCE(MAX(seq), 0) + 1 FROM memories))",
                rows,
            )
            await db.executemany(
                "INSERT OR IGNORE INTO memory_subjects (memory_id, subject) VALUES (?, ?)",
                [(m.id, s) for m in memories for s in m.subjects],
            )

    async def active_hash_matches(self, hashes: Sequence[str], now: float) -> set[HashMatch]:
        found: set[HashMatch] = set()
        for chunk in chunks(list(dict.fromkeys(hashes))):
            marks = ",".join("?" * len(chunk))
            rows = await self._db.fetch(
                "SELECT content_hash, platform, workspace_id, agent_id, visibility, channel_id, author_id "
                f"FROM memories WHERE content_hash IN ({marks}) AND forgotten = 0 "
                "AND (expires_at IS NULL OR expires_at > ?)",
                (*chunk, now),
            )
            for r in rows:
                found.add((str(r[0]), str(r[1]), str(r[2]), str(r[3]), str(r[4]), str(r[5]), r[6]))  # type: ignore[arg-type]
        return found

    async def complete_write(self, memory_id: str, supersedes: str | None, now: float) -> None:
        """Mark a memory as present in both stores and, atomically, retire the one it replaces."""
        async with self._db.transaction() as db:
            await db.execute("UPDATE memories SET indexed = 1 WHERE id = ?", (memory_id,))
            if supersedes is not None:
                await db.execute(
                    "UPDATE memories SET forgotten = 1, superseded_by = ?, updated_at = ?, indexed = 0 "
                    "WHERE id = ?",
                    (memory_id, now, supersedes),
                )

    async def mark_indexed(self, ids: Sequence[str]) -> None:
        await self._set_indexed("memories", ids, 1)

    async def delete_rows(self, ids: Sequence[str]) -> int:
        """Remove rows for good (subjects cascade); returns how many existed."""
        deleted = 0
        async with self._db.transaction() as db:
            for chunk in chunks(ids):
                marks = ",".join("?" * len(chunk))
                cursor = await db.execute(f"DELETE FROM memories WHERE id IN ({marks})", tuple(chunk))
                deleted += cursor.rowcount
        return deleted

    async def restore_superseded(self, old_id: str, now: float) -> None:
        """Undo a merge: the superseded memory becomes active again."""
        async with self._db.transaction() as db:
            await db.execute(
                "UPDATE memories SET forgotten = 0, superseded_by = NULL, updated_at = ? WHERE id = ?",
                (now, old_id),
            )

    async def bump_access(self, counts: Mapping[str, int], now: float) -> None:
        # One transaction, one statement per distinct increment.
        by_count: dict[int, list[str]] = {}
        for memory_id, count in counts.items():
            by_count.setdefault(count, []).append(memory_id)
        if not by_count:
            return
        async with self._db.transaction() as db:
            for increment, ids in by_count.items():
                for chunk in chunks(ids):
                    marks = ",".join("?" * len(chunk))
                    await db.execute(
                        f"UPDATE memories SET access_count = access_count + ?, last_accessed_at = ? "
                        f"WHERE id IN ({marks})",
                        (increment, now, *chunk),
                    )

    # --- memories: reads --------------------------------------------------------------------

    async def get_unscoped(self, ids: Sequence[str]) -> list[Memory]:
        # One query per 500 ids, never one per hit. Anything shown to a person or a model reads
        # through `visible` or another method taking an `Audience` instead.
        return [_row_to_memory(r) for r in await self._db.rows_by_id("memories", MEMORY_COLUMNS, ids)]

    async def visible(self, ids: Sequence[str], audience: Audience, now: float) -> list[Memory]:
        where, params = sql_audience_filter(audience, now, keyed=True, subjects=True)
        rows = await self._db.rows_by_id("memories", MEMORY_COLUMNS, ids, where, params)
        return [_row_to_memory(r) for r in rows]

    async def superseded_unscoped(self, newer_id: str) -> Memory | None:
        # Kept as forgotten so a merge can be undone; only that undo, a maintenance operation, reads it.
        rows = await self._db.fetch(
            f"SELECT {MEMORY_COLUMNS} FROM memories WHERE superseded_by = ? LIMIT 1", (newer_id,)
        )
        return _row_to_memory(rows[0]) if rows else None

    async def merged_into(self, newer_ids: Sequence[str]) -> dict[str, str]:
        # Only ids the caller already read through an audience are asked for; the older rows are
        # in the same scope and visibility (a merge never crosses them).
        found: dict[str, str] = {}
        for chunk in chunks(list(dict.fromkeys(newer_ids))):
            marks = ",".join("?" * len(chunk))
            rows = await self._db.fetch(
                f"SELECT superseded_by, id FROM memories WHERE superseded_by IN ({marks})", tuple(chunk)
            )
            found.update((str(newer), str(older)) for newer, older in rows)
        return found

    async def find_by_hash(
        self, content_hash: str, audience: Audience, now: float, visibility: Visibility
    ) -> Memory | None:
        where, params = sql_audience_filter(audience, now, keyed=True, subjects=True)
        rows = await self._db.fetch(
            f"SELECT {MEMORY_COLUMNS} FROM memories WHERE content_hash = ? AND visibility = ? AND {where} "
            "LIMIT 1",
            (content_hash, visibility.value, *params),
        )
        return _row_to_memory(rows[0]) if rows else None

    def _query_sql(self, audience: Audience, now: float, query: MemoryQuery) -> tuple[str, list[object]]:
        where, params = sql_audience_filter(audience, now, alias="m", subjects=True)
        clauses = [where]
        if query.types:
            clauses.append(f"m.memory_type IN ({','.join('?' * len(query.types))})")
            params.extend(t.value for t in query.types)
        for clause, value in (
            ("m.importance >= ?", query.min_importance),
            ("m.confidence >= ?", query.min_confidence),
            ("m.created_at >= ?", query.since),
            ("m.created_at < ?", query.until),
            ("m.channel_id = ?", query.channel_id),
        ):
            if value is not None:
                clauses.append(clause)
                params.append(value)
        if query.user_ids:
            clauses.append(f"m.user_id IN ({','.join('?' * len(query.user_ids))})")
            params.extend(query.user_ids)
        if query.elsewhere:
            clauses.append("m.workspace_id <> ?")
            params.append(audience.workspace_id)
        if query.subjects:
            clauses.append(
                "m.id IN (SELECT memory_id FROM memory_subjects "
                f"WHERE subject IN ({','.join('?' * len(query.subjects))}))"
            )
            params.extend(s.casefold() for s in query.subjects)
        return " AND ".join(clauses), params

    async def _select(
        self, audience: Audience, now: float, query: MemoryQuery, vectors: VectorSink
    ) -> list[Memory]:
        where, params = self._query_sql(audience, now, query)
        # Memories of one instant by arrival, the latest first, as turns are.
        order = "m.created_at DESC, m.seq DESC"
        if query.order == "important":
            order = f"m.importance DESC, {order}"
        # `about` is pinned to the per-user index: left to itself the planner walks the whole
        # workspace's importance index to skip a sort, ~6 ms at 10k memories instead of well under
        # 1 ms. With the viewer's own memories of other workspaces the scope is an OR of two index
        # lookups, which the pin would forbid.
        about = query.user_ids and query.order == "important"
        pin = "INDEXED BY ix_memories_user " if about and not audience.reaches_elsewhere else ""
        columns = MEMORY_COLUMNS if vectors is None else f"{MEMORY_COLUMNS}, embedding"
        sql = f"SELECT {columns} FROM memories m {pin}WHERE {where} ORDER BY {order} LIMIT ?"
        params.append(query.limit)
        if query.offset:
            sql += " OFFSET ?"
            params.append(query.offset)
        return _memory_rows(await self._db.fetch(sql, params), vectors)

    async def count(self, audience: Audience, now: float, query: MemoryQuery | None = None) -> int:
        where, params = self._query_sql(audience, now, query or MemoryQuery())
        rows = await self._db.fetch(f"SELECT COUNT(*) FROM memories m WHERE {where}", params)
        return int(rows[0][0])  # type: ignore[call-overload]

    async def count_by_type(self, audience: Audience, now: float) -> dict[str, int]:
        where, params = sql_audience_filter(audience, now, subjects=True)
        rows = await self._db.fetch(
            f"SELECT memory_type, COUNT(*) FROM memories WHERE {where} GROUP BY memory_type", params
        )
        return {str(r[0]): int(r[1]) for r in rows}  # type: ignore[call-overload]

    async def embeddings(self, ids: Sequence[str]) -> dict[str, np.ndarray]:
        out: dict[str, np.ndarray] = {}
        for chunk in chunks(list(dict.fromkeys(ids))):
            marks = ",".join("?" * len(chunk))
            for mid, blob in await self._db.fetch(
                f"SELECT id, embedding FROM memories WHERE id IN ({marks})", chunk
            ):
                vector = from_blob(blob)  # type: ignore[arg-type]
                if vector is not None:
                    out[str(mid)] = vector
        return out

    async def expired_ids(self, now: float) -> list[str]:
        rows = await self._db.fetch(
            "SELECT id FROM memories WHERE expires_at IS NOT NULL AND expires_at <= ?", (now,)
        )
        return [str(r[0]) for r in rows]

    async def unindexed(self, limit: int = 1000) -> list[tuple[Memory, np.ndarray | None]]:
        """Active rows whose vector write never completed (a crash between the two stores)."""
        rows = await self._db.fetch(
            f"SELECT {MEMORY_COLUMNS}, embedding FROM memories WHERE indexed = 0 AND forgotten = 0 LIMIT ?",
            (limit,),
        )
        return [(_row_to_memory(r), from_blob(r[-1])) for r in rows]  # type: ignore[arg-type]

    async def indexed_ids(self) -> set[str]:
        """Ids that must have a vector: active rows marked as written to both stores."""
        rows = await self._db.fetch("SELECT id FROM memories WHERE forgotten = 0 AND indexed = 1")
        return {str(r[0]) for r in rows}

    async def mark_unindexed(self, ids: Sequence[str]) -> None:
        await self._set_indexed("memories", ids, 0)
