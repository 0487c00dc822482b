"""Copy an embedded data directory into PostgreSQL with its stored vectors, resumably; verify counts."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import ConfigError
from . import backend_name, open_storage
from .base import LINK_COLUMNS, MIGRATED_TABLES, Storage

log = logging.getLogger(__name__)

DEFAULT_BATCH_SIZE = 500

# Called after each committed batch with (table, rows read so far, rows new in the target so far).
Progress = Callable[[str, int, int], Awaitable[None] | None]


@dataclass(slots=True)
class MigrationReport:
    """Rows per table in the source and the target after the copy, and how many this run added."""

    source: dict[str, int] = field(default_factory=dict)
    target: dict[str, int] = field(default_factory=dict)
    copied: dict[str, int] = field(default_factory=dict)

    @property
    def mismatches(self) -> list[str]:
        """The tables whose counts differ, as `table (source N, target M)`."""
        return [
            f"{t} (source {self.source.get(t, 0)}, target {self.target.get(t, 0)})"
            for t in MIGRATED_TABLES
            if self.source.get(t, 0) != self.target.get(t, 0)
        ]

    @property
    def ok(self) -> bool:
        return not self.mismatches

    def as_dict(self) -> dict[str, object]:
        return {
            "ok": self.ok,
            "tables": {
                t: {
                    "source": self.source.get(t, 0),
                    "target": self.target.get(t, 0),
                    "copied": self.copied.get(t, 0),
                }
                for t in MIGRATED_TABLES
            },
            "mismatches": self.mismatches,
        }


async def copy_storage(
    source: Storage,
    target: Storage,
    *,
    batch_size: int = DEFAULT_BATCH_SIZE,
    progress: Progress | None = None,
) -> MigrationReport:
    """Copy every row of `source` into `target` batch by batch (each batch one transaction), rows
    already in the target skipped, vectors as stored (nothing is embedded); then count both."""
    if batch_size < 1:
        raise ValueError(f"batch_size must be at least 1, got {batch_size}")
    report = MigrationReport()
    for table in MIGRATED_TABLES:
        column = LINK_COLUMNS.get(table)
        links: dict[str, str] = {}
        offset = copied = 0
        while rows := await source.export_rows(table, offset, batch_size):
            if column is not None:
                links.update({r["id"]: r[column] for r in rows if r[column] is not None})
            copied += await target.import_rows(table, rows)
            offset += len(rows)
            if progress is not None:
                result = progress(table, offset, copied)
                if result is not None:
                    await result
        # Links last: the row a link points at may come in a later batch.
        if links:
            await target.set_links(table, links)
        report.copied[table] = copied
        log.info("migrated table", extra={"table": table, "rows": offset, "copied": copied})
    report.source = await source.table_counts()
    report.target = await target.table_counts()
    return report


async def migrate_to_postgres(
    data_dir: str | Path,
    url: str,
    *,
    batch_size: int = DEFAULT_BATCH_SIZE,
    progress: Progress | None = None,
) -> MigrationReport:
    """Copy the embedded data under `data_dir` into the PostgreSQL database at `url` (its schema
    migrated for the source's vector size; ConfigError if it holds vectors of another size)."""
    if backend_name(url) not in ("postgresql", "postgres"):
        raise ConfigError("the migration target must be a postgresql:// URL")
    if batch_size < 1:
        raise ConfigError(f"the batch size must be at least 1, not {batch_size}")
    from .embedded import EmbeddedStorage

    dim = await EmbeddedStorage.stored_dim(data_dir)
    source = await EmbeddedStorage.open(data_dir, dim=dim)
    try:
        target = await open_storage(url, dim=dim)
        try:
            return await copy_storage(source, target, batch_size=batch_size, progress=progress)
        finally:
            await target.close()
    finally:
        await source.close()
