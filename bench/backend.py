"""Which storage a benchmark runs on, and the rule that keeps a PostgreSQL database it did not fill safe.

Embedded (no URL): every run opens a fresh temporary data directory, as before. PostgreSQL (a
`postgresql://` URL): the run claims the database first. It refuses one whose memorybot tables
hold any row, unless `reset` says the database is a benchmark's to empty; it empties the tables
it filled when it ends (or fails), so the next run finds them empty again. Nothing is ever
dropped: the schema stays, and only memorybot's own tables are emptied.

With `keep` a run that filled the database leaves its rows and records what it filled (the
`bench_fill` table, the benchmark's own); a later run with `keep` may time that fill again
instead of refusing the database, once it has checked the rows are that very fill
(`bench.latency`). A run that fails before its fill is recorded still empties what it wrote.

This module and `bench/latency.py` reach past the storage seam into `memory.storage.postgres.bulk`:
emptying a database and COPY-loading a million memories are benchmark chores no bot ever does.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import urlparse

from memory.errors import ConfigError
from memory.storage import open_storage

if TYPE_CHECKING:
    from memory.storage.postgres import PostgresStorage

EMBEDDED = "embedded"
POSTGRESQL = "postgresql"
# Server settings worth stating beside PostgreSQL figures: durability and index-build memory.
_SETTINGS = (
    "server_version",
    "fsync",
    "synchronous_commit",
    "full_page_writes",
    "shared_buffers",
    "maintenance_work_mem",
)


class DatabaseNotEmpty(ConfigError):
    """The benchmark's database already holds rows it did not write; it is left untouched."""


# Where a run with `keep` records the fill it left (one row: the database holds one fill).
FILL_TABLE = "bench_fill"


@dataclass(frozen=True, slots=True)
class BenchBackend:
    """The storage of a benchmark run: `url` None for the embedded backend."""

    url: str | None = None
    reset: bool = False
    keep: bool = False

    @property
    def name(self) -> str:
        return POSTGRESQL if self.url else EMBEDDED

    def location(self, data_dir: Path) -> str | Path:
        """Where an engine opens: the database, or the run's own temporary directory."""
        return self.url or data_dir

    async def describe(self, dim: int) -> dict[str, Any]:
        """The backend for the JSON: never the URL's user or password, only where and how it ran."""
        if not self.url:
            return {"name": EMBEDDED, "data": "a fresh temporary directory per run"}
        parsed = urlparse(self.url)
        storage = await _open_postgres(self.url, dim)
        try:
            db = storage.db
            settings = {name: await db.fetchval(f"SHOW {name}") for name in _SETTINGS}
            pgvector = await db.fetchval("SELECT extversion FROM pg_extension WHERE extname = 'vector'")
        finally:
            await storage.close()
        return {
            "name": POSTGRESQL,
            "database": parsed.path.lstrip("/") or None,
            "host": parsed.hostname or "unix socket",
            "pgvector": pgvector,
            "settings": settings,
            "data": "refused if not empty"
            + (", emptied first (--reset)" if self.reset else "")
            + (
                "; a run's fill kept (--keep), and a kept fill of the same size, seed and model "
                "timed again once its rows are checked"
                if self.keep
                else "; its memorybot tables emptied again after each run"
            ),
        }

    async def claim(self, dim: int) -> Claim:
        """Take the database for one run: refused (DatabaseNotEmpty) if it holds rows, unless
        `reset`, which empties it first, or `keep` and the rows are a recorded fill (`Claim.kept`,
        for the caller to check). Nothing to take when embedded."""
        if not self.url:
            return Claim(None)
        from memory.storage.postgres.bulk import is_empty

        storage = await _open_postgres(self.url, dim)
        kept: dict[str, Any] | None = None
        try:
            if not await is_empty(storage):
                if self.reset:
                    await _empty(storage)
                else:
                    kept = await recorded_fill(storage) if self.keep else None
                    if kept is None:
                        raise DatabaseNotEmpty(
                            "the benchmark database already holds memorybot rows; use an empty database "
                            "(python -m bench.pg_server starts a throwaway one) or pass --reset to empty "
                            "this one first"
                        )
            elif await recorded_fill(storage) is not None:
                await _empty(storage)  # a record left without its rows describes nothing
        except BaseException:
            await storage.close()
            raise
        return Claim(storage, kept, keep=self.keep)

    @asynccontextmanager
    async def claimed(self, dim: int) -> AsyncIterator[Claim]:
        """The database is this run's for the block (`claim`), emptied again when it ends unless
        its fill is kept (`Claim.record`, or a kept fill reused)."""
        claim = await self.claim(dim)
        try:
            yield claim
        finally:
            await claim.release()


