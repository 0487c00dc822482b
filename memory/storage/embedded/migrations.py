"""Versioned SQLite schema: an ordered registry of migrations, each applied once."""

from __future__ import annotations

import aiosqlite

from ..base import pending_migrations

MIGRATIONS: list[tuple[str, str]] = []


def migration(name: str, sql: str) -> None:
    """Register a migration; order of registration is order of application, names never change."""
    MIGRATIONS.append((name, sql))


migration(
    "m001_initial",
    """
        CREATE TABLE memories (
            id TEXT PRIMARY KEY,
            content TEXT NOT NULL,
            memory_type TEXT NOT NULL,
            importance REAL NOT NULL,
            confidence REAL NOT NULL,
            subjects TEXT NOT NULL DEFAULT '[]',
            source TEXT NOT NULL,
            platform TEXT NOT NULL,
            workspace_id TEXT NOT NULL,
            channel_id TEXT NOT NULL,
            thread_id TEXT,
            user_id TEXT,
            author_id TEXT,
            agent_id TEXT NOT NULL,
            visibility TEXT NOT NULL,
            created_at REAL NOT NULL,
            updated_at REAL NOT NULL,
            last_accessed_at REAL,
            access_count INTEGER NOT NULL DEFAULT 0,
            expires_at REAL,
            forgotten INTEGER NOT NULL DEFAULT 0,
            superseded_by TEXT,
            content_hash TEXT NOT NULL,
            sources TEXT NOT NULL DEFAULT '[]',
            embedding BLOB,
            indexed INTEGER NOT NULL DEFAULT 0
        );
        CREATE INDEX ix_memories_scope_type ON memories
            (platform, workspace_id, agent_id, memory_type, forgotten);
        CREATE INDEX ix_memories_scope_importance ON memories
            (platform, workspace_id, agent_id, importance) WHERE forgotten = 0;
        CREATE INDEX ix_memories_scope_created ON memories
            (platform, workspace_id, agent_id, created_at) WHERE forgotten = 0;
        CREATE INDEX ix_memories_user ON memories (platform, workspace_id, user_id);
        CREATE INDEX ix_memories_expires ON memories (expires_at) WHERE expires_at IS NOT NULL;
        CREATE INDEX ix_memories_hash ON memories (content_hash);
        CREATE INDEX ix_memories_unindexed ON memories (indexed) WHERE indexed = 0;

        CREATE TABLE memory_subjects (
            memory_id TEXT NOT NULL REFERENCES memories(id) ON DELETE CASCADE,
            subject TEXT NOT NULL,
            PRIMARY KEY (subject, memory_id)
        ) WITHOUT ROWID;
        CREATE INDEX ix_memory_subjects_memory ON memory_subjects (memory_id);

        CREATE TABLE messages (
            id TEXT PRIMARY KEY,
            platform TEXT NOT NULL,
            workspace_id TEXT NOT NULL,
            channel_id TEXT NOT NULL,
            thread_id TEXT,
            agent_id TEXT NOT NULL,
            author_id TEXT NOT NULL,
            author_name TEXT NOT NULL,
            role TEXT NOT NULL,
            content TEXT NOT NULL,
            created_at REAL NOT NULL,
            external_id TEXT,
            visibility TEXT NOT NULL,
            tool_calls TEXT NOT NULL DEFAULT '[]',
            embedding BLOB,
            indexed INTEGER NOT NULL DEFAULT 0
        );
        CREATE INDEX ix_messages_channel ON messages
            (platform, workspace_id, channel_id, agent_id, created_at);
        CREATE UNIQUE INDEX ux_messages_external ON messages
            (platform, workspace_id, channel_id, agent_id, external_id) WHERE external_id IS NOT NULL;
        CREATE INDEX ix_messages_unindexed ON messages (indexed) WHERE indexed = 0;

        CREATE TABLE summaries (
            id TEXT PRIMARY KEY,
            platform TEXT NOT NULL,
            workspace_id TEXT NOT NULL,
            channel_id TEXT NOT NULL,
            thread_id TEXT,
            agent_id TEXT NOT NULL,
            level INTEGER NOT NULL,
            content TEXT NOT NULL,
            covers_from REAL NOT NULL,
            covers_to REAL NOT NULL,
            source_ids TEXT NOT NULL DEFAULT '[]',
            condensed_into TEXT,
            created_at REAL NOT NULL
        );
        CREATE INDEX ix_summaries_channel ON summaries
            (platform, workspace_id, channel_id, agent_id, level, covers_to);

        CREATE TABLE profiles (
            platform TEXT NOT NULL,
            workspace_id TEXT NOT NULL,
            user_id TEXT NOT NULL,
            agent_id TEXT NOT NULL,
            data TEXT NOT NULL DEFAULT '{}',
            updated_at REAL NOT NULL,
            PRIMARY KEY (platform, workspace_id, user_id, agent_id)
        );

        CREATE TABLE aliases (
            platform TEXT NOT NULL,
            workspace_id TEXT NOT NULL,
            user_id TEXT NOT NULL,
            alias TEXT NOT NULL,
            created_at REAL NOT NULL,
            PRIMARY KEY (platform, workspace_id, alias, user_id)
        );
        CREATE INDEX ix_aliases_user ON aliases (platform, workspace_id, user_id);
    """,
)


