"""An incoming message's place in memory: its scope, audience, visibility and stored row."""

from __future__ import annotations

import dataclasses
import uuid

from adapters.base import IncomingMessage
from memory.models import Audience, Conversation, Scope, StoredMessage, Visibility

MAX_MESSAGE_CHARS = 40_000  # longer messages are stored truncated; models and embedders choke on more

# A batch's messages that someone said (not system notices), each with its stored row.
Speaking = list[tuple[IncomingMessage, StoredMessage]]


def scope_of(message: IncomingMessage, agent_id: str) -> Scope:
    """Where `message` was said, for the bot `agent_id`."""
    return Scope(message.platform, message.workspace_id, message.channel_id, agent_id, message.thread_id)


def audience_of(message: IncomingMessage, agent_id: str) -> Audience:
    """What a conversation may see: its workspace's shared memories, its own channel's, and in a
    DM the author's private notes and what they said about themselves in other workspaces."""
    return Audience(
        platform=message.platform,
        workspace_id=message.workspace_id,
        agent_id=agent_id,
        viewer_id=message.author_id,
        channel_id=message.channel_id,
        private_ok=message.is_dm,
        own_elsewhere=message.is_dm,
    )


def visibility_of(message: IncomingMessage) -> Visibility:
    """Who may be shown what is learned from `message`: decided by its conversation's kind."""
    return message.conversation.visibility


def conversation_of(message: IncomingMessage) -> Conversation:
    return Conversation(message.platform, message.workspace_id, message.channel_id, message.conversation)


def valid_utf8(text: str) -> str:
    """`text` with unpaired surrogates replaced: SQLite, LanceDB, logs and platform APIs all need UTF-8."""
    return text.encode("utf-8", "replace").decode("utf-8")


def clean_incoming(message: IncomingMessage) -> IncomingMessage:
    """`message` with valid UTF-8 text and author name."""
    # Platforms hand over JSON-decoded strings, and JSON can spell a lone surrogate ("\ud800").
    text, name = valid_utf8(message.text), valid_utf8(message.author_name)
    if text == message.text and name == message.author_name:
        return message
    return dataclasses.replace(message, text=text, author_name=name)


def to_stored(message: IncomingMessage, agent_id: str) -> StoredMessage:
    text = valid_utf8(message.text)[:MAX_MESSAGE_CHARS]
    return StoredMessage(
        id=uuid.uuid4().hex,
        scope=scope_of(message, agent_id),
        author_id=message.author_id,
        author_name=message.author_name,
        role="system" if message.is_system else "user",
        content=text,
        created_at=message.timestamp,
        external_id=message.external_id,
        visibility=visibility_of(message),
    )
