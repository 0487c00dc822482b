"""Builds the configured LLM provider from settings, or None when the bot runs offline."""

from __future__ import annotations

from bot.config import LLMSettings
from memory.errors import ConfigError

from .types import LLMProvider


def build_provider(settings: LLMSettings) -> LLMProvider | None:
    """The provider `settings` ask for; None means offline (no model configured).

    Raises ValueError naming the missing variable when a provider is chosen without its key.
    Keys are read with `get_secret_value()` only to hand them to the SDK; they are never logged.
    """
    provider = settings.resolved_provider
    if provider == "offline":
        return None
    if provider == "anthropic":
        key = settings.anthropic_api_key.get_secret_value() if settings.anthropic_api_key else ""
        if not key:
            raise ConfigError("LLM_PROVIDER=anthropic needs ANTHROPIC_API_KEY")
        # Each SDK is imported by the provider that uses it: together they are most of a command's
        # start-up (over a second), which the offline bot and the `memories` commands never need.
        from .anthropic_provider import DEFAULT_ANTHROPIC_MODEL, AnthropicProvider

        return AnthropicProvider(
            api_key=key,
            model=settings.model or DEFAULT_ANTHROPIC_MODEL,
            base_url=settings.anthropic_base_url or None,
            timeout=settings.timeout_seconds,
            max_retries=settings.max_retries,
            max_output_tokens=settings.max_output_tokens,
        )
    if provider == "openai":
        key = settings.openai_api_key.get_secret_value() if settings.openai_api_key else ""
        if not key and not settings.openai_base_url:
            raise ConfigError(
                "LLM_PROVIDER=openai needs OPENAI_API_KEY (or OPENAI_BASE_URL for a compatible server)"
            )
        from .openai_provider import DEFAULT_OPENAI_MODEL, OpenAIProvider

        return OpenAIProvider(
            api_key=key or None,
            model=settings.model or DEFAULT_OPENAI_MODEL,
            base_url=settings.openai_base_url or None,
            timeout=settings.timeout_seconds,
            max_retries=settings.max_retries,
            max_output_tokens=settings.max_output_tokens,
        )
    raise ConfigError(f"unknown LLM_PROVIDER {provider!r} (expected anthropic, openai or offline)")


def build_summary_provider(settings: LLMSettings) -> LLMProvider | None:
    """The provider for background summaries when `LLM_SUMMARY_MODEL` names a model of its own,
    else None (summaries then use the reply model)."""
    if not settings.summary_model or settings.resolved_provider == "offline":
        return None
    return build_provider(settings.model_copy(update={"model": settings.summary_model}))
