"""Event intake: a Slack message or app_mention event read into an IncomingMessage, or left alone."""

from __future__ import annotations

import math
import re
import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from memory.models import ConversationKind

from ..attachment_notes import attachment_note, with_notes
from ..base import IncomingMessage
from ..lookup_cache import LookupCache
from .api import PLATFORM
from .directory import EVENT_KINDS
from .render import escape_mrkdwn, strip_mention

# Plain messages and the two subtypes that are still someone talking; edits, deletes, joins,
# topic changes and the like are not turns.
_ANSWERABLE_SUBTYPES = frozenset({None, "thread_broadcast", "file_share"})


@dataclass(frozen=True, slots=True)
class Following:
    """Which channels the bot answers in and which it only learns from (the settings' lists)."""

    answer: frozenset[str]
    learn: frozenset[str]


def to_message(
    body: dict[str, Any],
    event: dict[str, Any],
    kind: str,
    *,
    bot_user_id: str | None,
    team_id: str | None,
    following: Following,
    kinds: LookupCache[str, ConversationKind],
) -> IncomingMessage | None:
    """The event as an IncomingMessage, or None when the bot should not take it at all.

    Every field is read as Slack documents it and anything else (a number for a string, an
    object for an id) counts as missing: a malformed event is dropped, never half-taken.
    A `channel_type` the event carries is recorded in `kinds`.
    """
    subtype = event.get("subtype")
    if subtype is not None and not isinstance(subtype, str):
        return None
    if event.get("bot_id") or subtype == "bot_message" or subtype not in _ANSWERABLE_SUBTYPES:
        return None
    user, channel, ts = string_field(event, "user"), string_field(event, "channel"), string_field(event, "ts")
    if not user or not channel or not ts:
        return None
    bot_user_id = bot_user_id or _bot_user_from(body)
    if user == bot_user_id:
        return None
    raw_text = event.get("text")
    text = raw_text if isinstance(raw_text, str) else ""
    channel_type = event.get("channel_type")
    conversation = EVENT_KINDS.get(channel_type) if isinstance(channel_type, str) else None
    if conversation is None and str(channel).startswith("D"):
        conversation = ConversationKind.DM
    if conversation is not None:
        # The event's own word is the freshest: a channel converted to private says so here.
        kinds.put(str(channel), conversation)
    is_dm = conversation is ConversationKind.DM
    mentioned = bool(bot_user_id) and _mentions(text, bot_user_id)
    if kind == "app_mention":
        mentions_bot = True
    elif is_dm:
        mentions_bot = True
    elif channel in following.answer:
        mentions_bot = mentioned
    elif channel in following.learn:
        mentions_bot = mentioned
    else:
        # Not a channel we follow: a mention here also comes as app_mention, handled there.
        return None
    # A shared file's alt text or title says what it shows; written in Slack's escapes, so that
    # reading the batch's markup back (directory.with_plain_text) gives it as typed.
    clean = with_notes(strip_mention(text, bot_user_id), [escape_mrkdwn(note) for note in _file_notes(event)])
    if not clean:
        return None
    team = string_field(body, "team_id") or string_field(event, "team") or team_id or ""
    try:
        timestamp = float(ts)
    except ValueError:
        timestamp = time.time()
    if not math.isfinite(timestamp):
        timestamp = time.time()
    return IncomingMessage(
        platform=PLATFORM,
        workspace_id=team,
        channel_id=channel,
        author_id=user,
        # Filled in by the batch handler from users.info, off the ack path.
        author_name=user,
        text=clean,
        timestamp=timestamp,
        thread_id=string_field(event, "thread_ts"),
        external_id=f"{channel}:{ts}",
        # Until the batch handler resolves it (off the ack path), the narrowest kind.
        kind=conversation or ConversationKind.PRIVATE,
        mentions_bot=mentions_bot,
    )


def _file_notes(event: Mapping[str, Any]) -> list[str]:
    """One note per file the event shares (`files`, as a `file_share` message carries them)."""
    files = event.get("files")
    if not isinstance(files, list):
        return []
    notes = []
    for shared in files:
        if not isinstance(shared, Mapping):
            continue
        name, title = shared.get("name"), shared.get("title")
        # Slack titles a file with its name unless its author wrote one.
        described = shared.get("alt_txt") or (title if title != name else None)
        if note := attachment_note(name, described, shared.get("mimetype")):
            notes.append(note)
    return notes


def string_field(data: Mapping[str, Any], key: str) -> str | None:
    """A string field of a Slack payload, or None when it is missing, empty or not a string."""
    value = data.get(key)
    return value if isinstance(value, str) and value else None


def _mentions(text: str, user_id: str) -> bool:
    return re.search(rf"<@{re.escape(user_id)}(\|[^>]*)?>", text) is not None


def _bot_user_from(body: dict[str, Any]) -> str | None:
    """The bot user id from the payload's `authorizations`, before auth.test has answered."""
    for entry in body.get("authorizations") or []:
        if isinstance(entry, dict) and entry.get("is_bot") and entry.get("user_id"):
            return str(entry["user_id"])
    return None
