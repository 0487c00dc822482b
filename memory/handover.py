"""A conversation handed between the processes sharing a storage: its lock, the state left for the
next process, and the catch-up on what the others changed."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from contextlib import AbstractAsyncContextManager

from .storage import ChangeListener, EventLog, Storage


class Handover:
    """What the bot needs of the storage to answer a conversation that other processes answer too.

    The saved state is opaque here (a JSON document and its vectors' bytes): the bot and the
    pre-hook say what goes in it. With a storage only one process uses (`shared` false) nothing
    is saved, and the lock is an asyncio lock of this process.
    """

    def __init__(self, storage: Storage, clock: Callable[[], float]) -> None:
        self._storage = storage
        self._clock = clock

    @property
    def shared(self) -> bool:
        """True when other processes may answer the same conversations (PostgreSQL)."""
        return self._storage.shared

    def hold(self, key: str) -> AbstractAsyncContextManager[None]:
        """Conversation `key`, one turn at a time in every process sharing the storage."""
        return self._storage.channel_lock(key)

    async def watch(self, listener: ChangeListener) -> None:
        """Call `listener` with every memory change any process sharing the storage makes."""
        await self._storage.watch(listener)

    def events(self, *, ttl_seconds: float) -> EventLog | None:
        """The platform event log kept in the storage, shared by its processes; None: keep your own."""
        return self._storage.events(ttl_seconds=ttl_seconds)

    async def catch_up(self) -> None:
        """Return once what other processes committed before the call has reached this one's RAM."""
        await self._storage.catch_up()

    async def saved(self, key: str) -> tuple[str, bytes] | None:
        """The state conversation `key` was left in by the last process that answered it, if any."""
        return await self._storage.channel_state(key)

    async def save(self, key: str, document: str, vectors: bytes) -> None:
        """Leave conversation `key`'s state for the next process answering it."""
        await self._storage.save_channel_state(key, document, vectors, self._clock())

    async def still_remembered(self, memory_ids: Sequence[str]) -> set[str]:
        """Those of `memory_ids` whose memories exist and are not forgotten (by any process)."""
        rows = await self._storage.memories.get_unscoped(list(memory_ids)) if memory_ids else []
        return {m.id for m in rows if not m.forgotten}
