"""In-RAM replica of a vector table per (platform, workspace, agent): exact cosine and BM25 search.

LanceDB stays the store of record; this is a read cache of its rows, kept in step by the table's
own writes. A pre-hook search touches one scope only, and a scope of tens of thousands of rows is
a single matrix product and a few posting lists away from its top k: about a millisecond, where
four LanceDB queries (plan, open, scan, filter) cost tens. The audience rules of
`memory.scope.lance_audience_filter` are applied as boolean masks over the scope's columns, and
callers still load the hits' rows through the SQL privacy filter.
"""

from __future__ import annotations

import math
from array import array
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TypeVar

import numpy as np
import pyarrow as pa

from ...models import Audience, Visibility
from ..base import BM25_B, BM25_K1, ScopeKey, bm25_idf
from ..text_analysis import analyze

Hit = tuple[str, float, np.ndarray]  # (id, score, stored vector)
T = TypeVar("T")

# A scope with this share of replaced or deleted rows is dropped and reloaded on its next search,
# which rebuilds its statistics and frees the slots.
_DEAD_SHARE_RELOAD = 0.25
_MIN_DEAD_RELOAD = 1_000
_VISIBILITY_CODE = {Visibility.WORKSPACE.value: 0, Visibility.CHANNEL.value: 1, Visibility.PRIVATE.value: 2}
_NO_CODE = -1
# What a scope keeps of a vector table's row (the text only for its terms).
COLUMNS = [
    "id",
    "vector",
    "text",
    "platform",
    "workspace_id",
    "agent_id",
    "channel_id",
    "author_id",
    "visibility",
    "expires_at",
    "created_at",
]


@dataclass(slots=True)
class _Postings:
    docs: array = field(default_factory=lambda: array("i"))
    counts: array = field(default_factory=lambda: array("f"))


