"""SQLite source of truth on aiosqlite: one writer connection, a small reader pool, WAL."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import AsyncIterator, Iterable, Mapping, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import aiosqlite
import numpy as np

from .migrations import apply_migrations
from .models import Audience, Memory, MemoryType, Source, StoredMessage, Visibility
from .scope import sql_audience_filter, sql_visibility_filter

_MEMORY_COLUMNS = (
    "id, content, memory_type, importance, confidence, subjects, source, platform, workspace_id, "
    "channel_id, thread_id, user_id, author_id, agent_id, visibility, created_at, updated_at, "
    "last_accessed_at, access_count, expires_at, forgotten, superseded_by, content_hash, sources"
)
_MESSAGE_COLUMNS = (
    "id, platform, workspace_id, channel_id, thread_id, agent_id, author_id, author_name, role, "
    "content, created_at, external_id, visibility, tool_calls"
)
# `messages.indexed` of a turn kept out of search for good (never embedded, never repaired).
NOT_SEARCHABLE = -1
# SQLite's default limit on bound parameters is 32766; stay far below it per statement.
_CHUNK = 500


def _chunks(items: Sequence[str], size: int = _CHUNK) -> Iterable[Sequence[str]]:
    for start in range(0, len(items), size):
        yield items[start : start + size]


# Rows are decoded by the hundred on every turn: dict lookups are several times cheaper than
# Enum calls, and most JSON lists are empty.
_MEMORY_TYPES = {t.value: t for t in MemoryType}
_SOURCES = {s.value: s for s in Source}
_VISIBILITIES = {v.value: v for v in Visibility}


def _json_list(text: object) -> list[Any]:
    return [] if text == "[]" else json.loads(str(text))  # type: ignore[no-any-return]


def _row_to_memory(row: Sequence[object]) -> Memory:
    return Memory(
        id=str(row[0]),
        content=str(row[1]),
        memory_type=_MEMORY_TYPES.get(row[2]) or MemoryType(row[2]),  # type: ignore[arg-type]
        importance=float(row[3]),  # type: ignore[arg-type]
        confidence=float(row[4]),  # type: ignore[arg-type]
        subjects=_json_list(row[5]),
        source=_SOURCES.get(row[6]) or Source(row[6]),  # type: ignore[arg-type]
        platform=str(row[7]),
        workspace_id=str(row[8]),
        channel_id=str(row[9]),
        thread_id=row[10],  # type: ignore[arg-type]
        user_id=row[11],  # type: ignore[arg-type]
        author_id=row[12],  # type: ignore[arg-type]
        agent_id=str(row[13]),
        visibility=_VISIBILITIES.get(row[14]) or Visibility(row[14]),  # type: ignore[arg-type]
        created_at=float(row[15]),  # type: ignore[arg-type]
        updated_at=float(row[16]),  # type: ignore[arg-type]
        last_accessed_at=row[17],  # type: ignore[arg-type]
        access_count=int(row[18]),  # type: ignore[arg-type]
        expires_at=row[19],  # type: ignore[arg-type]
        forgotten=bool(row[20]),
        superseded_by=row[21],  # type: ignore[arg-type]
        content_hash=str(row[22]),
        sources=_json_list(row[23]),
    )


def _row_to_message(row: Sequence[object]) -> StoredMessage:
    return StoredMessage(
        id=str(row[0]),
        platform=str(row[1]),
        workspace_id=str(row[2]),
        channel_id=str(row[3]),
        thread_id=row[4],  # type: ignore[arg-type]
        agent_id=str(row[5]),
        author_id=str(row[6]),
        author_name=str(row[7]),
        role=str(row[8]),
        content=str(row[9]),
        created_at=float(row[10]),  # type: ignore[arg-type]
        external_id=row[11],  # type: ignore[arg-type]
        visibility=_VISIBILITIES.get(row[12]) or Visibility(row[12]),  # type: ignore[arg-type]
        tool_calls=_json_list(row[13]),
    )


def _blob(vector: np.ndarray | None) -> bytes | None:
    return None if vector is None else np.asarray(vector, dtype=np.float32).tobytes()


def _vector(blob: bytes | None) -> np.ndarray | None:
    return None if blob is None else np.frombuffer(blob, dtype=np.float32).copy()


def _memory_rows(rows: Sequence[tuple[object, ...]], vectors: dict[str, np.ndarray] | None) -> list[Memory]:
    """Memories from rows of `_MEMORY_COLUMNS` (plus `embedding` last when `vectors` is given,
    which then receives each row's stored vector)."""
    if vectors is None:
        return [_row_to_memory(r) for r in rows]
    memories = []
    for row in rows:
        memory = _row_to_memory(row[:-1])
        vector = _vector(row[-1])  # type: ignore[arg-type]
        if vector is not None:
            vectors[memory.id] = vector
        memories.append(memory)
    return memories


def _columns(vectors: dict[str, np.ndarray] | None, alias: str = "") -> str:
    if vectors is None:
        return _MEMORY_COLUMNS
    return f"{_MEMORY_COLUMNS}, {alias}embedding"


def _safe(text: str) -> str:
    # SQLite stores UTF-8; an unpaired surrogate would fail the insert, so replace it.
    return text.encode("utf-8", "replace").decode("utf-8")


@dataclass(slots=True)
class MemoryQuery:
    """Optional narrowing of a memory listing; every field is ANDed with the audience filter."""

    types: Sequence[MemoryType] | None = None
    min_importance: float | None = None
    min_confidence: float | None = None
    since: float | None = None
    channel_id: str | None = None
    user_ids: Sequence[str] | None = None
    subjects: Sequence[str] | None = None
    # Only rows of workspaces other than the audience's: what `Audience.own_elsewhere` adds.
    elsewhere: bool = False
    order: str = "recent"  # recent | important
    limit: int = 50
    offset: int = 0


class SQLiteStore:
    """All SQL of the engine. Writes go through one connection under a lock; reads use a pool."""

    def __init__(self, path: Path, writer: aiosqlite.Connection, readers: list[aiosqlite.Connection]) -> None:
        self.path = path
        self._writer = writer
        self._write_lock = asyncio.Lock()
        self._readers: asyncio.Queue[aiosqlite.Connection] = asyncio.Queue()
        self._all_readers = readers
        for reader in readers:
            self._readers.put_nowait(reader)

    @classmethod
    async def open(cls, path: str | Path, readers: int = 3) -> SQLiteStore:
        """Open (creating and migrating) the database: one writer and `readers` read connections.

        Three readers: the pre-hook reads its sources (identities, important, recent) while its
        search hits' rows are read, and with two the second group queued behind the first
        (pre-hook p95 16 ms instead of 13 at 100,000 memories).
        """
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        writer = await aiosqlite.connect(path, isolation_level=None)
        # WAL lets readers run beside the writer. FULL syncs the WAL on every commit, so a write that
        # returned (a message the bot acknowledged, a memory it said it stored) survives a killed
        # process and a power cut alike; NORMAL would only survive the first. LanceDB holds no such
        # promise: its vectors are re-derived from these rows (each keeps its embedding) by
        # `MemoryEngine.reconcile` at start-up, so SQLite alone decides what was stored.
        await writer.execute("PRAGMA journal_mode=WAL")
        await writer.execute("PRAGMA synchronous=FULL")
        await writer.execute("PRAGMA foreign_keys=ON")
        await writer.execute("PRAGMA busy_timeout=5000")
        await apply_migrations(writer, time.time())
        pool = []
        for _ in range(max(1, readers)):
            reader = await aiosqlite.connect(path, isolation_level=None)
            await reader.execute("PRAGMA busy_timeout=5000")
            await reader.execute("PRAGMA query_only=ON")
            pool.append(reader)
        return cls(path, writer, pool)

    async def close(self) -> None:
        for reader in self._all_readers:
            await reader.close()
        await self._writer.close()

    @asynccontextmanager
    async def _read(self) -> AsyncIterator[aiosqlite.Connection]:
        conn = await self._readers.get()
        try:
            yield conn
        finally:
            self._readers.put_nowait(conn)

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[aiosqlite.Connection]:
        """One atomic write; other writers wait, readers keep reading the last commit."""
        async with self._write_lock:
            await self._writer.execute("BEGIN IMMEDIATE")
            try:
                yield self._writer
                await self._writer.execute("COMMIT")
            except BaseException:
                # SQLite has already rolled back after some errors (SQLITE_FULL, SQLITE_IOERR): a
                # second ROLLBACK would fail and hide the real error. And a failed COMMIT must not
                # leave the writer inside a transaction, or no later write could ever begin.
                if self._writer.in_transaction:
                    await self._writer.execute("ROLLBACK")
                raise

    async def _fetch(self, sql: str, params: Sequence[object] = ()) -> list[tuple[object, ...]]:
        # One hop to the connection's thread (execute, fetch and close in one call), not three.
        async with self._read() as conn:
            return list(await conn.execute_fetchall(sql, params))

    async def fetch(self, sql: str, params: Sequence[object] = ()) -> list[tuple[object, ...]]:
        """Run one read-only statement on the reader pool, for the tables whose SQL lives beside
        this class (summaries, profiles, aliases). Memories and turns are read through the
        methods below, which apply the privacy filter themselves."""
        return await self._fetch(sql, params)

    async def rows_by_id(
        self,
        table: str,
        columns: str,
        ids: Sequence[str],
        where: str = "",
        params: Sequence[object] = (),
    ) -> list[tuple[object, ...]]:
        """Rows of `table` (`columns`, the id first) for these ids in the order given, unknown ids
        absent; `where` (with `params`) narrows them. One query per 500 distinct ids."""
        found: dict[object, tuple[object, ...]] = {}
        clause = f" AND {where}" if where else ""
        for chunk in _chunks(list(dict.fromkeys(ids))):
            marks = ",".join("?" * len(chunk))
            sql = f"SELECT {columns} FROM {table} WHERE id IN ({marks}){clause}"
            for row in await self._fetch(sql, (*chunk, *params)):
                found[row[0]] = row
        return [found[i] for i in ids if i in found]

    # --- memories: writes -------------------------------------------------------------------

    async def insert_memory(self, memory: Memory, embedding: np.ndarray | None) -> None:
        """Insert a memory (not yet marked as indexed in the vector store)."""
        async with self.transaction() as db:
            await db.execute(
                f"INSERT INTO memories ({_MEMORY_COLUMNS}, embedding, indexed) "
                "VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,0)",
                (
                    memory.id,
                    _safe(memory.content),
                    memory.memory_type.value,
                    memory.importance,
                    memory.confidence,
                    json.dumps(memory.subjects, ensure_ascii=False),
                    memory.source.value,
                    memory.platform,
                    memory.workspace_id,
                    memory.channel_id,
                    memory.thread_id,
                    memory.user_id,
                    memory.author_id,
                    memory.agent_id,
                    memory.visibility.value,
                    memory.created_at,
                    memory.updated_at,
                    memory.last_accessed_at,
                    memory.access_count,
                    memory.expires_at,
                    int(memory.forgotten),
                    memory.superseded_by,
                    memory.content_hash,
                    json.dumps(memory.sources),
                    _blob(embedding),
                ),
            )
            await db.executemany(
                "INSERT OR IGNORE INTO memory_subjects (memory_id, subject) VALUES (?, ?)",
                [(memory.id, s) for s in memory.subjects],
            )

    async def rewrite_memory(self, memory: Memory, embedding: np.ndarray) -> None:
        """Store new wording for an existing memory (content, hash, subjects, vector); it is then
        unindexed until its vector row is replaced, so a crash in between is repaired at start-up."""
        async with self.transaction() as db:
            await db.execute(
                "UPDATE memories SET content = ?, content_hash = ?, subjects = ?, embedding = ?, "
                "updated_at = ?, indexed = 0 WHERE id = ?",
                (
                    _safe(memory.content),
                    memory.content_hash,
                    json.dumps(memory.subjects, ensure_ascii=False),
                    _blob(embedding),
                    memory.updated_at,
                    memory.id,
                ),
            )
            await db.execute("DELETE FROM memory_subjects WHERE memory_id = ?", (memory.id,))
            await db.executemany(
                "INSERT OR IGNORE INTO memory_subjects (memory_id, subject) VALUES (?, ?)",
                [(memory.id, s) for s in memory.subjects],
            )

    async def insert_memories(self, memories: Sequence[Memory], embeddings: Sequence[np.ndarray]) -> None:
        """Insert many memories in ONE transaction (bulk import); not yet marked as indexed."""
        if len(memories) != len(embeddings):
            raise ValueError(f"{len(memories)} memories but {len(embeddings)} embeddings")
        if not memories:
            return
        rows = [
            (
                m.id,
                _safe(m.content),
                m.memory_type.value,
                m.importance,
                m.confidence,
                json.dumps(m.subjects, ensure_ascii=False),
                m.source.value,
                m.platform,
                m.workspace_id,
                m.channel_id,
                m.thread_id,
                m.user_id,
                m.author_id,
                m.agent_id,
                m.visibility.value,
                m.created_at,
                m.updated_at,
                m.last_accessed_at,
                m.access_count,
                m.expires_at,
                int(m.forgotten),
                m.superseded_by,
                m.content_hash,
                json.dumps(m.sources),
                _blob(v),
            )
            for m, v in zip(memories, embeddings, strict=True)
        ]
        async with self.transaction() as db:
            await db.executemany(
                f"INSERT INTO memories ({_MEMORY_COLUMNS}, embedding, indexed) "
                "VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,0)",
                rows,
            )
            await db.executemany(
                "INSERT OR IGNORE INTO memory_subjects (memory_id, subject) VALUES (?, ?)",
                [(m.id, s) for m in memories for s in m.subjects],
            )

    async def active_hash_matches(
        self, hashes: Sequence[str], now: float
    ) -> set[tuple[str, str, str, str, str, str, str | None]]:
        """Active rows carrying one of `hashes`, as (content_hash, platform, workspace_id, agent_id,
        visibility, channel_id, author_id): a bulk import decides exact duplicates from these."""
        found: set[tuple[str, str, str, str, str, str, str | None]] = set()
        for chunk in _chunks(list(dict.fromkeys(hashes))):
            marks = ",".join("?" * len(chunk))
            rows = await self._fetch(
                "SELECT content_hash, platform, workspace_id, agent_id, visibility, channel_id, author_id "
                f"FROM memories WHERE content_hash IN ({marks}) AND forgotten = 0 "
                "AND (expires_at IS NULL OR expires_at > ?)",
                (*chunk, now),
            )
            for r in rows:
                found.add((str(r[0]), str(r[1]), str(r[2]), str(r[3]), str(r[4]), str(r[5]), r[6]))  # type: ignore[arg-type]
        return found

    async def complete_memory_write(self, memory_id: str, supersedes: str | None, now: float) -> None:
        """Mark a memory as present in both stores and, atomically, retire the one it replaces."""
        async with self.transaction() as db:
            await db.execute("UPDATE memories SET indexed = 1 WHERE id = ?", (memory_id,))
            if supersedes is not None:
                await db.execute(
                    "UPDATE memories SET forgotten = 1, superseded_by = ?, updated_at = ?, indexed = 0 "
                    "WHERE id = ?",
                    (memory_id, now, supersedes),
                )

    async def mark_memories_indexed(self, ids: Sequence[str]) -> None:
        async with self.transaction() as db:
            for chunk in _chunks(ids):
                marks = ",".join("?" * len(chunk))
                await db.execute(f"UPDATE memories SET indexed = 1 WHERE id IN ({marks})", tuple(chunk))

    async def delete_memories(self, ids: Sequence[str]) -> int:
        """Remove rows for good (subjects cascade); returns how many existed."""
        deleted = 0
        async with self.transaction() as db:
            for chunk in _chunks(ids):
                marks = ",".join("?" * len(chunk))
                cursor = await db.execute(f"DELETE FROM memories WHERE id IN ({marks})", tuple(chunk))
                deleted += cursor.rowcount
        return deleted

    async def restore_superseded(self, old_id: str, now: float) -> None:
        """Undo a merge: the superseded memory becomes active again."""
        async with self.transaction() as db:
            await db.execute(
                "UPDATE memories SET forgotten = 0, superseded_by = NULL, updated_at = ? WHERE id = ?",
                (now, old_id),
            )

    async def bump_access(self, counts: Mapping[str, int], now: float) -> None:
        """Add `counts[id]` accesses to each memory, last accessed at `now`, in one transaction."""
        by_count: dict[int, list[str]] = {}
        for memory_id, count in counts.items():
            by_count.setdefault(count, []).append(memory_id)
        if not by_count:
            return
        async with self.transaction() as db:
            for increment, ids in by_count.items():
                for chunk in _chunks(ids):
                    marks = ",".join("?" * len(chunk))
                    await db.execute(
                        f"UPDATE memories SET access_count = access_count + ?, last_accessed_at = ? "
                        f"WHERE id IN ({marks})",
                        (increment, now, *chunk),
                    )

    # --- memories: reads --------------------------------------------------------------------

    async def get_memories_unscoped(self, ids: Sequence[str]) -> list[Memory]:
        """Rows for these ids whoever may read them, in the order given (forget, sweep, repairs).

        One query per 500 ids, never one per hit. Anything shown to a person or a model reads
        through `visible_memories` or another method taking an `Audience` instead.
        """
        return [_row_to_memory(r) for r in await self.rows_by_id("memories", _MEMORY_COLUMNS, ids)]

    async def get_memory_unscoped(self, memory_id: str) -> Memory | None:
        """One row by id whoever may read it (maintenance and tests); see `get_memories_unscoped`."""
        rows = await self.get_memories_unscoped([memory_id])
        return rows[0] if rows else None

    async def visible_memories(self, ids: Sequence[str], audience: Audience, now: float) -> list[Memory]:
        """The subset of `ids` that `audience` may read, in the given order."""
        where, params = sql_audience_filter(audience, now, keyed=True, subjects=True)
        rows = await self.rows_by_id("memories", _MEMORY_COLUMNS, ids, where, params)
        return [_row_to_memory(r) for r in rows]

    async def superseded_memory_unscoped(self, newer_id: str) -> Memory | None:
        """The memory that `newer_id` replaced, if any (kept as forgotten so a merge can be undone).

        Unscoped: only the undo of a merge, a maintenance operation, reads it.
        """
        rows = await self._fetch(
            f"SELECT {_MEMORY_COLUMNS} FROM memories WHERE superseded_by = ? LIMIT 1", (newer_id,)
        )
        return _row_to_memory(rows[0]) if rows else None

    async def merged_into(self, newer_ids: Sequence[str]) -> dict[str, str]:
        """For each of `newer_ids` that superseded an older memory: newer id -> older id.

        Only ids the caller already read through an audience are asked for; the older rows are
        in the same scope and visibility (a merge never crosses them).
        """
        found: dict[str, str] = {}
        for chunk in _chunks(list(dict.fromkeys(newer_ids))):
            marks = ",".join("?" * len(chunk))
            rows = await self._fetch(
                f"SELECT superseded_by, id FROM memories WHERE superseded_by IN ({marks})", tuple(chunk)
            )
            found.update((str(newer), str(older)) for newer, older in rows)
        return found

    async def find_by_hash(
        self, content_hash: str, audience: Audience, now: float, visibility: Visibility
    ) -> Memory | None:
        where, params = sql_audience_filter(audience, now, keyed=True, subjects=True)
        rows = await self._fetch(
            f"SELECT {_MEMORY_COLUMNS} FROM memories WHERE content_hash = ? AND visibility = ? AND {where} "
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
        if query.min_importance is not None:
            clauses.append("m.importance >= ?")
            params.append(query.min_importance)
        if query.min_confidence is not None:
            clauses.append("m.confidence >= ?")
            params.append(query.min_confidence)
        if query.since is not None:
            clauses.append("m.created_at >= ?")
            params.append(query.since)
        if query.channel_id is not None:
            clauses.append("m.channel_id = ?")
            params.append(query.channel_id)
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

    async def query_memories(
        self,
        audience: Audience,
        now: float,
        query: MemoryQuery,
        vectors: dict[str, np.ndarray] | None = None,
    ) -> list[Memory]:
        """Memories `audience` may read, narrowed by `query`, newest (or most important) first.

        `vectors`, when given, receives the rows' stored vectors from the same read.
        """
        where, params = self._query_sql(audience, now, query)
        # The id breaks ties, so pages of rows written in the same second never overlap or skip.
        order = (
            "m.importance DESC, m.created_at DESC, m.id"
            if query.order == "important"
            else "m.created_at DESC, m.id"
        )
        sql = f"SELECT {_columns(vectors)} FROM memories m WHERE {where} ORDER BY {order} LIMIT ? OFFSET ?"
        rows = await self._fetch(sql, (*params, query.limit, query.offset))
        return _memory_rows(rows, vectors)

    async def count_memories(self, audience: Audience, now: float, query: MemoryQuery | None = None) -> int:
        where, params = self._query_sql(audience, now, query or MemoryQuery())
        rows = await self._fetch(f"SELECT COUNT(*) FROM memories m WHERE {where}", params)
        return int(rows[0][0])  # type: ignore[call-overload]

    async def count_by_type(self, audience: Audience, now: float) -> dict[str, int]:
        where, params = sql_audience_filter(audience, now, subjects=True)
        rows = await self._fetch(
            f"SELECT memory_type, COUNT(*) FROM memories WHERE {where} GROUP BY memory_type", params
        )
        return {str(r[0]): int(r[1]) for r in rows}  # type: ignore[call-overload]

    async def memories_about(
        self,
        audience: Audience,
        now: float,
        user_ids: Sequence[str],
        types: Sequence[MemoryType],
        min_confidence: float | None = None,
        limit: int = 20,
        vectors: dict[str, np.ndarray] | None = None,
    ) -> list[Memory]:
        """Memories about these users `audience` may read, most important then newest first.

        `vectors`, when given, receives the rows' stored vectors from the same read.

        Pinned to the per-user index: left to itself the planner walks the whole workspace's
        importance index to skip a sort, ~6 ms at 10k memories instead of well under 1 ms.
        """
        if not user_ids or not types:
            return []
        where, params = sql_audience_filter(audience, now, alias="m", subjects=True)
        # With the viewer's own memories of other workspaces the scope is an OR of two index
        # lookups, which the pin would forbid.
        pin = "" if audience.reaches_elsewhere else "INDEXED BY ix_memories_user "
        sql = (
            f"SELECT {_columns(vectors, 'm.')} FROM memories m {pin}"
            f"WHERE {where} AND m.user_id IN ({','.join('?' * len(user_ids))}) "
            f"AND m.memory_type IN ({','.join('?' * len(types))})"
        )
        params.extend(user_ids)
        params.extend(t.value for t in types)
        if min_confidence is not None:
            sql += " AND m.confidence >= ?"
            params.append(min_confidence)
        sql += " ORDER BY m.importance DESC, m.created_at DESC LIMIT ?"
        rows = await self._fetch(sql, (*params, limit))
        return _memory_rows(rows, vectors)

    async def memories_between(
        self,
        audience: Audience,
        now: float,
        since: float,
        until: float,
        channel_id: str | None = None,
        limit: int = 50,
        vectors: dict[str, np.ndarray] | None = None,
    ) -> list[Memory]:
        """Memories `audience` may read created in [since, until), newest first (pre-hook timelines).

        With `channel_id`, only those learned in that channel; `vectors`, when given, receives
        the rows' stored vectors from the same read.
        """
        where, params = sql_audience_filter(audience, now, subjects=True)
        sql = f"SELECT {_columns(vectors)} FROM memories WHERE {where} AND created_at >= ? AND created_at < ?"
        params.extend([since, until])
        if channel_id is not None:
            sql += " AND channel_id = ?"
            params.append(channel_id)
        rows = await self._fetch(sql + " ORDER BY created_at DESC LIMIT ?", (*params, limit))
        return _memory_rows(rows, vectors)

    async def get_embeddings(self, ids: Sequence[str]) -> dict[str, np.ndarray]:
        """Stored vectors of memories: compared as they are, never recomputed."""
        out: dict[str, np.ndarray] = {}
        for chunk in _chunks(list(dict.fromkeys(ids))):
            marks = ",".join("?" * len(chunk))
            for mid, blob in await self._fetch(
                f"SELECT id, embedding FROM memories WHERE id IN ({marks})", chunk
            ):
                vector = _vector(blob)  # type: ignore[arg-type]
                if vector is not None:
                    out[str(mid)] = vector
        return out

    async def expired_memory_ids(self, now: float) -> list[str]:
        rows = await self._fetch(
            "SELECT id FROM memories WHERE expires_at IS NOT NULL AND expires_at <= ?", (now,)
        )
        return [str(r[0]) for r in rows]

    async def unindexed_memories(self, limit: int = 1000) -> list[tuple[Memory, np.ndarray | None]]:
        """Active rows whose vector write never completed (a crash between the two stores)."""
        rows = await self._fetch(
            f"SELECT {_MEMORY_COLUMNS}, embedding FROM memories WHERE indexed = 0 AND forgotten = 0 LIMIT ?",
            (limit,),
        )
        return [(_row_to_memory(r), _vector(r[-1])) for r in rows]  # type: ignore[arg-type]

    async def indexed_memory_ids(self) -> set[str]:
        """Ids that must have a vector: active rows marked as written to both stores."""
        rows = await self._fetch("SELECT id FROM memories WHERE forgotten = 0 AND indexed = 1")
        return {str(r[0]) for r in rows}

    async def mark_memories_unindexed(self, ids: Sequence[str]) -> None:
        async with self.transaction() as db:
            for chunk in _chunks(ids):
                marks = ",".join("?" * len(chunk))
                await db.execute(f"UPDATE memories SET indexed = 0 WHERE id IN ({marks})", tuple(chunk))

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
                        _safe(message.author_name),
                        message.role,
                        _safe(message.content),
                        message.created_at,
                        message.external_id,
                        message.visibility.value,
                        _safe(json.dumps(message.tool_calls, ensure_ascii=False)),
                        _blob(vector),
                        indexed,
                    ),
                )
                if cursor.rowcount:
                    inserted.append(message.id)
        return inserted

    async def mark_messages_indexed(self, ids: Sequence[str]) -> None:
        async with self.transaction() as db:
            for chunk in _chunks(ids):
                marks = ",".join("?" * len(chunk))
                await db.execute(f"UPDATE messages SET indexed = 1 WHERE id IN ({marks})", tuple(chunk))

    async def mark_messages_unindexed(self, ids: Sequence[str]) -> None:
        """Queue these rows for re-indexing (their vector was found missing)."""
        async with self.transaction() as db:
            for chunk in _chunks(ids):
                marks = ",".join("?" * len(chunk))
                await db.execute(f"UPDATE messages SET indexed = 0 WHERE id IN ({marks})", tuple(chunk))

    async def get_messages_unscoped(self, ids: Sequence[str]) -> list[StoredMessage]:
        """Turns by id whoever may read them, in the order given (summaries of one known scope,
        benchmarks); what a person or a model is shown reads through `visible_messages`."""
        return [_row_to_message(r) for r in await self.rows_by_id("messages", _MESSAGE_COLUMNS, ids)]

    # The old names of the unscoped reads, kept while callers elsewhere move to the explicit ones.
    get_memories = get_memories_unscoped
    get_memory = get_memory_unscoped
    get_messages = get_messages_unscoped

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
        for chunk in _chunks(list(dict.fromkeys(ids))):
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
        skip = list(exclude)[:_CHUNK]
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
        return [(_row_to_message(r), _vector(r[-1])) for r in rows]  # type: ignore[arg-type]

    async def indexed_message_ids(self) -> set[str]:
        rows = await self._fetch("SELECT id FROM messages WHERE indexed = 1")
        return {str(r[0]) for r in rows}

    async def count_messages(self) -> int:
        rows = await self._fetch("SELECT COUNT(*) FROM messages")
        return int(rows[0][0])  # type: ignore[call-overload]
