"""Provider-neutral chat types: messages, tool specs and calls, responses, the provider protocol."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol, runtime_checkable


@dataclass(frozen=True, slots=True)
class ToolSpec:
    """A tool the model may call; `parameters` is a JSON schema of type object."""

    name: str
    description: str
    parameters: dict[str, Any]


@dataclass(slots=True)
class ToolCall:
    """One tool call the model asked for.

    When the model sent arguments that are not a JSON object, `arguments` is `{}` and `error`
    says why, so the caller can answer the call with that error instead of crashing.
    """

    id: str
    name: str
    arguments: dict[str, Any]
    error: str | None = None


@dataclass(slots=True)
class ChatMessage:
    """One turn of the conversation as the bot sees it, whatever the provider."""

    role: Literal["user", "assistant", "tool"]
    content: str = ""
    tool_calls: list[ToolCall] = field(default_factory=list)
    tool_call_id: str | None = None
    name: str | None = None


@dataclass(slots=True)
class LLMResponse:
    """What the model answered: text, tool calls, why it stopped, and token usage."""

    text: str
    tool_calls: list[ToolCall]
    stop_reason: str | None
    input_tokens: int = 0
    output_tokens: int = 0

    def as_message(self) -> ChatMessage:
        """This response as the assistant turn to append to the history before tool results."""
        return ChatMessage(role="assistant", content=self.text, tool_calls=list(self.tool_calls))


@runtime_checkable
class LLMProvider(Protocol):
    """A chat model that can call tools; implementations raise only LLMError from `complete`."""

    name: str
    model: str

    async def complete(
        self, system: str, messages: Sequence[ChatMessage], tools: Sequence[ToolSpec] = ()
    ) -> LLMResponse: ...

    async def aclose(self) -> None: ...


def parse_arguments(raw: object) -> tuple[dict[str, Any], str | None]:
    """Tool-call arguments as a dict, or `({}, reason)` when they are not a JSON object."""
    if isinstance(raw, dict):
        return raw, None
    if raw is None or (isinstance(raw, str) and not raw.strip()):
        # Some OpenAI-compatible servers send "" for a call without arguments.
        return {}, None
    if not isinstance(raw, str):
        return {}, f"tool arguments must be a JSON object, got {type(raw).__name__}"
    try:
        value = json.loads(raw)
    except ValueError as exc:
        return {}, f"tool arguments are not valid JSON: {exc.msg} at position {exc.pos}"
    except RecursionError:
        return {}, "tool arguments are nested too deeply to parse"
    if not isinstance(value, dict):
        return {}, f"tool arguments must be a JSON object, got {type(value).__name__}"
    return value, None


def speaker_text(message: ChatMessage) -> str:
    """A user turn's text with its speaker folded in, for APIs without per-message names."""
    if message.role == "user" and message.name:
        return f"{message.name}: {message.content}"
    return message.content
