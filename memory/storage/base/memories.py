"""The memory repository: rows, vectors and searches, always through an audience."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from ...models import Audience, Memory, MemoryType, Visibility

# What a backend calls to (re-)embed texts when it repairs rows stored without a vector.
Embed = Callable[[Sequence[str]], Awaitable[Sequence[np.ndarray]]]

# Where a read of memories puts the stored vector of each one it returns, by id (None: not wanted).
VectorSink = dict[str, np.ndarray] | None


@dataclass(slots=True)
class MemoryQuery:
    """Optional narrowing of a memory listing; every field is ANDed with the audience filter."""

    types: Sequence[MemoryType] | None = None
    min_importance: float | None = None
    min_confidence: float | None = None
    since: float | None = None
    until: float | None = None  # created before, as `since` is at or after
    channel_id: str | None = None
    user_ids: Sequence[str] | None = None
    subjects: Sequence[str] | None = None
    # Only rows of workspaces other than the audience's: what `Audience.own_elsewhere` adds.
    elsewhere: bool = False
    order: str = "recent"  # recent | important
    limit: int = 50
    offset: int = 0


@dataclass(frozen=True)
class MemoryRead:
    """One listing of `MemoryRepository.read_many`: its query."""

    query: MemoryQuery


def about_read(
    user_ids: Sequence[str], types: Sequence[MemoryType], min_confidence: float | None = None, limit: int = 20
) -> MemoryRead:
    """`MemoryRepository.about` as a read: these users' memories, most important then newest first."""
    query = MemoryQuery(
        types=types, min_confidence=min_confidence, user_ids=user_ids, order="important", limit=limit
    )
    return MemoryRead(query)


def between_read(since: float, until: float, channel_id: str | None = None, limit: int = 50) -> MemoryRead:
    """`MemoryRepository.between` as a read: memories created in [since, until), newest first."""
    return MemoryRead(MemoryQuery(since=since, until=until, channel_id=channel_id, limit=limit))


@dataclass(frozen=True, slots=True)
class VectorHit:
    """One search result; `vector` is the stored one, so callers never re-embed to compare."""

    id: str
    score: float  # cosine similarity for vector search, BM25 for text search
    vector: np.ndarray | None
    # The memory itself, when the search read its row in the same statement under the audience
    # filter (PostgreSQL): no second read by id is needed. None: read it through `visible`.
    memory: Memory | None = None


# (content_hash, platform, workspace_id, agent_id, visibility, channel_id, author_id)
HashMatch = tuple[str, str, str, str, str, str, str | None]


