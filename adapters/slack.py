"""The Slack adapter (slack-bolt, asyncio): events and /memory over Socket Mode or HTTP."""

from __future__ import annotations

import asyncio
import dataclasses
import hashlib
import hmac
import json
import logging
import math
import re
import time
from collections.abc import Awaitable, Callable, Coroutine, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol
from urllib.parse import parse_qsl

from aiohttp import web
from pydantic import SecretStr
from slack_bolt.adapter.aiohttp import to_aiohttp_response
from slack_bolt.async_app import AsyncApp
from slack_bolt.authorization import AuthorizeResult
from slack_bolt.request.async_request import AsyncBoltRequest
from slack_sdk.http_retry.builtin_async_handlers import (
    AsyncConnectionErrorRetryHandler,
    AsyncRateLimitErrorRetryHandler,
)
from slack_sdk.web.async_client import AsyncWebClient

from memory.errors import CoalescerClosed, CommandError, ConfigError
from memory.models import Conversation, ConversationKind

from .base import AdapterMetrics, ConversationsFound, IncomingMessage, TurnFunction
from .coalescer import CoalesceConfig, Coalescer, Scheduler
from .command_table import COMMANDS, CommandResult, CommandRunner, Invoker, error_result, parse_command
from .event_dedup import DEFAULT_TTL_SECONDS, EventDedup
from .lookup_cache import LookupCache
from .slack_render import (
    PAGE_ACTION_PATTERN,
    SLACK_TEXT_LIMIT,
    decode_page_value,
    export_code_block,
    neutralize_broadcasts,
    render_blocks,
    split_message,
    strip_mention,
)

if TYPE_CHECKING:
    from slack_sdk.socket_mode.aiohttp import SocketModeClient


log = logging.getLogger(__name__)

PLATFORM = "slack"
EVENTS_PATH = "/slack/events"
# Slack's advice: refuse a request signed more than five minutes ago (a replay).
SIGNATURE_MAX_AGE_SECONDS = 300
DEDUP_FILENAME = "slack_events.sqlite3"
# Plain messages and the two subtypes that are still someone talking; edits, deletes, joins,
# topic changes and the like are not turns.
_ANSWERABLE_SUBTYPES = frozenset({None, "thread_broadcast", "file_share"})
_KNOWN_COMMANDS = frozenset({c.name for c in COMMANDS} | {"help"})
# The `channel_type` of message events: a public channel, a private one, a group DM, a DM.
_KINDS = {
    "channel": ConversationKind.PUBLIC,
    "group": ConversationKind.PRIVATE,
    "mpim": ConversationKind.GROUP,
    "im": ConversationKind.DM,
}
# What conversations.list returns at start-up: the members-only conversations the bot is in.
_MEMBERS_ONLY_TYPES = "private_channel,mpim"

Sleep = Callable[[float], Awaitable[None]]


@dataclass(frozen=True, slots=True)
class SlackUser:
    """What the adapter needs from `users.info`."""

    user_id: str
    display_name: str
    is_admin: bool = False


class SlackConfig(Protocol):
    """The settings the Slack adapter reads (the bot's `SlackSettings`)."""

    @property
    def bot_token(self) -> SecretStr | None: ...

    @property
    def app_token(self) -> SecretStr | None: ...

    @property
    def signing_secret(self) -> SecretStr | None: ...

    @property
    def mode(self) -> str: ...

    @property
    def channels(self) -> Sequence[str]: ...

    @property
    def learn_channels(self) -> Sequence[str]: ...

    @property
    def api_url(self) -> str | None: ...


