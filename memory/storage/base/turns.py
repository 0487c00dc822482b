"""The turn repository: the transcript, its vectors and the reads of a conversation or an audience."""

from __future__ import annotations

import asyncio
from abc import ABC, abstractmethod
from collections.abc import Awaitable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ...models import Audience, Scope, StoredMessage
from ..rows import told_values
from .memories import VectorHit


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

# Turns whose told days are read per query and transaction by `read_told_days`: reading them costs
# about 0.3 ms a turn, so a batch holds the GIL a fraction of a second between awaits.
TOLD_BATCH = 500

# The told days of a turn as stored: (id, first day, the day after the last), UTC midnights, or
# (id, None, None) for a turn that names no date.
ToldDays = tuple[str, float | None, float | None]

# A turn to store: the message, its vector (None when the embedder failed) and the text it is
# searched under.
NewTurn = tuple[StoredMessage, np.ndarray | None, str]


class TurnRepository(ABC):
    """Turns (the transcript): rows, their vectors and the reads of a conversation or an audience."""

    # Set when a turn was stored without its vector (the embedder failed): `Storage.repair_turns`
    # indexes it at the next maintenance.
    repair_due: bool = False
    # Set when turns stored before the days they tell of were kept wait for them (`read_told_days`,
    # at the next maintenance).
    told_due: bool = False

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
    async def page(self, after: str, limit: int) -> list[StoredMessage]:
        """Stored turns in id order, `limit` of them after the id `after` ("" for the first): a
        pass over the whole transcript (`MemoryEngine.mask_stored_credentials`)."""

    @abstractmethod
    async def rewrite(self, messages: Sequence[StoredMessage]) -> None:
        """Replace the content and tool calls of stored turns (same ids). Each, and the turn after it
        in its conversation (indexed under both turns' words), leaves the search at once and is
        indexed again under its own words by `Storage.repair_turns`, the rewritten ones with
        vectors made again. Raises StorageError, changing nothing, when the rows cannot be written."""

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
    async def recent(
        self, scope: Scope, limit: int = 20, before: float | None = None, after: float | None = None
    ) -> list[StoredMessage]:
        """The conversation's (its thread's, when `scope` names one) last `limit` turns, oldest first;
        only those said before `before` and after `after` when given."""

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
    async def search_between(
        self, audience: Audience, vector: np.ndarray, since: float, until: float, k: int
    ) -> list[VectorHit]:
        """`search` among the turns said in [since, until) only."""

    @abstractmethod
    async def search_told(
        self, audience: Audience, vector: np.ndarray, since: float, until: float, k: int
    ) -> list[VectorHit]:
        """`search` among the turns that tell only of days in [since, until) (`turn_text.told_days`,
        UTC midnights), whenever they were said."""

    async def read_told_days(self, batch: int = TOLD_BATCH) -> int:
        """Read the days told by the turns stored before they were kept (migrations m008 and m015),
        a batch per transaction, so `search_told` finds them too; returns how many were read."""
        read = 0
        while turns := await self.told_unread(batch):
            # Off the event loop: replies go on while an old transcript is read.
            told = await asyncio.to_thread(lambda: [(m.id, *told_values(m)) for m in turns])
            await self._set_told(told)
            read += len(turns)
        self.told_due = False
        return read

    @abstractmethod
    async def told_unread(self, limit: int) -> list[StoredMessage]:
        """At most `limit` turns whose told days were never read, in arrival order."""

    @abstractmethod
    async def _set_told(self, told: Sequence[ToldDays]) -> None:
        """Store the told days read for these turns, marking them read; a turn read meanwhile (a
        rewrite reads its new words) keeps its own."""

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
