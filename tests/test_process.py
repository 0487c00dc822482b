"""Process-wide tuning: the start-up heap is frozen, and counting it is left to a debug log."""

from __future__ import annotations

import gc
import logging

import pytest

from bot.process import freeze_startup_heap


def test_the_frozen_heap_is_counted_only_when_the_debug_line_is_written(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    counts: list[int] = []
    count_frozen = gc.get_freeze_count

    def counting() -> int:
        # gc's own count walks every frozen object: record that it was asked for.
        counts.append(count_frozen())
        return counts[-1]

    monkeypatch.setattr(gc, "get_freeze_count", counting)
    caplog.set_level(logging.INFO, logger="bot.process")
    freeze_startup_heap()
    assert counts == []
    assert count_frozen() > 0
    caplog.set_level(logging.DEBUG, logger="bot.process")
    freeze_startup_heap()
    [line] = [r for r in caplog.records if r.getMessage() == "start-up heap frozen"]
    assert counts and line.objects == counts[-1] > 0  # type: ignore[attr-defined]
