"""What one date expression means: the day, or the first day of the week, month or year it names."""

from __future__ import annotations

import calendar
import re
from collections.abc import Callable
from datetime import date, timedelta

from .date_patterns import MONTH_ALT, MOVED_VERB_EN, RELATIVE_DAYS, SHORT_WEEKDAYS_EN
from .holidays import holiday_date
from .lexicons import MONTH_NUMBERS, NUMBER_WORDS, WEEKDAYS_EN, WEEKDAYS_FR
from .periods import (
    add_months,
    month_start,
    nearest_day,
    nearest_day_of_month,
    period_start,
    quarter_start,
    season_start,
    shift_period,
    valid_date,
    weekday_date,
)

__all__ = ["direction", "names_no_number", "resolve_match", "whole_years_ago"]


_NEXT_WORDS = frozenset({"next", "coming", "prochain", "prochaine", "suivant", "suivante"})
_LAST_WORDS = frozenset(
    {"last", "past", "previous", "dernier", "dernière", "derniere", "passé", "passe", "passée", "passee",
     "précédent", "precedent", "précédente", "precedente"}
)  # fmt: skip


_SEASONS_FR = {"printemps": "spring", "été": "summer", "automne": "autumn", "hiver": "winter"}
# What a month said after "to" ends: a plan moved ("we pushed the launch back to March", "the
# meeting was rescheduled to April") earlier in its clause, or a span from a month ("from January to
# March"), its first end written out already or not.
_MOVED_EN = re.compile(rf"\b{MOVED_VERB_EN}\b[^.;!?]*$", re.IGNORECASE)
_FROM_A_MONTH_EN = re.compile(
    rf"\bfrom\s+(?:(?:early|mid|late)[-\s]+)?(?:{MONTH_ALT})(?:\s+\d{{4}})?\s*$", re.IGNORECASE
)


def whole_years_ago(match: re.Match[str]) -> int | None:
    """How many years an "ago" of whole years goes back ("5 years ago", "il y a cinq ans"); None for
    any other date, or for a count said roughly ("a few years ago", "two or three years ago")."""
    group = match.group
    if not group("ago") or any(
        group(name) for name in ("ago_or", "ago_or_after", "ago_from", "il_y_a_about")
    ):
        return None
    unit_word = (group("ago_unit") or group("il_y_a_unit") or "").lower()
    quantity = group("ago_quantity") or group("il_y_a_quantity") or ""
    if _unit_of(unit_word) != "year" or names_no_number(quantity):
        return None
    return _quantity(quantity, unit_word)


def direction(word: str) -> int:
    """1 for "next"/"prochain", -1 for "last"/"dernier", 0 otherwise."""
    return 1 if word in _NEXT_WORDS else -1 if word in _LAST_WORDS else 0


# Counts that name no number: "a few years ago" is no year's date.
_SOME = frozenset({"a few", "few", "several", "quelques"})


def names_no_number(quantity: str) -> bool:
    """Whether a count is said without a number ("a few", "several", "quelques")."""
    return " ".join(quantity.lower().split()) in _SOME


def _quantity(word: str, unit: str = "") -> int:
    word = " ".join(word.lower().split())
    if word.isdigit():
        return int(word)
    if word == "quinze" and unit.lower().startswith("jour"):
        return 14  # "quinze jours" is a fortnight
    if word in ("a couple of", "a couple", "couple of"):
        return 2
    if word in ("a few", "several", "quelques"):
        return 3
    return NUMBER_WORDS[word]


def _unit_of(word: str) -> str:
    """day, week, weekend, month or year, from an English or French unit word."""
    word = word.lower()
    if word.startswith(("week-end", "weekend")):
        return "weekend"
    if word.startswith(("day", "jour")):
        return "day"
    if word.startswith(("week", "semaine")):
        return "week"
    if word.startswith(("month", "mois")):
        return "month"
    return "year"


