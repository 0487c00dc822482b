"""The storage seam: the repositories every backend implements and the `Storage` that owns them."""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import math
import re
import time
import weakref
from abc import ABC, abstractmethod
from collections.abc import AsyncIterator, Awaitable, Callable, Hashable, Iterator, Mapping, Sequence
from contextlib import AsyncExitStack, asynccontextmanager, contextmanager
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, Generic, TypeVar

import numpy as np

from ..errors import StorageError
from ..models import (
    Audience,
    Conversation,
    Memory,
    MemoryType,
    Scope,
    StoredMessage,
    Summary,
    SummaryKind,
    Visibility,
)

log = logging.getLogger(__name__)

# A long pasted message is still one question; more terms only slow BM25 down.
_MAX_QUERY_TERMS = 64
# Full-text indexes drop longer tokens, so they could never match.
_MAX_TERM_CHARS = 40
_WORD = re.compile(r"\w+")

# The tables a migration copies, in the order it copies them, and the column of each that links
# a row to another row of its table (written once every row is there, see `Storage.set_links`).
MIGRATED_TABLES = ("memories", "messages", "summaries", "profiles", "aliases", "conversation_kinds")
LINK_COLUMNS = {"memories": "superseded_by", "summaries": "condensed_into"}

# What a backend calls to (re-)embed texts when it repairs rows stored without a vector.
Embed = Callable[[Sequence[str]], Awaitable[Sequence[np.ndarray]]]


ScopeKey = tuple[str, str, str]  # (platform, workspace_id, agent_id): what a search ranks words against

# BM25 as Lucene and LanceDB compute it, on both backends, so they rank words alike.
BM25_K1 = 1.2
BM25_B = 0.75


def scope_key(audience: Audience) -> ScopeKey:
    """The scope whose rows a search by `audience` reads and ranks its words against."""
    return (audience.platform, audience.workspace_id, audience.agent_id)


def bm25_idf(rows: int, frequency: int) -> float:
    """A word's weight among `rows` rows, `frequency` of which hold it: rarer counts more
    (Lucene's smoothed IDF, never negative)."""
    return math.log(1.0 + (rows - frequency + 0.5) / (frequency + 0.5))


def fts_query_terms(text: str) -> str:
    """The words of `text` as a plain term list, safe to hand to the full-text engine.

    Only word characters survive, so quotes, colons, brackets and operators in user input
    can never become query syntax; repeated and overlong terms are dropped.
    """
    seen: set[str] = set()
    terms: list[str] = []
    for word in _WORD.findall(text):
        key = word.casefold()
        if len(word) > _MAX_TERM_CHARS or key in seen:
            continue
        seen.add(key)
        terms.append(word)
        if len(terms) >= _MAX_QUERY_TERMS:
            break
    return " ".join(terms)


@contextmanager
def reraise(
    driver_errors: type[BaseException] | tuple[type[BaseException], ...], what: str, error: type[StorageError]
) -> Iterator[None]:
    """Inside: a database driver's error becomes `error` ("`what`: cause"), the driver's as its cause."""
    try:
        yield
    except driver_errors as exc:
        raise error(f"{what}: {exc}") from exc


def pending_migrations(migrations: Sequence[tuple[str, str]], done: set[str]) -> list[tuple[str, str]]:
    """The (name, sql) of `migrations` not in `done`, in order; StorageError when `done` holds one
    this version does not know."""
    unknown = done - {name for name, _ in migrations}
    if unknown:
        raise StorageError(
            f"database has migrations this version does not know ({', '.join(sorted(unknown))}); "
            "it was written by a newer memorybot"
        )
    return [(name, sql) for name, sql in migrations if name not in done]


@dataclass(slots=True)
class MemoryQuery:
    """Optional narrowing of a memory listing; every field is ANDed with the audience filter."""

    types: Sequence[MemoryType] | None = None
    min_importance: float | None = None
    min_confidence: float | None = None
    since: float | None = None
    until: float | None = None  # created before, as `since` is at or after
    channel_id: str | None = None
    user_ids: Sequence[str] | None = None
    subjects: Sequence[str] | None = None
    # Only rows of workspaces other than the audience's: what `Audience.own_elsewhere` adds.
    elsewhere: bool = False
    order: str = "recent"  # recent | important
    limit: int = 50
    offset: int = 0


