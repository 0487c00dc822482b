"""A database driver's errors as the project's own `StorageError` kinds."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from ...errors import StorageError


@contextmanager
def reraise(
    driver_errors: type[BaseException] | tuple[type[BaseException], ...], what: str, error: type[StorageError]
) -> Iterator[None]:
    """Inside: a database driver's error becomes `error` ("`what`: cause"), the driver's as its cause."""
    try:
        yield
    except driver_errors as exc:
        raise error(f"{what}: {exc}") from exc
