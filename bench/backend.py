"""Which storage a benchmark runs on, and the rule that keeps a PostgreSQL database it did not fill safe.

Embedded (no URL): every run opens a fresh temporary data directory, as before. PostgreSQL (a
`postgresql://` URL): the run claims the database first. It refuses one whose memorybot tables
hold any row, unless `reset` says the database is a benchmark's to empty; it empties the tables
it filled when it ends (or fails), so the next run finds them empty again. Nothing is ever
dropped: the schema stays, and only memorybot's own tables are emptied.

This module and `bench/latency.py` reach past the storage seam into `memory.storage.postgres.bulk`:
emptying a database and COPY-loading a million memories are benchmark chores no bot ever does.
"""

from __future__ import annotations

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


@dataclass(frozen=True, slots=True)
class BenchBackend:
    """The storage of a benchmark run: `url` None for the embedded backend."""

    url: str | None = None
    reset: bool = False

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
            + "; its memorybot tables emptied again after each run",
        }

    async def claim(self, dim: int) -> Claim:
        """Take the database for one run: refused (DatabaseNotEmpty) if it holds rows, unless
        `reset`, which empties it first. Nothing to take when embedded."""
        if not self.url:
            return Claim(None)
        from memory.storage.postgres.bulk import empty_tables, is_empty

        storage = await _open_postgres(self.url, dim)
        try:
            if not await is_empty(storage):
                if not self.reset:
                    raise DatabaseNotEmpty(
                        "the benchmark database already holds memorybot rows; use an empty database "
                        "(python -m bench.pg_server starts a throwaway one) or pass --reset to empty "
                        "this one first"
                    )
                await empty_tables(storage)
        except BaseException:
            await storage.close()
            raise
        return Claim(storage)

    @asynccontextmanager
    async def claimed(self, dim: int) -> AsyncIterator[None]:
        """The database is this run's for the block (`claim`), emptied again when it ends."""
        claim = await self.claim(dim)
        try:
            yield
        finally:
            await claim.release()


class Claim:
    """A database taken for one run; `release` empties what the run wrote and lets go of it."""

    def __init__(self, storage: PostgresStorage | None) -> None:
        self._storage = storage

    async def release(self) -> None:
        if self._storage is None:
            return
        from memory.storage.postgres.bulk import empty_tables

        storage, self._storage = self._storage, None
        try:
            # Only rows this run wrote: the database was empty (or emptied on request) before.
            await empty_tables(storage)
        finally:
            await storage.close()


async def _open_postgres(url: str, dim: int) -> PostgresStorage:
    # asyncpg loads only for a PostgreSQL run.
    from memory.storage.postgres import PostgresStorage

    storage = await open_storage(url, dim=dim)
    if not isinstance(storage, PostgresStorage):  # pragma: no cover - a postgresql:// URL opens one
        await storage.close()
        raise ConfigError("--database-url did not open the PostgreSQL backend")
    return storage


def backend_from(url: str | None, reset: bool = False) -> BenchBackend:
    """A run's backend from `--database-url` (an empty string: embedded) and `--reset`."""
    url = (url or "").strip() or None
    if url is not None and not url.startswith(("postgresql://", "postgres://")):
        raise ConfigError("--database-url must be a postgresql:// URL (or empty for the embedded backend)")
    return BenchBackend(url, reset)