@dataclass(frozen=True)
class MemoryRead:
    """One listing of `MemoryRepository.read_many`: its query, and whether the id breaks ties (as
    `query` does, so pages never overlap) or the backend's own order stands (`about`, `between`)."""

    query: MemoryQuery
    by_id: bool = True


def about_read(
    user_ids: Sequence[str], types: Sequence[MemoryType], min_confidence: float | None = None, limit: int = 20
) -> MemoryRead:
    """`MemoryRepository.about` as a read: these users' memories, most important then newest first."""
    query = MemoryQuery(
        types=types, min_confidence=min_confidence, user_ids=user_ids, order="important", limit=limit
    )
    return MemoryRead(query, by_id=False)


def between_read(since: float, until: float, channel_id: str | None = None, limit: int = 50) -> MemoryRead:
    """`MemoryRepository.between` as a read: memories created in [since, until), newest first."""
    return MemoryRead(MemoryQuery(since=since, until=until, channel_id=channel_id, limit=limit), by_id=False)


@dataclass(frozen=True, slots=True)
class VectorHit:
    """One search result; `vector` is the stored one, so callers never re-embed to compare."""

    id: str
    score: float  # cosine similarity for vector search, BM25 for text search
    vector: np.ndarray | None
    # The memory itself, when the search read its row in the same statement under the audience
    # filter (PostgreSQL): no second read by id is needed. None: read it through `visible`.
    memory: Memory | None = None


@dataclass(slots=True)
class ReconcileReport:
    """What a start-up reconcile repaired: rows indexed again, vectors without a row removed."""

    memory_rows_repaired: int = 0
    memory_vectors_removed: int = 0
    message_rows_repaired: int = 0
    message_vectors_removed: int = 0
    superseded_restored: int = 0
    details: list[str] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class Period:
    """The turns with one of `roles` written in [since, until), in days that start at midnight
    `utc_offset` seconds east of UTC."""

    since: float
    until: float
    roles: tuple[str, ...]
    utc_offset: float = 0.0  # `between` counts no days


# Turns a day count leaves out: at most this many ids (a statement's bound values are limited).
MAX_EXCLUDED = 500

# (content_hash, platform, workspace_id, agent_id, visibility, channel_id, author_id)
HashMatch = tuple[str, str, str, str, str, str, str | None]


