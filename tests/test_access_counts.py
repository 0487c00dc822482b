"""Tests for access counts: gathered in RAM, written together, never lost on close."""

from __future__ import annotations

import asyncio
import logging

import pytest

from memory.engine import MemoryEngine
from memory.prehook.access_counts import AccessCounts
from tests.helpers import draft, stored_memory

# Counts are written through the storage seam: both backends.
STORAGE_BACKENDS = ("embedded", "postgres")


async def stored_count(engine: MemoryEngine, memory_id: str) -> tuple[int, float | None]:
    memory = await stored_memory(engine, memory_id)
    assert memory is not None
    return memory.access_count, memory.last_accessed_at


async def test_counts_wait_in_ram_then_go_out_in_one_write(engine: MemoryEngine) -> None:
    a = (await engine.remember(draft("Frank speaks Portuguese"))).memory
    b = (await engine.remember(draft("Grace runs the Lisbon office"))).memory
    counts = AccessCounts(engine.storage.memories, flush_after=3600)
    counts.add([a.id, b.id], 100.0)
    counts.add([a.id], 250.0)
    assert counts.pending == 2
    assert await stored_count(engine, a.id) == (0, None)  # nothing written yet
    await counts.aclose()
    assert counts.pending == 0
    assert await stored_count(engine, a.id) == (2, 250.0)
    assert await stored_count(engine, b.id) == (1, 250.0)


async def test_discarded_counts_are_never_written(engine: MemoryEngine) -> None:
    memory = (await engine.remember(draft("Frank speaks Portuguese"))).memory
    counts = AccessCounts(engine.storage.memories, flush_after=0.0)
    counts.add([memory.id], 10.0)
    counts.discard()
    assert counts.pending == 0 and counts._timer is None  # the scheduled write is cancelled
    await counts.aclose()
    assert await stored_count(engine, memory.id) == (0, None)


async def test_the_timer_writes_without_a_close(engine: MemoryEngine) -> None:
    memory = (await engine.remember(draft("Frank speaks Portuguese"))).memory
    counts = AccessCounts(engine.storage.memories, flush_after=0.0)
    counts.add([memory.id], 10.0)
    # The write starts from a loop timer, not from `add`: yield to the loop until it has run.
    while counts.pending or counts._flushing:  # noqa: ASYNC110 - no event exists to wait on
        await asyncio.sleep(0)
    assert (await stored_count(engine, memory.id))[0] == 1
    counts.add([], 11.0)
    assert counts._timer is None  # nothing pending, nothing scheduled


async def test_a_failed_write_is_logged_not_raised(
    engine: MemoryEngine, caplog: pytest.LogCaptureFixture
) -> None:
    memory = (await engine.remember(draft("Frank speaks Portuguese"))).memory
    counts = AccessCounts(engine.storage.memories, flush_after=3600)
    counts.add([memory.id], 10.0)
    await engine.close()
    with caplog.at_level(logging.WARNING, logger="memory.prehook.access_counts"):
        await counts.aclose()
    assert any("access count update failed" in r.message for r in caplog.records)
