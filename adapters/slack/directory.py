"""Who and where: users' names and admin flags, and each conversation's kind, looked up and cached."""

from __future__ import annotations

import asyncio
import dataclasses
import logging
from dataclasses import dataclass
from typing import Any

from slack_sdk.web.async_client import AsyncWebClient

from memory.models import Conversation, ConversationKind

from ..base import ConversationsFound, IncomingMessage
from ..lookup_cache import LookupCache
from .api import PLATFORM, error_code
from .guards import loggable_id
from .markup import mentioned_users, plain_text

log = logging.getLogger(__name__)

# The `channel_type` of message events: a public channel, a private one, a group DM, a DM.
EVENT_KINDS = {
    "channel": ConversationKind.PUBLIC,
    "group": ConversationKind.PRIVATE,
    "mpim": ConversationKind.GROUP,
    "im": ConversationKind.DM,
}
# Users a batch mentions that are looked up by name; more (a message pasting a member list) keep
# the label or id Slack sent, rather than cost a users.info call each.
MENTIONS_LOOKED_UP = 20
# What conversations.list returns at start-up: the members-only conversations the bot is in.
_MEMBERS_ONLY_TYPES = "private_channel,mpim"


@dataclass(frozen=True, slots=True)
class SlackUser:
    """What the adapter needs from `users.info`."""

    user_id: str
    display_name: str
    is_admin: bool = False
    tz: str | None = None  # the profile's time zone ("America/Los_Angeles")


class SlackDirectory:
    """users.info and conversations.info/list behind caches; concurrent lookups of one id share a call."""

    def __init__(self, client: AsyncWebClient, cache_seconds: float) -> None:
        self.client = client
        self._users: LookupCache[str, SlackUser] = LookupCache(self._fetch_user, cache_seconds)
        # What kind of conversation each channel is: from message events' `channel_type`, else
        # conversations.info (app mentions and commands carry no type).
        self.kinds: LookupCache[str, ConversationKind] = LookupCache(self._fetch_kind, cache_seconds)

    # --- users -------------------------------------------------------------------------------------

    async def user(self, user_id: str) -> SlackUser:
        """users.info, cached; concurrent lookups of one user share a call; falls back to the id."""
        return await self._users.get(user_id)

    async def _fetch_user(self, user_id: str) -> tuple[SlackUser, bool]:
        try:
            response = await self.client.users_info(user=user_id)
            data = response.get("user") or {}
        except Exception as exc:
            log.warning(
                "slack users.info failed", extra={"user_id": loggable_id(user_id), "error": error_code(exc)}
            )
            # Not cached: the next turn tries again.
            return SlackUser(user_id, user_id), False
        profile = data.get("profile") or {}
        display = (
            profile.get("display_name")
            or profile.get("real_name")
            or data.get("real_name")
            or data.get("name")
            or user_id
        )
        is_admin = bool(data.get("is_admin") or data.get("is_owner") or data.get("is_primary_owner"))
        tz = data.get("tz")
        return SlackUser(user_id, str(display), is_admin, tz if isinstance(tz, str) and tz else None), True

    async def with_authors(self, batch: list[IncomingMessage]) -> list[IncomingMessage]:
        """Each message with its author's display name, admin flag and time zone, from users.info."""
        ids = list(dict.fromkeys(m.author_id for m in batch))
        users = dict(zip(ids, await asyncio.gather(*(self.user(uid) for uid in ids)), strict=True))
        return [
            dataclasses.replace(
                m,
                author_name=users[m.author_id].display_name,
                author_is_admin=users[m.author_id].is_admin,
                author_tz=users[m.author_id].tz,
            )
            for m in batch
        ]

    async def with_plain_text(self, batch: list[IncomingMessage]) -> list[IncomingMessage]:
        """Each message's text as its author typed it (`markup.plain_text`), the users it mentions
        named from users.info: "<@U123> R&amp;D" would reach memory, the model and search as is."""
        ids = list(dict.fromkeys(uid for m in batch for uid in mentioned_users(m.text)))[:MENTIONS_LOOKED_UP]
        users = await asyncio.gather(*(self.user(uid) for uid in ids))
        # A failed lookup falls back to the id: the label Slack sent, if any, says more.
        names = {u.user_id: u.display_name for u in users if u.display_name != u.user_id}
        return [dataclasses.replace(m, text=plain_text(m.text, names)) for m in batch]

    # --- conversation kinds ------------------------------------------------------------------------

    async def _fetch_kind(self, channel_id: str) -> tuple[ConversationKind, bool]:
        """conversations.info; when Slack cannot say, the conversation is taken as members-only."""
        try:
            response = await self.client.conversations_info(channel=channel_id)
            kind = kind_of_info(response.get("channel") or {})
        except Exception as exc:
            # Failing closed: what is learned stays in this conversation rather than risk a leak.
            # `missing_scope` means the app lacks channels:read, groups:read, mpim:read or im:read.
            log.warning(
                "slack conversations.info failed; treating the conversation as private",
                extra={"channel_id": loggable_id(channel_id), "error": error_code(exc)},
            )
            return ConversationKind.PRIVATE, False
        return kind, True

    async def with_kinds(self, batch: list[IncomingMessage]) -> list[IncomingMessage]:
        """Each message with its conversation's kind, from the event or conversations.info."""
        channels = list(dict.fromkeys(m.channel_id for m in batch if not m.is_dm))
        kinds = dict(zip(channels, await asyncio.gather(*(self.kinds.get(c) for c in channels)), strict=True))
        return [m if m.is_dm else dataclasses.replace(m, kind=kinds[m.channel_id]) for m in batch]

    async def list_members_only(self, found: ConversationsFound | None, team_id: str | None) -> None:
        """At start-up: report the private channels and group DMs the bot is in, so what was
        stored there before their kind was known is narrowed to them."""
        if found is None:
            return
        conversations: list[Conversation] = []
        cursor: str | None = None
        try:
            while True:
                response = await self.client.conversations_list(
                    types=_MEMBERS_ONLY_TYPES, exclude_archived=False, limit=200, cursor=cursor
                )
                for channel in response.get("channels") or []:
                    if isinstance(channel, dict) and channel.get("id"):
                        kind = kind_of_info(channel)
                        self.kinds.put(str(channel["id"]), kind)
                        team = channel.get("context_team_id") or team_id or ""
                        conversations.append(Conversation(PLATFORM, str(team), str(channel["id"]), kind))
                cursor = ((response.get("response_metadata") or {}).get("next_cursor")) or None
                if cursor is None:
                    break
        except Exception as exc:
            log.warning(
                "slack conversations.list failed: private channels are classified as messages arrive",
                extra={"error": error_code(exc)},
            )
        if conversations:
            await found(conversations)
            log.info("slack conversations classified", extra={"members_only": len(conversations)})


def kind_of_info(channel: dict[str, Any]) -> ConversationKind:
    """A conversation's kind from its conversations.info / conversations.list object."""
    if channel.get("is_im"):
        return ConversationKind.DM
    if channel.get("is_mpim"):
        return ConversationKind.GROUP
    if channel.get("is_private") or channel.get("is_group") or not channel.get("is_channel", True):
        return ConversationKind.PRIVATE
    return ConversationKind.PUBLIC