class MemoryRepository(ABC):
    """Memories: rows, their vectors and the searches over them, always through an audience.

    A write either stores the row and its vector or raises `MemoryWriteError` having stored
    neither; how both are kept together (one transaction, or two stores and a rollback) is the
    backend's business.
    """

    # --- writes

    @abstractmethod
    async def add(self, memory: Memory, vector: np.ndarray, supersedes: str | None, now: float) -> None:
        """Store a memory and its vector and, atomically with it, retire the one it `supersedes`."""

    @abstractmethod
    async def add_many(self, memories: Sequence[Memory], vectors: Sequence[np.ndarray]) -> None:
        """Store a batch (imports) all or nothing; raises MemoryWriteError when nothing was stored."""

    @abstractmethod
    async def rewrite(self, memory: Memory, vector: np.ndarray) -> None:
        """Store new wording (content, hash, subjects, updated_at) and its vector for a memory."""

    @abstractmethod
    async def restore(self, memory: Memory, vector: np.ndarray, now: float) -> None:
        """Make a superseded memory active and searchable again (the undo of a merge)."""

    @abstractmethod
    async def delete(self, ids: Sequence[str]) -> int:
        """Remove memories and their vectors for good; returns how many rows existed."""

    @abstractmethod
    async def rescope(self, ids: Sequence[str], channel_id: str) -> None:
        """Bring the search index of rows already narrowed to `channel_id` in line with them."""

    @abstractmethod
    async def bump_access(self, counts: Mapping[str, int], now: float) -> None:
        """Add `counts[id]` accesses to each memory, last accessed at `now`."""

    # --- reads

    @abstractmethod
    async def find_by_hash(
        self, content_hash: str, audience: Audience, now: float, visibility: Visibility
    ) -> Memory | None: ...

    @abstractmethod
    async def active_hash_matches(self, hashes: Sequence[str], now: float) -> set[HashMatch]:
        """Active rows carrying one of `hashes`: a bulk import decides exact duplicates from these."""

    @abstractmethod
    async def visible(self, ids: Sequence[str], audience: Audience, now: float) -> list[Memory]:
        """The subset of `ids` that `audience` may read, in the given order."""

    @abstractmethod
    async def get_unscoped(self, ids: Sequence[str]) -> list[Memory]:
        """Rows by id whoever may read them (forget, sweep, repairs), in the given order."""

    @abstractmethod
    async def superseded_unscoped(self, newer_id: str) -> Memory | None:
        """The memory that `newer_id` replaced, if any."""

    @abstractmethod
    async def merged_into(self, newer_ids: Sequence[str]) -> dict[str, str]:
        """newer id -> older id for each of `newer_ids` that superseded a memory."""

    async def query(
        self,
        audience: Audience,
        now: float,
        query: MemoryQuery,
        vectors: dict[str, np.ndarray] | None = None,
    ) -> list[Memory]:
        """Memories `audience` may read narrowed by `query`; `vectors` receives their stored vectors."""
        # The id breaks ties, so pages of rows written in the same second never overlap or skip.
        return await self._select(audience, now, query, vectors, by_id=True)

    @abstractmethod
    async def count(self, audience: Audience, now: float, query: MemoryQuery | None = None) -> int: ...

    @abstractmethod
    async def count_by_type(self, audience: Audience, now: float) -> dict[str, int]: ...

    async def about(
        self,
        audience: Audience,
        now: float,
        user_ids: Sequence[str],
        types: Sequence[MemoryType],
        min_confidence: float | None = None,
        limit: int = 20,
        vectors: dict[str, np.ndarray] | None = None,
    ) -> list[Memory]:
        """Memories about these users `audience` may read, most important then newest first."""
        if not user_ids or not types:
            return []
        read = about_read(user_ids, types, min_confidence, limit)
        return await self._select(audience, now, read.query, vectors, by_id=read.by_id)

    async def read_many(
        self,
        audience: Audience,
        now: float,
        reads: Sequence[MemoryRead],
        vectors: dict[str, np.ndarray] | None = None,
    ) -> list[list[Memory]]:
        """The rows of each of `reads`, in order, as `query` (or `about`, `between`) gives them; a
        backend may read them all in one statement."""
        return [await self._select(audience, now, r.query, vectors, by_id=r.by_id) for r in reads]

    async def between(
        self,
        audience: Audience,
        now: float,
        since: float,
        until: float,
        channel_id: str | None = None,
        limit: int = 50,
        vectors: dict[str, np.ndarray] | None = None,
    ) -> list[Memory]:
        """Memories `audience` may read created in [since, until), newest first."""
        read = between_read(since, until, channel_id, limit)
        return await self._select(audience, now, read.query, vectors, by_id=read.by_id)

    @abstractmethod
    async def _select(
        self,
        audience: Audience,
        now: float,
        query: MemoryQuery,
        vectors: dict[str, np.ndarray] | None,
        by_id: bool,
    ) -> list[Memory]:
        """`query`'s rows, most important or newest first as its `order` says, ties broken `by_id`
        (in byte order) or else left in the backend's own order (`about` and `between`)."""

    @abstractmethod
    async def embeddings(self, ids: Sequence[str]) -> dict[str, np.ndarray]:
        """Stored vectors by id: compared as they are, never recomputed."""

    @abstractmethod
    async def expired_ids(self, now: float) -> list[str]: ...

    # --- search

    @abstractmethod
    async def search(
        self, audience: Audience, vector: np.ndarray, k: int, now: float, visibility: str | None = None
    ) -> list[VectorHit]:
        """Nearest memories `audience` may see (of one `visibility` if given), best first."""

    @abstractmethod
    async def hybrid_search(
        self, audience: Audience, vector: np.ndarray, text: str, k: int, now: float
    ) -> tuple[list[VectorHit], list[VectorHit]]:
        """Dense and full-text hits under the audience filter, each best first."""

    async def hybrid_search_awaiting(
        self, audience: Audience, vector: Awaitable[np.ndarray], text: str, k: int, now: float
    ) -> tuple[list[VectorHit], list[VectorHit]]:
        """`hybrid_search` with the query vector still being computed (`vector`, a future several
        searches may await). Here it waits for the vector; a backend whose full-text search needs
        none starts that search first."""
        return await self.hybrid_search(audience, await vector, text, k, now)

    @abstractmethod
    async def indexed_count(self) -> int:
        """How many memories are searchable (benchmarks, metrics)."""


