"""One LanceDB table: vector and full-text search pre-filtered by scope columns, with its RAM replica."""

from __future__ import annotations

import asyncio
import functools
import logging
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta
from typing import Any, TypeVar

import lancedb
import numpy as np
import pyarrow as pa
from lancedb.index import FTS, HnswSq
from lancedb.query import MatchQuery

from ...errors import EmbeddingError
from ...models import Audience
from ...scope import lance_audience_filter, quote_literal
from ..base import ScopeKey, VectorHit, fts_query_terms, scope_key
from ..text_analysis import query_terms
from .lance_rows import (
    _ID_CHUNK,
    _SCALAR_INDEXES,
    DEFAULT_CLEANUP_AFTER,
    OPTIMIZE_EVERY_ROWS,
    OPTIMIZE_EVERY_WRITES,
    TableSettings,
    VectorRecord,
    _chunks,
    _hits,
    _in_filter,
    _read,
    _unique,
    _vectors_of,
    vector_schema,
)
from .scope_index import COLUMNS as SCOPE_COLUMNS
from .scope_index import ScopeIndex, ScopeIndexes

log = logging.getLogger(__name__)

T = TypeVar("T")


def _cosine(distance: float | None) -> float | None:
    # LanceDB's cosine distance; a row it could not score (no distance, NaN) is no hit.
    return 1.0 - float(distance) if distance is not None and np.isfinite(distance) else None


def _ranked(result: pa.Table, dim: int, column: str, score: Callable[[Any], float | None]) -> list[VectorHit]:
    """The rows of a search result as hits, best first, scored from `column` (None drops a row)."""
    vectors = _vectors_of(result, dim)
    hits = []
    for n, (row_id, value) in enumerate(
        zip(result.column("id").to_pylist(), result.column(column).to_pylist(), strict=True)
    ):
        scored = score(value)
        if scored is not None:
            hits.append(VectorHit(id=row_id, score=scored, vector=vectors[n]))
    hits.sort(key=lambda h: h.score, reverse=True)
    return hits


