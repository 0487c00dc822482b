"""The columns of the memories, messages and summaries tables as both SQL backends write and read them."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import Any

from ..models import (
    Fact,
    Memory,
    MemoryType,
    Predicate,
    Scope,
    Source,
    StoredMessage,
    Summary,
    SummaryKind,
    Visibility,
)
from ..turn_text import told_days

MEMORY_COLUMNS = (
    "id, content, memory_type, importance, confidence, subjects, source, platform, workspace_id, "
    "channel_id, thread_id, user_id, author_id, agent_id, visibility, created_at, updated_at, "
    "last_accessed_at, access_count, expires_at, forgotten, superseded_by, content_hash, sources, fact"
)
MESSAGE_COLUMNS = (
    "id, platform, workspace_id, channel_id, thread_id, agent_id, author_id, author_name, role, "
    "content, created_at, external_id, visibility, tool_calls"
)
SUMMARY_COLUMNS = (
    "id, platform, workspace_id, channel_id, thread_id, agent_id, level, kind, content, covers_from, "
    "covers_to, source_ids, condensed_into, raw_chars, visibility, author_id, created_at"
)

# Rows are decoded by the hundred on every turn: dict lookups are several times cheaper than
# Enum calls, and most JSON lists are empty.
VISIBILITIES = {v.value: v for v in Visibility}
_MEMORY_TYPES = {t.value: t for t in MemoryType}
_SOURCES = {s.value: s for s in Source}
_SUMMARY_KINDS = {k.value: k for k in SummaryKind}

# What makes a text storable in a backend (each refuses different characters).
Text = Callable[[str], str]
# How a backend reads a list column back: JSON text in SQLite, an array in PostgreSQL.
ListColumn = Callable[[Any], list[Any]]


def json_list(text: object) -> list[Any]:
    """A list stored as JSON text."""
    return [] if text == "[]" else json.loads(str(text))  # type: ignore[no-any-return]


def memory_values(m: Memory, text: Text, subjects: object, sources: object) -> tuple[object, ...]:
    """The values of `MEMORY_COLUMNS` for `m`, its lists as the backend stores them."""
    return (
        m.id,
        text(m.content),
        m.memory_type.value,
        m.importance,
        m.confidence,
        subjects,
        m.source.value,
        m.platform,
        m.workspace_id,
        m.channel_id,
        m.thread_id,
        m.user_id,
        m.author_id,
        m.agent_id,
        m.visibility.value,
        m.created_at,
        m.updated_at,
        m.last_accessed_at,
        m.access_count,
        m.expires_at,
        # SQLite stores a bool as the integer 0 or 1, PostgreSQL as a boolean.
        m.forgotten,
        m.superseded_by,
        m.content_hash,
        sources,
        fact_json(m.fact, text),
    )


def memory_from_row(row: Sequence[Any], lists: ListColumn) -> Memory:
    """The memory of a row of `MEMORY_COLUMNS` (SQLite may give back ints for reals, hence the casts)."""
    return Memory(
        id=str(row[0]),
        content=str(row[1]),
        memory_type=_MEMORY_TYPES.get(row[2]) or MemoryType(row[2]),
        importance=float(row[3]),
        confidence=float(row[4]),
        subjects=lists(row[5]),
        source=_SOURCES.get(row[6]) or Source(row[6]),
        scope=Scope(str(row[7]), str(row[8]), str(row[9]), str(row[13]), row[10]),
        user_id=row[11],
        author_id=row[12],
        visibility=VISIBILITIES.get(row[14]) or Visibility(row[14]),
        created_at=float(row[15]),
        updated_at=float(row[16]),
        last_accessed_at=row[17],
        access_count=int(row[18]),
        expires_at=row[19],
        forgotten=bool(row[20]),
        superseded_by=row[21],
        content_hash=str(row[22]),
        sources=lists(row[23]),
        fact=fact_of_json(row[24]),
    )


def fact_json(fact: Fact | None, text: Text) -> str | None:
    """A memory's `fact` column: its fields as a JSON object (NULL for none)."""
    if fact is None:
        return None
    said = {"predicate": fact.predicate.value, "object": text(fact.object), "relation": text(fact.relation)}
    if fact.subject:
        said["subject"] = text(fact.subject)
    return json.dumps(said, ensure_ascii=False)


def fact_of_json(stored: object) -> Fact | None:
    """The fact of a `fact` column; None for NULL, or for one this version cannot read (a predicate
    it does not know, a damaged value): the memory's words are read instead."""
    if stored is None:
        return None
    try:
        said = json.loads(str(stored))
        return Fact(
            str(said.get("subject", "")),
            Predicate(said["predicate"]),
            str(said["object"]),
            str(said.get("relation", "")),
        )
    except (ValueError, KeyError, TypeError, AttributeError):
        return None


def _scope_values(scope: Scope) -> tuple[str, str, str, str | None, str]:
    # The messages and summaries tables keep a scope in five columns after the id, in this order.
    return scope.platform, scope.workspace_id, scope.channel_id, scope.thread_id, scope.agent_id


def _scope_of(row: Sequence[Any]) -> Scope:
    return Scope(str(row[1]), str(row[2]), str(row[3]), str(row[5]), row[4])


def message_values(m: StoredMessage, text: Text) -> tuple[object, ...]:
    """The values of `MESSAGE_COLUMNS` for `m` (tool calls as JSON text in both backends)."""
    return (
        m.id,
        *_scope_values(m.scope),
        m.author_id,
        text(m.author_name),
        m.role,
        text(m.content),
        m.created_at,
        m.external_id,
        m.visibility.value,
        text(json.dumps(m.tool_calls, ensure_ascii=False)),
    )


def told_values(m: StoredMessage) -> tuple[float | None, float | None]:
    """The values of a turn's `told_since, told_until` columns (`turn_text.told_days`; NULL for none)."""
    return told_days(m) or (None, None)


def message_from_row(row: Sequence[Any]) -> StoredMessage:
    """The turn of a row of `MESSAGE_COLUMNS`."""
    return StoredMessage(
        id=str(row[0]),
        scope=_scope_of(row),
        author_id=str(row[6]),
        author_name=str(row[7]),
        role=str(row[8]),
        content=str(row[9]),
        created_at=float(row[10]),
        external_id=row[11],
        visibility=VISIBILITIES.get(row[12]) or Visibility(row[12]),
        tool_calls=json_list(row[13]),
    )


def summary_values(s: Summary, text: Text, source_ids: object) -> tuple[object, ...]:
    """The values of `SUMMARY_COLUMNS` for `s`, its source ids as the backend stores a list."""
    return (
        s.id,
        *_scope_values(s.scope),
        s.level,
        s.kind.value,
        text(s.content),
        s.covers_from,
        s.covers_to,
        source_ids,
        s.condensed_into,
        s.raw_chars,
        s.visibility.value,
        s.author_id,
        s.created_at,
    )


def summary_from_row(row: Sequence[Any], lists: ListColumn) -> Summary:
    """The summary of a row of `SUMMARY_COLUMNS`."""
    return Summary(
        id=str(row[0]),
        scope=_scope_of(row),
        level=int(row[6]),
        kind=_SUMMARY_KINDS.get(row[7]) or SummaryKind(row[7]),
        content=str(row[8]),
        covers_from=float(row[9]),
        covers_to=float(row[10]),
        source_ids=lists(row[11]),
        condensed_into=row[12],
        raw_chars=int(row[13]),
        visibility=VISIBILITIES.get(row[14]) or Visibility(row[14]),
        author_id=row[15],
        created_at=float(row[16]),
    )