# A turn to store: the message, its vector (None when the embedder failed) and the text it is
# searched under.
NewTurn = tuple[StoredMessage, np.ndarray | None, str]


class TurnRepository(ABC):
    """Turns (the transcript): rows, their vectors and the reads of a conversation or an audience."""

    # Set when a turn was stored without its vector (the embedder failed): `Storage.repair_turns`
    # indexes it at the next maintenance.
    repair_due: bool = False

    async def add(
        self,
        messages: Sequence[StoredMessage],
        vectors: Sequence[np.ndarray | None],
        search_texts: Sequence[str],
    ) -> list[str]:
        """Store turns (a repeated external id is skipped) and index them under `search_texts`;
        returns the new ids. Once this returns the rows are kept: a vector that could not be
        written is repaired by `Storage.maintain`. Raises StorageError when nothing was stored."""
        inserted = await self._insert(
            list(zip(messages, vectors, search_texts, strict=True)), searchable=True
        )
        return [m.id for m in messages if m.id in inserted]

    async def add_unsearchable(self, messages: Sequence[StoredMessage]) -> list[str]:
        """Store turns that stay in the transcript but are never embedded nor searched."""
        inserted = await self._insert([(m, None, "") for m in messages], searchable=False)
        return [m.id for m in messages if m.id in inserted]

    @abstractmethod
    async def _insert(self, turns: Sequence[NewTurn], searchable: bool) -> set[str]:
        """Store `turns` in one transaction (a repeated external id skipped) and, when `searchable`,
        index them, queueing for repair those without a usable vector; returns the ids stored."""

    @abstractmethod
    async def visible(self, ids: Sequence[str], audience: Audience) -> list[StoredMessage]: ...

    @abstractmethod
    async def visible_with_next(
        self, ids: Sequence[str], audience: Audience, within: float
    ) -> list[tuple[StoredMessage, StoredMessage | None]]:
        """Readable turns of `ids`, each with the next turn of its conversation within `within` seconds."""

    @abstractmethod
    async def get_unscoped(self, ids: Sequence[str]) -> list[StoredMessage]: ...

    @abstractmethod
    async def by_external_id(self, scope: Scope, external_id: str) -> StoredMessage | None: ...

    @abstractmethod
    async def recent(self, scope: Scope, limit: int = 20, before: float | None = None) -> list[StoredMessage]:
        """The conversation's (its thread's, when `scope` names one) last `limit` turns, oldest first."""

    async def between(
        self,
        scope: Scope,
        since: float,
        until: float,
        roles: Sequence[str] = ("user",),
        limit: int = 50,
    ) -> list[StoredMessage]:
        """The channel's turns in [since, until) with one of `roles`: the last `limit`, oldest first."""
        latest = await self._latest(scope, Period(since, until, tuple(roles)), limit)
        return latest[::-1]

    @abstractmethod
    async def _latest(self, scope: Scope, period: Period, limit: int) -> list[StoredMessage]:
        """`between`, newest first."""

    async def visible_between(
        self,
        audience: Audience,
        since: float,
        until: float,
        per_day: int,
        utc_offset: float = 0.0,
        roles: Sequence[str] = ("user",),
    ) -> list[StoredMessage]:
        """Turns `audience` may read in [since, until), the latest `per_day` of each day, oldest first."""
        return await self._per_day(audience, Period(since, until, tuple(roles), utc_offset), per_day)

    @abstractmethod
    async def _per_day(self, audience: Audience, period: Period, per_day: int) -> list[StoredMessage]:
        """`visible_between`."""

    async def days(
        self,
        audience: Audience,
        since: float,
        until: float,
        utc_offset: float = 0.0,
        roles: Sequence[str] = ("user",),
        exclude: Sequence[str] = (),
    ) -> list[tuple[float, int, int]]:
        """Per day with readable turns: (midnight, turns, conversations), oldest first; at most
        `MAX_EXCLUDED` of the turns `exclude` names are left out of the counts."""
        period = Period(since, until, tuple(roles), utc_offset)
        counts = await self._day_counts(audience, period, list(exclude)[:MAX_EXCLUDED])
        return [(int(day) * 86400.0 - utc_offset, int(turns), int(places)) for day, turns, places in counts]

    @abstractmethod
    async def _day_counts(
        self, audience: Audience, period: Period, exclude: Sequence[str]
    ) -> Sequence[Sequence[Any]]:
        """`days`: (day number since the epoch, turns, conversations) per day, oldest first."""

    @abstractmethod
    async def count(self) -> int: ...

    @abstractmethod
    async def search(self, audience: Audience, vector: np.ndarray, k: int) -> list[VectorHit]: ...

    @abstractmethod
    async def hybrid_search(
        self, audience: Audience, vector: np.ndarray, text: str, k: int
    ) -> tuple[list[VectorHit], list[VectorHit]]: ...

    async def hybrid_search_awaiting(
        self, audience: Audience, vector: Awaitable[np.ndarray], text: str, k: int
    ) -> tuple[list[VectorHit], list[VectorHit]]:
        """`hybrid_search` with the query vector still being computed (see
        `MemoryRepository.hybrid_search_awaiting`)."""
        return await self.hybrid_search(audience, await vector, text, k)

    @abstractmethod
    async def rescope(self, ids: Sequence[str], channel_id: str) -> None:
        """Bring the search index of turns already narrowed to `channel_id` in line with them."""


