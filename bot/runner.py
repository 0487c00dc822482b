"""`memorybot run`: every configured adapter in one event loop, the web server, and a clean shutdown."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
import time
from collections.abc import Sequence

from adapters.base import Adapter, ConversationsFound, IncomingMessage, TurnFunction
from memory.embedders import CachedEmbedder, Embedder
from memory.models import Conversation

from .app import App
from .commands import MemoryCommands
from .config import Settings
from .logs import log_context
from .metrics import Metrics
from .pipeline import TurnPipeline, TurnResult
from .server import HealthServer

log = logging.getLogger(__name__)


def track_pipeline(metrics: Metrics, pipeline: TurnPipeline) -> None:
    """Export the counters the pipeline's parts keep: caches, model usage, memory writes."""
    embedder = pipeline.engine.embedder
    if isinstance(embedder, CachedEmbedder):
        metrics.track_cache("embedding", embedder)
    metrics.track_cache("preferences", pipeline.prehook.preferences)
    metrics.track_llm_usage(pipeline.llm_usage)
    metrics.track_memory_writes(pipeline.engine.writes)


def metered_turn(pipeline: TurnPipeline, metrics: Metrics) -> TurnFunction:
    """The adapters' turn function: the pipeline, counted and timed for /metrics.

    Every log line of the turn, from `memory/` as well, and of the background work it starts
    carries the conversation's platform, workspace, channel and thread.
    """
    track_pipeline(metrics, pipeline)

    async def turn(batch: Sequence[IncomingMessage], respond: bool) -> str | None:
        if not batch:
            return None
        last = batch[-1]
        platform = last.platform
        metrics.messages_received.labels(platform).inc(len(batch))
        metrics.batch_messages.labels(platform).observe(len(batch))
        started = time.perf_counter()
        with log_context(
            platform=platform,
            workspace_id=last.workspace_id,
            channel_id=last.channel_id,
            thread_id=last.thread_id,
        ):
            try:
                result = await pipeline.handle(batch, respond)
            except Exception:
                metrics.observe_turn(platform, "failed", time.perf_counter() - started)
                raise
        metrics.observe_turn(platform, _outcome(result, respond), time.perf_counter() - started)
        record_turn(metrics, pipeline, result)
        return result.reply

    return turn


def _outcome(result: TurnResult, respond: bool) -> str:
    if result.duplicate:
        return "duplicate"
    if result.storage_error:
        return "storage_error"
    if result.error:
        return "model_error"
    if not respond:
        return "learned"
    return "replied" if result.reply else "silent"


def record_turn(metrics: Metrics, pipeline: TurnPipeline, result: TurnResult) -> None:
    """Pre-hook timings and what it injected, and the model error, of one turn.

    Memory writes, cache lookups and model tokens are not counted here: the objects that make
    them keep their own counts (see `track_pipeline`), which also covers background work.
    """
    hook = result.prehook
    if hook is not None and hook.skipped_reason is None:
        for stage, ms in hook.stage_ms.items():
            if stage == "total":
                metrics.prehook_seconds.observe(ms / 1000.0)
            else:
                metrics.prehook_stage_seconds.labels(stage).observe(ms / 1000.0)
        kinds = {
            "memory": len(hook.injected),
            "message": len(hook.injected_messages),
            "summary": len(hook.injected_summaries),
        }
        for kind, count in kinds.items():
            metrics.injected.labels(kind).inc(count)
        metrics.injected_items.observe(sum(kinds.values()))
        metrics.injected_tokens.observe(hook.tokens if hook.block else 0)
    if result.error and pipeline.llm is not None:
        metrics.llm_errors.labels(pipeline.llm.name).inc()


def conversations_found(pipeline: TurnPipeline) -> ConversationsFound:
    """What adapters call with the conversations they list: their kinds are recorded, and rows
    stored in members-only ones before that are narrowed to them (in the background of start-up)."""

    async def found(conversations: Sequence[Conversation]) -> None:
        try:
            report = await pipeline.conversations.observe_many(conversations)
        except Exception:
            # Messages still narrow their own conversation as they arrive.
            log.warning("conversation kinds not recorded", exc_info=True)
            return
        if report.rows:
            log.info("rows narrowed to private conversations", extra=report.to_dict())

    return found


