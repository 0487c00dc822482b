"""The runtime behind `memorybot run`: web server, metered turns, clean shutdown."""

from __future__ import annotations

import asyncio
from pathlib import Path

import aiohttp
import pytest

from adapters.base import IncomingMessage
from bot.app import App
from bot.config import Settings
from bot.llm.fake import ScriptedLLM, text
from bot.runner import BotRuntime, metered_turn, run_platforms
from memory.embedders import CachedEmbedder
from tests.helpers import settings


def runtime_settings(tmp_path: Path) -> Settings:
    return settings(tmp_path, server={"port": 0})


async def test_runtime_serves_health_and_metrics_and_counts_turns(
    tmp_path: Path, embedder: CachedEmbedder
) -> None:
    llm = ScriptedLLM([text("Hello Ana!"), text("Ana said hi and told a long story.")])
    app = await App.start(runtime_settings(tmp_path), embedder=embedder, llm=llm)
    runtime = BotRuntime(app.settings, app)
    await runtime.start()
    try:
        turn = metered_turn(app.pipeline, runtime.metrics)
        reply = await turn(
            # Long enough for the model to condense the history in the background.
            [
                IncomingMessage(
                    "console", "local", "terminal", "ana", "Ana", "hi, I'm Ana. " + "Once upon a time. " * 300
                )
            ],
            True,
        )
        assert reply == "Hello Ana!"
        async with aiohttp.ClientSession() as http:
            async with http.get(f"{runtime.server.url}/healthz") as response:
                assert response.status == 200
                assert (await response.json()) == {"status": "ok", "adapters": {}}
            async with http.get(f"{runtime.server.url}/metrics") as response:
                body = await response.text()
        assert 'memorybot_turns_total{outcome="replied",platform="console"} 1.0' in body
        assert 'memorybot_messages_received_total{platform="console"} 1.0' in body
        assert 'memorybot_prehook_stage_seconds_count{stage="embed"} 1.0' in body
        await app.pipeline.idle()  # the turn's summaries were charged to its message
        body = runtime.metrics.render().decode()
        assert 'memorybot_background_model_calls_total{purpose="condense_summary"} 1.0' in body
        assert 'purpose="turn_summary"' not in body
    finally:
        await runtime.stop()
    assert llm.closed  # stop() closed the stores and the model client


async def test_model_errors_are_counted(tmp_path: Path, embedder: CachedEmbedder) -> None:
    from memory.errors import LLMError

    llm = ScriptedLLM([LLMError("fake: down")])
    app = await App.start(runtime_settings(tmp_path), embedder=embedder, llm=llm)
    runtime = BotRuntime(app.settings, app)
    try:
        turn = metered_turn(app.pipeline, runtime.metrics)
        message = IncomingMessage("console", "local", "terminal", "ana", "Ana", "are you there?")
        reply = await turn([message], True)
        assert reply is not None and "couldn't reach" in reply
        body = runtime.metrics.render().decode()
        assert 'memorybot_llm_errors_total{provider="fake"} 1.0' in body
        assert 'memorybot_turns_total{outcome="model_error",platform="console"} 1.0' in body
    finally:
        await runtime.stop()


async def test_run_platforms_stops_cleanly_when_asked(tmp_path: Path, embedder: CachedEmbedder) -> None:
    stop = asyncio.Event()
    task = asyncio.create_task(run_platforms(runtime_settings(tmp_path), stop, embedder=embedder))
    await asyncio.sleep(0)
    stop.set()
    assert await task == 0
    assert (tmp_path / "data" / "memorybot.sqlite3").exists()


async def test_a_start_that_fails_midway_closes_what_it_had_opened(
    tmp_path: Path, embedder: CachedEmbedder, monkeypatch: pytest.MonkeyPatch
) -> None:
    from memory.engine import MemoryEngine
    from memory.summaries import SummaryManager

    closed: list[MemoryEngine] = []
    close = MemoryEngine.close

    async def recording_close(self: MemoryEngine) -> None:
        closed.append(self)
        await close(self)

    async def failing_reconcile(self: SummaryManager) -> int:
        raise OSError("disk failed")

    monkeypatch.setattr(MemoryEngine, "close", recording_close)
    monkeypatch.setattr(SummaryManager, "reconcile", failing_reconcile)
    llm = ScriptedLLM()
    with pytest.raises(OSError, match="disk failed"):
        await App.start(settings(tmp_path), embedder=embedder, llm=llm)
    assert llm.closed and len(closed) == 1
