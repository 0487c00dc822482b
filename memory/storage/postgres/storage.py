"""The PostgreSQL backend as one `Storage`: rows and vectors in one database, and its upkeep."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable

from ...turn_text import message_embed_text
from ..base import Embed, ReconcileReport, Storage
from .conversations import PostgresConversations
from .db import PostgresDatabase
from .events import DEFAULT_TTL_SECONDS, PostgresEventLog
from .memories import PostgresMemories
from .people import PostgresPeople
from .summaries import PostgresSummaries
from .turns import PostgresTurns

log = logging.getLogger(__name__)

_REPAIR_BATCH = 1000


class PostgresStorage(Storage):
    """Every row keeps its vector (pgvector) and full text (tsvector) beside it, written in one
    transaction, so there is no second store to reconcile: only turns stored without a vector
    (the embedder failed) wait for `maintain` to embed them."""

    def __init__(self, db: PostgresDatabase) -> None:
        self.db = db
        self.memories = PostgresMemories(db)
        self.turns: PostgresTurns = PostgresTurns(db)
        self.summaries = PostgresSummaries(db)
        self.people = PostgresPeople(db)
        self.conversations = PostgresConversations(db)

    @classmethod
    async def open(cls, dsn: str, *, dim: int) -> PostgresStorage:
        """Connect to `dsn` (a `postgresql://` URL), migrating the schema for vectors of `dim` values."""
        db = await PostgresDatabase.open(dsn, dim=dim)
        storage = cls(db)
        # Turns left without a vector by an earlier run are embedded at the next maintenance.
        storage.turns.repair_due = bool(await storage.turns.unindexed(1))
        return storage

    def events(
        self, *, ttl_seconds: float = DEFAULT_TTL_SECONDS, clock: Callable[[], float] = time.time
    ) -> PostgresEventLog:
        """The platform event log in this database (shared by every process using it)."""
        return PostgresEventLog(self.db, ttl_seconds=ttl_seconds, clock=clock)

    async def close(self) -> None:
        await self.db.close()

    @property
    def needs_maintenance(self) -> bool:
        return self.turns.repair_due

    async def warm(self) -> int:
        # Searches read the database's own indexes: nothing to load into this process.
        return 0

    async def build_indexes(self) -> None:
        # The HNSW and GIN indexes are kept up to date on every write; fresh statistics let the
        # planner choose them after a bulk load.
        await self.db.execute("ANALYZE memories, messages, summaries")

    async def maintain(self, embed: Embed) -> None:
        if self.turns.repair_due:
            try:
                await self.repair_turns(embed)
            except Exception:
                log.warning("message repair failed; retried at the next maintenance", exc_info=True)

    async def repair_turns(self, embed: Embed) -> int:
        self.turns.repair_due = False
        try:
            repaired = await self._index_turns(embed)
        except BaseException:
            self.turns.repair_due = True
            raise
        if repaired:
            log.info("message vectors repaired", extra={"count": repaired})
        return repaired

    async def reconcile(self, embed: Embed) -> ReconcileReport:
        """A row and its vector commit together, so nothing is half-written; turns stored
        without a vector are embedded now."""
        report = ReconcileReport()
        report.message_rows_repaired = await self._index_turns(embed)
        if report.message_rows_repaired:
            report.details.append(f"message_rows_repaired={report.message_rows_repaired}")
            self.turns.repair_due = False
        return report

    async def _index_turns(self, embed: Embed) -> int:
        repaired = 0
        while True:
            pending = await self.turns.unindexed(_REPAIR_BATCH)
            if not pending:
                return repaired
            vectors = await embed([message_embed_text(m) for m in pending])
            await self.turns.set_vectors([m.id for m in pending], vectors)
            repaired += len(pending)
