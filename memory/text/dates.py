"""Finds date expressions in chat and resolves them against a moment: "next Friday" is 4 December 2026."""

from __future__ import annotations

import calendar
import re
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from datetime import time as dtime
from itertools import pairwise

from .date_patterns import (
    BIRTH,
    DATE_PATTERN,
    DAY_PREPOSITION_BEFORE,
    FUTURE_EN,
    HABITUAL,
    HOLIDAY_LEAD,
    HOLIDAY_PREPOSITION_BEFORE,
    HOLIDAYS,
    MONTH_VERBS,
    ORDINAL,
    PARTS_OF_DAY,
    PAST_TENSE,
    PERFECT_BEFORE_EN,
    PERIOD_PREPOSITION_BEFORE,
    PLANNED_BEFORE,
    RECURRING,
    RELATIVE_DAYS,
    SHORT_WEEKDAYS_EN,
    SINCE_BEFORE,
    SUBJECT_VERB_EN,
    TIME_PATTERN,
    YEAR_AND_MONTH_GAP,
    may_hold_a_date,
)
from .holidays import holiday_date, holiday_key
from .lexicons import (
    MONTH_NUMBERS,
    MONTHS_EN,
    MONTHS_FR,
    NUMBER_WORDS,
    WEEKDAYS_EN,
    WEEKDAYS_FR,
    is_past_form_en,
)
from .normalize import clean_text, looks_french
from .periods import (
    add_months,
    month_start,
    nearest_day,
    nearest_day_of_month,
    period_start,
    season_start,
    shift_period,
    valid_date,
    weekday_date,
)
from .sentences import SENTENCE_BREAK

__all__ = [
    "DATE_PATTERN",
    "DATE_SLOT",
    "TIME_PATTERN",
    "ResolvedDate",
    "bare_slot",
    "date_mentions",
    "expand_dates",
    "find_dates",
    "format_day",
    "may_hold_a_date",
    "resolve_relative_dates",
    "told_in_past",
]


@dataclass(slots=True)
class ResolvedDate:
    """One date expression of a clause, resolved."""

    inline: str  # replaces the date expression inside a rewritten sentence
    bare: str  # the absolute date alone, for templates such as "Deadline for X: <bare>"
    at: float  # epoch seconds
    day: date | None = None  # the day meant, or the first day of the period meant
    unit: str = "day"  # day, week, weekend, month, season or year
    # Since when something said to last until now runs ("for 3 years now"): its own verb's date,
    # never one to carry to another clause's event.
    lasting: bool = False


def _day_of_year(day: date, french: bool) -> str:
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


_NEXT_WORDS = frozenset({"next", "coming", "prochain", "prochaine", "suivant", "suivante"})
_LAST_WORDS = frozenset(
    {"last", "past", "previous", "dernier", "dernière", "derniere", "passé", "passe", "passée", "passee",
     "précédent", "precedent", "précédente", "precedente"}
)  # fmt: skip


def _direction(word: str) -> int:
    """1 for "next"/"prochain", -1 for "last"/"dernier", 0 otherwise."""
    return 1 if word in _NEXT_WORDS else -1 if word in _LAST_WORDS else 0


def _quantity(word: str, unit: str = "") -> int:
    word = " ".join(word.lower().split())
    if word.isdigit():
        return int(word)
    if word == "quinze" and unit.lower().startswith("jour"):
        return 14  # "quinze jours" is a fortnight
    if word in ("a couple of", "a couple", "couple of"):
        return 2
    if word in ("a few", "quelques"):
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


