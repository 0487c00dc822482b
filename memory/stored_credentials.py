"""Credentials in stored turns: masked as a turn is stored, and masked in what older versions kept."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from .embedders import Embedder
from .models import StoredMessage, SummaryKind
from .storage import Storage
from .text import without_credentials


@dataclass(frozen=True, slots=True)
class MaskReport:
    """What `MemoryEngine.mask_stored_credentials` found holding a credential (and masked, unless a
    dry run)."""

    turns: int = 0
    summaries: int = 0

    def to_dict(self) -> dict[str, int]:
        return {"turns": self.turns, "summaries": self.summaries}


def masked_turn(message: StoredMessage, secrets: Sequence[str]) -> StoredMessage:
    """`message` as it may be stored: the same row with its credentials masked (a copy, if any)."""
    content = without_credentials(message.content, secrets)
    tool_calls = [_masked(call, secrets) for call in message.tool_calls]
    if content == message.content and tool_calls == message.tool_calls:
        return message
    return replace(message, content=content, tool_calls=tool_calls)


def _masked(value: Any, secrets: Sequence[str]) -> Any:
    """A tool call's logged arguments or result with every string's credentials masked."""
    if isinstance(value, str):
        return without_credentials(value, secrets)
    if isinstance(value, dict):
        return {key: _masked(item, secrets) for key, item in value.items()}
    if isinstance(value, list):
        return [_masked(item, secrets) for item in value]
    return value


async def mask_stored(storage: Storage, embedder: Embedder, dry_run: bool, batch: int) -> MaskReport:
    """Rewrite, a page at a time, the stored turns and summaries that still hold a credential; the
    turns come back unindexed (their vectors were made from the old text), for the caller to index."""
    turns = 0
    after = ""
    while page := await storage.turns.page(after, batch):
        after = page[-1].id
        changed = [masked for m in page if (masked := masked_turn(m, ())) is not m]
        turns += len(changed)
        if changed and not dry_run:
            await storage.turns.rewrite(changed)
    summaries = 0
    after = ""
    store = storage.summaries
    while listed := await store.page(after, batch):
        after = listed[-1].id
        changed = [
            replace(s, content=c) for s in listed if (c := without_credentials(s.content)) != s.content
        ]
        summaries += len(changed)
        if not changed or dry_run:
            continue
        # A thread summary is never searched: it has no vector to make again.
        searched = [m for m in changed if m.kind is not SummaryKind.THREAD]
        made = await embedder.embed([m.content for m in searched]) if searched else []
        vectors = {m.id: vector for m, vector in zip(searched, made, strict=True)}
        for summary in changed:
            await store.rewrite(summary, vectors.get(summary.id))
    return MaskReport(turns, summaries)
