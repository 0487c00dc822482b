"""Embedders: the local model offline, the OpenAI SDK against a local fake server, the hash cache."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator

import numpy as np
import pytest
from openai import AsyncOpenAI

from memory.embedders import CachedEmbedder, EmbeddingError, LocalEmbedder, OpenAIEmbedder, bundled_model_path
from tests.fakes.embedders import CountingEmbedder, HashEmbedder
from tests.fakes.openai_embeddings import FAILING_INPUT, FakeOpenAIEmbeddings


@pytest.mark.model  # the model itself
async def test_local_model_is_found_offline_and_normalised(local_embedder: LocalEmbedder) -> None:
    assert bundled_model_path("all-MiniLM-L6-v2") is not None
    vectors = await local_embedder.embed(["Mickael broke his shoulder", "", "\ud800 odd text"])
    assert vectors.shape == (3, 384) and vectors.dtype == np.float32
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-4)
    pair = await local_embedder.embed(["David lives in Paris", "David has a son"])
    assert 0.55 < float(pair[0] @ pair[1]) < 0.75  # the calibration pair of the dedup policy


@pytest.mark.model  # the model's own thread
async def test_embedding_runs_off_the_event_loop(local_embedder: LocalEmbedder) -> None:
    ticks = 0

    async def ticker() -> None:
        nonlocal ticks
        while True:
            ticks += 1
            await asyncio.sleep(0)

    task = asyncio.create_task(ticker())
    await local_embedder.embed(["a fairly long sentence to embed " * 20] * 64)
    task.cancel()
    assert ticks > 1  # the loop kept running while the model worked


async def test_cache_hits_by_content_and_batches_misses() -> None:
    counting = CountingEmbedder(HashEmbedder())
    calls = counting.calls
    cache = CachedEmbedder(counting, max_entries=2)
    first = await cache.embed(["alpha", "beta", "alpha"])
    assert calls == [["alpha", "beta"]]  # the repeated text is embedded once
    again = await cache.embed(["beta"])
    assert calls == [["alpha", "beta"]] and np.array_equal(again[0], first[1])
    await cache.embed(["gamma", "delta", "epsilon"])  # larger than the cache: still answered
    assert (cache.hits, cache.misses) == (2, 5)


@pytest.fixture
async def fake_openai() -> AsyncIterator[FakeOpenAIEmbeddings]:
    async with FakeOpenAIEmbeddings() as server:
        yield server


async def test_openai_embedder_through_the_sdk(fake_openai: FakeOpenAIEmbeddings) -> None:
    client = AsyncOpenAI(api_key="sk-test", base_url=fake_openai.base_url, max_retries=0)
    embedder = OpenAIEmbedder(client, "text-embedding-3-small", dim=3)
    vectors = await embedder.embed(["ab", "abcd"])
    assert json.loads(json.dumps(fake_openai.requests[0]))["model"] == "text-embedding-3-small"
    # Rows come back in input order (the server answered reversed) and normalised.
    assert vectors[0] == pytest.approx(np.array([2.0, 1.0, 0.0]) / np.sqrt(5), abs=1e-6)
    assert vectors[1] == pytest.approx(np.array([4.0, 1.0, 0.0]) / np.sqrt(17), abs=1e-6)
    with pytest.raises(EmbeddingError, match="embedding request failed"):
        await embedder.embed([FAILING_INPUT])
    await client.close()
