"""Language-model providers behind one small interface: Anthropic, OpenAI(-compatible), a scripted fake."""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from memory.errors import LLMError

from .factory import build_provider
from .fake import RecordedCall, ScriptedLLM, text, tool
from .types import ChatMessage, LLMProvider, LLMResponse, ToolCall, ToolSpec

if TYPE_CHECKING:
    from .anthropic_provider import DEFAULT_ANTHROPIC_MODEL, AnthropicProvider
    from .openai_provider import DEFAULT_OPENAI_MODEL, OpenAIProvider

# The SDK-backed names load on first use: importing the anthropic and openai SDKs costs over a
# second, which a bot without a model and every `memorybot memories` command would pay for nothing.
_LAZY = {
    "AnthropicProvider": ".anthropic_provider",
    "DEFAULT_ANTHROPIC_MODEL": ".anthropic_provider",
    "OpenAIProvider": ".openai_provider",
    "DEFAULT_OPENAI_MODEL": ".openai_provider",
}


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(module, __name__), name)


__all__ = [
    "DEFAULT_ANTHROPIC_MODEL",
    "DEFAULT_OPENAI_MODEL",
    "AnthropicProvider",
    "ChatMessage",
    "LLMError",
    "LLMProvider",
    "LLMResponse",
    "OpenAIProvider",
    "RecordedCall",
    "ScriptedLLM",
    "ToolCall",
    "ToolSpec",
    "build_provider",
    "text",
    "tool",
]
