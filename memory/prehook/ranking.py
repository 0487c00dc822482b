"""The pre-hook's choice of lines: the dedup against the channel and within the block, what was said
since an older line, and the block's lines."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np

from ..models import Memory, MemoryType, StoredMessage
from ..people.profile import FIELDS, profile_facts
from ..turn_text import ends_on_a_question
from .candidates import Candidate, relevant
from .config import PrehookConfig
from .context_block import BlockItem, Section
from .injection_state import ChannelInjectionState


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
