"""Embedded summaries: SQLite summary rows and the LanceDB `summaries` table, kept consistent."""

from __future__ import annotations

import logging
from collections.abc import Sequence

import numpy as np

from ...models import Audience, Summary, Visibility
from ..base import Embed, SummaryRepository
from .records import summary_record
from .sqlite import SQLiteDatabase
from .summary_rows import SummaryRows
from .vector_table import VectorTable
from .vectors import VectorStore

log = logging.getLogger(__name__)


class EmbeddedSummaries(SummaryRows, SummaryRepository):
    """Row first, then vector; a row is marked indexed once its vector is written, and
    `reconcile` indexes the rest and drops vectors without a row. The reads are `SummaryRows`'."""

    def __init__(self, sql: SQLiteDatabase, vectors: VectorStore) -> None:
        super().__init__(sql)
        self._vectors = vectors
        self._table: VectorTable | None = None

    async def table(self) -> VectorTable:
        """The LanceDB `summaries` table, opened on first use."""
        if self._table is None:
            self._table = await self._vectors.summaries()
        return self._table

    async def add(self, summary: Summary, vector: np.ndarray, condenses: Sequence[str] = ()) -> None:
        await self.insert(summary, vector, condenses)
        try:
            table = await self.table()
            await table.insert([summary_record(summary, vector)])
        except Exception:
            log.warning(
                "summary vector write failed; kept unindexed for reconcile",
                extra={"summary_id": summary.id},
                exc_info=True,
            )
        else:
            await self.mark_indexed([summary.id])

    async def rewrite(self, summary: Summary, vector: np.ndarray | None) -> None:
        await self.set_content(summary, vector)
        if vector is None:
            return  # a thread summary has no vector
        table = await self.table()
        await table.add([summary_record(summary, vector)])
        await self.mark_indexed([summary.id])

    async def search(
        self, audience: Audience, vector: np.ndarray, k: int, now: float, threshold: float = 0.0
    ) -> list[tuple[Summary, float]]:
        """Pre-filtered in LanceDB by scope, then re-checked in SQL so a stale vector never shows."""
        table = await self.table()
        hits = await table.search_visible(audience, vector, k, now)
        kept = [(h.id, h.score) for h in hits if h.score >= threshold]
        rows = {s.id: s for s in await self.visible([i for i, _ in kept], audience, now)}
        return [(rows[i], score) for i, score in kept if i in rows]

    async def rescope(self, ids: Sequence[str], channel_id: str) -> None:
        table = await self.table()
        await table.rescope(ids, Visibility.CHANNEL.value, channel_id)

    async def reconcile(self, embed: Embed) -> tuple[int, int]:
        table = await self.table()
        repaired = 0
        while True:
            pending = await self.unindexed(1000)
            if not pending:
                break
            missing = [s for s, v in pending if v is None]
            fresh = iter(await embed([s.content for s in missing])) if missing else iter(())
            records = [summary_record(s, v if v is not None else next(fresh)) for s, v in pending]
            ids = [r.id for r in records]
            # The vector may exist already (a crash after the write): replace it, never double it.
            await table.delete(ids)
            await table.insert(records)
            await self.mark_indexed(ids)
            repaired += len(ids)
        orphans = await table.ids() - await self.indexed_ids()
        if orphans:
            await table.delete(sorted(orphans))
        return repaired, len(orphans)
