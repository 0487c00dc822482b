"""A local fake of the Anthropic and OpenAI HTTP APIs to drive the real SDKs in tests (not a test module)."""

from __future__ import annotations

import asyncio
import json
import time
import uuid
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web

from tests.fakes.local_server import LocalServer

ANTHROPIC_PATH = "/v1/messages"
OPENAI_PATH = "/v1/chat/completions"


@dataclass(slots=True)
class Reply:
    """One scripted answer: a JSON body with a status, or a hang that outlasts the client's timeout.

    With `until`, the answer is held back until the test sets that event (a slow provider that
    the test controls, with no sleeps); the test must set it before the server stops.
    """

    status: int = 200
    body: Any = None
    headers: dict[str, str] = field(default_factory=dict)
    hang: bool = False
    until: asyncio.Event | None = None


@dataclass(frozen=True, slots=True)
class RecordedRequest:
    """A request the server received; header names are lower-cased, `body` is the parsed JSON (or None)."""

    path: str
    headers: dict[str, str]
    body: Any


ReplySource = Reply | Callable[[RecordedRequest], Reply]


def ok(body: Any, **headers: str) -> Reply:
    """A 200 with `body` as JSON."""
    return Reply(200, body, dict(headers))


def error(status: int, api: str = "anthropic", *, retry_after_ms: int | None = 10) -> Reply:
    """A status-only failure (500, 529, 429, ...) with the API's error body.

    `retry-after-ms` is honoured by both SDKs, so retry tests wait milliseconds instead of the
    default half-second backoff; pass None to leave it out.
    """
    headers = {"retry-after-ms": str(retry_after_ms)} if retry_after_ms is not None else {}
    if api == "anthropic":
        kind = {
            400: "invalid_request_error",
            401: "authentication_error",
            429: "rate_limit_error",
            529: "overloaded_error",
        }.get(status, "api_error")
        body: dict[str, Any] = {"type": "error", "error": {"type": kind, "message": f"fake {status}"}}
    else:
        kind = {400: "invalid_request_error", 401: "invalid_request_error", 429: "rate_limit_exceeded"}.get(
            status, "server_error"
        )
        body = {"error": {"message": f"fake {status}", "type": kind, "param": None, "code": None}}
    return Reply(status, body, headers)


def hang() -> Reply:
    """Never answer while the server runs (released at shutdown), so the client's timeout fires."""
    return Reply(hang=True)


class FakeLLMServer(LocalServer):
    """aiohttp server on 127.0.0.1 with a free port, serving scripted replies per route.

    `async with FakeLLMServer() as server:` starts it; point the SDKs at `server.anthropic_base_url`
    or `server.openai_base_url`. An empty queue answers 500 with `x-should-retry: false`, so a test
    that makes an unexpected call fails at once with a clear message.
    """

    def __init__(self) -> None:
        super().__init__()
        self.requests: list[RecordedRequest] = []
        self._queues: dict[str, deque[ReplySource]] = {ANTHROPIC_PATH: deque(), OPENAI_PATH: deque()}
        self._release = asyncio.Event()

    @property
    def base_url(self) -> str:
        return self.url

    @property
    def anthropic_base_url(self) -> str:
        """The Anthropic SDK appends `/v1/messages` itself."""
        return self.base_url

    @property
    def openai_base_url(self) -> str:
        """The OpenAI SDK appends `/chat/completions` to a base URL that already ends in `/v1`."""
        return f"{self.base_url}/v1"

    def queue_anthropic(self, *replies: ReplySource) -> None:
        self._queues[ANTHROPIC_PATH].extend(replies)

    def queue_openai(self, *replies: ReplySource) -> None:
        self._queues[OPENAI_PATH].extend(replies)

    def queue(self, path: str, *replies: ReplySource) -> None:
        """Script replies for `path`: ANTHROPIC_PATH or OPENAI_PATH."""
        self._queues[path].extend(replies)

    def requests_to(self, path: str) -> list[RecordedRequest]:
        return [r for r in self.requests if r.path == path]

    def pending(self, path: str) -> int:
        """Scripted replies not yet served on `path`."""
        return len(self._queues[path])

    def build_app(self) -> web.Application:
        app = web.Application()
        app.router.add_post(ANTHROPIC_PATH, self._handle)
        app.router.add_post(OPENAI_PATH, self._handle)
        return app

    async def stop(self) -> None:
        self._release.set()  # lets hanging handlers return so cleanup does not wait on them
        await super().stop()

    async def _handle(self, request: web.Request) -> web.StreamResponse:
        raw = await request.read()
        try:
            body = json.loads(raw) if raw else None
        except ValueError:
            body = None
        recorded = RecordedRequest(request.path, {k.lower(): v for k, v in request.headers.items()}, body)
        self.requests.append(recorded)
        queue = self._queues[request.path]
        if not queue:
            return web.json_response(
                {
                    "error": {
                        "type": "fake_server_error",
                        "message": f"no scripted reply left for {request.path}",
                    }
                },
                status=500,
                headers={"x-should-retry": "false"},
            )
        source = queue.popleft()
        reply = source(recorded) if callable(source) else source
        if reply.hang:
            await self._release.wait()
            return web.Response(status=504)
        if reply.until is not None:
            await reply.until.wait()
        return web.json_response(reply.body, status=reply.status, headers=reply.headers)


