"""Profiles kept per person: read, updated as identity and preference memories arrive, rebuilt on forget."""

from __future__ import annotations

import asyncio
import dataclasses
import json
import logging
import time
from collections.abc import Callable, Sequence
from contextlib import AbstractAsyncContextManager

from ..engine import MemoryEngine
from ..models import Audience, Memory
from ..storage import Storage
from ..storage.base import write_lock_key
from .profile import PROFILE_TYPES, Profile, apply_facts, is_relevant, profile_facts, section_of

log = logging.getLogger(__name__)

_REBUILD_LIMIT = 500  # most important, then newest, memories replayed when a profile is rebuilt

Clock = Callable[[], float]
ProfileKey = tuple[str, str, str, str]


class ProfileStore:
    """Profiles in the `profiles` table (one JSON row per platform, workspace, user and agent)."""

    def __init__(self, storage: Storage, clock: Clock = time.time) -> None:
        # Profile rows are people's; they are rebuilt from the memories about the user.
        self.people = storage.people
        self.memories = storage.memories
        self.clock = clock
        self._storage = storage

    @classmethod
    def of(cls, engine: MemoryEngine) -> ProfileStore:
        """The profiles of the engine's storage, on the engine's clock."""
        return cls(engine.storage, engine.clock)

    def _lock(self, key: ProfileKey) -> AbstractAsyncContextManager[None]:
        # One read-modify-write at a time per profile, in every process sharing the storage.
        return self._storage.write_lock([write_lock_key("profile", *key)])

    async def get(self, platform: str, workspace_id: str, user_id: str, agent_id: str) -> Profile | None:
        """The stored profile, or None when nothing is known about the user."""
        found = await self.get_many(platform, workspace_id, [user_id], agent_id)
        return found.get(user_id)

    async def get_many(
        self, platform: str, workspace_id: str, user_ids: Sequence[str], agent_id: str
    ) -> dict[str, Profile]:
        """Profiles of several users (a channel's participants) in one query, by user id."""
        unique = list(dict.fromkeys(u for u in user_ids if u))[:500]
        if not unique:
            return {}
        # Scoped by platform, workspace and agent; the private section is left to `compact`.
        rows = await self.people.profiles(platform, workspace_id, agent_id, unique)
        out: dict[str, Profile] = {}
        for user_id, data, updated_at in rows:
            try:
                parsed = json.loads(str(data))
            except ValueError:
                log.warning("unreadable profile ignored", extra={"user_id": user_id})
                parsed = {}
            out[str(user_id)] = Profile.from_json(
                platform,
                workspace_id,
                str(user_id),
                agent_id,
                parsed,
                updated_at,
            )
        return out

    async def _save(self, profile: Profile) -> None:
        data = None if profile.is_empty() else json.dumps(profile.to_json(), ensure_ascii=False)
        await self.people.save_profile(
            profile.platform,
            profile.workspace_id,
            profile.user_id,
            profile.agent_id,
            data,
            profile.updated_at,
        )

    async def update_from_memory(self, memory: Memory) -> Profile | None:
        """Fold one written, superseded or forgotten memory into its user's profile.

        Returns the profile as it now stands, or None when the memory cannot touch a profile
        (or the profile is now empty). A new memory is applied in place (the newest statement
        wins); a forgotten or superseded one that the profile used triggers a rebuild from the
        store, so whatever it had overwritten comes back.
        """
        if not is_relevant(memory) or memory.user_id is None:
            return None
        key = (memory.platform, memory.workspace_id, memory.user_id, memory.agent_id)
        async with self._lock(key):
            if memory.forgotten or memory.superseded_by is not None or section_of(memory) is None:
                current = await self.get(*key)
                if current is None or memory.id not in current.memory_ids():
                    return current
                return await self._rebuild_locked(*key)
            if not memory.is_active(self.clock()):
                return None
            facts = profile_facts(memory)
            if not facts:
                return None
            profile = await self.get(*key) or Profile(*key)
            if apply_facts(profile, memory, facts):
                profile.updated_at = self.clock()
                await self._save(profile)
            return profile

    async def rebuild(self, platform: str, workspace_id: str, user_id: str, agent_id: str) -> Profile | None:
        """Recompute a profile from the user's active memories (after an import, or to repair one)."""
        async with self._lock((platform, workspace_id, user_id, agent_id)):
            return await self._rebuild_locked(platform, workspace_id, user_id, agent_id)

    async def _rebuild_locked(
        self, platform: str, workspace_id: str, user_id: str, agent_id: str
    ) -> Profile | None:
        # The user's own view: workspace memories plus the private ones they wrote themselves.
        audience = Audience(platform, workspace_id, agent_id, viewer_id=user_id, private_ok=True)
        profile = await self._build(audience, user_id)
        await self._save(profile)
        return None if profile.is_empty() else profile

    async def _build(self, audience: Audience, user_id: str) -> Profile:
        now = self.clock()
        memories = await self.memories.about(
            audience, now, [user_id], list(PROFILE_TYPES), limit=_REBUILD_LIMIT
        )
        profile = Profile(audience.platform, audience.workspace_id, user_id, audience.agent_id)
        # Oldest first, so a later fact wins. `about` lists memories of one instant by importance,
        # then the latest arrival first: reversed, the most important and then the latest come
        # last and win, whatever their (random) ids.
        for memory in sorted(reversed(memories), key=lambda m: m.created_at):
            apply_facts(profile, memory, profile_facts(memory))
        profile.updated_at = now
        return profile

    async def in_own_dm(self, audience: Audience) -> Profile | None:
        """The viewer's profile for a DM with them: their DM notes and what they said about
        themselves in the platform's other workspaces (`Audience.own_elsewhere`), read now.

        Not stored: the other workspaces' memories change without touching this DM's row.
        """
        if audience.viewer_id is None:
            return None
        profile = await self._build(audience, audience.viewer_id)
        return None if profile.is_empty() else profile


