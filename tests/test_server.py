"""The web server: /healthz ok and degraded, /metrics exposition, mounted routes, port 0."""

from __future__ import annotations

from collections.abc import AsyncIterator

import aiohttp
import pytest
from aiohttp import web

from bot.metrics import Metrics
from bot.server import HealthServer


class StubAdapter:
    def __init__(self, name: str, ready: bool) -> None:
        self.name = name
        self.ready = ready

    async def start(self) -> None:
        return None

    async def stop(self, grace: float | None = None) -> None:
        return None


@pytest.fixture
async def http() -> AsyncIterator[aiohttp.ClientSession]:
    async with aiohttp.ClientSession() as session:
        yield session


async def test_healthz_is_ok_when_every_adapter_is_ready(http: aiohttp.ClientSession) -> None:
    server = HealthServer(0, Metrics(), host="127.0.0.1")
    server.register_adapter(StubAdapter("slack", True))
    async with server:
        assert server.port > 0
        async with http.get(f"{server.url}/healthz") as resp:
            assert resp.status == 200
            assert await resp.json() == {"status": "ok", "adapters": {"slack": {"ready": True}}}


async def test_healthz_reports_degraded_but_stays_200_unless_strict(http: aiohttp.ClientSession) -> None:
    slack = StubAdapter("slack", False)
    server = HealthServer(0, Metrics(), host="127.0.0.1")
    server.register_adapter(slack)
    server.register_adapter(StubAdapter("discord", True))
    async with server:
        async with http.get(f"{server.url}/healthz") as resp:
            assert resp.status == 200
            body = await resp.json()
        assert body["status"] == "degraded"
        assert body["adapters"] == {"slack": {"ready": False}, "discord": {"ready": True}}
        async with http.get(f"{server.url}/healthz?strict=1") as resp:
            assert resp.status == 503
        slack.ready = True  # read live, not cached at registration
        async with http.get(f"{server.url}/healthz?strict=1") as resp:
            assert resp.status == 200
            assert (await resp.json())["status"] == "ok"


async def test_metrics_exposes_every_family_after_increments(http: aiohttp.ClientSession) -> None:
    metrics = Metrics()
    metrics.messages_received.labels("slack").inc(3)
    metrics.replies_sent.labels("slack").inc()
    metrics.observe_turn("slack", "replied", 0.42)
    metrics.prehook_stage_seconds.labels("embed").observe(0.003)
    metrics.llm_errors.labels("anthropic").inc()
    metrics.track_memory_writes({("fact", "conversation"): 2})
    metrics.commands.labels("slack", "list").inc()
    metrics.events_deduplicated.labels("slack").inc()
    pending = [4]
    metrics.track_pending("slack", lambda: pending[0])
    server = HealthServer(0, metrics, host="127.0.0.1")
    server.register_adapter(StubAdapter("slack", False))
    async with server:
        async with http.get(f"{server.url}/metrics") as resp:
            assert resp.status == 200
            assert resp.headers["Content-Type"].startswith("text/plain; version=")
            text = await resp.text()
    expected = [
        'memorybot_messages_received_total{platform="slack"} 3.0',
        'memorybot_replies_sent_total{platform="slack"} 1.0',
        'memorybot_turns_total{outcome="replied",platform="slack"} 1.0',
        'memorybot_turn_seconds_count{platform="slack"} 1.0',
        'memorybot_prehook_stage_seconds_count{stage="embed"} 1.0',
        'memorybot_llm_errors_total{provider="anthropic"} 1.0',
        'memorybot_memories_written_total{kind="fact",source="conversation"} 2.0',
        'memorybot_commands_total{command="list",platform="slack"} 1.0',
        'memorybot_events_deduplicated_total{platform="slack"} 1.0',
        'memorybot_coalescer_pending{platform="slack"} 4.0',
        'memorybot_adapter_ready{adapter="slack"} 0.0',
    ]
    for line in expected:
        assert line in text, line
    # Its own registry: nothing from the process-global one (python_gc_*, process_*).
    assert "python_gc_objects_collected_total" not in text


async def test_metrics_instances_are_independent() -> None:
    first, second = Metrics(), Metrics()
    first.messages_received.labels("slack").inc()
    assert b'messages_received_total{platform="slack"} 1.0' in first.render()
    assert b'messages_received_total{platform="slack"}' not in second.render()


async def test_mounted_route_is_served_and_routes_freeze_at_start(http: aiohttp.ClientSession) -> None:
    seen: list[bytes] = []

    async def events(request: web.Request) -> web.Response:
        seen.append(await request.read())
        return web.json_response({"ok": True})

    server = HealthServer(0, Metrics(), host="127.0.0.1")
    server.add_route("POST", "/slack/events", events)
    async with server:
        async with http.post(f"{server.url}/slack/events", data=b'{"type":"x"}') as resp:
            assert resp.status == 200
            assert await resp.json() == {"ok": True}
        async with http.get(f"{server.url}/nope") as resp:
            assert resp.status == 404
        with pytest.raises(RuntimeError):
            server.add_route("GET", "/late", events)
    assert seen == [b'{"type":"x"}']


async def test_port_is_unknown_before_start_and_stop_is_idempotent() -> None:
    server = HealthServer(0, Metrics(), host="127.0.0.1")
    with pytest.raises(RuntimeError):
        _ = server.port
    await server.start()
    port = server.port
    await server.stop()
    await server.stop()
    assert port > 0
