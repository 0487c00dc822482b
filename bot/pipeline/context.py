"""What the model is shown besides the batch: participants, the history window, summaries, profiles."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from datetime import tzinfo

from adapters.base import IncomingMessage
from memory.engine import MemoryEngine
from memory.models import Audience, Scope, StoredMessage, Summary
from memory.people import AliasStore, ProfileStore, ProfileUpdater, compact
from memory.prehook import PrehookRequest
from memory.summaries import SummaryManager

from ..config import Settings
from ..history import summaries_message, window
from .messages import Speaking, audience_of, scope_of

# One logger for the whole turn pipeline, whichever of its modules speaks.
log = logging.getLogger("bot.pipeline")


class TurnContextReader:
    """Reads, for one batch, what surrounds it in memory; a failed read costs context, never the turn."""

    def __init__(
        self,
        engine: MemoryEngine,
        settings: Settings,
        tz: tzinfo,
        summaries: SummaryManager,
        aliases: AliasStore,
        profiles: ProfileStore,
        profile_updater: ProfileUpdater,
    ) -> None:
        self.engine = engine
        self.settings = settings
        self.agent_id = settings.storage.agent_id
        self.tz = tz
        self.summaries = summaries
        self.aliases = aliases
        self.profiles = profiles
        self.profile_updater = profile_updater

    async def context_of(self, speaking: Speaking) -> tuple[list[str], list[StoredMessage]]:
        """Who takes part (the authors and whoever their names stand for) and the history window."""
        last = speaking[-1][0]
        authors = list(dict.fromkeys(m.author_id for m, _ in speaking))
        names = list(dict.fromkeys(m.author_name for m, _ in speaking if m.author_name))
        participants, recent = await asyncio.gather(
            self._participants(last, authors, names),
            self.engine.recent_turns(scope_of(last, self.agent_id), self.settings.history.max_messages),
        )
        history = self.settings.history
        return participants, window(recent, history.max_messages, history.max_chars)

    def prehook_request(
        self, speaking: Speaking, participants: list[str], present: set[str], zone: tzinfo | None = None
    ) -> PrehookRequest:
        """The pre-hook's view of a batch: its text, its conversation, who reads the reply, and the
        zone its last author lives in (`zone`), where the dates their question names begin."""
        last = speaking[-1][0]
        return PrehookRequest(
            text="\n".join(m.text for m, _ in speaking),
            scope=scope_of(last, self.agent_id),
            viewer=audience_of(last, self.agent_id),
            participants=participants,
            exclude_message_ids=[row.id for _, row in speaking],
            in_context_message_ids=list(present),
            asker_tz=zone,
        )

    async def compacted(
        self, scope: Scope, audience: Audience, window_rows: Sequence[StoredMessage]
    ) -> tuple[str | None, Summary | None]:
        """What stands in for turns older than the window: their summaries, and the thread summary."""
        start = window_rows[0].created_at if window_rows else float("inf")
        try:
            pending, thread = await asyncio.gather(
                self.summaries.pending_level1(scope, audience), self.summaries.thread_summary(scope, audience)
            )
        except Exception:  # summaries only add context; a failure must not cost the reply
            log.warning("summaries unavailable for the prompt", exc_info=True)
            return None, None
        older = [s for s in pending if s.covers_to < start]
        return summaries_message(older, self.settings.history.summary_chars, self.tz), thread

    async def _participants(self, last: IncomingMessage, authors: list[str], names: list[str]) -> list[str]:
        """The batch's authors plus every user id their names stand for ("dev" is Mickael)."""
        try:
            known = await self.aliases.resolve_users(last.platform, last.workspace_id, [*authors, *names])
        except Exception:
            log.warning("alias lookup failed", exc_info=True)
            known = []
        return list(dict.fromkeys([*authors, *known]))

    async def profile_lines(self, last: IncomingMessage, authors: list[str]) -> list[str]:
        """One compact line per author from their profile; a DM adds its author's private facts."""
        try:
            # A fact forgotten a moment ago must already be gone from its user's profile line.
            await self.profile_updater.settle_forgets()
            found = await self.profiles.get_many(last.platform, last.workspace_id, authors, self.agent_id)
        except Exception:
            log.warning("profiles unavailable for the prompt", exc_info=True)
            return []
        if last.is_dm:
            # A DM is the one place a user's private profile facts may be shown, and only their
            # own; with what they said about themselves in the platform's other workspaces.
            try:
                own = await self.profiles.in_own_dm(audience_of(last, self.agent_id))
            except Exception:
                log.warning("profile unavailable for the prompt", exc_info=True)
                own = None
            if own is not None:
                found[last.author_id] = own
        return [
            line
            for user in authors
            if (line := compact(found.get(user), include_private=last.is_dm and user == last.author_id))
        ]
