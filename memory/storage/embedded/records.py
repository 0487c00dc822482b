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


def memory_record(memory: Memory, vector: np.ndarray) -> VectorRecord:
    return scoped_record(
        memory.scope,
        id=memory.id,
        vector=vector,
        text=memory.content,
        user_id=memory.user_id,
        author_id=memory.author_id,
        visibility=memory.visibility.value,
        kind=memory.memory_type.value,
        created_at=memory.created_at,
        expires_at=memory.expires_at,
    )


def message_record(
    message: StoredMessage,
    vector: np.ndarray,
    previous: StoredMessage | None = None,
    text: str | None = None,
) -> VectorRecord:
    """A turn's row, indexed under `text` (by default its words after those of `previous`)."""
    return scoped_record(
        message.scope,
        id=message.id,
        vector=vector,
        text=message_search_text(message, previous) if text is None else text,
        user_id=message.author_id,
        author_id=message.author_id,
        visibility=message.visibility.value,
        kind=message.role,
        created_at=message.created_at,
    )


def summary_record(summary: Summary, vector: np.ndarray) -> VectorRecord:
    """The LanceDB row of a summary: its stored vector, text and the scope columns filters read."""
    return scoped_record(
        summary.scope,
        id=summary.id,
        vector=vector,
        text=summary.content,
        user_id=summary.author_id,
        author_id=summary.author_id,
        visibility=summary.visibility.value,
        kind="summary",
        created_at=summary.created_at,
    )
