"""How a search ranks words on every backend: the scope it ranks against, BM25, and the query's words."""

from __future__ import annotations

import math
import re

from ...models import Audience

# A long pasted message is still one question; more terms only slow BM25 down.
_MAX_QUERY_TERMS = 64
# Full-text indexes drop longer tokens, so they could never match.
_MAX_TERM_CHARS = 40
_WORD = re.compile(r"\w+")


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
