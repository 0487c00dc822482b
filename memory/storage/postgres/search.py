"""Nearest-neighbour (pgvector, cosine) and full-text (tsvector) reads of one table under a filter."""

from __future__ import annotations

import asyncio
import math
from collections.abc import Callable

import asyncpg
import numpy as np

from ...models import Memory
from ..base import BM25_B, BM25_K1, ScopeKey, VectorHit
from ..text_analysis import analyze, query_terms
from .db import Params, PostgresDatabase, check_vector, safe_text


def search_terms(text: str) -> list[str]:
    """A row's `search_terms` column: its words as both backends' full text analyses them."""
    return analyze(safe_text(text))


def ready(vector: np.ndarray) -> asyncio.Future[np.ndarray]:
    """`vector` as the awaitable a `hybrid_search_awaiting` takes (a future: never awaited is fine)."""
    future: asyncio.Future[np.ndarray] = asyncio.get_running_loop().create_future()
    future.set_result(vector)
    return future


# Reads a hit's memory from the columns a search was asked for (`MEMORY_COLUMNS` first).
MemoryOfRow = Callable[[asyncpg.Record], Memory]
# The columns a search reads of each hit (the id first), written for the name its row goes by in
# the statement.
SelectList = Callable[[str], str]


def id_only(row: str) -> str:
    return f"{row}.id"


async def dense_hits(
    db: PostgresDatabase,
    table: str,
    where: str,
    p: Params,
    vector: np.ndarray,
    k: int,
    columns: SelectList = id_only,
    memory: MemoryOfRow | None = None,
) -> list[VectorHit]:
    """The `k` rows of `table` matching `where` nearest to `vector` by cosine, best first.

    The filter is in the same statement: with `hnsw.iterative_scan` the index keeps scanning
    until k rows pass it, and a table too small for the index to pay is read exactly. `columns`
    (the id first) are read too, and `memory` makes each hit's memory of them.

    Rows at the same distance (equal vectors) are cut by arrival, then id, as the embedded index
    cuts them: read exactly, the sort takes every key; on the HNSW index the server sorts each
    run of equal distances the scan returns (an incremental sort), so it reads past the k-th
    row only while the distance stays the same.
    """
    if k <= 0:
        return []
    q = p.add(check_vector(vector, db.dim, "query"))
    rows = await db.fetch(
        f"SELECT {columns(table)}, extract(epoch FROM created_at)::float8, embedding, "
        f"embedding <=> {q} AS distance "
        f"FROM {table} WHERE {where} "
        f'ORDER BY embedding <=> {q}, created_at, id COLLATE "C" LIMIT {p.add(k)}',
        p.values,
    )
    found = [
        (
            VectorHit(
                id=r[0],
                score=1.0 - float(r[-1]),
                vector=r[-2],
                memory=memory(r) if memory is not None else None,
            ),
            float(r[-3]),
        )
        for r in rows
        if r[-1] is not None and math.isfinite(r[-1])
    ]
    # Ties by arrival, then id, as the embedded index breaks them.
    found.sort(key=lambda pair: (-pair[0].score, pair[1], pair[0].id))
    return [hit for hit, _ in found]


# The most rows one full-text search scores: past it, the rows of the query's rarest words only.
MAX_SCORED_ROWS = 1_000
# The rows each table's full-text index holds (the predicate of its partial index).
INDEXED = {"memories": "NOT forgotten", "messages": "searchable"}


def _quoted(term: str) -> str:
    """SQL of the text expression `term` as one quoted tsquery lexeme, taken literally."""
    return "('''' || replace(replace(" + term + r", '\', '\\'), '''', '''''') || '''')"


