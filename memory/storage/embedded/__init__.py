"""The embedded backend: SQLite rows, LanceDB vectors and an in-RAM index, under one data directory."""

from __future__ import annotations

from .storage import EmbeddedStorage

__all__ = ["EmbeddedStorage"]
