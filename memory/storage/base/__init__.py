"""The storage seam: the repositories every backend implements and the `Storage` that owns them.

One module per repository (memories, turns, summaries, people, conversations), the `Storage`
that holds them (storage), and what both backends share beneath it: how a search ranks words
(search_words), the memory changes other processes make (changes), the platform event log
(events), locks (locks), the migration registries' rule (schema), driver errors (errors) and
what both backends' table classes share (tables).
Everything a backend or the engine uses is imported from here.
"""

from .changes import ChangeListener, MemoryChange
from .conversations import (
    NARROWED_TABLES,
    ConversationRepository,
    displaced_thread_summaries_sql,
    narrowed_rows_sql,
    record_kind_sql,
)
from .errors import reraise
from .events import EVENT_TTL_SECONDS, EventExpiry, EventLog
from .locks import KeyedLocks, lock_id, write_lock_key
from .memories import (
    Embed,
    HashMatch,
    MemoryQuery,
    MemoryRead,
    MemoryRepository,
    VectorHit,
    VectorSink,
    about_read,
    between_read,
)
from .people import PeopleRepository
from .schema import pending_migrations
from .search_words import BM25_B, BM25_K1, ScopeKey, bm25_idf, fts_query_terms, scope_key
from .storage import LINK_COLUMNS, MIGRATED_TABLES, ReconcileReport, Storage
from .summaries import SummaryQuery, SummaryRepository
from .tables import Tables, Write
from .turns import MAX_EXCLUDED, TOLD_BATCH, NewTurn, Period, ToldDays, TurnRepository

__all__ = [
    "BM25_B",
    "BM25_K1",
    "EVENT_TTL_SECONDS",
    "LINK_COLUMNS",
    "MAX_EXCLUDED",
    "MIGRATED_TABLES",
    "NARROWED_TABLES",
    "TOLD_BATCH",
    "ChangeListener",
    "ConversationRepository",
    "Embed",
    "EventExpiry",
    "EventLog",
    "HashMatch",
    "KeyedLocks",
    "MemoryChange",
    "MemoryQuery",
    "MemoryRead",
    "MemoryRepository",
    "NewTurn",
    "PeopleRepository",
    "Period",
    "ReconcileReport",
    "ScopeKey",
    "Storage",
    "SummaryQuery",
    "SummaryRepository",
    "Tables",
    "ToldDays",
    "TurnRepository",
    "VectorHit",
    "VectorSink",
    "Write",
    "about_read",
    "between_read",
    "bm25_idf",
    "displaced_thread_summaries_sql",
    "fts_query_terms",
    "lock_id",
    "narrowed_rows_sql",
    "pending_migrations",
    "record_kind_sql",
    "reraise",
    "scope_key",
    "write_lock_key",
]
