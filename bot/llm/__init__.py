"""Language-model providers behind one small interface: Anthropic, OpenAI(-compatible), a scripted fake."""

from memory.errors import LLMError

from .anthropic_provider import DEFAULT_ANTHROPIC_MODEL, AnthropicProvider
from .factory import build_provider
from .fake import RecordedCall, ScriptedLLM, text, tool
from .openai_provider import DEFAULT_OPENAI_MODEL, OpenAIProvider
from .types import ChatMessage, LLMProvider, LLMResponse, ToolCall, ToolSpec

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