class VectorTable:
    """One LanceDB table with scope columns; writes serialized by an asyncio.Lock per table."""

    def __init__(self, table: lancedb.AsyncTable, name: str, settings: TableSettings) -> None:
        self.name = name
        self.dim = settings.dim
        self.ann_threshold = settings.ann_threshold
        self._table = table
        # Scoped searches answered from RAM; every access runs on the one worker thread, in
        # order, so a search never sees a half-applied write and the event loop never computes.
        hot_rows = settings.hot_rows
        self._hot = ScopeIndexes(self.dim, hot_rows) if hot_rows > 0 else None
        self._hot_thread = (
            ThreadPoolExecutor(max_workers=1, thread_name_prefix=f"scope-{name}") if hot_rows > 0 else None
        )
        self._schema = vector_schema(self.dim)
        self._lock = asyncio.Lock()
        self._writes_since_optimize = 0
        self._rows_since_optimize = 0
        self._has_ann = False
        # Upper bound on the row count (deletes are not subtracted), to notice the ANN threshold
        # without counting rows on every write.
        self._approx_rows = 0
        # Set when a delete failed: rows of ids meant to be gone may remain (see `insert`).
        self._delete_failed = False

    @property
    def needs_optimize(self) -> bool:
        """True when the engine should schedule `optimize()`: many writes since, or the ANN index is due."""
        return (
            self._writes_since_optimize >= OPTIMIZE_EVERY_WRITES
            or self._rows_since_optimize >= OPTIMIZE_EVERY_ROWS
            or (not self._has_ann and self._approx_rows >= self.ann_threshold)
        )

    def _to_arrow(self, records: Sequence[VectorRecord]) -> pa.Table:
        vectors = np.empty((len(records), self.dim), dtype=np.float32)
        for row, record in enumerate(records):
            vec = np.asarray(record.vector, dtype=np.float32).reshape(-1)
            if vec.shape != (self.dim,):
                raise ValueError(
                    f"vector {record.id!r} has shape {vec.shape}; {self.name!r} expects ({self.dim},)"
                )
            vectors[row] = vec
        if not np.isfinite(vectors).all():
            # An embedder that returns NaN or infinity is broken; nothing it returns is stored.
            raise EmbeddingError(f"non-finite vector in a write to table {self.name!r}")
        columns: dict[str, pa.Array] = {
            "vector": pa.FixedSizeListArray.from_arrays(pa.array(vectors.reshape(-1)), self.dim)
        }
        for field in self._schema:
            if field.name != "vector":
                values = [getattr(r, field.name) for r in records]
                if pa.types.is_string(field.type):
                    # Arrow strings are UTF-8: one unpaired surrogate would fail the whole batch.
                    values = [v.encode("utf-8", "replace").decode("utf-8") if v else v for v in values]
                columns[field.name] = pa.array(values, type=field.type)
        return pa.table(columns, schema=self._schema)

    async def add(self, records: Sequence[VectorRecord]) -> None:
        """Insert rows; a row whose id already exists is replaced, so retried writes stay idempotent."""
        await self._write(records, replace=True)

    async def insert(self, records: Sequence[VectorRecord]) -> None:
        """Append rows whose ids are new to the table (a fresh id, or one deleted just before).

        LanceDB's merge joins every write against the whole id column (about 10 ms against 1.5 ms
        for an append, more as fragments pile up), and most writes are of rows just made. After a
        delete failed, a row of a forgotten id may remain, so writes replace again until restart.
        """
        await self._write(records, replace=self._delete_failed)

    async def _write(self, records: Sequence[VectorRecord], replace: bool) -> None:
        if not records:
            return
        # A batch must not carry the same id twice (the merge joins on id): the last one wins.
        latest = list({r.id: r for r in records}.values())
        data = self._to_arrow(latest)
        async with self._lock:
            if replace:
                result = await (
                    self._table.merge_insert("id")
                    .when_matched_update_all()
                    .when_not_matched_insert_all()
                    .execute(data)
                )
                inserted = result.num_inserted_rows
            else:
                await self._table.add(data)
                inserted = len(latest)
            self._writes_since_optimize += 1
            self._rows_since_optimize += len(latest)
            self._approx_rows += inserted
            await self._apply_to_hot(self._hot.upsert if self._hot else None, data)

    async def delete(self, ids: Sequence[str]) -> None:
        """Remove rows by id; unknown ids are ignored."""
        unique = _unique(ids)
        if not unique:
            return
        async with self._lock:
            for chunk in _chunks(unique, _ID_CHUNK):
                try:
                    await self._table.delete(_in_filter(chunk))
                except BaseException:
                    self._delete_failed = True
                    raise
                self._writes_since_optimize += 1
                await self._apply_to_hot(self._hot.delete if self._hot else None, chunk)

    async def rescope(self, ids: Sequence[str], visibility: str, channel_id: str) -> None:
        """Give these rows a new visibility and channel (a conversation found private after they
        were stored); the scopes in RAM that held them are dropped and reload on their next search."""
        unique = _unique(ids)
        if not unique:
            return
        values = {"visibility": visibility, "channel_id": channel_id}
        async with self._lock:
            try:
                for chunk in _chunks(unique, _ID_CHUNK):
                    await self._table.update(values, where=_in_filter(chunk))
                    self._writes_since_optimize += 1
            finally:
                # Even after a failed update: RAM must not keep columns LanceDB may have changed.
                await self._apply_to_hot(self._hot.drop_owners if self._hot else None, unique)

    async def search(self, vector: np.ndarray, where: str | None, k: int) -> list[VectorHit]:
        """The `k` rows nearest to `vector` by cosine among those matching `where`, best first."""
        if k <= 0:
            return []
        query_vec = np.asarray(vector, dtype=np.float32).reshape(-1)
        if query_vec.shape != (self.dim,):
            raise ValueError(f"query vector has shape {query_vec.shape}; {self.name!r} expects ({self.dim},)")

        async def run() -> pa.Table:
            query = (
                self._table.query()
                .nearest_to(query_vec)
                .distance_type("cosine")
                # With an ANN index: exact distances for the candidates (scores stay true cosine)
                # and, under a narrow filter, more partitions probed instead of fewer results.
                # Both are ignored by the flat search used below the ANN threshold.
                .refine_factor(2)
                .maximum_nprobes(0)
                .select(["id", "vector", "_distance"])
                .limit(k)
            )
            if where:
                query = query.where(where)  # prefilter is LanceDB's default: filter, then kNN
            return await query.to_arrow()

        return _ranked(await _read(run), self.dim, "_distance", _cosine)

    async def text_search(self, text: str, where: str | None, k: int) -> list[VectorHit]:
        """BM25 full-text search over `text` among rows matching `where`, best first.

        Any user string is accepted: it is reduced to its words first, and a query with no
        words (blank, punctuation, emoji) returns nothing.
        """
        terms = fts_query_terms(text)
        if not terms or k <= 0:
            return []

        async def run() -> pa.Table:
            # MatchQuery takes the terms literally; a bare string could be parsed as query syntax.
            query = (
                self._table.query()
                .nearest_to_text(MatchQuery(terms, "text"))
                .select(["id", "vector", "_score"])
                .limit(k)
            )
            if where:
                query = query.where(where)
            return await query.to_arrow()

        return _ranked(await _read(run), self.dim, "_score", float)

    # --- scoped search from RAM -----------------------------------------------------------------

    async def _in_hot_thread(self, fn: Callable[..., T], *args: object) -> T:
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._hot_thread, functools.partial(fn, *args))

    async def _apply_to_hot(self, apply: Callable[[Any], None] | None, rows: Any) -> None:
        """A committed write, applied to the scopes in RAM; if that fails they are all dropped
        (reloaded from LanceDB when next searched), never left behind the table."""
        if apply is None or self._hot is None:
            return
        try:
            await self._in_hot_thread(apply, rows)
        except Exception:
            log.warning(
                "lancedb table %s: search index dropped after a failed update", self.name, exc_info=True
            )
            await self._in_hot_thread(self._hot.clear)

    async def _load_scope(self, key: ScopeKey) -> None:
        """Read every row of `key` from LanceDB into RAM; under the write lock, so none is missed."""
        assert self._hot is not None
        platform, workspace_id, agent_id = key
        where = (
            f"platform = {quote_literal(platform)} AND workspace_id = {quote_literal(workspace_id)} "
            f"AND agent_id = {quote_literal(agent_id)}"
        )
        async with self._lock:
            if await self._in_hot_thread(self._hot.is_loaded, key):
                return

            async def run() -> pa.Table:
                return await self._table.query().where(where).select(SCOPE_COLUMNS).to_arrow()

            rows = await _read(run)
            await self._in_hot_thread(self._hot.load, key, rows)
            log.debug("lancedb table %s: scope loaded into RAM", self.name, extra={"rows": rows.num_rows})

    async def _hot_search(self, audience: Audience, how: Callable[..., T], *args: object) -> T | None:
        """`how` on the audience's scope in RAM (loading it first); None when it stays on LanceDB."""
        if self._hot is None:
            return None
        key = scope_key(audience)
        for _ in range(2):
            found = await self._in_hot_thread(self._hot.search, key, how, audience, *args)
            if found is not None:
                return found
            if await self._in_hot_thread(self._hot.is_too_large, key):
                return None
            await self._load_scope(key)
        return None

    def _query_vector(self, vector: np.ndarray) -> np.ndarray:
        query_vec = np.asarray(vector, dtype=np.float32).reshape(-1)
        if query_vec.shape != (self.dim,):
            raise ValueError(f"query vector has shape {query_vec.shape}; {self.name!r} expects ({self.dim},)")
        return query_vec

    async def search_visible(
        self,
        audience: Audience,
        vector: np.ndarray,
        k: int,
        now: float | None = None,
        visibility: str | None = None,
        said: tuple[float, float] | None = None,
    ) -> list[VectorHit]:
        """`search` among the rows `audience` may read (unexpired at `now` when given), exact, from RAM.

        `visibility` narrows to rows of that visibility only, `said` to rows created in [since, until).
        """
        query_vec = self._query_vector(vector)
        if k <= 0:
            return []
        found = await self._hot_search(audience, ScopeIndex.search, query_vec, k, now, visibility, said)
        if found is None:
            where = lance_audience_filter(audience, now)
            if visibility is not None:
                where += f" AND visibility = {quote_literal(visibility)}"
            if said is not None:
                where += f" AND created_at >= {float(said[0])!r} AND created_at < {float(said[1])!r}"
            return await self.search(query_vec, where, k)
        return _hits(found)

    async def text_search_visible(
        self, audience: Audience, text: str, k: int, now: float | None = None
    ) -> list[VectorHit]:
        """`text_search` among the rows `audience` may read (unexpired at `now` when given), from RAM."""
        terms = query_terms(text)
        if not terms or k <= 0:
            return []
        found = await self._hot_search(audience, ScopeIndex.text_search, terms, k, now)
        if found is None:
            return await self.text_search(text, lance_audience_filter(audience, now), k)
        return _hits(found)

    async def hybrid_search_visible(
        self, audience: Audience, vector: np.ndarray, text: str, k: int, now: float | None = None
    ) -> tuple[list[VectorHit], list[VectorHit]]:
        """`search_visible` and `text_search_visible` together: one pass over the scope in RAM."""
        query_vec = self._query_vector(vector)
        if k <= 0:
            return [], []
        found = await self._hot_search(audience, ScopeIndex.hybrid, query_vec, query_terms(text), k, now)
        if found is None:
            where = lance_audience_filter(audience, now)
            dense, lexical = await asyncio.gather(
                self.search(query_vec, where, k), self.text_search(text, where, k)
            )
            return dense, lexical
        return _hits(found[0]), _hits(found[1])

    async def warm(self) -> int:
        """Load the largest scopes into RAM up to the budget, so first searches do not pay for it.

        Returns the number of rows loaded.
        """
        if self._hot is None:
            return 0

        async def run() -> pa.Table:
            return await self._table.query().select(["platform", "workspace_id", "agent_id"]).to_arrow()

        scopes = (
            (await _read(run))
            .group_by(["platform", "workspace_id", "agent_id"])
            .aggregate([("platform", "count")])
        )
        counted = sorted(
            zip(
                scopes.column("platform").to_pylist(),
                scopes.column("workspace_id").to_pylist(),
                scopes.column("agent_id").to_pylist(),
                scopes.column("platform_count").to_pylist(),
                strict=True,
            ),
            key=lambda row: row[3],
            reverse=True,
        )
        loaded = 0
        for platform, workspace_id, agent_id, count in counted:
            if loaded + count > self._hot.max_rows:
                continue
            await self._load_scope((platform, workspace_id, agent_id))
            loaded += count
        return loaded

    async def get_vectors(self, ids: Sequence[str]) -> dict[str, np.ndarray]:
        """Stored vectors by id (unknown ids are absent); one query unless the list is huge."""
        unique = _unique(ids)
        found: dict[str, np.ndarray] = {}
        for chunk in _chunks(unique, _ID_CHUNK * 2):

            async def run(chunk: Sequence[str] = chunk) -> pa.Table:
                return await self._table.query().where(_in_filter(chunk)).select(["id", "vector"]).to_arrow()

            result = await _read(run)
            vectors = _vectors_of(result, self.dim)
            for n, row_id in enumerate(result.column("id").to_pylist()):
                found[row_id] = vectors[n]
        return found

    async def get_texts(self, ids: Sequence[str]) -> dict[str, str]:
        """The texts rows are indexed under, by id (unknown ids are absent)."""
        found: dict[str, str] = {}
        for chunk in _chunks(_unique(ids), _ID_CHUNK * 2):

            async def run(chunk: Sequence[str] = chunk) -> pa.Table:
                return await self._table.query().where(_in_filter(chunk)).select(["id", "text"]).to_arrow()

            result = await _read(run)
            found.update(zip(result.column("id").to_pylist(), result.column("text").to_pylist(), strict=True))
        return found

    async def ids(self) -> set[str]:
        """Every id in the table (used to reconcile with SQLite)."""

        async def run() -> pa.Table:
            return await self._table.query().select(["id"]).to_arrow()

        result = await _read(run)
        return set(result.column("id").to_pylist())

    async def count(self) -> int:
        """Number of rows."""
        return await _read(self._table.count_rows)

    async def optimize(self, cleanup_older_than: timedelta = DEFAULT_CLEANUP_AFTER) -> None:
        """Compact fragments, drop old versions, fold new rows into the indexes, add missing indexes."""
        async with self._lock:
            # The filter columns' indexes before the prune, so their commits go with the old
            # versions; the ANN index after the compaction, over the compacted rows.
            created = await self._create_missing_indexes(build_ann=False)
            await self._table.optimize(cleanup_older_than=cleanup_older_than)
            created += await self._create_missing_indexes()
            self._writes_since_optimize = 0
            self._rows_since_optimize = 0
            if created:
                log.info("lancedb table %s: created indexes %s", self.name, ", ".join(created))

    async def ensure_indexes(self) -> None:
        """Create missing indexes and bring existing ones up to date with rows added since.

        New rows are searchable before this runs (LanceDB scans unindexed rows), only slower.
        """
        async with self._lock:
            created = await self._create_missing_indexes()
            if any(index.num_unindexed_rows for index in await self._table.list_indices()):
                await self._table.optimize(cleanup_older_than=DEFAULT_CLEANUP_AFTER)
                self._writes_since_optimize = 0
                self._rows_since_optimize = 0
            if created:
                log.info("lancedb table %s: created indexes %s", self.name, ", ".join(created))

    async def _create_missing_indexes(self, build_ann: bool = True, filters: bool = True) -> list[str]:
        """Create whichever indexes are missing (the filter columns' too when `filters`); the
        caller holds the write lock."""
        indexed = {tuple(index.columns) for index in await self._table.list_indices()}
        created: list[str] = []
        if ("text",) not in indexed:
            # Native FTS (not tantivy): it also scans rows added after the index was built.
            await self._table.create_index("text", config=FTS())
            created.append("text")
        for column, kind in _SCALAR_INDEXES.items() if filters else ():
            if (column,) not in indexed:
                await self._table.create_index(column, config=kind())
                created.append(column)
        self._has_ann = ("vector",) in indexed
        self._approx_rows = await self._table.count_rows()
        if build_ann and not self._has_ann and self._approx_rows >= self.ann_threshold:
            # HNSW over scalar-quantised vectors: no sub-vector count that must divide the dim.
            await self._table.create_index("vector", config=HnswSq(distance_type="cosine"))
            self._has_ann = True
            created.append("vector")
        return created

    async def _prepare(self) -> None:
        """Create missing indexes at open and flag a pending optimize left by an earlier run.

        A due ANN index is left to `optimize()`: building one takes seconds and would delay start-up.
        So are the filter columns' indexes: rows written after an index is built stay outside it
        until an optimize, so built at open they would cover only the rows already there, which
        the first optimize indexes as well. Each is a commit (a new table version), and a new data
        directory paid a dozen of them at its first open.
        """
        async with self._lock:
            await self._create_missing_indexes(build_ann=False, filters=False)
            stats = await self._table.stats()
            fragments = stats["fragment_stats"]["num_small_fragments"]
            unindexed = max((ix.num_unindexed_rows for ix in await self._table.list_indices()), default=0)
            self._writes_since_optimize = fragments
            self._rows_since_optimize = unindexed

    @property
    def has_ann_index(self) -> bool:
        """Whether vector search goes through the ANN index rather than a flat scan."""
        return self._has_ann

    def close(self) -> None:
        """Release the table handle and the RAM copy; the store calls this on close."""
        self._table.close()
        if self._hot_thread is not None:
            self._hot_thread.shutdown(wait=False, cancel_futures=True)