# Summaries gain what the privacy filter and the vector store need: who may read them (the
# columns `sql_audience_filter` reads, so summaries obey the same rules as memories), their
# stored vector and whether it reached LanceDB, their kind and the raw characters they cover.
# Rows written before this have no known audience, so they default to private without an
# author: never shown to anyone.
migration(
    "m002_summary_scope",
    """
        ALTER TABLE summaries ADD COLUMN kind TEXT NOT NULL DEFAULT 'turns';
        ALTER TABLE summaries ADD COLUMN visibility TEXT NOT NULL DEFAULT 'private';
        ALTER TABLE summaries ADD COLUMN author_id TEXT;
        ALTER TABLE summaries ADD COLUMN raw_chars INTEGER NOT NULL DEFAULT 0;
        ALTER TABLE summaries ADD COLUMN embedding BLOB;
        ALTER TABLE summaries ADD COLUMN indexed INTEGER NOT NULL DEFAULT 0;
        ALTER TABLE summaries ADD COLUMN forgotten INTEGER NOT NULL DEFAULT 0;
        ALTER TABLE summaries ADD COLUMN expires_at REAL;
        CREATE INDEX ix_summaries_pending ON summaries
            (platform, workspace_id, channel_id, agent_id, kind, level, covers_to)
            WHERE condensed_into IS NULL;
        CREATE UNIQUE INDEX ux_summaries_thread ON summaries
            (platform, workspace_id, channel_id, agent_id, COALESCE(thread_id, ''))
            WHERE kind = 'thread';
        CREATE INDEX ix_summaries_unindexed ON summaries (indexed) WHERE indexed = 0;
    """,
)


# The pre-hook's two listings, answered from their index alone: the participants' identities
# (by user and type: ~250 index entries at 100,000 memories instead of every memory of three
# users, then a sort), and the important memories in order, with type and visibility in the
# index so the identity rows at the top (all weigh 1.0) and the rows of other channels are
# skipped without reading them (0.4 ms instead of 4 ms).
migration(
    "m003_prehook_indexes",
    """
        DROP INDEX ix_memories_user;
        CREATE INDEX ix_memories_user ON memories (platform, workspace_id, user_id, memory_type);
        DROP INDEX ix_memories_scope_importance;
        CREATE INDEX ix_memories_scope_importance ON memories
            (platform, workspace_id, agent_id, importance DESC, created_at DESC, id,
             memory_type, visibility, channel_id)
            WHERE forgotten = 0;
    """,
)


# What the adapters learned of each conversation's kind (public, private, group, DM), so rows
# stored before a conversation was known to be private can be narrowed to it
# (`memory.conversations`, with the channel and thread lookups it runs); the lookup of a person's
# own shared memories across the platform's workspaces, which a DM with them reads
# (`Audience.own_elsewhere`); merges by the memory that superseded them (`/memory undo`); and a
# workspace's turns by time, which a timeline of every conversation reads.
migration(
    "m004_conversation_kinds",
    """
        CREATE TABLE conversation_kinds (
            platform TEXT NOT NULL,
            workspace_id TEXT NOT NULL,
            channel_id TEXT NOT NULL,
            kind TEXT NOT NULL,
            parent_id TEXT,
            updated_at REAL NOT NULL,
            PRIMARY KEY (platform, workspace_id, channel_id)
        );
        CREATE INDEX ix_memories_own ON memories (user_id, author_id, platform, agent_id)
            WHERE visibility = 'workspace' AND forgotten = 0;
        CREATE INDEX ix_memories_channel ON memories (platform, workspace_id, channel_id);
        CREATE INDEX ix_memories_thread ON memories (thread_id) WHERE thread_id IS NOT NULL;
        CREATE INDEX ix_messages_thread ON messages (thread_id) WHERE thread_id IS NOT NULL;
        CREATE INDEX ix_summaries_thread ON summaries (thread_id) WHERE thread_id IS NOT NULL;
        CREATE INDEX ix_memories_superseded ON memories (superseded_by) WHERE superseded_by IS NOT NULL;
        CREATE INDEX ix_messages_workspace_time ON messages (platform, workspace_id, agent_id, created_at);
    """,
)


