"""Summary engine: level-1 turn summaries, condensation upward, rolling thread summaries, search."""

from __future__ import annotations

import asyncio
import logging
import uuid
from collections.abc import Callable, Sequence

import numpy as np

from .engine import MemoryEngine
from .errors import MixedAudienceError, SummaryConflict
from .models import Audience, Scope, StoredMessage, Summary, SummaryKind, Visibility
from .summarizer import THREAD_LEVEL, ExtractiveSummarizer, Summarizer, clip

__all__ = [
    "MixedAudienceError",
    "Summary",
    "SummaryKind",
    "SummaryManager",
    "audience_of",
]

log = logging.getLogger(__name__)

# A single pasted wall of text should not dominate (or blow up) a summarizer prompt.
MAX_TEXT_CHARS = 4000
# Chars per token, the usual rough estimate for budgets (no tokenizer needed).
CHARS_PER_TOKEN = 4

_RESTRICTIVENESS = {Visibility.WORKSPACE: 0, Visibility.CHANNEL: 1, Visibility.PRIVATE: 2}

AudienceKey = tuple[Visibility, str | None]


def audience_of(messages: Sequence[StoredMessage]) -> AudienceKey:
    """Who may read a summary of `messages`: the most restrictive visibility among them.

    A private summary belongs to the user whose private messages it covers (the bot's own
    replies in a DM are private too, but to the user it answered). Private messages of two
    different users cannot share a summary: MixedAudienceError.
    """
    if not messages:
        raise ValueError("no messages")
    visibility = max((m.visibility for m in messages), key=_RESTRICTIVENESS.__getitem__)
    if visibility is not Visibility.PRIVATE:
        return visibility, None
    private = [m for m in messages if m.visibility is Visibility.PRIVATE]
    authors = {m.author_id for m in private if m.role == "user"}
    if len(authors) > 1:
        raise MixedAudienceError("private messages of several users in one summary")
    # No user message (a lone reply): nobody is known to own it, so nobody is shown it.
    return visibility, next(iter(authors), None)


def _merge(a: AudienceKey, b: AudienceKey) -> AudienceKey:
    """The audience of content from both `a` and `b`; raises when they are two people's private ones."""
    if a[0] is Visibility.PRIVATE and b[0] is Visibility.PRIVATE and a[1] != b[1]:
        raise MixedAudienceError("private summaries of different users")
    return max(a, b, key=lambda k: _RESTRICTIVENESS[k[0]])


def _speaker_line(message: StoredMessage) -> str:
    text = " ".join(message.content.split())
    if len(text) > MAX_TEXT_CHARS:
        text = text[: MAX_TEXT_CHARS - 1] + "…"
    return f"{message.author_name or message.author_id}: {text}"


def new_summary_id() -> str:
    return uuid.uuid4().hex[:16]


# Turns read to refresh a thread summary: far more than `thread_refresh_chars` ever needs.
_MAX_PENDING_TURNS = 200


