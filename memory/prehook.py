"""The pre-hook: recall what matters for a batch, skip what the channel already has, format one block."""

from __future__ import annotations

import asyncio
import copy
import dataclasses
import logging
import math
import time
from collections.abc import Awaitable, Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, tzinfo
from typing import Any, TypeVar

import numpy as np

from .access_counts import AccessCounts
from .context_block import BlockItem, ContextBlock, Section, Timeline, TimelineDay, format_context_block
from .engine import OWN_ELSEWHERE_LIMIT, MemoryEngine, WriteResult
from .injection_state import ChannelInjectionState, ChannelKey, InjectionStates
from .meta_questions import MetaQuestion, asks_about_self, detect_meta_question
from .models import Audience, Memory, MemoryType, StoredMessage, Summary
from .preferences_cache import PreferencesCache
from .prehook_config import PrehookConfig
from .scope import row_visible
from .storage import MemoryQuery
from .summaries import SummaryManager
from .ttl import parse_duration
from .turn_text import REPLY_GAP_SECONDS

log = logging.getLogger(__name__)

T = TypeVar("T")
Clock = Callable[[], float]

# Relevance floors for SQL-sourced memories the design always wants considered: a low cosine
# with today's wording must not lose them (they skip `min_relevance`). Who is talking and what
# they prefer rank with good search hits; important and recent memories fill the slots left
# below the genuinely relevant ones (MiniLM cosines of related sentences sit around 0.35-0.7).
IDENTITY_FLOOR = 0.6
PREFERENCE_FLOOR = 0.5
IMPORTANT_FLOOR = 0.3
RECENT_FLOOR = 0.3
# "What do you remember about me?": every memory about the asker answers it.
ABOUT_SELF_FLOOR = 0.55
_SEARCH_SOURCES = frozenset({"vector", "fulltext", "message", "summary", "own"})
# A full-text match lifts a hit a little: exact names and rare words matter (same as engine.search).
LEXICAL_BONUS = 0.1
# Timeline entries answer the question the user asked, so under a tight budget the other
# sections give way first: memories from the period rank above messages from it.
TIMELINE_MEMORY_BASE = 2.0
TIMELINE_MESSAGE_BASE = 1.5
STAGES = ("embed", "sql", "vector", "dedup", "format")
_NOT_IDENTITY = [t for t in MemoryType if t is not MemoryType.IDENTITY]


@dataclass(slots=True, kw_only=True)
class PrehookRequest:
    """One batch about to be answered: its combined text, where it happens, and who reads the reply."""

    text: str
    platform: str
    workspace_id: str
    channel_id: str
    agent_id: str
    viewer: Audience
    thread_id: str | None = None
    participants: Sequence[str] = ()
    is_system: bool = False
    # Turns of the batch itself (already stored): a meta question must not find itself.
    exclude_message_ids: Sequence[str] = ()
    # Turns the model already has in its history window: never injected again as notes.
    in_context_message_ids: Sequence[str] = ()


@dataclass(slots=True)
class PrehookResult:
    """What the hook injected and why; `candidates_ranked` is every active candidate, best first.

    Candidates are memories and past turns (`StoredMessage`); `injected` holds the memories
    that made it into the block and `injected_messages` the past turns.
    """

    block: str | None = None
    injected: list[Memory] = field(default_factory=list)
    candidates_ranked: list[tuple[Memory | StoredMessage | Summary, float]] = field(default_factory=list)
    injected_messages: list[StoredMessage] = field(default_factory=list)
    injected_summaries: list[Summary] = field(default_factory=list)
    stage_ms: dict[str, float] = field(default_factory=dict)
    skipped_reason: str | None = None
    meta: MetaQuestion | None = None
    tokens: int = 0
    items: int = 0  # lines of the block: a turn with its follow-ups is one
    turn: int | None = None
    errors: list[str] = field(default_factory=list)
    # The block's lines as data (memories, turns, summaries, timeline entries), for renderers
    # other than the model's block: the offline responder shows the same recall to people.
    included: list[BlockItem] = field(default_factory=list)
    timeline: Timeline | None = None
    # Relevant candidates left out because this conversation was given them recently.
    already_shown: int = 0


