"""The model call: the tool loop, then the memories a JSON reply asks to keep."""

from __future__ import annotations

import logging

from memory.errors import InvalidInput

from ..json_reply import ParsedReply
from ..llm.types import ChatMessage, LLMProvider
from ..memory_tools import MEMORY_TOOLS, MemoryToolbox

# One logger for the whole turn pipeline, whichever of its modules speaks.
log = logging.getLogger("bot.pipeline")

_TOOL_LIMIT_RESULT = '{"error": "tool round limit reached: reply to the user now, without tools"}'


async def complete(
    llm: LLMProvider, system: str, history: list[ChatMessage], toolbox: MemoryToolbox, rounds: int
) -> str:
    """The tool loop: up to `rounds` rounds of tool calls, then the model must answer."""
    messages = list(history)
    for round_number in range(rounds + 2):
        response = await llm.complete(system, messages, MEMORY_TOOLS if rounds else ())
        if not response.tool_calls:
            return response.text
        if round_number >= rounds:
            if round_number == rounds + 1 or response.text.strip():
                return response.text
            # One last call in which every tool answers "limit reached", so the model replies.
            messages.append(response.as_message())
            messages.extend(
                ChatMessage(role="tool", content=_TOOL_LIMIT_RESULT, tool_call_id=c.id, name=c.name)
                for c in response.tool_calls
            )
            continue
        messages.append(response.as_message())
        for call in response.tool_calls:
            outcome = await toolbox.call(call)
            messages.append(ChatMessage(role="tool", content=outcome, tool_call_id=call.id, name=call.name))
    return ""


async def keep_reply_memories(parsed: ParsedReply, toolbox: MemoryToolbox) -> None:
    """Store the memories a JSON reply carries, through the same toolbox as the tool calls."""
    for problem in parsed.errors:
        log.info("memory in JSON reply refused", extra={"reason": problem})
    for problem in parsed.warnings:
        log.warning("memory in JSON reply kept without its TTL", extra={"reason": problem})
    for request_, about in parsed.memories:
        try:
            await toolbox.remember(request_, about)
        except InvalidInput as exc:
            log.info("memory in JSON reply refused", extra={"reason": str(exc)})
        except Exception:  # the reply still goes out when its memory cannot be stored
            log.warning("memory in JSON reply not stored", exc_info=True)
