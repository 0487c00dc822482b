"""The PostgreSQL connection pool: codecs for vectors and times, transactions, and the audience filter."""

from __future__ import annotations

import asyncio
import re
import struct
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from contextlib import asynccontextmanager
from contextvars import ContextVar
from typing import Any, TypeVar
from urllib.parse import urlparse

import asyncpg
import numpy as np

from ...errors import EmbeddingError, StorageError
from ...models import Audience
from ...scope import sql_audience_filter, sql_visibility_filter
from .migrations import apply_migrations, check_pgvector, vector_dim

# 2000-01-01T00:00:00Z, where PostgreSQL's binary timestamps count microseconds from.
_PG_EPOCH_US = 946_684_800_000_000
_INT64 = struct.Struct("!q")
_VECTOR_HEAD = struct.Struct("!HH")

# What asyncpg raises for a failed statement or a lost connection. InternalClientError is what a
# query meets when the server's "terminating connection" message has arrived and the socket's
# close has not yet: the connection is unusable, though `is_closed()` still says no.
DRIVER_ERRORS: tuple[type[BaseException], ...] = (
    asyncpg.PostgresError,
    asyncpg.InterfaceError,
    asyncpg.exceptions.InternalClientError,
    OSError,
)


def _encode_time(value: float) -> bytes:
    # The models keep float epoch seconds; PostgreSQL keeps microseconds. A value that is a whole
    # number of microseconds (every clock reading, every test time) comes back identical.
    return _INT64.pack(round(float(value) * 1_000_000) - _PG_EPOCH_US)


def _decode_time(data: bytes) -> float:
    micros = _INT64.unpack(data)[0]
    if micros in (2**63 - 1, -(2**63)):
        return float("inf") if micros > 0 else float("-inf")
    return (micros + _PG_EPOCH_US) / 1_000_000


def _encode_vector(value: np.ndarray) -> bytes:
    vec = np.asarray(value, dtype=np.float32).reshape(-1)
    return _VECTOR_HEAD.pack(vec.shape[0], 0) + vec.astype(">f4").tobytes()


def _decode_vector(data: bytes) -> np.ndarray:
    return np.frombuffer(data, dtype=">f4", offset=_VECTOR_HEAD.size).astype(np.float32)


def check_vector(vector: np.ndarray, dim: int, what: str) -> np.ndarray:
    """A vector as stored: float32 of `dim` values, all finite (else EmbeddingError or ValueError)."""
    vec = np.asarray(vector, dtype=np.float32).reshape(-1)
    if vec.shape != (dim,):
        raise ValueError(f"vector {what!r} has shape {vec.shape}; the database expects ({dim},)")
    if not np.isfinite(vec).all():
        # An embedder that returns NaN or infinity is broken; nothing it returns is stored.
        raise EmbeddingError(f"non-finite vector for {what!r}")
    return vec


def safe_text(text: str) -> str:
    # PostgreSQL stores UTF-8 and refuses NUL; an unpaired surrogate or a NUL would fail the write.
    return text.encode("utf-8", "replace").decode("utf-8").replace("\x00", "\ufffd")


class Params:
    """Bound parameters of one statement: `add` returns the `$n` to write in its place."""

    def __init__(self, *values: object) -> None:
        self.values: list[object] = list(values)

    def add(self, value: object) -> str:
        self.values.append(value)
        return f"${len(self.values)}"

    def many(self, values: Sequence[object]) -> str:
        """One array parameter: `col = ANY($n)` reads every value of `values`."""
        return self.add(list(values))


_MARK = re.compile(r"\?")
_FORGOTTEN = re.compile(r"([\w.]*forgotten) = 0")


def _translate(where: str, values: Sequence[object], params: Params) -> str:
    """The SQLite clause of `memory.scope` (`?` marks, `forgotten = 0`) in PostgreSQL's terms."""
    it = iter(values)
    sql = _MARK.sub(lambda _: params.add(next(it)), where)
    return _FORGOTTEN.sub(r"NOT \1", sql)