class ScopeIndex:
    """The rows of one scope: vectors, the columns the audience rules read, and BM25 postings.

    Not thread-safe: `ScopeIndexes` runs every call of one table on one worker thread.
    """

    def __init__(self, key: ScopeKey, dim: int, capacity: int = 256) -> None:
        self.key = key
        self.dim = dim
        self.size = 0  # slots used, dead ones included
        self.dead = 0
        self.ids: list[str] = []
        self.slot: dict[str, int] = {}
        self._vectors = np.zeros((capacity, dim), dtype=np.float32)
        self._alive = np.zeros(capacity, dtype=bool)
        self._visibility = np.zeros(capacity, dtype=np.int8)
        self._channel = np.zeros(capacity, dtype=np.int32)
        self._author = np.zeros(capacity, dtype=np.int32)
        self._expires = np.zeros(capacity, dtype=np.float64)
        self._created = np.zeros(capacity, dtype=np.float64)
        self._length = np.zeros(capacity, dtype=np.float32)
        self._codes: dict[str, int] = {}
        self._postings: dict[str, _Postings] = {}
        self._live_length = 0.0

    @property
    def live(self) -> int:
        return self.size - self.dead

    @property
    def wants_reload(self) -> bool:
        return self.dead >= max(_MIN_DEAD_RELOAD, _DEAD_SHARE_RELOAD * self.size)

    def _code(self, value: str | None) -> int:
        if value is None:
            return _NO_CODE
        code = self._codes.get(value)
        if code is None:
            code = self._codes[value] = len(self._codes)
        return code

    def _grow(self, needed: int) -> None:
        capacity = len(self._alive)
        if needed <= capacity:
            return
        capacity = max(needed, capacity * 2)
        for name in (
            "_vectors",
            "_alive",
            "_visibility",
            "_channel",
            "_author",
            "_expires",
            "_created",
            "_length",
        ):
            old = getattr(self, name)
            new = np.zeros((capacity, *old.shape[1:]), dtype=old.dtype)
            new[: self.size] = old[: self.size]
            setattr(self, name, new)

    def add(self, batch: pa.Table) -> None:
        """Append rows (an Arrow table with `COLUMNS`); an id already here is replaced."""
        n = batch.num_rows
        if n == 0:
            return
        ids = batch.column("id").to_pylist()
        for row_id in ids:
            self.remove(row_id)
        start = self.size
        self._grow(start + n)
        flat = batch.column("vector").combine_chunks().flatten().to_numpy(zero_copy_only=False)
        vectors = np.asarray(flat, dtype=np.float32).reshape(n, self.dim)
        norms = np.linalg.norm(vectors, axis=1, keepdims=True)
        # Unit rows make a dot product the cosine LanceDB reports.
        self._vectors[start : start + n] = vectors / np.where(norms > 0, norms, 1.0)
        self._alive[start : start + n] = True
        self._visibility[start : start + n] = [
            _VISIBILITY_CODE.get(v, 2) for v in batch.column("visibility").to_pylist()
        ]
        self._channel[start : start + n] = [self._code(c) for c in batch.column("channel_id").to_pylist()]
        self._author[start : start + n] = [self._code(a) for a in batch.column("author_id").to_pylist()]
        expires = batch.column("expires_at").to_pylist()
        self._expires[start : start + n] = [math.inf if e is None else e for e in expires]
        self._created[start : start + n] = batch.column("created_at").to_pylist()
        for offset, (row_id, text) in enumerate(zip(ids, batch.column("text").to_pylist(), strict=True)):
            slot = start + offset
            self.ids.append(row_id)
            self.slot[row_id] = slot
            terms = analyze(text or "")
            self._length[slot] = len(terms)
            self._live_length += len(terms)
            counts: dict[str, int] = {}
            for term in terms:
                counts[term] = counts.get(term, 0) + 1
            for term, count in counts.items():
                postings = self._postings.get(term)
                if postings is None:
                    postings = self._postings[term] = _Postings()
                postings.docs.append(slot)
                postings.counts.append(count)
        self.size = start + n

    def remove(self, row_id: str) -> bool:
        """Mark a row dead; its slot and postings stay until the scope is reloaded."""
        slot = self.slot.pop(row_id, None)
        if slot is None:
            return False
        self._alive[slot] = False
        self._live_length -= float(self._length[slot])
        self.dead += 1
        return True

    def _mask(self, audience: Audience, now: float | None) -> np.ndarray:
        n = self.size
        visibility = self._visibility[:n]
        allowed = visibility == 0
        if audience.operator:
            allowed |= visibility == 1
        elif audience.channel_id is not None and audience.channel_id in self._codes:
            allowed |= (visibility == 1) & (self._channel[:n] == self._codes[audience.channel_id])
        if audience.private_ok and audience.viewer_id is not None and audience.viewer_id in self._codes:
            allowed |= (visibility == 2) & (self._author[:n] == self._codes[audience.viewer_id])
        allowed &= self._alive[:n]
        if now is not None:
            allowed &= self._expires[:n] > now
        return allowed

    def _top(self, scores: np.ndarray, k: int) -> list[Hit]:
        k = min(k, int(np.count_nonzero(np.isfinite(scores))))
        if k <= 0:
            return []
        if k < len(scores):
            # Every row tied with the k-th best is a candidate: ties go by arrival, then id, as
            # PostgreSQL's searches order them, not by where the partition happened to leave them.
            kth = np.partition(-scores, k - 1)[k - 1]
            top = np.flatnonzero(-scores <= kth)
        else:
            top = np.flatnonzero(np.isfinite(scores))
        ranked = sorted(
            top.tolist(), key=lambda s: (-float(scores[s]), float(self._created[s]), self.ids[s])
        )[:k]
        return [(self.ids[s], float(scores[s]), self._vectors[s].copy()) for s in ranked]

    def search(
        self,
        audience: Audience,
        vector: np.ndarray,
        k: int,
        now: float | None,
        visibility: str | None = None,
        said: tuple[float, float] | None = None,
    ) -> list[Hit]:
        """The `k` visible rows nearest to `vector` by cosine, best first: (id, cosine, stored vector).

        `visibility` narrows to rows of that visibility only, `said` to rows created in [since, until).
        """
        if k <= 0 or self.live == 0:
            return []
        query = np.asarray(vector, dtype=np.float32).reshape(-1)
        norm = float(np.linalg.norm(query))
        if norm == 0.0 or not math.isfinite(norm):
            return []
        mask = self._mask(audience, now)
        if visibility is not None:
            mask &= self._visibility[: self.size] == _VISIBILITY_CODE.get(visibility, _NO_CODE)
        if said is not None:
            created = self._created[: self.size]
            mask &= (created >= said[0]) & (created < said[1])
        slots = np.flatnonzero(mask)
        if slots.size == 0:
            return []
        scores = np.full(self.size, -np.inf, dtype=np.float32)
        if slots.size * 4 < self.size:
            # A narrow audience: score only its rows rather than the whole scope.
            scores[slots] = self._vectors[slots] @ (query / norm)
        else:
            scores = self._vectors[: self.size] @ (query / norm)
            scores[~mask] = -np.inf
        return self._top(scores, k)

    def text_search(self, audience: Audience, terms: Sequence[str], k: int, now: float | None) -> list[Hit]:
        """BM25 over the visible rows for the analysed `terms`, best first: (id, score, stored vector)."""
        live = self.live
        if k <= 0 or live == 0 or not terms:
            return []
        average = max(self._live_length / live, 1e-6)
        scores = np.zeros(self.size, dtype=np.float32)
        matched = False
        for term in dict.fromkeys(terms):
            postings = self._postings.get(term)
            if postings is None or not postings.docs:
                continue
            docs = np.frombuffer(postings.docs, dtype=np.int32)
            counts = np.frombuffer(postings.counts, dtype=np.float32)
            alive = self._alive[docs]
            frequency = int(np.count_nonzero(alive))
            if frequency == 0:
                continue
            matched = True
            idf = bm25_idf(live, frequency)
            norm = BM25_K1 * (1.0 - BM25_B + BM25_B * self._length[docs] / average)
            scores[docs] += idf * counts * (BM25_K1 + 1.0) / (counts + norm)
        if not matched:
            return []
        mask = self._mask(audience, now) & (scores > 0)
        scores = np.where(mask, scores, -np.inf).astype(np.float32)
        return self._top(scores, k)

    def hybrid(
        self, audience: Audience, vector: np.ndarray, terms: Sequence[str], k: int, now: float | None
    ) -> tuple[list[Hit], list[Hit]]:
        """`search` and `text_search` in one call."""
        return self.search(audience, vector, k, now), self.text_search(audience, terms, k, now)


