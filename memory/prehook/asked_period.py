"""The period a question names ("on 25 May 2022", "in November", "last week"): when it was said."""

from __future__ import annotations

from datetime import date, datetime, time, tzinfo
from typing import NamedTuple

from ..text import date_mentions
from ..text.periods import period_end
from ..turn_text import told_bounds

# A question names one period, or two ends of one ("between 11 and 15 August"); more dates than
# that name none. Two dates further apart than a month are no ends of one period: "last weekend
# before 10 April" reads its weekend from today, and the two would span the year between.
MAX_DATES = 2
MAX_SPAN_DAYS = 31
# Only the end of a long batch is read, like the meta questions.
MAX_SCAN_CHARS = 600


class AskedPeriod(NamedTuple):
    """The period a question names: the days, and when they began and ended where it was asked."""

    first: date
    end: date  # the day after the last
    since: float
    until: float  # at most the time of asking

    def told(self) -> tuple[float, float]:
        """The same days as the days a turn tells of are stored (`told_days`)."""
        return told_bounds(self.first, self.end)


def asked_period(text: str, now: float, tz: tzinfo) -> AskedPeriod | None:
    """The days `text` names, read as a question about the past ("in June" is the last June), and
    `[since, until)` in epoch seconds; None when it names none, too many, or a period still to come."""
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
    return AskedPeriod(first, last, since, min(until, now))
