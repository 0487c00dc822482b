"""OpenAI chat completions (and OpenAI-compatible servers: Ollama, vLLM, LM Studio) via the async SDK."""

from __future__ import annotations

import json
import uuid
from collections.abc import Sequence
from typing import Any, Literal

import openai

from memory.errors import ConfigError, LLMError

from .sdk_errors import request_error, token_count
from .types import ChatMessage, LLMResponse, ToolCall, ToolSpec, parse_arguments, speaker_text

# A current small model; gpt-4o-mini has an announced shutdown date in the SDK's model list.
DEFAULT_OPENAI_MODEL = "gpt-5.4-mini"

# Local OpenAI-compatible servers ignore the key, but the SDK refuses to start without one.
PLACEHOLDER_API_KEY = "not-needed"


class OpenAIProvider:
    """An `LLMProvider` over chat completions; retries (429, 5xx, connection errors) are the SDK's own."""

    name = "openai"

    def __init__(
        self,
        api_key: str | None,
        model: str = DEFAULT_OPENAI_MODEL,
        base_url: str | None = None,
        timeout: float = 60.0,
        max_retries: int = 2,
        max_output_tokens: int = 1024,
        max_tokens_param: Literal["max_tokens", "max_completion_tokens"] | None = None,
    ) -> None:
        if not api_key and not base_url:
            raise ConfigError(
                "OpenAIProvider needs an api_key (or a base_url for an OpenAI-compatible server)"
            )
        self.model = model
        self.max_output_tokens = max_output_tokens
        self.timeout = timeout
        # OpenAI's reasoning models reject `max_tokens`; compatible servers mostly know only `max_tokens`.
        self.max_tokens_param = max_tokens_param or ("max_tokens" if base_url else "max_completion_tokens")
        self._client = openai.AsyncOpenAI(
            api_key=api_key or PLACEHOLDER_API_KEY,
            base_url=base_url,
            timeout=timeout,
            max_retries=max_retries,
        )

    async def complete(
        self, system: str, messages: Sequence[ChatMessage], tools: Sequence[ToolSpec] = ()
    ) -> LLMResponse:
        """One chat-completions call; every failure comes out as LLMError."""
        kwargs: dict[str, Any] = {
            "model": self.model,
            "messages": _to_api(system, messages),
            self.max_tokens_param: self.max_output_tokens,
        }
        if tools:
            kwargs["tools"] = [
                {
                    "type": "function",
                    "function": {"name": t.name, "description": t.description, "parameters": t.parameters},
                }
                for t in tools
            ]
        try:
            completion = await self._client.chat.completions.create(**kwargs)
        except Exception as exc:
            raise request_error("openai", openai, exc, self.timeout, _error_kinds) from exc
        try:
            return _from_api(completion)
        except (AttributeError, TypeError, ValueError, IndexError) as exc:
            raise LLMError("openai: malformed response") from exc

    async def aclose(self) -> None:
        await self._client.close()


def _to_api(system: str, messages: Sequence[ChatMessage]) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = [{"role": "system", "content": system}] if system else []
    for message in messages:
        if message.role == "tool":
            out.append(
                {"role": "tool", "tool_call_id": message.tool_call_id or "", "content": message.content}
            )
        elif message.role == "assistant":
            if not message.tool_calls and not message.content:
                continue  # an empty assistant turn says nothing and some servers reject it
            entry: dict[str, Any] = {"role": "assistant", "content": message.content or None}
            if message.tool_calls:
                entry["tool_calls"] = [
                    {
                        "id": call.id,
                        "type": "function",
                        "function": {"name": call.name, "arguments": json.dumps(call.arguments)},
                    }
                    for call in message.tool_calls
                ]
            out.append(entry)
        else:
            # The API's `name` takes only [A-Za-z0-9_-] and local servers drop it: fold it into the text.
            out.append({"role": "user", "content": speaker_text(message)})
    return out


def _from_api(completion: Any) -> LLMResponse:
    if not completion.choices:
        raise LLMError("openai: malformed response (no choices)")
    choice = completion.choices[0]
    message = choice.message
    calls: list[ToolCall] = []
    for raw in message.tool_calls or []:
        function = getattr(raw, "function", None)
        if function is None:
            continue  # custom (non-function) tools are never offered, so their calls cannot be answered
        arguments, error = parse_arguments(function.arguments)
        # Some compatible servers leave the id out; the answer to the call still needs one.
        call_id = raw.id or f"call_{uuid.uuid4().hex[:24]}"
        calls.append(ToolCall(id=call_id, name=function.name, arguments=arguments, error=error))
    usage = completion.usage
    return LLMResponse(
        text=message.content or "",
        tool_calls=calls,
        stop_reason=choice.finish_reason,
        input_tokens=token_count(getattr(usage, "prompt_tokens", 0)),
        output_tokens=token_count(getattr(usage, "completion_tokens", 0)),
    )


def _error_kinds(exc: openai.APIStatusError) -> list[object]:
    return [getattr(exc, "code", None), getattr(exc, "type", None)]
