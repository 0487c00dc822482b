"""LanceDB rows: the table schema, the record written per row, and helpers shared by the table code."""

from __future__ import annotations

import functools
import logging
import re
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from datetime import timedelta
from types import NoneType
from typing import TypeVar, get_args, get_type_hints

import numpy as np
import pyarrow as pa
from lancedb.index import Bitmap, BTree

from ...scope import quote_literal
from ..base import VectorHit
from .scope_index import Hit

log = logging.getLogger(__name__)

T = TypeVar("T")

SUMMARY_TABLE = "summaries"
DEFAULT_ANN_THRESHOLD = 50_000
# Rows per table kept in RAM for scoped search (`memory.scope_index`): 384-d vectors take
# ~1.5 KB a row, so the default holds ~300 MB per table at most; 0 keeps every search on LanceDB.
DEFAULT_HOT_ROWS = 200_000
# Every write leaves a fragment and each one costs every query ~0.15 ms (measured at 20k rows:
# 100 single-row writes took a filtered search from 6 to 23 ms), while an optimize takes ~0.2 s;
# compacting on the hot path would stall replies, so the engine schedules it from this flag.
OPTIMIZE_EVERY_WRITES = 100
# A bulk import leaves many rows outside the indexes (FTS falls back to a flat scan: ~25 ms
# at 20k rows instead of ~3 ms), so volume alone also asks for an optimize.
OPTIMIZE_EVERY_ROWS = 5_000
# Versions younger than this survive cleanup, so a read that started on an older version
# is not left without its files.
DEFAULT_CLEANUP_AFTER = timedelta(minutes=5)


@dataclass(frozen=True, slots=True)
class TableSettings:
    """What every table of one `VectorStore` is opened with: its vectors' size, the row count from
    which it builds an ANN index, and the rows per table of its RAM replica (`DEFAULT_HOT_ROWS`)."""

    dim: int
    ann_threshold: int = DEFAULT_ANN_THRESHOLD
    hot_rows: int = DEFAULT_HOT_ROWS


# Keeps `id IN (...)` filters to a size the SQL parser handles quickly.
_ID_CHUNK = 500
_TABLE_NAME = re.compile(r"^[A-Za-z0-9_][A-Za-z0-9_.-]{0,127}$")

# The Arrow type of each kind of `VectorRecord` field but the vector.
_ARROW_TYPES: dict[object, pa.DataType] = {str: pa.utf8(), float: pa.float64()}

# High-cardinality columns get a BTree; the few-valued ones a Bitmap.
_SCALAR_INDEXES: dict[str, type[BTree] | type[Bitmap]] = {
    "id": BTree,
    "workspace_id": BTree,
    "channel_id": BTree,
    "author_id": BTree,
    "agent_id": Bitmap,
    "platform": Bitmap,
    "visibility": Bitmap,
    "kind": Bitmap,
}


# Reading the type hints evaluates each annotation's text: once per dimension, not per table open.
@functools.cache
def vector_schema(dim: int) -> pa.Schema:
    """Arrow schema of every vector table: `VectorRecord`'s fields in order (the vector, its text and
    the scope columns filters need), so a column is declared once; an optional field is nullable."""
    fields = []
    for name, hint in get_type_hints(VectorRecord).items():
        if name == "vector":
            fields.append(pa.field(name, pa.list_(pa.float32(), dim), nullable=False))
            continue
        (kind,) = [t for t in get_args(hint) or (hint,) if t is not NoneType]
        fields.append(pa.field(name, _ARROW_TYPES[kind], nullable=NoneType in get_args(hint)))
    return pa.schema(fields)


@dataclass(frozen=True, slots=True)
class VectorRecord:
    """One row to write: the stored vector, the text it embeds and its scope."""

    id: str
    vector: np.ndarray  # float32, L2-normalised, shape (dim,)
    text: str
    platform: str
    workspace_id: str
    channel_id: str
    thread_id: str | None
    user_id: str | None
    author_id: str | None
    agent_id: str
    visibility: str
    kind: str  # memory_type for memories, role for messages, "summary" for summaries
    created_at: float
    expires_at: float | None


def _in_filter(ids: Sequence[str]) -> str:
    return "id IN (" + ", ".join(quote_literal(i) for i in ids) + ")"


def _chunks(items: Sequence[str], size: int) -> list[Sequence[str]]:
    return [items[i : i + size] for i in range(0, len(items), size)]


def _unique(items: Sequence[str]) -> list[str]:
    return list(dict.fromkeys(items))


def _vectors_of(table: pa.Table, dim: int) -> np.ndarray:
    """The `vector` column as one (n, dim) float32 array owned by numpy."""
    if table.num_rows == 0:
        return np.empty((0, dim), dtype=np.float32)
    column = table.column("vector").combine_chunks()
    flat = column.flatten().to_numpy(zero_copy_only=False)
    return np.array(flat, dtype=np.float32).reshape(table.num_rows, dim)


def _hits(found: Sequence[Hit]) -> list[VectorHit]:
    return [VectorHit(id=i, score=score, vector=v) for i, score, v in found]


async def _read(op: Callable[[], Awaitable[T]]) -> T:
    # Cleanup can remove the files of a version a read started on just before an optimize;
    # the retry reads the current version.
    try:
        return await op()
    except OSError:
        log.debug("lancedb read failed, retrying once", exc_info=True)
        return await op()
