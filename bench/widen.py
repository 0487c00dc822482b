"""Where the pre-hook's missed LoCoMo evidence turns lie, and how many of them widening searches reach.

`python -m bench.widen --data FILE --dir DIR [--top 20]` asks every question through the real
pre-hook (conversations ingested under DIR once and reused, as `bench.turn_pool` does), takes the
evidence turns its block missed, and reports where they stand: inside the second stage's pool or
outside it, their rank by cosine and by full text over the whole conversation; then, for each
widening search below (its best `--top` turns), how many missed turns it reaches, how many of
those the pool did not hold, and how many turns outside the pool it brings per question (the
cost: each must outscore the pool's own to reach the block).

- `seed_words_1`, `seed_words_3`: full text by the words of the pool's best 1 or 3 turns that
  the question does not say (a second round seeded from the first);
- `moved_vector`: the nearest turns to the question moved towards its pool's best 3 turns;
- `named_author`: the nearest turns said by a participant the question names;
- `best_of_day`: the nearest turn of each day.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import sys
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np

import memory.prehook.sources as sources_module
from memory.prehook.turn_rerank import rerank_turns
from memory.text.lexicons import STOPWORDS

from .locomo import prepare
from .locomo_data import CATEGORY_NAMES
from .turn_pool import Capture, ask, open_conversation

WIDENINGS = ("seed_words_1", "seed_words_3", "moved_vector", "named_author", "best_of_day")
RANK_BUCKETS = (60, 120, 250, 500)
_WORD = re.compile(r"[^\W\d_][\w'-]*")
# Words this short are mostly fillers or parts of a contraction.
_MIN_TERM_CHARS = 3


def seed_terms(question: str, seeds: Iterable[str]) -> str:
    """The words of `seeds` the question does not already say, stop words left out, once each."""
    asked = {w.casefold() for w in _WORD.findall(question)}
    terms: dict[str, None] = {}
    for text in seeds:
        for word in _WORD.findall(text):
            key = word.casefold()
            if len(key) >= _MIN_TERM_CHARS and key not in asked and key not in STOPWORDS:
                terms.setdefault(key)
    return " ".join(terms)


def rank_bucket(rank: int | None) -> str:
    """`rank` (0-based; None: not found) as one of a few ranges, for counting."""
    if rank is None:
        return "none"
    for edge in RANK_BUCKETS:
        if rank < edge:
            return f"<{edge}"
    return f">={RANK_BUCKETS[-1]}"


def summarise(records: Sequence[Mapping[str, Any]], top: int) -> dict[str, Any]:
    """The report over per-question records: `category`, `missed` (evidence ids the block lacked),
    `pool` (the second stage's ids), `dense_rank` and `text_rank` (id -> 0-based rank over the
    conversation) and `lists` (widening name -> ids, best first)."""
    missed = outside = without_words = 0
    by_dense: dict[str, int] = {}
    by_category: dict[str, dict[str, int]] = {}
    widening = {name: {"missed_reached": 0, "outside_reached": 0, "new_turns": 0} for name in WIDENINGS}
    for record in records:
        lost = set(record["missed"])
        pool = set(record["pool"])
        out = lost - pool
        missed += len(lost)
        outside += len(out)
        category = CATEGORY_NAMES.get(record["category"], str(record["category"]))
        tally = by_category.setdefault(category, {"missed": 0, "outside_pool": 0})
        tally["missed"] += len(lost)
        tally["outside_pool"] += len(out)
        for turn in out:
            bucket = rank_bucket(record["dense_rank"].get(turn))
            by_dense[bucket] = by_dense.get(bucket, 0) + 1
            without_words += record["text_rank"].get(turn) is None
        for name, found in record["lists"].items():
            best = set(found[:top])
            widening[name]["missed_reached"] += len(lost & best)
            widening[name]["outside_reached"] += len(out & best)
            widening[name]["new_turns"] += len(best - pool)
    questions = max(len(records), 1)
    return {
        "questions": len(records),
        "top": top,
        "missed": missed,
        "outside_pool": outside,
        "outside_by_dense_rank": dict(sorted(by_dense.items())),
        "outside_without_question_word": without_words,
        "by_category": by_category,
        "widening": {
            name: {
                "missed_reached": w["missed_reached"],
                "outside_reached": w["outside_reached"],
                "new_turns_per_question": round(w["new_turns"] / questions, 1),
            }
            for name, w in widening.items()
        },
    }


def _named(question: str, names: Iterable[str]) -> set[str]:
    return {n for n in names if n and re.search(rf"\b{re.escape(n)}\b", question, re.IGNORECASE)}


async def probe(data: Path, root: Path, top: int) -> dict[str, Any]:
    from bot.app import build_embedder
    from bot.config import Settings

    settings = Settings.load(env_file=None)
    embedder = build_embedder(settings)
    conversations, settings, policy = await prepare(data, embedder, None, settings)
    capture = Capture()
    sources_module.rerank_turns = capture  # type: ignore[assignment]
    records: list[dict[str, Any]] = []
    for conv in conversations:
        engine, pipeline, _clock, turn_of = await open_conversation(conv, settings, embedder, policy, root)
        hook, store = pipeline.prehook, engine.storage.turns
        rows = {m.id: m for m in await store.get_unscoped(list(turn_of))}
        every = len(rows) + 50
        for n, q in enumerate(conv.questions):
            request, _, covered = await ask(pipeline, conv, n, q.text, turn_of)
            query, dense, lexical = capture.last  # type: ignore[misc]
            kept = [h for h, _ in rerank_turns(query, dense, lexical, hook.config.turn_lexical_weight, every)]
            whole_dense, whole_text = await store.hybrid_search(request.viewer, query, q.text, every)
            lists: dict[str, list[str]] = {}
            for k in (1, 3):
                terms = seed_terms(q.text, [rows[h.id].content for h in kept[:k] if h.id in rows])
                _, found = await store.hybrid_search(request.viewer, query, terms, top) if terms else ([], [])
                lists[f"seed_words_{k}"] = [h.id for h in found]
            seeds = [h.vector for h in kept[:3] if h.vector is not None]
            moved = query + np.mean(seeds, axis=0) if seeds else query
            moved = (moved / max(float(np.linalg.norm(moved)), 1e-12)).astype(np.float32)
            lists["moved_vector"] = [h.id for h in await store.search(request.viewer, moved, top)]
            authors = _named(q.text, {m.author_name or "" for m in rows.values()})
            lists["named_author"] = [
                h.id for h in whole_dense if h.id in rows and rows[h.id].author_name in authors
            ]
            days: dict[int, str] = {}
            for h in whole_dense:
                if h.id in rows:
                    days.setdefault(int(rows[h.id].created_at // 86400), h.id)
            lists["best_of_day"] = list(days.values())
            dia = turn_of.get
            records.append(
                {
                    "category": q.category,
                    "missed": [e for e in q.evidence if e not in covered],
                    "pool": [dia(h.id) for h in kept],
                    "dense_rank": {dia(h.id): r for r, h in enumerate(whole_dense)},
                    "text_rank": {dia(h.id): r for r, h in enumerate(whole_text)},
                    "lists": {name: [dia(i) for i in ids] for name, ids in lists.items()},
                }
            )
        await pipeline.aclose()
        await engine.close()
        print(conv.sample_id, file=sys.stderr)
    return summarise(records, top)


def main() -> None:
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    parser = argparse.ArgumentParser()
    parser.add_argument("--data", type=Path, required=True)
    parser.add_argument("--dir", type=Path, required=True)
    parser.add_argument("--top", type=int, default=20)
    args = parser.parse_args()
    args.dir.mkdir(parents=True, exist_ok=True)
    print(json.dumps(asyncio.run(probe(args.data, args.dir, args.top)), indent=1))


if __name__ == "__main__":
    main()
