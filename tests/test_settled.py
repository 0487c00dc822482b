"""gather_settled: the first error, raised only once every awaitable has finished."""

from __future__ import annotations

import asyncio

import pytest

from memory.settled import gather_settled


async def test_results_come_in_order() -> None:
    async def value(v: int) -> int:
        await asyncio.sleep(0)
        return v

    assert await gather_settled(value(1), value(2), value(3)) == [1, 2, 3]


async def test_an_error_waits_for_the_others_to_finish() -> None:
    release = asyncio.Event()
    finished: list[str] = []

    async def fails() -> None:
        raise LookupError("no vector")

    async def slow() -> str:
        await release.wait()
        finished.append("slow")
        return "rows"

    async def releases() -> None:
        # Runs after `fails` has raised: plain gather would already have returned by then.
        for _ in range(3):
            await asyncio.sleep(0)
        release.set()

    with pytest.raises(LookupError, match="no vector"):
        await gather_settled(fails(), slow(), releases())
    assert finished == ["slow"]