def build_adapters(
    settings: Settings, app: App, turn: TurnFunction, server: HealthServer, metrics: Metrics
) -> list[Adapter]:
    """An adapter per platform whose credentials are set; Slack HTTP mode mounts /slack/events."""
    commands = MemoryCommands(
        app.engine, settings.storage.agent_id, search_threshold=settings.memory.search_threshold
    )
    found = conversations_found(app.pipeline)
    adapters: list[Adapter] = []
    if settings.discord.token is not None:
        from adapters.discord import DiscordAdapter

        adapters.append(
            DiscordAdapter(settings.discord, turn, commands, coalesce=settings.coalesce, conversations=found)
        )
    if settings.slack.bot_token is not None:
        from adapters.slack import SlackAdapter

        slack = SlackAdapter(
            settings.slack,
            turn,
            commands,
            data_dir=settings.storage.data_dir,
            coalesce=settings.coalesce,
            metrics=metrics,
            conversations=found,
            # PostgreSQL keeps handled event ids in the database, shared by every bot process.
            event_log=lambda ttl: app.engine.handover.events(ttl_seconds=ttl),
        )
        if settings.slack.mode == "http":
            server.add_route("POST", "/slack/events", slack.handle_http)
        adapters.append(slack)
    return adapters


async def _sweep_forever(app: App, interval: float) -> None:
    # Expiry is plain SQL and vector deletes: no model call ever happens on this timer.
    while True:
        await asyncio.sleep(interval)
        try:
            swept = await app.engine.sweep_expired()
        except Exception:
            log.warning("expiry sweep failed", exc_info=True)
        else:
            if swept:
                log.info("expired memories removed", extra={"count": swept})


class BotRuntime:
    """The running platforms: adapters, web server, expiry sweeps; `start()` then `stop()`."""

    def __init__(self, settings: Settings, app: App) -> None:
        self.settings = settings
        self.app = app
        self.metrics = app.metrics
        self.server = HealthServer(settings.server.port, self.metrics)
        self.adapters = build_adapters(
            settings, app, metered_turn(app.pipeline, self.metrics), self.server, self.metrics
        )
        self._started: list[Adapter] = []
        self._sweeper: asyncio.Task[None] | None = None

    async def start(self) -> None:
        """Serve /healthz and /metrics, then start every adapter (they connect in the background)."""
        await self.server.start()
        for adapter in self.adapters:
            self.server.register_adapter(adapter)
            await adapter.start()
            self._started.append(adapter)
        self._sweeper = asyncio.create_task(
            _sweep_forever(self.app, self.settings.memory.sweep_interval_seconds)
        )
        log.info(
            "memorybot running", extra={"adapters": [a.name for a in self.adapters], "port": self.server.port}
        )

    async def stop(self) -> None:
        """Adapters first (stop intake, flush coalescers, finish turns), then the server, then stores."""
        grace = self.settings.server.shutdown_grace_seconds
        log.info("shutting down", extra={"grace_seconds": grace})
        if self._sweeper is not None:
            self._sweeper.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._sweeper
        started, self._started = self._started, []
        results = await asyncio.gather(*(a.stop(grace) for a in started), return_exceptions=True)
        for adapter, outcome in zip(started, results, strict=True):
            if isinstance(outcome, BaseException):
                log.warning("adapter stop failed", extra={"adapter": adapter.name}, exc_info=outcome)
        await self.server.stop()
        await self.app.close()


async def run_platforms(
    settings: Settings, stop: asyncio.Event | None = None, embedder: Embedder | None = None
) -> int:
    """Run until SIGTERM/SIGINT (or `stop` is set), then shut down cleanly; returns the exit code."""
    stop = stop or asyncio.Event()
    loop = asyncio.get_running_loop()
    installed: list[signal.Signals] = []
    for sig in (signal.SIGTERM, signal.SIGINT):
        with contextlib.suppress(NotImplementedError, RuntimeError):
            loop.add_signal_handler(sig, stop.set)
            installed.append(sig)
    try:
        app = await App.start(settings, embedder=embedder)
        try:
            runtime = BotRuntime(settings, app)
        except BaseException:
            await app.close()
            raise
        try:
            await runtime.start()
            await stop.wait()
        finally:
            await runtime.stop()
    finally:
        for sig in installed:
            loop.remove_signal_handler(sig)
    return 0
