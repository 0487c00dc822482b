"""The PostgreSQL migrations in the order they are applied: a name, never changed, and its SQL."""

from __future__ import annotations

from . import changes, full_text, tables

# A database records the names it has applied; a new migration goes at the end. `{dim}` in the SQL
# is the vector dimension the database is created for, `{memory_tsv}` and `{message_tsv}` the
# full text of a memory and of a turn (`runner.TSVECTOR`).
MIGRATIONS: list[tuple[str, str]] = [
    tables.INITIAL,
    changes.MEMORY_CHANGES,
    tables.CHANNEL_STATES,
    full_text.TERM_COUNTS,
    full_text.WORKSPACE_FULL_TEXT,
    tables.IMPORTANT_NOT_IDENTITY,
    changes.MEMORY_CHANGES_PER_STATEMENT,
    tables.VECTORS_IN_THE_ROW,
    full_text.SEARCH_TERMS,
    tables.MEMORY_ARRIVAL,
    full_text.WORKSPACE_KEYED_WORDS,
    tables.MEMORY_ACCESS,
    tables.MEMORY_FACT,
    tables.TURN_TOLD_DAYS,
    tables.TURN_TOLD_READ,
]
