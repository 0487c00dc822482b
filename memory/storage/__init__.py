"""Where memorybot keeps what it knows: the repository interfaces and `open_storage` to pick a backend."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from pathlib import Path
from urllib.parse import urlparse

from ..errors import ConfigError
from .base import (
    EVENT_TTL_SECONDS,
    ChangeListener,
    ConversationRepository,
    Embed,
    EventExpiry,
    EventLog,
    MemoryChange,
    MemoryQuery,
    MemoryRead,
    MemoryRepository,
    PeopleRepository,
    ReconcileReport,
    Storage,
    SummaryRepository,
    TurnRepository,
    VectorHit,
    about_read,
    between_read,
    fts_query_terms,
)

__all__ = [
    "BACKENDS",
    "DEFAULT_BACKEND",
    "EVENT_TTL_SECONDS",
    "ChangeListener",
    "ConversationRepository",
    "Embed",
    "EventExpiry",
    "EventLog",
    "MemoryChange",
    "MemoryQuery",
    "MemoryRead",
    "MemoryRepository",
    "PeopleRepository",
    "ReconcileReport",
    "Storage",
    "SummaryRepository",
    "TurnRepository",
    "VectorHit",
    "about_read",
    "between_read",
    "fts_query_terms",
    "open_storage",
]

DEFAULT_BACKEND = "embedded"
# Backends the next versions will add: named so the error says "not yet", not "unknown".
_PLANNED: set[str] = set()

# Opens a backend at a location (the part after `scheme://`) for vectors of `dim` dimensions.
Opener = Callable[..., Awaitable[Storage]]


async def _open_embedded(location: str, *, dim: int, search_index_rows: int | None = None) -> Storage:
    # Imported when chosen: a backend's dependencies (LanceDB here, a driver for the next one)
    # load only for the backend in use.
    from .embedded import EmbeddedStorage

    if search_index_rows is None:
        return await EmbeddedStorage.open(location, dim=dim)
    return await EmbeddedStorage.open(location, dim=dim, search_index_rows=search_index_rows)


async def _open_postgres(location: str, *, dim: int, search_index_rows: int | None = None) -> Storage:
    # asyncpg loads only when a database URL is given. Searches run in the database, so there is
    # no in-process index to bound: `search_index_rows` does not apply.
    from .postgres import PostgresStorage

    return await PostgresStorage.open(f"postgresql://{location}", dim=dim)


# Backend name (a location's URL scheme) -> how to open it. A new backend adds its entry here.
BACKENDS: dict[str, Opener] = {
    DEFAULT_BACKEND: _open_embedded,
    "postgresql": _open_postgres,
    "postgres": _open_postgres,
}


def backend_name(location: str | Path) -> str:
    """The backend a location names: its URL scheme (`embedded://dir`), else a plain directory."""
    text = str(location)
    scheme = urlparse(text).scheme if "://" in text else ""
    return scheme.lower() or DEFAULT_BACKEND


async def open_storage(location: str | Path, *, dim: int, search_index_rows: int | None = None) -> Storage:
    """Open the backend `location` names: a directory (or `embedded://directory`) for the embedded
    one, a `postgresql://` (or `postgres://`) URL for PostgreSQL with pgvector. Raises ConfigError
    for a scheme no backend implements; the message never repeats the location (a database URL
    carries its password)."""
    name = backend_name(location)
    opener = BACKENDS.get(name)
    if opener is None:
        if name in _PLANNED:
            raise ConfigError(
                f"storage backend {name!r} is not supported yet; use a data directory (the embedded backend)"
            )
        raise ConfigError(
            f"unknown storage backend {name!r}; use a data directory (the embedded backend) "
            "or a postgresql:// URL"
        )
    text = str(location)
    target = text.split("://", 1)[1] if "://" in text else text
    return await opener(target, dim=dim, search_index_rows=search_index_rows)
