"""One text through a traced copy of the local model: its forward pass takes the GIL once, not per op."""

from __future__ import annotations

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


def traced_encoder(model: Any) -> EncodeOne | None:
    """`model` (a SentenceTransformer whose first module is a transformer) as a function of one
    text giving its normalised vector, or None when it cannot be traced or the trace disagrees
    with the model on the probes.

    Why: eager PyTorch releases and retakes the GIL around each of its ~600 calls per query.
    While the event loop is busy (the pre-hook's SQL runs during the query's embedding), each
    retake waits for the loop's switch interval, and a 14 ms query took 25 ms and more. A traced
    graph runs in C++ in one go.

    One text only: a batch of one has no padding, so its attention mask is all ones, and that is
    the only mask the trace records (the model's mask code branches on the mask's values).
    """
    try:
        encode_one = _trace(model)
        for probe in _PROBES:
            expected = model.encode([probe], normalize_embeddings=True, convert_to_numpy=True)[0]
            if not np.allclose(encode_one(probe), expected, atol=_TOLERANCE):
                log.info("traced embedding model disagrees with the model; not used")
                return None
    except Exception as exc:  # any failure leaves the model's own path, which works
        log.info("embedding model not traced; encoding one text the eager way", extra={"error": repr(exc)})
        return None
    return encode_one


def _trace(model: Any) -> EncodeOne:
    import torch

    first, after = model[0], list(model)[1:]
    network = getattr(first, "model", None) or first.auto_model  # sentence-transformers 6, then 3-5
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
            features["token_embeddings"] = traced(**tensors)["last_hidden_state"]
            for module in after:  # pooling, then normalising: few ops
                features = module(features)
            vector = torch.nn.functional.normalize(features["sentence_embedding"], dim=1)
        return vector[0].numpy().astype(np.float32)

    return encode_one
