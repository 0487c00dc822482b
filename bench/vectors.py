"""Synthetic memories' vectors kept on disk, so another backend or a rerun need not embed them again.

Embedding dominates filling a large benchmark (a million texts take the local model far longer
than PostgreSQL's COPY and index build), and the synthetic memories of one size and seed are the
same on every run: their texts and vectors go to one `.npy` file (and its `.json` texts) per
embedding model, dimension, size and seed. A text is answered from the file only if the file
holds that very text (a relative date in a memory resolves against the run's clock, so a few
texts differ from run to run); every other text (queries, past turns) is embedded as usual.
"""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from memory.embedders import Embedder


def vector_file(directory: Path, embedder: Embedder, size: int, seed: int) -> Path:
    """Where the vectors of `size` synthetic memories of `seed` by `embedder` are kept."""
    model = re.sub(r"[^A-Za-z0-9_.-]+", "_", embedder.name)
    return directory / f"synthetic-{model}-{embedder.dim}d-{size}-seed{seed}.npy"


async def load_vectors(path: Path, dim: int) -> tuple[list[str], np.ndarray] | None:
    """The stored texts and their vectors, or None when there are none (or they do not match)."""
    texts_path = path.with_suffix(".json")
    if not (await asyncio.to_thread(path.is_file) and await asyncio.to_thread(texts_path.is_file)):
        return None
    texts = json.loads(await asyncio.to_thread(texts_path.read_text, encoding="utf-8"))
    vectors = await asyncio.to_thread(np.load, path, mmap_mode="r")
    return (texts, vectors) if vectors.shape == (len(texts), dim) else None


async def save_vectors(path: Path, texts: Sequence[str], vectors: np.ndarray) -> None:
    await asyncio.to_thread(path.parent.mkdir, parents=True, exist_ok=True)
    # Written aside, then renamed, vectors last: an interrupted run leaves no pair to be trusted.
    for target, write in (
        (path.with_suffix(".json"), lambda p: p.write_text(json.dumps(list(texts)), encoding="utf-8")),
        (path, lambda p: _write_npy(p, vectors)),
    ):
        partial = target.with_name(target.name + ".partial")
        await asyncio.to_thread(write, partial)
        await asyncio.to_thread(partial.replace, target)


def _write_npy(path: Path, vectors: np.ndarray) -> None:
    # Through a file object: given a name, np.save would append ".npy" to the temporary one.
    with path.open("wb") as out:
        np.save(out, np.asarray(vectors, dtype=np.float32))


class KnownVectors:
    """An embedder answering the texts it was given vectors for, and asking `inner` for the rest;
    `seen` keeps every vector it returned, so a first run can store them."""

    def __init__(self, inner: Embedder, texts: Sequence[str], vectors: np.ndarray | None) -> None:
        self.inner = inner
        self.name = inner.name
        self.dim = inner.dim
        self._row = {text: n for n, text in enumerate(texts)} if vectors is not None else {}
        self._vectors = vectors
        # Only a first run records (to store them); a million vectors are not kept twice.
        self._record = vectors is None
        self.seen: dict[str, np.ndarray] = {}

    async def embed(self, texts: Sequence[str]) -> np.ndarray:
        # A first run embeds each text once: about half of a million synthetic memories repeat a
        # text of an earlier chunk (texts are distinct within a workspace only).
        missing = list(dict.fromkeys(t for t in texts if t not in self._row and t not in self.seen))
        fresh = dict(zip(missing, await self.inner.embed(missing), strict=True)) if missing else {}
        out = np.empty((len(texts), self.dim), dtype=np.float32)
        for n, text in enumerate(texts):
            row = self._row.get(text)
            if row is not None and self._vectors is not None:
                vector = self._vectors[row]
            else:
                vector = fresh[text] if text in fresh else self.seen[text]
            out[n] = vector
            if self._record:
                self.seen[text] = out[n]
        return out

    def in_order(self, texts: Sequence[str]) -> np.ndarray | None:
        """The vectors returned for `texts`, in order; None if any was never asked for."""
        if any(t not in self.seen for t in texts):
            return None
        return np.stack([self.seen[t] for t in texts]) if texts else np.empty((0, self.dim), np.float32)


class SyntheticVectors:
    """The vectors of one fill's memory texts: read from `path` when a run stored them, else
    embedded by `embedder.inner` and stored by `keep` once every text has been embedded."""

    def __init__(self, path: Path, texts: list[str], embedder: KnownVectors, loaded: bool) -> None:
        self.path = path
        self.texts = texts
        self.embedder = embedder
        self.loaded = loaded

    @classmethod
    async def open(
        cls, directory: Path, embedder: Embedder, texts: list[str], size: int, seed: int
    ) -> SyntheticVectors:
        path = vector_file(directory, embedder, size, seed)
        stored = await load_vectors(path, embedder.dim)
        if stored is None:
            return cls(path, texts, KnownVectors(embedder, [], None), False)
        return cls(path, texts, KnownVectors(embedder, *stored), True)

    async def keep(self) -> None:
        if self.loaded:
            return
        vectors = self.embedder.in_order(self.texts)
        if vectors is not None:
            await save_vectors(self.path, self.texts, vectors)
            self.loaded = True
