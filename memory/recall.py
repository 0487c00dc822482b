"""The engine's read side: hybrid search over memories and turns, and the listings commands show."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from .embedders import Embedder, embed_query
from .models import Audience, Memory, MemoryType, Scope, StoredMessage
from .storage import MemoryQuery, Storage, VectorHit
from .ttl import parse_duration

# A DM reaches the viewer's own shared memories of other workspaces: at most this many of them
# (the most important, then the newest) are compared with the query.
OWN_ELSEWHERE_LIMIT = 200


@dataclass(slots=True)
class SearchHit:
    memory: Memory
    score: float
    vector: np.ndarray | None = None
    lexical: bool = False  # also matched by full-text search


class MemoryReads:
    """Every read of memories and turns through an audience; `MemoryEngine` adds the writes."""

    storage: Storage
    embedder: Embedder
    clock: Callable[[], float]

    async def _query_vector(self, query: str, vector: np.ndarray | None) -> np.ndarray:
        # Callers that embedded the query already (the pre-hook) pass its vector along.
        return vector if vector is not None else await embed_query(self.embedder, query)

    async def search(
        self,
        query: str,
        audience: Audience,
        limit: int = 10,
        threshold: float = 0.5,
        vector: np.ndarray | None = None,
    ) -> list[SearchHit]:
        """Hybrid search: vector kNN and full text, pre-filtered by scope, rows loaded in one query."""
        if not query.strip():
            return []
        now = self.clock()
        vector = await self._query_vector(query, vector)
        k = max(limit * 2, 20)
        dense, lexical = await self.storage.memories.hybrid_search(audience, vector, query, k, now)
        if audience.reaches_elsewhere:
            dense = [*dense, *await self.own_elsewhere_hits(audience, vector, now)]
        return await self._fuse(dense, lexical, audience, vector, now, limit, threshold)

    async def own_elsewhere_hits(self, audience: Audience, vector: np.ndarray, now: float) -> list[VectorHit]:
        """The viewer's own shared memories of other workspaces (a DM's extra reach), by cosine.

        They live in other workspaces' search scopes, so they are read from SQLite (the viewer's
        most important and newest, with their stored vectors) and compared here.
        """
        stored: dict[str, np.ndarray] = {}
        own = await self.storage.memories.query(
            audience,
            now,
            MemoryQuery(elsewhere=True, order="important", limit=OWN_ELSEWHERE_LIMIT),
            stored,
        )
        query = np.asarray(vector, dtype=np.float32)
        return [VectorHit(m.id, float(stored[m.id] @ query), stored[m.id]) for m in own if m.id in stored]

    async def _fuse(
        self,
        dense: Sequence[object],
        lexical: Sequence[object],
        audience: Audience,
        vector: np.ndarray,
        now: float,
        limit: int,
        threshold: float,
    ) -> list[SearchHit]:
        cosine = {h.id: (h.score, h.vector) for h in dense}  # type: ignore[attr-defined]
        lexical_rank = {h.id: rank for rank, h in enumerate(lexical)}  # type: ignore[attr-defined]
        missing = [i for i in lexical_rank if i not in cosine]
        if missing:
            # Text-only hits get their cosine from the stored vector, never a recomputed one.
            stored = await self.storage.memories.embeddings(missing)
            for mid, vec in stored.items():
                cosine[mid] = (float(vec @ vector), vec)
        scored = []
        for mid, (cos, vec) in cosine.items():
            # A full-text match lifts a hit a little: exact names and rare words matter.
            bonus = 0.1 / (1 + lexical_rank[mid]) if mid in lexical_rank else 0.0
            scored.append((cos + bonus, mid, vec))
        scored.sort(reverse=True)
        kept = [(s, mid, vec) for s, mid, vec in scored if s >= threshold]
        rows = {
            m.id: m for m in await self.storage.memories.visible([mid for _, mid, _ in kept], audience, now)
        }
        hits = [
            SearchHit(rows[mid], score, vec, mid in lexical_rank) for score, mid, vec in kept if mid in rows
        ]
        return hits[:limit]

    async def search_messages(
        self,
        query: str,
        audience: Audience,
        limit: int = 5,
        threshold: float = 0.5,
        vector: np.ndarray | None = None,
        exclude: Sequence[str] = (),
    ) -> list[tuple[StoredMessage, float]]:
        """Past turns similar to `query`, within the audience's scope, best first."""
        if not query.strip():
            return []
        vector = await self._query_vector(query, vector)
        hits = await self.storage.turns.search(audience, vector, limit + len(exclude))
        skip = set(exclude)
        kept = [(h.id, h.score) for h in hits if h.score >= threshold and h.id not in skip]
        # The SQL rows decide, as for memories: a vector row with stale scope columns never leaks.
        rows = {m.id: m for m in await self.storage.turns.visible([i for i, _ in kept], audience)}
        return [(rows[i], score) for i, score in kept if i in rows][:limit]

    async def list_memories(self, audience: Audience, query: MemoryQuery | None = None) -> list[Memory]:
        return await self.storage.memories.query(audience, self.clock(), query or MemoryQuery())

    async def count_memories(self, audience: Audience, query: MemoryQuery | None = None) -> int:
        """How many memories `audience` may see (that match `query`)."""
        return await self.storage.memories.count(audience, self.clock(), query)

    async def count_by_type(self, audience: Audience) -> dict[str, int]:
        """Memories `audience` may see, counted by type (types with none are left out)."""
        return await self.storage.memories.count_by_type(audience, self.clock())

    async def visible_memory(self, memory_id: str, audience: Audience) -> Memory | None:
        """The memory, if `audience` may see it."""
        found = await self.storage.memories.visible([memory_id], audience, self.clock())
        return found[0] if found else None

    async def merge_of(self, memory_id: str, audience: Audience) -> Memory | None:
        """The memory `audience` may see that a merge named by `memory_id` produced: the memory
        itself, or the one that replaced it when `memory_id` is the older note (for undo)."""
        newer = await self.visible_memory(memory_id, audience)
        if newer is None:
            found = await self.storage.memories.get_unscoped([memory_id])
            older = found[0] if found else None
            if older is not None and older.superseded_by is not None:
                newer = await self.visible_memory(older.superseded_by, audience)
        return newer

    async def merged_into(self, newer_ids: Sequence[str]) -> dict[str, str]:
        """For each of `newer_ids` (already read through an audience) that replaced an older note:
        newer id -> older id."""
        return await self.storage.memories.merged_into(newer_ids)

    async def recent_turns(self, scope: Scope, limit: int) -> list[StoredMessage]:
        """The conversation's (or its thread's) last `limit` turns, oldest first."""
        return await self.storage.turns.recent(scope, limit)

    async def by_subject(self, audience: Audience, subjects: Sequence[str], limit: int = 50) -> list[Memory]:
        return await self.list_memories(audience, MemoryQuery(subjects=subjects, limit=limit))

    async def recent(
        self, audience: Audience, duration: str, channel_id: str | None = None, limit: int = 50
    ) -> list[Memory]:
        since = self.clock() - parse_duration(duration)
        return await self.list_memories(
            audience, MemoryQuery(since=since, channel_id=channel_id, limit=limit)
        )

    async def by_type(self, audience: Audience, memory_type: MemoryType, limit: int = 50) -> list[Memory]:
        return await self.list_memories(audience, MemoryQuery(types=[memory_type], limit=limit))

    async def important(self, audience: Audience, threshold: float = 0.8, limit: int = 50) -> list[Memory]:
        return await self.list_memories(
            audience, MemoryQuery(min_importance=threshold, order="important", limit=limit)
        )
