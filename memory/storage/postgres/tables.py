"""What every PostgreSQL repository shares: its database, and rows read by id in the order asked."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager
from typing import Any

import asyncpg

from ...errors import StorageError
from ..base import Tables, reraise
from .db import DRIVER_ERRORS, Params, PostgresDatabase, affected


def failing(what: str, error: type[StorageError] = StorageError) -> AbstractContextManager[None]:
    """Inside: a failed statement or connection becomes `error` ("`what`: cause")."""
    return reraise(DRIVER_ERRORS, what, error)


def insert_sql(table: str, columns: str, tail: str = "") -> str:
    """The INSERT of one row of `columns`, a `$n` for each (so the count can never be off)."""
    marks = ",".join(f"${n}" for n in range(1, len(columns.split(",")) + 1))
    return f"INSERT INTO {table} ({columns}) VALUES ({marks}){tail}"


class PostgresTables(Tables):
    """The SQL of some tables over one `PostgresDatabase` (as `SQLiteTables` is for the embedded backend)."""

    _db: PostgresDatabase
    _DRIVER_ERRORS = DRIVER_ERRORS

    def __init__(self, db: PostgresDatabase) -> None:
        self._db = db

    @staticmethod
    async def _execute(conn: asyncpg.Connection, sql: str, params: Sequence[object]) -> int:
        return affected(await conn.execute(sql, *params))

    async def _rows_by_id(
        self,
        table: str,
        columns: str,
        ids: Sequence[str],
        where: Callable[[Params], str] | None = None,
    ) -> list[asyncpg.Record]:
        """Rows of `table` (`columns`, the id first) for these ids in the order given, unknown ids
        absent; `where` writes a clause narrowing them into the statement's parameters."""
        if not ids:
            return []
        p = Params(list(dict.fromkeys(ids)))
        clause = f" AND {where(p)}" if where is not None else ""
        rows = await self._db.fetch(f"SELECT {columns} FROM {table} WHERE id = ANY($1){clause}", p.values)
        found = {r[0]: r for r in rows}
        return [found[i] for i in ids if i in found]

    async def _by_id(self, sql: str, ids: Sequence[str]) -> dict[str, Any]:
        """`sql` selects (id, value) pairs for the ids in the array `$1`: value by id, {} for no ids."""
        if not ids:
            return {}
        return {r[0]: r[1] for r in await self._db.fetch(sql, (list(dict.fromkeys(ids)),))}

    async def _page(self, table: str, columns: str, after: str, limit: int) -> list[asyncpg.Record]:
        """`limit` rows of `table` (`columns`) in id order after the id `after`: a pass over it all."""
        return await self._db.fetch(
            f"SELECT {columns} FROM {table} WHERE id > $1 ORDER BY id LIMIT $2", (after, limit)
        )