@dataclass(frozen=True, slots=True)
class SummaryQuery:
    """Which of a scope's summaries `SummaryRepository.query` lists (its defaults are the method's)."""

    level: int | None
    kinds: tuple[SummaryKind, ...]
    pending_only: bool


class SummaryRepository(ABC):
    """Conversation summaries: turn summaries, condensations and rolling thread summaries."""

    @abstractmethod
    async def add(self, summary: Summary, vector: np.ndarray, condenses: Sequence[str] = ()) -> None:
        """Store a summary (marking `condenses` as condensed into it) and index it; a failed index
        write is logged and repaired by `reconcile`. Raises SummaryConflict if one was condensed."""

    @abstractmethod
    async def replace_thread(self, summary: Summary, previous_id: str | None) -> None:
        """Store the scope's rolling summary in place of `previous_id`."""

    @abstractmethod
    async def delete(self, ids: Sequence[str]) -> int: ...

    @abstractmethod
    async def get_unscoped(self, ids: Sequence[str]) -> list[Summary]: ...

    @abstractmethod
    async def find_turn(self, scope: Scope, source_ids: Sequence[str]) -> Summary | None: ...

    @abstractmethod
    async def visible(self, ids: Sequence[str], audience: Audience, now: float) -> list[Summary]:
        """The subset of `ids` that `audience` may read, in the order given."""

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
        """The scope's summaries, oldest coverage first; `pending_only` keeps the not yet condensed."""
        return await self._query(scope, SummaryQuery(level, tuple(kinds), pending_only), audience, now)

    @abstractmethod
    async def _query(
        self, scope: Scope, query: SummaryQuery, audience: Audience | None, now: float
    ) -> list[Summary]:
        """`query`, its narrowing in `query`; `audience`, when given, must be able to read each one."""

    @abstractmethod
    async def thread(
        self, scope: Scope, audience: Audience | None = None, now: float = 0.0
    ) -> Summary | None:
        """The scope's rolling summary, if one was written (and `audience` may read it)."""

    @abstractmethod
    async def search(
        self, audience: Audience, vector: np.ndarray, k: int, now: float, threshold: float = 0.0
    ) -> list[tuple[Summary, float]]:
        """Summaries `audience` may read nearest to `vector` scoring at least `threshold`, best first."""

    @abstractmethod
    async def reconcile(self, embed: Embed) -> tuple[int, int]:
        """Index rows whose vector write failed, drop vectors without a row: (repaired, removed)."""

    @abstractmethod
    async def rescope(self, ids: Sequence[str], channel_id: str) -> None: ...


