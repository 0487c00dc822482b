"""Work after the reply, off its path: summaries and episodes in order per channel, vector upkeep."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any

from memory.engine import MemoryEngine
from memory.models import Scope
from memory.prehook.injection_state import ChannelKey
from memory.summaries import SummaryManager

from ..llm_summarizer import ModelCallBudget

# One logger for the whole turn pipeline, whichever of its modules speaks.
log = logging.getLogger("bot.pipeline")


class Background:
    """The pipeline's background tasks: started here, awaited by `idle` and at shutdown."""

    def __init__(
        self, engine: MemoryEngine, summaries: SummaryManager, model_budget: ModelCallBudget
    ) -> None:
        self.engine = engine
        self.summaries = summaries
        self.model_budget = model_budget
        self._tasks: set[asyncio.Task[None]] = set()
        self._summarizing: dict[ChannelKey, asyncio.Task[None]] = {}
        self.maintenance: asyncio.Task[None] | None = None

    def spawn(self, coro: Coroutine[Any, Any, None]) -> asyncio.Task[None]:
        """Run `coro` in the background; `idle` waits for it."""
        task = asyncio.create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    def after_reply(
        self,
        key: ChannelKey,
        scope: Scope,
        message_ids: list[str],
        episodes: Callable[[], Awaitable[None]] | None,
    ) -> None:
        """Summaries and episodes off the reply path, in order per channel, model calls budgeted."""
        previous = self._summarizing.get(key)

        async def work() -> None:
            if previous is not None:
                await asyncio.gather(previous, return_exceptions=True)
            if episodes is not None:
                await episodes()
            with self.model_budget.message(message_ids[0]):
                try:
                    await self.summaries.after_turn(scope, message_ids)
                except Exception:
                    log.warning("background summary failed", exc_info=True)

        task = self.spawn(work())
        self._summarizing[key] = task
        task.add_done_callback(
            lambda t: self._summarizing.pop(key, None) if self._summarizing.get(key) is t else None
        )

    def schedule_maintenance(self) -> None:
        """Vector compaction runs in the background, one at a time, never on the reply path."""
        if self.engine.needs_maintenance and (self.maintenance is None or self.maintenance.done()):
            self.maintenance = asyncio.create_task(self._maintain())

    async def _maintain(self) -> None:
        try:
            await self.engine.maintain()
        except Exception:  # compaction failing must not take the bot down
            log.warning("vector maintenance failed", exc_info=True)

    async def idle(self) -> None:
        """Wait until the background work started so far is done."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)