def _resolve_match(match: re.Match[str], today: date, past: bool) -> _Resolved | None:
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
    if group("ordinal_day"):
        named = group("ordinal_day_weekday")
        weekday = _weekday_number(named) if named else None
        day = nearest_day_of_month(today, int(group("ordinal_day_number")), past, weekday)
        return (day, "ord", "day") if day else None
    if group("relative_day"):
        key = " ".join(group("relative_day").lower().split())
        return today + timedelta(days=RELATIVE_DAYS[key]), "rel", "day"
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
        return shift_period(today, unit, -_quantity(group("lasting_quantity"), unit_word)), "period", unit
    if group("season"):
        return season_start(today, group("season_name"), group("season_modifier")), "period", "season"
    if group("period_en") or group("period_fr"):
        unit = _unit_of(group("period_en_unit") or group("period_fr_this_unit") or group("period_fr_unit"))
        word = (group("period_en_modifier") or group("period_fr_modifier") or "this").lower()
        shift = _direction(word)
        if unit == "weekend" and shift == 0 and past and today.weekday() < 5:
            shift = -1  # "I went cycling this weekend", said on a weekday: the one just gone
        return shift_period(today, unit, shift), "period", unit
    if group("month") or group("month_bare"):
        month = MONTH_NUMBERS[(group("month_name") or group("month_bare")).lower()]
        if group("month_year"):
            return date(int(group("month_year")), month, 1), "period", "month"
        word = (group("month_modifier") or group("month_after") or group("month_bare_after") or "").lower()
        if word == "this":
            return date(today.year, month, 1), "period", "month"
        since = (group("month_preposition") or "").lower() in (
            "since",
            "depuis",
        )  # the last one, whatever the tense
        return month_start(today, month, _direction(word), past or since), "period", "month"
    if group("end_of"):
        if (group("end_of_unit") or "").lower() == "week" or "semaine" in (group("end_of_fr") or "").lower():
            return today + timedelta(days=(4 - today.weekday()) % 7), "rel", "day"  # this week's Friday
        last_day = calendar.monthrange(today.year, today.month)[1]
        return date(today.year, today.month, last_day), "rel", "day"
    if group("weekday_name"):
        weekday = _weekday_number(group("weekday_name"))
        modifier = (group("weekday_modifier") or group("weekday_after") or "").lower()
        return weekday_date(today, weekday, modifier, past), "wd", "day"
    if group("weekend_said"):
        if not past:
            return None  # "we hike at the weekend" may be any weekend
        # Said on a Saturday or a Sunday, the weekend told in the past is this one.
        return shift_period(today, "weekend", 0 if today.weekday() >= 5 else -1), "period", "weekend"
    if group("holiday_name"):
        day = holiday_date(group("holiday_name"), (group("holiday_modifier") or "").lower(), today, past)
        return day, "holiday", "day"
    if group("weekday_short_name"):
        weekday = SHORT_WEEKDAYS_EN[group("weekday_short_name").lower()]
        return weekday_date(today, weekday, group("weekday_short_modifier").lower(), past), "wd", "day"
    return None


def _format_period(start: date, unit: str, french: bool) -> str:
    """A week, weekend, month or year, written out: "the week of Monday 16 November 2026"."""
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
    if unit == "season":
        name = {3: "spring", 6: "summer", 9: "autumn", 12: "winter"}[start.month]
        return (
            f"winter {start.year}-{(start.year + 1) % 100:02d}"
            if name == "winter"
            else f"{name} {start.year}"
        )
    return str(start.year)


# How a period reads where no preposition introduces it: "skiing in the week of…", "en septembre 2027".
_PERIOD_LEAD_EN = {"week": "in ", "weekend": "on ", "month": "in ", "season": "in ", "year": "in "}
_PERIOD_LEAD_FR = {"week": "", "weekend": "", "month": "en ", "season": "en ", "year": "en "}


def _time_of_day(text: str) -> dtime | None:
    """The first valid time of day said in `text`: "3pm", "15:30", "10h30"."""
    for match in TIME_PATTERN.finditer(text):
        if match.group("hour_ampm") is not None:
            hour, minute = int(match.group("hour_ampm")), int(match.group("minute_ampm") or 0)
            if not 1 <= hour <= 12:
                continue
            hour = hour % 12 + (12 if match.group("ampm").lower().startswith("p") else 0)
        elif match.group("hour_colon") is not None:
            hour, minute = int(match.group("hour_colon")), int(match.group("minute_colon"))
        else:
            hour, minute = int(match.group("hour_h")), int(match.group("minute_h") or 0)
        if hour <= 23 and minute <= 59:
            return dtime(hour, minute)
    return None


