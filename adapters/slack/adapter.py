"""The SlackAdapter: bolt app, HTTP and Socket Mode intake, lifecycle, batches handed to the turn."""

from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import Awaitable, Callable, Coroutine
from pathlib import Path
from typing import Any, Protocol

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

from memory.errors import CoalescerClosed, ConfigError
from memory.storage import EVENT_TTL_SECONDS, EventExpiry, EventLog

from ..base import AdapterMetrics, ChannelLists, ConversationsFound, IncomingMessage, TurnFunction
from ..coalescer import CoalesceConfig, Coalescer, Scheduler
from ..command_table import CommandRunner
from ..event_dedup import EventDedup
from .api import PLATFORM, error_code
from .commands import SlackCommands
from .directory import SlackDirectory
from .events import Following, string_field, to_message
from .guards import bolt_logger, malformed_request, signature_ok
from .render import PAGE_ACTION_PATTERN, SLACK_TEXT_LIMIT
from .replies import post_reply, wants_reply
from .socket_mode import SocketModeLink

log = logging.getLogger(__name__)

EVENTS_PATH = "/slack/events"
DEDUP_FILENAME = "slack_events.sqlite3"

Sleep = Callable[[float], Awaitable[None]]


class SlackConfig(ChannelLists, Protocol):
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
        dedup_ttl_seconds: float = EVENT_TTL_SECONDS,
        conversations: ConversationsFound | None = None,
        event_log: Callable[[float], EventLog | None] | None = None,
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
        self._data_dir = Path(data_dir)
        self._metrics = metrics
        self._reply_limit = reply_limit
        self._auth_backoff = auth_backoff
        self._sleep = sleep
        self._dedup_ttl = dedup_ttl_seconds
        # The storage's own record of handled events (a database shared by every process), given
        # a TTL; None (or no factory) keeps the file beside the data directory.
        self._event_log = event_log
        self._conversations_found = conversations
        self._following = Following(frozenset(settings.channels), frozenset(settings.learn_channels))

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
            logger=bolt_logger(),
        )
        self._register_listeners()

        self.coalescer = Coalescer.from_settings(self._handle_batch, coalesce, scheduler=scheduler)
        if metrics is not None:
            metrics.track_pending(PLATFORM, lambda: self.coalescer.pending_count)

        self._bot_user_id: str | None = None
        self._bot_id: str | None = None
        self._team_id: str | None = None
        self._dedup: EventLog | None = None
        self._identity_task: asyncio.Task[None] | None = None
        self._socket: SocketModeLink | None = None  # built in start(): it needs a running loop
        self._tasks: set[asyncio.Task[Any]] = set()
        self._directory = SlackDirectory(self.client, user_cache_seconds)
        self._commands = SlackCommands(self.client, commands, self._directory, metrics, lambda: self._team_id)
        self._accepting = False
        self._started = False
        self._stopped = False
        # Messages handed to the coalescer and not yet through the turn; lets `drain` wait exactly.
        self._outstanding = 0
        self._settled = asyncio.Event()
        self._settled.set()

    # --- lifecycle --------------------------------------------------------------------------------

    @property
    def bot_user_id(self) -> str | None:
        """The bot's own user id, once `auth.test` has answered."""
        return self._bot_user_id

    @property
    def ready(self) -> bool:
        if not self._accepting or self._bot_user_id is None:
            return False
        if self.settings.mode == "socket":
            return self._socket is not None and self._socket.connected
        return True

    async def start(self) -> None:
        """Open the event record, resolve the bot identity and (Socket Mode) connect, in the background."""
        if self._started:
            return
        self._started = True
        shared = self._event_log(self._dedup_ttl) if self._event_log is not None else None
        if shared is not None:
            self._dedup = shared
        else:
            self._dedup = await EventDedup.open(self._data_dir / DEDUP_FILENAME, EventExpiry(self._dedup_ttl))
        self._accepting = True
        self._identity_task = asyncio.create_task(self._resolve_identity(), name="slack-auth-test")
        if self.settings.mode == "socket":
            app_token = self.settings.app_token.get_secret_value() if self.settings.app_token else None
            if not app_token:
                log.error("SLACK_MODE=socket needs SLACK_APP_TOKEN; no events will arrive")
            else:
                self._socket = SocketModeLink(self.app, app_token)
                self._socket.connect()
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
        if self._socket is not None and self._socket.task is not None:
            await asyncio.shield(self._socket.task)

    async def stop(self, grace: float | None = None) -> None:
        """Stop intake, flush and finish turns and commands within `grace`, then disconnect."""
        if self._stopped:
            return
        self._stopped = True
        self._accepting = False
        loop = asyncio.get_running_loop()
        deadline = None if grace is None else loop.time() + max(0.0, grace)
        socket_task = self._socket.task if self._socket is not None else None
        background = [t for t in (self._identity_task, socket_task) if t is not None and not t.done()]
        for task in background:
            task.cancel()
        await asyncio.gather(*background, return_exceptions=True)
        if self._socket is not None:
            # Closing first stops Slack from pushing more events to a process that is leaving.
            await self._socket.close()
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

    # --- HTTP mode --------------------------------------------------------------------------------

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
        if not signature_ok(self._signing_secret, raw, request.headers):
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

    # --- identity ---------------------------------------------------------------------------------

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
                    extra={"attempt": attempt, "retry_in": delay, "error": error_code(exc)},
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
            self._spawn(self._directory.list_members_only(self._conversations_found, self._team_id))
            return

    # --- listeners --------------------------------------------------------------------------------

    def _register_listeners(self) -> None:
        # Bolt injects arguments by parameter name, which does not work with bound methods (it would
        # try to inject `self`), hence these closures.
        async def on_app_mention(body: dict[str, Any], event: dict[str, Any]) -> None:
            await self._on_event(body, event, "app_mention")

        async def on_message(body: dict[str, Any], event: dict[str, Any]) -> None:
            await self._on_event(body, event, "message")

        async def on_memory_command(ack: Any, command: dict[str, Any], respond: Any) -> None:
            await ack()
            self._spawn(self._commands.run_command(command, respond))

        async def on_page(ack: Any, body: dict[str, Any], action: dict[str, Any], respond: Any) -> None:
            await ack()
            self._spawn(self._commands.run_page(body, action, respond))

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
        event_id = string_field(body, "event_id")
        if event_id and await self._dedup.seen(f"slack:event:{event_id}"):
            self._count_duplicate()
            log.debug("redelivered slack event dropped", extra={"event_id": event_id, "kind": kind})
            return
        message = to_message(
            body,
            event,
            kind,
            bot_user_id=self._bot_user_id,
            team_id=self._team_id,
            following=self._following,
            kinds=self._directory.kinds,
        )
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

    def _count_duplicate(self) -> None:
        if self._metrics is not None:
            self._metrics.events_deduplicated.labels(PLATFORM).inc()

    # --- turns and replies ------------------------------------------------------------------------

    async def _handle_batch(self, batch: list[IncomingMessage]) -> None:
        # Turn counts and timings belong to the turn function (the runner meters it for every
        # platform); the adapter counts only what the turn cannot see: posts, duplicates, commands.
        try:
            directory = self._directory
            batch = await directory.with_kinds(
                await directory.with_plain_text(await directory.with_authors(batch))
            )
            respond = any(wants_reply(m, self._following.answer) for m in batch)
            reply = await self._turn(batch, respond)
            if respond and reply:
                await post_reply(self.client, batch, reply, self._reply_limit, self._metrics)
        finally:
            self._outstanding = max(0, self._outstanding - len(batch))
            if self._outstanding == 0:
                self._settled.set()