class MemoryRepository(ABC):
    """Memories: rows, their vectors and the searches over them, always through an audience.

    A write either stores the row and its vector or raises `MemoryWriteError` having stored
    neither; how both are kept together (one transaction, or two stores and a rollback) is the
    backend's business.
    """

    # --- writes

    @abstractmethod
    async def add(self, memory: Memory, vector: np.ndarray, supersedes: str | None, now: float) -> None:
        """Store a memory and its vector and, atomically with it, retire the one it `supersedes`."""

    @abstractmethod
    async def add_many(self, memories: Sequence[Memory], vectors: Sequence[np.ndarray]) -> None:
        """Store a batch (imports) all or nothing; raises MemoryWriteError when nothing was stored."""

    @abstractmethod
    async def rewrite(self, memory: Memory, vector: np.ndarray) -> None:
        """Store new wording (content, hash, subjects, updated_at) and its vector for a memory."""

    @abstractmethod
    async def restore(self, memory: Memory, vector: np.ndarray, now: float) -> None:
        """Make a superseded memory active and searchable again (the undo of a merge)."""

    @abstractmethod
    async def delete(self, ids: Sequence[str]) -> int:
        """Remove memories and their vectors for good; returns how many rows existed."""

    @abstractmethod
    async def rescope(self, ids: Sequence[str], channel_id: str) -> None:
        """Bring the search index of rows already narrowed to `channel_id` in line with them."""

    @abstractmethod
    async def bump_access(self, counts: Mapping[str, int], now: float) -> None:
        """Add `counts[id]` accesses to each memory, last accessed at `now`."""

    # --- reads

    @abstractmethod
    async def find_by_hash(
        self, content_hash: str, audience: Audience, now: float, visibility: Visibility
    ) -> Memory | None: ...

    @abstractmethod
    async def active_hash_matches(self, hashes: Sequence[str], now: float) -> set[HashMatch]:
        """Active rows carrying one of `hashes`: a bulk import decides exact duplicates from these."""

    @abstractmethod
    async def visible(self, ids: Sequence[str], audience: Audience, now: float) -> list[Memory]:
        """The subset of `ids` that `audience` may read, in the given order."""

    @abstractmethod
    async def get_unscoped(self, ids: Sequence[str]) -> list[Memory]:
        """Rows by id whoever may read them (forget, sweep, repairs), in the given order."""

    @abstractmethod
    async def superseded_unscoped(self, newer_id: str) -> Memory | None:
        """The memory that `newer_id` replaced, if any."""

    @abstractmethod
    async def merged_into(self, newer_ids: Sequence[str]) -> dict[str, str]:
        """newer id -> older id for each of `newer_ids` that superseded a memory."""

    async def query(
        self, audience: Audience, now: float, query: MemoryQuery, vectors: VectorSink = None
    ) -> list[Memory]:
        """Memories `audience` may read narrowed by `query`; `vectors` receives their stored vectors."""
        # Arrival breaks ties, so pages of rows written in the same instant never overlap or skip.
        return await self._select(audience, now, query, vectors)

    @abstractmethod
    async def count(self, audience: Audience, now: float, query: MemoryQuery | None = None) -> int: ...

    @abstractmethod
    async def count_by_type(self, audience: Audience, now: float) -> dict[str, int]: ...

    async def about(
        self,
        audience: Audience,
        now: float,
        user_ids: Sequence[str],
        types: Sequence[MemoryType],
        min_confidence: float | None = None,
        limit: int = 20,
        vectors: VectorSink = None,
    ) -> list[Memory]:
        """Memories about these users `audience` may read, most important then newest first."""
        if not user_ids or not types:
            return []
        read = about_read(user_ids, types, min_confidence, limit)
        return await self._select(audience, now, read.query, vectors)

    async def read_many(
        self, audience: Audience, now: float, reads: Sequence[MemoryRead], vectors: VectorSink = None
    ) -> list[list[Memory]]:
        """The rows of each of `reads`, in order, as `query` (or `about`, `between`) gives them; a
        backend may read them all in one statement."""
        return [await self._select(audience, now, r.query, vectors) for r in reads]

    async def between(
        self,
        audience: Audience,
        now: float,
        since: float,
        until: float,
        channel_id: str | None = None,
        limit: int = 50,
        vectors: VectorSink = None,
    ) -> list[Memory]:
        """Memories `audience` may read created in [since, until), newest first."""
        read = between_read(since, until, channel_id, limit)
        return await self._select(audience, now, read.query, vectors)

    @abstractmethod
    async def _select(
        self, audience: Audience, now: float, query: MemoryQuery, vectors: VectorSink
    ) -> list[Memory]:
        """`query`'s rows, most important or newest first as its `order` says; rows of one instant
        by arrival, the latest first (every backend numbers its rows as they are written)."""

    @abstractmethod
    async def embeddings(self, ids: Sequence[str]) -> dict[str, np.ndarray]:
        """Stored vectors by id: compared as they are, never recomputed."""

    @abstractmethod
    async def expired_ids(self, now: float) -> list[str]: ...

    # --- search

    @abstractmethod
    async def search(
        self, audience: Audience, vector: np.ndarray, k: int, now: float, visibility: str | None = None
    ) -> list[VectorHit]:
        """Nearest memories `audience` may see (of one `visibility` if given), best first."""

    @abstractmethod
    async def hybrid_search(
        self, audience: Audience, vector: np.ndarray, text: str, k: int, now: float
    ) -> tuple[list[VectorHit], list[VectorHit]]:
        """Dense and full-text hits under the audience filter, each best first."""

    async def hybrid_search_awaiting(
        self, audience: Audience, vector: Awaitable[np.ndarray], text: str, k: int, now: float
    ) -> tuple[list[VectorHit], list[VectorHit]]:
        """`hybrid_search` with the query vector still being computed (`vector`, a future several
        searches may await). Here it waits for the vector; a backend whose full-text search needs
        none starts that search first."""
        return await self.hybrid_search(audience, await vector, text, k, now)

    @abstractmethod
    async def indexed_count(self) -> int:
        """How many memories are searchable (benchmarks, metrics)."""
