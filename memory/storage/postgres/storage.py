"""The PostgreSQL backend as one `Storage`: rows and vectors in one database, and its upkeep."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import AsyncIterator, Callable, Iterable, Mapping, Sequence
from contextlib import asynccontextmanager
from typing import Any

import asyncpg

from ...errors import EmbeddingError, StorageError
from ...turn_text import message_embed_text
from ..base import (
    EVENT_TTL_SECONDS,
    LINK_COLUMNS,
    MIGRATED_TABLES,
    ChangeListener,
    Embed,
    EventExpiry,
    ReconcileReport,
    Storage,
    lock_id,
)
from .changes import ChangeFeed
from .conversations import PostgresConversations
from .db import DRIVER_ERRORS, PostgresDatabase, affected, check_vector, create_pool, lost, safe_text
from .events import PostgresEventLog
from .memories import PostgresMemories, record_access
from .people import PostgresPeople
from .search import search_terms
from .summaries import PostgresSummaries
from .turns import PostgresTurns

_REPAIR_BATCH = 1000
# Connections holding a conversation's advisory lock, apart from the pool the turns' own queries
# use (a lock held through a model call must never starve them): at most this many conversations
# of one process are answered at once, the others wait for a connection.
CHANNEL_LOCK_CONNECTIONS = 20
log = logging.getLogger(__name__)

LOCK_WAIT_LOG = "conversation busy in another process; waiting for it"
# Connections holding write locks (`write_lock`), a pool apart from the conversations' one: a turn
# holding its conversation takes write locks, and must never wait for a connection only another
# conversation's turn could give back. A holder keeps one connection however many keys it holds,
# and runs its own queries on it (see `write_lock`).
WRITE_LOCK_CONNECTIONS = 5
WRITE_LOCK_WAIT_LOG = "write busy in another process; waiting for it"

# The columns a migration writes per table ("embedding" from the row's `vector`); the link
# columns (`LINK_COLUMNS`) are written by `set_links` once every row is there.
_IMPORT_COLUMNS = {
    "memories": (
        "id, content, memory_type, importance, confidence, subjects, source, platform, workspace_id, "
        "channel_id, thread_id, user_id, author_id, agent_id, visibility, created_at, updated_at, "
        "expires_at, forgotten, content_hash, sources, search_terms, embedding"
    ),
    "messages": (
        "id, platform, workspace_id, channel_id, thread_id, agent_id, author_id, author_name, role, "
        "content, created_at, external_id, visibility, tool_calls, searchable, indexed_text, search_terms, "
        "told_since, told_until, told_read, embedding"
    ),
    "summaries": (
        "id, platform, workspace_id, channel_id, thread_id, agent_id, level, kind, content, "
        "covers_from, covers_to, source_ids, raw_chars, visibility, author_id, created_at, "
        "forgotten, expires_at, embedding"
    ),
    "profiles": "platform, workspace_id, user_id, agent_id, data, updated_at",
    "aliases": "platform, workspace_id, user_id, alias, created_at",
    "conversation_kinds": "platform, workspace_id, channel_id, kind, parent_id, updated_at",
}
_TEXT_COLUMNS = {"content", "author_name", "indexed_text", "tool_calls"}
# The full text each table's `search_terms` analyse (not a column the source backend has).
SEARCHED_TEXT = {"memories": "content", "messages": "indexed_text"}


class PostgresStorage(Storage):
    """Every row keeps its vector (pgvector) and full text (tsvector) beside it, written in one
    transaction, so there is no second store to reconcile: only turns stored without a vector
    (the embedder failed) wait for `maintain` to embed them."""

    def __init__(self, db: PostgresDatabase, dsn: str | None = None) -> None:
        self.db = db
        self._dsn = dsn
        self._lock_pool: asyncpg.Pool | None = None
        self._write_lock_pool: asyncpg.Pool | None = None
        self._pool_opening = asyncio.Lock()
        # Other processes' memory changes, heard once something watches (see `watch`).
        self._changes = ChangeFeed(dsn) if dsn is not None else None
        self.memories = PostgresMemories(db)
        self.turns: PostgresTurns = PostgresTurns(db)
        # Rows stored before their full-text terms were (migration m009) wait for `maintain`.
        self.analysis_due = False
        self.summaries = PostgresSummaries(db)
        self.people = PostgresPeople(db)
        self.conversations = PostgresConversations(db)

    @classmethod
    async def open(cls, dsn: str, *, dim: int) -> PostgresStorage:
        """Connect to `dsn` (a `postgresql://` URL), migrating the schema for vectors of `dim` values."""
        db = await PostgresDatabase.open(dsn, dim=dim)
        storage = cls(db, dsn)
        # Turns left without a vector by an earlier run are embedded at the next maintenance.
        storage.turns.repair_due = bool(await storage.turns.unindexed(1))
        storage.analysis_due = await storage._unanalysed_rows()
        # Turns stored before the days they tell of were kept are read at the next maintenance.
        storage.turns.told_due = bool(await storage.turns.told_unread(1))
        return storage

    def events(
        self, *, ttl_seconds: float = EVENT_TTL_SECONDS, clock: Callable[[], float] = time.time
    ) -> PostgresEventLog:
        """The platform event log in this database (shared by every process using it)."""
        return PostgresEventLog(self.db, EventExpiry(ttl_seconds, clock))

    async def watch(self, listener: ChangeListener) -> None:
        """Hear every memory change committed on the database, by this process or any other."""
        if self._changes is None:
            raise StorageError("this storage was opened without its URL and cannot listen for changes")
        await self._changes.add(listener)

    async def catch_up(self) -> None:
        if self._changes is not None:
            await self._changes.catch_up()

    shared = True

    async def channel_state(self, key: str) -> tuple[str, bytes] | None:
        row = await self.db.fetch("SELECT document, vectors FROM channel_states WHERE key = $1", (key,))
        return (str(row[0]["document"]), bytes(row[0]["vectors"])) if row else None

    async def save_channel_state(self, key: str, document: str, vectors: bytes, now: float) -> None:
        await self.db.execute(
            "INSERT INTO channel_states (key, document, vectors, updated_at) VALUES ($1, $2, $3, $4) "
            "ON CONFLICT (key) DO UPDATE SET document = excluded.document, vectors = excluded.vectors, "
            "updated_at = excluded.updated_at",
            (key, document, vectors, now),
        )

    @asynccontextmanager
    async def channel_lock(self, key: str) -> AsyncIterator[None]:
        """Hold conversation `key` in every process on the database: a session advisory lock on a
        connection of its own, taken once this process's own turns of `key` are done (so a waiting
        turn holds no connection). A process that dies drops its connection, and the lock with it."""
        async with super().channel_lock(key):
            pool = await self._locks_pool()
            async with pool.acquire() as conn:
                if not await conn.fetchval("SELECT pg_try_advisory_lock($1)", lock_id(key)):
                    log.debug(LOCK_WAIT_LOG)
                    await conn.execute("SELECT pg_advisory_lock($1)", lock_id(key))
                try:
                    yield
                finally:
                    await _unlock(conn, [lock_id(key)])

    @asynccontextmanager
    async def write_lock(self, keys: Sequence[str]) -> AsyncIterator[None]:
        """Hold `keys` in every process on the database: session advisory locks, taken in sorted
        order on one connection of the write-lock pool once this process's own holders of them are
        done (so a waiting writer holds no connection).

        The holder's own queries run on that connection too (`PostgresDatabase.writing_on`): a
        write commits only while the locks are held, as both end with the session. Should the
        connection be lost, the locks go at once, and the holder's next query (or the commit it
        was making) raises StorageError instead of writing beside whoever takes the keys next."""
        async with super().write_lock(keys):
            pool = await self._write_locks_pool()
            async with pool.acquire() as conn, self.db.writing_on(conn):
                held: list[int] = []
                try:
                    for number in sorted({lock_id(key) for key in keys}):
                        if not await conn.fetchval("SELECT pg_try_advisory_lock($1)", number):
                            log.debug(WRITE_LOCK_WAIT_LOG)
                            await conn.execute("SELECT pg_advisory_lock($1)", number)
                        held.append(number)
                    yield
                finally:
                    await _unlock(conn, reversed(held))

    async def _locks_pool(self) -> asyncpg.Pool:
        # Opened once however many first callers arrive together (the loser's pool would leak).
        async with self._pool_opening:
            if self._lock_pool is None:
                self._lock_pool = await self._open_lock_pool(CHANNEL_LOCK_CONNECTIONS, "lock conversations")
            return self._lock_pool

    async def _write_locks_pool(self) -> asyncpg.Pool:
        async with self._pool_opening:
            if self._write_lock_pool is None:
                self._write_lock_pool = await self._open_lock_pool(WRITE_LOCK_CONNECTIONS, "lock writes")
            return self._write_lock_pool

    async def _open_lock_pool(self, size: int, what: str) -> asyncpg.Pool:
        if self._dsn is None:
            raise StorageError(f"this storage was opened without its URL and cannot {what}")
        # A write lock's holder queries on its connection: the codecs and settings of the main pool.
        return await create_pool(self._dsn, min_size=0, max_size=size, locks=True)

    async def close(self) -> None:
        if self._changes is not None:
            await self._changes.close()
        if self._lock_pool is not None:
            await self._lock_pool.close()
        if self._write_lock_pool is not None:
            await self._write_lock_pool.close()
        await self.db.close()

    async def table_counts(self) -> dict[str, int]:
        counts = {}
        for table in MIGRATED_TABLES:
            counts[table] = int(await self.db.fetchval(f"SELECT count(*) FROM {table}"))
        return counts

    async def import_rows(self, table: str, rows: Sequence[Mapping[str, Any]]) -> int:
        if table not in _IMPORT_COLUMNS:
            raise ValueError(f"not a migrated table: {table!r}")
        columns = [c.strip() for c in _IMPORT_COLUMNS[table].split(",")]
        marks = ", ".join(f"${n}" for n in range(1, len(columns) + 1))
        sql = f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({marks}) ON CONFLICT DO NOTHING"
        values = [self._import_values(table, columns, row) for row in rows]
        inserted = 0
        try:
            async with self.db.transaction() as conn:
                for params in values:
                    inserted += affected(await conn.execute(sql, *params))
                if table == "memories":  # a row already there keeps its count, as it keeps itself
                    await record_access(
                        conn,
                        [(r["id"], int(r.get("access_count") or 0), r.get("last_accessed_at")) for r in rows],
                    )
        except DRIVER_ERRORS as exc:
            raise StorageError(f"{table} not copied: {type(exc).__name__}: {exc}") from None
        if table == "messages" and any(r["searchable"] and r.get("vector") is None for r in rows):
            self.turns.repair_due = True  # turns the source never embedded: `maintain` embeds them
        if table == "messages" and not all(r["told_read"] for r in rows):
            self.turns.told_due = True  # turns the source never read the told days of: `maintain` does
        return inserted

    def _import_values(self, table: str, columns: Sequence[str], row: Mapping[str, Any]) -> list[object]:
        values: list[object] = []
        for column in columns:
            if column == "embedding":
                vector = row.get("vector")
                if vector is not None:
                    try:
                        vector = check_vector(vector, self.db.dim, str(row.get("id")))
                    except (EmbeddingError, ValueError) as exc:
                        raise StorageError(f"{table} row {row.get('id')!r}: {exc}") from None
                values.append(vector)
            elif column == "search_terms":
                values.append(search_terms(row[SEARCHED_TEXT[table]]))
            elif column in _TEXT_COLUMNS:
                values.append(safe_text(row[column]))
            else:
                values.append(row[column])
        return values

    async def set_links(self, table: str, links: Mapping[str, str]) -> int:
        column = LINK_COLUMNS.get(table)
        if column is None:
            raise ValueError(f"{table!r} has no link column")
        if not links:
            return 0
        status = await self.db.execute(
            f"UPDATE {table} AS t SET {column} = l.target "
            "FROM unnest($1::text[], $2::text[]) AS l(id, target) "
            f"WHERE t.id = l.id AND t.{column} IS DISTINCT FROM l.target "
            f"AND EXISTS (SELECT 1 FROM {table} o WHERE o.id = l.target)",
            [list(links), list(links.values())],
        )
        return affected(status)

    @property
    def needs_maintenance(self) -> bool:
        return self.turns.repair_due or self.turns.told_due or self.analysis_due

    async def warm(self) -> int:
        # Searches read the database's own indexes: nothing to load into this process.
        return 0

    async def build_indexes(self) -> None:
        # The HNSW and GIN indexes are kept up to date on every write; fresh statistics let the
        # planner choose them after a bulk load.
        await self.db.execute("ANALYZE memories, messages, summaries")

    async def maintain(self, embed: Embed) -> None:
        await self.repair_turns_if_due(embed)
        if self.analysis_due:
            await self.analyse_rows()
        if self.turns.told_due:
            await self.turns.read_told_days()

    async def _unanalysed_rows(self) -> bool:
        return bool(
            await self.db.fetchval(
                "SELECT EXISTS (SELECT 1 FROM memories WHERE search_terms IS NULL) "
                "OR EXISTS (SELECT 1 FROM messages WHERE search_terms IS NULL)"
            )
        )

    async def analyse_rows(self) -> int:
        """Give the rows stored before migration m009 their `search_terms` (the full-text analysis
        both backends share), a batch per transaction; returns how many."""
        analysed = 0
        for table, text in SEARCHED_TEXT.items():
            while True:
                rows = await self.db.fetch(
                    f"SELECT id, {text} FROM {table} WHERE search_terms IS NULL LIMIT {_REPAIR_BATCH}"
                )
                if not rows:
                    break
                async with self.db.transaction() as conn:
                    # A row rewritten meanwhile was analysed by its own write.
                    await conn.executemany(
                        f"UPDATE {table} SET search_terms = $2 WHERE id = $1 AND search_terms IS NULL",
                        [(r[0], search_terms(r[1])) for r in rows],
                    )
                analysed += len(rows)
        self.analysis_due = False
        return analysed

    async def reconcile(self, embed: Embed) -> ReconcileReport:
        """A row and its vector commit together, so nothing is half-written; turns stored
        without a vector are embedded now."""
        report = ReconcileReport()
        report.message_rows_repaired = await self._index_turns(embed)
        if report.message_rows_repaired:
            report.details.append(f"message_rows_repaired={report.message_rows_repaired}")
            self.turns.repair_due = False
        return report

    async def _index_turns(self, embed: Embed) -> int:
        repaired = 0
        while True:
            pending = await self.turns.unindexed(_REPAIR_BATCH)
            if not pending:
                return repaired
            vectors = await embed([message_embed_text(m) for m in pending])
            await self.turns.set_vectors([m.id for m in pending], vectors)
            repaired += len(pending)


async def _unlock(conn: asyncpg.Connection, numbers: Iterable[int]) -> None:
    """Release advisory locks `numbers` held on `conn`. A lost connection took them with it: what
    was done under them committed on it while they were held, so that is not reported as failed;
    a connection the server ended is terminated, so the pool drops it instead of resetting it."""
    try:
        for number in numbers:
            await conn.execute("SELECT pg_advisory_unlock($1)", number)
    except DRIVER_ERRORS as exc:
        if not lost(conn, exc):
            raise
        log.warning("lock connection lost", extra={"error": type(exc).__name__})
