"""Ranking for the pre-hook: candidates from every source, their scores, a meta question's timeline,
the dedup against the channel and within the block, and the block's lines."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np

from ..models import Memory, MemoryType, StoredMessage, Summary
from ..people.profile import FIELDS, profile_facts
from ..scope import row_visible
from ..storage import VectorHit
from ..text import names_in, only_addressed
from ..turn_text import ends_on_a_question
from .config import PrehookConfig
from .context_block import BlockItem, Section, Timeline, TimelineDay
from .injection_state import ChannelInjectionState
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


def dedup(
    config: PrehookConfig,
    ranked: list[Candidate],
    state: ChannelInjectionState,
    following: Mapping[str, StoredMessage] | None = None,
) -> list[Candidate]:
    """The candidates that go into the block, best first, at most `max_injection_count` lines.

    Turns that follow each other share a line (see `block_items`), so a turn that joins a
    chosen neighbour costs no line.
    """
    cfg = config
    following = following or {}
    previous = {after.id: turn_id for turn_id, after in following.items()}
    chosen_turns: set[str] = set()
    lines = 0
    # What the asker explicitly asked for ("what do you remember about me?") is answered in
    # full, as a timeline is: the injection state does not hold it back.
    eligible = [
        c
        for c in ranked
        if relevant(config, c)
        and ("about_self" in c.sources or state.should_reinject(c.id, c.updated_at, state.turn))
    ]
    shown = _ShownAlready(eligible, state)
    selected: list[Candidate] = []
    chosen: list[np.ndarray] = []
    floored = 0
    # Turns the block already carries, chosen or shown as a follow-up, and those the chosen
    # memories and summaries were drawn from: an item standing only for these says it twice.
    covered: set[str] = set()
    for n, candidate in enumerate(eligible):
        if (candidate.floored and floored >= cfg.max_floored) or shown.duplicate(n):
            continue
        stands_for = _stands_for(candidate)
        if stands_for and stands_for <= covered and candidate.message is None:
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
        # Against the chosen ones, so one block does not carry two wordings of one fact.
        vector = candidate.vector
        if vector is not None and chosen:
            limit = cfg.semantic_threshold if candidate.message is None else cfg.turn_semantic_threshold
            if float((np.stack(chosen) @ vector).max()) > limit:
                continue
        selected.append(candidate)
        lines += 1 - joins
        covered |= stands_for
        if candidate.message is not None:
            chosen_turns.add(candidate.id)
            if (after := _answer_to(candidate.message, following)) is not None:
                covered.add(after.id)
                if (answer := _answer_to(after, following)) is not None:
                    covered.add(answer.id)
        floored += candidate.floored
        if vector is not None:
            chosen.append(vector)
    return selected


class _ShownAlready:
    """Which eligible candidates the channel's model already holds in other words, worked out for
    the next `_CHUNK` of them when the first of those is asked about.

    A block fills from the first few dozen candidates; a product of every candidate against the
    channel's buffer (and each against each other, as before) cost tens of ms on the requests
    with the most candidates, for rows never looked at.
    """

    def __init__(self, eligible: Sequence[Candidate], state: ChannelInjectionState) -> None:
        self._eligible = eligible
        self._state = state
        self._flags = np.zeros(len(eligible), dtype=bool)
        self._known = 0

    def duplicate(self, n: int) -> bool:
        while n >= self._known:
            chunk = range(self._known, min(self._known + _CHUNK, len(self._eligible)))
            rows = [k for k in chunk if self._eligible[k].vector is not None]
            if rows:
                matrix = np.stack([self._eligible[k].vector for k in rows])  # type: ignore[misc]
                mask = self._state.semantic_duplicates(matrix, [self._eligible[k].id for k in rows])
                # What the asker explicitly asked about is answered in full, shown or not.
                for k, flag in zip(rows, mask, strict=True):
                    self._flags[k] = bool(flag) and "about_self" not in self._eligible[k].sources
            self._known = chunk.stop
        return bool(self._flags[n])


_CHUNK = 64


def _answer_to(turn: StoredMessage, following: Mapping[str, StoredMessage]) -> StoredMessage | None:
    """The turn that answered `turn`: the next one, when `turn` ended on a question."""
    after = following.get(turn.id)
    return after if after is not None and ends_on_a_question(turn) else None


def _stands_for(candidate: Candidate) -> set[str]:
    """The stored turns a candidate carries: a turn itself, a memory or summary its sources."""
    if candidate.message is not None:
        return {candidate.message.id}
    if candidate.memory is not None:
        return set(candidate.memory.sources)
    return set(candidate.summary.source_ids) if candidate.summary is not None else set()


def shown_with(
    selected: Sequence[Candidate],
    siblings: Mapping[str, Sequence[Memory]],
    state: ChannelInjectionState,
    limit: int,
) -> dict[str, list[Memory]]:
    """The other instances of its kind the first chosen memory of each kind shows on its line
    (`kind_siblings`, at most `limit`): not those chosen for lines of their own, nor those this
    conversation was already given."""
    chosen = {c.id for c in selected}
    shown: dict[str, list[Memory]] = {}
    kinds_done: set[int] = set()
    for candidate in selected:
        others = siblings.get(candidate.id)
        if others is None or id(others) in kinds_done:
            continue
        kinds_done.add(id(others))
        fresh = [
            m for m in others if m.id not in chosen and state.should_reinject(m.id, m.updated_at, state.turn)
        ]
        if fresh:
            shown[candidate.id] = fresh[-limit:]  # the newest, still oldest first
    return shown


# Profile fields that hold one value at a time: a newer statement replaces an older one ("lives in
# Lyon" after "lives in Paris"). Languages are many at once.
_ONE_AT_A_TIME = frozenset(FIELDS) - {"languages"}


def said_since(selected: Sequence[Candidate]) -> dict[str, str]:
    """For each chosen memory that a newer chosen memory about the same person contradicts on a
    field that holds one value at a time (where they live, work, their age), or on a taste (likes
    coffee, then no longer does), what the newer one says: the block shows both, and says which is
    the latest, as the profile line does."""
    latest: dict[tuple[str, ...], tuple[float, str]] = {}
    fields: list[tuple[str, tuple[str, ...], str]] = []
    for candidate in selected:
        memory = candidate.memory
        if memory is None or memory.user_id is None:
            continue
        for kind, key, value in profile_facts(memory):
            if kind == "field" and key in _ONE_AT_A_TIME:
                field_of: tuple[str, ...] = (memory.user_id, key)
            elif kind in _TASTES:
                # A like and a dislike of one thing: the value is the thing, what is said is the taste.
                field_of = (memory.user_id, "taste", value.casefold())
                value = _taste_said(memory, kind, value)
            else:
                continue
            fields.append((memory.id, field_of, value))
            if field_of not in latest or memory.created_at > latest[field_of][0]:
                latest[field_of] = (memory.created_at, value)
    return {
        memory_id: latest[field_of][1]
        for memory_id, field_of, value in fields
        if latest[field_of][1].casefold() != value.casefold()
    }


_TASTES = frozenset({"like", "dislike"})


def _taste_said(memory: Memory, kind: str, thing: str) -> str:
    """How a memory words its taste for `thing` after its subject ("no longer likes coffee"), or
    plainly by its kind when its wording does not end with the thing."""
    content = memory.content.rstrip(" .!")
    head = memory.subjects[0] if memory.subjects else ""
    # Subjects are stored case-folded: "ana" opens "Ana no longer likes coffee".
    if content.casefold().endswith(thing.casefold()) and head and content.casefold().startswith(f"{head} "):
        return content[len(head) + 1 :]
    return f"{'likes' if kind == 'like' else 'dislikes'} {thing}"


def block_items(
    selected: Sequence[Candidate],
    following: Mapping[str, StoredMessage],
    also: Mapping[str, Sequence[Memory]] | None = None,
    since: Mapping[str, str] | None = None,
) -> list[BlockItem]:
    """One block line per chosen candidate, except that a chosen turn and the chosen turns after it
    share the line of the earliest: one exchange, one line. The turn after the last of them joins
    the line, unchosen, when that turn ended on a question: it is the answer. A kind memory's line
    also names the other instances of its kind in `also`, and a statement replaced since, the newer
    value (`since`)."""
    also, since = also or {}, since or {}
    turns = {c.id: c for c in selected if c.message is not None}
    previous = {after.id: turn_id for turn_id, after in following.items()}
    placed: set[str] = set()
    items: list[BlockItem] = []
    for candidate in selected:
        if candidate.message is None:
            items.append(
                BlockItem(
                    _section(candidate),
                    candidate.score,
                    memory=candidate.memory,
                    summary=candidate.summary,
                    also=list(also.get(candidate.id, ())),
                    since=since.get(candidate.id),
                )
            )
            continue
        if previous.get(candidate.id) in turns or candidate.id in placed:
            continue  # part of an earlier chosen turn's line
        placed.add(candidate.id)
        item = BlockItem(Section.MESSAGES, candidate.score, message=candidate.message)
        current = candidate.id
        while (after := following.get(current)) is not None and after.id not in placed:
            if after.id not in turns and not ends_on_a_question(turns[current].item):  # type: ignore[arg-type]
                break
            item.follow_ups.append(after)
            placed.add(after.id)
            if after.id not in turns:
                # An answer that asks back comes with its own answer, then the line ends.
                answer = _answer_to(after, following)
                if answer is not None and answer.id not in placed and answer.id not in turns:
                    item.follow_ups.append(answer)
                    placed.add(answer.id)
                break
            item.score = max(item.score, turns[after.id].score)
            current = after.id
        items.append(item)
    return items


def within_share(items: Sequence[BlockItem], share: float) -> list[BlockItem]:
    """The block's lines less those scored below `share` × the best line's score (0: all of them).

    Scores fall off at a different rank for every question: a fixed budget fills with weak lines
    after a few strong ones, and cuts the tail of a question whose evidence is spread over many
    lines of about equal score. A share of the best keeps lines by how they compare with what the
    question found, so the first spends fewer tokens and the second may spend up to the budget.
    Preferences, important and recent memories compete by the same score (their floors rank them
    below the relevant lines); a line of turns scores as its best turn. Who is talking (identity)
    is never cut, and sets no bar.
    """
    scored = [i.score for i in items if i.section is not Section.IDENTITY]
    # A best score of zero or below gives no scale to take a share of (a share of a negative
    # score would sit above it and cut every line).
    if share <= 0 or not scored or max(scored) <= 0:
        return list(items)
    floor = share * max(scored)
    return [i for i in items if i.score >= floor or i.section is Section.IDENTITY]


def _section(candidate: Candidate) -> Section:
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
