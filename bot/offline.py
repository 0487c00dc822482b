"""The offline responder: with no language model, it shows people what memory recalls for their
message, the very notes the pre-hook would give a model."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, tzinfo

from memory.models import Memory
from memory.prehook import PrehookResult
from memory.prehook.context_block import BlockItem, Section, day_heading, short_date, timeline_days

NO_MODEL_LINE = (
    "No language model is configured, so this is the offline responder "
    "(set ANTHROPIC_API_KEY or OPENAI_API_KEY for real replies)."
)
RECALL_HEADER = "What I remember that relates to this (what a model would be given):"
NOTHING_RECALLED = "I don't remember anything related to this yet."
ALREADY_SHOWN = "Nothing new from memory: what I recalled earlier in this conversation still stands."
HOW_TO_FORGET = (
    "I don't delete notes from chat, and I did not note this: `/memory search` finds a note and "
    "`/memory forget <id>` removes it."
)
_SECTIONS = (Section.IDENTITY, Section.PREFERENCES, Section.RELEVANT, Section.RECENT, Section.MESSAGES)
_MAX_CHARS = 300


def _short(text: str, limit: int = _MAX_CHARS) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def _line(item: BlockItem, now: float, tz: tzinfo) -> str:
    if item.memory is not None:
        memory = item.memory
        return (
            f"{_short(memory.content)} ({memory.memory_type.value}, {short_date(memory.created_at, now, tz)})"
        )
    if item.summary is not None:
        summary = item.summary
        return f"{short_date(summary.covers_from, now, tz)}, in short: {_short(summary.content)}"
    message = item.message
    assert message is not None
    line = (
        f'{short_date(message.created_at, now, tz)}, {message.author_name} said: "{_short(message.content)}"'
    )
    for after in item.follow_ups:
        line += f'; then {after.author_name}: "{_short(after.content)}"'
    return line


def _timeline_line(item: BlockItem) -> str:
    if item.message is not None:
        return f'{item.message.author_name} said: "{_short(item.message.content)}"'
    assert item.memory is not None
    return f"noted ({item.memory.memory_type.value}): {_short(item.memory.content)}"


def offline_reply(
    learned: Sequence[Memory],
    hook: PrehookResult | None,
    now: float,
    tz: tzinfo = UTC,
    forget_asked: bool = False,
) -> str:
    """A plain, honest reply: what was just noted, then what the pre-hook recalled, by section,
    and for "what did we talk about…" the timeline of the period, day by day; when the message asked
    to forget something (`forget_asked`), first how a note is removed."""
    lines = [NO_MODEL_LINE]
    if forget_asked:
        lines.append(HOW_TO_FORGET)
    if learned:
        lines.append("Noted:")
        lines.extend(f"  - {m.content}" for m in learned)
    items = hook.included if hook is not None else []
    timeline = hook.timeline if hook is not None else None
    shown = [i for i in items if i.section is not Section.TIMELINE]
    if shown or timeline is not None:
        lines.append(RECALL_HEADER)
    for section in _SECTIONS:
        chosen = sorted((i for i in shown if i.section is section), key=lambda i: i.score, reverse=True)
        if chosen:
            lines.append(f"{section.value}:")
            lines.extend(f"  - {_line(i, now, tz)}" for i in chosen)
    if timeline is not None:
        until = max(timeline.since, timeline.until - 1)
        first, last = short_date(timeline.since, now, tz), short_date(until, now, tz)
        span = first if first == last else f"{first} – {last}"
        entries = [i for i in items if i.section is Section.TIMELINE]
        days = timeline_days(timeline, entries, tz)
        if not days:
            lines.append(f"No past conversations from {timeline.label} ({span}).")
        else:
            lines.append(f"Our conversations, {timeline.label} ({span}):")
            for day, activity, group in days:
                lines.append(f"  {day_heading(day, activity, now, tz)}")
                lines.extend(f"    - {_timeline_line(i)}" for i in group)
    elif not shown and not learned:
        recalled_before = hook is not None and hook.already_shown > 0
        lines.append(ALREADY_SHOWN if recalled_before else NOTHING_RECALLED)
    return "\n".join(lines)