@dataclass(slots=True)
class _Candidate:
    memory: Memory | None
    vector: np.ndarray | None = None
    sources: set[str] = field(default_factory=set)
    floor: float = 0.0
    lexical_rank: int | None = None
    relevance: float = 0.0
    score: float = 0.0
    message: StoredMessage | None = None
    summary: Summary | None = None
    floored: bool = False

    @property
    def item(self) -> Memory | StoredMessage | Summary:
        if self.memory is not None:
            return self.memory
        return self.message if self.message is not None else self.summary  # type: ignore[return-value]

    @property
    def id(self) -> str:
        return self.item.id

    @property
    def created_at(self) -> float:
        if self.summary is not None:
            return self.summary.covers_to
        return self.item.created_at  # type: ignore[union-attr]

    @property
    def updated_at(self) -> float:
        return self.memory.updated_at if self.memory is not None else self.created_at


@dataclass(slots=True)
class _SqlFound:
    identity: list[Memory] = field(default_factory=list)
    important: list[Memory] = field(default_factory=list)
    recent: list[Memory] = field(default_factory=list)
    preferences: list[Memory] = field(default_factory=list)
    timeline_memories: list[Memory] = field(default_factory=list)
    timeline_messages: list[StoredMessage] = field(default_factory=list)
    timeline_days: list[tuple[float, int, int]] = field(default_factory=list)
    # In a DM: what the viewer said about themselves in other workspaces (`own_elsewhere`).
    own: list[Memory] = field(default_factory=list)
    # "What do you remember about me?": everything the viewer may see about themselves.
    about_self: list[Memory] = field(default_factory=list)
    embeddings: dict[str, np.ndarray] = field(default_factory=dict)


@dataclass(slots=True)
class _VectorFound:
    dense: list[Any] = field(default_factory=list)
    lexical: list[Any] = field(default_factory=list)
    rows: dict[str, Memory] = field(default_factory=dict)
    summaries: list[tuple[Summary, float]] = field(default_factory=list)
    message_dense: list[Any] = field(default_factory=list)
    message_lexical: list[Any] = field(default_factory=list)
    messages: dict[str, StoredMessage] = field(default_factory=dict)
    # Recalled turn id -> the turn that came right after it (readable by the same viewer).
    following: dict[str, StoredMessage] = field(default_factory=dict)


def _ms(start: float) -> float:
    return (time.perf_counter() - start) * 1000.0


def freshness(age_seconds: float) -> float:
    """×1.3 under 7 days old, ×1.15 under 30 days, ×1 after."""
    if age_seconds < 7 * 86400:
        return 1.3
    if age_seconds < 30 * 86400:
        return 1.15
    return 1.0


def usage(access_count: int) -> float:
    """1 + min(0.2, 0.02 × access_count): memories that keep coming up rank a little higher."""
    return 1.0 + min(0.2, 0.02 * max(0, access_count))


