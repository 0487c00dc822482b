"""Every error memorybot raises on purpose, in one tree, so callers catch by kind and not by text.

    MemorybotError                   nothing below is a bug: each says what went wrong, safely
    ├── InvalidInput (ValueError)    refused input from a person, a model or a setting; nothing changed
    │   ├── InvalidMemory            a memory that cannot be stored: empty, unreadable, too long,
    │   │                            importance or confidence out of range, expired before written,
    │   │                            holding a credential (a password, key, card number)
    │   ├── TTLError                 a time to live that is not a duration ("3 days", "permanent")
    │   ├── ToolArgumentError        a memory tool called by the model with arguments it cannot use
    │   │   └── TTLArgumentError     … a `ttl` that is not a duration
    │   ├── CommandError             a `/memory` command that cannot run; carries its usage line
    │   ├── ConfigError              settings that cannot work (a missing key, an unknown provider)
    │   └── MixedAudienceError       messages of different people's private conversations in one summary
    ├── StorageError (RuntimeError)  a store refused a write or holds what this version cannot read
    │   ├── MemoryWriteError         a memory not stored; nothing half-written was left behind
    │   └── SummaryConflict          a summary already condensed by another write
    ├── EmbeddingError (RuntimeError) the embedder produced no usable vectors
    ├── LLMError (RuntimeError)      the model provider failed; the message holds no prompt or secret
    └── CoalescerClosed (RuntimeError) a message offered after intake stopped

`ValueError` itself stays what Python means by it: a caller passed an argument no caller should
(a batch size of 0, a vector of the wrong shape). Code that refuses input catches `InvalidInput`,
never a bare `ValueError`, so a bug is not mistaken for bad input.
"""

from __future__ import annotations


class MemorybotError(Exception):
    """The root of every error memorybot raises on purpose."""


class InvalidInput(MemorybotError, ValueError):
    """Input that is refused as it is; nothing was changed."""


class InvalidMemory(InvalidInput):
    """A memory that cannot be stored as given; the message says which rule it breaks."""


class TTLError(InvalidInput):
    """A TTL string that cannot be understood."""


class ToolArgumentError(InvalidInput):
    """Arguments the model sent that cannot be used; the message goes back to the model."""


class TTLArgumentError(ToolArgumentError):
    """A `ttl` that is not a duration: the tool refuses it; a JSON reply keeps the memory without it."""


class CommandError(InvalidInput):
    """A command line or option value that cannot be run; `usage` says how to write it."""

    def __init__(self, message: str, usage: str) -> None:
        super().__init__(message)
        self.message = message
        self.usage = usage

    def __str__(self) -> str:
        return f"{self.message}\nusage: {self.usage}"


class ConfigError(InvalidInput):
    """One or more settings are invalid; the message names each one."""


class MixedAudienceError(InvalidInput):
    """The messages belong to private conversations of different people: one summary would leak."""


class StorageError(MemorybotError, RuntimeError):
    """A write was refused (disk full, read-only or failing disk) and rolled back, or a store holds
    what this version cannot read; the message says why."""


class MemoryWriteError(StorageError):
    """A memory could not be stored; nothing half-written was left behind."""


class SummaryConflict(StorageError):
    """A summary to condense was already condensed by another write; nothing was stored."""


class EmbeddingError(MemorybotError, RuntimeError):
    """The embedder could not produce vectors (model missing, provider error, non-finite output)."""


class LLMError(MemorybotError, RuntimeError):
    """Any provider failure; the message is short and safe to log (no secrets, no prompt text)."""


class CoalescerClosed(MemorybotError, RuntimeError):
    """The coalescer no longer accepts messages (shutdown has started)."""