# How a resolved expression is written back: "abs" was absolute already ("3 June 2026"), "day" a
# day and month without their year ("3 June"), "rel" counted from today ("tomorrow"), "ord" a day
# of the month after its preposition ("until the 12th"), "wd" a weekday name, "holiday" a
# holiday's name, "period" a week, weekend, month or year.
_Resolved = tuple[date, str, str]


def _weekday_number(name: str) -> int:
    """Monday 0 to Sunday 6, from an English or French weekday name."""
    low = name.lower()
    return WEEKDAYS_EN.index(low) if low in WEEKDAYS_EN else WEEKDAYS_FR.index(low)


# Which week of its month an ordinal counts: the first is the one holding the 4th, the last the one
# holding the fourth-to-last day (so that most of each is in the month, as ISO counts weeks).
_WEEK_ORDINALS = {
    "first": 0, "1st": 0, "première": 0, "premiere": 0, "second": 1, "2nd": 1, "deuxième": 1, "deuxieme": 1,
    "seconde": 1, "third": 2, "3rd": 2, "troisième": 2, "troisieme": 2, "fourth": 3, "4th": 3, "quatrième": 3,
    "quatrieme": 3,
}  # fmt: skip


def _nth_week(group: Callable[[str], str | None], today: date, past: bool) -> date:
    """The Monday of "the second week of February", in the nearest February (or the one said)."""
    month_number = MONTH_NUMBERS[(group("nth_week_month") or "").lower().rstrip(".")]
    year = group("nth_week_year")
    first = date(int(year), month_number, 1) if year else month_start(today, month_number, 0, past)
    ordinal = (group("nth_week_ordinal") or "").lower()
    if ordinal in _WEEK_ORDINALS:
        day = first + timedelta(days=3 + 7 * _WEEK_ORDINALS[ordinal])
    else:  # the last one
        day = first.replace(day=calendar.monthrange(first.year, first.month)[1] - 3)
    return period_start(day, "week")


