"""The one rule of both backends' migration registries: which migrations a database still needs."""

from __future__ import annotations

from collections.abc import Sequence

from ...errors import StorageError


def pending_migrations(migrations: Sequence[tuple[str, str]], done: set[str]) -> list[tuple[str, str]]:
    """The (name, sql) of `migrations` not in `done`, in order; StorageError when `done` holds one
    this version does not know."""
    unknown = done - {name for name, _ in migrations}
    if unknown:
        raise StorageError(
            f"database has migrations this version does not know ({', '.join(sorted(unknown))}); "
            "it was written by a newer memorybot"
        )
    return [(name, sql) for name, sql in migrations if name not in done]