class SummaryManager:
    """Writes and finds summaries of a conversation; every method is meant for background work.

    Consistency between SQLite and LanceDB: the row is written first (not yet indexed), the
    vector second, then the row is marked indexed. A failed vector write keeps the row unindexed
    instead of deleting it: the summary may have cost a model call, and condensation already
    relies on it, so only search misses it until `reconcile()` (run it at start-up) re-adds the
    vector from the embedding stored in the row.
    """

    def __init__(
        self,
        engine: MemoryEngine,
        summarizer: Summarizer,
        *,
        condense_threshold_chars: int = 5000,
        level1_budget_chars: int = 600,
        condensed_budget_chars: int = 1200,
        thread_budget_tokens: int = 400,
        thread_refresh_chars: int = 2000,
        level_factor: int = 5,
        max_level: int = 8,
        clock: Callable[[], float] | None = None,
    ) -> None:
        if condense_threshold_chars <= 0 or level_factor < 1 or max_level < 2:
            raise ValueError("condense threshold must be positive, level factor >= 1, max level >= 2")
        if thread_refresh_chars < 0:
            raise ValueError("thread refresh threshold must be >= 0")
        self.engine = engine
        # Written by `summarizer` (a model, when there is one): condensations, which run only
        # once the raw history passes a threshold, and the thread summary when enough new text
        # came in. A turn's own level-1 summary is extractive: a model call per reply would
        # double what a busy server pays for its model, for notes the search finds as well.
        self.summarizer = summarizer
        self.thread_refresh_chars = thread_refresh_chars
        self.store = engine.storage.summaries
        self.condense_threshold_chars = condense_threshold_chars
        self.level1_budget_chars = level1_budget_chars
        self.condensed_budget_chars = condensed_budget_chars
        self.thread_budget_tokens = thread_budget_tokens
        self.level_factor = level_factor
        self.max_level = max_level
        self.clock = clock or engine.clock
        self._fallback = ExtractiveSummarizer()
        self._locks: dict[tuple[object, ...], asyncio.Lock] = {}

    @property
    def thread_budget_chars(self) -> int:
        return self.thread_budget_tokens * CHARS_PER_TOKEN

    def threshold_for(self, level: int) -> int:
        """Raw characters the uncondensed summaries of `level` must exceed to be condensed upward."""
        return self.condense_threshold_chars * self.level_factor ** (level - 1)

    def _new(
        self,
        scope: Scope,
        level: int,
        kind: SummaryKind,
        content: str,
        audience: AudienceKey,
        covers: tuple[float, float],
        source_ids: list[str],
        raw_chars: int,
    ) -> Summary:
        """A summary written now under a new id, for `audience`, covering `covers` (from, to)."""
        return Summary(
            id=new_summary_id(),
            scope=scope,
            level=level,
            kind=kind,
            content=content,
            covers_from=covers[0],
            covers_to=covers[1],
            source_ids=source_ids,
            raw_chars=raw_chars,
            visibility=audience[0],
            author_id=audience[1],
            created_at=self.clock(),
        )

    def _lock(self, *key: object) -> asyncio.Lock:
        lock = self._locks.get(key)
        if lock is None:
            lock = self._locks[key] = asyncio.Lock()
        return lock

    async def _summarize(
        self, texts: Sequence[str], level: int, budget_chars: int, summarizer: Summarizer | None = None
    ) -> str:
        """The summarizer's text within budget (the configured one unless another is given); the
        extractive one if it fails or says nothing."""
        chosen = summarizer or self.summarizer
        try:
            text = clip(await chosen.summarize(texts, level=level, budget_chars=budget_chars), budget_chars)
        except Exception:
            # A summarizer bug must not cost the summary: background work has no one to report to.
            log.warning("summarizer failed; using the extractive one", extra={"level": level}, exc_info=True)
            text = ""
        if not text:
            text = clip(
                await self._fallback.summarize(texts, level=level, budget_chars=budget_chars), budget_chars
            )
        return text

    async def _messages(self, scope: Scope, message_ids: Sequence[str]) -> list[StoredMessage]:
        # Unscoped read, then every row is checked against the one scope being summarized.
        messages = await self.engine.storage.turns.get_unscoped(list(dict.fromkeys(message_ids)))
        for m in messages:
            if m.scope != scope:
                raise ValueError(f"message {m.id} is not in the scope being summarized")
        # Stable: messages written in the same second keep the order the caller gave.
        return sorted(messages, key=lambda m: m.created_at)

    async def _write(self, summary: Summary, condenses: Sequence[str] = ()) -> None:
        vector = (await self.engine.embedder.embed([summary.content]))[0]
        await self.store.add(summary, vector, condenses)
        log.info(
            "summary written",
            extra={
                "summary_id": summary.id,
                "level": summary.level,
                "summary_kind": summary.kind.value,
                "raw_chars": summary.raw_chars,
                "sources": len(summary.source_ids),
            },
        )

    # --- level 1 and condensation -----------------------------------------------------------------

    async def after_turn(self, scope: Scope, message_ids: Sequence[str]) -> None:
        """The turn's level-1 summary, then the thread summary, from one read of its messages."""
        messages = await self._messages(scope, message_ids)
        await self._summarize_turn(scope, messages, condense=True)
        if messages:
            await self._update_thread(scope, messages)

    async def summarize_turn(
        self, scope: Scope, message_ids: Sequence[str], *, condense: bool = True
    ) -> Summary | None:
        """Write the level-1 summary of one completed turn (the user batch and the reply).

        Then, with `condense`, condense upward wherever a threshold is passed (see `condense`).
        Returns the level-1 summary (the existing one if these messages were summarized already),
        or None when none of the ids is stored or the messages are private to different users.
        """
        return await self._summarize_turn(scope, await self._messages(scope, message_ids), condense=condense)

    async def _summarize_turn(
        self, scope: Scope, messages: Sequence[StoredMessage], *, condense: bool
    ) -> Summary | None:
        if not messages:
            return None
        try:
            audience = audience_of(messages)
        except MixedAudienceError:
            log.warning("turn not summarized: it mixes private conversations", extra={"count": len(messages)})
            return None
        source_ids = [m.id for m in messages]
        # The extractive level-1 text costs less than a read: whether this turn was summarized
        # already is asked once, under the lock.
        lines = [_speaker_line(m) for m in messages]
        content = await self._summarize(lines, 1, self.level1_budget_chars, self._fallback)
        if not content:
            return None
        covers = (messages[0].created_at, max(m.created_at for m in messages))
        raw_chars = sum(len(m.content) for m in messages)
        summary = self._new(scope, 1, SummaryKind.TURNS, content, audience, covers, source_ids, raw_chars)
        async with self._lock("turns", scope):
            # A retried task may have written the same turn while this one was summarizing.
            existing = await self.store.find_turn(scope, source_ids)
            if existing is not None:
                return existing
            await self._write(summary)
        if condense:
            await self.condense(scope)
        return summary

    async def condense(self, scope: Scope) -> list[Summary]:
        """Condense upward, level by level, wherever uncondensed raw characters pass the threshold.

        The uncondensed summaries of level L (oldest first) become ONE summary of level L+1 when
        the raw characters they cover exceed `threshold_for(L)`; the new one records their ids
        and the union of their spans, and they are marked `condensed_into` it. Summaries of
        different audiences (visibility, private owner) are never condensed together.
        Returns the summaries written, lowest level first.
        """
        written: list[Summary] = []
        async with self._lock("turns", scope):
            for level in range(1, self.max_level):
                kind = SummaryKind.TURNS if level == 1 else SummaryKind.CONDENSED
                pending = await self.store.query(scope, level=level, kinds=[kind], pending_only=True)
                if not pending:
                    break
                groups: dict[AudienceKey, list[Summary]] = {}
                for s in pending:
                    groups.setdefault((s.visibility, s.author_id), []).append(s)
                made_here = False
                for audience, group in groups.items():
                    if sum(s.raw_chars for s in group) <= self.threshold_for(level):
                        continue
                    made = await self._condense_group(scope, group, level + 1, audience)
                    if made is not None:
                        written.append(made)
                        made_here = True
                if not made_here:
                    # The level above gained nothing, so what it holds is still under its threshold:
                    # reading it again costs a query a turn for nothing.
                    break
        return written

    async def _condense_group(
        self, scope: Scope, group: Sequence[Summary], level: int, audience: AudienceKey
    ) -> Summary | None:
        content = await self._summarize([s.content for s in group], level, self.condensed_budget_chars)
        if not content:
            return None
        covers = (min(s.covers_from for s in group), max(s.covers_to for s in group))
        raw_chars = sum(s.raw_chars for s in group)
        source_ids = [s.id for s in group]
        summary = self._new(
            scope, level, SummaryKind.CONDENSED, content, audience, covers, source_ids, raw_chars
        )
        try:
            await self._write(summary, condenses=summary.source_ids)
        except SummaryConflict:
            # Only another process on the same database gets here (this one holds the lock).
            log.warning("condensation raced with another writer; skipped", extra={"level": level})
            return None
        return summary

    async def pending_level1(self, scope: Scope, audience: Audience | None = None) -> list[Summary]:
        """Level-1 summaries of the scope not yet condensed, oldest first (what the prompt shows).

        With `audience`, only those it may read (as for memories).
        """
        return await self.store.query(
            scope,
            level=1,
            kinds=[SummaryKind.TURNS],
            pending_only=True,
            audience=audience,
            now=self.clock(),
        )

    async def summaries(self, scope: Scope, level: int | None = None) -> list[Summary]:
        """Every turn summary and condensation of the scope (of one level if given), oldest first."""
        return await self.store.query(scope, level=level)

    # --- search ---------------------------------------------------------------------------------

    async def search(
        self, query_vector: np.ndarray, audience: Audience, limit: int = 5, *, threshold: float = 0.0
    ) -> list[tuple[Summary, float]]:
        """Summaries (levels 1+) nearest to `query_vector` that `audience` may read, best first.

        Pre-filtered in LanceDB by scope, then re-checked in SQL so a stale vector never shows.
        """
        if limit <= 0:
            return []
        found = await self.store.search(audience, query_vector, max(limit * 2, 10), self.clock(), threshold)
        return found[:limit]

    # --- thread summary -------------------------------------------------------------------------

    async def thread_summary(self, scope: Scope, audience: Audience | None = None) -> Summary | None:
        """The rolling summary of the channel or thread, if one was written (and `audience` may read it)."""
        return await self.store.thread(scope, audience, self.clock())

    async def update_thread_summary(self, scope: Scope, new_message_ids: Sequence[str]) -> Summary:
        """Fold new turns into the scope's one rolling summary, kept within `thread_budget_tokens`.

        The first summary of a scope is extractive. Later ones are the summarizer's account of the
        previous one plus every turn since it, written once those turns hold at least
        `thread_refresh_chars` characters (until then the previous summary stands, and the turns
        are in the model's history anyway): a model is asked now and then, not after each reply.
        The new summary covers the previous span and the new turns (`source_ids` are the turns
        folded in by this update). Raises ValueError when none of the ids is stored and there is
        no summary yet.
        """
        messages = await self._messages(scope, new_message_ids)
        if not messages:
            previous = await self.store.thread(scope)
            if previous is None:
                raise ValueError("none of the messages is stored")
            return previous
        return await self._update_thread(scope, messages)

    async def _update_thread(self, scope: Scope, messages: Sequence[StoredMessage]) -> Summary:
        async with self._lock("thread", scope):
            previous = await self.store.thread(scope)
            summarizer: Summarizer | None = self._fallback
            if previous is not None:
                since = await self._since(scope, previous.covers_to, messages)
                if sum(len(m.content) for m in since) < self.thread_refresh_chars:
                    return previous
                messages, summarizer = since, None
            key = audience_of(messages)
            if previous is not None:
                try:
                    key = _merge(key, (previous.visibility, previous.author_id))
                except MixedAudienceError:
                    # Never fold one person's private conversation into another's: start afresh.
                    log.warning(
                        "thread summary restarted: audience changed", extra={"summary_id": previous.id}
                    )
                    previous = None
            # The THREAD_LEVEL convention: the summary so far first, "" when there is none.
            texts = [previous.content if previous is not None else ""] + [_speaker_line(m) for m in messages]
            budget = self.thread_budget_chars
            content = await self._summarize(texts, THREAD_LEVEL, budget, summarizer)
            if not content and previous is not None:
                return previous
            covers = (
                min([messages[0].created_at] + ([previous.covers_from] if previous is not None else [])),
                max([m.created_at for m in messages] + ([previous.covers_to] if previous else [])),
            )
            raw_chars = sum(len(m.content) for m in messages) + (previous.raw_chars if previous else 0)
            source_ids = [m.id for m in messages]
            summary = self._new(
                scope, THREAD_LEVEL, SummaryKind.THREAD, content, key, covers, source_ids, raw_chars
            )
            current = await self.store.thread(scope)
            await self.store.replace_thread(summary, current.id if current is not None else None)
            log.info(
                "thread summary updated",
                extra={"summary_id": summary.id, "raw_chars": summary.raw_chars, "chars": len(content)},
            )
            return summary

    async def _since(self, scope: Scope, after: float, new: Sequence[StoredMessage]) -> list[StoredMessage]:
        """The scope's turns after `after` (the thread summary's end), the new ones included."""
        # Bounded in the query: the turns since the summary, not the scope's last 200 to filter here.
        recent = await self.engine.storage.turns.recent(scope, limit=_MAX_PENDING_TURNS, after=after)
        found = {m.id: m for m in recent}
        found.update({m.id: m for m in new})
        return sorted(found.values(), key=lambda m: m.created_at)

    # --- consistency ----------------------------------------------------------------------------

    async def reconcile(self) -> tuple[int, int]:
        """Re-add vectors of rows whose vector write failed, drop vectors without a row.

        Returns (rows repaired, orphan vectors removed). Run at start-up, off the reply path.
        """
        repaired, orphans = await self.store.reconcile(self.engine.embedder.embed)
        if repaired or orphans:
            log.warning("summaries reconciled", extra={"repaired": repaired, "orphans": orphans})
        return repaired, orphans
