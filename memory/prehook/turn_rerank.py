"""The second stage over past turns: a deeper pool of dense and full-text hits, rescored
by one linear blend of cosine and full-text score, its best kept."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ..storage import VectorHit


def rerank_turns(
    query: np.ndarray,
    dense: Sequence[VectorHit],
    lexical: Sequence[VectorHit],
    lexical_weight: float,
    keep: int,
    dated: Sequence[VectorHit] = (),
    dated_boost: float = 0.0,
) -> list[tuple[VectorHit, float]]:
    """The `keep` best hits of `dense`, `lexical` and `dated`, each once, scored by
    cosine with `query` + `lexical_weight` × its full-text score over the best full-text score,
    + `dated_boost` for the turns said in the period the question names (`dated`).

    Reciprocal rank fusion weighs the 40th hit of a list nearly as the 1st (1/(60+40) against
    1/60), so a deeper pool floods the block with weak hits; raw scores keep their gaps. The
    full-text score is divided by the list's best so that it means the same on every backend and
    for every question length. A hit without a stored vector is scored by its full text alone.
    """
    if keep <= 0:
        return []
    best_lexical = max((float(h.score) for h in lexical), default=0.0)
    text_score: dict[str, float] = {}
    if best_lexical > 0:
        for hit in lexical:
            text_score.setdefault(hit.id, float(hit.score) / best_lexical)
    hits: dict[str, VectorHit] = {}
    for hit in [*dense, *lexical, *dated]:
        if hit.id not in hits or (hits[hit.id].vector is None and hit.vector is not None):
            hits[hit.id] = hit
    if not hits:
        return []
    ids = list(hits)
    cosines = np.zeros(len(ids), dtype=np.float32)
    with_vectors = [n for n, i in enumerate(ids) if hits[i].vector is not None]
    if with_vectors:
        matrix = np.stack([hits[ids[n]].vector for n in with_vectors])
        cosines[with_vectors] = matrix @ query
    in_period = {hit.id for hit in dated}
    scored = [
        (
            hits[i],
            float(cosines[n])
            + lexical_weight * text_score.get(i, 0.0)
            + (dated_boost if i in in_period else 0.0),
        )
        for n, i in enumerate(ids)
    ]
    # Ties (equal scores) keep the order the lists gave: dense first, then full text.
    scored.sort(key=lambda pair: pair[1], reverse=True)
    return scored[:keep]