def audience_where(
    audience: Audience, now: float, params: Params, alias: str = "", subjects: bool = False
) -> str:
    """`memory.scope.sql_audience_filter` (the privacy rules, written once) with `$n` parameters."""
    where, values = sql_audience_filter(audience, now, alias=alias, subjects=subjects)
    return _translate(where, values, params)


def visibility_where(audience: Audience, params: Params, alias: str = "") -> str:
    """`memory.scope.sql_visibility_filter` (rows with no lifecycle: turns) with `$n` parameters."""
    where, values = sql_visibility_filter(audience, alias=alias)
    return _translate(where, values, params)


async def _init_connection(conn: asyncpg.Connection) -> None:
    await conn.set_type_codec(
        "timestamptz",
        schema="pg_catalog",
        encoder=_encode_time,
        decoder=_decode_time,
        format="binary",
    )
    # The extension's schema is the DBA's choice: `public` unless they said otherwise, so that is
    # tried first (one round trip instead of two for a new connection), then the type is looked up.
    try:
        await _set_vector_codec(conn, "public")
        return
    except ValueError:  # asyncpg: unknown type public.vector
        pass
    schema = await conn.fetchval(
        "SELECT n.nspname FROM pg_type t JOIN pg_namespace n ON n.oid = t.typnamespace "
        "WHERE t.typname = 'vector' LIMIT 1"
    )
    # None: the extension is not there yet, and the migrations about to run on this connection
    # create it (`PostgresDatabase.open` then replaces every connection made before).
    if schema is not None:
        await _set_vector_codec(conn, schema)


async def _set_vector_codec(conn: asyncpg.Connection, schema: str) -> None:
    await conn.set_type_codec(
        "vector", schema=schema, encoder=_encode_vector, decoder=_decode_vector, format="binary"
    )


# Session settings of every pooled connection, sent when it connects. A filtered nearest-neighbour query
# keeps scanning the HNSW graph until k rows pass the filter (pgvector 0.8); the hits are sorted
# by score after the read, so the relaxed order costs nothing.
SERVER_SETTINGS = {"hnsw.iterative_scan": "relaxed_order", "plan_cache_mode": "force_custom_plan"}


WRITE_LOCK_LOST = "write lock lost with its connection; what this write had not committed is not written"


async def create_pool(dsn: str, *, min_size: int, max_size: int, locks: bool = False) -> asyncpg.Pool:
    """A pool of connections with the codecs and session settings every query here expects.

    asyncpg resets a released connection with one more statement (unlock every advisory lock,
    close cursors, unlisten, RESET ALL): a second round trip after every query, which doubled the
    cost of a short one. Only a pool of `locks` holds session state worth that; the others'
    connections keep none (a transaction left open is still rolled back by asyncpg, and what sets
    a session setting resets it itself).
    """
    return await asyncpg.create_pool(
        dsn,
        min_size=min_size,
        max_size=max_size,
        init=_init_connection,
        server_settings=SERVER_SETTINGS,
        reset=None if locks else _keep_session,
    )


async def _keep_session(conn: asyncpg.Connection) -> None:
    """A released connection's reset: nothing beyond asyncpg's own rollback (see `create_pool`)."""


class _Held:
    """The connection holding a task's write locks, while the task holds them (see `writing_on`)."""

    def __init__(self, db: PostgresDatabase, conn: asyncpg.Connection) -> None:
        self.db = db
        self.conn = conn
        self.task = asyncio.current_task()
        self.open = True


# Per task (a task started inside the block copies it: `_Held.task` keeps such tasks on the pool).
_HELD: ContextVar[_Held | None] = ContextVar("postgres_write_lock_connection", default=None)
T = TypeVar("T")


