"""One text through a traced copy of the local model: its forward pass takes the GIL once, not per op."""

from __future__ import annotations

import copy
import logging
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np

log = logging.getLogger(__name__)

EncodeOne = Callable[[str], np.ndarray]

# What the trace must agree with the model on before it is used: a word, a text long enough to be
# truncated, and scripts other than Latin.
_PROBES = (
    "hi",
    "Alice moved to Lisbon in May and took up the cello. " * 60,
    "東京で寿司を食べた 🍣 ¿qué tal?",
)
_TOLERANCE = 1e-4
# A bfloat16 copy rounds every weight and activation: its vectors point where the model's do
# (cosine 0.99994 on average over LoCoMo's questions with all-MiniLM-L6-v2), but not to 1e-4 in
# each value.
BF16_MIN_COSINE = 0.9995


def native_bf16() -> bool:
    """Whether this CPU multiplies bfloat16 matrices in hardware (AVX-512 BF16 or AMX); elsewhere
    PyTorch emulates them, slower than float32."""
    import torch

    cpu = getattr(torch, "cpu", None)
    checks = ("_is_avx512_bf16_supported", "_is_amx_tile_supported")
    try:
        return any(bool(getattr(cpu, name, lambda: False)()) for name in checks)
    except Exception:  # a build without the checks: assume the emulation
        return False


def traced_encoder(model: Any, bf16: bool = False) -> EncodeOne | None:
    """`model` (a SentenceTransformer whose first module is a transformer) as a function of one
    text giving its normalised vector, or None when it cannot be traced or the trace disagrees
    with the model on the probes.

    Why: eager PyTorch releases and retakes the GIL around each of its ~600 calls per query.
    While the event loop is busy (the pre-hook's SQL runs during the query's embedding), each
    retake waits for the loop's switch interval, and a 14 ms query took 25 ms and more. A traced
    graph runs in C++ in one go.

    `bf16`: trace a bfloat16 copy of the network (see `query_encoder`), used when its vectors
    agree with the model's to `BF16_MIN_COSINE` on the probes; a float32 trace is held to
    `_TOLERANCE` in every value.

    One text only: a batch of one has no padding, so its attention mask is all ones, and that is
    the only mask the trace records (the model's mask code branches on the mask's values).
    """
    precision = "bfloat16" if bf16 else "float32"
    try:
        encode_one = _trace(model, bf16=bf16)
        if not _agrees(model, encode_one, cosine=BF16_MIN_COSINE if bf16 else None):
            log.info(
                "traced embedding model disagrees with the model; not used", extra={"precision": precision}
            )
            return None
    except Exception as exc:  # any failure leaves the model's own path, which works
        log.info(
            "embedding model not traced; encoding one text the eager way",
            extra={"precision": precision, "error": repr(exc)},
        )
        return None
    return encode_one


def query_encoder(model: Any, fallback: EncodeOne | None) -> EncodeOne | None:
    """What encodes a search query: a bfloat16 trace where this CPU multiplies bfloat16 in hardware
    and the trace agrees with the model, else `fallback` (the float32 trace, or None).

    A query's cost is mostly reading the weights (42 MB in float32 for all-MiniLM-L6-v2): half of
    them take about half the time (11.0 to 6.3 ms a question on the development machine), and the
    query's embedding is the longest step of the pre-hook. Stored texts keep float32, so what is
    written does not change with the machine; a bfloat16 query points where the float32 one does
    (cosine 0.99994 on average over LoCoMo's questions).
    """
    if not native_bf16():
        return fallback
    return traced_encoder(model, bf16=True) or fallback


def _agrees(model: Any, encode_one: EncodeOne, cosine: float | None) -> bool:
    """Whether `encode_one` gives the model's vectors on the probes: to `cosine` (both are unit
    vectors), or to `_TOLERANCE` in every value when None."""
    for probe in _PROBES:
        expected = model.encode([probe], normalize_embeddings=True, convert_to_numpy=True)[0]
        got = encode_one(probe)
        if cosine is None:
            if not np.allclose(got, expected, atol=_TOLERANCE):
                return False
        elif not float(np.dot(got, expected)) >= cosine:
            return False
    return True


def _trace(model: Any, bf16: bool) -> EncodeOne:
    import torch

    first, after = model[0], list(model)[1:]
    network = getattr(first, "model", None) or first.auto_model  # sentence-transformers 6, then 3-5
    if bf16:
        # A copy: batches (stored turns and memories) keep the model's own float32 path.
        network = copy.deepcopy(network).to(torch.bfloat16)
    preprocess = getattr(model, "preprocess", None) or model.tokenize

    def inputs(text: str) -> tuple[dict[str, Any], dict[str, Any]]:
        features = preprocess([text])
        return features, {k: v for k, v in features.items() if isinstance(v, torch.Tensor)}

    with warnings.catch_warnings(), torch.inference_mode():
        # torch.jit's deprecation notice and its notes on traced branches would reach the user's
        # terminal; the probes check what the trace gives.
        warnings.simplefilter("ignore")
        example = inputs("a sentence to trace the model with")[1]
        traced = torch.jit.trace(network.eval(), example_kwarg_inputs=example, strict=False)

    def encode_one(text: str) -> np.ndarray:
        features, tensors = inputs(text)
        with torch.inference_mode():
            # Pooling and normalising in float32, as the model does: few ops.
            features["token_embeddings"] = traced(**tensors)["last_hidden_state"].float()
            for module in after:
                features = module(features)
            vector = torch.nn.functional.normalize(features["sentence_embedding"], dim=1)
        return vector[0].numpy().astype(np.float32)

    return encode_one
