"""The load benchmark's paced stand-in model, and how the benchmark tells a leak from a marker."""

from __future__ import annotations

import asyncio
import contextvars
import itertools
import json
import random
import re
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from adapters.base import IncomingMessage
from bot.llm.types import ChatMessage, LLMResponse, ToolCall, ToolSpec
from memory.models import Audience, Visibility
from memory.prehook import PrehookResult
from memory.scope import audience_allows, row_visible

if TYPE_CHECKING:
    from .load import LoadOptions

# The mark every simulated message carries: its conversation and message numbers.
MARKER = re.compile(r"code-\d{4}-\d{6}(?!\d)")
# The model sees the conversation's turn through this, and the summarizer's calls inherit it.
METER: contextvars.ContextVar[TurnMeter | None] = contextvars.ContextVar("bench_load_meter", default=None)


@dataclass(frozen=True, slots=True)
class Origin:
    """Where a marker was said: enough to apply the scope rules to any text carrying it."""

    platform: str
    workspace_id: str
    channel_id: str
    author_id: str
    visibility: Visibility

    @classmethod
    def of(cls, message: IncomingMessage) -> Origin:
        visibility = message.conversation.visibility
        return cls(message.platform, message.workspace_id, message.channel_id, message.author_id, visibility)


@dataclass(slots=True)
class TurnMeter:
    """One batch's view for the model: who may read it, its own markers, and model time spent."""

    audience: Audience
    author_name: str
    markers: list[str]
    model_seconds: float = 0.0
    # Set when the handler returns: background calls spawned by the turn still see the audience,
    # but their time no longer belongs to the turn's overhead.
    closed: bool = False


@dataclass(slots=True)
class LeakLog:
    """Privacy violations seen during the run, with a few examples for the log."""

    count: int = 0
    examples: list[str] = field(default_factory=list)

    def add(self, n: int, example: str) -> None:
        if n <= 0:
            return
        self.count += n
        if len(self.examples) < 10:
            self.examples.append(example)


def marker_leaks(text: str, audience: Audience, origins: Mapping[str, Origin], agent_id: str) -> list[str]:
    """Markers in `text` that the scope rules forbid in the conversation `audience` reads."""
    leaked = set()
    for marker in MARKER.findall(text):
        origin = origins.get(marker)
        # What someone said in a shared conversation may reach their own DM as a memory of
        # themselves (the heuristic memories of a message are about its author).
        if origin is not None and not audience_allows(
            audience,
            platform=origin.platform,
            workspace_id=origin.workspace_id,
            agent_id=agent_id,
            visibility=origin.visibility,
            channel_id=origin.channel_id,
            author_id=origin.author_id,
            user_id=origin.author_id,
            subjects=True,
        ):
            leaked.add(marker)
    return sorted(leaked)


def injection_leaks(hook: PrehookResult | None, audience: Audience) -> list[str]:
    """Ids of injected memories, turns and summaries the scope rules forbid for `audience`."""
    if hook is None:
        return []
    items: list[Any] = [*hook.injected, *hook.injected_messages, *hook.injected_summaries]
    return [item.id for item in items if not row_visible(audience, item)]


def _seen_text(system: str, messages: Sequence[ChatMessage]) -> str:
    parts = [system]
    for m in messages:
        parts.append(m.content)
        parts.extend(json.dumps(c.arguments) for c in m.tool_calls)
    return "\n".join(parts)


class PacedModel:
    """An `LLMProvider` that waits like a hosted model, then answers about the turn's own markers.

    It checks everything it is sent for markers the conversation may not see (`leaks`), and
    adds its own time to the turn's meter so the benchmark can subtract it. Some turns first
    call `remember`, some answer in the JSON form with a memory, so the model's writes are
    exercised too; summary requests (no tools) get a summary made of the markers they contain.
    """

    name = "bench-load"
    model = "paced"

    def __init__(
        self,
        options: LoadOptions,
        origins: Mapping[str, Origin],
        agent_id: str,
        leaks: LeakLog,
    ) -> None:
        self._delay = options.model_delay_ms / 1000
        self._jitter = options.jitter
        self._tool_share = options.tool_share
        self._json_share = options.json_share
        self._rng = random.Random(options.seed + 1)
        self._origins = origins
        self._agent_id = agent_id
        self._ids = itertools.count(1)
        self.leaks = leaks
        self.calls = 0
        self.unattributed = 0

    async def complete(
        self, system: str, messages: Sequence[ChatMessage], tools: Sequence[ToolSpec] = ()
    ) -> LLMResponse:
        started = time.perf_counter()
        meter = METER.get()
        self.calls += 1
        seen = _seen_text(system, messages)
        if meter is None:
            self.unattributed += 1
        else:
            leaked = marker_leaks(seen, meter.audience, self._origins, self._agent_id)
            self.leaks.add(len(leaked), f"model saw {leaked[:3]} in {where(meter.audience)}")
        delay = self._delay * self._rng.uniform(1 - self._jitter, 1 + self._jitter)
        if delay > 0:
            await asyncio.sleep(delay)
        response = self._answer(meter, messages, tools, seen)
        if meter is not None and not meter.closed:
            meter.model_seconds += time.perf_counter() - started
        return response

    def _answer(
        self,
        meter: TurnMeter | None,
        messages: Sequence[ChatMessage],
        tools: Sequence[ToolSpec],
        seen: str,
    ) -> LLMResponse:
        if not tools or meter is None:
            found = list(dict.fromkeys(MARKER.findall(messages[-1].content if messages else seen)))
            return _text("Summary: the conversation mentioned " + ", ".join(found[-12:] or ["nothing new"]))
        own = meter.markers[-1] if meter.markers else "nothing"
        first_round = bool(messages) and messages[-1].role != "tool"
        roll = self._rng.random()
        if first_round and roll < self._tool_share:
            call = ToolCall(
                id=f"load_{next(self._ids)}",
                name="remember",
                arguments={
                    "content": f"{meter.author_name} shared the reference {own}",
                    "subjects": [meter.author_name.casefold(), "reference"],
                },
            )
            return LLMResponse(text="", tool_calls=[call], stop_reason="tool_use")
        reply = f"Got it, {meter.author_name}: noted {', '.join(meter.markers)}."
        if first_round and roll < self._tool_share + self._json_share:
            memory = {"content": f"{meter.author_name} mentioned {own}", "type": "fact"}
            return _text(json.dumps({"message": reply, "memories": [memory]}))
        return _text(reply)

    async def aclose(self) -> None:
        return None


def _text(s: str) -> LLMResponse:
    return LLMResponse(text=s, tool_calls=[], stop_reason="end_turn")


def where(audience: Audience) -> str:
    dm = " (DM)" if audience.private_ok else ""
    return f"{audience.platform}/{audience.workspace_id}/{audience.channel_id}{dm}"