# Date placeholders: "\x00n\x00" stands for dates[n] written inline ("on Friday 4 December 2026"),
# "\x01n\x01" for it written bare ("Friday 4 December 2026"); cleanup removes both characters from input.
PLACEHOLDER = re.compile("\x00(\\d+)\x00|\x01(\\d+)\x01")
DATE_SLOT = "\x00(?P<n>\\d+)\x00"  # a regex fragment matching an inline placeholder, its index in `n`
_STRAY_MARKS = re.compile("[\x00\x01]")


def find_dates(
    clause: str, now: datetime, french: bool, past: bool, relative_only: bool = False
) -> tuple[str, list[ResolvedDate]]:
    """Replace each date expression by a \\x00n\\x00 placeholder and resolve it against `now`.

    `past` (the clause is told in the past) makes "Friday" the last one rather than the next.
    With `relative_only`, dates written out already ("10 January 2027", "2027-01-05") are left as
    said, and so is a day without its year ("10 January") unless the clause is told in the past.
    """
    if not may_hold_a_date(clause):
        return clause, []
    today = now.date()
    found: list[ResolvedDate] = []
    out: list[str] = []
    position = 0
    clock: dtime | None = None
    clock_read = False
    matches = list(DATE_PATTERN.finditer(clause))
    year_of_month, month_of_year = _years_said_with_a_month(matches, clause, today)
    for index, match in enumerate(matches):
        if index in month_of_year:
            # "last year in August": the month says the year ("in August 2025"); the year's words
            # and what stands between the two go.
            if month_of_year[index] > index:
                out.append(clause[position : match.start()])
                position = matches[month_of_year[index]].start()
            else:
                position = match.end()
            continue
        before = clause[: match.start()]
        weekday_alone = match.group("weekday_name") and not (
            match.group("weekday_modifier") or match.group("weekday_after")
        )
        if weekday_alone and HABITUAL.search(before):
            continue  # "le lundi" / "every Monday" is a habit, not a date
        month_word = match.group("day_month_month") or match.group("month_day_month") or ""
        if month_word in MONTH_VERBS and not (
            DAY_PREPOSITION_BEFORE.search(before) or ORDINAL.search(match.group(0))
        ):
            continue  # "I may 3 times", "we march 10 miles": lower-case words, not months
        holiday_alone = match.group("holiday_name") and not match.group("holiday_modifier")
        if holiday_alone and not (past and HOLIDAY_PREPOSITION_BEFORE.search(before)):
            # "Christmas is my favourite time of year": the holiday, not a day of it; "at
            # Christmas we usually ski" is every year's. Told in the past, it is the last one.
            continue
        # "since Tuesday" is the last one, whatever the tense ("I've been sick since Tuesday").
        # "We agreed to meet on Monday", "we pushed the launch back to Friday": told in the past, of
        # a day to come.
        told_past = past and not PLANNED_BEFORE.search(before)
        resolved = _resolve_match(match, today, told_past or bool(SINCE_BEFORE.search(before)))
        if resolved is None:
            continue
        day, kind, unit = resolved
        if index in year_of_month:
            day = date(year_of_month[index], day.month, 1)
        elif BIRTH.search(clause) and (kind == "day" or _month_alone(match)):
            continue  # "I was born on 3 June" is no year's 3 June that the clause says
        # A day and month without a year is left as said unless told in the past: "my birthday is
        # on 3 June" recurs, "I went hiking on 3 May" happened in one year.
        if relative_only and (kind == "abs" or (kind == "day" and not past)):
            continue
        segment_end = match.start()
        if kind == "rolling" or match.group("lasting"):
            since = _since_written(match, day, unit, before, clause, french)
            if since is None:
                continue
            inline, bare = since
            at = datetime.combine(day, dtime(0, 0), tzinfo=now.tzinfo).timestamp()
            out.append(clause[position:segment_end])
            out.append(f"\x00{len(found)}\x00")
            found.append(ResolvedDate(inline, bare, at, day, unit, lasting=True))
            position = match.end()
            continue
        about = None
        if match.group("ago"):
            # "about five years ago", "il y a plus de dix ans": how near the date is stays said.
            found_about = _ABOUT_BEFORE.search(before)
            if found_about is not None:
                about, segment_end = found_about.group("about"), found_about.start()
            else:
                about = match.group("il_y_a_about")
        if kind == "period":
            bare = _format_period(day, unit, french)
            said = match.group("month_preposition")  # "in September" keeps its own "in"
            if about:
                inline = _roughly(bare, (_PERIOD_LEAD_FR if french else _PERIOD_LEAD_EN)[unit], about, french)
            elif said:
                part = (match.group("month_part") or "").lower()  # "in early May" -> "in early May 2026"
                written = f"mid-{bare}" if part == "mid" else " ".join([*([part] if part else []), bare])
                inline = " ".join([*said.split(), written])
            elif PERIOD_PREPOSITION_BEFORE.search(before):
                inline = bare
            else:
                inline = (_PERIOD_LEAD_FR if french else _PERIOD_LEAD_EN)[unit] + bare
            at = datetime.combine(day, dtime(0, 0), tzinfo=now.tzinfo).timestamp()
        elif match.group("year_said"):
            bare, inline = str(day.year), " ".join(match.group(0).split())  # kept as said
            at = datetime.combine(day, dtime(0, 0), tzinfo=now.tzinfo).timestamp()
        elif kind == "holiday":
            name = HOLIDAYS[holiday_key(match.group("holiday_name"))][0]
            bare = f"{name} {day.year}"
            lead = "" if HOLIDAY_PREPOSITION_BEFORE.search(before) else HOLIDAY_LEAD.get(name, "on ")
            inline = lead + bare
            at = datetime.combine(day, dtime(0, 0), tzinfo=now.tzinfo).timestamp()
        else:
            if not clock_read:
                clock, clock_read = _time_of_day(clause), True
            bare = format_day(day, french, clock)
            inline = format_day(day, french)
            if kind == "day" and not past and RECURRING.search(clause):
                # "my birthday is on 3 June" is every year's 3 June: no weekday, no year.
                bare = inline = _day_of_year(day, french)
            if kind in ("rel", "wd") and not DAY_PREPOSITION_BEFORE.search(before):
                # "tomorrow" and "next Friday" need a preposition once written out; "Friday" alone does not.
                if (
                    kind == "rel"
                    or match.group("weekday_modifier")
                    or match.group("weekday_after")
                    or match.group("weekday_short")
                ):
                    inline = ("le " if french else "on ") + inline
            part = match.group("weekday_part") or match.group("weekday_short_part")
            if part:
                inline += PARTS_OF_DAY[part.lower()]
            at = datetime.combine(day, clock or dtime(0, 0), tzinfo=now.tzinfo).timestamp()
        said = " ".join(match.group(0).split())
        if relative_only and clause[match.end() :].lstrip().startswith(f"({bare})"):
            continue  # "Last week (the week of ...) was wild": written out already
        if relative_only and not before.strip(" ,") and _BE_AFTER.match(clause, match.end()):
            # "Last week was wild": the date is what the sentence is about, so it stays its subject
            # ("Last week (the week of Monday 16 November 2026) was wild", not "In the week of ... was");
            # a weekday said alone is its own date ("Friday 27 November 2026 was fun").
            inline = bare if bare.split(" ", 1)[0].casefold() == said.casefold() else f"{said} ({bare})"
        out.append(clause[position:segment_end])
        out.append(f"\x00{len(found)}\x00")
        found.append(ResolvedDate(inline, bare, at, day, unit))
        # A date's full stop ("3 Jan.", "last Fri.") may end the sentence too: it stays.
        position = match.end() - 1 if match.group(0).endswith(".") else match.end()
    out.append(clause[position:])
    return "".join(out), found


