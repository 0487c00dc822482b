"""The turn pipeline: store incoming messages, learn from them, recall, reply, store the reply."""

from __future__ import annotations

import asyncio
import logging
import time
import uuid
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime

from adapters.base import IncomingMessage
from memory.engine import MemoryEngine
from memory.extraction import extract
from memory.models import (
    Audience,
    Memory,
    MemoryDraft,
    Scope,
    Source,
    StoredMessage,
    Visibility,
    normalize_text,
)

from .config import Settings
from .offline import offline_reply

log = logging.getLogger(__name__)

MAX_MESSAGE_CHARS = 40_000  # longer messages are stored truncated; models and embedders choke on more


@dataclass(slots=True)
class TurnResult:
    reply: str | None
    learned: list[Memory] = field(default_factory=list)
    stored_message_ids: list[str] = field(default_factory=list)


def scope_of(message: IncomingMessage, agent_id: str) -> Scope:
    return Scope(message.platform, message.workspace_id, message.channel_id, agent_id, message.thread_id)


def audience_of(message: IncomingMessage, agent_id: str) -> Audience:
    """What a conversation may see: its workspace, its channel, and private notes only in the author's DM."""
    return Audience(
        platform=message.platform,
        workspace_id=message.workspace_id,
        agent_id=agent_id,
        viewer_id=message.author_id,
        channel_id=message.channel_id,
        private_ok=message.is_dm,
    )


def visibility_of(message: IncomingMessage) -> Visibility:
    return Visibility.PRIVATE if message.is_dm else Visibility.WORKSPACE


def to_stored(message: IncomingMessage, agent_id: str) -> StoredMessage:
    text = message.text.encode("utf-8", "replace").decode("utf-8")[:MAX_MESSAGE_CHARS]
    return StoredMessage(
        id=uuid.uuid4().hex,
        platform=message.platform,
        workspace_id=message.workspace_id,
        channel_id=message.channel_id,
        thread_id=message.thread_id,
        agent_id=agent_id,
        author_id=message.author_id,
        author_name=message.author_name,
        role="system" if message.is_system else "user",
        content=text,
        created_at=message.timestamp,
        external_id=message.external_id,
        visibility=visibility_of(message),
    )


class TurnPipeline:
    """One batch of a channel's messages in, at most one reply out."""

    def __init__(self, engine: MemoryEngine, settings: Settings) -> None:
        self.engine = engine
        self.settings = settings
        self.agent_id = settings.storage.agent_id
        self._maintenance: asyncio.Task[None] | None = None

    async def learn(self, message: IncomingMessage, stored_id: str) -> list[Memory]:
        """Zero-cost heuristic extraction from one user message into memories."""
        learned: list[Memory] = []
        now = datetime.fromtimestamp(message.timestamp, UTC)
        for item in extract(message.text, message.author_name, now=now):
            draft = MemoryDraft(
                content=item.content,
                scope=scope_of(message, self.agent_id),
                memory_type=item.memory_type,
                subjects=item.subjects,
                confidence=item.confidence,
                source=Source.HEURISTIC,
                user_id=message.author_id,
                author_id=message.author_id,
                visibility=visibility_of(message),
                sources=[stored_id],
                created_at=message.timestamp,
            )
            try:
                result = await self.engine.remember(draft)
            except ValueError as exc:
                log.debug("heuristic memory rejected", extra={"reason": str(exc)})
                continue
            if result.action in ("inserted", "superseded"):
                learned.append(result.memory)
        return learned

    async def handle(self, batch: Sequence[IncomingMessage]) -> TurnResult:
        """Store the batch, learn from it, recall what relates, and answer."""
        messages = [m for m in batch if m.text and m.text.strip()]
        if not messages:
            return TurnResult(reply=None)
        stored = [to_stored(m, self.agent_id) for m in messages]
        new_ids = set(await self.engine.store_messages(stored))
        learned: list[Memory] = []
        for message, row in zip(messages, stored, strict=True):
            if row.id in new_ids and not message.is_system:
                learned.extend(await self.learn(message, row.id))
        last = messages[-1]
        if all(m.is_system for m in messages):
            return TurnResult(reply=None, learned=learned, stored_message_ids=list(new_ids))
        text = "\n".join(m.text for m in messages if not m.is_system)
        audience = audience_of(last, self.agent_id)
        threshold = self.settings.memory.search_threshold
        vector = (await self.engine.embedder.embed([text]))[0]
        learned_ids = {m.id for m in learned}
        hits = await self.engine.search(text, audience, limit=5, threshold=threshold, vector=vector)
        recalled = [h.memory for h in hits if h.memory.id not in learned_ids]
        turns = await self.engine.search_messages(
            text, audience, limit=3, threshold=threshold, vector=vector, exclude=list(new_ids)
        )
        asked = {normalize_text(m.text) for m in messages}
        recalled_turns = [m for m, _ in turns if m.role == "user" and normalize_text(m.content) not in asked]
        reply = offline_reply(learned, recalled, recalled_turns)
        await self._store_reply(last, reply)
        self._schedule_maintenance()
        return TurnResult(reply=reply, learned=learned, stored_message_ids=list(new_ids))

    def _schedule_maintenance(self) -> None:
        """Vector compaction runs in the background, one at a time, never on the reply path."""
        if self.engine.needs_maintenance and (self._maintenance is None or self._maintenance.done()):
            self._maintenance = asyncio.create_task(self._maintain())

    async def _maintain(self) -> None:
        try:
            await self.engine.maintain()
        except Exception:  # compaction failing must not take the bot down
            log.warning("vector maintenance failed", exc_info=True)

    async def aclose(self) -> None:
        """Wait for background work to finish before the stores close."""
        if self._maintenance is not None:
            await self._maintenance

    async def _store_reply(self, to: IncomingMessage, text: str) -> None:
        reply = StoredMessage(
            id=uuid.uuid4().hex,
            platform=to.platform,
            workspace_id=to.workspace_id,
            channel_id=to.channel_id,
            thread_id=to.thread_id,
            agent_id=self.agent_id,
            author_id="memorybot",
            author_name="memorybot",
            role="assistant",
            content=text,
            created_at=max(time.time(), to.timestamp),
            visibility=visibility_of(to),
        )
        await self.engine.store_messages([reply])
