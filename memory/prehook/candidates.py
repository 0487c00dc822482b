"""The pre-hook's candidates: every source's rows as one kind of candidate, their scores, and a
meta question's timeline."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from ..models import Memory, StoredMessage, Summary
from ..scope import row_visible
from ..storage import VectorHit
from ..text import names_in, only_addressed
from .config import PrehookConfig
from .context_block import BlockItem, Section, Timeline, TimelineDay
from .meta_questions import MetaQuestion
from .request import PrehookRequest
from .sources import SearchFound, SqlFound

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


@dataclass(slots=True)
class Candidate:
    """One memory, past turn or summary competing for a line of the block, with its scores."""

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


def shared_ranks(hits: Sequence[VectorHit]) -> list[int]:
    """Each hit's rank in a list best first, hits of equal score sharing the better rank: the order
    of a tie is the backend's own (LanceDB and PostgreSQL give two equal BM25 scores either way
    round), and a bonus by rank must not hang on it."""
    ranks: list[int] = []
    for n, hit in enumerate(hits):
        ranks.append(ranks[-1] if n and hit.score == hits[n - 1].score else n)
    return ranks


def collect(
    request: PrehookRequest, sql: SqlFound, found: SearchFound, query: np.ndarray, now: float
) -> dict[str, Candidate]:
    """Memories from every source, one candidate each, scored: relevance (cosine, floors, full-text
    bonus) x freshness x usage."""
    candidates: dict[str, Candidate] = {}
    viewer = request.viewer

    def add(memory: Memory, source: str, floor: float, vector: np.ndarray | None) -> Candidate | None:
        # Belt and braces: every source is already audience-filtered; re-check what is cheap.
        if not memory.is_active(now) or memory.superseded_by is not None or not row_visible(viewer, memory):
            return None
        candidate = candidates.get(memory.id)
        if candidate is None:
            candidate = candidates[memory.id] = Candidate(memory)
        candidate.sources.add(source)
        candidate.floor = max(candidate.floor, floor)
        if candidate.vector is None and vector is not None:
            candidate.vector = vector
        return candidate

    for hit in found.dense:
        if hit.id in found.rows:
            add(found.rows[hit.id], "vector", 0.0, hit.vector)
    for rank, hit in zip(shared_ranks(found.lexical), found.lexical, strict=True):
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


def collect_messages(
    config: PrehookConfig, found: SearchFound, query: np.ndarray, now: float, question: str = ""
) -> list[Candidate]:
    """Past turns from the hybrid search, scored like memories (relevance × freshness), a turn
    that only speaks to the person `question` names a little lower (`turn_addressee_drop`)."""
    turns = _scored_turns(config, found, query, now)
    if config.turn_addressee_drop and question:
        _lower_turns_spoken_to(turns, question, config.turn_addressee_drop, now)
    return turns


def _lower_turns_spoken_to(turns: list[Candidate], question: str, drop: float, now: float) -> None:
    """Lower the turns by someone else that name the person the question names only to speak to
    them: "Thanks, Alice! I painted this" is about the speaker's painting, not Alice's."""
    authors = {c.message.author_name for c in turns if c.message is not None and c.message.author_name}
    named = names_in(question, authors)
    if not named:
        return
    for candidate in turns:
        message = candidate.message
        if message is None or message.author_name in named:
            continue
        if any(only_addressed(name, message.content) for name in named):
            candidate.relevance -= drop
            candidate.score = candidate.relevance * freshness(now - candidate.created_at)


def _scored_turns(
    config: PrehookConfig, found: SearchFound, query: np.ndarray, now: float
) -> list[Candidate]:
    if not found.messages:
        return []
    by_id: dict[str, Candidate] = {}
    for hit in found.message_dense:
        row = found.messages.get(hit.id)
        if row is not None and hit.id not in by_id:
            by_id[hit.id] = Candidate(None, hit.vector, {"message"}, message=row)
    for rank, hit in zip(shared_ranks(found.message_lexical), found.message_lexical, strict=True):
        row = found.messages.get(hit.id)
        if row is None:
            continue
        candidate = by_id.get(hit.id)
        if candidate is None:
            candidate = by_id[hit.id] = Candidate(None, hit.vector, {"message"}, message=row)
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
    cfg = config
    if found.turn_scores:
        # The second stage scored the kept turns already (`turn_pool`).
        for candidate in by_id.values():
            relevance = found.turn_scores.get(candidate.id, candidate.relevance) + cfg.turn_offset
            if candidate.id in found.turn_matched:
                # A turn that shares the question's words is relevant, however far its vector
                # (as under the rank fusion): a name said once must not be lost to its cosine.
                relevance = max(relevance, cfg.min_relevance)
            candidate.relevance = relevance
            candidate.score = relevance * freshness(now - candidate.created_at)
        return list(by_id.values())
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


def collect_summaries(found: SearchFound, now: float) -> list[Candidate]:
    """Conversation summaries from their own search, scored like turns (cosine × freshness)."""
    return [
        Candidate(
            None,
            None,
            {"summary"},
            relevance=score,
            score=score * freshness(now - s.covers_to),
            summary=s,
        )
        for s, score in found.summaries
    ]


def build_timeline(
    meta: MetaQuestion,
    sql: SqlFound,
    candidates: dict[str, Candidate],
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
            candidates[memory.id] = Candidate(memory, vector, {"timeline"}, relevance=relevance)
    for message in sql.timeline_messages:
        # Older turns give way first when the budget is tight.
        recency = (message.created_at - meta.since) / span
        items.append(BlockItem(Section.TIMELINE, TIMELINE_MESSAGE_BASE + 0.1 * recency, message=message))
    days = [TimelineDay(start, count, places) for start, count, places in sql.timeline_days]
    return Timeline(meta.label, meta.since, meta.until, items, days)


def relevant(config: PrehookConfig, candidate: Candidate) -> bool:
    """Relevant enough to inject: a search hit above the floor, or a memory a SQL source wants."""
    return candidate.relevance >= config.min_relevance or not candidate.sources <= _SEARCH_SOURCES
