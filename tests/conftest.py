"""Shared fixtures: the real local embedder (loaded once), engines on tmp dirs, a settable clock."""

from __future__ import annotations

import os
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from memory.embedders import CachedEmbedder, LocalEmbedder
from memory.engine import MemoryEngine

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")


class FakeClock:
    """A clock tests move by hand: expiry and recency without sleeping."""

    def __init__(self, start: float = 1_790_000_000.0) -> None:
        self.now = start

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


@pytest.fixture(scope="session")
def local_embedder() -> LocalEmbedder:
    """The real all-MiniLM-L6-v2, shared by every test (loading it takes seconds)."""
    return LocalEmbedder()


@pytest.fixture
def embedder(local_embedder: LocalEmbedder) -> CachedEmbedder:
    return CachedEmbedder(local_embedder)


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
async def engine(tmp_path: Path, embedder: CachedEmbedder, clock: FakeClock) -> AsyncIterator[MemoryEngine]:
    eng = await MemoryEngine.open(tmp_path / "data", embedder, clock=clock)
    yield eng
    await eng.close()
