"""Where memorybot keeps what it knows: the repository interfaces and `open_storage` to pick a backend."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from pathlib import Path
from urllib.parse import urlparse

from ..errors import ConfigError
from .base import (
    ConversationRepository,
    Embed,
    EventLog,
    MemoryQuery,
    MemoryRepository,
    PeopleRepository,
    ReconcileReport,
    Storage,
    SummaryRepository,
    TurnRepository,
    VectorHit,
    fts_query_terms,
)

__all__ = [
    "BACKENDS",
    "DEFAULT_BACKEND",
    "ConversationRepository",
    "Embed",
    "EventLog",
    "MemoryQuery",
    "MemoryRepository",
    "PeopleRepository",
    "ReconcileReport",
    "Storage",
    "SummaryRepository",
    "TurnRepository",
    "VectorHit",
    "fts_query_terms",
    "open_storage",
]

DEFAULT_BACKEND = "embedded"
# Backends the next versions will add: named so the error says "not yet", not "unknown".
_PLANNED = {"postgresql", "postgres"}

# Opens a backend at a location (the part after `scheme://`) for vectors of `dim` dimensions.
Opener = Callable[..., Awaitable[Storage]]


async def _open_embedded(location: str, *, dim: int, search_index_rows: int | None = None) -> Storage:
    # Imported when chosen: a backend's dependencies (LanceDB here, a driver for the next one)
    # load only for the backend in use.
    from .embedded import EmbeddedStorage

    if search_index_rows is None:
        return await EmbeddedStorage.open(location, dim=dim)
    return await EmbeddedStorage.open(location, dim=dim, search_index_rows=search_index_rows)


# Backend name (a location's URL scheme) -> how to open it. A new backend adds its entry here.
BACKENDS: dict[str, Opener] = {DEFAULT_BACKEND: _open_embedded}


def backend_name(location: str | Path) -> str:
    """The backend a location names: its URL scheme (`embedded://dir`), else a plain directory."""
    text = str(location)
    scheme = urlparse(text).scheme if "://" in text else ""
    return scheme.lower() or DEFAULT_BACKEND


async def open_storage(location: str | Path, *, dim: int, search_index_rows: int | None = None) -> Storage:
    """Open the backend `location` names: a directory (or `embedded://directory`) for the embedded
    one. Raises ConfigError for a scheme no backend implements yet; the message never repeats the
    location (a database URL carries its password)."""
    name = backend_name(location)
    opener = BACKENDS.get(name)
    if opener is None:
        if name in _PLANNED:
            raise ConfigError(
                f"storage backend {name!r} is not supported yet; use a data directory (the embedded backend)"
            )
        raise ConfigError(f"unknown storage backend {name!r}; use a data directory (the embedded backend)")
    text = str(location)
    target = text.split("://", 1)[1] if "://" in text else text
    return await opener(target, dim=dim, search_index_rows=search_index_rows)
