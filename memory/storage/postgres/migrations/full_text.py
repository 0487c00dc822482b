"""Full text's schema: per-scope word counts for BM25, analysed terms, the workspace-keyed word index."""

from __future__ import annotations

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


TERM_COUNTS = ("m004_term_counts", _term_count_sql())

# Every full-text search is within one workspace. The words' index spanned all of them, so a
# common word's rows were found everywhere and then intersected with the workspace's (building a
# bitmap of its 80,000 rows cost 8 ms at a million memories); keyed by workspace too (btree_gin,
# a contrib extension managed services allow), the index finds the workspace's rows of the word.
WORKSPACE_FULL_TEXT = (
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

# Full text as the embedded backend analyses it (`memory.storage.text_analysis`, LanceDB's English
# analyser): each row's terms are written with it, in order and repeats kept, so a row is found by
# the same words and ranked by the same BM25 (each term's repeats, the row's length in terms) on
# both backends. PostgreSQL's own analysis (`runner.TSVECTOR`: other stop words, other stems, and the
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
SEARCH_TERMS = (
    "m009_search_terms",
    _SEARCH_TERMS.format(table="memories", fallback="{memory_tsv}", live="NOT forgotten")
    + _SEARCH_TERMS.format(table="messages", fallback="{message_tsv}", live="searchable")
    + _term_count_sql(_TERMS, "search_text, search_terms", create=False)
    .replace("{", "{{")
    .replace("}", "}}"),
)

# A full-text search is within one workspace, yet the (workspace_id, search_text) index still
# intersected the workspace's every row with its words' rows: at a million memories a busy
# workspace's 80,000 cost 6 to 11 ms a search, and the planner's estimate of that index up to 4 ms
# more (each statement is planned for its values). The words are now keyed by their workspace in
# the index ("<workspace> <word>", `scoped_lexemes`, which the searches apply to their own words
# too), so a search reads its workspace's rows of its words and nothing else. The function uses
# pg_catalog only: maintenance (ANALYZE, REINDEX) runs it with no other schema on the path.
WORKSPACE_KEYED_WORDS = (
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