async def text_hits(
    db: PostgresDatabase,
    table: str,
    where: str,
    p: Params,
    text: str,
    k: int,
    scope: ScopeKey,
    columns: SelectList = id_only,
    memory: MemoryOfRow | None = None,
    cap: int = MAX_SCORED_ROWS,
) -> list[VectorHit]:
    """Full-text matches of the words of `text` among rows of `table` matching `where`, best first
    by BM25 over the scope's rows, in one statement. `where` keeps to the scope's workspace: the
    words are looked up under its key in the index (migration m011).

    Any user string is accepted: it is reduced to its words and analysed as the embedded backend
    analyses them (`query_terms`: stemmed, stop words left out), so it carries no tsquery operator;
    a query with no such words returns nothing. Each term weighs its IDF among the scope's rows
    (`term_counts`, kept by the database on every write) times its repeats in the row, saturated
    and normalised by the row's length in terms, as `ScopeIndex.text_search` scores them.

    A scope of more than `cap` rows scores only the rows of its rarest query words, while they add
    up to `cap` (the rarest always, and then any `cap` of its rows): past the cap the common words
    only add to the scores of rows found by rarer ones (a row holding nothing but common words
    ranks below any row with a rare one), and scoring every row that holds "team" in a busy
    workspace would cost more than the whole pre-hook's budget. `columns` and `memory` as in
    `dense_hits`.
    """
    terms = query_terms(text)
    if not terms or k <= 0:
        return []
    counts = (
        f"SELECT term, rows, lengths FROM term_counts WHERE table_name = {p.add(table)} "
        f"AND platform = {p.add(scope[0])} AND workspace_id = {(workspace := p.add(scope[1]))} "
        f"AND agent_id = {p.add(scope[2])} AND term = ANY({p.add(['', *terms])}::text[])"
    )
    total = "COALESCE(max({0}) FILTER (WHERE term = ''), 0)"
    scope_sql = (
        f"SELECT {total.format('rows')} AS n, GREATEST({total.format('lengths')}::float8 "
        f"/ GREATEST({total.format('rows')}, 1), 1e-6) AS avg FROM counted"
    )
    rarest = 'ORDER BY c.rows, c.term COLLATE "C"'
    weights = (
        "SELECT c.term, c.rows, ln(1.0 + (s.n - c.rows + 0.5) / (c.rows + 0.5)) AS idf, "
        f"sum(c.rows) OVER ({rarest}) AS running, row_number() OVER ({rarest}) AS rarity "
        "FROM counted AS c, scope AS s WHERE c.term <> '' AND c.rows > 0"
    )
    # The terms whose rows are scored: all in a small scope, else the rarest while within the cap.
    limit = p.add(cap)
    chosen = (
        f"SELECT w.term FROM weights AS w, scope AS s "
        f"WHERE s.n <= {limit} OR w.rarity = 1 OR w.running <= {limit}"
    )
    # The index keys each word by its workspace (migration m011): the words are keyed the same way.
    keyed = (
        f"tsvector_to_array(scoped_lexemes({workspace}, array_to_tsvector(ARRAY(SELECT term FROM chosen))))"
    )
    match = f"(SELECT string_agg({_quoted('t')}, ' | ')::tsquery FROM unnest({keyed}) AS t)"
    # The rarest word alone may hold more rows than the cap: then any `cap` of them are scored.
    bound = f"(SELECT CASE WHEN min(rows) > {limit} THEN {limit} END FROM weights)"
    # Each matched row's terms are copied once out of TOAST (OFFSET 0 keeps the copy a column),
    # not read again by each word's count and the length. A row stored before its terms were
    # (migration m009) has only lexemes: a word counts once there, and its length is in lexemes.
    matched = (
        "(SELECT id, created_at, "
        "CASE WHEN search_terms IS NOT NULL THEN search_terms || '{}'::text[] END AS terms, "
        "CASE WHEN search_terms IS NULL THEN search_text || ''::tsvector END AS lexemes "
        # The words' index alone finds the rows, the filter is applied to what it found: offered
        # both, the planner ANDed it with a btree of the whole workspace (18 ms at a million).
        f"FROM (SELECT * FROM {table} WHERE {INDEXED[table]} "
        f"AND scoped_lexemes(workspace_id, search_text) @@ {match} OFFSET 0) AS {table} "
        f"WHERE {where} LIMIT {bound} OFFSET 0) AS m"
    )
    repeats = (
        "COALESCE(cardinality(array_positions(m.terms, w.term)), "
        f"(m.lexemes @@ {_quoted('w.term')}::tsquery)::int)::float8"
    )
    length = "COALESCE(cardinality(m.terms), length(m.lexemes))::float8"
    saturation = f"{BM25_K1} * (1 - {BM25_B} + {BM25_B} * {length} / (SELECT avg FROM scope))"
    score = (
        f"(SELECT sum(w.idf * f.tf * {BM25_K1 + 1.0} / (f.tf + {saturation})) "
        f"FROM weights AS w, LATERAL (SELECT {repeats} AS tf) AS f)"
    )
    # Ties by arrival, then id, as the embedded index breaks them.
    ties = '{0}score DESC, {0}created_at, {0}id COLLATE "C"'
    # The vectors of the k best only: carried through the scoring, every candidate's would be read.
    rows_found = await db.fetch(
        f"WITH counted AS MATERIALIZED ({counts}), scope AS ({scope_sql}), "
        f"weights AS MATERIALIZED ({weights}), chosen AS ({chosen}) "
        f"SELECT {columns('t')}, t.embedding, best.score FROM (SELECT id, created_at, score FROM "
        f"(SELECT m.id, m.created_at, {score} AS score FROM {matched}) AS scored "
        f"ORDER BY {ties.format('')} LIMIT {p.add(k)}) AS best "
        f"JOIN {table} AS t ON t.id = best.id "
        f"ORDER BY {ties.format('best.')}",
        p.values,
    )
    return [
        VectorHit(id=r[0], score=float(r[-1]), vector=r[-2], memory=memory(r) if memory is not None else None)
        for r in rows_found
    ]
