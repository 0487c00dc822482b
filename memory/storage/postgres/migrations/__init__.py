"""Versioned PostgreSQL schema: an ordered registry of migrations, each applied once in a transaction.

`registry` lists them; `tables`, `changes` and `full_text` hold their SQL by concern; `runner`
applies them and checks what the database offers (pgvector's version, the vectors' size).
"""

from __future__ import annotations

from .changes import CHANGES_CHANNEL, MANY_CHANGES
from .registry import MIGRATIONS
from .runner import apply_migrations, check_pgvector, vector_dim

__all__ = [
    "CHANGES_CHANNEL",
    "MANY_CHANGES",
    "MIGRATIONS",
    "apply_migrations",
    "check_pgvector",
    "vector_dim",
]
