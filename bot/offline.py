"""The offline responder: answers from what memory recalls when no language model is configured."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime

from memory.models import Memory, StoredMessage

NO_MODEL_LINE = (
    "No language model is configured, so this is the offline responder "
    "(set ANTHROPIC_API_KEY or OPENAI_API_KEY for real replies)."
)


def _date(ts: float) -> str:
    return datetime.fromtimestamp(ts, UTC).strftime("%-d %b %Y")


def offline_reply(
    learned: Sequence[Memory], recalled: Sequence[Memory], recalled_turns: Sequence[StoredMessage] = ()
) -> str:
    """A plain, honest reply: what was just noted and what memory recalls for the message."""
    lines = [NO_MODEL_LINE]
    if learned:
        lines.append("Noted:")
        lines.extend(f"  - {m.content}" for m in learned)
    if recalled or recalled_turns:
        lines.append("What I remember that relates to this:")
        lines.extend(f"  - {m.content} ({m.memory_type.value}, {_date(m.created_at)})" for m in recalled)
        lines.extend(
            f'  - {t.author_name} said on {_date(t.created_at)}: "{t.content}"' for t in recalled_turns
        )
    elif not learned:
        lines.append("I don't remember anything related to this yet.")
    return "\n".join(lines)