# Words that make "N years ago" approximate ("about", "over"), said before it in English.
_ABOUT_BEFORE = re.compile(
    r"\b(?P<about>about|around|roughly|approximately|some|nearly|almost|close\s+to|just\s+over|over|"
    r"more\s+than|just\s+under|under|less\s+than)\s+$",
    re.IGNORECASE,
)
_AT_LEAST = ("over", "just over", "more than", "plus d")
_AT_MOST = ("under", "just under", "less than", "moins d")


def _roughly(bare: str, lead: str, about: str, french: bool) -> str:
    """A period said approximately: "around 2018", "in 2013 or earlier" (over ten years ago),
    "en 2022 ou après" (il y a moins d'un an)."""
    said = " ".join(about.lower().split())
    if said.startswith(_AT_LEAST):
        return f"{lead}{bare} {'ou avant' if french else 'or earlier'}"
    if said.startswith(_AT_MOST):
        return f"{lead}{bare} {'ou après' if french else 'or later'}"
    return f"{'vers' if french else 'around'} {bare}"


def _since_written(
    match: re.Match[str], day: date, unit: str, before: str, clause: str, french: bool
) -> tuple[str, str] | None:
    """(inline, bare) for what lasts until now, said as it was with where it starts: "in the past
    week (since Wednesday 18 November 2026)", "for 3 years now (since about 2019)"; None when it
    says no since ("I lived there for 3 years") or is written out already."""
    if _SINCE_SAID_AFTER.match(clause, match.end()):
        return None  # written out already: the text comes back as it was
    said = " ".join(match.group(0).split())
    if match.group("rolling"):
        # "the past week", "over the last three months": the time up to now, from its first day.
        bare = format_day(day, french) if unit == "day" else _format_period(day, unit, french)
        return f"{said} ({'depuis' if french else 'since'} {bare})", bare
    if not (said.lower().startswith("depuis") or _perfect_before(before)):
        return None  # "I lived there for 3 years", "for 3 years in a row": no since
    # The duration stays as said ("How long has she had them?"), with the start it gives ("When
    # did she get them?"), which stays true when the note is read years later.
    bare = _format_period(day, unit, french)
    return f"{said} ({_since(bare, match.group('lasting_about'), french)})", bare


