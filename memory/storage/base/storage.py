"""`Storage`: one backend's repositories over one database, and its upkeep."""

from __future__ import annotations

import logging
from abc import ABC, abstractmethod
from collections.abc import AsyncIterator, Mapping, Sequence
from contextlib import AsyncExitStack, asynccontextmanager
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from ...errors import StorageError
from .changes import ChangeListener
from .conversations import ConversationRepository
from .events import EventLog
from .locks import KeyedLocks
from .memories import Embed, MemoryRepository
from .people import PeopleRepository
from .summaries import SummaryRepository
from .turns import TurnRepository

log = logging.getLogger(__name__)


# The tables a migration copies, in the order it copies them, and the column of each that links
# a row to another row of its table (written once every row is there, see `Storage.set_links`).
MIGRATED_TABLES = ("memories", "messages", "summaries", "profiles", "aliases", "conversation_kinds")
LINK_COLUMNS = {"memories": "superseded_by", "summaries": "condensed_into"}


@dataclass(slots=True)
class ReconcileReport:
    """What a start-up reconcile repaired: rows indexed again, vectors without a row removed."""

    memory_rows_repaired: int = 0
    memory_vectors_removed: int = 0
    message_rows_repaired: int = 0
    message_vectors_removed: int = 0
    superseded_restored: int = 0
    details: list[str] = field(default_factory=list)


class Storage(ABC):
    """One backend: the repositories over one database, and its upkeep."""

    memories: MemoryRepository
    turns: TurnRepository
    summaries: SummaryRepository
    people: PeopleRepository
    conversations: ConversationRepository

    @abstractmethod
    async def close(self) -> None: ...

    @abstractmethod
    async def reconcile(self, embed: Embed) -> ReconcileReport:
        """Make what is stored searchable after a crash: index rows without vectors, drop stray vectors."""

    @property
    @abstractmethod
    def needs_maintenance(self) -> bool: ...

    async def repair_turns(self, embed: Embed) -> int:
        """Index the turns stored without a vector; returns how many (queued again if it fails)."""
        self.turns.repair_due = False
        try:
            repaired = await self._index_turns(embed)
        except BaseException:
            self.turns.repair_due = True
            raise
        if repaired:
            log.info("message vectors repaired", extra={"count": repaired})
        return repaired

    async def repair_turns_if_due(self, embed: Embed) -> None:
        """`repair_turns` when turns are queued; a failure is logged and stays queued for next time."""
        if not self.turns.repair_due:
            return
        try:
            await self.repair_turns(embed)
        except Exception:
            log.warning("message repair failed; retried at the next maintenance", exc_info=True)

    @abstractmethod
    async def _index_turns(self, embed: Embed) -> int:
        """Embed and index every turn stored without a vector; returns how many."""

    @abstractmethod
    async def maintain(self, embed: Embed) -> None:
        """Off the reply path: index queued rows, compact and re-index what needs it."""

    @abstractmethod
    async def warm(self) -> int:
        """Load what the first searches would wait for; returns the rows loaded."""

    async def build_indexes(self) -> None:  # noqa: B027 - a backend that indexes on write needs nothing
        """Build every search index now, approximate ones included (benchmarks, after bulk loads)."""

    # --- migration between backends: plain rows, each with its stored vector as it is

    async def table_counts(self) -> dict[str, int]:
        """Rows per table of `MIGRATED_TABLES`."""
        raise StorageError(f"the {type(self).__name__} backend cannot count rows for a migration")

    async def export_rows(self, table: str, offset: int, limit: int) -> list[dict[str, Any]]:
        """Up to `limit` rows of `table` from `offset`, in the order they were written: plain
        values (times as epoch seconds, lists as lists, JSON as text) and the stored `vector`
        (None for a row stored without one)."""
        raise StorageError(f"the {type(self).__name__} backend cannot be the source of a migration")

    async def import_rows(self, table: str, rows: Sequence[Mapping[str, Any]]) -> int:
        """Store rows as `export_rows` gives them, in one transaction, their vectors as they are and
        their link column (`LINK_COLUMNS`) left empty; rows whose key is already stored are
        skipped. Returns how many were new."""
        raise StorageError(f"the {type(self).__name__} backend cannot be the target of a migration")

    async def set_links(self, table: str, links: Mapping[str, str]) -> int:
        """Point each row `id` of `links` at its linked row (superseded_by, condensed_into);
        returns how many changed."""
        raise StorageError(f"the {type(self).__name__} backend cannot be the target of a migration")

    # True when several processes may use this storage at once (what one keeps in RAM per
    # conversation must then follow the conversation: `channel_state`).
    shared: bool = False

    async def channel_state(self, key: str) -> tuple[str, bytes] | None:
        """The state conversation `key` was left in by the last process that answered it (a JSON
        document and its vectors' bytes), if this storage keeps one; read under `channel_lock`."""
        return None

    async def save_channel_state(self, key: str, document: str, vectors: bytes, now: float) -> None:  # noqa: B027
        """Keep conversation `key`'s state for the next process answering it (see `channel_state`)."""

    @asynccontextmanager
    async def channel_lock(self, key: str) -> AsyncIterator[None]:
        """Hold conversation `key`: one turn at a time per conversation in every process sharing
        this storage. The embedded backend has one process, so an asyncio lock per key does."""
        async with self._channel_locks(key):
            yield

    @cached_property
    def _channel_locks(self) -> KeyedLocks[str]:
        return KeyedLocks()

    @asynccontextmanager
    async def write_lock(self, keys: Sequence[str]) -> AsyncIterator[None]:
        """Hold every key of `keys` (a scope's check-then-insert, a profile's read-modify-write):
        one writer at a time per key in every process sharing this storage. Keys are taken in
        sorted order, so two holders of overlapping keys never each wait for the other. The
        embedded backend has one process, so an asyncio lock per key does."""
        async with AsyncExitStack() as stack:
            for key in sorted(set(keys)):
                await stack.enter_async_context(self._write_locks(key))
            yield

    @cached_property
    def _write_locks(self) -> KeyedLocks[str]:
        return KeyedLocks()

    async def watch(self, listener: ChangeListener) -> None:  # noqa: B027 - one process: nothing to hear
        """Call `listener` with every memory change made by any process sharing this storage.

        A backend only one process opens (the embedded one) has nothing to report: the engine's
        own listeners (`MemoryEngine.on_write`) already see every write.
        """

    async def catch_up(self) -> None:  # noqa: B027 - see `watch`
        """Return once every change committed before the call has reached the `watch` listeners,
        so what a turn reads from RAM is as new as the database."""

    def events(self, *, ttl_seconds: float) -> EventLog | None:
        """The platform event log kept in this storage, if it keeps one; None (the embedded backend)
        leaves adapters their own file beside the data directory."""
        return None
