"""How many rows of a scope hold each query term, for BM25 on PostgreSQL, read from `term_counts`."""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass, field

from ..base import ScopeKey
from .db import PostgresDatabase

# The most rows one full-text search scores (see `search.candidate_terms`).
MAX_SCORED_ROWS = 1_000
_MAX_WORDS = 50_000


@dataclass
class ScopeStats:
    """The searchable rows of one scope, their mean indexed length, and the rows holding each term."""

    rows: int
    average_length: float
    frequency: dict[str, int] = field(default_factory=dict)


@dataclass(frozen=True)
class QueryTerm:
    """One query word as the full-text search matches it: its tsquery text and its lexemes (one,
    but for a word the parser splits, such as "e-mail": then the row must hold all of them)."""

    query: str
    lexemes: tuple[str, ...]


@dataclass(eq=False)
class QueryWords:
    """Query words as PostgreSQL's English configuration analyses them, kept per process and shared
    by every table's statistics: the memories' and the turns' searches of one request ask for
    the same words side by side, and one statement answers both (the later asker waits for it)."""

    db: PostgresDatabase
    _words: OrderedDict[str, QueryTerm | None] = field(default_factory=OrderedDict, init=False, repr=False)
    _pending: dict[str, asyncio.Future[None]] = field(default_factory=dict, init=False, repr=False)

    async def terms(self, words: Sequence[str]) -> list[QueryTerm]:
        """The distinct English-analysed terms of `words` (stemmed; stop words left out), in order."""
        folded = list(dict.fromkeys(w.casefold() for w in words))
        missing = [w for w in folded if w not in self._words and w not in self._pending]
        waits = {self._pending[w] for w in folded if w in self._pending}
        if missing:
            done = asyncio.get_running_loop().create_future()
            for word in missing:
                self._pending[word] = done
            try:
                await self._analyse(missing)
            finally:
                for word in missing:
                    self._pending.pop(word, None)
                done.set_result(None)
        if waits:
            await asyncio.gather(*waits)
        if any(w not in self._words for w in folded):
            # The statement another request was waiting on failed: analyse what is still missing.
            await self._analyse([w for w in folded if w not in self._words])
        terms = (self._words.get(w) for w in folded)
        return list(dict.fromkeys(t for t in terms if t is not None))

    async def _analyse(self, words: list[str]) -> None:
        # plainto_tsquery and to_tsvector parse a word alike: the query's lexemes are the vector's.
        rows = await self.db.fetch(
            "SELECT w, CASE WHEN numnode(q) > 0 THEN q::text ELSE '' END, "
            "tsvector_to_array(to_tsvector('english', w)) "
            "FROM unnest($1::text[]) AS w, plainto_tsquery('english', w) AS q",
            (words,),
        )
        for word, query, lexemes in rows:
            self._words[word] = QueryTerm(query, tuple(lexemes)) if query and lexemes else None
        while len(self._words) > _MAX_WORDS:
            self._words.popitem(last=False)


@dataclass(eq=False)
class TermStatistics:
    """Document frequencies per scope of one table's full text.

    The database keeps them (migration m004: a trigger on every write counts the rows that became
    searchable and those that stopped, per scope and lexeme), so a search reads exactly what the
    table holds now in one index lookup. A word the parser splits into several lexemes is taken to
    be as rare as its rarest one (no row can hold the word without it).
    """

    db: PostgresDatabase
    table: str
    words: QueryWords

    async def query_terms(self, words: Sequence[str]) -> list[QueryTerm]:
        """The distinct English-analysed terms of `words` (stemmed; stop words left out), in order."""
        return await self.words.terms(words)

    async def get(self, scope: ScopeKey, terms: Sequence[QueryTerm]) -> ScopeStats:
        """The scope's searchable row count, mean length and the frequency of every one of `terms`
        (keyed by their tsquery text)."""
        lexemes = sorted({lexeme for term in terms for lexeme in term.lexemes})
        rows = await self.db.fetch(
            "SELECT term, rows, lengths FROM term_counts WHERE table_name = $1 AND platform = $2 "
            "AND workspace_id = $3 AND agent_id = $4 AND term = ANY($5::text[])",
            (self.table, *scope, ["", *lexemes]),
        )
        counted = {str(r[0]): (int(r[1]), int(r[2])) for r in rows}
        size, lengths = counted.get("", (0, 0))
        frequency = {t.query: min(counted.get(lexeme, (0, 0))[0] for lexeme in t.lexemes) for t in terms}
        return ScopeStats(rows=size, average_length=lengths / size if size > 0 else 0.0, frequency=frequency)