# Realistic response bodies, shaped like the real APIs so the SDKs parse them.

ANTHROPIC_MODEL = "claude-sonnet-5-5"  # the model the replies name
OPENAI_MODEL = "gpt-5.4-mini"


def _anthropic_message(
    content: list[dict[str, Any]], stop_reason: str, input_tokens: int, output_tokens: int, model: str
) -> dict[str, Any]:
    return {
        "id": f"msg_01{uuid.uuid4().hex[:22]}",
        "type": "message",
        "role": "assistant",
        "model": model,
        "content": content,
        "stop_reason": stop_reason,
        "stop_sequence": None,
        "usage": {
            "input_tokens": input_tokens,
            "cache_creation_input_tokens": 0,
            "cache_read_input_tokens": 0,
            "output_tokens": output_tokens,
            "service_tier": "standard",
        },
    }


def anthropic_text(text: str, *, input_tokens: int = 25, output_tokens: int = 9) -> dict[str, Any]:
    """A Messages API reply with one text block, the whole answer."""
    content = [{"type": "text", "text": text}]
    return _anthropic_message(content, "end_turn", input_tokens, output_tokens, ANTHROPIC_MODEL)


def anthropic_tool_use(
    name: str,
    arguments: dict[str, Any],
    *,
    tool_id: str | None = None,
    text: str | None = None,
    thinking: str | None = None,
    input_tokens: int = 40,
    output_tokens: int = 30,
    model: str = ANTHROPIC_MODEL,
) -> dict[str, Any]:
    """A Messages API reply calling one tool, optionally after a (signed) thinking block and some text."""
    content: list[dict[str, Any]] = []
    if thinking is not None:
        content.append({"type": "thinking", "thinking": thinking, "signature": f"sig_{uuid.uuid4().hex}"})
    if text:
        content.append({"type": "text", "text": text})
    content.append(
        {
            "type": "tool_use",
            "id": tool_id or f"toolu_01{uuid.uuid4().hex[:22]}",
            "name": name,
            "input": arguments,
        }
    )
    return _anthropic_message(content, "tool_use", input_tokens, output_tokens, model)


def _openai_completion(
    message: dict[str, Any], finish_reason: str, prompt_tokens: int, completion_tokens: int, model: str
) -> dict[str, Any]:
    return {
        "id": f"chatcmpl-{uuid.uuid4().hex[:29]}",
        "object": "chat.completion",
        "created": int(time.time()),
        "model": model,
        "choices": [{"index": 0, "message": message, "logprobs": None, "finish_reason": finish_reason}],
        "usage": {
            "prompt_tokens": prompt_tokens,
            "completion_tokens": completion_tokens,
            "total_tokens": prompt_tokens + completion_tokens,
            "prompt_tokens_details": {"cached_tokens": 0, "audio_tokens": 0},
            "completion_tokens_details": {
                "reasoning_tokens": 0,
                "audio_tokens": 0,
                "accepted_prediction_tokens": 0,
                "rejected_prediction_tokens": 0,
            },
        },
        "service_tier": "default",
        "system_fingerprint": "fp_fake0001",
    }


def openai_text(text: str, *, prompt_tokens: int = 21, completion_tokens: int = 7) -> dict[str, Any]:
    """A chat completion with a plain assistant message, the whole answer."""
    message = {"role": "assistant", "content": text, "refusal": None, "annotations": []}
    return _openai_completion(message, "stop", prompt_tokens, completion_tokens, OPENAI_MODEL)


def openai_tool_calls(
    *calls: tuple[str, dict[str, Any] | str],
    ids: list[str] | None = None,
    prompt_tokens: int = 35,
    completion_tokens: int = 18,
    model: str = OPENAI_MODEL,
) -> dict[str, Any]:
    """A chat completion calling tools; each call is `(name, arguments)`, a string is sent verbatim."""
    tool_calls = []
    for index, (name, arguments) in enumerate(calls):
        tool_calls.append(
            {
                "id": ids[index] if ids else f"call_{uuid.uuid4().hex[:24]}",
                "type": "function",
                "function": {
                    "name": name,
                    "arguments": arguments if isinstance(arguments, str) else json.dumps(arguments),
                },
            }
        )
    message = {
        "role": "assistant",
        "content": None,
        "refusal": None,
        "annotations": [],
        "tool_calls": tool_calls,
    }
    return _openai_completion(message, "tool_calls", prompt_tokens, completion_tokens, model)
