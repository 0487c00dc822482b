"""Embedders: the local model offline, the OpenAI SDK against a local fake server, the hash cache."""

from __future__ import annotations

import asyncio
import json
import logging
import sys
from collections.abc import AsyncIterator, Callable, Iterator
from typing import Any

import numpy as np
import pytest
from openai import AsyncOpenAI

from memory import traced_encoder as traced_module
from memory.embedders import (
    CachedEmbedder,
    EmbeddingError,
    LocalEmbedder,
    OpenAIEmbedder,
    bundled_model_path,
    embed_query,
)
from memory.traced_encoder import BF16_MIN_COSINE, native_bf16, query_encoder, traced_encoder
from tests.fakes.embedders import CountingEmbedder, HashEmbedder, QueryingEmbedder
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


def _torch_calls(encode: Callable[[], object]) -> int:
    """How many times `encode` calls into torch from Python: each call lets go of the GIL and
    must take it back, waiting for whatever thread holds it (the event loop)."""
    calls = 0

    def profile(frame: object, event: str, arg: object) -> None:
        nonlocal calls
        owner = getattr(arg, "__module__", None) or type(getattr(arg, "__self__", None)).__module__
        calls += event == "c_call" and str(owner).split(".")[0] == "torch"

    sys.setprofile(profile)
    try:
        encode()
    finally:
        sys.setprofile(None)
    return calls


TEXTS = [
    "What did Alice say about the Lisbon trip?",
    "x",
    "a long message that the model cuts at its window " * 80,
    "Ünïcödé, 中文, emoji 🎻 and tabs\tand\nnew lines",
]


@pytest.mark.model  # the model itself
async def test_one_text_is_encoded_by_a_trace_that_agrees_with_the_model(
    local_embedder: LocalEmbedder,
) -> None:
    await local_embedder.warm_up()  # a long-running bot's start: the trace is made there
    model = local_embedder._load()
    for text in TEXTS:
        eager = model.encode([text], normalize_embeddings=True, convert_to_numpy=True)
        assert np.allclose(local_embedder._encode([text]), eager, atol=1e-5), text
    # The forward pass runs in C++ in one go, instead of coming back to Python (and to the GIL)
    # for every op: a query is no longer stretched by a busy event loop.
    traced = _torch_calls(lambda: local_embedder._encode([TEXTS[0]]))
    eager_calls = _torch_calls(lambda: model.encode([TEXTS[0]], normalize_embeddings=True))
    assert traced * 5 < eager_calls, (traced, eager_calls)
    # Batches keep the model's own path: padding makes masks the trace never saw.
    batch = local_embedder._encode(TEXTS)
    assert np.allclose(batch, model.encode(TEXTS, normalize_embeddings=True), atol=1e-5)


@pytest.mark.model  # the model itself
async def test_a_query_points_where_the_model_does_through_a_trace_of_its_own(
    local_embedder: LocalEmbedder,
) -> None:
    await local_embedder.warm_up()
    model = local_embedder._load()
    for text in TEXTS:
        expected = model.encode([text], normalize_embeddings=True, convert_to_numpy=True)[0]
        query = await local_embedder.embed_query(text)
        assert query.dtype == np.float32 and float(query @ expected) >= BF16_MIN_COSINE, text
    # Where the CPU multiplies bfloat16 in hardware, queries go through a bfloat16 copy (half the
    # weights to read); stored texts keep the float32 trace, held to 1e-5 above.
    bf16 = local_embedder._encode_query is not local_embedder._encode_one
    assert bf16 == native_bf16()
    traced = _torch_calls(lambda: local_embedder._encode_query_text(TEXTS[0]))
    eager_calls = _torch_calls(lambda: model.encode([TEXTS[0]], normalize_embeddings=True))
    assert traced * 5 < eager_calls, (traced, eager_calls)


def test_queries_keep_the_float32_trace_where_bfloat16_is_not_in_hardware(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    fallback = HashEmbedder().vector
    monkeypatch.setattr(traced_module, "native_bf16", lambda: False)
    # Nothing is traced: a model that cannot be is never touched.
    assert query_encoder(object(), fallback) is fallback
    monkeypatch.setattr(traced_module, "native_bf16", lambda: True)
    # In hardware, but the copy cannot be traced: the float32 trace still serves.
    assert query_encoder(object(), fallback) is fallback


async def test_a_query_takes_the_embedders_query_path_and_is_cached_apart_from_stored_texts() -> None:
    inner = QueryingEmbedder(HashEmbedder())
    cache = CachedEmbedder(inner)
    text = "What did Alice say about Lisbon?"
    query = await embed_query(cache, text)
    assert np.array_equal(query, inner.query_vector(text))
    # The same text stored is embedded as a stored text, never served the query's vector.
    stored = (await cache.embed([text]))[0]
    assert np.array_equal(stored, HashEmbedder().vector(text)) and not np.array_equal(stored, query)
    assert np.array_equal(await embed_query(cache, text), query)
    assert inner.queries == [text] and (cache.hits, cache.misses) == (1, 2)
    # An embedder without a query path embeds a query as it does a stored text.
    assert np.array_equal(await embed_query(HashEmbedder(), text), stored)


class _Disagreeing:
    """The real model, except that its own answers differ from what its network computes."""

    def __init__(self, model: Any) -> None:
        self.model = model

    def __getitem__(self, index: int) -> Any:
        return self.model[index]

    def __iter__(self) -> Iterator[Any]:
        return iter(self.model)

    def preprocess(self, texts: list[str]) -> Any:
        return self.model.preprocess(texts)

    def encode(self, texts: list[str], **kwargs: Any) -> np.ndarray:
        return -np.asarray(self.model.encode(texts, **kwargs))


@pytest.mark.model  # the model's network is traced
def test_a_trace_that_disagrees_with_the_model_is_not_used(
    local_embedder: LocalEmbedder, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.INFO, logger="memory.traced_encoder"):
        assert traced_encoder(_Disagreeing(local_embedder._load())) is None
    assert [r.getMessage() for r in caplog.records] == [
        "traced embedding model disagrees with the model; not used"
    ]


@pytest.mark.model  # the model's network is traced
def test_a_bfloat16_trace_that_disagrees_with_the_model_is_not_used(
    local_embedder: LocalEmbedder, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.INFO, logger="memory.traced_encoder"):
        assert traced_encoder(_Disagreeing(local_embedder._load()), bf16=True) is None
    assert [(r.getMessage(), r.precision) for r in caplog.records] == [  # type: ignore[attr-defined]
        ("traced embedding model disagrees with the model; not used", "bfloat16")
    ]


def test_a_model_that_cannot_be_traced_keeps_its_own_path(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.INFO, logger="memory.traced_encoder"):
        assert traced_encoder(object()) is None  # no modules, no network: nothing to trace
    assert [r.getMessage() for r in caplog.records] == [
        "embedding model not traced; encoding one text the eager way"
    ]
    assert all(r.exc_info is None for r in caplog.records)


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
