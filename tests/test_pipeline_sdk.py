"""The turn pipeline on the real anthropic and openai SDKs, against a fake API server on 127.0.0.1."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest

from adapters.base import IncomingMessage
from bot.llm import AnthropicProvider, LLMProvider, OpenAIProvider
from bot.pipeline import APOLOGY, TurnPipeline, TurnResult
from memory.engine import MemoryEngine
from memory.models import Audience, MemoryDraft, Scope
from memory.storage import MemoryQuery
from tests import helpers
from tests.fakes.llm_server import (
    ANTHROPIC_PATH,
    OPENAI_PATH,
    FakeLLMServer,
    Reply,
    anthropic_text,
    anthropic_tool_use,
    error,
    ok,
    openai_text,
    openai_tool_calls,
)
from tests.helpers import (
    ROOT,
    FakeClock,
    anthropic_provider,
    child_env,
    openai_provider,
    settings,
    spawn_python,
)

GENERAL = Scope("slack", "T1", "C1", "default")
AUDIENCE = Audience("slack", "T1", "default", viewer_id="U1", channel_id="C1")


def anthropic(server: FakeLLMServer) -> AnthropicProvider:
    return anthropic_provider(server, max_retries=0)


def openai_(server: FakeLLMServer) -> OpenAIProvider:
    return openai_provider(server, model="gpt-5.4-mini", max_retries=0)


def message(text: str, clock: FakeClock) -> IncomingMessage:
    """Mickael mentions the bot in Slack channel C1, 10 s after the clock's last message."""
    return helpers.message(
        text,
        clock,
        "U1",
        name="Mickael",
        platform="slack",
        workspace="T1",
        channel="C1",
        step=10,
        mentions_bot=True,
    )


async def one_turn(
    engine: MemoryEngine, llm: LLMProvider, tmp_path: Path, text: str, clock: FakeClock
) -> TurnResult:
    """One message through a pipeline on `llm`, both closed afterwards."""
    pipeline = TurnPipeline(engine, settings(tmp_path), llm=llm)
    try:
        return await pipeline.handle([message(text, clock)])
    finally:
        await pipeline.aclose()
        await llm.aclose()


def remembers_event(content: str, subjects: list[str], reply: str) -> tuple[Reply, Reply]:
    """Anthropic answers: a `remember` call storing an event, then the reply once it is stored."""
    call = anthropic_tool_use("remember", {"content": content, "subjects": subjects, "type": "event"})
    return ok(call), ok(anthropic_text(reply))


async def contents(engine: MemoryEngine) -> list[str]:
    return [m.content for m in await engine.list_memories(AUDIENCE, MemoryQuery(limit=100))]


async def test_anthropic_tool_round_trip_stores_a_memory(
    llm_server: FakeLLMServer, engine: MemoryEngine, tmp_path: Path, clock: FakeClock
) -> None:
    await engine.remember(MemoryDraft("Mickael supports Olympique Lyonnais", GENERAL, author_id="U1"))
    llm_server.queue_anthropic(
        *remembers_event(
            "Mickael is moving to Nantes in March", ["mickael", "move"], "Good luck with the move to Nantes!"
        )
    )
    result = await one_turn(
        engine,
        anthropic(llm_server),
        tmp_path,
        "Any tips for a Lyon fan who moves to Nantes in March?",
        clock,
    )
    assert result.reply == "Good luck with the move to Nantes!"
    assert "Mickael is moving to Nantes in March 2027" in await contents(engine)
    # The turn's two calls carry the tools; any later one is a background summary.
    first, second = [r.body for r in llm_server.requests_to(ANTHROPIC_PATH) if "tools" in r.body][:2]
    assert {t["name"] for t in first["tools"]} == {"remember", "search_memories", "get_recent_memories"}
    # The pre-hook's block went to the model inside the user turn, before the user's text.
    user_blocks = first["messages"][-1]["content"]
    assert user_blocks[0]["text"].startswith("<memory_context>")
    assert "Olympique Lyonnais" in user_blocks[0]["text"]
    assert user_blocks[-1]["text"].startswith("Mickael: Any tips for a Lyon fan")
    # The second request answers the tool call with what the write path did.
    results = [b for b in second["messages"][-1]["content"] if b["type"] == "tool_result"]
    assert json.loads(results[0]["content"])["status"] == "stored"
    assert "memory_context" in first["system"] and "remember" in first["system"]


