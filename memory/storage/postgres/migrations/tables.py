"""The PostgreSQL tables and their indexes: what each row holds, where it is stored, how it is listed."""

from __future__ import annotations

INITIAL = (
    "m001_initial",
    """
    CREATE EXTENSION IF NOT EXISTS vector;

    CREATE TABLE memories (
        id text PRIMARY KEY,
        content text NOT NULL,
        memory_type text NOT NULL,
        importance double precision NOT NULL,
        confidence double precision NOT NULL,
        subjects text[] NOT NULL DEFAULT '{{}}',
        source text NOT NULL,
        platform text NOT NULL,
        workspace_id text NOT NULL,
        channel_id text NOT NULL,
        thread_id text,
        user_id text,
        author_id text,
        agent_id text NOT NULL,
        visibility text NOT NULL,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL,
        last_accessed_at timestamptz,
        access_count integer NOT NULL DEFAULT 0,
        expires_at timestamptz,
        forgotten boolean NOT NULL DEFAULT false,
        superseded_by text,
        content_hash text NOT NULL,
        sources text[] NOT NULL DEFAULT '{{}}',
        embedding vector({dim}),
        search_text tsvector GENERATED ALWAYS AS ({memory_tsv}) STORED,
        CONSTRAINT memories_visibility_check CHECK (visibility IN ('workspace', 'channel', 'private')),
        -- A superseded memory is kept (forgotten) so a merge can be undone; it points at its successor.
        CONSTRAINT memories_superseded_by_fkey FOREIGN KEY (superseded_by)
            REFERENCES memories (id) ON DELETE SET NULL DEFERRABLE INITIALLY DEFERRED
    );
    CREATE INDEX ix_memories_scope_type ON memories
        (platform, workspace_id, agent_id, memory_type) WHERE NOT forgotten;
    CREATE INDEX ix_memories_scope_importance ON memories
        (platform, workspace_id, agent_id, importance DESC, created_at DESC, id) WHERE NOT forgotten;
    CREATE INDEX ix_memories_scope_created ON memories
        (platform, workspace_id, agent_id, created_at) WHERE NOT forgotten;
    CREATE INDEX ix_memories_user ON memories (platform, workspace_id, user_id, memory_type);
    CREATE INDEX ix_memories_own ON memories (user_id, author_id, platform, agent_id)
        WHERE visibility = 'workspace' AND NOT forgotten;
    CREATE INDEX ix_memories_channel ON memories (platform, workspace_id, channel_id);
    CREATE INDEX ix_memories_thread ON memories (thread_id) WHERE thread_id IS NOT NULL;
    CREATE INDEX ix_memories_expires ON memories (expires_at) WHERE expires_at IS NOT NULL;
    CREATE INDEX ix_memories_hash ON memories (content_hash);
    CREATE INDEX ix_memories_superseded ON memories (superseded_by) WHERE superseded_by IS NOT NULL;
    CREATE INDEX ix_memories_subjects ON memories USING gin (subjects);
    CREATE INDEX ix_memories_embedding ON memories USING hnsw (embedding vector_cosine_ops)
        WHERE NOT forgotten;
    CREATE INDEX ix_memories_search_text ON memories USING gin (search_text) WHERE NOT forgotten;

    CREATE TABLE messages (
        id text PRIMARY KEY,
        -- Arrival order: breaks ties between turns of the same instant, as SQLite's rowid did.
        seq bigint GENERATED ALWAYS AS IDENTITY,
        platform text NOT NULL,
        workspace_id text NOT NULL,
        channel_id text NOT NULL,
        thread_id text,
        agent_id text NOT NULL,
        author_id text NOT NULL,
        author_name text NOT NULL,
        role text NOT NULL,
        content text NOT NULL,
        created_at timestamptz NOT NULL,
        external_id text,
        visibility text NOT NULL,
        -- json, not jsonb: kept as written (key order included).
        tool_calls json NOT NULL DEFAULT '[]',
        -- False for turns kept in the transcript but never embedded nor searched.
        searchable boolean NOT NULL DEFAULT true,
        -- What the turn is found under: its words after those of the turn it answers.
        indexed_text text NOT NULL DEFAULT '',
        embedding vector({dim}),
        search_text tsvector GENERATED ALWAYS AS ({message_tsv}) STORED,
        CONSTRAINT messages_seq_key UNIQUE (seq),
        CONSTRAINT messages_visibility_check CHECK (visibility IN ('workspace', 'channel', 'private'))
    );
    CREATE INDEX ix_messages_channel ON messages
        (platform, workspace_id, channel_id, agent_id, created_at, seq);
    CREATE UNIQUE INDEX ux_messages_external ON messages
        (platform, workspace_id, channel_id, agent_id, external_id) WHERE external_id IS NOT NULL;
    CREATE INDEX ix_messages_unindexed ON messages (seq) WHERE searchable AND embedding IS NULL;
    CREATE INDEX ix_messages_thread ON messages (thread_id) WHERE thread_id IS NOT NULL;
    CREATE INDEX ix_messages_workspace_time ON messages (platform, workspace_id, agent_id, created_at);
    CREATE INDEX ix_messages_embedding ON messages USING hnsw (embedding vector_cosine_ops)
        WHERE searchable;
    CREATE INDEX ix_messages_search_text ON messages USING gin (search_text) WHERE searchable;

    CREATE TABLE summaries (
        id text PRIMARY KEY,
        seq bigint GENERATED ALWAYS AS IDENTITY,
        platform text NOT NULL,
        workspace_id text NOT NULL,
        channel_id text NOT NULL,
        thread_id text,
        agent_id text NOT NULL,
        level integer NOT NULL,
        kind text NOT NULL,
        content text NOT NULL,
        covers_from timestamptz NOT NULL,
        covers_to timestamptz NOT NULL,
        source_ids text[] NOT NULL DEFAULT '{{}}',
        condensed_into text,
        raw_chars integer NOT NULL DEFAULT 0,
        visibility text NOT NULL,
        author_id text,
        created_at timestamptz NOT NULL,
        forgotten boolean NOT NULL DEFAULT false,
        expires_at timestamptz,
        embedding vector({dim}),
        CONSTRAINT summaries_seq_key UNIQUE (seq),
        CONSTRAINT summaries_kind_check CHECK (kind IN ('turns', 'condensed', 'thread')),
        CONSTRAINT summaries_visibility_check CHECK (visibility IN ('workspace', 'channel', 'private')),
        -- A summary condensed into another one depends on it.
        CONSTRAINT summaries_condensed_into_fkey FOREIGN KEY (condensed_into)
            REFERENCES summaries (id) ON DELETE SET NULL DEFERRABLE INITIALLY DEFERRED
    );
    CREATE INDEX ix_summaries_channel ON summaries
        (platform, workspace_id, channel_id, agent_id, level, covers_to);
    CREATE INDEX ix_summaries_pending ON summaries
        (platform, workspace_id, channel_id, agent_id, kind, level, covers_to)
        WHERE condensed_into IS NULL;
    CREATE UNIQUE INDEX ux_summaries_thread ON summaries
        (platform, workspace_id, channel_id, agent_id, COALESCE(thread_id, ''))
        WHERE kind = 'thread';
    CREATE INDEX ix_summaries_thread ON summaries (thread_id) WHERE thread_id IS NOT NULL;
    CREATE INDEX ix_summaries_condensed_into ON summaries (condensed_into)
        WHERE condensed_into IS NOT NULL;
    CREATE INDEX ix_summaries_embedding ON summaries USING hnsw (embedding vector_cosine_ops);

    CREATE TABLE profiles (
        platform text NOT NULL,
        workspace_id text NOT NULL,
        user_id text NOT NULL,
        agent_id text NOT NULL,
        data json NOT NULL DEFAULT '{{}}',
        updated_at timestamptz NOT NULL,
        CONSTRAINT profiles_pkey PRIMARY KEY (platform, workspace_id, user_id, agent_id)
    );

    CREATE TABLE aliases (
        platform text NOT NULL,
        workspace_id text NOT NULL,
        user_id text NOT NULL,
        alias text NOT NULL,
        created_at timestamptz NOT NULL,
        CONSTRAINT aliases_pkey PRIMARY KEY (platform, workspace_id, alias, user_id)
    );
    CREATE INDEX ix_aliases_user ON aliases (platform, workspace_id, user_id);

    CREATE TABLE conversation_kinds (
        platform text NOT NULL,
        workspace_id text NOT NULL,
        channel_id text NOT NULL,
        kind text NOT NULL,
        parent_id text,
        updated_at timestamptz NOT NULL,
        CONSTRAINT conversation_kinds_pkey PRIMARY KEY (platform, workspace_id, channel_id)
    );

    CREATE TABLE seen_events (
        key text NOT NULL,
        seen_at timestamptz NOT NULL,
        CONSTRAINT seen_events_pkey PRIMARY KEY (key)
    );
    CREATE INDEX ix_seen_events_seen_at ON seen_events (seen_at);
    """,
)