class PeopleRepository(ABC):
    """People: each user's profile (one JSON document per scope) and the names they go by."""

    @abstractmethod
    async def profiles(
        self, platform: str, workspace_id: str, agent_id: str, user_ids: Sequence[str]
    ) -> list[tuple[str, str, float]]:
        """(user_id, JSON data, updated_at) of the stored profiles of these users."""

    @abstractmethod
    async def save_profile(
        self, platform: str, workspace_id: str, user_id: str, agent_id: str, data: str | None, now: float
    ) -> None:
        """Store a profile's JSON document, or delete the profile when `data` is None."""

    @abstractmethod
    async def add_aliases(
        self, platform: str, workspace_id: str, user_id: str, names: Sequence[str], now: float, keep: int
    ) -> list[str]:
        """Record names of a user, keeping the newest `keep`; returns the ones that were new."""

    @abstractmethod
    async def remove_aliases(self, platform: str, workspace_id: str, user_id: str, name: str | None) -> int:
        """Forget one name of a user (all of them when `name` is None); returns how many."""

    @abstractmethod
    async def names_of(self, platform: str, workspace_id: str, user_ids: Sequence[str]) -> list[str]:
        """The names these users go by, oldest first."""

    @abstractmethod
    async def users_named(
        self, platform: str, workspace_id: str, names: Sequence[str], ids: Sequence[str] = ()
    ) -> list[str]:
        """The user ids going by one of `names` (or being one of `ids`), sorted."""


# Tables whose rows carry a conversation's scope and visibility, in the order they are narrowed.
NARROWED_TABLES = ("memories", "messages", "summaries")


def narrowed_rows_sql(platform: str, workspace_id: str, channel_id: str) -> str:
    """The rows a narrowing moves to a conversation's own id: the channel's shared rows, and the
    rows of a thread of it stored under another channel id. The arguments are the marks of the
    bound values (SQLite's `?` then binds platform, workspace, channel, channel, platform,
    workspace, channel in that order)."""
    shared, private = Visibility.WORKSPACE.value, Visibility.PRIVATE.value
    # Two self-contained branches, so each is answered from an index (the channel's rows; a
    # thread's rows under another channel) instead of a scan of the table.
    return (
        f"((platform = {platform} AND workspace_id = {workspace_id} AND channel_id = {channel_id} "
        f"AND visibility = '{shared}') OR (thread_id = {channel_id} AND platform = {platform} "
        f"AND workspace_id = {workspace_id} AND channel_id <> {channel_id} AND visibility <> '{private}'))"
    )


def displaced_thread_summaries_sql(where: str, channel_id: str) -> str:
    """The DELETE each backend runs before narrowing: a thread summary (of the rows `where`
    selects) that moves to the thread's own id gives way to one already kept there, written since
    (one rolling summary per thread). `channel_id` is the mark of that id's bound value."""
    return (
        f"DELETE FROM summaries WHERE kind = 'thread' AND {where} AND EXISTS ("
        "SELECT 1 FROM summaries AS kept WHERE kept.kind = 'thread' "
        "AND kept.platform = summaries.platform AND kept.workspace_id = summaries.workspace_id "
        f"AND kept.agent_id = summaries.agent_id AND kept.channel_id = {channel_id} "
        "AND COALESCE(kept.thread_id, '') = COALESCE(summaries.thread_id, ''))"
    )


class ConversationRepository(ABC):
    """Conversation kinds as the adapters report them, and the narrowing of rows stored too widely."""

    @abstractmethod
    async def kinds(self) -> list[tuple[str, str, str, str]]:
        """(platform, workspace_id, channel_id, kind) of every conversation recorded."""

    @abstractmethod
    async def record(self, conversations: Sequence[Conversation], now: float) -> None: ...

    @abstractmethod
    async def narrow(self, conversation: Conversation, dry_run: bool) -> dict[str, list[str]]:
        """Make the conversation's workspace-visible rows channel-visible under its own id; returns
        the ids per kind ("memories", "messages", "summaries"), changed unless `dry_run`."""


@dataclass(frozen=True, slots=True)
class MemoryChange:
    """A memory row written, changed or deleted by some process on a shared database.

    `gone` says it must no longer be shown (forgotten, superseded or deleted).
    """

    id: str
    memory_type: str
    platform: str
    workspace_id: str
    agent_id: str
    user_id: str | None
    gone: bool


