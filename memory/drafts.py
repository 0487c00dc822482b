"""From a draft to a memory row (validated, cleaned, dates resolved) and what makes two exact duplicates."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime

from .errors import InvalidMemory
from .models import DEFAULT_IMPORTANCE, Audience, Memory, MemoryDraft, MemoryType, Visibility, content_hash
from .text import credential_in, resolve_relative_dates
from .ttl import expires_at as ttl_expires_at

MAX_MEMORY_CHARS = 2000


def new_id() -> str:
    """Short random id users can type (`/memory forget 3f9c0a1b2d4e5f60`)."""
    return uuid.uuid4().hex[:16]


def scope_audience(memory: Memory) -> Audience:
    """The audience that sees exactly the memories sharing `memory`'s scope and visibility."""
    return Audience(
        platform=memory.platform,
        workspace_id=memory.workspace_id,
        agent_id=memory.agent_id,
        viewer_id=memory.author_id,
        channel_id=memory.channel_id if memory.visibility is Visibility.CHANNEL else None,
        private_ok=memory.visibility is Visibility.PRIVATE,
    )


def exact_key(
    digest: str,
    platform: str,
    workspace_id: str,
    agent_id: str,
    visibility: str,
    channel_id: str,
    author_id: str | None,
) -> tuple[str, ...] | None:
    """What makes two memories exact duplicates for `remember`: hash, scope and visibility.

    The channel counts only for channel-visible memories and the author only for private ones;
    a private memory without an author never matches (as in `find_by_hash`).
    """
    if visibility == Visibility.PRIVATE.value:
        if author_id is None:
            return None
        return (digest, platform, workspace_id, agent_id, visibility, author_id)
    if visibility == Visibility.CHANNEL.value:
        return (digest, platform, workspace_id, agent_id, visibility, channel_id)
    return (digest, platform, workspace_id, agent_id, visibility)


def build_memory(draft: MemoryDraft, now: float) -> Memory:
    """Validate a draft and turn it into a row (written at `now` unless the draft says when);
    raises InvalidMemory (or TTLError) with a reason."""
    content = " ".join(draft.content.split()) if isinstance(draft.content, str) else ""
    content = content.encode("utf-8", "replace").decode("utf-8")
    if not content:
        raise InvalidMemory("memory content is empty")
    created = draft.created_at if draft.created_at is not None else now
    # What is stored must stay true: "last week" means one week for ever, the one it was said in.
    content = resolve_relative_dates(content, datetime.fromtimestamp(created, draft.said_in or UTC))
    if not any(ch.isprintable() for ch in content):
        # Only control or format characters (NULs, zero-width spaces): nothing anyone could read.
        raise InvalidMemory("memory content has no visible characters")
    held = credential_in(content)
    if held is not None:
        # A memory is read back into other prompts and shown by /memory: a secret has no place there.
        raise InvalidMemory(f"memory content holds {held}; credentials are never stored as memories")
    if len(content) > MAX_MEMORY_CHARS:
        raise InvalidMemory(
            f"memory content is too long ({len(content)} characters, at most {MAX_MEMORY_CHARS})"
        )
    try:
        memory_type = MemoryType(draft.memory_type)
    except ValueError:
        raise InvalidMemory(f"unknown memory type {draft.memory_type!r}") from None
    expires = ttl_expires_at(draft.ttl, created) if draft.ttl is not None else draft.expires_at
    if expires is not None and expires <= created:
        raise InvalidMemory("memory expires before it is written")
    importance = DEFAULT_IMPORTANCE[memory_type] if draft.importance is None else float(draft.importance)
    if not 0.0 <= importance <= 1.0:
        raise InvalidMemory(f"importance must be between 0 and 1, got {importance}")
    if not 0.0 <= float(draft.confidence) <= 1.0:
        raise InvalidMemory(f"confidence must be between 0 and 1, got {draft.confidence}")
    if any(s and not isinstance(s, str) for s in draft.subjects):
        raise InvalidMemory("subjects must be strings")
    # Subjects are stored as SQLite text too: an unpaired surrogate would fail the insert.
    subjects = [s.encode("utf-8", "replace").decode("utf-8") for s in draft.subjects if s]
    subjects = list(dict.fromkeys(s.strip().casefold() for s in subjects if s.strip()))[:12]
    return Memory(
        id=new_id(),
        content=content,
        memory_type=memory_type,
        importance=importance,
        confidence=float(draft.confidence),
        subjects=subjects,
        source=draft.source,
        scope=draft.scope,
        user_id=draft.user_id,
        author_id=draft.author_id,
        visibility=Visibility(draft.visibility),
        created_at=created,
        updated_at=created,
        expires_at=expires,
        content_hash=content_hash(content),
        sources=list(draft.sources),
        fact=draft.fact,
    )
