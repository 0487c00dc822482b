"""The embedded backend: SQLite rows, LanceDB vectors and an in-RAM index, under one data directory."""

from __future__ import annotations

from .rest_client import CLIENT, defer_package_init

# Before anything here imports LanceDB (see rest_client).
defer_package_init(CLIENT)

from .storage import EmbeddedStorage  # noqa: E402

__all__ = ["EmbeddedStorage"]
