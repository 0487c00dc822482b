"""Per-channel injection state: depth-based re-injection, semantic buffer, bounds, LRU registry."""

from __future__ import annotations

import json

import numpy as np
import pytest

from memory.prehook.injection_state import ChannelInjectionState, ChannelKey, InjectionStates

DIM = 32


def unit(seed: int) -> np.ndarray:
    v = np.random.default_rng(seed).normal(size=DIM).astype(np.float32)
    return v / np.linalg.norm(v)


def near(base: np.ndarray, seed: int, noise: float = 0.05) -> np.ndarray:
    v = base + noise * np.random.default_rng(seed).normal(size=DIM).astype(np.float32)
    return (v / np.linalg.norm(v)).astype(np.float32)


def test_id_is_not_reinjected_within_depth_and_is_after() -> None:
    state = ChannelInjectionState(context_window_depth=20)
    state.record([("m1", 100.0, unit(1))])
    assert state.injected_turn("m1") == 0
    for _ in range(19):
        state.advance_turn()
        assert not state.should_reinject("m1", 100.0, state.turn)
    state.advance_turn()
    assert state.turn == 20
    assert state.should_reinject("m1", 100.0, state.turn)
    assert state.should_reinject("never-seen", 0.0)


def test_updated_memory_counts_as_new() -> None:
    state = ChannelInjectionState(context_window_depth=20)
    vector = unit(1)
    state.record([("m1", 100.0, vector)])
    state.advance_turn()
    assert not state.should_reinject("m1", 100.0)
    assert state.should_reinject("m1", 150.0)
    # Its own earlier vector must not hide the updated version as a "near-duplicate".
    assert state.is_semantic_duplicate(near(vector, 2), memory_id="other")
    assert not state.is_semantic_duplicate(near(vector, 2), memory_id="m1")


def test_semantic_buffer_threshold_and_batch() -> None:
    state = ChannelInjectionState(context_window_depth=20, semantic_threshold=0.85)
    base = unit(1)
    state.record([("m1", 1.0, base), ("m2", 1.0, None)])
    close, far = near(base, 3, 0.05), unit(99)
    assert float(close @ base) > 0.85 and abs(float(far @ base)) < 0.85
    assert state.is_semantic_duplicate(close)
    assert not state.is_semantic_duplicate(far)
    mask = state.semantic_duplicates(np.stack([close, far, base]), ["a", "b", "m1"])
    assert mask.tolist() == [True, False, False]
    assert state.vector_count == 1  # a memory without a stored vector is tracked by id only
    assert len(state) == 2


def test_vectors_older_than_depth_stop_counting() -> None:
    state = ChannelInjectionState(context_window_depth=3)
    base = unit(1)
    state.record([("m1", 1.0, base)])
    state.advance_turn()
    state.advance_turn()
    assert state.is_semantic_duplicate(near(base, 2))
    state.advance_turn()
    assert not state.is_semantic_duplicate(near(base, 2))


def test_bounds_evict_oldest() -> None:
    state = ChannelInjectionState(max_ids=5, max_vectors=3)
    for n in range(8):
        state.record([(f"m{n}", 1.0, unit(n))])
        state.advance_turn()
    assert len(state) == 5 and state.vector_count == 3
    assert state.injected_turn("m0") is None and state.injected_turn("m7") == 7
    assert not state.is_semantic_duplicate(near(unit(0), 50))  # evicted from the buffer
    assert state.is_semantic_duplicate(near(unit(7), 50))
    # Re-recording an id refreshes it: it becomes the newest, not the next to go.
    state.record([("m3", 1.0, unit(3))])
    state.record([("x", 1.0, unit(100))])
    assert state.injected_turn("m3") == 8 and state.injected_turn("m4") is None


def test_forget_ids_drops_id_and_vector() -> None:
    state = ChannelInjectionState()
    base = unit(1)
    state.record([("m1", 1.0, base), ("m2", 1.0, unit(2))])
    assert state.forget_ids(["m1", "unknown"]) == 1
    assert state.should_reinject("m1", 1.0)
    assert not state.is_semantic_duplicate(near(base, 2))
    assert state.is_semantic_duplicate(near(unit(2), 2))


def test_empty_buffer_and_dimension_mismatch_are_not_duplicates() -> None:
    state = ChannelInjectionState()
    assert not state.is_semantic_duplicate(unit(1))
    state.record([("m1", 1.0, unit(1))])
    assert not state.is_semantic_duplicate(np.ones(DIM + 1, dtype=np.float32))
    assert state.semantic_duplicates(np.zeros((0, DIM), dtype=np.float32)).shape == (0,)


def test_registry_is_keyed_per_conversation_and_lru_bounded() -> None:
    states = InjectionStates(max_channels=2, context_window_depth=7)
    a = states.get("discord", "g1", "general", None, "default")
    assert a.context_window_depth == 7
    assert states.get("discord", "g1", "general", None, "default") is a
    thread = states.get("discord", "g1", "general", "t1", "default")
    assert thread is not a
    states.get("discord", "g1", "general", None, "default")  # touch: `a` is now the newest
    states.get("discord", "g1", "random", None, "default")
    assert ChannelKey("discord", "g1", "general", None, "default") in states
    assert ChannelKey("discord", "g1", "general", "t1", "default") not in states
    assert len(states) == 2


def test_registry_forget_ids_filters_by_workspace_and_agent() -> None:
    states = InjectionStates()
    one = states.get("discord", "g1", "general", None, "default")
    two = states.get("discord", "g2", "general", None, "default")
    other_agent = states.get("discord", "g1", "general", None, "other")
    for state in (one, two, other_agent):
        state.record([("m1", 1.0, unit(1))])
    assert states.forget_ids(["m1"], "discord", "g1", "default") == 1
    assert one.should_reinject("m1", 1.0)
    assert not two.should_reinject("m1", 1.0) and not other_agent.should_reinject("m1", 1.0)
    assert states.forget_ids(["m1"]) == 2
    assert states.peek(ChannelKey("discord", "g9", "x", None, "default")) is None


def test_a_state_exported_in_one_process_is_restored_whole_in_another() -> None:
    rng = np.random.default_rng(7)
    vectors = [v / np.linalg.norm(v) for v in rng.normal(size=(3, 8)).astype(np.float32)]
    state = ChannelInjectionState(context_window_depth=5, max_ids=10, max_vectors=2)
    state.record([("a", 1.0, vectors[0]), ("b", 2.0, None)])
    state.advance_turn()
    state.record([("c", 3.0, vectors[1]), ("d", 4.0, vectors[2])])
    values, data = state.export()
    copy = ChannelInjectionState(context_window_depth=5, max_ids=10, max_vectors=2)
    copy.restore(json.loads(json.dumps(values)), data)
    assert copy.turn == state.turn == 1
    assert [copy.injected_turn(i) for i in "abcd"] == [0, 0, 1, 1]
    assert not copy.should_reinject("b", 2.0) and copy.should_reinject("b", 2.5)
    assert copy.vector_count == 2  # "a" had been pushed out of the buffer
    assert copy.is_semantic_duplicate(vectors[2]) and not copy.is_semantic_duplicate(vectors[0])
    with pytest.raises(ValueError):
        copy.restore(values, data[:-4])
