"""Embedded summaries: SQLite summary rows and the LanceDB `summaries` table, kept consistent."""

from __future__ import annotations

import logging
from collections.abc import Sequence

import numpy as np

from ...models import Audience, Scope, Summary, SummaryKind, Visibility
from ..base import Embed, SummaryRepository
from .records import summary_record
from .sqlite import SQLiteDatabase
from .summary_rows import SummaryRows
from .vector_table import VectorTable
from .vectors import VectorStore

log = logging.getLogger(__name__)


class EmbeddedSummaries(SummaryRepository):
    """Row first, then vector; a row is marked indexed once its vector is written, and
    `reconcile` indexes the rest and drops vectors without a row."""

    def __init__(self, sql: SQLiteDatabase, vectors: VectorStore) -> None:
        self.rows = SummaryRows(sql)
        self._vectors = vectors
        self._table: VectorTable | None = None

    async def table(self) -> VectorTable:
        """The LanceDB `summaries` table, opened on first use."""
        if self._table is None:
            self._table = await self._vectors.summaries()
        return self._table

    async def add(self, summary: Summary, vector: np.ndarray, condenses: Sequence[str] = ()) -> None:
        await self.rows.insert(summary, vector, condenses)
        try:
            table = await self.table()
            await table.add([summary_record(summary, vector)])
        except Exception:
            log.warning(
                "summary vector write failed; kept unindexed for reconcile",
                extra={"summary_id": summary.id},
                exc_info=True,
            )
        else:
            await self.rows.mark_indexed([summary.id])

    async def replace_thread(self, summary: Summary, previous_id: str | None) -> None:
        await self.rows.replace_thread(summary, previous_id)

    async def delete(self, ids: Sequence[str]) -> int:
        return await self.rows.delete(ids)

    async def get_unscoped(self, ids: Sequence[str]) -> list[Summary]:
        return await self.rows.get_unscoped(ids)

    async def visible(self, ids: Sequence[str], audience: Audience, now: float) -> list[Summary]:
        return await self.rows.visible(ids, audience, now)

    async def find_turn(self, scope: Scope, source_ids: Sequence[str]) -> Summary | None:
        return await self.rows.find_turn(scope, source_ids)

    async def query(
        self,
        scope: Scope,
        *,
        level: int | None = None,
        kinds: Sequence[SummaryKind] = (SummaryKind.TURNS, SummaryKind.CONDENSED),
        pending_only: bool = False,
        audience: Audience | None = None,
        now: float = 0.0,
    ) -> list[Summary]:
        return await self.rows.query(
            scope, level=level, kinds=kinds, pending_only=pending_only, audience=audience, now=now
        )

    async def thread(
        self, scope: Scope, audience: Audience | None = None, now: float = 0.0
    ) -> Summary | None:
        return await self.rows.thread(scope, audience, now)

    async def search(
        self, audience: Audience, vector: np.ndarray, k: int, now: float, threshold: float = 0.0
    ) -> list[tuple[Summary, float]]:
        """Pre-filtered in LanceDB by scope, then re-checked in SQL so a stale vector never shows."""
        table = await self.table()
        hits = await table.search_visible(audience, vector, k, now)
        kept = [(h.id, h.score) for h in hits if h.score >= threshold]
        rows = {s.id: s for s in await self.rows.visible([i for i, _ in kept], audience, now)}
        return [(rows[i], score) for i, score in kept if i in rows]

    async def rescope(self, ids: Sequence[str], channel_id: str) -> None:
        table = await self.table()
        await table.rescope(ids, Visibility.CHANNEL.value, channel_id)

    async def reconcile(self, embed: Embed) -> tuple[int, int]:
        table = await self.table()
        repaired = 0
        while True:
            pending = await self.rows.unindexed(1000)
            if not pending:
                break
            missing = [s for s, v in pending if v is None]
            fresh = iter(await embed([s.content for s in missing])) if missing else iter(())
            records = [summary_record(s, v if v is not None else next(fresh)) for s, v in pending]
            ids = [r.id for r in records]
            # The vector may exist already (a crash after the write): replace it, never double it.
            await table.delete(ids)
            await table.add(records)
            await self.rows.mark_indexed(ids)
            repaired += len(ids)
        orphans = await table.ids() - await self.rows.indexed_ids()
        if orphans:
            await table.delete(sorted(orphans))
        return repaired, len(orphans)
