"""The persistent, expiring record of seen event ids: first sight, redelivery, restart, expiry."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from adapters.event_dedup import EventDedup
from memory.storage import EventExpiry
from tests.helpers import FakeClock


async def test_second_sight_is_reported_and_keys_are_independent(tmp_path: Path) -> None:
    async with await EventDedup.open(tmp_path / "events.sqlite3") as dedup:
        assert await dedup.seen("slack:event:Ev1") is False
        assert await dedup.seen("slack:event:Ev1") is True
        assert await dedup.seen("slack:event:Ev1") is True
        assert await dedup.seen("slack:event:Ev2") is False
        assert await dedup.count() == 2


async def test_concurrent_deliveries_of_one_event_get_one_first_sight(tmp_path: Path) -> None:
    async with await EventDedup.open(tmp_path / "events.sqlite3") as dedup:
        answers = await asyncio.gather(*(dedup.seen("slack:event:EvRace") for _ in range(20)))
        assert answers.count(False) == 1
        assert answers.count(True) == 19


async def test_record_survives_a_reopen(tmp_path: Path) -> None:
    path = tmp_path / "nested" / "events.sqlite3"
    first = await EventDedup.open(path)
    assert await first.seen("slack:event:EvPersist") is False
    await first.close()

    second = await EventDedup.open(path)
    try:
        assert await second.seen("slack:event:EvPersist") is True
        assert await second.seen("slack:event:EvOther") is False
    finally:
        await second.close()


async def test_keys_expire_after_the_ttl_and_are_purged(tmp_path: Path) -> None:
    clock = FakeClock()
    async with await EventDedup.open(tmp_path / "e.sqlite3", EventExpiry(60, clock)) as dedup:
        assert await dedup.seen("old") is False
        clock.advance(59)
        assert await dedup.seen("old") is True  # still inside the window
        assert await dedup.seen("young") is False
        clock.advance(1)
        # "old" was first seen 60 s ago: expired, so it counts as new again (and is re-recorded).
        assert await dedup.seen("old") is False
        assert await dedup.seen("old") is True
        clock.advance(60)
        assert await dedup.purge() == 2
        assert await dedup.count() == 0


async def test_purge_runs_on_the_write_path(tmp_path: Path) -> None:
    clock = FakeClock()
    async with await EventDedup.open(
        tmp_path / "e.sqlite3", EventExpiry(10, clock, purge_interval=5)
    ) as dedup:
        for n in range(5):
            await dedup.seen(f"k{n}")
        assert await dedup.count() == 5
        clock.advance(30)
        await dedup.seen("fresh")  # the interval has passed: expired rows go in the same call
        assert await dedup.count() == 1


async def test_closed_record_refuses_use_and_bad_ttl_is_rejected(tmp_path: Path) -> None:
    dedup = await EventDedup.open(tmp_path / "e.sqlite3")
    await dedup.close()
    await dedup.close()  # idempotent
    with pytest.raises(RuntimeError):
        await dedup.seen("x")
    with pytest.raises(ValueError):
        await EventDedup.open(tmp_path / "f.sqlite3", EventExpiry(ttl_seconds=0))
