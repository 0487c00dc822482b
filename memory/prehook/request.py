"""What a pre-hook run is asked (`PrehookRequest`) and what it gives back (`PrehookResult`)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import tzinfo

from ..models import Audience, Memory, Scope, StoredMessage, Summary
from .context_block import BlockItem, Timeline
from .meta_questions import MetaQuestion


@dataclass(slots=True, kw_only=True)
class PrehookRequest:
    """One batch about to be answered: its combined text, where it happens, and who reads the reply."""

    text: str
    # The conversation the batch is in: its injection state, and "recent" when `channel_scope`.
    scope: Scope
    viewer: Audience
    participants: Sequence[str] = ()
    is_system: bool = False
    # Turns of the batch itself (already stored): a meta question must not find itself.
    exclude_message_ids: Sequence[str] = ()
    # Turns the model already has in its history window: never injected again as notes.
    in_context_message_ids: Sequence[str] = ()
    # Where the asker is: "yesterday" in their question begins at their midnight. None: the hook's zone.
    asker_tz: tzinfo | None = None


@dataclass(slots=True)
class PrehookResult:
    """What the hook injected and why; `candidates_ranked` is every active candidate, best first.

    Candidates are memories and past turns (`StoredMessage`); `injected` holds the memories
    that made it into the block and `injected_messages` the past turns.
    """

    block: str | None = None
    injected: list[Memory] = field(default_factory=list)
    candidates_ranked: list[tuple[Memory | StoredMessage | Summary, float]] = field(default_factory=list)
    injected_messages: list[StoredMessage] = field(default_factory=list)
    injected_summaries: list[Summary] = field(default_factory=list)
    stage_ms: dict[str, float] = field(default_factory=dict)
    skipped_reason: str | None = None
    meta: MetaQuestion | None = None
    tokens: int = 0
    items: int = 0  # lines of the block: a turn with its follow-ups is one
    turn: int | None = None
    errors: list[str] = field(default_factory=list)
    # The block's lines as data (memories, turns, summaries, timeline entries), for renderers
    # other than the model's block: the offline responder shows the same recall to people.
    included: list[BlockItem] = field(default_factory=list)
    timeline: Timeline | None = None
    # Relevant candidates left out because this conversation was given them recently.
    already_shown: int = 0
