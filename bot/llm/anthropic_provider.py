"""Claude through the official `anthropic` async SDK (Messages API with tool use)."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Sequence
from typing import Any

import anthropic

from memory.errors import ConfigError, LLMError

from .sdk_errors import request_error, token_count
from .types import ChatMessage, LLMResponse, ToolCall, ToolSpec, parse_arguments, speaker_text

# The current Sonnet: fast and capable enough for chat. The SDK warns that claude-sonnet-4-5 is deprecated.
DEFAULT_ANTHROPIC_MODEL = "claude-sonnet-5-5"

# Assistant turns that called tools are replayed from here: recent models think by default and the API
# rejects a tool-result round trip whose assistant turn lost its (signed) thinking blocks or was rebuilt.
# A tool loop only needs its latest rounds, so a small bound is plenty.
_ECHO_LIMIT = 256

# Placeholder for a history that starts with an assistant turn: the API wants a user turn first.
_OPENING_USER_TURN = "(earlier conversation omitted)"


class AnthropicProvider:
    """An `LLMProvider` for Claude; retries (429, 5xx, connection errors) are the SDK's own."""

    name = "anthropic"

    def __init__(
        self,
        api_key: str,
        model: str = DEFAULT_ANTHROPIC_MODEL,
        base_url: str | None = None,
        timeout: float = 60.0,
        max_retries: int = 2,
        max_output_tokens: int = 1024,
    ) -> None:
        if not api_key:
            # Without a key the SDK would go looking for credential files and profiles on disk.
            raise ConfigError("AnthropicProvider needs an api_key")
        self.model = model
        self.max_output_tokens = max_output_tokens
        self.timeout = timeout
        self._client = anthropic.AsyncAnthropic(
            api_key=api_key, base_url=base_url, timeout=timeout, max_retries=max_retries
        )
        self._echo: OrderedDict[tuple[str, ...], list[Any]] = OrderedDict()

    async def complete(
        self, system: str, messages: Sequence[ChatMessage], tools: Sequence[ToolSpec] = ()
    ) -> LLMResponse:
        """One Messages API call; every failure comes out as LLMError."""
        api_messages = self._to_api(messages)
        if not api_messages:
            raise LLMError("anthropic: no messages to send")
        kwargs: dict[str, Any] = {
            "model": self.model,
            "max_tokens": self.max_output_tokens,
            "messages": api_messages,
        }
        if system:
            kwargs["system"] = system
        if tools:
            kwargs["tools"] = [
                {"name": t.name, "description": t.description, "input_schema": t.parameters} for t in tools
            ]
        try:
            message = await self._client.messages.create(**kwargs)
        except Exception as exc:
            raise request_error("anthropic", anthropic, exc, self.timeout, _error_kinds) from exc
        try:
            return self._from_api(message)
        except (AttributeError, TypeError, ValueError) as exc:
            raise LLMError("anthropic: malformed response") from exc

    async def aclose(self) -> None:
        await self._client.close()

    def _to_api(self, messages: Sequence[ChatMessage]) -> list[dict[str, Any]]:
        turns: list[dict[str, Any]] = []
        for message in messages:
            role, blocks = self._blocks(message)
            if not blocks:
                continue
            # The API wants user and assistant turns to alternate: merge neighbours of the same role.
            if turns and turns[-1]["role"] == role:
                turns[-1]["content"].extend(blocks)
            else:
                turns.append({"role": role, "content": blocks})
        for turn in turns:
            if turn["role"] == "user":
                # Tool results must open the user turn that follows the tool calls; the sort is stable.
                turn["content"].sort(key=lambda block: 0 if _is_tool_result(block) else 1)
        if turns and turns[0]["role"] != "user":
            turns.insert(0, {"role": "user", "content": [{"type": "text", "text": _OPENING_USER_TURN}]})
        return turns

    def _blocks(self, message: ChatMessage) -> tuple[str, list[Any]]:
        if message.role == "tool":
            result: dict[str, Any] = {"type": "tool_result", "tool_use_id": message.tool_call_id or ""}
            if message.content:  # empty text content is rejected; an absent one is fine
                result["content"] = message.content
            return "user", [result]
        if message.role == "assistant":
            if message.tool_calls:
                echoed = self._echo.get(tuple(call.id for call in message.tool_calls))
                if echoed is not None:
                    return "assistant", list(echoed)
            blocks: list[Any] = [{"type": "text", "text": message.content}] if message.content else []
            blocks.extend(
                {"type": "tool_use", "id": call.id, "name": call.name, "input": call.arguments}
                for call in message.tool_calls
            )
            return "assistant", blocks
        text = speaker_text(message)
        return "user", [{"type": "text", "text": text}] if text else []

    def _from_api(self, message: Any) -> LLMResponse:
        texts: list[str] = []
        calls: list[ToolCall] = []
        for block in message.content:
            kind = getattr(block, "type", None)
            if kind == "text":
                texts.append(block.text)
            elif kind == "tool_use":
                arguments, error = parse_arguments(block.input)
                calls.append(ToolCall(id=block.id, name=block.name, arguments=arguments, error=error))
            # thinking / redacted_thinking / server-tool blocks are not for the user; they are echoed below.
        if calls:
            self._remember(tuple(call.id for call in calls), list(message.content))
        usage = message.usage
        # Cached prompt tokens are reported apart from `input_tokens`; all of them were read.
        input_tokens = (
            token_count(usage.input_tokens)
            + token_count(getattr(usage, "cache_creation_input_tokens", 0))
            + token_count(getattr(usage, "cache_read_input_tokens", 0))
        )
        return LLMResponse(
            text="".join(texts),
            tool_calls=calls,
            stop_reason=message.stop_reason,
            input_tokens=input_tokens,
            output_tokens=token_count(usage.output_tokens),
        )

    def _remember(self, key: tuple[str, ...], content: list[Any]) -> None:
        self._echo[key] = content
        self._echo.move_to_end(key)
        while len(self._echo) > _ECHO_LIMIT:
            self._echo.popitem(last=False)


def _is_tool_result(block: Any) -> bool:
    return isinstance(block, dict) and block.get("type") == "tool_result"


def _error_kinds(exc: anthropic.APIStatusError) -> list[object]:
    body = exc.body
    error = body.get("error") if isinstance(body, dict) else None
    return [error.get("type") if isinstance(error, dict) else None]