# Memories learned in the same instant (several written by one turn share created_at) were
# ordered by their random id: which of two made a listing's cut changed from run to run. Each row
# now carries its arrival (`seq`), the last key of every listing by time. Not the rowid: a table
# without an INTEGER PRIMARY KEY may have its rowids renumbered by VACUUM. Each insert takes one
# past the largest (`memory_rows.insert_rows`); the rows stored before take their rowid, the order
# they were written in. The listings' indexes end with it.
migration(
    "m005_memory_arrival",
    """
        ALTER TABLE memories ADD COLUMN seq INTEGER;
        UPDATE memories SET seq = rowid;
        CREATE UNIQUE INDEX ux_memories_seq ON memories (seq);
        DROP INDEX ix_memories_scope_importance;
        CREATE INDEX ix_memories_scope_importance ON memories
            (platform, workspace_id, agent_id, importance DESC, created_at DESC, seq DESC,
             memory_type, visibility, channel_id)
            WHERE forgotten = 0;
        DROP INDEX ix_memories_scope_created;
        CREATE INDEX ix_memories_scope_created ON memories
            (platform, workspace_id, agent_id, created_at, seq) WHERE forgotten = 0;
    """,
)


# A memory the extractor wrote keeps what it says of its user as fields (`rows.fact_json`), which
# profiles read instead of parsing its words back; NULL for the rows before and for what the model
# writes.
migration("m006_memory_fact", "ALTER TABLE memories ADD COLUMN fact TEXT;")

# The days a turn tells of (`turn_text.told_days`), as UTC midnights: a question about a period
# also finds the turns said on other days that tell of it. NULL for a turn that names no date, and for
# the turns stored before: those are found by when they were said, as they were.
migration(
    "m007_turn_told_days",
    """
        ALTER TABLE messages ADD COLUMN told_since REAL;
        ALTER TABLE messages ADD COLUMN told_until REAL;
        CREATE INDEX ix_messages_told ON messages (told_since) WHERE told_since IS NOT NULL;
    """,
)


# Whether a turn's told days were read (1) or it was stored before they were kept (0, the default
# for the rows there when this ran): `TurnRepository.read_told_days` reads those at the next
# maintenance. A writer that forgets the column leaves its turns to be read there too.
migration(
    "m008_turn_told_read",
    """
        ALTER TABLE messages ADD COLUMN told_read INTEGER NOT NULL DEFAULT 0;
        UPDATE messages SET told_read = 1 WHERE told_since IS NOT NULL;
        CREATE INDEX ix_messages_told_unread ON messages (told_read) WHERE told_read = 0;
    """,
)


async def apply_migrations(db: aiosqlite.Connection, now: float) -> list[str]:
    """Apply every migration not yet recorded, each in its own transaction; returns their names."""
    await db.execute(
        "CREATE TABLE IF NOT EXISTS _migrations (name TEXT PRIMARY KEY, applied_at REAL NOT NULL)"
    )
    await db.commit()
    async with db.execute("SELECT name FROM _migrations") as cursor:
        done = {row[0] for row in await cursor.fetchall()}
    applied = []
    for name, sql in pending_migrations(MIGRATIONS, done):
        # executescript commits anything pending first, so the transaction lives inside the script.
        script = (
            f"BEGIN;\n{sql}\nINSERT INTO _migrations (name, applied_at) VALUES ('{name}', {now!r});\nCOMMIT;"
        )
        try:
            await db.executescript(script)
        except BaseException:
            if db.in_transaction:
                await db.rollback()
            raise
        applied.append(name)
    return applied
