"""What a turn is embedded and full-text indexed under (the same for every storage backend)."""

from __future__ import annotations

from datetime import UTC, datetime

from .models import StoredMessage
from .text.sentences import split_sentences

# A turn this soon after the previous one in its conversation is read as an answer to it.
REPLY_GAP_SECONDS = 3600.0


def message_embed_text(message: StoredMessage) -> str:
    """What a turn's vector is computed from: who said it and on which day, then what was said.

    The bare words of chat turns ("yes, last Friday!") say little; with the speaker and the
    date, a question that names the person or the period lands nearer to their turns.
    """
    day = datetime.fromtimestamp(message.created_at, UTC)
    return f"{message.author_name or message.author_id} ({day.day} {day:%B %Y}): {message.content}"


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
