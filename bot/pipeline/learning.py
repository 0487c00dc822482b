"""Heuristic learning, no model call: memories from a message, the names people go by, episodes."""

from __future__ import annotations

import logging
from collections.abc import Callable, Coroutine
from dataclasses import dataclass
from datetime import UTC, datetime, tzinfo
from typing import Any

from adapters.base import IncomingMessage
from memory.engine import MemoryEngine, WriteResult
from memory.errors import InvalidInput
from memory.models import Fact, MemoryDraft, Source
from memory.people import AliasStore, ProfileStore, fact_in_profile, learn_aliases
from memory.text import Extracted, extract
from memory.text.episodes import Episode, detect_episodes
from memory.text.zones import zone_named

from .messages import Speaking, audience_of, scope_of, visibility_of

# One logger for the whole turn pipeline, whichever of its modules speaks.
log = logging.getLogger("bot.pipeline")

Spawn = Callable[[Coroutine[Any, Any, None]], None]
# What memories call a message's author, and the time zone their words are read in.
Author = tuple[str, tzinfo]


def _shown_fact(item: Extracted, speaker: str) -> Fact | None:
    """The fact to store with a memory learned of `speaker`: one their profile shows (the rest would
    be parsed on every read for no reader)."""
    fact = item.fact_about(speaker)
    return fact if fact is not None and fact_in_profile(fact) is not None else None


@dataclass(eq=False)
class Learner:
    """What the bot learns from what people say, before (and whether or not) it answers."""

    engine: MemoryEngine
    agent_id: str
    aliases: AliasStore
    profiles: ProfileStore
    # Background work (a rename) is run, and awaited at shutdown, by the pipeline.
    spawn: Spawn
    # The zone a message's "tomorrow" is read in when its author has not said theirs (MEMORY_TIMEZONE).
    tz: tzinfo = UTC

    async def speaker(self, message: IncomingMessage) -> Author:
        """What memories call the author (the name they said they go by, else their display name) and
        the time zone their words are read in (the one they said they are in, else the one their
        platform knows, else the bot's): at 02:00 UTC, "tomorrow" from someone in PST is the day
        after their evening, not after UTC's night."""
        platform_zone = zone_named(message.author_tz) if message.author_tz else None
        default = platform_zone or self.tz
        try:
            if message.is_dm:
                profile = await self.profiles.in_own_dm(audience_of(message, self.agent_id))
            else:
                profile = await self.profiles.get(
                    message.platform, message.workspace_id, message.author_id, self.agent_id
                )
        except Exception:  # a name only words the memory; the display name will do
            log.warning("profile unavailable for the author's name", exc_info=True)
            return message.author_name, default
        if profile is None:
            return message.author_name, default
        name = profile.known_name(include_private=message.is_dm)
        said = profile.time_zone(include_private=message.is_dm)
        return name or message.author_name, (zone_named(said) if said else None) or default

    async def learn(
        self, message: IncomingMessage, stored_id: str, author: tuple[str, tzinfo]
    ) -> list[WriteResult]:
        """Zero-cost heuristic extraction from one user message, said by `author` (`speaker`): the
        memories it wrote."""
        learned: list[WriteResult] = []
        speaker, zone = author
        now = datetime.fromtimestamp(message.timestamp, zone)
        for item in extract(message.text, speaker, now=now):
            if item.given_name is not None:
                # From now on memories call them so, and the earlier ones are reworded.
                self._rename_later(message, [message.author_name, speaker], item.given_name)
            draft = self._draft(
                message,
                item,
                [stored_id],
                created_at=message.timestamp,
                expires_at=item.expires_at,
                said_in=zone,
                fact=_shown_fact(item, speaker),
            )
            try:
                result = await self.engine.remember(draft)
            except InvalidInput as exc:
                log.debug("heuristic memory rejected", extra={"reason": str(exc)})
                continue
            except Exception:  # a storage or embedding failure costs this memory, not the turn
                log.warning("heuristic memory not stored", exc_info=True)
                continue
            if result.action in ("inserted", "superseded"):
                learned.append(result)
        return learned

    def _draft(
        self, message: IncomingMessage, found: Extracted | Episode, sources: list[str], **kw: Any
    ) -> MemoryDraft:
        """A heuristic memory `found` in what `message`'s author said: about them, written by them,
        kept in their conversation and as visible as their message."""
        return MemoryDraft(
            content=found.content,
            scope=scope_of(message, self.agent_id),
            memory_type=found.memory_type,
            subjects=list(found.subjects),
            confidence=found.confidence,
            source=Source.HEURISTIC,
            user_id=message.author_id,
            author_id=message.author_id,
            visibility=visibility_of(message),
            sources=sources,
            **kw,
        )

    def _rename_later(self, message: IncomingMessage, old_names: list[str], new_name: str) -> None:
        async def rename() -> None:
            try:
                await self.engine.rename_person(
                    scope_of(message, self.agent_id), message.author_id, old_names, new_name
                )
            except Exception:  # the old wording stays true enough; the next name statement retries
                log.warning("memories not renamed", exc_info=True)

        self.spawn(rename())

    async def learn_names(self, message: IncomingMessage) -> None:
        """The names a user goes by: their display name and any "call me …" they say."""
        names = [message.author_name, *learn_aliases(message.text, message.author_name)]
        try:
            await self.aliases.add_many(
                message.platform, message.workspace_id, message.author_id, names, message.timestamp
            )
        except Exception:  # names only widen searches; losing one must not cost the turn
            log.warning("alias update failed", exc_info=True)

    async def store_episodes(
        self, speaking: Speaking, reply: str, message_ids: list[str], author: Author
    ) -> None:
        """Decisions, dated commitments and reminders that need the exchange, not one message;
        `author` is what `speaker` gave for its last author when the turn began."""
        last = speaking[-1][0]
        text = "\n".join(m.text for m, _ in speaking if m.author_id == last.author_id)
        speaker, zone = author
        now = datetime.fromtimestamp(last.timestamp, zone)
        for episode in detect_episodes(text, reply, speaker, now):
            draft = self._draft(last, episode, list(message_ids), said_in=zone)
            try:
                await self.engine.remember(draft)
            except Exception:
                log.warning("episode not stored", exc_info=True)