class PreHook:
    """Runs DESIGN.md pre-hook steps 1–6 for one batch; one instance serves every channel.

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
        # Conversation summaries (levels 1+) searched beside memories and turns, when kept.
        self.summaries = summaries
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
        self._recent_seconds = parse_duration(self.config.recent_duration)
        # Access counts of injected memories, written together every few seconds.
        self.access = AccessCounts(engine.storage.memories)
        engine.on_write(self._on_write)

    def _on_write(self, memory: Memory) -> None:
        self.preferences.invalidate(memory)
        if memory.forgotten:
            self.states.forget_ids([memory.id], memory.platform, memory.workspace_id, memory.agent_id)

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

    def _utc_offset(self, now: float) -> float:
        """Seconds east of UTC of this hook's time zone at `now` (where a timeline's days begin)."""
        offset = datetime.fromtimestamp(now, self.tz).utcoffset()
        return offset.total_seconds() if offset is not None else 0.0

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
        if (viewer.platform, viewer.workspace_id, viewer.agent_id) != (
            request.platform,
            request.workspace_id,
            request.agent_id,
        ):
            raise ValueError("the viewer's platform, workspace and agent must be the request's own")
        stage_ms = dict.fromkeys(STAGES, 0.0)
        started = time.perf_counter()

        # 1. One embedding of the batch; the CachedEmbedder makes a repeated text free.
        t = time.perf_counter()
        try:
            query = np.asarray((await self.engine.embedder.embed([request.text]))[0], dtype=np.float32)
        except Exception as exc:
            log.warning("pre-hook skipped: embedding failed", exc_info=True)
            return PrehookResult(skipped_reason=f"embedding failed: {type(exc).__name__}")
        stage_ms["embed"] = _ms(t)

        now = self.clock()
        meta = detect_meta_question(request.text, now, self.tz)
        errors: list[str] = []

        # 2-3. SQL sources and the hybrid search run side by side; each group times itself.
        (sql, stage_ms["sql"]), (found, stage_ms["vector"]) = await asyncio.gather(
            self._sql_sources(request, now, meta, errors),
            self._hybrid_search(request, query, now, errors),
        )

        # 4-5. Score, then dedup against the channel. No await from here to `record`, so two
        # overlapping runs in one channel cannot both inject the same memory.
        t = time.perf_counter()
        candidates = self._collect(request, sql, found, query, now)
        # A meta question is answered by the timeline of its period; other past turns are noise.
        turns = (
            [*self._collect_messages(request, found, query, now), *self._collect_summaries(found, now)]
            if meta is None
            else []
        )
        ranked = sorted([*candidates.values(), *turns], key=lambda c: c.score, reverse=True)
        state = self.states.get(
            request.platform, request.workspace_id, request.channel_id, request.thread_id, request.agent_id
        )
        timeline = self._timeline(meta, sql, candidates, query, now) if meta is not None else None
        in_timeline = {i.memory.id for i in timeline.items if i.memory is not None} if timeline else set()
        in_context = {*request.exclude_message_ids, *request.in_context_message_ids}
        following = {
            turn_id: after
            for turn_id, after in found.following.items()
            if after.id not in in_context and state.should_reinject(after.id, after.created_at, state.turn)
        }
        pool = [c for c in ranked if c.id not in in_timeline]
        selected = self._dedup(pool, state, following)
        already_shown = sum(
            1 for c in pool if self._relevant(c) and not state.should_reinject(c.id, c.updated_at, state.turn)
        )
        stage_ms["dedup"] = _ms(t)

        # 6. Format within the budget, then record only what made it into the block.
        t = time.perf_counter()
        items = _block_items(selected, following)
        block: ContextBlock = format_context_block(
            items, now, self.config.token_budget, timeline=timeline, tz=self.tz
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
        stage_ms["format"] = _ms(t)
        if injected:
            self.access.add([m.id for m in injected], now)
        stage_ms["total"] = _ms(started)
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

    # --- step 2: sources ------------------------------------------------------------------------

    async def _guard(self, name: str, awaitable: Awaitable[T], default: T, errors: list[str]) -> T:
        # A failing source costs its memories, not the reply: the hook degrades, and says so.
        try:
            return await awaitable
        except Exception as exc:
            log.warning("pre-hook source failed", extra={"source": name}, exc_info=True)
            errors.append(f"{name}: {type(exc).__name__}")
            return default

    async def _sql_sources(
        self, request: PrehookRequest, now: float, meta: MetaQuestion | None, errors: list[str]
    ) -> tuple[_SqlFound, float]:
        t = time.perf_counter()
        memories, turns = self.engine.storage.memories, self.engine.storage.turns
        cfg, viewer = self.config, request.viewer
        participants = list(dict.fromkeys(p for p in request.participants if p))
        if not participants and viewer.viewer_id:
            participants = [viewer.viewer_id]

        async def nothing() -> list[Any]:
            return []

        # Every source reads its rows' stored vectors in the same query (relevance and dedup
        # never re-embed a memory, and no second round trip fetches them).
        vectors: dict[str, np.ndarray] = {}
        identity = memories.about(
            viewer, now, participants, [MemoryType.IDENTITY], limit=cfg.sql_limit, vectors=vectors
        )
        important = memories.query(
            viewer,
            now,
            # Identity rows all weigh 1.0: left in, everyone's would crowd out the decisions and
            # goals; the participants' own identities come from the query above.
            MemoryQuery(
                types=_NOT_IDENTITY,
                min_importance=cfg.important_threshold,
                order="important",
                limit=cfg.sql_limit,
            ),
            vectors,
        )
        recent = memories.query(
            viewer,
            now,
            MemoryQuery(
                since=now - self._recent_seconds,
                channel_id=request.channel_id if cfg.channel_scope else None,
                limit=cfg.sql_limit,
            ),
            vectors,
        )
        if meta is not None:
            # "What did we talk about" means every conversation the asker can see in the
            # workspace: what was learned and said there, a few turns of each day, and how busy
            # each day was.
            offset = self._utc_offset(now)
            days = max(1, math.ceil((meta.until - meta.since) / 86400))
            per_day = max(1, cfg.timeline_limit // days) + len(request.exclude_message_ids)
            timeline_memories = memories.between(
                viewer, now, meta.since, meta.until, None, cfg.timeline_limit, vectors
            )
            timeline_messages = turns.visible_between(viewer, meta.since, meta.until, per_day, offset)
            timeline_days = turns.days(
                viewer, meta.since, meta.until, offset, exclude=request.exclude_message_ids
            )
        else:
            timeline_memories, timeline_messages, timeline_days = nothing(), nothing(), nothing()
        about_self = (
            memories.about(
                viewer, now, [viewer.viewer_id], list(MemoryType), limit=cfg.sql_limit, vectors=vectors
            )
            if viewer.viewer_id is not None and asks_about_self(request.text)
            else nothing()
        )
        own = (
            memories.query(
                viewer,
                now,
                MemoryQuery(elsewhere=True, order="important", limit=OWN_ELSEWHERE_LIMIT),
                vectors,
            )
            if viewer.reaches_elsewhere
            else nothing()
        )
        found = _SqlFound()
        (
            found.identity,
            found.important,
            found.recent,
            found.preferences,
            found.timeline_memories,
            found.timeline_messages,
            found.timeline_days,
            found.own,
            found.about_self,
        ) = await asyncio.gather(
            self._guard("identity", identity, [], errors),
            self._guard("important", important, [], errors),
            self._guard("recent", recent, [], errors),
            self._guard("preferences", self.preferences.get_many(viewer, participants, vectors), [], errors),
            self._guard("timeline_memories", timeline_memories, [], errors),
            self._guard("timeline_messages", timeline_messages, [], errors),
            self._guard("timeline_days", timeline_days, [], errors),
            self._guard("own_elsewhere", own, [], errors),
            self._guard("about_self", about_self, [], errors),
        )
        skip = set(request.exclude_message_ids)
        found.timeline_messages = [m for m in found.timeline_messages if m.id not in skip]
        found.embeddings = vectors
        missing = [
            m.id
            for group in (
                found.identity,
                found.important,
                found.recent,
                found.preferences,
                found.timeline_memories,
                found.own,
                found.about_self,
            )
            for m in group
            if m.id not in vectors
        ]
        if missing:
            # Only rows whose vector the reads above could not give (none, unless a row lacks one).
            vectors.update(await self._guard("embeddings", memories.embeddings(missing), {}, errors))
        return found, _ms(t)

    async def _hybrid_search(
        self, request: PrehookRequest, query: np.ndarray, now: float, errors: list[str]
    ) -> tuple[_VectorFound, float]:
        t = time.perf_counter()
        memories, turn_store, viewer = self.engine.storage.memories, self.engine.storage.turns, request.viewer
        k = self.config.vector_top_k
        found = _VectorFound()
        no_hits: tuple[list[Any], list[Any]] = ([], [])
        # Dense and full text in one call per table: one pass over the scope kept in RAM.
        searches = [
            self._guard(
                "search", memories.hybrid_search(viewer, query, request.text, k, now), no_hits, errors
            )
        ]
        m = self.config.message_top_k
        if m > 0:
            # Past turns under the same privacy filter; the batch and the history window are
            # skipped after the search (they are few, and the model already has them).
            skip = len(request.exclude_message_ids) + len(request.in_context_message_ids)
            searches.append(
                self._guard(
                    "message_search",
                    turn_store.hybrid_search(viewer, query, request.text, m + skip),
                    no_hits,
                    errors,
                )
            )
        if self.summaries is not None and self.config.summary_top_k > 0:
            searches.append(
                self._guard(
                    "summaries",
                    self.summaries.search(
                        query, request.viewer, self.config.summary_top_k, threshold=self.config.min_relevance
                    ),
                    [],
                    errors,
                )
            )
        results = await asyncio.gather(*searches)
        if self.summaries is not None and self.config.summary_top_k > 0:
            in_context = {*request.exclude_message_ids, *request.in_context_message_ids}
            # A level-1 summary of turns the model already has adds nothing.
            found.summaries = [
                (summary, score)
                for summary, score in results.pop()
                if not (summary.level == 1 and set(summary.source_ids) <= in_context)
            ]
        found.dense, found.lexical = results[0]
        if m > 0:
            skip_ids = {*request.exclude_message_ids, *request.in_context_message_ids}
            message_dense, message_lexical = results[1]
            found.message_dense = [h for h in message_dense if h.id not in skip_ids][:m]
            found.message_lexical = [h for h in message_lexical if h.id not in skip_ids][:m]
            message_ids = list(
                dict.fromkeys([h.id for h in found.message_dense] + [h.id for h in found.message_lexical])
            )
        else:
            message_ids = []
        ids = list(dict.fromkeys([h.id for h in found.dense] + [h.id for h in found.lexical]))

        async def none() -> Any:
            return None

        # The rows of every hit, through the SQL privacy filter again (a vector row left behind by
        # a crash or a stale scope column can never leak a memory or a turn), with the turn that
        # followed each recalled one: two batched queries side by side.
        if message_ids and self.config.turn_follow_ups:
            turns = turn_store.visible_with_next(message_ids, viewer, REPLY_GAP_SECONDS)
        elif message_ids:
            turns = _alone(turn_store.visible(message_ids, viewer))
        else:
            turns = none()
        memory_rows, turn_rows = await asyncio.gather(
            self._guard("rows", memories.visible(ids, viewer, now), [], errors) if ids else none(),
            self._guard("message_rows", turns, [], errors),
        )
        found.rows = {m.id: m for m in memory_rows or []}
        found.messages = {turn.id: turn for turn, _ in turn_rows or []}
        found.following = {turn.id: after for turn, after in turn_rows or [] if after is not None}
        return found, _ms(t)

    # --- step 4: scoring ------------------------------------------------------------------------

    def _collect(
        self, request: PrehookRequest, sql: _SqlFound, found: _VectorFound, query: np.ndarray, now: float
    ) -> dict[str, _Candidate]:
        candidates: dict[str, _Candidate] = {}
        viewer = request.viewer

        def add(memory: Memory, source: str, floor: float, vector: np.ndarray | None) -> _Candidate | None:
            # Belt and braces: every source is already audience-filtered; re-check what is cheap.
            if (
                not memory.is_active(now)
                or memory.superseded_by is not None
                or not row_visible(viewer, memory)
            ):
                return None
            candidate = candidates.get(memory.id)
            if candidate is None:
                candidate = candidates[memory.id] = _Candidate(memory)
            candidate.sources.add(source)
            candidate.floor = max(candidate.floor, floor)
            if candidate.vector is None and vector is not None:
                candidate.vector = vector
            return candidate

        for hit in found.dense:
            if hit.id in found.rows:
                add(found.rows[hit.id], "vector", 0.0, hit.vector)
        for rank, hit in enumerate(found.lexical):
            if hit.id in found.rows:
                candidate = add(found.rows[hit.id], "fulltext", 0.0, hit.vector)
                if candidate is not None and candidate.lexical_rank is None:
                    candidate.lexical_rank = rank
        stored = sql.embeddings
        for source, group, floor in (
            ("identity", sql.identity, IDENTITY_FLOOR),
            ("preference", sql.preferences, PREFERENCE_FLOOR),
            ("important", sql.important, IMPORTANT_FLOOR),
            ("recent", sql.recent, RECENT_FLOOR),
            # Ranked by their similarity alone, as search hits are.
            ("own", sql.own, 0.0),
            ("about_self", sql.about_self, ABOUT_SELF_FLOOR),
        ):
            for memory in group:
                add(memory, source, floor, stored.get(memory.id))
        if not candidates:
            return candidates

        # One matrix product gives every candidate's cosine with the query.
        with_vectors = [c for c in candidates.values() if c.vector is not None]
        if with_vectors:
            cosines = np.stack([c.vector for c in with_vectors]) @ query  # type: ignore[misc]
            for candidate, cosine in zip(with_vectors, cosines, strict=True):
                candidate.relevance = float(cosine)
        for candidate in candidates.values():
            memory = candidate.memory
            # What the question asks for ("about me") is not filler, whatever its similarity.
            candidate.floored = (
                candidate.floor > candidate.relevance
                and candidate.lexical_rank is None
                and "about_self" not in candidate.sources
            )
            relevance = max(candidate.relevance, candidate.floor)
            if candidate.lexical_rank is not None:
                relevance += LEXICAL_BONUS / (1 + candidate.lexical_rank)
            candidate.relevance = relevance
            candidate.score = relevance * freshness(now - memory.created_at) * usage(memory.access_count)
        return candidates

    def _collect_messages(
        self, request: PrehookRequest, found: _VectorFound, query: np.ndarray, now: float
    ) -> list[_Candidate]:
        """Past turns from the hybrid search, scored like memories (relevance × freshness)."""
        if not found.messages:
            return []
        by_id: dict[str, _Candidate] = {}
        for hit in found.message_dense:
            row = found.messages.get(hit.id)
            if row is not None and hit.id not in by_id:
                by_id[hit.id] = _Candidate(None, hit.vector, {"message"}, message=row)
        for rank, hit in enumerate(found.message_lexical):
            row = found.messages.get(hit.id)
            if row is None:
                continue
            candidate = by_id.get(hit.id)
            if candidate is None:
                candidate = by_id[hit.id] = _Candidate(None, hit.vector, {"message"}, message=row)
            if candidate.lexical_rank is None:
                candidate.lexical_rank = rank
        with_vectors = [c for c in by_id.values() if c.vector is not None]
        if with_vectors:
            cosines = np.stack([c.vector for c in with_vectors]) @ query  # type: ignore[misc]
            for candidate, cosine in zip(with_vectors, cosines, strict=True):
                candidate.relevance = float(cosine)
        # Reciprocal rank fusion of the two lists: keyword search finds the names and rare words
        # of a conversation that embeddings blur, and neither list's raw score is comparable with
        # the other's. The fused value is mapped onto the relevance scale of memories.
        cfg = self.config
        dense_rank = {h.id: r for r, h in enumerate(found.message_dense)}
        for candidate in by_id.values():
            if candidate.lexical_rank is None and candidate.relevance < cfg.min_relevance:
                # Nearest by vector but still far: every query has 20 nearest turns, relevant or not.
                candidate.score = candidate.relevance * freshness(now - candidate.created_at)
                continue
            fused = 0.0
            if candidate.id in dense_rank:
                fused += cfg.turn_dense_weight / (cfg.turn_rrf_k + dense_rank[candidate.id])
            if candidate.lexical_rank is not None:
                fused += 1.0 / (cfg.turn_rrf_k + candidate.lexical_rank)
            candidate.relevance = max(candidate.relevance, cfg.min_relevance + cfg.turn_rrf_scale * fused)
            candidate.score = candidate.relevance * freshness(now - candidate.created_at)
        return list(by_id.values())

    def _collect_summaries(self, found: _VectorFound, now: float) -> list[_Candidate]:
        """Conversation summaries from their own search, scored like turns (cosine × freshness)."""
        return [
            _Candidate(
                None,
                None,
                {"summary"},
                relevance=score,
                score=score * freshness(now - s.covers_to),
                summary=s,
            )
            for s, score in found.summaries
        ]

    def _timeline(
        self,
        meta: MetaQuestion,
        sql: _SqlFound,
        candidates: dict[str, _Candidate],
        query: np.ndarray,
        now: float,
    ) -> Timeline:
        """The period's memories and messages; they skip the dedup: the user asked for them."""
        items: list[BlockItem] = []
        span = max(meta.until - meta.since, 1.0)
        for memory in sql.timeline_memories:
            if not memory.is_active(now) or memory.superseded_by is not None:
                continue
            vector = sql.embeddings.get(memory.id)
            relevance = float(vector @ query) if vector is not None else 0.0
            items.append(BlockItem(Section.TIMELINE, TIMELINE_MEMORY_BASE + relevance, memory=memory))
            if memory.id not in candidates:
                candidates[memory.id] = _Candidate(memory, vector, {"timeline"}, relevance=relevance)
        for message in sql.timeline_messages:
            # Older turns give way first when the budget is tight.
            recency = (message.created_at - meta.since) / span
            items.append(BlockItem(Section.TIMELINE, TIMELINE_MESSAGE_BASE + 0.1 * recency, message=message))
        days = [TimelineDay(start, count, places) for start, count, places in sql.timeline_days]
        return Timeline(meta.label, meta.since, meta.until, items, days)

    # --- step 5: dedup --------------------------------------------------------------------------

    def _relevant(self, candidate: _Candidate) -> bool:
        """Relevant enough to inject: a search hit above the floor, or a memory a SQL source wants."""
        return candidate.relevance >= self.config.min_relevance or not candidate.sources <= _SEARCH_SOURCES

    def _dedup(
        self,
        ranked: list[_Candidate],
        state: ChannelInjectionState,
        following: Mapping[str, StoredMessage] | None = None,
    ) -> list[_Candidate]:
        """The candidates that go into the block, best first, at most `max_injection_count` lines.

        Turns that follow each other share a line (see `_block_items`), so a turn that joins a
        chosen neighbour costs no line.
        """
        cfg = self.config
        following = following or {}
        previous = {after.id: turn_id for turn_id, after in following.items()}
        chosen_turns: set[str] = set()
        lines = 0
        # What the asker explicitly asked for ("what do you remember about me?") is answered in
        # full, as a timeline is: the injection state does not hold it back.
        eligible = [
            c
            for c in ranked
            if self._relevant(c)
            and ("about_self" in c.sources or state.should_reinject(c.id, c.updated_at, state.turn))
        ]
        with_vectors = [n for n, c in enumerate(eligible) if c.vector is not None]
        duplicate = np.zeros(len(eligible), dtype=bool)
        pairwise = np.zeros((0, 0), dtype=np.float32)
        position: dict[int, int] = {}
        if with_vectors:
            matrix = np.stack([eligible[n].vector for n in with_vectors])  # type: ignore[misc]
            # Against what the channel already holds: one product for the whole batch.
            mask = state.semantic_duplicates(matrix, [eligible[n].id for n in with_vectors])
            duplicate[with_vectors] = mask
            duplicate &= np.array(["about_self" not in c.sources for c in eligible], dtype=bool)
            # Against each other, so one block does not carry two wordings of one fact.
            pairwise = matrix @ matrix.T
            position = {n: row for row, n in enumerate(with_vectors)}
        selected: list[_Candidate] = []
        chosen_rows: list[int] = []
        floored = 0
        for n, candidate in enumerate(eligible):
            if duplicate[n] or (candidate.floored and floored >= cfg.max_floored):
                continue
            joins = 0
            if candidate.message is not None:
                after = following.get(candidate.id)
                joins = (previous.get(candidate.id) in chosen_turns) + (
                    after is not None and after.id in chosen_turns
                )
            if lines + 1 - joins > cfg.max_injection_count:
                if lines >= cfg.max_injection_count and not following:
                    break
                continue
            row = position.get(n)
            if row is not None and chosen_rows and pairwise[row, chosen_rows].max() > cfg.semantic_threshold:
                continue
            selected.append(candidate)
            lines += 1 - joins
            if candidate.message is not None:
                chosen_turns.add(candidate.id)
            floored += candidate.floored
            if row is not None:
                chosen_rows.append(row)
        return selected