# Called with each change another process (or this one) made; None when changes may have been
# missed (the feed was down): whatever the listener keeps in RAM must be dropped.
ChangeListener = Callable[[MemoryChange | None], None]


# How long a platform event id is remembered: platforms retry for minutes, a day is plenty.
EVENT_TTL_SECONDS = 24 * 3600.0


@dataclass(frozen=True, slots=True)
class EventExpiry:
    """How long an event log remembers a key, the clock it reads, and how often (seconds) it purges
    expired keys; None purges at most once per TTL, capped at an hour."""

    ttl_seconds: float = EVENT_TTL_SECONDS
    clock: Callable[[], float] = time.time
    purge_interval: float | None = None

    def __post_init__(self) -> None:
        # Checked here, before a backend opens anything for a log it could not keep.
        if self.ttl_seconds <= 0:
            raise ValueError("ttl_seconds must be > 0")


class EventLog(ABC):
    """Platform event ids already handled, kept for a while so a redelivery is dropped.

    With the embedded backend the Slack adapter keeps its own (`adapters.event_dedup.EventDedup`,
    a file beside the data directory); the PostgreSQL backend keeps it in its database
    (`Storage.events`), shared by every process using it.
    """

    def __init__(self, expiry: EventExpiry) -> None:
        self.ttl_seconds = float(expiry.ttl_seconds)
        self._clock = expiry.clock
        # Expired keys are purged on the write path, at most once per interval.
        interval = expiry.purge_interval
        self._purge_interval = float(interval) if interval is not None else min(self.ttl_seconds, 3600.0)
        self._last_purge = float("-inf")
        self._closed = False

    def _purge_due(self, now: float) -> bool:
        return now - self._last_purge >= self._purge_interval

    @abstractmethod
    async def seen(self, key: str) -> bool:
        """Record `key`; True when it was already recorded and has not expired."""

    @abstractmethod
    async def purge(self) -> int:
        """Delete expired keys now; returns how many."""

    @abstractmethod
    async def count(self) -> int: ...

    @abstractmethod
    async def close(self) -> None: ...


K = TypeVar("K", bound=Hashable)


def lock_id(key: str) -> int:
    """A stable signed 64-bit number for `key` (the same in every process and every version)."""
    return int.from_bytes(hashlib.blake2b(key.encode("utf-8"), digest_size=8).digest(), "big", signed=True)


def write_lock_key(kind: str, *parts: str) -> str:
    """The `Storage.write_lock` key of one `kind` of write ("memories" of a scope, a "profile")."""
    return json.dumps([kind, *parts], separators=(",", ":"))


class KeyedLocks(Generic[K]):
    """One asyncio lock per key, living exactly as long as someone holds or awaits it."""

    def __init__(self) -> None:
        self._locks: weakref.WeakValueDictionary[K, asyncio.Lock] = weakref.WeakValueDictionary()

    def __call__(self, key: K) -> asyncio.Lock:
        lock = self._locks.get(key)
        if lock is None:
            lock = self._locks[key] = asyncio.Lock()
        return lock


