"""Short-lived cache of each user's active preferences, dropped whenever one of them is written."""

from __future__ import annotations

import asyncio
import time
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import KW_ONLY, dataclass, field
from typing import NamedTuple

import numpy as np

from ..models import Audience, Memory, MemoryType
from ..storage import MemoryRepository

Clock = Callable[[], float]


class UserKey(NamedTuple):
    platform: str
    workspace_id: str
    agent_id: str
    user_id: str


class _View(NamedTuple):
    """The parts of an audience that change which preferences are visible.

    Private rows depend on the viewer only where private results are allowed, so every
    viewer of a shared channel shares one entry.
    """

    channel_id: str | None
    private_ok: bool
    viewer_id: str | None
    operator: bool


@dataclass(slots=True)
class _Entry:
    expires_at: float
    memories: list[Memory]
    vectors: dict[str, np.ndarray]


def _view(audience: Audience) -> _View:
    private = audience.private_ok and audience.viewer_id is not None
    return _View(audience.channel_id, private, audience.viewer_id if private else None, audience.operator)


@dataclass(eq=False)
class PreferencesCache:
    """Active preferences (confidence ≥ `min_confidence`, top `limit`) per (platform, workspace, agent, user).

    Entries live `ttl` seconds by the injected clock, and a user's entries are dropped at once
    by `invalidate(memory)` — wire it to `MemoryEngine.on_write` so a new, superseded or
    forgotten preference is never served stale. Each user's entry is split by audience view,
    so the SQL privacy filter stays the only place that decides visibility.
    """

    memories: MemoryRepository
    clock: Clock = time.time
    _: KW_ONLY
    min_confidence: float = 0.6
    limit: int = 5
    ttl: float = 300.0
    max_users: int = 10_000
    hits: int = field(default=0, init=False)
    misses: int = field(default=0, init=False)
    invalidations: int = field(default=0, init=False)
    _entries: OrderedDict[UserKey, dict[_View, _Entry]] = field(
        default_factory=OrderedDict, init=False, repr=False
    )
    _next_collect: float = field(default=0.0, init=False, repr=False)
    # Bumped on every invalidation: a load that overlapped any write is returned but not cached
    # (one counter, not one per user, so nothing grows with the number of writers).
    _generation: int = field(default=0, init=False, repr=False)

    def __len__(self) -> int:
        return sum(len(views) for views in self._entries.values())

    async def get(
        self, audience: Audience, user_id: str, vectors: dict[str, np.ndarray] | None = None
    ) -> list[Memory]:
        """`user_id`'s active preferences visible to `audience`, best first (cached).

        `vectors`, when given, receives their stored vectors (cached with them).
        """
        now = self.clock()
        self._maybe_collect(now)
        key = UserKey(audience.platform, audience.workspace_id, audience.agent_id, user_id)
        view = _view(audience)
        views = self._entries.get(key)
        entry = views.get(view) if views is not None else None
        if entry is not None and entry.expires_at > now:
            self.hits += 1
            self._entries.move_to_end(key)
            # A cached preference may have reached its own expiry since it was loaded.
            active = [m for m in entry.memories if m.is_active(now)]
            if vectors is not None:
                vectors.update((m.id, entry.vectors[m.id]) for m in active if m.id in entry.vectors)
            return active
        self.misses += 1
        generation = self._generation
        found: dict[str, np.ndarray] = {}
        memories = await self.memories.about(
            audience, now, [user_id], [MemoryType.PREFERENCE], self.min_confidence, self.limit, vectors=found
        )
        if vectors is not None:
            vectors.update(found)
        # A DM's view also holds the viewer's preferences of other workspaces, which writes there
        # would not invalidate under this key: it is read fresh every time.
        if self._generation == generation and not audience.reaches_elsewhere:
            self._entries.setdefault(key, {})[view] = _Entry(now + self.ttl, memories, found)
            self._entries.move_to_end(key)
            while len(self._entries) > self.max_users:
                self._entries.popitem(last=False)
        return list(memories)

    async def get_many(
        self, audience: Audience, user_ids: Sequence[str], vectors: dict[str, np.ndarray] | None = None
    ) -> list[Memory]:
        """Preferences of several users (a channel's participants), concatenated in user order."""
        unique = list(dict.fromkeys(u for u in user_ids if u))
        if not unique:
            return []
        results = await asyncio.gather(*(self.get(audience, u, vectors) for u in unique))
        return [m for memories in results for m in memories]

    def invalidate(self, memory: Memory) -> None:
        """Drop cached preferences of the user `memory` is about, if it is a preference.

        Meant for `MemoryEngine.on_write`, which reports inserts, supersedes and forgets.
        """
        if memory.memory_type is not MemoryType.PREFERENCE or memory.user_id is None:
            return
        self.invalidate_user(memory.platform, memory.workspace_id, memory.agent_id, memory.user_id)

    def invalidate_user(self, platform: str, workspace_id: str, agent_id: str, user_id: str) -> None:
        key = UserKey(platform, workspace_id, agent_id, user_id)
        self._generation += 1
        if self._entries.pop(key, None) is not None:
            self.invalidations += 1

    def clear(self) -> None:
        self._entries.clear()
        self._generation += 1

    def collect_expired(self, now: float | None = None) -> int:
        """Remove every expired entry; returns how many were removed."""
        at = self.clock() if now is None else now
        removed = 0
        for key in list(self._entries):
            views = self._entries[key]
            for view in [v for v, e in views.items() if e.expires_at <= at]:
                del views[view]
                removed += 1
            if not views:
                del self._entries[key]
        return removed

    def _maybe_collect(self, now: float) -> None:
        # A full sweep at most once per TTL keeps reads O(1) amortised and memory bounded by use.
        if now >= self._next_collect:
            self.collect_expired(now)
            self._next_collect = now + max(self.ttl, 1.0)