def resolve_match(match: re.Match[str], today: date, past: bool) -> _Resolved | None:
    """(date, kind, unit) for one date expression: the day (or the start of the week, weekend,
    month or year it names), how it is written inline, and how precise it is."""
    group = match.group
    if group("iso"):
        day = valid_date(int(group("iso_year")), int(group("iso_month")), int(group("iso_day")))
        return (day, "abs", "day") if day else None
    if group("year_said"):
        return date(int(group("year_number")), 1, 1), "abs", "year"
    if group("numeric"):
        first, second = int(group("numeric_first")), int(group("numeric_second"))
        year = int(group("numeric_year"))
        year = year + 2000 if year < 100 else year
        # Day first (European usage) unless only month-first can be valid.
        day_number, month = (second, first) if second > 12 >= first else (first, second)
        day = valid_date(year, month, day_number)
        return (day, "abs", "day") if day else None
    if group("day_month") or group("month_day"):
        day_number = int(group("day_month_day") or group("month_day_day"))
        month = MONTH_NUMBERS[(group("day_month_month") or group("month_day_month")).lower().rstrip(".")]
        year_said = group("day_month_year") or group("month_day_year")
        if year_said:
            day = valid_date(int(year_said), month, day_number)
            return (day, "abs", "day") if day else None
        day = nearest_day(today, month, day_number, past)
        return (day, "day", "day") if day else None
    if group("jour_du_mois"):
        day = nearest_day_of_month(today, int(group("jour_du_mois_number")), past)
        return (day, "ord", "day") if day else None
    if group("jour_borne"):
        said = group("jour_borne_first") or group("jour_borne_last")
        day = nearest_day_of_month(today, int(said), past)
        return (day, "ord", "day") if day else None
    if group("ordinal_day"):
        named = group("ordinal_day_weekday")
        weekday = _weekday_number(named) if named else None
        day = nearest_day_of_month(today, int(group("ordinal_day_number")), past, weekday)
        return (day, "ord", "day") if day else None
    if group("relative_day"):
        key = " ".join(group("relative_day").lower().split())
        return today + timedelta(days=RELATIVE_DAYS[key]), "rel", "day"
    if group("day_of_week"):
        name = group("day_of_week_name") or group("week_then_day_name") or group("jour_de_semaine")
        modifiers = ("day_of_week_modifier", "week_then_day_modifier", "jour_de_semaine_modifier")
        word = next(group(key) for key in modifiers if group(key))
        week = shift_period(today, "week", direction(word.lower()))
        return week + timedelta(days=_weekday_number(name)), "rel", "day"
    if group("weekdays_ago"):
        weekday = _weekday_number(group("weekdays_ago_name"))
        count = _quantity(group("weekdays_ago_quantity"))
        return weekday_date(today, weekday, "last", True) - timedelta(days=7 * (count - 1)), "rel", "day"
    if group("weekday_after_next"):
        weekday = _weekday_number(group("weekday_after_next_name"))
        return weekday_date(today, weekday, "", False) + timedelta(days=7), "wd", "day"
    if group("week_after_next"):
        return shift_period(today, "week", 2), "period", "week"
    if group("week_before_last"):
        unit = _unit_of(group("before_last_unit"))
        return shift_period(today, unit, -2), "period", unit
    if group("in_count"):
        count, unit = _quantity(group("in_quantity"), group("in_unit")), _unit_of(group("in_unit"))
        if group("in_unit").lower().startswith("fortnight"):
            count, unit = 2 * count, "week"
        if unit == "month":
            return add_months(today, count), "rel", "day"
        if unit == "year":
            return date(today.year + count, 1, 1), "period", "year"
        return today + timedelta(days=count * (7 if unit == "week" else 1)), "rel", "day"
    if group("ago"):
        unit_word = group("ago_unit") or group("il_y_a_unit")
        count = _quantity(group("ago_quantity") or group("il_y_a_quantity"), unit_word)
        unit = _unit_of(unit_word)
        if unit_word.lower().startswith("fortnight"):
            count, unit = 2 * count, "week"
        counted_from = (group("ago_from") or "").lower()
        if counted_from:
            # "a week ago yesterday": the day, counted back from the one named.
            start = today - timedelta(days=1 if counted_from == "yesterday" else 0)
            if unit == "month":
                return add_months(start, -count), "rel", "day"
            if unit in ("day", "week", "weekend"):
                return start - timedelta(days=count * (1 if unit == "day" else 7)), "rel", "day"
            if unit == "year":
                # "a year ago today": the same day, that many years back (29 February: the 28th)
                return add_months(start, -12 * count), "rel", "day"
        if unit == "day":
            return today - timedelta(days=count), "rel", "day"
        if unit == "week":
            return period_start(today - timedelta(days=7 * count), "week"), "period", "week"
        return shift_period(today, unit, -count), "period", unit
    if group("rolling"):
        unit_word = group("rolling_unit")
        count = _quantity(group("rolling_quantity") or "1", unit_word)
        unit = _unit_of(unit_word)
        if unit in ("day", "week"):
            return today - timedelta(days=count * (7 if unit == "week" else 1)), "rolling", "day"
        start = add_months(today, -count * (12 if unit == "year" else 1))
        return date(start.year, start.month, 1), "rolling", "month"
    if group("lasting"):
        unit_word = group("lasting_unit")
        unit = _unit_of(unit_word)
        count = _quantity(group("lasting_quantity"), unit_word)
        if group("lasting_today"):
            # "sober for two years today": since this day that many years, months or weeks ago
            if unit == "week":
                return today - timedelta(weeks=count), "period", "day"
            return add_months(today, -count * (12 if unit == "year" else 1)), "period", "day"
        return shift_period(today, unit, -count), "period", unit
    if group("season"):
        return season_start(today, group("season_name"), group("season_modifier"), past), "period", "season"
    if group("quarter"):
        number = int(group("quarter_number"))
        year = group("quarter_year") or (
            f"20{group('quarter_year_short')}" if group("quarter_year_short") else ""
        )
        if year:
            return date(int(year), 3 * number - 2, 1), "period", "quarter"
        modifier = (group("quarter_modifier") or "").lower()
        return quarter_start(today, number, modifier, past), "period", "quarter"
    if group("saison"):
        name = _SEASONS_FR[(group("saison_name") or group("saison_this").split()[-1]).lower()]
        modifier = {"dernier": "last", "passé": "last", "prochain": "next"}.get(
            (group("saison_modifier") or "").lower(), "this"
        )
        return season_start(today, name, modifier, past), "period", "season"
    if group("period_en") or group("period_fr"):
        unit = _unit_of(group("period_en_unit") or group("period_fr_this_unit") or group("period_fr_unit"))
        word = (group("period_en_modifier") or group("period_fr_modifier") or "this").lower()
        shift = direction(word)
        if unit == "weekend" and shift == 0 and past and today.weekday() < 5:
            shift = -1  # "I went cycling this weekend", said on a weekday: the one just gone
        return shift_period(today, unit, shift), "period", unit
    if group("nth_week"):
        return _nth_week(group, today, past), "period", "week"
    if group("month") or group("month_bare"):
        month = MONTH_NUMBERS[(group("month_name") or group("month_bare")).lower()]
        if group("month_year"):
            return date(int(group("month_year")), month, 1), "period", "month"
        word = (group("month_modifier") or group("month_after") or group("month_bare_after") or "").lower()
        if word == "this":
            return date(today.year, month, 1), "period", "month"
        preposition = (group("month_preposition") or "").lower()
        if preposition == "to":
            before = match.string[: match.start()]
            if _MOVED_EN.search(before):
                past = False  # a plan moved to a month moves to the one to come, however it is told
            elif not _FROM_A_MONTH_EN.search(before):
                return None  # "I gave it to May", "I talked to June"
        since = preposition in ("since", "depuis")  # the last one, whatever the tense
        return month_start(today, month, direction(word), past or since), "period", "month"
    if group("end_of"):
        # "la fin de la semaine prochaine": next week's, or next month's
        later = 1 if group("end_of_fr_next") else 0
        if (group("end_of_unit") or "").lower() == "week" or "semaine" in (group("end_of_fr") or "").lower():
            return (
                today + timedelta(days=(4 - today.weekday()) % 7 + 7 * later),
                "rel",
                "day",
            )  # that week's Friday
        if (group("end_of_unit") or "").lower() == "year":
            return date(today.year, 12, 1), "period", "month"  # "at the end of the year": its December
        month = add_months(today.replace(day=1), later)
        return date(month.year, month.month, calendar.monthrange(month.year, month.month)[1]), "rel", "day"
    if group("weekday_name"):
        weekday = _weekday_number(group("weekday_name"))
        modifier = (group("weekday_modifier") or group("weekday_after") or "").lower()
        return weekday_date(today, weekday, modifier, past), "wd", "day"
    if group("weekend_said"):
        if not past:
            return None  # "we hike at the weekend" may be any weekend
        # Said on a Saturday or a Sunday, the weekend told in the past is this one.
        return shift_period(today, "weekend", 0 if today.weekday() >= 5 else -1), "period", "weekend"
    if group("season_said"):
        if not past:
            return None  # "we ski in the winter" may be any winter
        name = group("season_said_name")
        start = season_start(today, name, "this")
        return (start if start <= today else season_start(today, name, "last")), "period", "season"
    if group("holiday_name"):
        year = (group("holiday_year") or "").lower()
        if year:
            # "thanksgiving next year": the calendar year's, whatever day today is
            shift = {"last": -1, "this": 0, "next": 1}[year]
            that_year = today.replace(year=today.year + shift, day=1)
            day = holiday_date(group("holiday_name"), "this", that_year, past)
        else:
            day = holiday_date(group("holiday_name"), (group("holiday_modifier") or "").lower(), today, past)
        return day, "holiday", "day"
    if group("weekday_short_name"):
        weekday = SHORT_WEEKDAYS_EN[group("weekday_short_name").lower()]
        # "on Thurs", "by Fri": no modifier, the tense tells which one
        modifier = (group("weekday_short_modifier") or "").lower()
        return weekday_date(today, weekday, modifier, past), "wd", "day"
    return None
