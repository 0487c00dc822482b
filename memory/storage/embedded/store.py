"""The embedded backend's SQL in one object: memory and turn rows over one database."""

from __future__ import annotations

from .memory_rows import MemoryRows
from .message_rows import NOT_SEARCHABLE, MessageRows

__all__ = ["NOT_SEARCHABLE", "SQLiteStore"]


class SQLiteStore(MemoryRows, MessageRows):
    """All SQL of the embedded backend. Writes go through one connection under a lock; reads use a pool."""