class SlackAdapter:
    """Slack edge of the bot: turns events into batches, posts replies, answers `/memory`.

    Listeners only record and hand over (dedup lookup, coalescer submit, task spawn) so Slack gets
    its ack well within 3 s; the model runs in the coalescer's handler. `process_before_response`
    is on, so an HTTP 200 means the event is durably marked as seen.
    """

    name = PLATFORM

    def __init__(
        self,
        settings: SlackConfig,
        turn: TurnFunction,
        commands: CommandRunner,
        *,
        data_dir: Path,
        coalesce: CoalesceConfig,
        client: AsyncWebClient | None = None,
        scheduler: Scheduler | None = None,
        metrics: AdapterMetrics | None = None,
        reply_limit: int = SLACK_TEXT_LIMIT,
        auth_backoff: tuple[float, float] = (1.0, 60.0),
        sleep: Sleep = asyncio.sleep,
        user_cache_seconds: float = 3600.0,
        dedup_ttl_seconds: float = DEFAULT_TTL_SECONDS,
        conversations: ConversationsFound | None = None,
    ) -> None:
        token = settings.bot_token.get_secret_value() if settings.bot_token else None
        if client is not None and client.token:
            token = client.token
        if not token:
            raise ConfigError("the Slack adapter needs SLACK_BOT_TOKEN")
        signing_secret = settings.signing_secret.get_secret_value() if settings.signing_secret else ""
        if settings.mode == "http" and not signing_secret:
            # An empty secret would make every forged signature computed with an empty key valid.
            raise ConfigError("SLACK_MODE=http needs SLACK_SIGNING_SECRET")
        self.settings = settings
        self._signing_secret = signing_secret
        self._token = token
        self._turn = turn
        self._commands = commands
        self._data_dir = Path(data_dir)
        self._metrics = metrics
        self._reply_limit = reply_limit
        self._auth_backoff = auth_backoff
        self._sleep = sleep
        self._dedup_ttl = dedup_ttl_seconds
        self._conversations_found = conversations
        self._answer_channels = frozenset(settings.channels)
        self._learn_channels = frozenset(settings.learn_channels)

        retry = [AsyncConnectionErrorRetryHandler(), AsyncRateLimitErrorRetryHandler(max_retry_count=2)]
        base = {"base_url": settings.api_url} if getattr(settings, "api_url", None) else {}
        self.client = (
            client if client is not None else AsyncWebClient(token=token, retry_handlers=retry, **base)
        )
        # Bolt gets a token-less twin pointing at the same API: the token comes from our authorize
        # function, which keeps bolt from calling auth.test itself on the first request (and from
        # failing requests while Slack is unreachable).
        app_client = AsyncWebClient(
            base_url=self.client.base_url,
            timeout=self.client.timeout,
            ssl=self.client.ssl,
            proxy=self.client.proxy,
            headers=dict(self.client.headers),
            retry_handlers=list(self.client.retry_handlers or []),
        )
        self.app = AsyncApp(
            name="memorybot",
            client=app_client,
            signing_secret=signing_secret,
            authorize=self._authorize_function(),
            process_before_response=True,
            # Bolt's own log lines may hold whole request bodies: they go to a logger of ours,
            # which keeps them at DEBUG.
            logger=_bolt_logger(),
        )
        self._register_listeners()

        self.coalescer = Coalescer.from_settings(self._handle_batch, coalesce, scheduler=scheduler)
        if metrics is not None:
            metrics.track_pending(PLATFORM, lambda: self.coalescer.pending_count)

        self._bot_user_id: str | None = None
        self._bot_id: str | None = None
        self._team_id: str | None = None
        self._dedup: EventDedup | None = None
        self._identity_task: asyncio.Task[None] | None = None
        self._socket: Any = None  # AsyncSocketModeHandler, built in start(): it needs a running loop
        self._socket_task: asyncio.Task[None] | None = None
        self._tasks: set[asyncio.Task[Any]] = set()
        self._users: LookupCache[str, SlackUser] = LookupCache(self._fetch_user, user_cache_seconds)
        # What kind of conversation each channel is: from message events' `channel_type`, else
        # conversations.info (app mentions and commands carry no type).
        self._kinds: LookupCache[str, ConversationKind] = LookupCache(self._fetch_kind, user_cache_seconds)
        self._accepting = False
        self._started = False
        self._stopped = False
        # Messages handed to the coalescer and not yet through the turn; lets `drain` wait exactly.
        self._outstanding = 0
        self._settled = asyncio.Event()
        self._settled.set()

    # --- lifecycle -----------------------------------------------------------------------------

    @property
    def bot_user_id(self) -> str | None:
        """The bot's own user id, once `auth.test` has answered."""
        return self._bot_user_id

    @property
    def ready(self) -> bool:
        if not self._accepting or self._bot_user_id is None:
            return False
        if self.settings.mode == "socket":
            return self._socket_connected()
        return True

    async def start(self) -> None:
        """Open the event record, resolve the bot identity and (Socket Mode) connect, in the background."""
        if self._started:
            return
        self._started = True
        self._dedup = await EventDedup.open(self._data_dir / DEDUP_FILENAME, ttl_seconds=self._dedup_ttl)
        self._accepting = True
        self._identity_task = asyncio.create_task(self._resolve_identity(), name="slack-auth-test")
        if self.settings.mode == "socket":
            app_token = self.settings.app_token.get_secret_value() if self.settings.app_token else None
            if not app_token:
                log.error("SLACK_MODE=socket needs SLACK_APP_TOKEN; no events will arrive")
            else:
                from slack_bolt.adapter.socket_mode.async_handler import AsyncSocketModeHandler

                self._socket = AsyncSocketModeHandler(
                    self.app, app_token, web_client=self.app.client, logger=_socket_logger()
                )
                self._socket.client.message_listeners.append(self._refuse_unusable_envelope)
                self._socket_task = asyncio.create_task(self._connect_socket(), name="slack-socket-connect")
        log.info("slack adapter started", extra={"mode": self.settings.mode})

    async def wait_until_identified(self) -> str:
        """The bot's user id, once `auth.test` has succeeded (waits for the retrying task)."""
        if self._bot_user_id is None:
            if self._identity_task is None:
                raise RuntimeError("the Slack adapter is not started")
            await asyncio.shield(self._identity_task)
        assert self._bot_user_id is not None
        return self._bot_user_id

    async def wait_until_ready(self) -> None:
        """Wait for the identity and, in Socket Mode, the first connection (both retry on their own)."""
        await self.wait_until_identified()
        if self._socket_task is not None:
            await asyncio.shield(self._socket_task)

    async def stop(self, grace: float | None = None) -> None:
        """Stop intake, flush and finish turns and commands within `grace`, then disconnect."""
        if self._stopped:
            return
        self._stopped = True
        self._accepting = False
        loop = asyncio.get_running_loop()
        deadline = None if grace is None else loop.time() + max(0.0, grace)
        background = [t for t in (self._identity_task, self._socket_task) if t is not None and not t.done()]
        for task in background:
            task.cancel()
        await asyncio.gather(*background, return_exceptions=True)
        if self._socket is not None:
            try:
                # Closing first stops Slack from pushing more events to a process that is leaving.
                await self._socket.close_async()
            except Exception:
                log.warning("socket mode close failed", exc_info=True)
        try:
            await self.coalescer.aclose(grace)
        finally:
            if self._tasks:
                remaining = None if deadline is None else max(0.0, deadline - loop.time())
                _, pending = await asyncio.wait(set(self._tasks), timeout=remaining)
                for task in pending:
                    task.cancel()
                if pending:
                    await asyncio.gather(*pending, return_exceptions=True)
                    log.warning("slack commands cancelled at shutdown", extra={"count": len(pending)})
            self._outstanding = 0
            self._settled.set()
            if self._dedup is not None:
                await self._dedup.close()
                self._dedup = None
        log.info("slack adapter stopped")

    async def drain(self) -> None:
        """Wait until every accepted message has been through its turn and every command has answered."""
        while True:
            if self._tasks:
                await asyncio.gather(*set(self._tasks), return_exceptions=True)
                continue
            if self._outstanding:
                await self._settled.wait()
                continue
            return

    # --- HTTP mode -------------------------------------------------------------------------------

    async def handle_http(self, request: web.Request) -> web.Response:
        """`POST /slack/events`: signature and shape checked here, then bolt answers
        url_verification and dispatches.

        A forged, stale or unsigned request gets a 401 and a malformed one (not UTF-8, not the
        JSON or form Slack sends, an `event` that is not an object) a 400, each with one log line
        that never holds the body; neither reaches bolt, whose own refusals log whole bodies.
        """
        if not self._accepting:
            # 503 makes Slack retry later, by which time a restarted process can take the event.
            return web.Response(status=503, text="not accepting events")
        raw = await request.read()
        if not self._signature_ok(raw, request.headers):
            log.info("slack request refused: bad or stale signature", extra={"bytes": len(raw)})
            return web.Response(status=401, text="invalid signature")
        problem = malformed_request(raw, request.headers.get("Content-Type", ""))
        if problem is not None:
            log.warning("slack request refused: malformed", extra={"reason": problem, "bytes": len(raw)})
            return web.Response(status=400, text=problem)
        try:
            # Bolt reads the user, channel and team ids while building the request and fails on
            # ids of the wrong type: such a payload is malformed too.
            bolt_request = AsyncBoltRequest(
                body=raw.decode("utf-8"), query=request.query_string, headers=dict(request.headers)
            )
        except Exception as exc:
            log.warning("slack request refused: unreadable", extra={"error": type(exc).__name__})
            return web.Response(status=400, text="unreadable payload")
        bolt_response = await self.app.async_dispatch(bolt_request)
        if bolt_response.status == 404:
            # Nothing here handles it (a new envelope type, `app_rate_limited`): acknowledged, so
            # Slack does not retry what the bot would ignore again.
            log.debug("slack request with no handler acknowledged")
            return web.Response(status=200, text="")
        return await to_aiohttp_response(bolt_response)

    def _signature_ok(self, raw: bytes, headers: Mapping[str, str]) -> bool:
        """Slack's v0 request signature over the raw bytes, from the last five minutes."""
        timestamp = headers.get("X-Slack-Request-Timestamp", "")
        signature = headers.get("X-Slack-Signature", "")
        try:
            sent_at = int(timestamp)
        except ValueError:
            return False
        if abs(time.time() - sent_at) > SIGNATURE_MAX_AGE_SECONDS:
            return False  # a replay of an old request
        base = b"v0:" + timestamp.encode("ascii") + b":" + raw
        expected = "v0=" + hmac.new(self._signing_secret.encode(), base, hashlib.sha256).hexdigest()
        return hmac.compare_digest(expected, signature)

    # --- identity and connection ------------------------------------------------------------------

    def _authorize_function(self) -> Callable[..., Awaitable[AuthorizeResult]]:
        """Bolt's `authorize` hook; a closure because bolt injects by parameter name (no `self`)."""

        async def authorize(
            enterprise_id: str | None, team_id: str | None, user_id: str | None
        ) -> AuthorizeResult:
            return AuthorizeResult(
                enterprise_id=enterprise_id,
                team_id=team_id or self._team_id,
                bot_token=self._token,
                bot_user_id=self._bot_user_id,
                bot_id=self._bot_id,
                user_id=user_id,
            )

        return authorize

    async def _resolve_identity(self) -> None:
        """`auth.test` until it succeeds, with capped exponential backoff; `ready` waits on it."""
        delay, cap = self._auth_backoff
        attempt = 0
        while True:
            attempt += 1
            try:
                response = await self.client.auth_test()
                user_id = response.get("user_id")
                if not user_id:
                    raise ValueError("auth.test returned no user_id")
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                log.warning(
                    "slack auth.test failed; retrying",
                    extra={"attempt": attempt, "retry_in": delay, "error": _error_code(exc)},
                )
                await self._sleep(delay)
                delay = min(cap, delay * 2)
                continue
            self._bot_user_id = str(user_id)
            self._bot_id = response.get("bot_id")
            self._team_id = response.get("team_id")
            log.info(
                "slack identity resolved",
                extra={"bot_user_id": self._bot_user_id, "team_id": self._team_id, "attempts": attempt},
            )
            self._spawn(self._list_members_only())
            return

    async def _connect_socket(self) -> None:
        try:
            # connect_async keeps retrying inside slack_sdk until it connects or the client closes.
            await self._socket.connect_async()
            log.info("slack socket mode connected")
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("slack socket mode connection failed")

    async def _refuse_unusable_envelope(self, client: Any, message: dict[str, Any], raw: str | None) -> None:
        """Acknowledge, and drop, a Socket Mode envelope bolt could not answer (a payload of the
        wrong shape, an envelope type it does not know), so Slack does not deliver it again."""
        envelope_id = message.get("envelope_id") if isinstance(message, dict) else None
        if not isinstance(envelope_id, str) or not envelope_id:
            return
        problem = unusable_envelope(message)
        if problem is None:
            return  # bolt answers it, and acknowledges it then
        from slack_sdk.socket_mode.response import SocketModeResponse

        log.warning("slack socket envelope refused: malformed", extra={"reason": problem})
        await client.send_socket_mode_response(SocketModeResponse(envelope_id=envelope_id))

    def _socket_connected(self) -> bool:
        if self._socket is None:
            return False
        client: SocketModeClient = self._socket.client
        session = client.current_session
        return not client.closed and not client.stale and session is not None and not session.closed

    # --- listeners ---------------------------------------------------------------------------------

    def _register_listeners(self) -> None:
        # Bolt injects arguments by parameter name, which does not work with bound methods (it would
        # try to inject `self`), hence these closures.
        async def on_app_mention(body: dict[str, Any], event: dict[str, Any]) -> None:
            await self._on_event(body, event, "app_mention")

        async def on_message(body: dict[str, Any], event: dict[str, Any]) -> None:
            await self._on_event(body, event, "message")

        async def on_memory_command(ack: Any, command: dict[str, Any], respond: Any) -> None:
            await ack()
            self._spawn(self._run_command(command, respond))

        async def on_page(ack: Any, body: dict[str, Any], action: dict[str, Any], respond: Any) -> None:
            await ack()
            self._spawn(self._run_page(body, action, respond))

        async def on_other_event(ack: Any) -> None:
            # Event types the bot does not use are acknowledged (so Slack does not retry them)
            # and dropped, instead of bolt's multi-line "you can handle this event" warning.
            await ack()

        async def on_error(error: Exception) -> None:
            # One line, never the request: a listener bug is still visible, not its payload.
            log.warning("slack listener failed", extra={"error": type(error).__name__})
            log.debug("slack listener failure", exc_info=error)

        self.app.event("app_mention")(on_app_mention)
        self.app.event("message")(on_message)
        self.app.event(re.compile(r".*"))(on_other_event)
        self.app.command("/memory")(on_memory_command)
        self.app.action(PAGE_ACTION_PATTERN)(on_page)
        self.app.error(on_error)

    def _spawn(self, coro: Coroutine[Any, Any, None]) -> None:
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _on_event(self, body: dict[str, Any], event: dict[str, Any], kind: str) -> None:
        if not self._accepting or self._dedup is None:
            return
        event_id = _field(body, "event_id")
        if event_id and await self._dedup.seen(f"slack:event:{event_id}"):
            self._count_duplicate()
            log.debug("redelivered slack event dropped", extra={"event_id": event_id, "kind": kind})
            return
        message = self._to_message(body, event, kind)
        if message is None:
            return
        # A mention in a channel arrives twice (app_mention and message, different event ids):
        # whichever comes first claims the message.
        if await self._dedup.seen(f"slack:message:{message.workspace_id}:{message.external_id}"):
            self._count_duplicate()
            log.debug("message already taken", extra={"event_id": event_id, "kind": kind})
            return
        try:
            self.coalescer.submit(message)
        except CoalescerClosed:
            return
        self._outstanding += 1
        self._settled.clear()
        log.debug(
            "slack message accepted",
            extra={"kind": kind, "channel_id": message.channel_id, "is_dm": message.is_dm},
        )

    def _to_message(self, body: dict[str, Any], event: dict[str, Any], kind: str) -> IncomingMessage | None:
        """The event as an IncomingMessage, or None when the bot should not take it at all.

        Every field is read as Slack documents it and anything else (a number for a string, an
        object for an id) counts as missing: a malformed event is dropped, never half-taken.
        """
        subtype = event.get("subtype")
        if subtype is not None and not isinstance(subtype, str):
            return None
        if event.get("bot_id") or subtype == "bot_message" or subtype not in _ANSWERABLE_SUBTYPES:
            return None
        user, channel, ts = _field(event, "user"), _field(event, "channel"), _field(event, "ts")
        if not user or not channel or not ts:
            return None
        bot_user_id = self._bot_user_id or _bot_user_from(body)
        if user == bot_user_id:
            return None
        raw_text = event.get("text")
        text = raw_text if isinstance(raw_text, str) else ""
        channel_type = event.get("channel_type")
        conversation = _KINDS.get(channel_type) if isinstance(channel_type, str) else None
        if conversation is None and str(channel).startswith("D"):
            conversation = ConversationKind.DM
        if conversation is not None:
            # The event's own word is the freshest: a channel converted to private says so here.
            self._kinds.put(str(channel), conversation)
        is_dm = conversation is ConversationKind.DM
        mentioned = bool(bot_user_id) and _mentions(text, bot_user_id)
        if kind == "app_mention":
            mentions_bot = True
        elif is_dm:
            mentions_bot = True
        elif channel in self._answer_channels:
            mentions_bot = mentioned
        elif channel in self._learn_channels:
            mentions_bot = mentioned
        else:
            # Not a channel we follow: a mention here also comes as app_mention, handled there.
            return None
        clean = strip_mention(text, bot_user_id)
        if not clean:
            return None
        team_id = _field(body, "team_id") or _field(event, "team") or self._team_id or ""
        try:
            timestamp = float(ts)
        except ValueError:
            timestamp = time.time()
        if not math.isfinite(timestamp):
            timestamp = time.time()
        return IncomingMessage(
            platform=PLATFORM,
            workspace_id=team_id,
            channel_id=channel,
            author_id=user,
            # Filled in by the batch handler from users.info, off the ack path.
            author_name=user,
            text=clean,
            timestamp=timestamp,
            thread_id=_field(event, "thread_ts"),
            external_id=f"{channel}:{ts}",
            # Until the batch handler resolves it (off the ack path), the narrowest kind.
            kind=conversation or ConversationKind.PRIVATE,
            mentions_bot=mentions_bot,
        )

    def _count_duplicate(self) -> None:
        if self._metrics is not None:
            self._metrics.events_deduplicated.labels(PLATFORM).inc()

    # --- turns and replies -------------------------------------------------------------------------

    def _wants_reply(self, message: IncomingMessage) -> bool:
        return message.is_dm or message.mentions_bot or message.channel_id in self._answer_channels

    async def _handle_batch(self, batch: list[IncomingMessage]) -> None:
        # Turn counts and timings belong to the turn function (the runner meters it for every
        # platform); the adapter counts only what the turn cannot see: posts, duplicates, commands.
        try:
            batch = await self._with_kinds(await self._with_authors(batch))
            respond = any(self._wants_reply(m) for m in batch)
            reply = await self._turn(batch, respond)
            if respond and reply:
                await self._post_reply(batch, reply)
        finally:
            self._outstanding = max(0, self._outstanding - len(batch))
            if self._outstanding == 0:
                self._settled.set()

    async def _with_authors(self, batch: list[IncomingMessage]) -> list[IncomingMessage]:
        ids = list(dict.fromkeys(m.author_id for m in batch))
        users = dict(zip(ids, await asyncio.gather(*(self._user(uid) for uid in ids)), strict=True))
        return [
            dataclasses.replace(
                m, author_name=users[m.author_id].display_name, author_is_admin=users[m.author_id].is_admin
            )
            for m in batch
        ]

    async def _post_reply(self, batch: Sequence[IncomingMessage], reply: str) -> None:
        last = batch[-1]
        thread_ts = last.thread_id
        if thread_ts is None and not last.is_dm and any(m.mentions_bot for m in batch):
            # Answer a channel mention in a thread under the last message, not in the channel.
            thread_ts = _ts_of(last)
        chunks = split_message(neutralize_broadcasts(reply), self._reply_limit)
        for index, chunk in enumerate(chunks):
            try:
                await self.client.chat_postMessage(channel=last.channel_id, text=chunk, thread_ts=thread_ts)
            except Exception as exc:
                # Later chunks would read out of order without this one; stop here.
                log.warning(
                    "slack reply not posted",
                    extra={
                        "channel_id": last.channel_id,
                        "chunk": index,
                        "chunks": len(chunks),
                        "error": _error_code(exc),
                    },
                )
                return
        if self._metrics is not None:
            self._metrics.replies_sent.labels(PLATFORM).inc()
        log.info(
            "slack reply posted",
            extra={"channel_id": last.channel_id, "threaded": thread_ts is not None, "chunks": len(chunks)},
        )

    async def _user(self, user_id: str) -> SlackUser:
        """users.info, cached; concurrent lookups of one user share a call; falls back to the id."""
        return await self._users.get(user_id)

    async def _fetch_user(self, user_id: str) -> tuple[SlackUser, bool]:
        try:
            response = await self.client.users_info(user=user_id)
            data = response.get("user") or {}
        except Exception as exc:
            log.warning("slack users.info failed", extra={"user_id": user_id, "error": _error_code(exc)})
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
        return SlackUser(user_id, str(display), is_admin), True

    # --- conversation kinds ------------------------------------------------------------------------

    async def _fetch_kind(self, channel_id: str) -> tuple[ConversationKind, bool]:
        """conversations.info; when Slack cannot say, the conversation is taken as members-only."""
        try:
            response = await self.client.conversations_info(channel=channel_id)
            kind = _kind_of_info(response.get("channel") or {})
        except Exception as exc:
            # Failing closed: what is learned stays in this conversation rather than risk a leak.
            # `missing_scope` means the app lacks channels:read, groups:read, mpim:read or im:read.
            log.warning(
                "slack conversations.info failed; treating the conversation as private",
                extra={"channel_id": channel_id, "error": _error_code(exc)},
            )
            return ConversationKind.PRIVATE, False
        return kind, True

    async def _with_kinds(self, batch: list[IncomingMessage]) -> list[IncomingMessage]:
        """Each message with its conversation's kind, from the event or conversations.info."""
        channels = list(dict.fromkeys(m.channel_id for m in batch if not m.is_dm))
        kinds = dict(
            zip(channels, await asyncio.gather(*(self._kinds.get(c) for c in channels)), strict=True)
        )
        return [m if m.is_dm else dataclasses.replace(m, kind=kinds[m.channel_id]) for m in batch]

    async def _list_members_only(self) -> None:
        """At start-up: report the private channels and group DMs the bot is in, so what was
        stored there before their kind was known is narrowed to them."""
        found = self._conversations_found
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
                        kind = _kind_of_info(channel)
                        self._kinds.put(str(channel["id"]), kind)
                        team = channel.get("context_team_id") or self._team_id or ""
                        conversations.append(Conversation(PLATFORM, str(team), str(channel["id"]), kind))
                cursor = ((response.get("response_metadata") or {}).get("next_cursor")) or None
                if cursor is None:
                    break
        except Exception as exc:
            log.warning(
                "slack conversations.list failed: private channels are classified as messages arrive",
                extra={"error": _error_code(exc)},
            )
        if conversations:
            await found(conversations)
            log.info("slack conversations classified", extra={"members_only": len(conversations)})

    # --- /memory -----------------------------------------------------------------------------------

    async def _invoker(
        self, team_id: str, channel_id: str, channel_name: str | None, user_id: str
    ) -> Invoker:
        user = await self._user(user_id)
        is_dm = channel_name == "directmessage" or channel_id.startswith("D")
        return Invoker(PLATFORM, team_id, channel_id, user_id, is_dm=is_dm, is_admin=user.is_admin)

    async def _run_command(self, command: dict[str, Any], respond: Any) -> None:
        try:
            invoker = await self._invoker(
                str(command.get("team_id") or self._team_id or ""),
                str(command.get("channel_id") or ""),
                command.get("channel_name"),
                str(command.get("user_id") or ""),
            )
            result = await self._execute(str(command.get("text") or ""), invoker)
            await self._send_result(result, invoker, respond, replace=False)
        except Exception:
            log.exception("slack /memory command failed")
            await _respond_quietly(respond, "Sorry, that command failed. Please try again.", replace=False)

    async def _run_page(self, body: dict[str, Any], action: dict[str, Any], respond: Any) -> None:
        try:
            request = decode_page_value(str(action.get("value") or ""))
            user = body.get("user") or {}
            user_id = str(user.get("id") or "")
            if request is None:
                log.warning("malformed paging button value")
                return
            if request.owner_id != user_id:
                # Ephemeral messages are only shown to their owner; this guards forged payloads.
                await _respond_quietly(respond, "Only the person who ran this command can page through it.")
                return
            channel = body.get("channel") or {}
            container = body.get("container") or {}
            team = body.get("team") or {}
            invoker = await self._invoker(
                str(team.get("id") or user.get("team_id") or self._team_id or ""),
                str(channel.get("id") or container.get("channel_id") or ""),
                channel.get("name"),
                user_id,
            )
            result = await self._execute(request.command, invoker)
            await self._send_result(result, invoker, respond, replace=True)
        except Exception:
            log.exception("slack paging failed")
            await _respond_quietly(respond, "Sorry, that page could not be loaded.")

    async def _execute(self, text: str, invoker: Invoker) -> CommandResult:
        try:
            parsed = parse_command(text)
        except CommandError as exc:
            result = error_result(exc)
        else:
            result = await self._commands.execute(parsed.name, parsed.args, invoker, parsed.page)
        if self._metrics is not None:
            label = result.command if result.command in _KNOWN_COMMANDS else "invalid"
            self._metrics.commands.labels(PLATFORM, label).inc()
        log.info(
            "slack /memory command",
            extra={
                "command": result.command or "invalid",
                "ok": result.error is None,
                "is_dm": invoker.is_dm,
            },
        )
        return result

    async def _send_result(
        self, result: CommandResult, invoker: Invoker, respond: Any, *, replace: bool
    ) -> None:
        extra_blocks: list[dict[str, Any]] = []
        if result.attachment is not None and not result.error:
            if await self._upload_export(result, invoker):
                result.lines.append(f"Sent {result.attachment.filename} to you in a direct message.")
            else:
                extra_blocks.append(
                    {
                        "type": "section",
                        "text": {"type": "mrkdwn", "text": export_code_block(result.attachment.data)},
                    }
                )
        text, blocks = render_blocks(result, invoker.user_id)
        response = await respond(
            text=text, blocks=blocks + extra_blocks, response_type="ephemeral", replace_original=replace
        )
        status = getattr(response, "status_code", None)
        if status is not None and status >= 300:
            log.warning("slack response_url refused the result", extra={"status": status})

    async def _upload_export(self, result: CommandResult, invoker: Invoker) -> bool:
        attachment = result.attachment
        assert attachment is not None
        try:
            opened = await self.client.conversations_open(users=invoker.user_id)
            channel = (opened.get("channel") or {}).get("id")
            if not channel:
                return False
            await self.client.files_upload_v2(
                channel=channel,
                content=attachment.data,
                filename=attachment.filename,
                title=attachment.filename,
                initial_comment="Your memory export.",
            )
        except Exception as exc:
            log.warning("slack export upload failed; sending inline", extra={"error": _error_code(exc)})
            return False
        return True


