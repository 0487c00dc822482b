"""Applying the registry's migrations, once each, and checking what the database offers."""

from __future__ import annotations

import asyncpg

from ....errors import ConfigError, StorageError
from ...base import pending_migrations
from .registry import MIGRATIONS

# Full text of every kind of row: English stems (with their stop words) and the words as written
# (`simple`), so names and words of other languages still match.
TSVECTOR = "to_tsvector('english'::regconfig, {col}) || to_tsvector('simple'::regconfig, {col})"

_LOCK_KEY = 0x6D656D6F  # "memo": one migrating process at a time


def _render(sql: str, dim: int) -> str:
    return sql.format(
        dim=dim,
        memory_tsv=TSVECTOR.format(col="content"),
        message_tsv=TSVECTOR.format(col="indexed_text"),
    )


async def apply_migrations(conn: asyncpg.Connection, dim: int) -> list[str]:
    """Apply every migration not yet recorded, each in its own transaction; returns their names."""
    await conn.execute("SELECT pg_advisory_lock($1)", _LOCK_KEY)
    try:
        await conn.execute(
            "CREATE TABLE IF NOT EXISTS schema_migrations ("
            "name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())"
        )
        done = {r["name"] for r in await conn.fetch("SELECT name FROM schema_migrations")}
        applied = []
        for name, sql in pending_migrations(MIGRATIONS, done):
            try:
                async with conn.transaction():
                    await conn.execute(_render(sql, dim))
                    await conn.execute("INSERT INTO schema_migrations (name) VALUES ($1)", name)
            except asyncpg.PostgresError as exc:
                raise _migration_error(name, exc) from exc
            applied.append(name)
        return applied
    finally:
        await conn.execute("SELECT pg_advisory_unlock($1)", _LOCK_KEY)


EXTENSIONS = ("vector", "btree_gin")


def _migration_error(name: str, exc: asyncpg.PostgresError) -> Exception:
    # A managed service lets an administrator create extensions the bot's role may not.
    missing = [e for e in EXTENSIONS if f'extension "{e}"' in str(exc) or f"extension {e}" in str(exc)]
    if missing:
        statements = " and ".join(f"CREATE EXTENSION IF NOT EXISTS {e}" for e in EXTENSIONS)
        return ConfigError(
            f"migration {name} needs the {missing[0]} extension, which this role cannot create ({exc}); "
            f"an administrator runs {statements} once in this database"
        )
    return StorageError(f"migration {name} failed: {type(exc).__name__}: {exc}")


# Iterative index scans (a filtered search still returns its k rows) came with pgvector 0.8.
MIN_PGVECTOR = (0, 8)


async def check_pgvector(conn: asyncpg.Connection) -> None:
    """Refuse a pgvector too old for filtered searches to return their k rows."""
    version = await conn.fetchval("SELECT extversion FROM pg_extension WHERE extname = 'vector'")
    parts = tuple(int(p) for p in str(version or "0").split(".")[:2] if p.isdigit())
    if parts < MIN_PGVECTOR:
        raise ConfigError(
            f"the database's pgvector is {version}; memorybot needs "
            f"{'.'.join(map(str, MIN_PGVECTOR))} or newer (ALTER EXTENSION vector UPDATE)"
        )


async def vector_dim(conn: asyncpg.Connection, dim: int) -> None:
    """Refuse a database made for vectors of another size (another embedding model)."""
    stored = await conn.fetchval(
        "SELECT atttypmod FROM pg_attribute WHERE attrelid = 'memories'::regclass AND attname = 'embedding'"
    )
    if stored is not None and stored != dim:
        raise ConfigError(
            f"the database stores vectors of {stored} dimensions but the embedder makes {dim}; "
            "use the embedding model it was created with"
        )
