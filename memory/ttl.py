"""TTL strings ("1h", "7d", "30d") to durations and expiry times, with clear errors."""

from __future__ import annotations

import re

_UNITS = {"s": 1, "m": 60, "h": 3600, "d": 86400, "w": 7 * 86400, "y": 365 * 86400}
_TTL_RE = re.compile(r"^\s*(\d{1,6})\s*([smhdwy])\s*$", re.IGNORECASE)
_PERMANENT = {"", "permanent", "never", "none", "forever", "null"}
# A memory that lives longer than this is permanent in all but name; refuse it so typos show.
MAX_TTL_SECONDS = 10 * 365 * 86400


class TTLError(ValueError):
    """A TTL string that cannot be understood."""


def parse_duration(text: str) -> float:
    """Seconds in a duration like "30m", "6h", "7d", "2w"; raises TTLError otherwise."""
    if not isinstance(text, str):
        raise TTLError(f"TTL must be a string like '1h', '7d' or '30d', got {type(text).__name__}")
    match = _TTL_RE.match(text)
    if match is None:
        raise TTLError(
            f"invalid TTL {text[:40]!r}: use a number and a unit, like '30m', '1h', '7d', '30d' or '2w'"
        )
    seconds = int(match.group(1)) * _UNITS[match.group(2).lower()]
    if seconds <= 0:
        raise TTLError(f"invalid TTL {text!r}: it must be longer than zero")
    if seconds > MAX_TTL_SECONDS:
        raise TTLError(f"invalid TTL {text!r}: at most 10 years; leave it empty for a permanent memory")
    return float(seconds)


def expires_at(ttl: str | None, now: float) -> float | None:
    """Expiry timestamp for a TTL, or None for a permanent memory ("permanent", "never", empty)."""
    if ttl is None or (isinstance(ttl, str) and ttl.strip().casefold() in _PERMANENT):
        return None
    return now + parse_duration(ttl)
