"""Process-wide tuning: the start-up heap is frozen, without walking it to count it."""

from __future__ import annotations

import gc
import logging

import pytest

from bot.process import freeze_startup_heap


def test_the_heap_is_frozen_and_never_walked_to_be_counted(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    asked: list[int] = []
    count_frozen = gc.get_freeze_count

    def counting() -> int:
        # gc's own count walks every frozen object: record that it was asked for.
        asked.append(count_frozen())
        return asked[-1]

    monkeypatch.setattr(gc, "get_freeze_count", counting)
    for level in (logging.INFO, logging.DEBUG):
        caplog.set_level(level, logger="bot.process")
        gc.unfreeze()
        freeze_startup_heap()
        assert count_frozen() > 0
    assert asked == []
    [line] = [r for r in caplog.records if r.getMessage() == "start-up heap frozen"]
    assert line.unreachable_collected >= 0  # type: ignore[attr-defined]


def test_the_tests_run_with_the_collector_on() -> None:
    # tests/conftest.py turns the collector off while the suite is collected, not for the tests:
    # it is back on, with what collection imported frozen out of its reach.
    assert gc.isenabled()
    assert gc.get_freeze_count() > 0
