"""What the two SDK providers share: a failed request as an LLMError that names no prose, token counts."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from types import ModuleType
from typing import Any

from memory.errors import LLMError

# API error codes and request ids are echoed in logs; anything else (the API's prose) may quote the request.
_IDENTIFIER = re.compile(r"^[A-Za-z0-9_.:-]{1,64}$")


def request_error(
    provider: str,
    sdk: ModuleType,
    exc: Exception,
    timeout: float,
    kinds: Callable[[Any], Sequence[object]],
) -> LLMError:
    """The LLMError for a request `sdk` (anthropic or openai) raised `exc` on; `kinds` gives an
    HTTP error's codes, of which only identifiers are kept."""
    # A timeout is a connection error too in both SDKs: it is asked first.
    if isinstance(exc, sdk.APITimeoutError):
        return LLMError(f"{provider}: request timed out after {timeout:g}s")
    if isinstance(exc, sdk.APIConnectionError):
        return LLMError(f"{provider}: connection to the API failed")
    if isinstance(exc, sdk.APIStatusError):
        return LLMError(_status_error(provider, exc, kinds(exc)))
    # SDK validation, auth resolution, anything else: still a provider failure.
    return LLMError(f"{provider}: request failed ({type(exc).__name__})")


def _status_error(provider: str, exc: Any, kinds: Sequence[object]) -> str:
    """`openai: HTTP 429 rate_limit_exceeded (request req_…)`: identifiers only, since servers may
    echo the request back."""
    parts = [f"{provider}: HTTP {exc.status_code}"]
    for value in kinds:
        if isinstance(value, str) and _IDENTIFIER.match(value) and value not in parts:
            parts.append(value)
    request_id = getattr(exc, "request_id", None)
    if isinstance(request_id, str) and _IDENTIFIER.match(request_id):
        parts.append(f"(request {request_id})")
    return " ".join(parts)


def token_count(value: Any) -> int:
    """A usage count as reported, 0 when the API left it out."""
    return value if isinstance(value, int) else 0