# --- helpers -------------------------------------------------------------------------------------


def _bolt_logger() -> logging.Logger:
    """The logger bolt writes to: its request verification logs refused bodies at INFO and its
    unhandled-request warning quotes the request, so everything it says is lowered to DEBUG."""
    bolt = logging.getLogger("adapters.slack.bolt")
    if not any(isinstance(f, _ToDebug) for f in bolt.filters):
        bolt.addFilter(_ToDebug())
    return bolt


class _ToDebug(logging.Filter):
    """Rewrites a record to DEBUG (and drops its traceback), whatever level it was logged at."""

    def filter(self, record: logging.LogRecord) -> bool:
        record.levelno, record.levelname = logging.DEBUG, "DEBUG"
        record.exc_info, record.exc_text = None, None
        # A handler's level was checked against the original level; the record says DEBUG now,
        # and is only kept when DEBUG is wanted.
        return logging.getLogger().isEnabledFor(logging.DEBUG)


_SOCKET_REQUESTS = frozenset({"events_api", "slash_commands", "interactive"})


def unusable_envelope(message: Mapping[str, Any]) -> str | None:
    """Why bolt cannot answer a Socket Mode envelope, or None when it can."""
    kind = message.get("type")
    if kind not in _SOCKET_REQUESTS:
        return "not a request envelope"
    payload = message.get("payload")
    if not isinstance(payload, dict):
        return "payload is not an object"
    if kind == "events_api":
        event = payload.get("event")
        if not isinstance(event, dict) or not isinstance(event.get("type"), str):
            return "event is not an object with a type"
    try:
        AsyncBoltRequest(mode="socket_mode", body=payload)
    except Exception as exc:  # bolt reads ids while building the request and fails on wrong types
        return f"unreadable payload ({type(exc).__name__})"
    return None