class Claim:
    """A database taken for one run; `release` empties what the run wrote (unless its fill is
    kept) and lets go of it.

    `kept` is the record of the fill the database already held when taken with `keep` (None
    otherwise): its rows are left alone whatever happens.
    """

    def __init__(
        self, storage: PostgresStorage | None, kept: dict[str, Any] | None = None, keep: bool = False
    ):
        self._storage = storage
        self.kept = kept
        self._keep = keep
        self._recorded = kept is not None

    async def record(self, fill: dict[str, Any]) -> None:
        """Record the fill this run just completed; with `keep` its rows then outlive the run."""
        if self._storage is None or not self._keep:
            return
        db = self._storage.db
        await db.execute(f"CREATE TABLE IF NOT EXISTS {FILL_TABLE} (fill jsonb NOT NULL)")
        async with db.transaction() as conn:
            await conn.execute(f"DELETE FROM {FILL_TABLE}")
            await conn.execute(f"INSERT INTO {FILL_TABLE} (fill) VALUES ($1::jsonb)", json.dumps(fill))
        self._recorded = True

    async def release(self) -> None:
        if self._storage is None:
            return
        storage, self._storage = self._storage, None
        try:
            if not self._recorded:
                # Only rows this run wrote: the database was empty (or emptied on request) before.
                await _empty(storage)
        finally:
            await storage.close()


async def recorded_fill(storage: PostgresStorage) -> dict[str, Any] | None:
    """The fill a run with `keep` recorded in this database, or None."""
    if not await storage.db.fetchval("SELECT to_regclass($1) IS NOT NULL", (FILL_TABLE,)):
        return None
    text = await storage.db.fetchval(f"SELECT fill::text FROM {FILL_TABLE} LIMIT 1")
    return None if text is None else dict(json.loads(text))


async def _empty(storage: PostgresStorage) -> None:
    from memory.storage.postgres.bulk import empty_tables

    await empty_tables(storage)
    if await storage.db.fetchval("SELECT to_regclass($1) IS NOT NULL", (FILL_TABLE,)):
        await storage.db.execute(f"DELETE FROM {FILL_TABLE}")


async def _open_postgres(url: str, dim: int) -> PostgresStorage:
    # asyncpg loads only for a PostgreSQL run.
    from memory.storage.postgres import PostgresStorage

    storage = await open_storage(url, dim=dim)
    if not isinstance(storage, PostgresStorage):  # pragma: no cover - a postgresql:// URL opens one
        await storage.close()
        raise ConfigError("--database-url did not open the PostgreSQL backend")
    return storage


def backend_from(url: str | None, reset: bool = False, keep: bool = False) -> BenchBackend:
    """A run's backend from `--database-url` (an empty string: embedded), `--reset` and `--keep`."""
    url = (url or "").strip() or None
    if url is not None and not url.startswith(("postgresql://", "postgres://")):
        raise ConfigError("--database-url must be a postgresql:// URL (or empty for the embedded backend)")
    if keep and url is None:
        raise ConfigError("--keep keeps a PostgreSQL database's fill: it needs --database-url")
    return BenchBackend(url, reset, keep)
