"""`memorybot run` as a process: Slack over HTTP on $PORT, /healthz, signed events, SIGTERM shutdown."""

from __future__ import annotations

import asyncio
import json
import signal
import socket
import sys
from pathlib import Path

import aiohttp
import pytest

from tests.fakes.slack_api import FakeSlackAPI
from tests.helpers import ROOT, SECRET, child_env, signed_headers


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


async def read_until(stream: asyncio.StreamReader, message: str) -> dict[str, object]:
    """The first JSON log record whose message is `message` (the process says when it is up)."""
    while True:
        line = await stream.readline()
        if not line:
            raise AssertionError(f"process ended before logging {message!r}")
        try:
            record = json.loads(line)
        except ValueError:
            continue
        if record.get("event") == message:
            return record


@pytest.mark.model  # the `memorybot run` process loads the model
async def test_run_serves_slack_over_http_and_stops_on_sigterm(tmp_path: Path) -> None:
    port = free_port()
    async with FakeSlackAPI() as slack:
        env = child_env(
            MEMORYBOT_DATA_DIR=str(tmp_path / "data"),
            LLM_PROVIDER="offline",
            SLACK_BOT_TOKEN="xoxb-test-token",
            SLACK_SIGNING_SECRET=SECRET,
            SLACK_MODE="http",
            SLACK_API_URL=slack.api_url,
            PORT=str(port),
            LOG_FORMAT="json",
            LOG_LEVEL="INFO",
        )
        process = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "bot", "run",
            stdin=asyncio.subprocess.DEVNULL, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
            env=env, cwd=ROOT,
        )  # fmt: skip
        assert process.stderr is not None
        try:
            running = await asyncio.wait_for(read_until(process.stderr, "memorybot running"), 240)
            assert running.get("adapters") == ["slack"]
            base = f"http://127.0.0.1:{port}"
            async with aiohttp.ClientSession() as http:
                async with http.get(f"{base}/healthz") as response:
                    assert response.status == 200
                    health = await response.json()
                assert set(health["adapters"]) == {"slack"}
                body = json.dumps({"type": "url_verification", "challenge": "c-123", "token": "t"})
                async with http.post(f"{base}/slack/events", data=body, headers=signed_headers(body)) as r:
                    assert r.status == 200
                    assert "c-123" in await r.text()
                forged = signed_headers(body, secret="not-the-secret")
                async with http.post(f"{base}/slack/events", data=body, headers=forged) as r:
                    assert r.status == 401
                async with http.get(f"{base}/metrics") as response:
                    assert "memorybot_adapter_ready" in await response.text()
            process.send_signal(signal.SIGTERM)
            await asyncio.wait_for(read_until(process.stderr, "shutting down"), 60)
            assert await asyncio.wait_for(process.wait(), 120) == 0
        finally:
            if process.returncode is None:
                process.kill()
                await process.wait()
    # The run reached the fake Web API (identity check), never the real one.
    assert slack.calls_to("auth.test")
