"""Versioned PostgreSQL schema: an ordered registry of migrations, each applied once in a transaction."""

from __future__ import annotations

import asyncpg

from ...errors import ConfigError, StorageError
from ..base import pending_migrations

MIGRATIONS: list[tuple[str, str]] = []

# Full text of every kind of row: English stems (with their stop words) and the words as written
# (`simple`), so names and words of other languages still match.
TSVECTOR = "to_tsvector('english'::regconfig, {col}) || to_tsvector('simple'::regconfig, {col})"


def migration(name: str, sql: str) -> None:
    """Register a migration; order of registration is order of application, names never change.

    `{dim}` in the SQL is the vector dimension the database is created for.
    """
    MIGRATIONS.append((name, sql))


migration(
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

# Every process on the database keeps RAM copies of memories (cached preferences, blocks already
# shown to the model, injection state): each change of a memory row is announced on this channel,
# at commit, so the others drop theirs. Access-count updates change nothing they hold and are quiet.
CHANGES_CHANNEL = "memorybot_memory_changes"

migration(
    "m002_memory_changes",
    f"""
    CREATE FUNCTION memorybot_memory_changed() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE
        changed memories;
    BEGIN
        IF TG_OP = 'DELETE' THEN
            changed := OLD;
        ELSE
            changed := NEW;
        END IF;
        PERFORM pg_notify('{CHANGES_CHANNEL}', json_build_object(
            'id', changed.id,
            'memory_type', changed.memory_type,
            'platform', changed.platform,
            'workspace_id', changed.workspace_id,
            'agent_id', changed.agent_id,
            'user_id', changed.user_id,
            'gone', TG_OP = 'DELETE' OR changed.forgotten
        )::text);
        RETURN NULL;
    END
    $$;

    CREATE TRIGGER memories_changed_insert_delete AFTER INSERT OR DELETE ON memories
        FOR EACH ROW EXECUTE FUNCTION memorybot_memory_changed();
    CREATE TRIGGER memories_changed_update AFTER UPDATE ON memories
        FOR EACH ROW WHEN (
            (OLD.content, OLD.memory_type, OLD.importance, OLD.confidence, OLD.subjects, OLD.channel_id,
             OLD.thread_id, OLD.user_id, OLD.visibility, OLD.updated_at, OLD.expires_at, OLD.forgotten,
             OLD.superseded_by)
            IS DISTINCT FROM
            (NEW.content, NEW.memory_type, NEW.importance, NEW.confidence, NEW.subjects, NEW.channel_id,
             NEW.thread_id, NEW.user_id, NEW.visibility, NEW.updated_at, NEW.expires_at, NEW.forgotten,
             NEW.superseded_by)
        )
        EXECUTE FUNCTION memorybot_memory_changed();
    """,
)

# What the model of each conversation was last given (the pre-hook's injection state and the
# memory blocks kept in front of the model), saved by whichever process answered it last.
migration(
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

# BM25 needs, per scope, how many rows hold each word and how long rows are; PostgreSQL keeps no
# such counts, and counting them at search time through the full-text index costs tens of ms per
# common word at a million rows. Each write keeps them instead: a statement-level trigger adds the
# rows that became searchable and subtracts those that stopped, per word, in one upsert. The row
# of term '' holds the scope's searchable rows and the sum of their lengths; sorted first, it is
# locked first by every statement that adds or removes a row, so two transactions writing one
# scope take turns there instead of each holding a word the other's next statement needs.
_TERM_TABLES = {"memories": "NOT {row}.forgotten", "messages": "{row}.searchable"}
_TERM_DELTA = """
    INSERT INTO term_counts AS c (table_name, platform, workspace_id, agent_id, term, rows, lengths)
    SELECT '{table}', platform, workspace_id, agent_id, term, sum(sign), sum(sign * len)
    FROM ({rows}) AS changed,
        unnest(array_append(tsvector_to_array(search_text), '')) AS term,
        LATERAL (SELECT CASE WHEN term = '' THEN {length} ELSE 0 END AS len) AS l
    GROUP BY platform, workspace_id, agent_id, term
    HAVING sum(sign) <> 0 OR sum(sign * len) <> 0
    ORDER BY platform, workspace_id, agent_id, term
    ON CONFLICT (table_name, platform, workspace_id, agent_id, term)
        DO UPDATE SET rows = c.rows + excluded.rows, lengths = c.lengths + excluded.lengths;
"""


_TERM_COUNTS_TABLE = """
    CREATE TABLE term_counts (
        table_name text NOT NULL,
        platform text NOT NULL,
        workspace_id text NOT NULL,
        agent_id text NOT NULL,
        -- A lexeme of the row's search_text; '' for the scope's totals.
        term text NOT NULL,
        -- Searchable rows holding the term (for '': all of the scope's searchable rows).
        rows bigint NOT NULL,
        -- For '': the sum of those rows' search_text lengths (lexemes); 0 for a term.
        lengths bigint NOT NULL DEFAULT 0,
        CONSTRAINT term_counts_pkey PRIMARY KEY (table_name, platform, workspace_id, agent_id, term)
    );
    """
# A row's length in BM25: its lexemes (m004), then its analysed terms, repeats counted (m009).
_LEXEMES = "length(search_text)"
_TERMS = "COALESCE(cardinality(search_terms), length(search_text))"


def _term_count_sql(length: str = _LEXEMES, words: str = "search_text", create: bool = True) -> str:
    """The term counting triggers' functions (and, with `create`, their table and triggers), each row
    `length` long and changed when `words` changes; then every stored row counted once."""
    sql = [_TERM_COUNTS_TABLE] if create else ["DELETE FROM term_counts;"]
    for table, live in _TERM_TABLES.items():

        def rows(source: str, sign: int, live: str = live) -> str:
            fields = ", ".join(f"{w.strip()}" for w in words.split(","))
            return (
                f"SELECT platform, workspace_id, agent_id, {fields}, {sign} AS sign "
                f"FROM {source} AS r WHERE {live.format(row='r')}"
            )

        def counted(row: str, live: str = live) -> str:
            scope = f"{row}.platform, {row}.workspace_id, {row}.agent_id"
            fields = ", ".join(f"{row}.{w.strip()}" for w in words.split(","))
            return f"{fields}, {scope}, {live.format(row=row)}"

        def of(row: str) -> str:
            return ", ".join(f"{row}.{w.strip()}" for w in words.split(","))

        # Of an update's rows, only those whose words, searchability or scope changed: an access
        # count's update then costs one join of its few rows.
        changed = (
            f"JOIN old_rows AS o ON o.id = n.id WHERE ({counted('n')}) IS DISTINCT FROM ({counted('o')})"
        )
        plus, minus = rows("new_rows", 1), rows("old_rows", -1)
        updated = (
            f"SELECT n.platform, n.workspace_id, n.agent_id, {of('n')}, 1 AS sign FROM new_rows AS n "
            f"{changed} AND {live.format(row='n')} UNION ALL "
            f"SELECT o.platform, o.workspace_id, o.agent_id, {of('o')}, -1 FROM new_rows AS n "
            f"{changed} AND {live.format(row='o')}"
        )
        delta = {"table": table, "length": length}
        verb = "CREATE FUNCTION" if create else "CREATE OR REPLACE FUNCTION"
        function = f"""
    {verb} memorybot_{table}_terms() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
        IF TG_OP = 'INSERT' THEN
            {_TERM_DELTA.format(rows=plus, **delta)}
        ELSIF TG_OP = 'DELETE' THEN
            {_TERM_DELTA.format(rows=minus, **delta)}
        ELSIF TG_OP = 'UPDATE' THEN
            {_TERM_DELTA.format(rows=updated, **delta)}
        ELSE
            DELETE FROM term_counts WHERE table_name = '{table}';
        END IF;
        RETURN NULL;
    END
    $$;"""
        triggers = f"""
    CREATE TRIGGER {table}_terms_insert AFTER INSERT ON {table}
        REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION memorybot_{table}_terms();
    CREATE TRIGGER {table}_terms_delete AFTER DELETE ON {table}
        REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION memorybot_{table}_terms();
    CREATE TRIGGER {table}_terms_update AFTER UPDATE ON {table}
        REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
        FOR EACH STATEMENT EXECUTE FUNCTION memorybot_{table}_terms();
    CREATE TRIGGER {table}_terms_truncate AFTER TRUNCATE ON {table}
        FOR EACH STATEMENT EXECUTE FUNCTION memorybot_{table}_terms();
    """
        sql.append(function + triggers if create else function + "\n")
        # The rows already stored are counted once, as if each had just been inserted.
        sql.append(_TERM_DELTA.format(rows=rows(table, 1), **delta))
    return "\n".join(sql)


migration("m004_term_counts", _term_count_sql())

# Every full-text search is within one workspace. The words' index spanned all of them, so a
# common word's rows were found everywhere and then intersected with the workspace's (building a
# bitmap of its 80,000 rows cost 8 ms at a million memories); keyed by workspace too (btree_gin,
# a contrib extension managed services allow), the index finds the workspace's rows of the word.
migration(
    "m005_workspace_full_text",
    """
    CREATE EXTENSION IF NOT EXISTS btree_gin;
    DROP INDEX IF EXISTS ix_memories_search_text;
    CREATE INDEX ix_memories_search_text ON memories USING gin (workspace_id, search_text)
        WHERE NOT forgotten;
    DROP INDEX IF EXISTS ix_messages_search_text;
    CREATE INDEX ix_messages_search_text ON messages USING gin (workspace_id, search_text)
        WHERE searchable;
    """,
)

# The pre-hook's "important memories" leave identities out (each participant's come from their
# own query), but identities weigh 1.0 and so came first in the importance index: a busy workspace
# read thousands of them to skip them (15 ms at a million memories). The same order without them:
migration(
    "m006_important_not_identity",
    """
    CREATE INDEX ix_memories_scope_important ON memories
        (platform, workspace_id, agent_id, importance DESC, created_at DESC, id)
        WHERE NOT forgotten AND memory_type <> 'identity';
    """,
)

# A statement that changes many memories at once (an import, a bulk load, an expiry sweep)
# announced each of them: every listening process then took one notification per row. Above
# MANY_CHANGES rows a statement announces only that much changed ({"many": n}), and the listeners
# drop everything they keep, as after a lost connection.
MANY_CHANGES = 100
_CHANGED_COLUMNS = (
    "content, memory_type, importance, confidence, subjects, channel_id, thread_id, user_id, "
    "visibility, updated_at, expires_at, forgotten, superseded_by"
)


def _announce(rows: str) -> str:
    return f"""
        SELECT count(*) INTO changed FROM ({rows}) AS r;
        IF changed > {MANY_CHANGES} THEN
            PERFORM pg_notify('{CHANGES_CHANNEL}', json_build_object('many', changed)::text);
        ELSE
            PERFORM pg_notify('{CHANGES_CHANNEL}', json_build_object(
                'id', r.id, 'memory_type', r.memory_type, 'platform', r.platform,
                'workspace_id', r.workspace_id, 'agent_id', r.agent_id, 'user_id', r.user_id,
                'gone', r.gone
            )::text) FROM ({rows}) AS r;
        END IF;"""


_ANNOUNCED = "{r}.id, {r}.memory_type, {r}.platform, {r}.workspace_id, {r}.agent_id, {r}.user_id"
_NEW = f"SELECT {_ANNOUNCED.format(r='n')}, n.forgotten AS gone FROM new_rows AS n"
_GONE = f"SELECT {_ANNOUNCED.format(r='o')}, true AS gone FROM old_rows AS o"
_UPDATED = (
    f"SELECT {_ANNOUNCED.format(r='n')}, n.forgotten AS gone FROM new_rows AS n "
    "JOIN old_rows AS o ON o.id = n.id "
    f"WHERE ({', '.join('o.' + c.strip() for c in _CHANGED_COLUMNS.split(','))}) IS DISTINCT FROM "
    f"({', '.join('n.' + c.strip() for c in _CHANGED_COLUMNS.split(','))})"
)

migration(
    "m007_memory_changes_per_statement",
    f"""
    DROP TRIGGER memories_changed_insert_delete ON memories;
    DROP TRIGGER memories_changed_update ON memories;
    DROP FUNCTION memorybot_memory_changed();

    CREATE FUNCTION memorybot_memories_changed() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE
        changed bigint;
    BEGIN
        IF TG_OP = 'INSERT' THEN{_announce(_NEW)}
        ELSIF TG_OP = 'DELETE' THEN{_announce(_GONE)}
        ELSE{_announce(_UPDATED)}
        END IF;
        RETURN NULL;
    END
    $$;
    CREATE TRIGGER memories_changed_insert AFTER INSERT ON memories
        REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION memorybot_memories_changed();
    CREATE TRIGGER memories_changed_delete AFTER DELETE ON memories
        REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION memorybot_memories_changed();
    CREATE TRIGGER memories_changed_update AFTER UPDATE ON memories
        REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
        FOR EACH STATEMENT EXECUTE FUNCTION memorybot_memories_changed();
    """,
)

# A vector is stored EXTERNAL by default: 384 floats (1.5 kB) push a row past the 2 kB TOAST
# threshold, so every vector went to the TOAST table and each distance a search computed read
# the row, the TOAST index and the TOAST row. MAIN keeps it in the row (moved out only if nothing
# else makes the row fit a page, as for a very wide embedding model). Rows written before keep
# their place until the table is rewritten (`VACUUM FULL`); new and changed rows take the new one.
migration(
    "m008_vectors_in_the_row",
    """
    ALTER TABLE memories ALTER COLUMN embedding SET STORAGE MAIN;
    ALTER TABLE messages ALTER COLUMN embedding SET STORAGE MAIN;
    ALTER TABLE summaries ALTER COLUMN embedding SET STORAGE MAIN;
    """,
)

# Full text as the embedded backend analyses it (`memory.storage.text_analysis`, LanceDB's English
# analyser): each row's terms are written with it, in order and repeats kept, so a row is found by
# the same words and ranked by the same BM25 (each term's repeats, the row's length in terms) on
# both backends. PostgreSQL's own analysis (`TSVECTOR`: other stop words, other stems, and the
# words as written beside them) matched and ranked other rows. A row written before keeps that
# analysis until `PostgresStorage.maintain` analyses it again.
_SEARCH_TERMS = """
    ALTER TABLE {table} ADD COLUMN IF NOT EXISTS search_terms text[];
    ALTER TABLE {table} DROP COLUMN search_text;
    ALTER TABLE {table} ADD COLUMN search_text tsvector
        GENERATED ALWAYS AS (COALESCE(array_to_tsvector(search_terms), {fallback})) STORED;
    CREATE INDEX ix_{table}_search_text ON {table} USING gin (workspace_id, search_text) WHERE {live};
    -- The rows still to analyse (none once `maintain` has been through them).
    CREATE INDEX IF NOT EXISTS ix_{table}_unanalysed ON {table} (id) WHERE search_terms IS NULL;
"""
migration(
    "m009_search_terms",
    _SEARCH_TERMS.format(table="memories", fallback="{memory_tsv}", live="NOT forgotten")
    + _SEARCH_TERMS.format(table="messages", fallback="{message_tsv}", live="searchable")
    + _term_count_sql(_TERMS, "search_text, search_terms", create=False)
    .replace("{", "{{")
    .replace("}", "}}"),
)

# Memories learned in the same instant (several written by one turn share created_at) were
# ordered by their random id: which of two made a listing's cut changed from run to run. Each row
# now carries its arrival (`seq`, as turns and summaries have), the last key of every listing by
# time. The rows stored before have no arrival on record: they are numbered so that they keep the
# order they were listed in until now (newest first, then by id), so none of them moves; the
# triggers stay off meanwhile (the number changes nothing they count or announce). The listings'
# indexes end with it.
migration(
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

# A full-text search is within one workspace, yet the (workspace_id, search_text) index still
# intersected the workspace's every row with its words' rows: at a million memories a busy
# workspace's 80,000 cost 6 to 11 ms a search, and the planner's estimate of that index up to 4 ms
# more (each statement is planned for its values). The words are now keyed by their workspace in
# the index ("<workspace> <word>", `scoped_lexemes`, which the searches apply to their own words
# too), so a search reads its workspace's rows of its words and nothing else. The function uses
# pg_catalog only: maintenance (ANALYZE, REINDEX) runs it with no other schema on the path.
migration(
    "m011_workspace_keyed_words",
    """
    CREATE FUNCTION scoped_lexemes(workspace text, lexemes tsvector) RETURNS tsvector
        LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
        AS $$ SELECT array_to_tsvector(ARRAY(
            SELECT left(workspace, 64) || ' ' || t FROM unnest(tsvector_to_array(lexemes)) AS t
            WHERE octet_length(t) <= 1500)) $$;
    DROP INDEX ix_memories_search_text;
    CREATE INDEX ix_memories_search_text ON memories
        USING gin (scoped_lexemes(workspace_id, search_text)) WHERE NOT forgotten;
    DROP INDEX ix_messages_search_text;
    CREATE INDEX ix_messages_search_text ON messages
        USING gin (scoped_lexemes(workspace_id, search_text)) WHERE searchable;
    """,
)

_LOCK_KEY = 0x6D656D6F  # "memo": one migrating process at a time


def _render(sql: str, dim: int) -> str:
    return sql.format(
        dim=dim,
        memory_tsv=TSVECTOR.format(col="content"),
        message_tsv=TSVECTOR.format(col="indexed_text"),
    )


async def apply_migrations(conn: asyncpg.Connection, dim: int) -> list[str]:
    """Apply every migration not yet recorded, each in its own transaction; returns their names."""
    await conn.execute("SELECT pg_advisory_lock($1)", _LOCK_KEY)
    try:
        await conn.execute(
            "CREATE TABLE IF NOT EXISTS schema_migrations ("
            "name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())"
        )
        done = {r["name"] for r in await conn.fetch("SELECT name FROM schema_migrations")}
        applied = []
        for name, sql in pending_migrations(MIGRATIONS, done):
            try:
                async with conn.transaction():
                    await conn.execute(_render(sql, dim))
                    await conn.execute("INSERT INTO schema_migrations (name) VALUES ($1)", name)
            except asyncpg.PostgresError as exc:
                raise _migration_error(name, exc) from exc
            applied.append(name)
        return applied
    finally:
        await conn.execute("SELECT pg_advisory_unlock($1)", _LOCK_KEY)


EXTENSIONS = ("vector", "btree_gin")


def _migration_error(name: str, exc: asyncpg.PostgresError) -> Exception:
    # A managed service lets an administrator create extensions the bot's role may not.
    missing = [e for e in EXTENSIONS if f'extension "{e}"' in str(exc) or f"extension {e}" in str(exc)]
    if missing:
        statements = " and ".join(f"CREATE EXTENSION IF NOT EXISTS {e}" for e in EXTENSIONS)
        return ConfigError(
            f"migration {name} needs the {missing[0]} extension, which this role cannot create ({exc}); "
            f"an administrator runs {statements} once in this database"
        )
    return StorageError(f"migration {name} failed: {type(exc).__name__}: {exc}")


# Iterative index scans (a filtered search still returns its k rows) came with pgvector 0.8.
MIN_PGVECTOR = (0, 8)


async def check_pgvector(conn: asyncpg.Connection) -> None:
    """Refuse a pgvector too old for filtered searches to return their k rows."""
    version = await conn.fetchval("SELECT extversion FROM pg_extension WHERE extname = 'vector'")
    parts = tuple(int(p) for p in str(version or "0").split(".")[:2] if p.isdigit())
    if parts < MIN_PGVECTOR:
        raise ConfigError(
            f"the database's pgvector is {version}; memorybot needs "
            f"{'.'.join(map(str, MIN_PGVECTOR))} or newer (ALTER EXTENSION vector UPDATE)"
        )


async def vector_dim(conn: asyncpg.Connection, dim: int) -> None:
    """Refuse a database made for vectors of another size (another embedding model)."""
    stored = await conn.fetchval(
        "SELECT atttypmod FROM pg_attribute WHERE attrelid = 'memories'::regclass AND attname = 'embedding'"
    )
    if stored is not None and stored != dim:
        raise ConfigError(
            f"the database stores vectors of {stored} dimensions but the embedder makes {dim}; "
            "use the embedding model it was created with"
        )