class Storage(ABC):
    """One backend: the repositories over one database, and its upkeep."""

    memories: MemoryRepository
    turns: TurnRepository
    summaries: SummaryRepository
    people: PeopleRepository
    conversations: ConversationRepository

    @abstractmethod
    async def close(self) -> None: ...

    @abstractmethod
    async def reconcile(self, embed: Embed) -> ReconcileReport:
        """Make what is stored searchable after a crash: index rows without vectors, drop stray vectors."""

    @property
    @abstractmethod
    def needs_maintenance(self) -> bool: ...

    async def repair_turns(self, embed: Embed) -> int:
        """Index the turns stored without a vector; returns how many (queued again if it fails)."""
        self.turns.repair_due = False
        try:
            repaired = await self._index_turns(embed)
        except BaseException:
            self.turns.repair_due = True
            raise
        if repaired:
            log.info("message vectors repaired", extra={"count": repaired})
        return repaired

    async def repair_turns_if_due(self, embed: Embed) -> None:
        """`repair_turns` when turns are queued; a failure is logged and stays queued for next time."""
        if not self.turns.repair_due:
            return
        try:
            await self.repair_turns(embed)
        except Exception:
            log.warning("message repair failed; retried at the next maintenance", exc_info=True)

    @abstractmethod
    async def _index_turns(self, embed: Embed) -> int:
        """Embed and index every turn stored without a vector; returns how many."""

    @abstractmethod
    async def maintain(self, embed: Embed) -> None:
        """Off the reply path: index queued rows, compact and re-index what needs it."""

    @abstractmethod
    async def warm(self) -> int:
        """Load what the first searches would wait for; returns the rows loaded."""

    async def build_indexes(self) -> None:  # noqa: B027 - a backend that indexes on write needs nothing
        """Build every search index now, approximate ones included (benchmarks, after bulk loads)."""

    # --- migration between backends: plain rows, each with its stored vector as it is

    async def table_counts(self) -> dict[str, int]:
        """Rows per table of `MIGRATED_TABLES`."""
        raise StorageError(f"the {type(self).__name__} backend cannot count rows for a migration")

    async def export_rows(self, table: str, offset: int, limit: int) -> list[dict[str, Any]]:
        """Up to `limit` rows of `table` from `offset`, in the order they were written: plain
        values (times as epoch seconds, lists as lists, JSON as text) and the stored `vector`
        (None for a row stored without one)."""
        raise StorageError(f"the {type(self).__name__} backend cannot be the source of a migration")

    async def import_rows(self, table: str, rows: Sequence[Mapping[str, Any]]) -> int:
        """Store rows as `export_rows` gives them, in one transaction, their vectors as they are and
        their link column (`LINK_COLUMNS`) left empty; rows whose key is already stored are
        skipped. Returns how many were new."""
        raise StorageError(f"the {type(self).__name__} backend cannot be the target of a migration")

    async def set_links(self, table: str, links: Mapping[str, str]) -> int:
        """Point each row `id` of `links` at its linked row (superseded_by, condensed_into);
        returns how many changed."""
        raise StorageError(f"the {type(self).__name__} backend cannot be the target of a migration")

    # True when several processes may use this storage at once (what one keeps in RAM per
    # conversation must then follow the conversation: `channel_state`).
    shared: bool = False

    async def channel_state(self, key: str) -> tuple[str, bytes] | None:
        """The state conversation `key` was left in by the last process that answered it (a JSON
        document and its vectors' bytes), if this storage keeps one; read under `channel_lock`."""
        return None

    async def save_channel_state(self, key: str, document: str, vectors: bytes, now: float) -> None:  # noqa: B027
        """Keep conversation `key`'s state for the next process answering it (see `channel_state`)."""

    @asynccontextmanager
    async def channel_lock(self, key: str) -> AsyncIterator[None]:
        """Hold conversation `key`: one turn at a time per conversation in every process sharing
        this storage. The embedded backend has one process, so an asyncio lock per key does."""
        async with self._channel_locks(key):
            yield

    @cached_property
    def _channel_locks(self) -> KeyedLocks[str]:
        return KeyedLocks()

    @asynccontextmanager
    async def write_lock(self, keys: Sequence[str]) -> AsyncIterator[None]:
        """Hold every key of `keys` (a scope's check-then-insert, a profile's read-modify-write):
        one writer at a time per key in every process sharing this storage. Keys are taken in
        sorted order, so two holders of overlapping keys never each wait for the other. The
        embedded backend has one process, so an asyncio lock per key does."""
        async with AsyncExitStack() as stack:
            for key in sorted(set(keys)):
                await stack.enter_async_context(self._write_locks(key))
            yield

    @cached_property
    def _write_locks(self) -> KeyedLocks[str]:
        return KeyedLocks()

    async def watch(self, listener: ChangeListener) -> None:  # noqa: B027 - one process: nothing to hear
        """Call `listener` with every memory change made by any process sharing this storage.

        A backend only one process opens (the embedded one) has nothing to report: the engine's
        own listeners (`MemoryEngine.on_write`) already see every write.
        """

    async def catch_up(self) -> None:  # noqa: B027 - see `watch`
        """Return once every change committed before the call has reached the `watch` listeners,
        so what a turn reads from RAM is as new as the database."""

    def events(self, *, ttl_seconds: float) -> EventLog | None:
        """The platform event log kept in this storage, if it keeps one; None (the embedded backend)
        leaves adapters their own file beside the data directory."""
        return None