class ScopeIndexes:
    """The loaded scopes of one table, least recently searched dropped first past `max_rows`.

    Writes reach only scopes already loaded (a scope not loaded is read whole from LanceDB when
    first searched). A scope larger than `max_rows` is never loaded: its searches stay on LanceDB.
    """

    def __init__(self, dim: int, max_rows: int) -> None:
        self.dim = dim
        self.max_rows = max_rows
        self._scopes: OrderedDict[ScopeKey, ScopeIndex] = OrderedDict()
        self._owner: dict[str, ScopeKey] = {}
        self._too_large: set[ScopeKey] = set()

    @property
    def rows(self) -> int:
        return sum(s.size for s in self._scopes.values())

    def get(self, key: ScopeKey) -> ScopeIndex | None:
        scope = self._scopes.get(key)
        if scope is None:
            return None
        if scope.wants_reload:
            self.drop(key)
            return None
        self._scopes.move_to_end(key)
        return scope

    def is_loaded(self, key: ScopeKey) -> bool:
        return key in self._scopes

    def is_too_large(self, key: ScopeKey) -> bool:
        return key in self._too_large

    def search(self, key: ScopeKey, how: Callable[..., T], audience: Audience, *args: object) -> T | None:
        """`how` (a `ScopeIndex` search method) on a loaded scope; None if it is not loaded."""
        scope = self.get(key)
        return None if scope is None else how(scope, audience, *args)

    def drop(self, key: ScopeKey) -> None:
        scope = self._scopes.pop(key, None)
        if scope is not None:
            for row_id in scope.slot:
                self._owner.pop(row_id, None)

    def drop_owners(self, ids: Sequence[str]) -> None:
        """Drop every loaded scope holding one of these rows (it reloads on its next search)."""
        for key in {self._owner[i] for i in ids if i in self._owner}:
            self.drop(key)

    def clear(self) -> None:
        self._scopes.clear()
        self._owner.clear()

    def load(self, key: ScopeKey, rows: pa.Table) -> ScopeIndex | None:
        """Build `key` from all its rows; None (and remembered) when it alone exceeds the budget."""
        self.drop(key)
        if rows.num_rows > self.max_rows:
            self._too_large.add(key)
            return None
        self._too_large.discard(key)
        scope = ScopeIndex(key, self.dim, capacity=max(256, rows.num_rows))
        scope.add(rows)
        self._scopes[key] = scope
        for row_id in scope.slot:
            self._owner[row_id] = key
        while self.rows > self.max_rows and len(self._scopes) > 1:
            oldest = next(iter(self._scopes))
            self.drop(oldest)
        return scope

    def upsert(self, rows: pa.Table) -> None:
        """Apply written rows to the loaded scopes they belong to (moving any that changed scope)."""
        if rows.num_rows == 0:
            return
        self.delete(rows.column("id").to_pylist())
        keys = list(
            zip(
                rows.column("platform").to_pylist(),
                rows.column("workspace_id").to_pylist(),
                rows.column("agent_id").to_pylist(),
                strict=True,
            )
        )
        by_scope: dict[ScopeKey, list[int]] = {}
        for n, key in enumerate(keys):
            if key in self._scopes:
                by_scope.setdefault(key, []).append(n)
        for key, positions in by_scope.items():
            scope = self._scopes[key]
            scope.add(rows.take(positions))
            for n in positions:
                self._owner[rows.column("id")[n].as_py()] = key
            if scope.size > self.max_rows:
                self.drop(key)
                self._too_large.add(key)

    def delete(self, ids: Sequence[str]) -> None:
        for row_id in ids:
            key = self._owner.pop(row_id, None)
            if key is not None and key in self._scopes:
                self._scopes[key].remove(row_id)
