"""The pre-hook's sources: the SQL reads (who is talking, preferences, important, recent, a meta
question's period, the viewer's own) and the hybrid search over memories, past turns and summaries."""

from __future__ import annotations

import asyncio
import logging
import math
import time
from collections.abc import Awaitable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, tzinfo
from typing import Any, TypeVar

import numpy as np

from ..dedup import KIND_SUBJECT_PREFIX
from ..engine import OWN_ELSEWHERE_LIMIT, MemoryEngine
from ..models import Audience, Memory, MemoryType, StoredMessage, Summary
from ..settled import gather_settled
from ..storage import MemoryQuery, MemoryRead, VectorHit, about_read, between_read
from ..summaries import SummaryManager
from ..text import read_kind_note, topic_words
from ..ttl import parse_duration
from ..turn_text import REPLY_GAP_SECONDS, ends_on_a_question
from .asked_period import asked_period
from .config import PrehookConfig
from .meta_questions import MetaQuestion, asks_about_self
from .preferences_cache import PreferencesCache
from .request import PrehookRequest
from .turn_rerank import rerank_turns

log = logging.getLogger("memory.prehook")

T = TypeVar("T")
_NOT_IDENTITY = [t for t in MemoryType if t is not MemoryType.IDENTITY]
# How many of the best dense turn hits move the question for the second search (`_feedback`).
FEEDBACK_SEEDS = 3
# Kinds whose other instances one run reads (`kind_siblings`): a block holds a few kinds at most.
MAX_KIND_GROUPS = 4


def elapsed_ms(start: float) -> float:
    """Milliseconds since `start` (a `time.perf_counter()` reading)."""
    return (time.perf_counter() - start) * 1000.0


@dataclass(slots=True)
class SqlFound:
    """What the SQL sources gave, with the stored vectors of their rows."""

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
class SearchFound:
    """What the hybrid searches gave: hits, their visible rows, and each recalled turn's follow-up."""

    dense: list[Any] = field(default_factory=list)
    lexical: list[Any] = field(default_factory=list)
    rows: dict[str, Memory] = field(default_factory=dict)
    summaries: list[tuple[Summary, float]] = field(default_factory=list)
    message_dense: list[Any] = field(default_factory=list)
    message_lexical: list[Any] = field(default_factory=list)
    messages: dict[str, StoredMessage] = field(default_factory=dict)
    # Recalled turn id -> the turn that came right after it (readable by the same viewer).
    following: dict[str, StoredMessage] = field(default_factory=dict)
    # With `turn_pool`: the kept turns' second-stage scores (`rerank_turns`), best first.
    turn_scores: dict[str, float] = field(default_factory=dict)
    # ... and which of the pool's turns the full-text search found.
    turn_matched: set[str] = field(default_factory=set)


