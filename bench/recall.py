"""Benchmark metrics: evidence recall of a block, answers shown, recall@k, percentiles, peak memory."""

from __future__ import annotations

import math
import resource
import sys
from collections.abc import Collection, Iterable, Mapping, Sequence

from memory.storage.text_analysis import analyze


def _unwrap(item: object) -> object:
    # Ranked candidates come as (item, score) pairs; injected items come bare.
    if isinstance(item, tuple) and item:
        return item[0]
    return item


def item_sources(item: object) -> list[str]:
    """Stored message ids an item stands for: a turn is itself; a memory or summary its recorded sources."""
    item = _unwrap(item)
    ids: list[str] = []
    own = getattr(item, "id", None)
    if isinstance(own, str):
        ids.append(own)
    for name in ("sources", "source_ids"):
        value = getattr(item, name, None)
        if value:
            ids.extend(str(v) for v in value)
    return ids


def turns_covered(items: Iterable[object], turn_of: Mapping[str, str]) -> set[str]:
    """The turn keys (e.g. LoCoMo dia_ids) the items cover, given stored message id -> turn key."""
    covered: set[str] = set()
    for item in items:
        covered.update(turn_of[i] for i in item_sources(item) if i in turn_of)
    return covered


def evidence_recall(evidence: Collection[str], covered: Collection[str]) -> float:
    """Fraction of the evidence turns that are covered; a question needs at least one evidence turn."""
    wanted = set(evidence)
    if not wanted:
        raise ValueError("evidence is empty: recall is undefined")
    return len(wanted & set(covered)) / len(wanted)


def answer_shown(answer: str, shown: str) -> bool | None:
    """Whether every word of a gold `answer` appears in the `shown` text, both analysed as full
    text is (stemmed, stop words out); None when the answer has no such word.

    Evidence recall counts a turn as recalled whenever its line is in the block, however the line
    was cut: a cut that drops the answer still counts. This checks what the text itself shows.
    """
    wanted = set(analyze(answer))
    if not wanted:
        return None
    return wanted <= set(analyze(shown))


def recall_at_k(evidence: Collection[str], ranked: Sequence[Collection[str]], k: int) -> float:
    """Evidence recall of the first `k` ranked items, each given as the set of turns it covers."""
    if k < 0:
        raise ValueError(f"k must not be negative, got {k}")
    covered: set[str] = set()
    for turns in ranked[:k]:
        covered.update(turns)
    return evidence_recall(evidence, covered)


def recall_at(
    evidence: Collection[str], ranked: Sequence[Collection[str]], ks: Iterable[int]
) -> dict[int, float]:
    """`recall_at_k` for each k."""
    return {k: recall_at_k(evidence, ranked, k) for k in ks}


def percentile(values: Sequence[float], q: float) -> float:
    """The q-th percentile (0..100) with linear interpolation between ranks (numpy's default)."""
    if not values:
        raise ValueError("no values")
    if not 0 <= q <= 100:
        raise ValueError(f"percentile must be within 0..100, got {q}")
    ordered = sorted(values)
    position = (len(ordered) - 1) * q / 100
    low = math.floor(position)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (position - low)


def percentiles(values: Sequence[float], qs: Iterable[float] = (50, 95), digits: int = 3) -> dict[str, float]:
    """{"p50": ..., "p95": ...} of `values`, rounded to `digits`."""
    return {f"p{q:g}": round(percentile(values, q), digits) for q in qs}


def mean(values: Sequence[float]) -> float:
    """Arithmetic mean; 0.0 for no values (an empty category reports zeros, not an error)."""
    return sum(values) / len(values) if values else 0.0


def peak_rss_mb() -> float:
    """The process's peak resident set size in MB (ru_maxrss is in KB on Linux, bytes on macOS)."""
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return round(peak / (1024 * 1024 if sys.platform == "darwin" else 1024), 1)
