"""Model calls and tokens counted by provider and purpose, through a wrapper around any provider."""

from __future__ import annotations

import contextvars
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, replace
from typing import Any

from .types import ChatMessage, LLMProvider, LLMResponse, ToolSpec

# Why the current model call is made ("reply", "turn_summary", ...). A context variable, so the
# caller that knows the purpose need not reach the wrapper, and tasks created inside inherit it.
_purpose: contextvars.ContextVar[str] = contextvars.ContextVar("memorybot_llm_purpose", default="other")


@contextmanager
def llm_purpose(purpose: str) -> Iterator[None]:
    """Count the model calls made inside this block under `purpose`."""
    token = _purpose.set(purpose)
    try:
        yield
    finally:
        _purpose.reset(token)


def current_purpose() -> str:
    """The purpose model calls made here are counted under ("other" outside any `llm_purpose`)."""
    return _purpose.get()


@dataclass(slots=True)
class UsageCounts:
    """Running totals for one (provider, purpose): calls made, calls that failed, tokens."""

    calls: int = 0
    errors: int = 0
    input_tokens: int = 0
    output_tokens: int = 0


class LLMUsage:
    """Monotonic tallies per (provider, purpose), plain integers that /metrics reads at scrape time."""

    def __init__(self) -> None:
        self._counts: dict[tuple[str, str], UsageCounts] = {}

    def _entry(self, provider: str, purpose: str) -> UsageCounts:
        key = (provider, purpose)
        entry = self._counts.get(key)
        if entry is None:
            entry = self._counts[key] = UsageCounts()
        return entry

    def record(self, provider: str, purpose: str, response: LLMResponse) -> None:
        """One call that answered, with the token usage the provider reported (0 when none)."""
        entry = self._entry(provider, purpose)
        entry.calls += 1
        entry.input_tokens += max(0, response.input_tokens)
        entry.output_tokens += max(0, response.output_tokens)

    def record_error(self, provider: str, purpose: str) -> None:
        """One call that failed; whatever it may have cost is unknown, so no tokens are added."""
        entry = self._entry(provider, purpose)
        entry.calls += 1
        entry.errors += 1

    def snapshot(self) -> dict[tuple[str, str], UsageCounts]:
        """A copy of every tally, keyed by (provider, purpose)."""
        return {key: replace(counts) for key, counts in self._counts.items()}


class CountingProvider:
    """An `LLMProvider` that passes every call to `inner` and tallies it in `usage`.

    Other attributes are read from `inner`, so code holding the wrapper still reaches the
    provider's own helpers (a scripted test model's queue, for instance).
    """

    def __init__(self, inner: LLMProvider, usage: LLMUsage) -> None:
        self.inner = inner
        self.usage = usage
        self.name = inner.name
        self.model = inner.model

    async def complete(
        self, system: str, messages: Sequence[ChatMessage], tools: Sequence[ToolSpec] = ()
    ) -> LLMResponse:
        purpose = current_purpose()
        try:
            response = await self.inner.complete(system, messages, tools)
        except Exception:
            self.usage.record_error(self.inner.name, purpose)
            raise
        self.usage.record(self.inner.name, purpose, response)
        return response

    async def aclose(self) -> None:
        await self.inner.aclose()

    def __getattr__(self, attribute: str) -> Any:
        # Only reached for attributes not defined here; `inner` itself is guarded so a half-built
        # wrapper (copy, pickle) raises AttributeError instead of recursing.
        if attribute == "inner":
            raise AttributeError(attribute)
        return getattr(self.inner, attribute)


def counted(provider: LLMProvider, usage: LLMUsage) -> CountingProvider:
    """`provider` counted in `usage`; an already counted provider is re-pointed, not wrapped twice."""
    if isinstance(provider, CountingProvider):
        return CountingProvider(provider.inner, usage)
    return CountingProvider(provider, usage)
