"""What both backends' table classes share: the driver's errors and the transactions of shared writes."""

from __future__ import annotations

import functools
from abc import ABC, abstractmethod
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from contextlib import AbstractAsyncContextManager, AbstractContextManager, asynccontextmanager
from typing import Any, ClassVar, Protocol

from ...errors import StorageError
from .errors import reraise

# One statement of the backend's dialect with its bound values, run in the transaction
# `Tables._writing` opened; returns how many rows it changed.
Write = Callable[[str, Sequence[object]], Awaitable[int]]


class Database(Protocol):
    """A backend's database, as far as these writes use it."""

    def transaction(self) -> AbstractAsyncContextManager[Any]:
        """One atomic write; yields the driver's connection."""
        ...


class Tables(ABC):
    """The SQL of some tables over a backend's database. The base repositories' shared methods,
    which know no driver, run their writes and report its errors through these."""

    _db: Database
    # The driver's errors, which `_failing` turns into a `StorageError`.
    _DRIVER_ERRORS: ClassVar[type[BaseException] | tuple[type[BaseException], ...]]

    def _failing(self, what: str, error: type[StorageError] = StorageError) -> AbstractContextManager[None]:
        """Inside: the driver's error becomes `error` ("`what`: cause")."""
        return reraise(self._DRIVER_ERRORS, what, error)

    @staticmethod
    @abstractmethod
    async def _execute(conn: Any, sql: str, params: Sequence[object]) -> int:
        """Run one statement on the driver's connection `conn`; returns how many rows it changed."""

    @asynccontextmanager
    async def _writing(self) -> AsyncIterator[Write]:
        """One transaction, its statements run through the `Write` it yields."""
        async with self._db.transaction() as conn:
            yield functools.partial(self._execute, conn)

    async def _write_many(self, sql: str, rows: Sequence[Sequence[object]]) -> None:
        """Run `sql` once per row of `rows`, all in one transaction."""
        async with self._db.transaction() as conn:
            await conn.executemany(sql, rows)