class ProfileUpdater:
    """Keeps profiles current: every memory the engine writes or forgets updates its user's profile.

    The engine's listeners are synchronous and sit on the write path, so the update is
    scheduled as a task on the running loop and never awaited there. `drain()` waits for the
    updates scheduled so far; `aclose()` also stops scheduling new ones (call it before
    closing the engine).
    """

    def __init__(self, engine: MemoryEngine, profiles: ProfileStore) -> None:
        self.profiles = profiles
        self._tasks: set[asyncio.Task[None]] = set()
        # The subset caused by forgotten memories: the next reply waits for these (`settle_forgets`).
        self._forgets: set[asyncio.Task[None]] = set()
        self._closed = False
        self.failures = 0
        engine.on_write(self._on_write)

    def _on_write(self, memory: Memory) -> None:
        if self._closed or not is_relevant(memory):
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            log.debug("profile update skipped: no running event loop", extra={"memory_id": memory.id})
            return
        # A copy: the caller may keep mutating its Memory after the listener returns.
        task = loop.create_task(self._update(dataclasses.replace(memory, subjects=list(memory.subjects))))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        if memory.forgotten:
            self._forgets.add(task)
            task.add_done_callback(self._forgets.discard)

    async def _update(self, memory: Memory) -> None:
        try:
            await self.profiles.update_from_memory(memory)
        except Exception:
            self.failures += 1
            log.warning("profile update failed", extra={"memory_id": memory.id}, exc_info=True)

    async def settle_forgets(self) -> None:
        """Wait for the profile updates of the memories forgotten so far.

        Cheap when nothing was forgotten; a reply awaits it so a profile line never shows a fact
        its user just had forgotten.
        """
        if self._forgets:
            await asyncio.gather(*list(self._forgets), return_exceptions=True)

    @property
    def pending(self) -> int:
        return len(self._tasks)

    async def drain(self) -> None:
        """Wait until every scheduled update has finished (including ones they led to)."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)

    async def aclose(self) -> None:
        self._closed = True
        await self.drain()
