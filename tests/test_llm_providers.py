"""LLM providers through the real anthropic/openai SDKs against a local fake server; the factory; the fake."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import anthropic
import openai
import pytest
import pytest_asyncio

from adapters.base import IncomingMessage
from bot.app import App
from bot.config import LLMSettings
from bot.llm import (
    DEFAULT_ANTHROPIC_MODEL,
    DEFAULT_OPENAI_MODEL,
    AnthropicProvider,
    ChatMessage,
    LLMError,
    LLMProvider,
    LLMResponse,
    OpenAIProvider,
    ScriptedLLM,
    ToolCall,
    ToolSpec,
    build_provider,
    text,
    tool,
)
from bot.llm.factory import build_summary_provider
from memory.embedders import CachedEmbedder
from tests import helpers
from tests.fakes.llm_server import (
    ANTHROPIC_PATH,
    OPENAI_PATH,
    FakeLLMServer,
    RecordedRequest,
    anthropic_text,
    anthropic_tool_use,
    error,
    hang,
    ok,
    openai_text,
    openai_tool_calls,
)

ANTHROPIC_KEY = "sk-ant-test-0123456789"
OPENAI_KEY = "sk-test-0123456789"
SYSTEM = "You are a helpful bot with a memory."
REMEMBER = ToolSpec(
    name="remember",
    description="Store a durable fact about the user.",
    parameters={
        "type": "object",
        "properties": {"content": {"type": "string"}, "memory_type": {"type": "string"}},
        "required": ["content"],
    },
)
REMEMBER_ARGS = {"content": "Mickael prefers tea over coffee", "memory_type": "preference"}


Factory = Callable[..., Any]


@pytest_asyncio.fixture
async def make(llm_server: FakeLLMServer) -> AsyncIterator[Factory]:
    """Builds providers pointed at the fake llm_server (fast failure settings by default) and closes them."""
    made: list[LLMProvider] = []

    def factory(kind: str, **overrides: Any) -> Any:
        options: dict[str, Any] = {"timeout": 5.0, "max_retries": 0, "max_output_tokens": 256, **overrides}
        provider: LLMProvider
        if kind == "anthropic":
            options.setdefault("api_key", ANTHROPIC_KEY)
            provider = AnthropicProvider(base_url=llm_server.anthropic_base_url, **options)
        else:
            options.setdefault("api_key", OPENAI_KEY)
            provider = OpenAIProvider(base_url=llm_server.openai_base_url, **options)
        made.append(provider)
        return provider

    yield factory
    for provider in made:
        await provider.aclose()


def text_body(kind: str, reply: str) -> dict[str, Any]:
    return anthropic_text(reply) if kind == "anthropic" else openai_text(reply)


def path_of(kind: str) -> str:
    return ANTHROPIC_PATH if kind == "anthropic" else OPENAI_PATH


async def hi_there(
    llm_server: FakeLLMServer, make: Factory, kind: str, body: dict[str, Any]
) -> tuple[LLMResponse, RecordedRequest]:
    """Mickael says "hi there" through a `kind` provider whose server answers `body`: the reply
    and the one request the provider sent."""
    llm_server.queue(path_of(kind), ok(body))
    reply = await make(kind).complete(SYSTEM, [ChatMessage("user", "hi there", name="Mickael")])
    [request] = llm_server.requests_to(path_of(kind))
    return reply, request


@pytest.mark.asyncio
@pytest.mark.parametrize(
    ("kind", "body", "expected", "model"),
    [
        (
            "anthropic",
            anthropic_text("Hello Mickael!", input_tokens=25, output_tokens=9),
            LLMResponse("Hello Mickael!", [], "end_turn", input_tokens=25, output_tokens=9),
            DEFAULT_ANTHROPIC_MODEL,
        ),
        (
            "openai",
            openai_text("Hello Mickael!", prompt_tokens=21, completion_tokens=7),
            LLMResponse("Hello Mickael!", [], "stop", input_tokens=21, output_tokens=7),
            DEFAULT_OPENAI_MODEL,
        ),
    ],
)
async def test_text_reply_with_usage(
    llm_server: FakeLLMServer,
    make: Factory,
    kind: str,
    body: dict[str, Any],
    expected: LLMResponse,
    model: str,
) -> None:
    reply, request = await hi_there(llm_server, make, kind, body)
    assert reply == expected
    assert request.body["model"] == model
    # OpenAI's too: a base_url means a compatible server, which knows the widely known name.
    assert request.body["max_tokens"] == 256
    assert "tools" not in request.body


# --- Anthropic ------------------------------------------------------------------------------------


@pytest.mark.asyncio
async def test_anthropic_sends_the_system_prompt_apart_and_its_key(
    llm_server: FakeLLMServer, make: Factory
) -> None:
    _, request = await hi_there(llm_server, make, "anthropic", anthropic_text("Hello Mickael!"))
    assert request.body["system"] == SYSTEM
    assert request.body["messages"] == [
        {"role": "user", "content": [{"type": "text", "text": "Mickael: hi there"}]}
    ]
    # This SDK sends the key as a bearer token; older ones used x-api-key. Either way it must arrive.
    assert ANTHROPIC_KEY in request.headers.get("x-api-key", "") + request.headers.get("authorization", "")
    assert request.headers["anthropic-version"]


async def remember_round_trip(provider: LLMProvider, call_id: str) -> tuple[LLMResponse, LLMResponse]:
    """The user states a preference; the model calls `remember` (as `call_id`), gets the result and
    answers "Got it, tea it is." Returns (the call, the answer)."""
    history = [ChatMessage("user", "I prefer tea over coffee", name="Mickael")]
    asked = await provider.complete(SYSTEM, history, [REMEMBER])
    [call] = asked.tool_calls
    assert (call.id, call.name, call.arguments, call.error) == (call_id, "remember", REMEMBER_ARGS, None)
    history += [asked.as_message(), ChatMessage("tool", "stored as memory m1", tool_call_id=call.id)]
    answered = await provider.complete(SYSTEM, history, [REMEMBER])
    assert answered.text == "Got it, tea it is."
    return asked, answered


@pytest.mark.asyncio
async def test_anthropic_tool_round_trip_echoes_the_assistant_turn(
    llm_server: FakeLLMServer, make: Factory
) -> None:
    first = anthropic_tool_use(
        "remember",
        REMEMBER_ARGS,
        tool_id="toolu_01remember",
        text="Noting that.",
        thinking="The user stated a preference worth keeping.",
    )
    llm_server.queue_anthropic(ok(first), ok(anthropic_text("Got it, tea it is.")))
    asked, answered = await remember_round_trip(make("anthropic"), "toolu_01remember")

    assert asked.stop_reason == "tool_use"
    assert asked.text == "Noting that."
    assert answered.tool_calls == []
    second = llm_server.requests_to(ANTHROPIC_PATH)[1].body
    assert second["tools"] == [
        {"name": "remember", "description": REMEMBER.description, "input_schema": REMEMBER.parameters}
    ]
    assert second["messages"] == [
        {"role": "user", "content": [{"type": "text", "text": "Mickael: I prefer tea over coffee"}]},
        # Echoed exactly as received, signed thinking block included: the API rejects a rebuilt turn.
        {"role": "assistant", "content": first["content"]},
        {
            "role": "user",
            "content": [
                {"type": "tool_result", "tool_use_id": "toolu_01remember", "content": "stored as memory m1"}
            ],
        },
    ]
    assert second["messages"][1]["content"][0]["type"] == "thinking"


@pytest.mark.asyncio
async def test_anthropic_history_alternates_and_tool_results_come_first(
    llm_server: FakeLLMServer, make: Factory
) -> None:
    llm_server.queue_anthropic(ok(anthropic_text("ok")))
    provider = make("anthropic")
    history = [
        ChatMessage("assistant", "Welcome back."),
        ChatMessage("user", "first", name="Ann"),
        ChatMessage("user", "second", name="Bob"),
        ChatMessage(
            "assistant", "Let me note that.", tool_calls=[ToolCall("call_x", "remember", {"content": "x"})]
        ),
        ChatMessage("tool", "", tool_call_id="call_x"),
        ChatMessage("user", "thanks"),
    ]

    await provider.complete("", history)

    body = llm_server.requests_to(ANTHROPIC_PATH)[0].body
    assert "system" not in body
    roles = [turn["role"] for turn in body["messages"]]
    assert roles == ["user", "assistant", "user", "assistant", "user"]
    assert body["messages"][2]["content"] == [
        {"type": "text", "text": "Ann: first"},
        {"type": "text", "text": "Bob: second"},
    ]
    # Not produced by this provider, so rebuilt from the ChatMessage.
    assert body["messages"][3]["content"] == [
        {"type": "text", "text": "Let me note that."},
        {"type": "tool_use", "id": "call_x", "name": "remember", "input": {"content": "x"}},
    ]
    assert body["messages"][4]["content"] == [
        {"type": "tool_result", "tool_use_id": "call_x"},
        {"type": "text", "text": "thanks"},
    ]


# --- OpenAI ---------------------------------------------------------------------------------------


@pytest.mark.asyncio
async def test_openai_sends_the_system_prompt_first_and_its_key(
    llm_server: FakeLLMServer, make: Factory
) -> None:
    _, request = await hi_there(llm_server, make, "openai", openai_text("Hello Mickael!"))
    assert request.body["messages"] == [
        {"role": "system", "content": SYSTEM},
        {"role": "user", "content": "Mickael: hi there"},
    ]
    assert request.headers["authorization"] == f"Bearer {OPENAI_KEY}"


@pytest.mark.asyncio
async def test_openai_compatible_server_without_key_gets_a_placeholder(
    llm_server: FakeLLMServer, make: Factory
) -> None:
    llm_server.queue_openai(ok(openai_text("hi")))
    provider = make("openai", api_key=None, model="llama3.2", max_tokens_param="max_completion_tokens")

    assert (await provider.complete("", [ChatMessage("user", "hi")])).text == "hi"

    [request] = llm_server.requests_to(OPENAI_PATH)
    assert request.headers["authorization"] == "Bearer not-needed"
    assert request.body["model"] == "llama3.2"
    assert request.body["max_completion_tokens"] == 256 and "max_tokens" not in request.body
    assert request.body["messages"] == [{"role": "user", "content": "hi"}]


@pytest.mark.asyncio
async def test_openai_tool_round_trip(llm_server: FakeLLMServer, make: Factory) -> None:
    llm_server.queue_openai(
        ok(openai_tool_calls(("remember", REMEMBER_ARGS), ids=["call_abc123"])),
        ok(openai_text("Got it, tea it is.")),
    )
    asked, _ = await remember_round_trip(make("openai"), "call_abc123")

    assert asked.stop_reason == "tool_calls"
    assert asked.text == ""
    assert (asked.input_tokens, asked.output_tokens) == (35, 18)
    second = llm_server.requests_to(OPENAI_PATH)[1].body
    assert second["tools"] == [
        {
            "type": "function",
            "function": {
                "name": "remember",
                "description": REMEMBER.description,
                "parameters": REMEMBER.parameters,
            },
        }
    ]
    assert second["messages"][:2] == [
        {"role": "system", "content": SYSTEM},
        {"role": "user", "content": "Mickael: I prefer tea over coffee"},
    ]
    assistant, result = second["messages"][2:]
    assert assistant["role"] == "assistant" and not assistant.get("content")
    [sent_call] = assistant["tool_calls"]
    assert sent_call["id"] == "call_abc123" and sent_call["type"] == "function"
    assert sent_call["function"]["name"] == "remember"
    assert json.loads(sent_call["function"]["arguments"]) == REMEMBER_ARGS
    assert result == {"role": "tool", "tool_call_id": "call_abc123", "content": "stored as memory m1"}


@pytest.mark.asyncio
async def test_openai_malformed_tool_arguments_become_tool_call_errors(
    llm_server: FakeLLMServer, make: Factory
) -> None:
    llm_server.queue_openai(
        ok(openai_tool_calls(("remember", "{not json"), ("remember", "[1, 2]"), ("recall", "")))
    )
    provider = make("openai")

    reply = await provider.complete(SYSTEM, [ChatMessage("user", "remember this")], [REMEMBER])

    broken, not_object, empty = reply.tool_calls
    assert broken.arguments == {} and broken.error is not None and "not valid JSON" in broken.error
    assert not_object.arguments == {} and not_object.error is not None and "list" in not_object.error
    assert (empty.name, empty.arguments, empty.error) == ("recall", {}, None)  # "" means no arguments
    assert broken.id and broken.id != not_object.id


# --- Both: retries, failures, timeouts ------------------------------------------------------------


@pytest.mark.asyncio
@pytest.mark.parametrize(
    ("kind", "status"),
    [
        ("anthropic", 500),
        ("anthropic", 529),
        ("anthropic", 429),
        ("openai", 500),
        ("openai", 429),
    ],
)
async def test_sdk_retries_a_transient_failure(
    llm_server: FakeLLMServer, make: Factory, kind: str, status: int
) -> None:
    llm_server.queue(path_of(kind), error(status, kind), ok(text_body(kind, "recovered")))
    provider = make(kind, max_retries=1)

    reply = await provider.complete(SYSTEM, [ChatMessage("user", "hi")])

    assert reply.text == "recovered"
    first, retry = llm_server.requests_to(path_of(kind))
    assert first.body == retry.body
    assert retry.headers.get("x-stainless-retry-count") == "1"


@pytest.mark.asyncio
@pytest.mark.parametrize("kind", ["anthropic", "openai"])
async def test_persistent_server_error_raises_llm_error(
    llm_server: FakeLLMServer, make: Factory, kind: str
) -> None:
    llm_server.queue(path_of(kind), error(500, kind), error(500, kind))
    provider = make(kind, max_retries=1)
    secret_prompt = "my bank PIN is 4321"

    with pytest.raises(LLMError) as caught:
        await provider.complete(SYSTEM, [ChatMessage("user", secret_prompt)])

    assert len(llm_server.requests_to(path_of(kind))) == 2  # the first try and one retry, no more
    message = str(caught.value)
    assert message.startswith(f"{kind}: HTTP 500")
    for leak in (secret_prompt, ANTHROPIC_KEY, OPENAI_KEY, "fake 500"):
        assert leak not in message
    sdk_error = anthropic.InternalServerError if kind == "anthropic" else openai.InternalServerError
    assert isinstance(caught.value.__cause__, sdk_error)


@pytest.mark.asyncio
@pytest.mark.parametrize("kind", ["anthropic", "openai"])
async def test_client_error_is_not_retried(llm_server: FakeLLMServer, make: Factory, kind: str) -> None:
    llm_server.queue(path_of(kind), error(400, kind))
    provider = make(kind, max_retries=2)

    with pytest.raises(LLMError, match="HTTP 400 invalid_request_error"):
        await provider.complete(SYSTEM, [ChatMessage("user", "hi")])

    assert len(llm_server.requests_to(path_of(kind))) == 1


@pytest.mark.asyncio
@pytest.mark.parametrize("kind", ["anthropic", "openai"])
async def test_timeout_raises_llm_error(llm_server: FakeLLMServer, make: Factory, kind: str) -> None:
    llm_server.queue(path_of(kind), hang())
    provider = make(kind, timeout=0.5, max_retries=0)

    with pytest.raises(LLMError, match=r"timed out after 0\.5s") as caught:
        await provider.complete(SYSTEM, [ChatMessage("user", "hi")])

    sdk_error = anthropic.APITimeoutError if kind == "anthropic" else openai.APITimeoutError
    assert isinstance(caught.value.__cause__, sdk_error)
    assert len(llm_server.requests_to(path_of(kind))) == 1


@pytest.mark.asyncio
@pytest.mark.parametrize("kind", ["anthropic", "openai"])
async def test_malformed_response_raises_llm_error(
    llm_server: FakeLLMServer, make: Factory, kind: str
) -> None:
    llm_server.queue(path_of(kind), ok({"unexpected": True}))
    provider = make(kind)

    with pytest.raises(LLMError, match="malformed response"):
        await provider.complete(SYSTEM, [ChatMessage("user", "hi")])


@pytest.mark.asyncio
@pytest.mark.parametrize("kind", ["anthropic", "openai"])
async def test_connection_refused_raises_llm_error(kind: str) -> None:
    async with FakeLLMServer() as gone:
        base = gone.anthropic_base_url if kind == "anthropic" else gone.openai_base_url
    # The server is stopped: nothing listens on its port any more.
    provider: LLMProvider = (
        AnthropicProvider(ANTHROPIC_KEY, base_url=base, max_retries=0)
        if kind == "anthropic"
        else OpenAIProvider(OPENAI_KEY, base_url=base, max_retries=0)
    )
    try:
        with pytest.raises(LLMError, match="connection"):
            await provider.complete(SYSTEM, [ChatMessage("user", "hi")])
    finally:
        await provider.aclose()


# --- Factory --------------------------------------------------------------------------------------


@pytest.fixture
def clean_llm_env(monkeypatch: pytest.MonkeyPatch) -> None:
    for var in (
        "LLM_PROVIDER",
        "LLM_MODEL",
        "ANTHROPIC_API_KEY",
        "ANTHROPIC_BASE_URL",
        "OPENAI_API_KEY",
        "OPENAI_BASE_URL",
    ):
        monkeypatch.delenv(var, raising=False)


def settings(**values: Any) -> LLMSettings:
    return LLMSettings(_env_file=None, **values)  # type: ignore[call-arg]


@pytest.mark.asyncio
@pytest.mark.usefixtures("clean_llm_env")
async def test_factory_picks_the_configured_provider() -> None:
    assert build_provider(settings()) is None
    assert build_provider(settings(provider="offline", anthropic_api_key="k")) is None

    claude = build_provider(
        settings(anthropic_api_key="k", timeout_seconds=12, max_retries=4, max_output_tokens=300)
    )
    gpt = build_provider(settings(provider="openai", openai_api_key="k", model="gpt-5.5"))
    local = build_provider(settings(openai_base_url="http://127.0.0.1:11434/v1", model="llama3.2"))
    try:
        assert isinstance(claude, AnthropicProvider)
        assert (claude.model, claude.timeout, claude.max_output_tokens) == (DEFAULT_ANTHROPIC_MODEL, 12, 300)
        assert claude._client.max_retries == 4
        assert isinstance(gpt, OpenAIProvider)
        assert (gpt.model, gpt.max_tokens_param) == ("gpt-5.5", "max_completion_tokens")
        assert isinstance(local, OpenAIProvider)
        assert (local.model, local.max_tokens_param) == ("llama3.2", "max_tokens")
        assert str(local._client.base_url).startswith("http://127.0.0.1:11434/v1")
    finally:
        for provider in (claude, gpt, local):
            if provider is not None:
                await provider.aclose()


@pytest.mark.usefixtures("clean_llm_env")
def test_factory_names_the_missing_key() -> None:
    with pytest.raises(ValueError, match="LLM_PROVIDER=anthropic needs ANTHROPIC_API_KEY"):
        build_provider(settings(provider="anthropic", openai_api_key="k"))
    with pytest.raises(ValueError, match="LLM_PROVIDER=openai needs OPENAI_API_KEY"):
        build_provider(settings(provider="openai", anthropic_api_key="k"))


# --- The scripted fake ----------------------------------------------------------------------------


@pytest.mark.asyncio
async def test_scripted_llm_replays_its_queue_and_records_calls() -> None:
    def echo(system: str, messages: list[ChatMessage], tools: list[ToolSpec]) -> LLMResponse:
        return text(f"{system}|{messages[-1].content}|{len(tools)}")

    fake = ScriptedLLM([tool("remember", name="tea"), echo, LLMError("boom")])
    history = [ChatMessage("user", "hi")]

    first = await fake.complete("sys", history, [REMEMBER])
    history.append(ChatMessage("user", "again"))
    second = await fake.complete("sys", history, [REMEMBER])
    with pytest.raises(LLMError, match="boom"):
        await fake.complete("sys", history)
    with pytest.raises(LLMError, match="no scripted response left for call #4"):
        await fake.complete("sys", history)

    assert first.tool_calls[0].name == "remember" and first.tool_calls[0].arguments == {"name": "tea"}
    assert second.text == "sys|again|1"
    assert [len(call.messages) for call in fake.calls] == [1, 2, 2, 2]  # snapshots, not the live list
    assert fake.calls[0].tools == [REMEMBER]
    assert isinstance(fake, LLMProvider)
    await fake.aclose()
    assert fake.closed


@pytest.mark.asyncio
@pytest.mark.usefixtures("clean_llm_env")
async def test_summaries_use_llm_summary_model_when_set(tmp_path: Path, embedder: CachedEmbedder) -> None:
    """LLM_SUMMARY_MODEL: background summaries go to a cheaper model of the same provider."""
    assert build_summary_provider(settings(provider="openai", openai_api_key="k")) is None
    async with FakeLLMServer() as server:
        llm = {
            "provider": "openai",
            "openai_base_url": server.openai_base_url,
            "model": "reply-model",
            "summary_model": "summary-model",
        }
        app = await App.start(helpers.settings(tmp_path, llm=llm), embedder=embedder)
        server.queue_openai(ok(openai_text("Noted.")), ok(openai_text("Alice moved to Lyon.")))
        try:
            message = IncomingMessage("slack", "T1", "C1", "U1", "Alice", "I moved to Lyon", timestamp=1.8e9)
            assert (await app.pipeline.handle([message])).reply == "Noted."
            with app.pipeline.model_budget.message("m1"):
                summary = await app.pipeline.summaries.summarizer.summarize(
                    ["Alice: I moved to Lyon"], level=2, budget_chars=200
                )
        finally:
            await app.close()
        assert summary == "Alice moved to Lyon."
        models = [r.body["model"] for r in server.requests_to(OPENAI_PATH)]
        assert models == ["reply-model", "summary-model"]