async def _alone(rows: Awaitable[list[StoredMessage]]) -> list[tuple[StoredMessage, None]]:
    return [(row, None) for row in await rows]


def _block_items(selected: Sequence[_Candidate], following: Mapping[str, StoredMessage]) -> list[BlockItem]:
    """One block line per chosen candidate, except that a chosen turn and the turns after it
    (chosen or not, while they chain) share the line of the earliest: one exchange, one line."""
    turns = {c.id: c for c in selected if c.message is not None}
    previous = {after.id: turn_id for turn_id, after in following.items()}
    placed: set[str] = set()
    items: list[BlockItem] = []
    for candidate in selected:
        if candidate.message is None:
            items.append(
                BlockItem(
                    _section(candidate), candidate.score, memory=candidate.memory, summary=candidate.summary
                )
            )
            continue
        if previous.get(candidate.id) in turns or candidate.id in placed:
            continue  # part of an earlier chosen turn's line
        placed.add(candidate.id)
        item = BlockItem(Section.MESSAGES, candidate.score, message=candidate.message)
        current = candidate.id
        while (after := following.get(current)) is not None and after.id not in placed:
            item.follow_ups.append(after)
            placed.add(after.id)
            if after.id not in turns:
                break
            item.score = max(item.score, turns[after.id].score)
            current = after.id
        items.append(item)
    return items


