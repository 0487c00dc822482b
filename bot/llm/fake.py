"""A scripted stand-in for a language model: canned replies in order, every call recorded."""

from __future__ import annotations

import inspect
import itertools
from collections import deque
from collections.abc import Awaitable, Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Any, TypeAlias

from memory.errors import LLMError

from .types import ChatMessage, LLMResponse, ToolCall, ToolSpec

Responder: TypeAlias = Callable[
    [str, list[ChatMessage], list[ToolSpec]], LLMResponse | Awaitable[LLMResponse]
]
Scripted: TypeAlias = LLMResponse | BaseException | Responder

_call_ids = itertools.count(1)


@dataclass(frozen=True, slots=True)
class RecordedCall:
    """What the fake was asked: a snapshot, so later edits to the caller's history do not show here."""

    system: str
    messages: list[ChatMessage]
    tools: list[ToolSpec]


class ScriptedLLM:
    """An `LLMProvider` that answers from a queue.

    Each entry is an `LLMResponse` (returned), an exception (raised), or a callable taking
    `(system, messages, tools)` and returning an `LLMResponse` (or an awaitable of one).
    An empty queue raises LLMError, so a test never hangs on an unexpected extra call.
    """

    name = "fake"

    def __init__(self, responses: Iterable[Scripted] = (), *, model: str = "scripted") -> None:
        self.model = model
        self.calls: list[RecordedCall] = []
        self.closed = False
        self._queue: deque[Scripted] = deque(responses)

    def add(self, *responses: Scripted) -> None:
        """Queue more responses after the ones already there."""
        self._queue.extend(responses)

    @property
    def remaining(self) -> int:
        """How many scripted responses are still queued."""
        return len(self._queue)

    async def complete(
        self, system: str, messages: Sequence[ChatMessage], tools: Sequence[ToolSpec] = ()
    ) -> LLMResponse:
        snapshot = [replace(m, tool_calls=list(m.tool_calls)) for m in messages]
        self.calls.append(RecordedCall(system, snapshot, list(tools)))
        if not self._queue:
            raise LLMError(
                f"ScriptedLLM: no scripted response left for call #{len(self.calls)} "
                f"(last message: {messages[-1].role if messages else 'none'})"
            )
        item = self._queue.popleft()
        if isinstance(item, BaseException):
            raise item
        if isinstance(item, LLMResponse):
            return item
        result = item(system, list(snapshot), list(tools))
        if inspect.isawaitable(result):
            result = await result
        if not isinstance(result, LLMResponse):
            raise LLMError(f"ScriptedLLM: responder returned {type(result).__name__}, not LLMResponse")
        return result

    async def aclose(self) -> None:
        self.closed = True


def text(s: str, *, input_tokens: int = 0, output_tokens: int = 0) -> LLMResponse:
    """A plain text reply."""
    return LLMResponse(
        text=s, tool_calls=[], stop_reason="end_turn", input_tokens=input_tokens, output_tokens=output_tokens
    )


def tool(name: str, /, **args: Any) -> LLMResponse:
    """A reply that calls one tool with `args` (ids are unique per process: `call_1`, `call_2`, ...)."""
    call = ToolCall(id=f"call_{next(_call_ids)}", name=name, arguments=dict(args))
    return LLMResponse(text="", tool_calls=[call], stop_reason="tool_use")