@dataclass(eq=False)
class Sources:
    """Reads every source of one run side by side; a failing source costs its rows, not the reply."""

    engine: MemoryEngine
    config: PrehookConfig
    preferences: PreferencesCache
    # Conversation summaries (levels 1+) searched beside memories and turns, when kept.
    summaries: SummaryManager | None = None
    tz: tzinfo = UTC
    _recent_seconds: float = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self._recent_seconds = parse_duration(self.config.recent_duration)

    def _utc_offset(self, now: float, zone: tzinfo) -> float:
        """Seconds east of UTC of `zone` at `now` (where a timeline's days begin)."""
        offset = datetime.fromtimestamp(now, zone).utcoffset()
        return offset.total_seconds() if offset is not None else 0.0

    async def guard(self, name: str, awaitable: Awaitable[T], default: T, errors: list[str]) -> T:
        # A failing source costs its memories, not the reply: the hook degrades, and says so.
        try:
            return await awaitable
        except Exception as exc:
            log.warning("pre-hook source failed", extra={"source": name}, exc_info=True)
            errors.append(f"{name}: {type(exc).__name__}")
            return default

    async def sql(
        self, request: PrehookRequest, now: float, meta: MetaQuestion | None, errors: list[str]
    ) -> tuple[SqlFound, float]:
        t = time.perf_counter()
        memories, turns = self.engine.storage.memories, self.engine.storage.turns
        cfg, viewer = self.config, request.viewer
        participants = list(dict.fromkeys(p for p in request.participants if p))
        if not participants and viewer.viewer_id:
            participants = [viewer.viewer_id]

        async def nothing() -> list[Any]:
            return []

        # Every listing reads its rows' stored vectors in the same query (relevance and dedup never
        # re-embed a memory, and no second round trip fetches them), and all of them go in one
        # `read_many` (one statement on PostgreSQL).
        vectors: dict[str, np.ndarray] = {}
        reads: dict[str, MemoryRead] = {}
        if participants:
            reads["identity"] = about_read(participants, [MemoryType.IDENTITY], limit=cfg.sql_limit)
        # Identity rows all weigh 1.0: left in, everyone's would crowd out the decisions and goals;
        # the participants' own identities come from the read above.
        reads["important"] = MemoryRead(
            MemoryQuery(
                types=_NOT_IDENTITY,
                min_importance=cfg.important_threshold,
                order="important",
                limit=cfg.sql_limit,
            )
        )
        reads["recent"] = MemoryRead(
            MemoryQuery(
                since=now - self._recent_seconds,
                channel_id=request.scope.channel_id if cfg.channel_scope else None,
                limit=cfg.sql_limit,
            )
        )
        if meta is not None:
            # "What did we talk about" means every conversation the asker can see in the
            # workspace: what was learned and said there, a few turns of each day, and how busy
            # each day was.
            offset = self._utc_offset(now, request.asker_tz or self.tz)
            days = max(1, math.ceil((meta.until - meta.since) / 86400))
            per_day = max(1, cfg.timeline_limit // days) + len(request.exclude_message_ids)
            reads["timeline_memories"] = between_read(meta.since, meta.until, None, cfg.timeline_limit)
            timeline_messages = turns.visible_between(viewer, meta.since, meta.until, per_day, offset)
            timeline_days = turns.days(
                viewer, meta.since, meta.until, offset, exclude=request.exclude_message_ids
            )
        else:
            timeline_messages, timeline_days = nothing(), nothing()
        if viewer.viewer_id is not None and asks_about_self(request.text):
            reads["about_self"] = about_read([viewer.viewer_id], list(MemoryType), limit=cfg.sql_limit)
        if viewer.reaches_elsewhere:
            reads["own"] = MemoryRead(
                MemoryQuery(elsewhere=True, order="important", limit=OWN_ELSEWHERE_LIMIT)
            )
        found = SqlFound()
        listed, found.preferences, found.timeline_messages, found.timeline_days = await asyncio.gather(
            self.guard(
                "memories",
                memories.read_many(viewer, now, list(reads.values()), vectors),
                [[] for _ in reads],
                errors,
            ),
            self.guard("preferences", self.preferences.get_many(viewer, participants, vectors), [], errors),
            self.guard("timeline_messages", timeline_messages, [], errors),
            self.guard("timeline_days", timeline_days, [], errors),
        )
        rows = dict(zip(reads, listed, strict=True))
        found.identity = rows.get("identity", [])
        found.important = rows.get("important", [])
        found.recent = rows.get("recent", [])
        found.timeline_memories = rows.get("timeline_memories", [])
        found.about_self = rows.get("about_self", [])
        found.own = rows.get("own", [])
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
            vectors.update(await self.guard("embeddings", memories.embeddings(missing), {}, errors))
        return found, elapsed_ms(t)

    async def search(
        self, request: PrehookRequest, query: Awaitable[np.ndarray], now: float, errors: list[str]
    ) -> SearchFound:
        """The hybrid searches of `request`, begun before its embedding is done: `query` is a future
        of it, and what needs no vector (the full-text searches) starts without waiting for it."""
        found = SearchFound()
        # The full-text searches look for the message's words that carry a topic ("ok thanks" has none).
        keywords = topic_words(request.text)
        # Three chains side by side, each reading its rows as soon as its own hits are in: a
        # memory search never waits on the turns' second round, nor a turn search on memories.
        await gather_settled(
            self._memories(request, query, keywords, now, found, errors),
            self._turns(request, query, keywords, now, found, errors),
            self._summaries(request, query, found, errors),
        )
        return found

    async def _memories(
        self,
        request: PrehookRequest,
        query: Awaitable[np.ndarray],
        keywords: str,
        now: float,
        found: SearchFound,
        errors: list[str],
    ) -> None:
        """Memory hits (dense and full text in one call: one pass over the scope kept in RAM), then
        their rows through the SQL privacy filter again: a vector row left behind by a crash or a
        stale scope column can never leak a memory."""
        memories, viewer = self.engine.storage.memories, request.viewer
        no_hits: tuple[list[Any], list[Any]] = ([], [])
        found.dense, found.lexical = await self.guard(
            "search",
            memories.hybrid_search_awaiting(viewer, query, keywords, self.config.vector_top_k, now),
            no_hits,
            errors,
        )
        ids = list(dict.fromkeys([h.id for h in found.dense] + [h.id for h in found.lexical]))
        # Hits whose search read their rows under the same filter (PostgreSQL) are not read again.
        read = {h.id: h.memory for h in (*found.dense, *found.lexical) if h.memory is not None}
        missing = [i for i in ids if i not in read]
        if missing:
            rows = await self.guard("rows", memories.visible(missing, viewer, now), [], errors)
            read.update((m.id, m) for m in rows)
        found.rows = {i: read[i] for i in ids if i in read}

    async def _turns(
        self,
        request: PrehookRequest,
        pending: Awaitable[np.ndarray],
        keywords: str,
        now: float,
        found: SearchFound,
        errors: list[str],
    ) -> None:
        """Past turns under the same privacy filter (and those said in the period the question
        names), a second round from the best of them (`turn_feedback`), then their rows, each
        with the turn that followed it."""
        m = self.config.message_top_k
        if m <= 0:
            return
        turn_store, viewer = self.engine.storage.turns, request.viewer
        # The batch and the history window are skipped after the search (they are few, and the
        # model already has them).
        skip_ids = {*request.exclude_message_ids, *request.in_context_message_ids}
        skip = len(request.exclude_message_ids) + len(request.in_context_message_ids)
        depth = max(m, self.config.turn_pool)
        no_hits: tuple[list[Any], list[Any]] = ([], [])
        (message_dense, message_lexical), dated = await asyncio.gather(
            self.guard(
                "message_search",
                turn_store.hybrid_search_awaiting(viewer, pending, keywords, depth + skip),
                no_hits,
                errors,
            ),
            self.guard("dated_turns", self._dated_turns(request, pending, now), [], errors),
        )
        query = await pending
        first = [h for h in message_dense if h.id not in skip_ids][:depth]
        found.message_lexical = [h for h in message_lexical if h.id not in skip_ids][:depth]
        dated = [h for h in dated if h.id not in skip_ids][: self.config.dated_turns]
        if self.config.turn_pool > 0:
            # No second search by the moved question here: the pool is rescored by cosine with the
            # question itself, and the first search already holds the `depth` nearest turns, so a
            # turn only the moved question finds can never outscore them.
            kept = rerank_turns(
                query,
                first,
                found.message_lexical,
                self.config.turn_lexical_weight,
                2 * m,
                dated,
                self.config.dated_turn_boost,
            )
            found.turn_scores = {hit.id: score for hit, score in kept}
            found.turn_matched = {hit.id for hit in found.message_lexical}
            found.message_dense = [hit for hit, _ in kept]
            found.message_lexical = []
        else:
            found.message_dense = await self._feedback(request, query, first, skip_ids, errors, depth)
        message_ids = list(
            dict.fromkeys([h.id for h in found.message_dense] + [h.id for h in found.message_lexical])
        )
        if not message_ids:
            return
        # Read again through the SQL privacy filter, like the memories' rows.
        if self.config.turn_follow_ups:
            turns = turn_store.visible_with_next(message_ids, viewer, REPLY_GAP_SECONDS)
        else:
            turns = _alone(turn_store.visible(message_ids, viewer))
        turn_rows = await self.guard("message_rows", turns, [], errors)
        found.messages = {turn.id: turn for turn, _ in turn_rows}
        found.following = {turn.id: after for turn, after in turn_rows if after is not None}
        await self._after_follow_ups(found, viewer, errors)

    async def _dated_turns(
        self, request: PrehookRequest, pending: Awaitable[np.ndarray], now: float
    ) -> list[VectorHit]:
        """The turns said in the period the question names (`asked_period`) or telling of it,
        nearest to it: "what did Nate do on 25 May?" is about that day's turns, even those the whole
        history outranks, and "which country was Tim visiting in the second week of November?"
        about a turn said days later ("my trip to the UK last Friday")."""
        k = self.config.dated_turns
        zone = request.asker_tz or self.tz
        period = asked_period(request.text, now, zone) if k > 0 and self.config.turn_pool > 0 else None
        if period is None:
            return []
        # The batch and the history window are dropped after the search, as from the others.
        k += len(request.exclude_message_ids) + len(request.in_context_message_ids)
        turns, query = self.engine.storage.turns, await pending
        said, told = await asyncio.gather(
            turns.search_between(request.viewer, query, period.since, period.until, k),
            turns.search_told(request.viewer, query, *period.told(), k),
        )
        # A turn both said then and telling of it is one hit (the same vector, the same score).
        both = {hit.id: hit for hit in [*said, *told]}
        return sorted(both.values(), key=lambda hit: -hit.score)[:k]

    async def _after_follow_ups(self, found: SearchFound, viewer: Audience, errors: list[str]) -> None:
        """The turn after some follow-ups, in one read, for two uses:

        - a follow-up that asks back is shown with its own answer ("Have you tried it?" "Never! What
          did you make?" "A blue mug");
        - where a pool turn's speaker went on after the other's reaction ("We camped by the lake."
          "Fun!" "We roasted marshmallows too"), that next turn of theirs is a candidate, scored
          `turn_continuation_drop` below the turn it continues (`turn_continuations`): a story told
          over several turns is found by its first. After a question the next turn is its answer.
        """
        following, messages = found.following, found.messages
        continuing = self.config.turn_continuations and bool(found.turn_scores)
        reactions = {
            turn_id: after
            for turn_id, after in following.items()
            if continuing and after.id not in messages and not ends_on_a_question(messages[turn_id])
        }
        asking = [a for a in following.values() if a.id not in following and ends_on_a_question(a)]
        wanted = list(dict.fromkeys([*(a.id for a in reactions.values()), *(a.id for a in asking)]))
        if not wanted:
            return
        read = self.engine.storage.turns.visible_with_next(wanted, viewer, REPLY_GAP_SECONDS)
        rows = await self.guard("message_rows", read, [], errors)
        next_of = {turn.id: after for turn, after in rows if after is not None}
        # `following` is in the pool's order, best first: a turn two pool turns lead to takes the
        # better one's score.
        for turn_id, reaction in reactions.items():
            said, more = found.messages[turn_id], next_of.get(reaction.id)
            if more is None or more.id in found.messages or more.author_id != said.author_id:
                continue
            found.messages[more.id] = more
            found.turn_scores[more.id] = found.turn_scores[turn_id] - self.config.turn_continuation_drop
            found.message_dense.append(VectorHit(more.id, found.turn_scores[more.id], None))
        for follow_up in asking:
            if (answer := next_of.get(follow_up.id)) is not None:
                found.following.setdefault(follow_up.id, answer)

    async def _summaries(
        self, request: PrehookRequest, pending: Awaitable[np.ndarray], found: SearchFound, errors: list[str]
    ) -> None:
        """Conversation summaries near the query; a level-1 summary of turns the model already has
        adds nothing."""
        if self.summaries is None or self.config.summary_top_k <= 0:
            return
        query = await pending
        hits = await self.guard(
            "summaries",
            self.summaries.search(
                query, request.viewer, self.config.summary_top_k, threshold=self.config.min_relevance
            ),
            [],
            errors,
        )
        in_context = {*request.exclude_message_ids, *request.in_context_message_ids}
        found.summaries = [
            (summary, score)
            for summary, score in hits
            if not (summary.level == 1 and set(summary.source_ids) <= in_context)
        ]

    async def _feedback(
        self,
        request: PrehookRequest,
        query: np.ndarray,
        dense: list[Any],
        skip_ids: set[str],
        errors: list[str],
        depth: int,
    ) -> list[Any]:
        """The nearest turns again, to the question moved towards its best dense hits (pseudo-
        relevance feedback, `turn_feedback`): a question's few words find the turns that say it
        in its words; the turns near those best hits also say what the question is about in the
        conversation's own words ("what exercises has John done?" finds kickboxing, then yoga).
        One more search over the stored vectors, no embedding; `dense` is kept when it fails."""
        weight = self.config.turn_feedback
        seeds = [h.vector for h in dense[:FEEDBACK_SEEDS] if h.vector is not None]
        if weight <= 0 or not seeds:
            return dense
        moved = query + weight * np.mean(seeds, axis=0)
        moved = (moved / max(float(np.linalg.norm(moved)), 1e-12)).astype(np.float32)
        hits = await self.guard(
            "message_feedback",
            self.engine.storage.turns.search(request.viewer, moved, depth + len(skip_ids)),
            [],
            errors,
        )
        if not hits:
            return dense
        return [h for h in hits if h.id not in skip_ids][:depth]

    async def kind_siblings(
        self, audience: Audience, memories: Sequence[Memory], now: float, errors: list[str]
    ) -> dict[str, list[Memory]]:
        """For each kind memory of `memories` (the run's best candidates), the instances of its kind
        about the same person that `audience` may read, oldest first, from one read for all kinds.
        The memories of one kind share one list."""
        limit = self.config.kind_siblings
        groups: dict[tuple[str, str, str], list[str]] = {}
        for memory in memories:
            note = read_kind_note(memory.content)
            tags = [s for s in memory.subjects if s.startswith(KIND_SUBJECT_PREFIX)]
            if note is None or not tags or memory.user_id is None:
                continue
            key = (memory.user_id, tags[0], note.kind)
            if key in groups or len(groups) < MAX_KIND_GROUPS:
                groups.setdefault(key, []).append(memory.id)
        if limit <= 0 or not groups:
            return {}
        # One listing for all kinds: more rows than shown, since the rows of one tag may be of
        # other kinds ("made": recipes, written works) and the chosen ones are not said again.
        query = MemoryQuery(
            user_ids=sorted({user for user, _, _ in groups}),
            subjects=sorted({tag for _, tag, _ in groups}),
            order="recent",
            limit=4 * limit * len(groups),
        )
        rows = await self.guard(
            "kind_siblings", self.engine.storage.memories.query(audience, now, query), [], errors
        )
        # Each row's kind, read once for all the groups.
        kinds = [(row, _kind_of(row)) for row in rows if row.is_active(now)]
        siblings: dict[str, list[Memory]] = {}
        for (user, tag, kind), members in groups.items():
            same = sorted(
                (row for row, of in kinds if of == kind and row.user_id == user and tag in row.subjects),
                key=lambda m: m.created_at,
            )
            for memory_id in members:
                siblings[memory_id] = same
        return siblings


def _kind_of(memory: Memory) -> str | None:
    note = read_kind_note(memory.content)
    return note.kind if note is not None else None


async def _alone(rows: Awaitable[list[StoredMessage]]) -> list[tuple[StoredMessage, None]]:
    return [(row, None) for row in await rows]
