"""Writes resolved days and periods out in full: "Friday 4 December 2026", "the week of …", "October 2026"."""

from __future__ import annotations

from datetime import date
from datetime import time as dtime

from .lexicons import MONTHS_EN, MONTHS_FR, WEEKDAYS_EN, WEEKDAYS_FR

__all__ = ["PERIOD_LEAD_EN", "PERIOD_LEAD_FR", "day_of_year", "format_day", "format_period"]


def day_of_year(day: date, french: bool) -> str:
    """ "3 June" / "3 juin": a day that comes back every year."""
    if french:
        return f"{'1er' if day.day == 1 else day.day} {MONTHS_FR[day.month - 1]}"
    return f"{day.day} {MONTHS_EN[day.month - 1]}"


def format_day(day: date, french: bool, clock: dtime | None = None) -> str:
    """ "Friday 4 December 2026" / "vendredi 4 décembre 2026", with the time of day when given."""
    if french:
        number = "1er" if day.day == 1 else str(day.day)
        text = f"{WEEKDAYS_FR[day.weekday()]} {number} {MONTHS_FR[day.month - 1]} {day.year}"
        return text + (f" à {clock.hour}h{clock.minute:02d}" if clock else "")
    text = f"{WEEKDAYS_EN[day.weekday()].capitalize()} {day.day} {MONTHS_EN[day.month - 1]} {day.year}"
    return text + (f" at {clock.hour:02d}:{clock.minute:02d}" if clock else "")


def format_period(start: date, unit: str, french: bool) -> str:
    """A week, weekend, month, season, quarter or year, written out: "the week of Monday 16 November 2026"."""
    if unit == "week":
        return (
            f"la semaine du {format_day(start, french)}"
            if french
            else f"the week of {format_day(start, french)}"
        )
    if unit == "weekend":
        if french:
            return f"le week-end du {format_day(start, french)}"
        return f"the weekend of {format_day(start, french)}"
    if unit == "month":
        return f"{(MONTHS_FR if french else MONTHS_EN)[start.month - 1]} {start.year}"
    if unit == "quarter":
        return f"Q{(start.month - 1) // 3 + 1} {start.year}"
    if unit == "season":
        if french:  # "l'hiver 2025-26", "le printemps 2026"
            name = {3: "le printemps", 6: "l'été", 9: "l'automne", 12: "l'hiver"}[start.month]
        else:
            name = {3: "spring", 6: "summer", 9: "autumn", 12: "winter"}[start.month]
        return (
            f"{name} {start.year}-{(start.year + 1) % 100:02d}"
            if start.month == 12
            else f"{name} {start.year}"
        )
    return str(start.year)


# How a period reads where no preposition introduces it: "skiing in the week of…", "en septembre 2027".
PERIOD_LEAD_EN = {
    "week": "in ",
    "weekend": "on ",
    "month": "in ",
    "season": "in ",
    "quarter": "in ",
    "year": "in ",
}
PERIOD_LEAD_FR = {"week": "", "weekend": "", "month": "en ", "season": "", "quarter": "au ", "year": "en "}