# What the model of each conversation was last given (the pre-hook's injection state and the
# memory blocks kept in front of the model), saved by whichever process answered it last.
CHANNEL_STATES = (
    "m003_channel_states",
    """
    CREATE TABLE channel_states (
        key text PRIMARY KEY,
        document text NOT NULL,
        vectors bytea NOT NULL,
        updated_at timestamptz NOT NULL
    );
    """,
)

# The pre-hook's "important memories" leave identities out (each participant's come from their
# own query), but identities weigh 1.0 and so came first in the importance index: a busy workspace
# read thousands of them to skip them (15 ms at a million memories). The same order without them:
IMPORTANT_NOT_IDENTITY = (
    "m006_important_not_identity",
    """
    CREATE INDEX ix_memories_scope_important ON memories
        (platform, workspace_id, agent_id, importance DESC, created_at DESC, id)
        WHERE NOT forgotten AND memory_type <> 'identity';
    """,
)

# A vector is stored EXTERNAL by default: 384 floats (1.5 kB) push a row past the 2 kB TOAST
# threshold, so every vector went to the TOAST table and each distance a search computed read
# the row, the TOAST index and the TOAST row. MAIN keeps it in the row (moved out only if nothing
# else makes the row fit a page, as for a very wide embedding model). Rows written before keep
# their place until the table is rewritten (`VACUUM FULL`); new and changed rows take the new one.
VECTORS_IN_THE_ROW = (
    "m008_vectors_in_the_row",
    """
    ALTER TABLE memories ALTER COLUMN embedding SET STORAGE MAIN;
    ALTER TABLE messages ALTER COLUMN embedding SET STORAGE MAIN;
    ALTER TABLE summaries ALTER COLUMN embedding SET STORAGE MAIN;
    """,
)

