"""Embedded turns: SQLite transcript rows and their LanceDB vectors, repaired when a vector is missing."""

from __future__ import annotations

import logging
from collections.abc import Sequence

import numpy as np

from ...models import Audience, StoredMessage, Visibility
from ..base import NewTurn, TurnRepository, VectorHit
from .message_rows import NOT_SEARCHABLE, MessageRows
from .records import message_record
from .sqlite import SQLiteDatabase, failing
from .vector_table import VectorTable
from .vectors import VectorStore

log = logging.getLogger(__name__)

# The turns telling of a period are scored by cosine in memory: this many at most, those telling
# of its latest days first (a year asked about can be told of by thousands).
TOLD_CANDIDATES = 1000


class EmbeddedTurns(MessageRows, TurnRepository):
    """Rows are committed first; a turn whose vector could not be written stays unindexed and
    `repair_due` asks `EmbeddedStorage.maintain` to index it. The reads are `MessageRows`'."""

    def __init__(self, sql: SQLiteDatabase, vectors: VectorStore) -> None:
        super().__init__(sql)
        self._vectors = vectors
        # Set when a message row was kept without its vector; maintenance then indexes it.
        self.repair_due = False

    @property
    def _table(self) -> VectorTable:
        return self._vectors.messages

    async def _insert(self, turns: Sequence[NewTurn], searchable: bool) -> set[str]:
        messages, vectors = [m for m, _, _ in turns], [v for _, v, _ in turns]
        with failing("messages not saved"):
            inserted = set(await self.insert_rows(messages, vectors, 0 if searchable else NOT_SEARCHABLE))
        if searchable:
            await self._index([t for t in turns if t[0].id in inserted])
        return inserted

    async def _index(self, new: Sequence[NewTurn]) -> None:
        records = [message_record(m, v, text=text) for m, v, text in new if v is not None]
        if len(records) < len(new):
            self.repair_due = True
        if records:
            try:
                await self._table.insert(records)
                await self.mark_indexed([r.id for r in records])
            except Exception:
                # The rows are committed either way; the repair leaves exactly one vector per row.
                log.warning("message vector write failed; queued for repair", exc_info=True)
                self.repair_due = True

    async def search(self, audience: Audience, vector: np.ndarray, k: int) -> list[VectorHit]:
        return await self._table.search_visible(audience, vector, k)

    async def search_between(
        self, audience: Audience, vector: np.ndarray, since: float, until: float, k: int
    ) -> list[VectorHit]:
        return await self._table.search_visible(audience, vector, k, said=(since, until))

    async def search_told(
        self, audience: Audience, vector: np.ndarray, since: float, until: float, k: int
    ) -> list[VectorHit]:
        if k <= 0:
            return []
        rows = await self.told_between(audience, since, until, TOLD_CANDIDATES)
        # A repaired turn's vector is in the index only.
        missing = [row_id for row_id, vector, _ in rows if vector is None]
        indexed = await self._table.get_vectors(missing) if missing else {}
        told = [(i, v if v is not None else indexed.get(i), said) for i, v, said in rows]
        told = [(i, v, said) for i, v, said in told if v is not None]
        if not told:
            return []
        vectors = np.stack([v for _, v, _ in told])
        query = vector / (np.linalg.norm(vector) or 1.0)
        scores = vectors @ query / np.maximum(np.linalg.norm(vectors, axis=1), 1e-12)
        # Best first; equal scores by when said, then id, as PostgreSQL's search cuts them.
        order = sorted(range(len(told)), key=lambda i: (-float(scores[i]), told[i][2], told[i][0]))[:k]
        return [VectorHit(told[i][0], float(scores[i]), told[i][1]) for i in order]

    async def hybrid_search(
        self, audience: Audience, vector: np.ndarray, text: str, k: int
    ) -> tuple[list[VectorHit], list[VectorHit]]:
        return await self._table.hybrid_search_visible(audience, vector, text, k)

    async def rescope(self, ids: Sequence[str], channel_id: str) -> None:
        await self._table.rescope(ids, Visibility.CHANNEL.value, channel_id)

    async def rewrite(self, messages: Sequence[StoredMessage]) -> None:
        if not messages:
            return
        with failing("turns not rewritten"):
            next_turns = await self.rewrite_rows(messages)
        # Out of the search now (their rows say indexed 0): the repair writes them back.
        self.repair_due = True
        await self._table.delete([*(m.id for m in messages), *next_turns])
