"""What a turn is embedded and full-text indexed under (the same for every storage backend)."""

from __future__ import annotations

import logging
from datetime import UTC, date, datetime, time

from .models import StoredMessage
from .text import date_mentions
from .text.periods import period_end
from .text.sentences import split_sentences

log = logging.getLogger(__name__)

# A turn this soon after the previous one in its conversation is read as an answer to it.
REPLY_GAP_SECONDS = 3600.0
# The days a turn tells of are read from its start: a pasted document names dates by the
# hundred, and reading it all would cost a write more than its dates are worth.
TOLD_SCAN_CHARS = 2000


def message_embed_text(message: StoredMessage) -> str:
    """What a turn's vector is computed from: who said it and on which day, then what was said.

    The bare words of chat turns ("yes, last Friday!") say little; with the speaker and the
    date, a question that names the person or the period lands nearer to their turns.
    """
    day = datetime.fromtimestamp(message.created_at, UTC)
    return f"{message.author_name or message.author_id} ({day.day} {day:%B %Y}): {message.content}"


def told_days(message: StoredMessage) -> tuple[float, float] | None:
    """The days a turn tells of, read on the day it was said: [the first day of the first period
    its words name, the day after the last one), as UTC midnights (the day `message_embed_text`
    gives it); None when it names no date.

    A turn often tells of days before the one it was said on ("my trip to the UK last Friday",
    said on Thursday 16 November 2023, tells of Friday 10 November), so a question about that
    period finds it by what it tells as well as by when it was said.
    """
    said = datetime.fromtimestamp(message.created_at, UTC)
    try:
        mentions = date_mentions(message.content[:TOLD_SCAN_CHARS], said)
    except Exception:
        # The turn is stored all the same, found by when it was said; the failure is a bug to see.
        log.warning("the days a turn tells of could not be read", extra={"id": message.id}, exc_info=True)
        return None
    if not mentions:
        return None
    first = min(day for day, _ in mentions)
    last = max(period_end(day, unit) for day, unit in mentions)
    return told_bounds(first, last)


def told_bounds(first: date, end: date) -> tuple[float, float]:
    """The days from `first` to the day before `end` as `told_days` writes them: UTC midnights."""
    return (
        datetime.combine(first, time(0), tzinfo=UTC).timestamp(),
        datetime.combine(end, time(0), tzinfo=UTC).timestamp(),
    )


def message_search_text(message: StoredMessage, previous: StoredMessage | None = None) -> str:
    """The text a turn is indexed under for full-text search: its words after those of the turn
    it answers (when that came shortly before), so a reply is found by the question's words.

    Speaker names stay out: every turn of a person would match a question that names them.
    """
    if previous is None or not 0 <= message.created_at - previous.created_at <= REPLY_GAP_SECONDS:
        return message.content
    return f"{previous.content}\n{message.content}"


def ends_on_a_question(message: StoredMessage) -> bool:
    """Whether a turn's last sentence asks something: the turn after it is then its answer, worth
    showing with it; after a statement the next turn is mostly a reaction that only costs tokens."""
    sentences = split_sentences(message.content)
    return bool(sentences) and sentences[-1][1]