def _section(candidate: _Candidate) -> Section:
    if candidate.memory is None:
        return Section.MESSAGES
    memory_type = candidate.memory.memory_type
    if memory_type is MemoryType.IDENTITY:
        return Section.IDENTITY
    if memory_type is MemoryType.PREFERENCE:
        return Section.PREFERENCES
    if candidate.sources & {"vector", "fulltext", "important", "identity", "preference", "own", "about_self"}:
        return Section.RELEVANT
    return Section.RECENT


def _role(message: object) -> object:
    if isinstance(message, Mapping):
        return message.get("role")
    return getattr(message, "role", None)


def _block_message(template: object, block: str) -> Any:
    """A user-role message carrying `block`, shaped like the history's own messages."""
    if template is None or isinstance(template, Mapping):
        return {"role": "user", "content": block}
    if dataclasses.is_dataclass(template) and not isinstance(template, type):
        names = {f.name for f in dataclasses.fields(template)}
        # Not from any speaker: drop the name, tool calls and tool-call id of the template turn.
        blanks = {"name": None, "tool_call_id": None, "tool_calls": []}
        changes: dict[str, Any] = {"role": "user", "content": block}
        changes.update({k: v for k, v in blanks.items() if k in names})
        return dataclasses.replace(template, **changes)
    return {"role": "user", "content": block}


def inject_into(history: Sequence[T], block: str | None) -> list[T]:
    """A CLONE of `history` with `block` inserted just before the last user turn.

    The input list and its messages are never modified (messages are shallow-copied), so the
    transcript that is saved never contains the block. With no user turn the block goes last.
    """
    clone: list[T] = [dict(m) if isinstance(m, Mapping) else copy.copy(m) for m in history]  # type: ignore[misc]
    if not block:
        return clone
    index = next((n for n in range(len(clone) - 1, -1, -1) if _role(clone[n]) == "user"), len(clone))
    template = clone[index] if index < len(clone) else (clone[-1] if clone else None)
    clone.insert(index, _block_message(template, block))
    return clone
