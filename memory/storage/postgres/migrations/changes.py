"""Every change of a memory row announced to every process on the database (NOTIFY triggers)."""

from __future__ import annotations

# Every process on the database keeps RAM copies of memories (cached preferences, blocks already
# shown to the model, injection state): each change of a memory row is announced on this channel,
# at commit, so the others drop theirs. Access-count updates change nothing they hold and are quiet.
CHANGES_CHANNEL = "memorybot_memory_changes"

MEMORY_CHANGES = (
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

MEMORY_CHANGES_PER_STATEMENT = (
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
