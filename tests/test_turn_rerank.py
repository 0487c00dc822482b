"""The second stage over past turns: a deeper pool rescored by cosine and full-text score."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from memory.engine import MemoryEngine
from memory.prehook import PreHook, PrehookConfig
from memory.prehook.turn_rerank import rerank_turns
from memory.storage import VectorHit
from tests.helpers import DAY, FakeClock, ranked_ids, store_apart
from tests.helpers import prehook_request as ask

QUERY = np.array([1.0, 0.0, 0.0], dtype=np.float32)


def hit(hit_id: str, cosine: float, score: float | None = None) -> VectorHit:
    """A hit whose stored vector has `cosine` with QUERY; `score` its own (cosine unless given)."""
    vector = np.array([cosine, float(np.sqrt(1 - cosine**2)), 0.0], dtype=np.float32)
    return VectorHit(hit_id, cosine if score is None else score, vector)


def test_a_strong_full_text_match_outranks_a_slightly_nearer_turn() -> None:
    dense = [hit("near", 0.60), hit("named", 0.55)]
    lexical = [hit("named", 0.55, score=12.0), hit("weak", 0.20, score=1.0)]
    ranked = rerank_turns(QUERY, dense, lexical, lexical_weight=0.3, keep=10)
    assert [h.id for h, _ in ranked] == ["named", "near", "weak"]
    scores = dict((h.id, s) for h, s in ranked)
    assert scores["named"] == np.float32(0.55) + 0.3
    assert abs(scores["weak"] - (0.20 + 0.3 / 12.0)) < 1e-6


def test_deep_weak_hits_keep_their_gap_and_only_the_best_are_kept() -> None:
    # Rank fusion would put the 2nd full-text hit close to the 1st; raw scores keep them apart.
    dense = [hit(f"d{n}", 0.7 - 0.05 * n) for n in range(6)]
    lexical = [hit("x", 0.1, score=10.0), hit("y", 0.1, score=0.5)]
    ranked = rerank_turns(QUERY, dense, lexical, lexical_weight=0.3, keep=4)
    assert [h.id for h, _ in ranked] == ["d0", "d1", "d2", "d3"]
    deeper = rerank_turns(QUERY, dense, lexical, 0.3, keep=8)
    assert [h.id for h, _ in deeper] == [*(f"d{n}" for n in range(6)), "x", "y"]
    assert deeper[6][1] - deeper[7][1] > 0.25


def test_the_full_text_score_counts_relative_to_the_best_one() -> None:
    # BM25 scales differ by backend and question length; only the ratio to the best one counts.
    dense = [hit("a", 0.5), hit("b", 0.45)]
    small = [hit("b", 0.45, score=2.0), hit("a", 0.5, score=0.5)]
    large = [hit("b", 0.45, score=200.0), hit("a", 0.5, score=50.0)]
    assert [h.id for h, _ in rerank_turns(QUERY, dense, small, 0.3, 5)] == ["b", "a"]
    assert rerank_turns(QUERY, dense, small, 0.3, 5) == rerank_turns(QUERY, dense, large, 0.3, 5)


def test_each_turn_is_kept_once_and_one_without_a_vector_scores_by_its_words() -> None:
    lexical = [VectorHit("novec", 4.0, None), hit("both", 0.4, score=2.0)]
    ranked = rerank_turns(QUERY, [hit("both", 0.4)], lexical, lexical_weight=0.3, keep=5)
    assert [h.id for h, _ in ranked] == ["both", "novec"]
    assert dict((h.id, s) for h, s in ranked)["novec"] == 0.3
    assert rerank_turns(QUERY, [], [], 0.3, 5) == []
    assert rerank_turns(QUERY, [hit("a", 0.5)], [], 0.3, 0) == []


async def test_a_turn_near_by_vector_and_by_words_rises_above_one_sided_hits(
    engine: MemoryEngine, clock: FakeClock
) -> None:
    # Rank fusion of two-deep lists puts the kayak turn last of the four it takes in; added up,
    # its cosine and its full-text score put it right after the best.
    at = clock() - 10 * DAY
    said = [
        "weekend plans weekend plans weekend plans weekend plans",
        "weekend weekend weekend plans plans plans lake",
        "the lake trip this weekend with the kayak",
        "what plans do you have for the lake trip",
        "we rented a kayak at the lake for the weekend trip plans",
        "the bus to the station was late again",
    ]
    turns = await store_apart(engine, said, at)
    found = {}
    for pool in (0, 6):
        config = PrehookConfig(message_top_k=2, turn_pool=pool, turn_feedback=0.0, turn_offset=0.0)
        found[pool] = await ranked_ids(engine, clock, config, "weekend plans lake trip kayak")
    kayak = turns[4].id
    assert found[0].index(kayak) == 3
    assert found[6].index(kayak) == 1


async def test_the_second_search_by_the_moved_question_is_skipped_under_the_second_stage(
    engine: MemoryEngine, clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Rescored by cosine with the question itself, the pool's nearest turns already come from the
    # first search: a search by the moved question could only cost time.
    at = clock() - 10 * DAY
    await store_apart(engine, [f"climbing gym session number {n}" for n in range(5)], at)
    calls: list[int] = []
    search = engine.storage.turns.search

    async def counted(*args: Any, **kwargs: Any) -> Any:
        calls.append(1)
        return await search(*args, **kwargs)

    monkeypatch.setattr(engine.storage.turns, "search", counted)
    for pool, expected in ((0, 1), (10, 0)):
        calls.clear()
        hook = PreHook(engine, PrehookConfig(turn_pool=pool, turn_feedback=1.0), clock=clock)
        result = await hook.run(ask("climbing gym"))
        assert result.injected_messages
        assert len(calls) == expected
        await hook.aclose()
