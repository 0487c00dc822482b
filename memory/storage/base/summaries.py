"""The summary repository: turn summaries, condensations and rolling thread summaries."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ...models import Audience, Scope, Summary, SummaryKind
from .memories import Embed


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
    async def page(self, after: str, limit: int) -> list[Summary]:
        """Stored summaries in id order, `limit` of them after the id `after` ("" for the first)."""

    @abstractmethod
    async def rewrite(self, summary: Summary, vector: np.ndarray | None) -> None:
        """Replace a stored summary's content and vector (None for a thread summary, never searched);
        its sources and links stay."""

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
