"""The LanceDB database of the embedded backend: `memories`, `messages` and `summaries` tables."""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path

import lancedb
import pyarrow as pa

from ...errors import ConfigError, StorageError
from ..base import VectorHit, fts_query_terms
from .lance_rows import (
    _TABLE_NAME,
    DEFAULT_ANN_THRESHOLD,
    DEFAULT_HOT_ROWS,
    OPTIMIZE_EVERY_WRITES,
    SUMMARY_TABLE,
    TableSettings,
    VectorRecord,
    vector_schema,
)
from .vector_table import VectorTable

__all__ = [
    "DEFAULT_HOT_ROWS",
    "OPTIMIZE_EVERY_WRITES",
    "VectorHit",
    "VectorRecord",
    "VectorStore",
    "VectorTable",
    "fts_query_terms",
]

log = logging.getLogger(__name__)


class VectorStore:
    """The LanceDB database under a directory: `memories` and `messages` tables, more opened by name."""

    def __init__(self, db: lancedb.AsyncConnection, path: Path, settings: TableSettings) -> None:
        self.path = path
        self.settings = settings
        self._db = db
        self._tables: dict[str, VectorTable] = {}
        self._open_lock = asyncio.Lock()
        self._closed = False

    @classmethod
    async def open(
        cls,
        path: str | Path,
        dim: int,
        ann_threshold: int = DEFAULT_ANN_THRESHOLD,
        hot_rows: int = DEFAULT_HOT_ROWS,
    ) -> VectorStore:
        """Open (creating if needed) the database and its `memories` and `messages` tables."""
        if dim <= 0:
            raise ValueError(f"vector dim must be positive, got {dim}")
        root = Path(path)
        await asyncio.to_thread(root.mkdir, parents=True, exist_ok=True)
        db = await lancedb.connect_async(str(root))
        store = cls(db, root, TableSettings(dim, ann_threshold, hot_rows))
        try:
            store.memories = await store.table("memories")
            store.messages = await store.table("messages")
        except BaseException:
            db.close()
            raise
        return store

    memories: VectorTable
    messages: VectorTable

    async def summaries(self) -> VectorTable:
        """The conversation summaries' table (opened on first use)."""
        return await self.table(SUMMARY_TABLE)

    async def table(self, name: str) -> VectorTable:
        """Open or create the table `name` with the shared schema (e.g. "summaries")."""
        if self._closed:
            raise RuntimeError("VectorStore is closed")
        if not _TABLE_NAME.match(name):
            raise ValueError(f"invalid vector table name {name!r}")
        async with self._open_lock:
            if name in self._tables:
                return self._tables[name]
            schema = vector_schema(self.settings.dim)
            try:
                raw = await self._db.open_table(name)
            except ValueError:
                raw = None
            if raw is None:
                raw = await self._db.create_table(name, schema=schema, exist_ok=True)
            else:
                _check_schema(name, await raw.schema(), schema, self.settings.dim)
            table = VectorTable(raw, name, self.settings)
            await table._prepare()
            self._tables[name] = table
            return table

    async def close(self) -> None:
        """Release every table and the connection; further use raises."""
        if self._closed:
            return
        self._closed = True
        for table in self._tables.values():
            table.close()
        self._tables.clear()
        self._db.close()


def _check_schema(name: str, actual: pa.Schema, expected: pa.Schema, dim: int) -> None:
    """Refuse a table written with another embedding size or layout, naming what differs."""
    if "vector" in actual.names:
        vtype = actual.field("vector").type
        stored = getattr(vtype, "list_size", None)
        if stored != dim:
            raise ConfigError(
                f"LanceDB table {name!r} stores {stored}-dimensional vectors but the store was opened "
                f"with dim={dim}; re-embed into a new data directory or use the matching embedding model"
            )
    missing = [f.name for f in expected if f.name not in actual.names]
    if missing:
        raise StorageError(f"LanceDB table {name!r} lacks columns {missing}; not created by this version")
