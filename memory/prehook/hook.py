"""`PreHook.run`: embed the batch, gather every source, rank, dedup against the channel, format one
block, and record what the channel was given."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable, Iterable, Sequence
from datetime import UTC, tzinfo

import numpy as np

from ..embedders import embed_query
from ..engine import MemoryEngine, WriteResult
from ..models import Memory, MemoryType
from ..storage import MemoryChange
from ..summaries import SummaryManager
from .access_counts import AccessCounts
from .candidates import build_timeline, collect, collect_messages, collect_summaries, relevant
from .config import PrehookConfig
from .context_block import ContextBlock, format_context_block
from .injection_state import ChannelKey, InjectionStates
from .meta_questions import detect_meta_question
from .preferences_cache import PreferencesCache
from .ranking import block_items, dedup, said_since, shown_with, within_share
from .request import PrehookRequest, PrehookResult
from .sources import Sources, elapsed_ms

log = logging.getLogger("memory.prehook")

Clock = Callable[[], float]
STAGES = ("embed", "sql", "vector", "dedup", "format")


class PreHook:
    """Runs the pre-hook for one batch (embed, gather, rank, dedup, format, record); one instance
    serves every channel.

    Constructing it subscribes to `engine.on_write`: preference writes invalidate the
    preferences cache, and forgotten or superseded memories leave every channel's injection
    state (so the memory that superseded them is injected as new).
    """

    def __init__(
        self,
        engine: MemoryEngine,
        config: PrehookConfig | None = None,
        states: InjectionStates | None = None,
        preferences: PreferencesCache | None = None,
        clock: Clock | None = None,
        tz: tzinfo = UTC,
        summaries: SummaryManager | None = None,
    ) -> None:
        self.engine = engine
        self.config = config or PrehookConfig()
        self.clock = clock or engine.clock
        self.states = states or self.config.make_states()
        self.preferences = preferences or PreferencesCache(
            engine.storage.memories,
            self.clock,
            min_confidence=self.config.preference_min_confidence,
            ttl=self.config.preference_cache_ttl,
        )
        self.tz = tz
        self.sources = Sources(engine, self.config, self.preferences, summaries, tz)
        # Access counts of injected memories, written together every few seconds.
        self.access = AccessCounts(engine.storage.memories)
        engine.on_write(self._on_write)

    def _on_write(self, memory: Memory) -> None:
        self.preferences.invalidate(memory)
        if memory.forgotten:
            self.states.forget_ids([memory.id], memory.platform, memory.workspace_id, memory.agent_id)

    def on_change(self, change: MemoryChange | None) -> None:
        """A memory changed in some process sharing the database (`Storage.watch`): drop what RAM
        holds of it, as `_on_write` does for this process's own writes (None: drop everything)."""
        if change is None:
            self.preferences.clear()
            return
        if change.memory_type == MemoryType.PREFERENCE.value and change.user_id is not None:
            self.preferences.invalidate_user(
                change.platform, change.workspace_id, change.agent_id, change.user_id
            )
        if change.gone:
            self.states.forget_ids([change.id], change.platform, change.workspace_id, change.agent_id)

    def mark_shown(self, key: ChannelKey, writes: Sequence[WriteResult], turn: int | None = None) -> int:
        """Record just-written memories as already in the model's context of `key`'s conversation
        (with the vectors the writes computed), at `turn` or the conversation's current turn, so
        the hook does not repeat them; returns that turn."""
        state = self.states.get(*key)
        at = state.turn if turn is None else turn
        if writes:
            state.record([(w.memory.id, w.memory.updated_at, w.vector) for w in writes], turn=at)
        return at

    def forget_shown(self, key: ChannelKey, memory_ids: Iterable[str]) -> None:
        """These memories left the model's context of `key`'s conversation: they may be injected again."""
        state = self.states.peek(key)
        if state is not None:
            state.forget_ids(memory_ids)

    @property
    def summaries(self) -> SummaryManager | None:
        """The conversation summaries searched beside memories and turns (None: not kept)."""
        return self.sources.summaries

    async def aclose(self) -> None:
        """Write the access counts still pending."""
        await self.access.aclose()

    # --- the hook -------------------------------------------------------------------------------

    async def run(self, request: PrehookRequest) -> PrehookResult:
        """Recall, rank, dedup and format for one batch; records what was injected in its channel."""
        if request.is_system:
            return PrehookResult(skipped_reason="system")
        if not request.text.strip():
            return PrehookResult(skipped_reason="empty")
        viewer = request.viewer
        scope = request.scope
        if (viewer.platform, viewer.workspace_id, viewer.agent_id) != (
            scope.platform,
            scope.workspace_id,
            scope.agent_id,
        ):
            raise ValueError("the viewer's platform, workspace and agent must be the request's own")
        stage_ms = dict.fromkeys(STAGES, 0.0)
        started = time.perf_counter()
        now = self.clock()
        # The asker's days: "yesterday" and the block's dates are theirs, not the bot's.
        zone = request.asker_tz or self.tz
        meta = detect_meta_question(request.text, now, zone)
        errors: list[str] = []

        # 1-3. One embedding of the batch (the CachedEmbedder makes a repeated text free), and
        # beside it the SQL sources and the hybrid searches: what needs no vector (the SQL reads,
        # the full-text searches) runs while the query is embedded, the dense searches once it is.
        query_ready: asyncio.Future[np.ndarray] = asyncio.get_running_loop().create_future()
        t = time.perf_counter()
        embedding = asyncio.ensure_future(embed_query(self.engine.embedder, request.text))
        sql_task = asyncio.ensure_future(self.sources.sql(request, now, meta, errors))
        search_task = asyncio.ensure_future(self.sources.search(request, query_ready, now, errors))
        try:
            try:
                query = np.asarray(await embedding, dtype=np.float32)
            except Exception as exc:
                log.warning("pre-hook skipped: embedding failed", exc_info=True)
                # No vector will come: the searches waiting for it fail with the embedding's error
                # and the reads already under way finish, so the run returns with nothing of it
                # left pending. Not cancelled: a statement cancelled in flight leaves the driver a
                # task of its own that outlives the run.
                query_ready.set_exception(exc)
                await asyncio.gather(sql_task, search_task, return_exceptions=True)
                query_ready.exception()  # retrieved, whether or not a search was waiting for it
                return PrehookResult(skipped_reason=f"embedding failed: {type(exc).__name__}")
            stage_ms["embed"] = elapsed_ms(t)
            query_ready.set_result(query)
            # `vector`: what the searches add once the query is embedded; `sql`: its own whole time.
            t = time.perf_counter()
            found = await search_task
            stage_ms["vector"] = elapsed_ms(t)
            sql, stage_ms["sql"] = await sql_task
        finally:
            # Whatever still runs when the run itself is cancelled is cancelled with it.
            for task in (embedding, sql_task, search_task):
                task.cancel()

        # 4-5. Score, then dedup against the channel. No await from here to `record`, so two
        # overlapping runs in one channel cannot both inject the same memory.
        t = time.perf_counter()
        candidates = collect(request, sql, found, query, now)
        # A meta question is answered by the timeline of its period; other past turns are noise.
        turns = (
            [
                *collect_messages(self.config, found, query, now, request.text),
                *collect_summaries(found, now),
            ]
            if meta is None
            else []
        )
        ranked = sorted([*candidates.values(), *turns], key=lambda c: c.score, reverse=True)
        stage_ms["dedup"] = elapsed_ms(t)
        # The other instances of the best candidates' kinds, read before the dedup below (after
        # it, nothing awaits until `record`); counted with the SQL reads.
        t = time.perf_counter()
        siblings = (
            await self.sources.kind_siblings(
                viewer,
                [c.memory for c in ranked[: self.config.max_injection_count] if c.memory is not None],
                now,
                errors,
            )
            if meta is None and self.config.kind_siblings > 0
            else {}
        )
        stage_ms["sql"] += elapsed_ms(t)
        t = time.perf_counter()
        scope = request.scope
        state = self.states.get(
            scope.platform, scope.workspace_id, scope.channel_id, scope.thread_id, scope.agent_id
        )
        timeline = build_timeline(meta, sql, candidates, query, now) if meta is not None else None
        in_timeline = {i.memory.id for i in timeline.items if i.memory is not None} if timeline else set()
        in_context = {*request.exclude_message_ids, *request.in_context_message_ids}
        following = {
            turn_id: after
            for turn_id, after in found.following.items()
            if after.id not in in_context and state.should_reinject(after.id, after.created_at, state.turn)
        }
        pool = [c for c in ranked if c.id not in in_timeline]
        selected = dedup(self.config, pool, state, following)
        already_shown = sum(
            1
            for c in pool
            if relevant(self.config, c) and not state.should_reinject(c.id, c.updated_at, state.turn)
        )
        also = shown_with(selected, siblings, state, self.config.kind_siblings)
        stage_ms["dedup"] += elapsed_ms(t)

        # 6. Format within the budget, then record only what made it into the block.
        t = time.perf_counter()
        lines = block_items(selected, following, also, said_since(selected))
        items = within_share(lines, self.config.min_score_share)
        within = {id(line) for line in items}
        block: ContextBlock = format_context_block(
            items,
            now,
            self.config.token_budget,
            timeline=timeline,
            tz=zone,
            spare=[line for line in lines if id(line) not in within],
            spare_tokens=self.config.share_spares_tokens,
        )
        injected = block.memories
        injected_messages = block.messages
        injected_summaries = block.summaries
        vectors = {c.id: c.vector for c in ranked}
        state.record(
            [(m.id, m.updated_at, vectors.get(m.id)) for m in injected]
            + [(m.id, m.created_at, vectors.get(m.id)) for m in injected_messages]
            + [(s.id, s.covers_to, None) for s in injected_summaries]
        )
        turn = state.turn
        state.advance_turn()
        stage_ms["format"] = elapsed_ms(t)
        if injected:
            self.access.add([m.id for m in injected], now)
        stage_ms["total"] = elapsed_ms(started)
        return PrehookResult(
            block=block.text,
            injected=injected,
            candidates_ranked=[(c.item, c.score) for c in ranked],
            injected_messages=injected_messages,
            injected_summaries=injected_summaries,
            stage_ms=stage_ms,
            meta=meta,
            tokens=block.tokens,
            items=len(block.included),
            turn=turn,
            errors=errors,
            included=list(block.included),
            timeline=timeline,
            already_shown=already_shown,
        )
