"""TTL strings ("1h", "7d", "2 weeks", "1 month", "permanent") to durations and expiry times."""

from __future__ import annotations

import re

from .errors import TTLError

_DAY = 86400
# Unit words as people and models write them, English and French; a month is 30 days, a year 365.
_UNITS: dict[str, int] = {
    **dict.fromkeys(("s", "sec", "secs", "second", "seconds", "seconde", "secondes"), 1),
    **dict.fromkeys(("m", "min", "mins", "minute", "minutes"), 60),
    **dict.fromkeys(("h", "hr", "hrs", "hour", "hours", "heure", "heures"), 3600),
    **dict.fromkeys(("d", "day", "days", "j", "jour", "jours"), _DAY),
    **dict.fromkeys(("w", "wk", "wks", "week", "weeks", "semaine", "semaines"), 7 * _DAY),
    **dict.fromkeys(("mo", "mon", "month", "months", "mois"), 30 * _DAY),
}
_UNITS.update(
    dict.fromkeys(("y", "yr", "yrs", "year", "years", "an", "ans", "année", "années", "annee"), 365 * _DAY)
)
_COUNTS = {
    "a": 1, "an": 1, "one": 1, "un": 1, "une": 1, "two": 2, "deux": 2, "three": 3, "trois": 3, "four": 4,
    "quatre": 4, "five": 5, "cinq": 5, "six": 6, "seven": 7, "sept": 7, "eight": 8, "huit": 8,
    "nine": 9, "neuf": 9, "ten": 10, "dix": 10, "twelve": 12, "douze": 12,
}  # fmt: skip
_TTL_RE = re.compile(r"^\s*(?P<n>\d{1,6}|[a-zé]+)\s*(?P<unit>[a-zé]+)\.?\s*$", re.IGNORECASE)
_PERMANENT = {
    "", "permanent", "never", "none", "forever", "null", "no expiry", "no ttl", "jamais", "permanente",
}  # fmt: skip
# A memory that lives longer than this is permanent in all but name; refuse it so typos show.
MAX_TTL_SECONDS = 10 * 365 * _DAY
_EXAMPLES = "'30m', '6h', '3 days', '1 week', '2w', '1 month' or 'permanent'"


def parse_duration(text: str) -> float:
    """Seconds in a duration like "30m", "6h", "7d", "2 weeks", "1 month"; raises TTLError otherwise."""
    if not isinstance(text, str):
        raise TTLError(f"TTL must be a string like {_EXAMPLES}, got {type(text).__name__}")
    match = _TTL_RE.match(text)
    unit = _UNITS.get(match.group("unit").casefold()) if match else None
    count = match.group("n").casefold() if match else ""
    number = int(count) if count.isdigit() else _COUNTS.get(count)
    if unit is None or number is None:
        raise TTLError(f"invalid TTL {text[:40]!r}: use a number and a unit, like {_EXAMPLES}")
    seconds = number * unit
    if seconds <= 0:
        raise TTLError(f"invalid TTL {text!r}: it must be longer than zero")
    if seconds > MAX_TTL_SECONDS:
        raise TTLError(f"invalid TTL {text!r}: at most 10 years; leave it empty for a permanent memory")
    return float(seconds)


def is_permanent(ttl: str | None) -> bool:
    """True for no TTL at all: None, empty, "permanent", "never", "forever"…"""
    return ttl is None or (isinstance(ttl, str) and " ".join(ttl.split()).casefold() in _PERMANENT)


def expires_at(ttl: str | None, now: float) -> float | None:
    """Expiry timestamp for a TTL, or None for a permanent memory ("permanent", "never", empty)."""
    if is_permanent(ttl):
        return None
    assert ttl is not None
    return now + parse_duration(ttl)
