"""Nearest-neighbour (pgvector, cosine) and full-text (tsvector) reads of one table under a filter."""

from __future__ import annotations

import math

import numpy as np

from ..base import VectorHit, fts_query_terms
from .db import Params, PostgresDatabase, check_vector


async def dense_hits(
    db: PostgresDatabase, table: str, where: str, p: Params, vector: np.ndarray, k: int
) -> list[VectorHit]:
    """The `k` rows of `table` matching `where` nearest to `vector` by cosine, best first.

    The filter is in the same statement: with `hnsw.iterative_scan` the index keeps scanning
    until k rows pass it, and a table too small for the index to pay is read exactly.
    """
    if k <= 0:
        return []
    q = p.add(check_vector(vector, db.dim, "query"))
    rows = await db.fetch(
        f"SELECT id, embedding, embedding <=> {q} AS distance FROM {table} WHERE {where} "
        f"ORDER BY embedding <=> {q} LIMIT {p.add(k)}",
        p.values,
    )
    hits = [
        VectorHit(id=r[0], score=1.0 - float(r[2]), vector=r[1])
        for r in rows
        if r[2] is not None and math.isfinite(r[2])
    ]
    hits.sort(key=lambda h: h.score, reverse=True)
    return hits


async def text_hits(
    db: PostgresDatabase, table: str, where: str, p: Params, text: str, k: int
) -> list[VectorHit]:
    """Full-text matches of any word of `text` among rows of `table` matching `where`, best first.

    Any user string is accepted: it is reduced to its words (`fts_query_terms`), which carry no
    tsquery operator, and joined with `|`; a query with no words returns nothing.
    """
    terms = fts_query_terms(text)
    if not terms or k <= 0:
        return []
    words = p.add(terms.split())
    # The words as written (`simple`) match other languages, but not the English stop words the
    # stemmed half drops: "the", "what", "about" would match nearly every row of a workspace, and
    # ts_rank would score them all (100 ms where a query of its meaningful words takes 5).
    rows = await db.fetch(
        f"SELECT id, embedding, ts_rank(search_text, q.query, 1) AS score FROM {table}, "
        f"(SELECT to_tsquery('english', array_to_string({words}::text[], ' | ')) || "
        f"to_tsquery('simple', array_to_string(ARRAY(SELECT w FROM unnest({words}::text[]) AS w "
        f"WHERE to_tsvector('english', w) <> ''::tsvector), ' | ')) AS query) AS q "
        f"WHERE {where} AND search_text @@ q.query "
        f'ORDER BY score DESC, id COLLATE "C" LIMIT {p.add(k)}',
        p.values,
    )
    return [VectorHit(id=r[0], score=float(r[2]), vector=r[1]) for r in rows]
