"""The PostgreSQL backend: rows, pgvector vectors and tsvector full text in one database (asyncpg)."""

from __future__ import annotations

from .storage import PostgresStorage

__all__ = ["PostgresStorage"]
