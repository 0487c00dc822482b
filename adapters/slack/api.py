"""What every Slack module shares: the platform's name and the error code of a failed Web API call."""

from __future__ import annotations

PLATFORM = "slack"


def error_code(exc: BaseException) -> str:
    """Slack's `error` field of a refused call (`missing_scope`, `ratelimited`), else the exception's type."""
    response = getattr(exc, "response", None)
    if response is not None:
        try:
            code = response.get("error")
        except Exception:
            code = None
        if code:
            return str(code)
    return type(exc).__name__