# Memories learned in the same instant (several written by one turn share created_at) were
# ordered by their random id: which of two made a listing's cut changed from run to run. Each row
# now carries its arrival (`seq`, as turns and summaries have), the last key of every listing by
# time. The rows stored before have no arrival on record: they are numbered so that they keep the
# order they were listed in until now (newest first, then by id), so none of them moves; the
# triggers stay off meanwhile (the number changes nothing they count or announce). The listings'
# indexes end with it.
MEMORY_ARRIVAL = (
    "m010_memory_arrival",
    """
    ALTER TABLE memories ADD COLUMN seq bigint;
    ALTER TABLE memories DISABLE TRIGGER USER;
    UPDATE memories AS m SET seq = o.n
        FROM (SELECT id, row_number() OVER (ORDER BY created_at, id COLLATE "C" DESC) AS n FROM memories) AS o
        WHERE m.id = o.id;
    ALTER TABLE memories ENABLE TRIGGER USER;
    ALTER TABLE memories ALTER COLUMN seq SET NOT NULL;
    ALTER TABLE memories ALTER COLUMN seq ADD GENERATED ALWAYS AS IDENTITY;
    SELECT setval(pg_get_serial_sequence('memories', 'seq'),
        (SELECT COALESCE(max(seq), 0) + 1 FROM memories), false);
    ALTER TABLE memories ADD CONSTRAINT memories_seq_key UNIQUE (seq);
    DROP INDEX ix_memories_scope_importance;
    CREATE INDEX ix_memories_scope_importance ON memories
        (platform, workspace_id, agent_id, importance DESC, created_at DESC, seq DESC) WHERE NOT forgotten;
    DROP INDEX ix_memories_scope_important;
    CREATE INDEX ix_memories_scope_important ON memories
        (platform, workspace_id, agent_id, importance DESC, created_at DESC, seq DESC)
        WHERE NOT forgotten AND memory_type <> 'identity';
    DROP INDEX ix_memories_scope_created;
    CREATE INDEX ix_memories_scope_created ON memories
        (platform, workspace_id, agent_id, created_at, seq) WHERE NOT forgotten;
    """,
)

