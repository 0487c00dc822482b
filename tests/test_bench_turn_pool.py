"""The turn-pool harness: a formula reorders the pool, `remap` keeps the shipped scores' scale."""

from __future__ import annotations

from datetime import UTC, datetime

import numpy as np
import pytest

from bench.turn_pool import FEATURES, _parse_weights, _periods, _scorer
from memory.storage import VectorHit


def features(**values: float) -> np.ndarray:
    row = np.zeros(len(FEATURES), dtype=np.float32)
    for name, value in values.items():
        row[FEATURES.index(name)] = value
    return row


def test_a_formula_reorders_the_pool_and_remap_keeps_the_shipped_scale() -> None:
    table = {
        "q#0": {
            "a": features(cos=0.6, bm=0.0),
            "b": features(cos=0.5, bm=0.0, speaker=1.0),
            "c": features(cos=0.2, bm=1.0),
        }
    }
    hits = [VectorHit(i, 0.0, None) for i in ("a", "b", "c")]
    weights = _parse_weights(["s=cos:1,bm:0.3,speaker:0.2", "r=remap:1,cos:1,bm:0.3,speaker:0.2"])
    plain = _scorer(weights["s"], table, ["q#0"])(None, hits, [], 3)
    assert [(h.id, round(s, 4)) for h, s in plain] == [("b", 0.7), ("a", 0.6), ("c", 0.5)]
    remapped = _scorer(weights["r"], table, ["q#0"])(None, hits, [], 2)
    # Same order, but the scores the shipped blend (cos + 0.3 bm) gives the pool, best first.
    assert [(h.id, round(s, 4)) for h, s in remapped] == [("b", 0.6), ("a", 0.5)]
    with pytest.raises(SystemExit):
        _parse_weights(["x=nonsense:1"])


def test_a_named_month_is_a_period_widened_by_a_day() -> None:
    now = datetime(2023, 11, 20, tzinfo=UTC).timestamp()
    [(start, end)] = _periods("What did she paint in July 2023?", now)
    assert start == datetime(2023, 6, 30, tzinfo=UTC).timestamp()
    assert end == datetime(2023, 8, 2, tzinfo=UTC).timestamp()
    assert _periods("What did she paint?", now) == []
