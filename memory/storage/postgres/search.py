"""Nearest-neighbour (pgvector, cosine) and full-text (tsvector) reads of one table under a filter."""

from __future__ import annotations

import asyncio
import math
from collections.abc import Callable

import asyncpg
import numpy as np

from ...models import Memory
from ..base import BM25_B, BM25_K1, ScopeKey, VectorHit, bm25_idf, fts_query_terms
from .db import Params, PostgresDatabase, check_vector
from .term_stats import MAX_SCORED_ROWS, TermStatistics


def ready(vector: np.ndarray) -> asyncio.Future[np.ndarray]:
    """`vector` as the awaitable a `hybrid_search_awaiting` takes (a future: never awaited is fine)."""
    future: asyncio.Future[np.ndarray] = asyncio.get_running_loop().create_future()
    future.set_result(vector)
    return future


# Reads a hit's memory from the columns a search was asked for (`MEMORY_COLUMNS` first).
MemoryOfRow = Callable[[asyncpg.Record], Memory]


async def dense_hits(
    db: PostgresDatabase,
    table: str,
    where: str,
    p: Params,
    vector: np.ndarray,
    k: int,
    columns: str = "id",
    memory: MemoryOfRow | None = None,
) -> list[VectorHit]:
    """The `k` rows of `table` matching `where` nearest to `vector` by cosine, best first.

    The filter is in the same statement: with `hnsw.iterative_scan` the index keeps scanning
    until k rows pass it, and a table too small for the index to pay is read exactly. `columns`
    (the id first) are read too, and `memory` makes each hit's memory of them.
    """
    if k <= 0:
        return []
    q = p.add(check_vector(vector, db.dim, "query"))
    rows = await db.fetch(
        f"SELECT {columns}, embedding, embedding <=> {q} AS distance FROM {table} WHERE {where} "
        f"ORDER BY embedding <=> {q} LIMIT {p.add(k)}",
        p.values,
    )
    hits = [
        VectorHit(
            id=r[0], score=1.0 - float(r[-1]), vector=r[-2], memory=memory(r) if memory is not None else None
        )
        for r in rows
        if r[-1] is not None and math.isfinite(r[-1])
    ]
    # Ties by id, as the embedded index breaks them.
    hits.sort(key=lambda h: (-h.score, h.id))
    return hits


def candidate_terms(frequency: dict[str, int], rows: int, cap: int = MAX_SCORED_ROWS) -> list[str]:
    """The terms whose rows are scored: all when the scope is small, else the rarest while their
    rows add up to `cap` (the rarest always).

    Past the cap the common words only add to the scores of rows found by rarer ones: a row
    holding nothing but common words ranks below any row with a rare one, and scoring every row
    that holds "team" in a busy workspace would cost more than the whole pre-hook's budget.
    """
    present = sorted((t for t, f in frequency.items() if f > 0), key=lambda t: (frequency[t], t))
    if rows <= cap:
        return present
    chosen: list[str] = []
    total = 0
    for term in present:
        total += frequency[term]
        if chosen and total > cap:
            break
        chosen.append(term)
    return chosen


async def text_hits(
    db: PostgresDatabase,
    table: str,
    where: str,
    p: Params,
    text: str,
    k: int,
    stats: TermStatistics,
    scope: ScopeKey,
    columns: str = "id",
    memory: MemoryOfRow | None = None,
) -> list[VectorHit]:
    """Full-text matches of the words of `text` among rows of `table` matching `where`, best first
    by BM25 over the scope's rows (`stats` reads how many hold each word).

    Any user string is accepted: it is reduced to its words (`fts_query_terms`), which carry no
    tsquery operator, and analysed as English (stemmed, stop words left out: "the", "what" would
    match nearly every row); a query with no such words returns nothing. `columns` and `memory`
    as in `dense_hits`.
    """
    words = fts_query_terms(text).split()
    if not words or k <= 0:
        return []
    terms = await stats.query_terms(words)
    if not terms:
        return []
    scope_stats = await stats.get(scope, terms)
    frequency = scope_stats.frequency
    candidates = candidate_terms(frequency, scope_stats.rows)
    if not candidates:
        return []
    rows = max(scope_stats.rows, 1)
    weights = [(t, bm25_idf(rows, f)) for t, f in frequency.items() if f > 0]
    score = " + ".join(
        f"CASE WHEN search_text @@ {p.add(t)}::tsquery THEN {p.add(w)}::float8 ELSE 0 END" for t, w in weights
    )
    average = max(scope_stats.average_length, 1e-6)
    length = f"length(search_text) / {p.add(average)}::float8"
    norm = f"{BM25_K1 + 1.0} / (1 + {BM25_K1} * (1 - {BM25_B} + {BM25_B} * {length}))"
    match = p.add(" | ".join(f"({t})" for t in candidates))
    # The rarest word alone may hold more rows than the cap: then any `cap` of them are scored.
    bound = f" LIMIT {MAX_SCORED_ROWS}" if frequency[candidates[0]] > MAX_SCORED_ROWS else ""
    # The vectors of the k best only: carried through the scoring, every candidate's would be read.
    order = 'ORDER BY score DESC, id COLLATE "C"'
    selected = ", ".join(f"t.{c.strip()}" for c in columns.split(","))
    # Every word's test and the length read the row's tsvector: `|| ''` copies it once per row
    # out of TOAST (OFFSET 0 keeps the copy a column), not once per test (a third of the buffers,
    # 3.5 -> 2.4 ms a statement at 1,000,000 memories).
    matched = (
        f"(SELECT id, search_text || ''::tsvector AS search_text FROM {table} "
        f"WHERE {where} AND search_text @@ {match}::tsquery{bound} OFFSET 0) AS matched"
    )
    rows_found = await db.fetch(
        f"SELECT {selected}, t.embedding, best.score FROM (SELECT id, score FROM "
        f"(SELECT id, ({score}) * {norm} AS score FROM {matched}) AS scored "
        f"{order} LIMIT {p.add(k)}) AS best JOIN {table} AS t ON t.id = best.id "
        f'ORDER BY best.score DESC, best.id COLLATE "C"',
        p.values,
    )
    return [
        VectorHit(id=r[0], score=float(r[-1]), vector=r[-2], memory=memory(r) if memory is not None else None)
        for r in rows_found
    ]