def _perfect_before(before: str) -> bool:
    """Whether the words before a duration end in a present perfect of the same clause ("I've had
    them", "she has been playing"), which makes the duration last until now."""
    found = next(reversed(list(PERFECT_BEFORE_EN.finditer(before))), None)  # the nearest one
    if found is None:
        return False
    between = before[found.end() :]
    if len(between.split()) > _PERFECT_REACH or _ANOTHER_CLAUSE.search(between):
        return False
    participle = found.group("participle").lower()
    return participle in _PARTICIPLES_EN or is_past_form_en(participle)


# How many words may stand between the perfect and its duration ("I've been playing guitar with my
# band for 3 years"); further on, the duration belongs to some other verb.
_PERFECT_REACH = 8
# What ends the perfect's clause before the duration: a stop, or another subject ("I've told
# you, he was in Paris for two years").
_ANOTHER_CLAUSE = re.compile(r"[,;:!?—–]|\b(?:i|he|she|we|they)\b", re.IGNORECASE)
# Past participles that are no simple past ("known"), and "been", for a present perfect.
_PARTICIPLES_EN = frozenset(
    """been had known seen done gone grown taught given taken driven ridden written eaten worn shown
    thought felt kept lived""".split()
)


# A verb right after a date that opens its sentence: the date is the sentence's subject.
_BE_AFTER = re.compile(
    r"\s+(?:was|is|were|has\s+been|had\s+been|will\s+be|should\s+be|looks|felt|feels)\b|'s\s", re.IGNORECASE
)
_SINCE_SAID_AFTER = re.compile(r"\s*\((?:since|depuis)\b")


def _since(bare: str, about: str | None, french: bool) -> str:
    """Since when a duration runs, as near as it was said: "since about 2019" (for 3 years), "since
    2019 or earlier" (for over 3 years), "depuis 2021 ou après" (depuis moins de deux ans)."""
    said = " ".join((about or "").lower().split())
    if said.startswith(_AT_LEAST):
        return f"depuis {bare} ou avant" if french else f"since {bare} or earlier"
    if said.startswith((*_AT_MOST, "almost", "nearly", "presque", "quasiment")):
        return f"depuis {bare} ou après" if french else f"since {bare} or later"
    return f"depuis environ {bare}" if french else f"since about {bare}"


def _month_alone(match: re.Match[str]) -> bool:
    """A month named without a year or a word that places it ("in March", not "next March")."""
    return bool(match.group("month") and not (match.group("month_year") or match.group("month_modifier")))


