"""Which day a holiday falls on: a fixed day, Thanksgiving's fourth Thursday, Easter's computus."""

from __future__ import annotations

from datetime import date, timedelta

from .date_patterns import HOLIDAYS

__all__ = ["holiday_date", "holiday_key"]


def _day_of(key: str, year: int) -> date:
    month, day = HOLIDAYS[key][1]
    if month == 0:
        return _easter(year)
    if day == 0:  # Thanksgiving: the fourth Thursday of November
        first = date(year, month, 1)
        return first + timedelta(days=(3 - first.weekday()) % 7 + 21)
    return date(year, month, day)


def _easter(year: int) -> date:
    """Easter Sunday of the Gregorian calendar (the anonymous computus of Meeus, Jones and Butcher)."""
    a, b, c = year % 19, year // 100, year % 100
    d, e = divmod(b, 4)
    g = (8 * b + 13) // 25
    h = (19 * a + b - d - g + 15) % 30
    i, k = divmod(c, 4)
    weekday_offset = (32 + 2 * e + 2 * i - h - k) % 7
    m = (a + 11 * h + 19 * weekday_offset) // 433
    month, day = divmod(h + weekday_offset - 7 * m + 114, 31)
    return date(year, month, day + 1)


def holiday_key(said: str) -> str:
    """The `HOLIDAYS` key of a holiday's name as said ("New Years Eve" -> "new year's eve")."""
    return " ".join(said.lower().replace("’", "'").replace("years", "year's").split())


def holiday_date(said: str, modifier: str, today: date, past: bool) -> date:
    """The day of the holiday `said`: this year's; the last one before today or the next one after
    it; without a modifier, the nearest in the tense's direction (today's when it is today)."""
    key = holiday_key(said)
    this_year = _day_of(key, today.year)
    if modifier == "this" or (not modifier and this_year == today):
        return this_year  # "last" and "next" exclude today; the tense alone takes today's
    if modifier == "last" or (not modifier and past):
        return this_year if this_year < today else _day_of(key, today.year - 1)
    return this_year if this_year > today else _day_of(key, today.year + 1)
