"""The LanceDB row of each kind of record: its stored vector, indexed text and scope columns."""

from __future__ import annotations

import numpy as np

from ...models import Memory, Scope, StoredMessage, Summary
from ...turn_text import message_search_text
from .lance_rows import VectorRecord


def scoped_record(
    scope: Scope,
    *,
    id: str,
    vector: np.ndarray,
    text: str,
    user_id: str | None,
    author_id: str | None,
    visibility: str,
    kind: str,
    created_at: float,
    expires_at: float | None = None,
) -> VectorRecord:
    """A row whose scope columns are `scope`'s, so every kind of record spells them the same way."""
    return VectorRecord(
        id=id,
        vector=vector,
        text=text,
        platform=scope.platform,
        workspace_id=scope.workspace_id,
        channel_id=scope.channel_id,
        thread_id=scope.thread_id,
        user_id=user_id,
        author_id=author_id,
        agent_id=scope.agent_id,
        visibility=visibility,
        kind=kind,
        created_at=created_at,
        expires_at=expires_at,
    )


def _record(
    item: Memory | StoredMessage | Summary,
    vector: np.ndarray,
    text: str,
    kind: str,
    user_id: str | None,
    expires_at: float | None = None,
) -> VectorRecord:
    """`item`'s row: its id, scope, author, visibility and time, with what differs by kind."""
    return scoped_record(
        item.scope,
        id=item.id,
        vector=vector,
        text=text,
        user_id=user_id,
        author_id=item.author_id,
        visibility=item.visibility.value,
        kind=kind,
        created_at=item.created_at,
        expires_at=expires_at,
    )


def memory_record(memory: Memory, vector: np.ndarray) -> VectorRecord:
    return _record(
        memory, vector, memory.content, memory.memory_type.value, memory.user_id, memory.expires_at
    )


def message_record(
    message: StoredMessage,
    vector: np.ndarray,
    previous: StoredMessage | None = None,
    text: str | None = None,
) -> VectorRecord:
    """A turn's row, indexed under `text` (by default its words after those of `previous`)."""
    if text is None:
        text = message_search_text(message, previous)
    # A turn is about its author, as far as the filters go.
    return _record(message, vector, text, message.role, message.author_id)


def summary_record(summary: Summary, vector: np.ndarray) -> VectorRecord:
    """The LanceDB row of a summary: its stored vector, text and the scope columns filters read."""
    return _record(summary, vector, summary.content, "summary", summary.author_id)
