"""The pre-hook as first sketched, timed beside the real one by `bench latency`."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from memory.embedders import Embedder
from memory.engine import MemoryEngine
from memory.models import Memory, MemoryType, StoredMessage
from memory.prehook import PrehookConfig, PrehookRequest, freshness, usage
from memory.prehook.context_block import BlockItem, Section, format_context_block
from memory.scope import row_visible
from memory.storage import MemoryQuery, fts_query_terms
from memory.ttl import parse_duration

if TYPE_CHECKING:
    import lancedb

# The naive hook searches whole tables and filters afterwards, so it must over-fetch to be left
# with about as many in-scope hits as the real hook's top 20.
NAIVE_K = 100


class NaivePreHook:
    """The pre-hook as first sketched: the same sources, each the simple way, one after another.

    Same recall sources as the real hook (the participants' identities, important, recent and
    preferred memories from SQL; vector and full-text search over memories and past turns), the
    same scoring, caps and formatter, but: each source awaited in turn; every LanceDB search a
    flat scan of the whole table (no ANN index, no scope pre-filter) filtered afterwards, so it
    over-fetches `NAIVE_K`; one row load per hit; and every candidate's text embedded again for
    relevance and the semantic filter instead of using stored vectors (in one batched call,
    kinder to it than one call per candidate).
    """

    def __init__(
        self,
        engine: MemoryEngine,
        memories: lancedb.AsyncTable,
        messages: lancedb.AsyncTable,
        embedder: Embedder,
        config: PrehookConfig,
    ) -> None:
        self.engine = engine
        self.memories = memories
        self.messages = messages
        self.embedder = embedder
        self.config = config
        self._recent_seconds = parse_duration(config.recent_duration)
        self._buffers: dict[tuple[str, str, str], list[np.ndarray]] = {}

    async def _flat_ids(self, table: lancedb.AsyncTable, query: np.ndarray, text: str) -> list[str]:
        dense = await (
            table.query()
            .nearest_to(query)
            .distance_type("cosine")
            .bypass_vector_index()
            .select(["id", "_distance"])
            .limit(NAIVE_K)
            .to_arrow()
        )
        ids = dense.column("id").to_pylist()
        terms = fts_query_terms(text)
        if terms:
            from lancedb.query import MatchQuery

            lexical = await (
                table.query()
                .nearest_to_text(MatchQuery(terms, "text"))
                .select(["id", "_score"])
                .limit(NAIVE_K)
                .to_arrow()
            )
            ids += lexical.column("id").to_pylist()
        return list(dict.fromkeys(ids))

    async def run(self, request: PrehookRequest) -> int:
        """Returns how many items (memories and turns) went into the block."""
        cfg = self.config
        memories = self.engine.storage.memories
        viewer = request.viewer
        now = self.engine.clock()
        query = (await self.embedder.embed([request.text]))[0]
        participants = list(request.participants) or ([viewer.viewer_id] if viewer.viewer_id else [])

        floors: dict[str, float] = {}
        found: dict[str, Memory] = {}
        for rows, floor in (
            (await memories.about(viewer, now, participants, [MemoryType.IDENTITY]), 0.6),
            (
                await memories.query(
                    viewer,
                    now,
                    MemoryQuery(
                        types=[MemoryType.PREFERENCE],
                        user_ids=participants,
                        min_confidence=cfg.preference_min_confidence,
                        limit=5,
                    ),
                ),
                0.5,
            ),
            (
                await memories.query(
                    viewer,
                    now,
                    MemoryQuery(
                        min_importance=cfg.important_threshold, order="important", limit=cfg.sql_limit
                    ),
                ),
                0.3,
            ),
            (
                await memories.query(
                    viewer, now, MemoryQuery(since=now - self._recent_seconds, limit=cfg.sql_limit)
                ),
                0.3,
            ),
        ):
            for memory in rows:
                found[memory.id] = memory
                floors[memory.id] = max(floors.get(memory.id, 0.0), floor)
        for memory_id in await self._flat_ids(self.memories, query, request.text):
            for memory in await memories.get_unscoped([memory_id]):
                # The bot's own rules, checked in Python after the fact (this hook has no pre-filters).
                if memory.is_active(now) and row_visible(viewer, memory):
                    found.setdefault(memory.id, memory)
        turns: list[StoredMessage] = []
        for message_id in await self._flat_ids(self.messages, query, request.text):
            rows = await self.engine.storage.turns.get_unscoped([message_id])
            if rows and row_visible(viewer, rows[0]):
                turns.append(rows[0])

        items: list[tuple[Memory | StoredMessage, float]] = [
            (m, floors.get(m.id, 0.0)) for m in found.values()
        ]
        items += [(t, 0.0) for t in turns]
        if not items:
            return 0
        vectors = await self.embedder.embed([item.content for item, _ in items])
        scored = []
        for (item, floor), vector in zip(items, vectors, strict=True):
            cosine = float(vector @ query)
            if cosine < cfg.min_relevance and floor == 0.0:
                continue
            age = now - item.created_at
            count = item.access_count if isinstance(item, Memory) else 0
            scored.append((max(cosine, floor) * freshness(age) * usage(count), item, vector))
        scored.sort(key=lambda row: row[0], reverse=True)
        key = (request.scope.workspace_id, request.scope.channel_id, request.scope.agent_id)
        buffer = self._buffers.setdefault(key, [])
        chosen: list[tuple[float, Memory | StoredMessage, np.ndarray]] = []
        for score, item, vector in scored:
            if len(chosen) >= cfg.max_injection_count:
                break
            held = [*buffer, *(v for _, _, v in chosen)]
            if held and float(np.max(np.stack(held) @ vector)) > cfg.semantic_threshold:
                continue
            chosen.append((score, item, vector))
        block = format_context_block(
            [
                BlockItem(Section.RELEVANT, s, memory=i)
                if isinstance(i, Memory)
                else BlockItem(Section.MESSAGES, s, message=i)
                for s, i, _ in chosen
            ],
            now,
            cfg.token_budget,
        )
        buffer.extend(v for _, _, v in chosen)
        del buffer[: max(0, len(buffer) - cfg.max_semantic_buffer)]
        return len(block.included)