# Every injected memory's access count went up in its memories row: a 2 kB row rewritten with
# its vector, and, the row's page being full, a new entry in each of its indexes (the HNSW graph
# among them) and a pass of the change triggers; 2,000 counts cost the server 1.75 s at a million
# memories, and left dead entries in the graph for VACUUM. The counts now live in a narrow table of
# their own (a row per memory ever counted), updated in place; a memory's delete takes its count.
MEMORY_ACCESS = (
    "m012_memory_access",
    """
    CREATE TABLE memory_access (
        memory_id text NOT NULL,
        access_count integer NOT NULL DEFAULT 0,
        last_accessed_at timestamptz,
        CONSTRAINT memory_access_pkey PRIMARY KEY (memory_id),
        CONSTRAINT memory_access_memory_id_fkey FOREIGN KEY (memory_id)
            REFERENCES memories (id) ON DELETE CASCADE
    ) WITH (fillfactor = 80);
    INSERT INTO memory_access (memory_id, access_count, last_accessed_at)
        SELECT id, access_count, last_accessed_at FROM memories
        WHERE access_count <> 0 OR last_accessed_at IS NOT NULL;
    ALTER TABLE memories DROP COLUMN access_count, DROP COLUMN last_accessed_at;
    """,
)

# A memory the extractor wrote keeps what it says of its user as fields (`rows.fact_json`), which
# profiles read instead of parsing its words back; NULL for the rows before and for what the model
# writes.
MEMORY_FACT = ("m013_memory_fact", "ALTER TABLE memories ADD COLUMN fact text;")

# The days a turn tells of (`turn_text.told_days`): a question about a period also finds the turns
# said on other days that tell of it. NULL for a turn that names no date, and for the turns stored
# before: those are found by when they were said, as they were.
TURN_TOLD_DAYS = (
    "m014_turn_told_days",
    """
    ALTER TABLE messages ADD COLUMN told_since timestamptz, ADD COLUMN told_until timestamptz;
    CREATE INDEX ix_messages_told ON messages (told_since) WHERE told_since IS NOT NULL AND searchable;
    """,
)

# Whether a turn's told days were read, or it was stored before they were kept (false, the default
# for the rows there when this ran, set without rewriting them): `TurnRepository.read_told_days`
# reads those at the next maintenance. A writer that forgets the column leaves its turns to be read
# there too.
TURN_TOLD_READ = (
    "m015_turn_told_read",
    """
    ALTER TABLE messages ADD COLUMN told_read boolean NOT NULL DEFAULT false;
    UPDATE messages SET told_read = true WHERE told_since IS NOT NULL;
    CREATE INDEX ix_messages_told_unread ON messages (seq) WHERE NOT told_read;
    """,
)
