"""Structured logs: conversation context on every line of a turn, and no message text at info level."""

from __future__ import annotations

import asyncio
import io
import json
import logging
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from adapters.base import IncomingMessage
from bot.app import App
from bot.llm.fake import ScriptedLLM, text, tool
from bot.logs import ContextFilter, JsonFormatter, TextFormatter, current_log_context, log_context
from bot.metrics import Metrics
from bot.runner import metered_turn
from memory.embedders import CachedEmbedder
from memory.models import Audience
from memory.storage import MemoryQuery
from tests.helpers import ana_says, settings

# Appears only in what users and the model said; a log line holding it leaked a message body.
MARKER = "xqzmarker7731"


def message(text_: str, thread: str | None = "1700000000.0001") -> IncomingMessage:
    return ana_says(text_, thread_id=thread)


class Captured:
    """A JSON handler with the context filter, as `setup_logging("INFO", "json")` installs it."""

    def __init__(self) -> None:
        self.stream = io.StringIO()
        self.handler = logging.StreamHandler(self.stream)
        self.handler.setFormatter(JsonFormatter())
        self.handler.addFilter(ContextFilter())

    def lines(self) -> list[dict[str, Any]]:
        return [json.loads(line) for line in self.stream.getvalue().splitlines()]


@pytest.fixture
def captured() -> Iterator[Captured]:
    capture = Captured()
    logger = logging.getLogger("test.logs")
    logger.addHandler(capture.handler)
    logger.setLevel(logging.DEBUG)
    try:
        yield capture
    finally:
        logger.removeHandler(capture.handler)


async def test_json_lines_carry_the_context_of_the_block(captured: Captured) -> None:
    log = logging.getLogger("test.logs")
    log.info("before")
    with log_context(platform="slack", workspace_id="T1", channel_id="C1", thread_id=None):
        log.info("inside", extra={"count": 2})
        # An explicit `extra=` value wins over the context.
        log.info("explicit", extra={"channel_id": "C9"})
        with log_context(thread_id="171.1"):
            assert current_log_context() == {
                "platform": "slack",
                "workspace_id": "T1",
                "channel_id": "C1",
                "thread_id": "171.1",
            }

            # Tasks copy the context when created, so background work logs under its conversation.
            async def background() -> None:
                log.warning("background")

            task = asyncio.create_task(background())
        await task
    log.info("after")
    before, inside, explicit, in_task, after = captured.lines()
    assert before["event"] == "before" and "platform" not in before
    assert inside["event"] == "inside" and inside["level"] == "info" and inside["logger"] == "test.logs"
    assert (inside["platform"], inside["workspace_id"], inside["channel_id"], inside["count"]) == (
        "slack",
        "T1",
        "C1",
        2,
    )
    assert "thread_id" not in inside  # None values are left out
    assert explicit["channel_id"] == "C9"
    assert in_task["event"] == "background" and in_task["thread_id"] == "171.1"
    assert "platform" not in after and current_log_context() == {}


def test_text_lines_carry_the_context_too() -> None:
    record = logging.makeLogRecord({"name": "memory.engine", "msg": "memory stored", "levelno": 20})
    record.levelname = "INFO"
    with log_context(platform="discord", channel_id="general"):
        ContextFilter().filter(record)
    line = TextFormatter().format(record)
    assert line.endswith("memory.engine: memory stored platform=discord channel_id=general")


async def test_every_line_of_a_turn_names_its_conversation(
    tmp_path: Path, embedder: CachedEmbedder, caplog: pytest.LogCaptureFixture
) -> None:
    llm = ScriptedLLM([tool("remember", content="Ana's team meets on Tuesdays", type="fact"), text("Noted.")])
    app = await App.start(settings(tmp_path), embedder=embedder, llm=llm)
    await app.warming  # the start-up's own lines belong to no conversation
    capture = Captured()
    caplog.set_level(logging.INFO)
    root = logging.getLogger()
    root.addHandler(capture.handler)
    try:
        turn = metered_turn(app.pipeline, Metrics())
        assert await turn([message("I work as a nurse; remember my team meets on Tuesdays")], True)
        await app.pipeline.idle()  # background summaries log too
    finally:
        root.removeHandler(capture.handler)
        await app.close()
    # Libraries logging from worker threads (run_in_executor does not copy context variables)
    # carry no context; every line of the project's own code does.
    lines = [line for line in capture.lines() if line["logger"].split(".")[0] in ("bot", "memory")]
    events = {(line["logger"], line["event"]) for line in lines}
    assert ("memory.engine", "memory stored") in events  # from memory/, which knows no platform
    # From the background task that summarizes the turn after the reply.
    assert ("memory.summaries", "summary written") in events
    assert ("memory.summaries", "thread summary updated") in events
    for line in lines:
        assert (line["platform"], line["workspace_id"], line["channel_id"], line["thread_id"]) == (
            "slack",
            "T1",
            "C1",
            "1700000000.0001",
        ), line


async def test_info_logs_of_a_whole_turn_hold_no_message_text(
    tmp_path: Path, embedder: CachedEmbedder, caplog: pytest.LogCaptureFixture
) -> None:
    json_reply = json.dumps(
        {
            "message": f"Saved, {MARKER}.",
            "memories": [
                {"content": f"Ana's backup code is {MARKER}", "type": "fact"},
                # Refused entries are logged with the reason only.
                {"content": f"Ana's spare code is {MARKER}", "type": "not-a-type"},
                {"content": MARKER * 200},
            ],
        }
    )
    llm = ScriptedLLM(
        [
            tool("remember", content=f"Ana's locker code is {MARKER}", type="fact"),
            text(f"Got it, your code is {MARKER}."),
            text(json_reply),
            # The long second message makes the model condense the history in the background:
            # that call holds the marker too.
            text(f"Ana shared her locker code {MARKER} and a long story."),
        ]
    )
    app = await App.start(settings(tmp_path), embedder=embedder, llm=llm)
    await app.warming  # the start-up's own lines belong to no conversation
    caplog.set_level(logging.INFO)
    try:
        turn = metered_turn(app.pipeline, Metrics())
        first = await turn([message(f"I work as a nurse. My locker code is {MARKER}, remember it")], True)
        assert first is not None and MARKER in first
        await app.pipeline.idle()
        story = f"Also keep {MARKER} as my backup code. " + "It has a long story with many lockers. " * 140
        second = await turn([message(story, thread=None)], True)
        assert second is not None and MARKER in second
        await app.pipeline.idle()
        audience = Audience("slack", "T1", "default", viewer_id="U1", channel_id="C1")
        stored = [m.content for m in await app.engine.list_memories(audience, MemoryQuery(limit=50))]
    finally:
        await app.close()
    # The marker went everywhere a body goes: the transcript, memories, model replies and summaries.
    assert any(MARKER in content for content in stored)
    records = [r for r in caplog.records if r.levelno >= logging.INFO]
    logged = {r.getMessage() for r in records}
    assert {"memory stored", "memory in JSON reply refused", "background model call"} <= logged
    assert not llm.remaining  # every scripted call, the background ones included, was made
    formatter = JsonFormatter()
    for record in records:
        assert MARKER not in formatter.format(record), formatter.format(record)
