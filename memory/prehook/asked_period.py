"""The period a question names ("on 25 May 2022", "in November", "last week"): when it was said."""

from __future__ import annotations

from datetime import datetime, time, tzinfo

from ..text import date_mentions
from ..text.periods import period_end

# A question names one period, or two ends of one ("between 11 and 15 August"); more dates than
# that name none. Two dates further apart than a month are no ends of one period: "last weekend
# before 10 April" reads its weekend from today, and the two would span the year between.
MAX_DATES = 2
MAX_SPAN_DAYS = 31
# Only the end of a long batch is read, like the meta questions.
MAX_SCAN_CHARS = 600


def asked_period(text: str, now: float, tz: tzinfo) -> tuple[float, float] | None:
    """`[since, until)` in epoch seconds of the days `text` names, read as a question about the past
    ("in June" is the last June); None when it names none, too many, or a period still to come."""
    mentions = date_mentions(text[-MAX_SCAN_CHARS:], datetime.fromtimestamp(now, tz), past=True)
    if not mentions or len(mentions) > MAX_DATES:
        return None
    first = min(day for day, _ in mentions)
    last = max(period_end(day, unit) for day, unit in mentions)
    if len(mentions) > 1 and (last - first).days > MAX_SPAN_DAYS:
        return None
    since = datetime.combine(first, time(0), tzinfo=tz).timestamp()
    until = datetime.combine(last, time(0), tzinfo=tz).timestamp()
    if since >= now:
        return None
    return since, min(until, now)
