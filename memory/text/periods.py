"""Calendar arithmetic for date expressions: the day, week, weekend, month or season one means."""

from __future__ import annotations

import calendar
from datetime import date, timedelta

__all__ = [
    "add_months",
    "month_start",
    "nearest_day",
    "nearest_day_of_month",
    "period_start",
    "season_start",
    "shift_period",
    "valid_date",
    "weekday_date",
]


def valid_date(year: int, month: int, day: int) -> date | None:
    """The date, or None when there is no such day ("31 April")."""
    try:
        return date(year, month, day)
    except ValueError:
        return None


def nearest_day(today: date, month: int, day: int, past: bool) -> date | None:
    """The closest matching day on or after today (or on or before it, for clauses in the past tense)."""
    step = -1 if past else 1
    for years_away in range(9):  # 29 February may be up to 8 years away
        found = valid_date(today.year + step * years_away, month, day)
        if found is not None and (found <= today if past else found >= today):
            return found
    return None


def nearest_day_of_month(today: date, day: int, past: bool, weekday: int | None = None) -> date | None:
    """The closest day numbered `day` ("the 15th") on or after today (on or before it, for clauses
    in the past tense), in this month or the nearest one that has it; with `weekday` ("Monday the
    8th"), the closest within a year that falls on it, else the closest."""
    step = -1 if past else 1
    first = today.replace(day=1)
    closest: date | None = None
    for months_away in range(13):
        month = add_months(first, step * months_away)
        found = valid_date(month.year, month.month, day)
        if found is None or (found > today if past else found < today):
            continue
        if weekday is None or found.weekday() == weekday:
            return found
        closest = closest or found
    return closest


def add_months(day: date, months: int) -> date:
    """`day` so many months later (earlier when negative), on the month's last day if it is shorter."""
    years, month_index = divmod(day.month - 1 + months, 12)
    year, month = day.year + years, month_index + 1
    return date(year, month, min(day.day, calendar.monthrange(year, month)[1]))


def period_start(day: date, unit: str) -> date:
    """The first day of the week (Monday), weekend (Saturday), month or year holding `day`."""
    if unit == "week":
        return day - timedelta(days=day.weekday())
    if unit == "weekend":
        if day.weekday() < 5:
            return day + timedelta(days=5 - day.weekday())
        return day - timedelta(days=day.weekday() - 5)
    if unit == "month":
        return day.replace(day=1)
    if unit == "year":
        return day.replace(month=1, day=1)
    return day


def period_end(start: date, unit: str) -> date:
    """The first day after the day, week, weekend, month, season, quarter or year that begins on `start`."""
    if unit == "week":
        return start + timedelta(days=7)
    if unit == "weekend":
        return start + timedelta(days=2)
    if unit == "month":
        return add_months(start, 1)
    if unit in ("season", "quarter"):
        return add_months(start, 3)
    if unit == "year":
        return date(start.year + 1, 1, 1)
    return start + timedelta(days=1)


def shift_period(today: date, unit: str, count: int) -> date:
    """The start of the period `count` periods away from the one holding today (negative: earlier)."""
    if unit in ("week", "weekend"):
        return period_start(today, unit) + timedelta(days=7 * count)
    if unit == "month":
        return add_months(today.replace(day=1), count)
    if unit == "year":
        return date(today.year + count, 1, 1)
    return today + timedelta(days=count)


def month_start(today: date, month: int, direction: int, past: bool) -> date:
    """The first day of the named month: the next (or last) one, else the nearest in the tense's direction.

    "next September" said in September is a year away; "this September" is this year's.
    """
    if direction > 0:
        year = today.year if month > today.month else today.year + 1
    elif direction < 0:
        year = today.year if month < today.month else today.year - 1
    elif past:
        year = today.year if month <= today.month else today.year - 1
    else:
        year = today.year if month >= today.month else today.year + 1
    return date(year, month, 1)


# Seasons as the meteorological ones north of the equator: what "last summer" names by default.
_SEASON_START_MONTH = {"spring": 3, "summer": 6, "fall": 9, "autumn": 9, "winter": 12}


def season_start(today: date, name: str, modifier: str, past: bool = True) -> date:
    """The first day of the season meant: "last summer" ended before the season we are in began,
    "next summer" begins after today, "this summer" is this year's (this winter the one about us);
    told of what is to come (`past` false), "this summer" said once it is over is next year's ("we're
    moving to Bordeaux this summer", said in November)."""
    month = _SEASON_START_MONTH[name.lower()]
    starts = [date(year, month, 1) for year in range(today.year - 2, today.year + 2)]
    current = max(
        date(y, m, 1) for y in (today.year - 1, today.year) for m in (3, 6, 9, 12) if date(y, m, 1) <= today
    )
    modifier = modifier.lower()
    if modifier in ("last", "past"):
        return max(start for start in starts if start < current)
    if modifier in ("next", "coming"):
        return min(start for start in starts if start > today)
    if month == 12 and today.month <= 2:
        return date(today.year - 1, 12, 1)  # "this winter" in January began last December
    this_year = date(today.year, month, 1)
    if not past and add_months(this_year, 3) <= today:
        return date(today.year + 1, month, 1)
    return this_year


def quarter_start(today: date, number: int, modifier: str, past: bool) -> date:
    """The first day of the quarter meant: "Q1" said in November is next year's (this year's is over),
    told in the past the last one; "this Q1" this year's, "next Q1" the next to begin."""
    this_year = date(today.year, 3 * number - 2, 1)
    if modifier == "this":
        return this_year
    if modifier == "next":
        return this_year if this_year > today else date(today.year + 1, this_year.month, 1)
    if modifier == "last" or past:
        return this_year if this_year <= today else date(today.year - 1, this_year.month, 1)
    return this_year if add_months(this_year, 3) > today else date(today.year + 1, this_year.month, 1)


def weekday_date(today: date, weekday: int, modifier: str, past: bool) -> date:
    """The day a weekday name means: "Friday", "next Friday", "last Friday", "ce vendredi"."""
    if modifier in ("last", "dernier") or (not modifier and past):
        return today - timedelta(days=(today.weekday() - weekday - 1) % 7 + 1)
    if modifier == "next":
        # "next Friday" is the Friday of next week (which, on a Sunday, is also the coming one).
        return today + timedelta(days=7 - today.weekday() + weekday)
    # "vendredi prochain" is the first Friday to come ("vendredi en huit" says the one after), so it
    # falls through to the default below.
    if modifier in ("this", "coming", "ce"):
        return today + timedelta(days=(weekday - today.weekday()) % 7)
    return today + timedelta(days=(weekday - today.weekday() - 1) % 7 + 1)