def _years_said_with_a_month(
    matches: list[re.Match[str]], clause: str, today: date
) -> tuple[dict[int, int], dict[int, int]]:
    """Where "last year" and "in August" stand side by side ("last year in August", "in August
    last year"): the year for the month's match, by its index, and for each such year's match
    the index of its month's, whose date then says the year."""
    year_of_month: dict[int, int] = {}
    month_of_year: dict[int, int] = {}
    for index, (first, second) in enumerate(pairwise(matches)):
        if not YEAR_AND_MONTH_GAP.match(clause[first.end() : second.start()]):
            continue
        for month_at, year_at in ((index, index + 1), (index + 1, index)):
            month, year = matches[month_at], matches[year_at]
            if (
                _month_alone(month)
                and month.group("month_preposition")
                and (year.group("period_en_unit") or "").lower() == "year"
                and month_at not in year_of_month
                and year_at not in month_of_year
            ):
                modifier = year.group("period_en_modifier").lower()
                year_of_month[month_at] = shift_period(today, "year", _direction(modifier)).year
                month_of_year[year_at] = month_at
    return year_of_month, month_of_year


def expand_dates(text: str, dates: list[ResolvedDate]) -> tuple[str, float | None]:
    """Put the absolute dates back into `text`; also return the first date's timestamp."""
    first: list[float] = []

    def written(match: re.Match[str]) -> str:
        index = int(match.group(1) or match.group(2))
        if index >= len(dates):
            return ""
        first.append(dates[index].at)
        return dates[index].inline if match.group(1) else dates[index].bare

    out = _STRAY_MARKS.sub("", PLACEHOLDER.sub(written, text))
    return out, (first[0] if first else None)


def bare_slot(index: str) -> str:
    """The placeholder that `expand_dates` replaces by dates[index] written bare."""
    return f"\x01{index}\x01"


def told_in_past(text: str) -> bool:
    """Whether `text` is told in the past tense ("I broke", "j'ai cassé", "last week")."""
    if PAST_TENSE.search(text):
        return True
    if FUTURE_EN.search(text):
        return False  # "I said I'll come on Friday": the Friday to come
    return any(is_past_form_en(m.group("verb")) for m in SUBJECT_VERB_EN.finditer(text))


def resolve_relative_dates(text: str, now: datetime) -> str:
    """`text` with each date expression written as the date it means at `now`, sentence by sentence.

    "Alice's exam is next Friday" said on 24 November 2026 reads "Alice's exam is on Friday 4
    December 2026"; "last week" becomes "in the week of Monday 16 November 2026", "le mois
    dernier" "en octobre 2026". Text that is already absolute comes back unchanged, so applying
    it twice changes nothing. Never raises: on unexpected input the text is returned as it was.
    """
    try:
        out: list[str] = []
        position = 0
        for match in SENTENCE_BREAK.finditer(text):
            out.append(_resolve_sentence(text[position : match.start()], now))
            out.append(match.group(0))
            position = match.end()
        out.append(_resolve_sentence(text[position:], now))
        return "".join(out)
    except Exception:  # a date rule must never cost a memory
        return text


def date_mentions(text: str, now: datetime) -> list[tuple[date, str]]:
    """Every date expression of `text` as (the day meant, or the first day of the period, and its
    unit: day, week, weekend, month, season or year), in order: what the rules understood."""
    found: list[tuple[date, str]] = []
    for sentence in SENTENCE_BREAK.split(clean_text(text)):
        _, dates = find_dates(sentence, now, looks_french(sentence), told_in_past(sentence))
        found.extend((when.day, when.unit) for when in dates if when.day is not None)
    return found


def _resolve_sentence(sentence: str, now: datetime) -> str:
    if not sentence or "\x00" in sentence or "\x01" in sentence:
        return sentence  # placeholders of its own would be mistaken for ours
    if not may_hold_a_date(sentence):
        return sentence
    work, dates = find_dates(
        sentence, now, looks_french(sentence), told_in_past(sentence), relative_only=True
    )
    if not dates:
        return sentence
    written = expand_dates(work, dates)[0]
    if sentence[:1].isupper() and written[:1].islower():
        written = written[0].upper() + written[1:]  # "Last week I scored ..." -> "In the week of ..."
    return written
