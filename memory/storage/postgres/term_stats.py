"""How many rows of a scope hold each query term, for BM25 on PostgreSQL (which keeps no such counts)."""

from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from ..base import ScopeKey
from .db import PostgresDatabase

# A scope this small is counted again on every search (a few milliseconds at most), so a search
# always ranks by what the table holds now; a larger one is counted at most once a minute per
# process, where one more row barely moves a term's rarity and a count would cost tens of ms.
FRESH_ROWS = 2_000
TTL_SECONDS = 60.0
# The most rows one full-text search scores (see `search.candidate_terms`). A word's rows are
# counted up to one past it: a word in more rows than that only ever adds to the scores of rows
# found by rarer words, and counting all 20,000 rows holding "team" would cost 50 ms.
MAX_SCORED_ROWS = 1_000
_MAX_SCOPES = 512
_MAX_WORDS = 50_000


@dataclass
class ScopeStats:
    """The live rows of one scope (-1 while a large one is being counted), their mean indexed
    length, and the rows holding each term."""

    rows: int
    average_length: float
    frequency: dict[str, int] = field(default_factory=dict)
    counted_at: float = 0.0


@dataclass(eq=False)
class TermStatistics:
    """Document frequencies per scope of one table's full text, counted on demand and kept a while.

    A frequency is exact up to `count_cap` (a word seen in more rows is taken to be in
    `count_cap`, which still makes it the commonest of the query's words).

    `live` is the SQL condition a row must meet to count: the rows the searches read, less their
    audience (a word's rarity is the workspace's, as in the embedded index) and less the rare row
    still waiting for its vector (so the scope's size is read from an index alone). Terms are
    tsquery texts of the English configuration, as `query_terms` gives them.
    """

    db: PostgresDatabase
    table: str
    live: str
    clock: Callable[[], float] = time.monotonic
    ttl: float = TTL_SECONDS
    fresh_rows: int = FRESH_ROWS
    count_cap: int = MAX_SCORED_ROWS + 1
    _scopes: OrderedDict[ScopeKey, ScopeStats] = field(default_factory=OrderedDict, init=False, repr=False)
    _words: OrderedDict[str, str] = field(default_factory=OrderedDict, init=False, repr=False)

    async def query_terms(self, words: Sequence[str]) -> list[str]:
        """The distinct English-analysed terms of `words` (stemmed; stop words left out), in order."""
        missing = [w for w in dict.fromkeys(w.casefold() for w in words) if w not in self._words]
        if missing:
            rows = await self.db.fetch(
                "SELECT w, CASE WHEN numnode(q) > 0 THEN q::text ELSE '' END "
                "FROM unnest($1::text[]) AS w, plainto_tsquery('english', w) AS q",
                (missing,),
            )
            for word, term in rows:
                self._words[word] = term
            while len(self._words) > _MAX_WORDS:
                self._words.popitem(last=False)
        terms = (self._words.get(w.casefold(), "") for w in words)
        return list(dict.fromkeys(t for t in terms if t))

    async def get(self, scope: ScopeKey, terms: Sequence[str]) -> ScopeStats:
        """The scope's row count, mean length and the frequency of every one of `terms`."""
        now = self.clock()
        stats = self._scopes.get(scope)
        if stats is not None and (stats.rows < self.fresh_rows or now - stats.counted_at > self.ttl):
            stats = None
        missing = list(terms) if stats is None else [t for t in terms if t not in stats.frequency]
        if stats is not None and not missing:
            self._scopes.move_to_end(scope)
            return stats
        where = f"platform = $1 AND workspace_id = $2 AND agent_id = $3 AND {self.live}"
        if stats is None:
            stats = await self._read_first_rows(scope, where, terms, now)
            if stats.rows >= 0:
                missing = []  # the whole scope was read: its counts are exact
        if missing or stats.rows < 0:
            await self._count_large(stats, scope, where, missing)
        self._scopes[scope] = stats
        self._scopes.move_to_end(scope)
        while len(self._scopes) > _MAX_SCOPES:
            self._scopes.popitem(last=False)
        return stats

    async def _read_first_rows(
        self, scope: ScopeKey, where: str, terms: Sequence[str], now: float
    ) -> ScopeStats:
        """One pass over the scope's first `fresh_rows` rows: the whole scope's figures when it has
        fewer; else only their mean length (a sample), with `rows` -1 for `_count_large` to count.

        The words' full-text index spans every workspace: a word common elsewhere would cost a
        small scope tens of milliseconds through it, where reading the scope's own rows costs one.
        """
        counts = ", ".join(
            f"count(*) FILTER (WHERE search_text @@ ${n}::tsquery)" for n in range(4, 4 + len(terms))
        )
        row = (
            await self.db.fetch(
                f"SELECT count(*), avg(length(search_text)){', ' + counts if counts else ''} FROM "
                f"(SELECT search_text FROM {self.table} WHERE {where} LIMIT {self.fresh_rows}) AS first_rows",
                (*scope, *terms),
            )
        )[0]
        average = float(row[1] or 0.0)
        if int(row[0]) >= self.fresh_rows:
            return ScopeStats(rows=-1, average_length=average, counted_at=now)
        frequency = {t: int(c) for t, c in zip(terms, row[2:], strict=True)}
        return ScopeStats(rows=int(row[0]), average_length=average, frequency=frequency, counted_at=now)

    async def _count_large(
        self, stats: ScopeStats, scope: ScopeKey, where: str, missing: Sequence[str]
    ) -> None:
        """Into `stats`: the scope's size (if not known yet) and the rows holding each `missing`
        term, each counted through the full-text index and only up to `count_cap`."""
        size = f"(SELECT count(*) FROM {self.table} WHERE {where})" if stats.rows < 0 else "NULL"
        row = await self.db.fetch(
            f"SELECT {size}, ARRAY(SELECT (SELECT count(*) FROM (SELECT 1 FROM {self.table} WHERE {where} "
            f"AND search_text @@ t::tsquery LIMIT {self.count_cap}) AS hit) "
            "FROM unnest($4::text[]) WITH ORDINALITY AS u(t, n) ORDER BY n)",
            (*scope, list(missing)),
        )
        rows, counts = row[0]
        if rows is not None:
            stats.rows = int(rows)
        stats.frequency.update(zip(missing, (int(c) for c in counts), strict=True))
