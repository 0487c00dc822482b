"""Access counts of injected memories, gathered in RAM and written in one transaction every few seconds."""

from __future__ import annotations

import asyncio
import logging
from collections import Counter
from collections.abc import Sequence

from ..storage import MemoryRepository

log = logging.getLogger(__name__)

# Counts only tune later ranking (`usage`): a few seconds late, or lost with a killed process,
# they cost nothing, while one synced write per reply would queue behind the next reply's reads.
FLUSH_AFTER_SECONDS = 5.0


class AccessCounts:
    """Collects `add(ids, now)` calls and writes them together `flush_after` seconds after the first.

    Nothing is scheduled while nothing is pending, so an idle bot never wakes for it.
    """

    def __init__(self, memories: MemoryRepository, flush_after: float = FLUSH_AFTER_SECONDS) -> None:
        self.memories = memories
        self.flush_after = flush_after
        self._pending: Counter[str] = Counter()
        self._latest = 0.0
        self._timer: asyncio.TimerHandle | None = None
        self._flushing: set[asyncio.Task[None]] = set()

    @property
    def pending(self) -> int:
        return len(self._pending)

    def add(self, ids: Sequence[str], now: float) -> None:
        """Count one access of each id at `now`; the write follows within `flush_after` seconds."""
        if not ids:
            return
        self._pending.update(ids)
        self._latest = max(self._latest, now)
        if self._timer is None:
            self._timer = asyncio.get_running_loop().call_later(self.flush_after, self._start_flush)

    def _start_flush(self) -> None:
        self._timer = None
        task = asyncio.get_running_loop().create_task(self.flush())
        self._flushing.add(task)
        task.add_done_callback(self._flushing.discard)

    async def flush(self) -> None:
        """Write every pending count now (one transaction); a failure is logged and the counts dropped."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        if not self._pending:
            return
        counts, self._pending = self._pending, Counter()
        try:
            await self.memories.bump_access(counts, self._latest)
        except Exception:
            log.warning("access count update failed", extra={"memories": len(counts)}, exc_info=True)

    def discard(self) -> None:
        """Drop the pending counts unwritten (a benchmark's questions must not rank each other)."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        self._pending.clear()

    async def aclose(self) -> None:
        """Write what is pending and wait for writes under way."""
        await self.flush()
        while self._flushing:
            await asyncio.gather(*list(self._flushing), return_exceptions=True)