def _socket_logger() -> logging.Logger:
    """The Socket Mode client's logger: its tracebacks (a frame it could not process) go to DEBUG,
    the line itself stays at its level."""
    socket_log = logging.getLogger("adapters.slack.socket")
    if not any(isinstance(f, _NoTraceback) for f in socket_log.filters):
        socket_log.addFilter(_NoTraceback())
    return socket_log


class _NoTraceback(logging.Filter):
    """Keeps a record's line, moves its traceback (if any) to a DEBUG record of its own."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.exc_info and record.levelno > logging.DEBUG:
            log.debug("slack socket mode traceback", exc_info=record.exc_info)
            record.exc_info, record.exc_text = None, None
        return True


def _field(data: Mapping[str, Any], key: str) -> str | None:
    """A string field of a Slack payload, or None when it is missing, empty or not a string."""
    value = data.get(key)
    return value if isinstance(value, str) and value else None


def malformed_request(raw: bytes, content_type: str) -> str | None:
    """Why a signed request body is not one Slack sends, or None when it is well formed."""
    try:
        body = raw.decode("utf-8")
    except UnicodeDecodeError:
        return "body is not UTF-8"
    if "application/x-www-form-urlencoded" in content_type:
        form = dict(parse_qsl(body, keep_blank_values=True))
        if "payload" not in form:
            return None  # a slash command: flat fields
        return _json_problem(form["payload"], "payload")
    return _json_problem(body, "body")


def _json_problem(text: str, what: str) -> str | None:
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        return f"{what} is not JSON"
    if not isinstance(data, dict):
        return f"{what} is not a JSON object"
    if "event" in data and not isinstance(data["event"], dict):
        return "event is not an object"
    if "event" in data and not isinstance(data["event"].get("type"), str):
        return "event has no type"
    if data.get("type") == "event_callback" and "event" not in data:
        return "event_callback without an event"
    return None


def _kind_of_info(channel: dict[str, Any]) -> ConversationKind:
    """A conversation's kind from its conversations.info / conversations.list object."""
    if channel.get("is_im"):
        return ConversationKind.DM
    if channel.get("is_mpim"):
        return ConversationKind.GROUP
    if channel.get("is_private") or channel.get("is_group") or not channel.get("is_channel", True):
        return ConversationKind.PRIVATE
    return ConversationKind.PUBLIC


def _mentions(text: str, user_id: str) -> bool:
    return re.search(rf"<@{re.escape(user_id)}(\|[^>]*)?>", text) is not None


def _bot_user_from(body: dict[str, Any]) -> str | None:
    """The bot user id from the payload's `authorizations`, before auth.test has answered."""
    for entry in body.get("authorizations") or []:
        if isinstance(entry, dict) and entry.get("is_bot") and entry.get("user_id"):
            return str(entry["user_id"])
    return None


def _ts_of(message: IncomingMessage) -> str | None:
    if message.external_id and ":" in message.external_id:
        return message.external_id.split(":", 1)[1]
    return None


def _error_code(exc: BaseException) -> str:
    response = getattr(exc, "response", None)
    if response is not None:
        try:
            code = response.get("error")
        except Exception:
            code = None
        if code:
            return str(code)
    return type(exc).__name__


async def _respond_quietly(respond: Any, text: str, *, replace: bool = False) -> None:
    try:
        await respond(text=text, response_type="ephemeral", replace_original=replace)
    except Exception:
        log.warning("slack response_url unreachable", exc_info=True)