class PostgresDatabase:
    """A pool of connections to one database whose schema is migrated for vectors of `dim` values.

    Inside `writing_on(conn)` a task's queries run on `conn` instead, the connection holding its
    write locks: a write then commits only while its lock is held, since both end with the session.
    """

    def __init__(self, pool: asyncpg.Pool, dim: int) -> None:
        self.pool = pool
        self.dim = dim

    @classmethod
    async def open(cls, dsn: str, *, dim: int, min_size: int = 1, max_size: int = 10) -> PostgresDatabase:
        """Open the pool and migrate the schema on its first connection.

        Opening a connection is most of the cost of opening a store (a server process each), so
        the migrations check runs on the pool's own connection rather than one of its own.

        Raises StorageError when the database cannot be reached; the message never holds the URL's
        password.
        """
        try:
            pool = await create_pool(dsn, min_size=min_size, max_size=max_size)
        except DRIVER_ERRORS as exc:
            raise StorageError(f"cannot connect to PostgreSQL: {redact(str(exc), dsn)}") from None
        try:
            async with pool.acquire() as conn:
                applied = await apply_migrations(conn, dim)
                await check_pgvector(conn)
                await vector_dim(conn, dim)
            if applied:
                # Connections made before the migrations may lack the vector codec (the extension
                # did not exist yet): the pool replaces each as it next comes back or goes out.
                await pool.expire_connections()
        except BaseException:
            await pool.close()
            raise
        return cls(pool, dim)

    async def close(self) -> None:
        await self.pool.close()

    @asynccontextmanager
    async def writing_on(self, conn: asyncpg.Connection) -> AsyncIterator[None]:
        """Run this task's queries on `conn` (from `create_pool`) until the block ends. Once `conn`
        is lost they raise StorageError: nothing is written after its locks went with it."""
        held = _Held(self, conn)
        token = _HELD.set(held)
        try:
            yield
        finally:
            held.open = False
            _HELD.reset(token)

    def _held(self) -> asyncpg.Connection | None:
        held = _HELD.get()
        if held is None or held.db is not self or not held.open or held.task is not asyncio.current_task():
            return None
        return held.conn

    async def _run(self, query: Callable[[asyncpg.Pool | asyncpg.Connection], Awaitable[T]]) -> T:
        """`query` on the connection this task holds (a lost one raising StorageError), else the pool."""
        conn = self._held()
        if conn is None:
            return await query(self.pool)
        async with _lost_as_storage_error(conn):
            return await query(conn)

    async def fetch(self, sql: str, params: Sequence[object] = ()) -> list[asyncpg.Record]:
        return await self._run(lambda on: on.fetch(sql, *params))

    async def fetchval(self, sql: str, params: Sequence[object] = ()) -> Any:
        return await self._run(lambda on: on.fetchval(sql, *params))

    async def execute(self, sql: str, params: Sequence[object] = ()) -> str:
        return await self._run(lambda on: on.execute(sql, *params))

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[asyncpg.Connection]:
        """One atomic write on one connection: committed when the block ends, rolled back if it raises."""
        held = self._held()
        if held is not None:
            async with _lost_as_storage_error(held), held.transaction():
                yield held
            return
        async with self.pool.acquire() as conn, conn.transaction():
            yield conn


@asynccontextmanager
async def _lost_as_storage_error(conn: asyncpg.Connection) -> AsyncIterator[None]:
    try:
        yield
    except DRIVER_ERRORS as exc:
        if lost(conn, exc):
            raise StorageError(WRITE_LOCK_LOST) from exc
        raise


def lost(conn: asyncpg.Connection, error: BaseException) -> bool:
    """Whether `error` (one of DRIVER_ERRORS from `conn`) means `conn` is gone. One the server
    ended but whose socket has not closed yet is terminated here, so its pool drops it."""
    if isinstance(error, asyncpg.exceptions.InternalClientError):
        conn.terminate()
        return True
    try:
        return conn.is_closed()
    except asyncpg.InterfaceError:
        return True  # the pool takes back a connection that closed: its proxy answers nothing more


def redact(text: str, dsn: str) -> str:
    """`text` without the password `dsn` carries."""
    password = urlparse(dsn).password
    return text.replace(password, "***") if password else text


def affected(status: str) -> int:
    """The row count of a command status (`DELETE 3`, `UPDATE 1`, `INSERT 0 1`)."""
    try:
        return int(status.rsplit(" ", 1)[-1])
    except ValueError:
        return 0
