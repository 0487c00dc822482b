"""The turn pipeline: store incoming messages, learn from them, recall, reply, store the reply."""

from .messages import MAX_MESSAGE_CHARS, audience_of, scope_of, to_stored, valid_utf8, visibility_of
from .turn import APOLOGY, STORAGE_APOLOGY, TurnPipeline, TurnResult

__all__ = [
    "APOLOGY",
    "MAX_MESSAGE_CHARS",
    "STORAGE_APOLOGY",
    "TurnPipeline",
    "TurnResult",
    "audience_of",
    "scope_of",
    "to_stored",
    "valid_utf8",
    "visibility_of",
]
