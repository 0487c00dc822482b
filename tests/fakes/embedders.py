"""Embedders for tests: a fast deterministic one (hashed words, no model to load) and wrappers
that count or fail calls."""

from __future__ import annotations

import hashlib
import re
from collections.abc import Sequence

import numpy as np

from memory.embedders import Embedder, EmbeddingError, WrappedEmbedder

_WORD = re.compile(r"\w+")


class HashEmbedder:
    """Bag of hashed words, L2-normalised: texts sharing words are close, identical texts are equal.

    Good enough for searches to find what they should in tests, and it starts in no time, so a
    child process can ingest hundreds of turns in a second or two.
    """

    def __init__(self, dim: int = 384, name: str = "hash-test-embedder") -> None:
        self.dim = dim
        self.name = name
        self.calls = 0

    def vector(self, text: str) -> np.ndarray:
        """One text's vector, as `embed` gives it."""
        return self._vector(text)

    def _vector(self, text: str) -> np.ndarray:
        vector = np.zeros(self.dim, dtype=np.float32)
        for word in _WORD.findall(text.casefold()):
            digest = hashlib.blake2b(word.encode("utf-8", "replace"), digest_size=8).digest()
            slot = int.from_bytes(digest[:4], "little") % self.dim
            vector[slot] += 1.0 if digest[4] & 1 else -1.0
        norm = float(np.linalg.norm(vector))
        if norm == 0.0:
            vector[0] = 1.0  # no words: any fixed unit vector keeps the store's invariants
            return vector
        return vector / norm

    async def embed(self, texts: Sequence[str]) -> np.ndarray:
        self.calls += 1
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        return np.stack([self._vector(t) for t in texts])


class CountingEmbedder(WrappedEmbedder):
    """Passes every call through to `inner` and records the texts of each one."""

    def __init__(self, inner: Embedder) -> None:
        super().__init__(inner)
        self.calls: list[list[str]] = []

    async def embed(self, texts: Sequence[str]) -> np.ndarray:
        self.calls.append(list(texts))
        return await self.inner.embed(texts)


class FlakyEmbedder:
    """A HashEmbedder that fails the calls it is told to: by number (1-based) or while `down`."""

    def __init__(self, fail_calls: Sequence[int] = ()) -> None:
        self.inner = HashEmbedder()
        self.name, self.dim = self.inner.name, self.inner.dim
        self.fail_calls = set(fail_calls)
        self.down = False
        self.calls = 0
        self.failed: list[int] = []

    async def embed(self, texts: Sequence[str]) -> np.ndarray:
        self.calls += 1
        if self.down or self.calls in self.fail_calls:
            self.failed.append(self.calls)
            raise EmbeddingError("embedding service unavailable (injected fault)")
        return await self.inner.embed(texts)


class QueryingEmbedder(WrappedEmbedder):
    """`inner` for stored texts, with a query path of its own (as `LocalEmbedder` has) whose
    vectors differ from the stored texts', so a test sees which path a vector came from."""

    def __init__(self, inner: Embedder) -> None:
        super().__init__(inner)
        self._hashed = HashEmbedder(inner.dim)
        self.queries: list[str] = []

    def query_vector(self, text: str) -> np.ndarray:
        """The vector `embed_query` gives `text`."""
        return self._hashed.vector(f"asked: {text}")

    async def embed(self, texts: Sequence[str]) -> np.ndarray:
        return await self.inner.embed(texts)

    async def embed_query(self, text: str) -> np.ndarray:
        self.queries.append(text)
        return self.query_vector(text)