async def test_openai_tool_round_trip_stores_a_memory(
    llm_server: FakeLLMServer, engine: MemoryEngine, tmp_path: Path, clock: FakeClock
) -> None:
    call = ("remember", {"content": "Mickael prefers window seats", "type": "preference"})
    llm_server.queue_openai(ok(openai_tool_calls(call)), ok(openai_text("Window seat it is.")))
    result = await one_turn(
        engine, openai_(llm_server), tmp_path, "Book me a window seat, I always prefer those", clock
    )
    assert result.reply == "Window seat it is."
    assert "Mickael prefers window seats" in await contents(engine)
    second = llm_server.requests_to(OPENAI_PATH)[1].body
    tool_message = second["messages"][-1]
    assert tool_message["role"] == "tool"
    assert json.loads(tool_message["content"])["status"] == "stored"
    assert second["messages"][0]["role"] == "system"


async def test_openai_malformed_tool_arguments_get_an_error_result(
    llm_server: FakeLLMServer, engine: MemoryEngine, tmp_path: Path, clock: FakeClock
) -> None:
    llm_server.queue_openai(
        ok(openai_tool_calls(("remember", '{"content": "half'))),
        ok(openai_text("Sorry, let me skip that.")),
    )
    result = await one_turn(engine, openai_(llm_server), tmp_path, "remember this", clock)
    assert result.reply == "Sorry, let me skip that."
    tool_message = llm_server.requests_to(OPENAI_PATH)[1].body["messages"][-1]
    assert "not valid JSON" in json.loads(tool_message["content"])["error"]


async def test_provider_error_gives_an_apology_and_keeps_the_message(
    llm_server: FakeLLMServer, engine: MemoryEngine, tmp_path: Path, clock: FakeClock
) -> None:
    llm_server.queue_anthropic(error(529))
    result = await one_turn(
        engine, anthropic(llm_server), tmp_path, "Did you get my note about the Nantes flat?", clock
    )
    assert result.reply == APOLOGY
    assert result.error is not None and "529" in result.error
    stored = await engine.storage.turns.recent(GENERAL)
    assert [(m.role, m.content) for m in stored] == [("user", "Did you get my note about the Nantes flat?")]


async def _chat(env: dict[str, str], stdin: str) -> tuple[int, str, str]:
    """`memorybot chat` as Mickael, fed `stdin`: its exit code, stdout and stderr. A subprocess on
    this event loop, so the fake server keeps answering while it runs."""
    process = await spawn_python(
        "-m", "bot", "chat", "--user", "Mickael", env=env, cwd=ROOT, stdin=asyncio.subprocess.PIPE
    )
    out, err = await process.communicate(stdin.encode())
    return process.returncode or 0, out.decode(), err.decode()


def _env(tmp_path: Path, **extra: str) -> dict[str, str]:
    """The child's environment: data under `tmp_path/data`, no retries, the provider `extra` names."""
    env = child_env(MEMORYBOT_DATA_DIR=str(tmp_path / "data"), LLM_MAX_RETRIES="0", **extra)
    env.pop("LLM_PROVIDER", None)
    return env


@pytest.mark.model  # the `memorybot chat` process loads the model
async def test_memorybot_chat_runs_the_whole_pipeline_on_a_configured_model(
    llm_server: FakeLLMServer, tmp_path: Path
) -> None:
    env = _env(tmp_path, ANTHROPIC_API_KEY="sk-ant-test", ANTHROPIC_BASE_URL=llm_server.anthropic_base_url)

    def answer(request: Any) -> Any:
        # Reply with what the block told the model, so the test sees the recall end to end.
        text = json.dumps(request.body["messages"])
        return ok(anthropic_text("You broke your shoulder." if "shoulder" in text else "Noted."))

    llm_server.queue_anthropic(
        *remembers_event(
            "Mickael broke his shoulder on 10 January 2026", ["mickael", "shoulder"], "Ouch, get well soon."
        )
    )
    code, out, err = await _chat(env, "I broke my shoulder on 10 January\n")
    assert code == 0, err
    assert out.strip() == "Ouch, get well soon."

    llm_server.queue_anthropic(answer)
    code, out, err = await _chat(env, "what happened to me in January?\n")
    assert code == 0, err
    assert out.strip() == "You broke your shoulder."
    last = [r.body for r in llm_server.requests_to(ANTHROPIC_PATH) if "tools" in r.body][-1]
    block = last["messages"][-1]["content"][0]["text"]
    assert block.startswith("<memory_context>") and "shoulder" in block


@pytest.mark.model  # the `memorybot chat` process loads the model
async def test_memorybot_chat_apologises_when_the_model_is_down(
    llm_server: FakeLLMServer, tmp_path: Path
) -> None:
    env = _env(tmp_path, OPENAI_API_KEY="sk-test", OPENAI_BASE_URL=llm_server.openai_base_url)
    llm_server.queue_openai(error(500, "openai"))
    code, out, err = await _chat(env, "hello, are you there?\n")
    assert code == 0, err
    assert out.strip() == APOLOGY
