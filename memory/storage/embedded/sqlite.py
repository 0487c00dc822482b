"""The SQLite database of the embedded backend: one writer connection, a small reader pool, WAL."""

from __future__ import annotations

import asyncio
import sqlite3
import time
from collections.abc import AsyncIterator, Iterable, Sequence
from contextlib import AbstractContextManager, asynccontextmanager
from pathlib import Path
from typing import Self

import aiosqlite
import numpy as np

from ...errors import StorageError
from ..base import Tables, reraise
from .migrations import apply_migrations

# SQLite's default limit on bound parameters is 32766; stay far below it per statement.
CHUNK = 500


def failing(what: str, error: type[StorageError] = StorageError) -> AbstractContextManager[None]:
    """Inside: a SQLite error becomes `error` ("`what`: cause")."""
    return reraise(sqlite3.Error, what, error)


def chunks(items: Sequence[str], size: int = CHUNK) -> Iterable[Sequence[str]]:
    for start in range(0, len(items), size):
        yield items[start : start + size]


def to_blob(vector: np.ndarray | None) -> bytes | None:
    return None if vector is None else np.asarray(vector, dtype=np.float32).tobytes()


def from_blob(blob: bytes | None) -> np.ndarray | None:
    return None if blob is None else np.frombuffer(blob, dtype=np.float32).copy()


def safe_text(text: str) -> str:
    # SQLite stores UTF-8; an unpaired surrogate would fail the insert, so replace it.
    return text.encode("utf-8", "replace").decode("utf-8")


class SQLiteDatabase:
    """Connections to the database file. Writes go through one connection under a lock; reads use a pool."""

    def __init__(self, path: Path, writer: aiosqlite.Connection, readers: list[aiosqlite.Connection]) -> None:
        self.path = path
        self._writer = writer
        self._write_lock = asyncio.Lock()
        self._readers: asyncio.Queue[aiosqlite.Connection] = asyncio.Queue()
        self._all_readers = readers
        for reader in readers:
            self._readers.put_nowait(reader)

    @classmethod
    async def open(cls, path: str | Path, readers: int = 3) -> Self:
        """Open (creating and migrating) the database: one writer and `readers` read connections.

        Three readers: the pre-hook reads its sources (identities, important, recent) while its
        search hits' rows are read, and with two the second group queued behind the first
        (pre-hook p95 16 ms instead of 13 at 100,000 memories).
        """
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        writer = await aiosqlite.connect(path, isolation_level=None)
        pool: list[aiosqlite.Connection] = []
        try:
            # WAL lets readers run beside the writer. FULL syncs the WAL on every commit, so a write that
            # returned (a message the bot acknowledged, a memory it said it stored) survives a killed
            # process and a power cut alike; NORMAL would only survive the first. LanceDB holds no such
            # promise: its vectors are re-derived from these rows (each keeps its embedding) by
            # `EmbeddedStorage.reconcile` at start-up, so SQLite alone decides what was stored.
            await writer.execute("PRAGMA journal_mode=WAL")
            await writer.execute("PRAGMA synchronous=FULL")
            await writer.execute("PRAGMA foreign_keys=ON")
            await writer.execute("PRAGMA busy_timeout=5000")
            await apply_migrations(writer, time.time())
            for _ in range(max(1, readers)):
                reader = await aiosqlite.connect(path, isolation_level=None)
                await reader.execute("PRAGMA busy_timeout=5000")
                await reader.execute("PRAGMA query_only=ON")
                pool.append(reader)
        except BaseException:
            # A database this version cannot open (a newer migration) must not leave its
            # connections' threads running.
            for conn in (*pool, writer):
                await conn.close()
            raise
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
        """Run one read-only statement on the reader pool."""
        return await self._fetch(sql, params)

    async def fetch_named(self, sql: str, params: Sequence[object] = ()) -> list[dict[str, object]]:
        """Rows of one read-only statement as column name -> value (a migration's export)."""
        async with self._read() as conn, conn.execute(sql, params) as cursor:
            names = [d[0] for d in cursor.description]
            return [dict(zip(names, row, strict=True)) for row in await cursor.fetchall()]

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
        for chunk in chunks(list(dict.fromkeys(ids))):
            marks = ",".join("?" * len(chunk))
            sql = f"SELECT {columns} FROM {table} WHERE id IN ({marks}){clause}"
            for row in await self._fetch(sql, (*chunk, *params)):
                found[row[0]] = row
        return [found[i] for i in ids if i in found]


class SQLiteTables(Tables):
    """The SQL of some tables over the one `SQLiteDatabase` (its single writer, its reader pool)."""

    _db: SQLiteDatabase
    _DRIVER_ERRORS = sqlite3.Error

    def __init__(self, db: SQLiteDatabase) -> None:
        self._db = db

    @staticmethod
    async def _execute(conn: aiosqlite.Connection, sql: str, params: Sequence[object]) -> int:
        return (await conn.execute(sql, params)).rowcount

    async def _set_indexed(self, table: str, ids: Sequence[str], indexed: int) -> None:
        # 1: the row's vector is written; 0: queued for the vector index (see `reconcile`).
        async with self._db.transaction() as db:
            for chunk in chunks(ids):
                marks = ",".join("?" * len(chunk))
                await db.execute(f"UPDATE {table} SET indexed = ? WHERE id IN ({marks})", (indexed, *chunk))

    async def _page(self, table: str, columns: str, after: str, limit: int) -> list[tuple[object, ...]]:
        """`limit` rows of `table` (`columns`) in id order after the id `after`: a pass over it all."""
        return await self._db.fetch(
            f"SELECT {columns} FROM {table} WHERE id > ? ORDER BY id LIMIT ?", (after, limit)
        )
