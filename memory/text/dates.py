"""Finds date expressions in chat and resolves them against a moment: "next Friday" is 4 December 2026."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from datetime import time as dtime
from itertools import pairwise

from .date_format import PERIOD_LEAD_EN, PERIOD_LEAD_FR, day_of_year, format_day, format_period
from .date_meaning import direction, names_no_number, resolve_match, whole_years_ago
from .date_patterns import (
    BIRTH,
    DATE_PATTERN,
    DAY_PREPOSITION_BEFORE,
    HABITUAL,
    HOLIDAY_LEAD,
    HOLIDAY_PREPOSITION_BEFORE,
    HOLIDAYS,
    MONTH_VERBS,
    MOVED_VERB_EN,
    ORDINAL,
    PARTS_OF_DAY,
    PERIOD_PREPOSITION_BEFORE,
    PLANNED_BEFORE,
    RECURRING,
    SINCE_BEFORE,
    STARTING_BEFORE,
    TIME_PATTERN,
    YEAR_AND_MONTH_GAP,
    may_hold_a_date,
)
from .day_lists import with_day_lists, with_day_spans
from .durations import ABOUT_BEFORE, roughly, since_written
from .failures import log_heuristic_failure
from .holidays import holiday_key
from .normalize import clean_text, looks_french
from .periods import nearest_day_of_month, shift_period
from .sentences import SENTENCE_BREAK
from .tense import HABIT_EN, told_as_a_plan, told_in_past

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


# A part of a month said in words, as the short form writes it.
_MONTH_PARTS = {
    "beginning": "early",
    "start": "early",
    "first half": "early",
    "middle": "mid",
    "end": "late",
    "second half": "late",
}


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
    clause = with_day_lists(with_day_spans(clause, french), french)
    today = now.date()
    found: list[ResolvedDate] = []
    out: list[str] = []
    position = 0
    clock: dtime | None = None
    clock_read = False
    matches = list(DATE_PATTERN.finditer(clause))
    said_before: date | None = None  # the clause's last date, written out or not
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
        if match.group("season_said") and HABIT_EN.search(before):
            continue  # "we used to swim in the summer": every summer, not the last one
        month_word = match.group("day_month_month") or match.group("month_day_month") or ""
        if month_word in MONTH_VERBS and not (
            DAY_PREPOSITION_BEFORE.search(before) or ORDINAL.search(match.group(0))
        ):
            continue  # "I may 3 times", "we march 10 miles": lower-case words, not months
        holiday_alone = match.group("holiday_name") and not match.group("holiday_modifier")
        if holiday_alone and not (
            (HOLIDAY_PREPOSITION_BEFORE.search(before) or _SPENT_BEFORE.search(before))
            and (past or told_as_a_plan(re.split(r"[,;]", before)[-1]))
        ):
            # "Christmas is my favourite time of year": the holiday, not a day of it; "at
            # Christmas we usually ski" is every year's. Told in the past, it is the last one; told
            # as a plan ("we're going to my in-laws for Christmas"), the next one.
            continue
        # "since Tuesday" is the last one, whatever the tense ("I've been sick since Tuesday").
        # "We agreed to meet on Monday", "we pushed the launch back to Friday": told in the past, of
        # a day to come.
        told_past = (
            past
            and not PLANNED_BEFORE.search(before)
            and not STARTING_BEFORE.search(before)
            and not _TO_COME_SINCE_THE_LAST_BREAK.search(before)
        )
        resolved = resolve_match(match, today, told_past or bool(SINCE_BEFORE.search(before)))
        if resolved is None:
            continue
        day, kind, unit = resolved
        ends_a_range = said_before is not None and day < said_before and _RANGE_END_BEFORE.search(before)
        if kind == "ord" and said_before is not None and ends_a_range:
            # "from the 3rd to the 10th", "from May 20th to the 2nd": the range's end is on or after
            # its start, whichever month "the 10th" alone would have meant.
            day = nearest_day_of_month(said_before, day.day, False) or day
        elif (
            kind == "wd"
            and ends_a_range
            and not (match.group("weekday_modifier") or match.group("weekday_after"))
        ):
            # "off from Tuesday to Thursday": the Thursday after that Tuesday, not the one before it.
            day += timedelta(days=7 * -(-(said_before - day).days // 7))
        said_before = day
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
            since = since_written(match, day, unit, before, clause, french)
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
            found_about = ABOUT_BEFORE.search(before)
            if found_about is not None:
                about, segment_end = found_about.group("about"), found_about.start()
            elif match.group("ago_or") or match.group("ago_or_after"):
                about = "around"  # "two or three weeks ago", "a month or so ago"
            elif names_no_number(match.group("ago_quantity") or match.group("il_y_a_quantity") or ""):
                about = "around"  # "a few years ago", "several months back", "il y a quelques années"
            else:
                about = match.group("il_y_a_about")
        if kind == "period":
            part_fr = (match.group("month_part_fr") or "").lower()
            bare = format_period(day, unit, french or bool(part_fr))
            said = match.group("month_preposition")  # "in September" keeps its own "in"
            # "in early May" -> "in early May 2026", "in the middle of May" -> "in mid-May 2026"
            said_part = " ".join((match.group("month_part_said") or "").lower().split())
            part = _MONTH_PARTS.get(said_part) or (match.group("month_part") or "").lower()
            part_before = (
                _PART_BEFORE.search(before)
                if unit in ("year", "month", "week") and not (part or about or french)
                else None
            )
            if part_before is not None and _ON_TIME_BEFORE.search(before, 0, part_before.start()):
                part_before = None  # "I was late last month": late for something, not late in it
            if part_before is not None:
                # "mid-last year" -> "in mid-2025", "early last month" -> "in early October 2026"
                part, segment_end = part_before.group("part").lower(), part_before.start()
            written = f"mid-{bare}" if part == "mid" else " ".join([*([part] if part else []), bare])
            if part and unit == "week":
                # "mid-next week" -> "in the middle of the week of Monday 30 November 2026"
                written = f"{_WEEK_PARTS[part]} {bare}"
            if part_fr:
                # "fin janvier" -> "fin janvier 2027", "mi-décembre" -> "mi-décembre 2026": as French says it.
                written = part_fr + re.sub(r"\s+", " ", match.group("month_part_fr_joint")) + bare
            if about:
                inline = roughly(bare, (PERIOD_LEAD_FR if french else PERIOD_LEAD_EN)[unit], about, french)
            elif said:
                # "à partir d'avril 2027": the elided "de" takes no space after it
                glue = "" if said.endswith(("'", "’")) else " "
                inline = " ".join(said.split()) + glue + written
            elif part_fr:
                inline = written
            elif part and (part_before is not None or not match.group("month_modifier")):
                # "due early March" -> "due in early March 2027"; "pushed to mid-February" has its
                # preposition
                said_up_to = part_before.start() if part_before is not None else len(before)
                lead = (PERIOD_LEAD_FR if french else PERIOD_LEAD_EN)[unit]
                said_with_one = unit == "week" or PERIOD_PREPOSITION_BEFORE.search(before, 0, said_up_to)
                inline = ("" if said_with_one else lead) + written  # a week's part has its own "in"
            elif (
                PERIOD_PREPOSITION_BEFORE.search(before)
                or _SPENT_BEFORE.search(before)
                or (unit == "quarter" and _DETERMINER_BEFORE.search(before))
            ):
                inline = bare
            else:
                inline = (PERIOD_LEAD_FR if french else PERIOD_LEAD_EN)[unit] + bare
            at = datetime.combine(day, dtime(0, 0), tzinfo=now.tzinfo).timestamp()
        elif match.group("year_said"):
            bare, inline = str(day.year), " ".join(match.group(0).split())  # kept as said
            at = datetime.combine(day, dtime(0, 0), tzinfo=now.tzinfo).timestamp()
        elif kind == "holiday":
            name = HOLIDAYS[holiday_key(match.group("holiday_name"))][0]
            bare = f"{name} {day.year}"
            spent = HOLIDAY_PREPOSITION_BEFORE.search(before) or _SPENT_BEFORE.search(before)
            lead = "" if spent else HOLIDAY_LEAD.get(name, "on ")
            inline = lead + bare
            at = datetime.combine(day, dtime(0, 0), tzinfo=now.tzinfo).timestamp()
        else:
            if not clock_read:
                clock, clock_read = _time_of_day(clause), True
            bare = format_day(day, french, clock)
            inline = format_day(day, french)
            if kind == "day" and not past and RECURRING.search(clause):
                # "my birthday is on 3 June" is every year's 3 June: no weekday, no year.
                bare = inline = day_of_year(day, french)
            if kind in ("rel", "wd") and not DAY_PREPOSITION_BEFORE.search(before):
                # "tomorrow" and "next Friday" need a preposition once written out; "Friday" alone does not.
                if (
                    kind == "rel"
                    or match.group("weekday_modifier")
                    or match.group("weekday_after")
                    or match.group("weekday_short")
                ):
                    inline = ("le " if french else "on ") + inline
            if match.group("jour_du_mois"):
                inline = "le " + inline  # "le 12": "le samedi 12 décembre 2026"
            part = match.group("weekday_part") or match.group("weekday_short_part")
            if part:
                inline += PARTS_OF_DAY[part.lower()]
            at = datetime.combine(day, clock or dtime(0, 0), tzinfo=now.tzinfo).timestamp()
        said = " ".join(match.group(0).split())
        if relative_only and _WRITTEN_AFTER.match(clause, match.end()):
            # "Last week (the week of ...) was wild": written out already (and read again in
            # another tense, "the last week of May (the week of Monday 25 May 2026) was busy" could
            # mean another May)
            continue
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
    return _dash_as_range("".join(out), french), found


# Two dates joined by a dash: a range ("I'm OOO Dec 20 - Jan 3"), which a spaced dash would
# otherwise cut in two as a break in the chat line.
_DASHED_RANGE = re.compile(
    "(?P<from>(?:from|du|de)\\s+)?(\x00\\d+\x00)\\s*[-–—]\\s*(\x00\\d+\x00)", re.IGNORECASE
)


def _dash_as_range(text: str, french: bool) -> str:
    """`text` with each "<date> - <date>" written as the range it is: "from <date> to <date>"."""

    def written(match: re.Match[str]) -> str:
        start, to = ("du ", " au ") if french else ("from ", " to ")
        said = match.group("from") or start
        if said.lower().startswith("de"):
            to = " à "  # "de lundi - mardi": "de lundi à mardi"
        return f"{said}{match.group(2)}{to}{match.group(3)}"

    return _DASHED_RANGE.sub(written, text)


# A part of the clause after a comma, a semicolon or "and", told in the present or the future, of a
# day: "my grandpa passed away last week, the funeral is on Saturday" is the Saturday to come, and so
# is "my laptop died and IT is sending a new one tuesday"; what will be done again, "I failed my
# driving test yesterday, retaking it in March" (the next March), or heard: "results in January"; a
# move that follows, "moving in on the 15th" (not any "-ing": "visiting the Louvre on Saturday" may
# tell the weekend that was).
_TO_COME_SINCE_THE_LAST_BREAK = re.compile(
    r"(?:[,;]\s*(?:and\s+|but\s+|so\s+)?|\s(?:and|but|so)\s+)(?:(?:the\s+|our\s+|my\s+|his\s+|her\s+|their\s+)?[\w'-]+(?:\s+[\w'-]+)?\s+"
    r"(?:is|are|will\s+be|'s\s+going\s+to\s+be|is\s+going\s+to\s+be|starts|begins|opens|ends|closes|arrives|"
    r"lands|returns|(?:comes|goes|gets)(?:\s+(?:off|out|back|in|live))?|"
    r"(?:is|are)\s+\w+ing(?:\s+[\w'-]+){0,4}|will\s+\w+(?:\s+[\w'-]+){0,4})\s+(?:on\s+|at\s+|next\s+)?"
    r"|(?:re(?:taking|sitting|doing|applying|booking|scheduling)|trying\s+again"
    # a move or a trip that follows: "we closed on the house yesterday, moving in on the 15th"
    r"|(?:moving|flying|heading|leaving|driving)\s+(?:in|out|back|off|home|over|up|down|to)"
    r")(?:\s+[\w'-]+){0,4}?\s+"
    r"(?:in|on|at|by|next|this)?\s*"
    # what is to be heard of it: "took the exam on Saturday, results in January"
    r"|(?:the\s+)?(?:results?|grades?|scores?|marks?|decision|answer|verdict|feedback)\s+"
    r"(?:(?:are|is|will\s+be|should\s+be|come\s+out|comes\s+out|due|out|expected)\s+)*(?:in|on|by|next|this|around)?\s*)$",
    re.IGNORECASE,
)
# A date written out after the words that said it: "(the week of Monday 16 November 2026)".
_WRITTEN_AFTER = re.compile(r"\s*\([^()]*\b\d{4}\)")
# A part of the period said right before it: "mid-last year", "early next month".
_PART_BEFORE = re.compile(r"\b(?P<part>early|mid|late)(?:-|\s+)$", re.IGNORECASE)
_WEEK_PARTS = {"early": "early in", "mid": "in the middle of", "late": "late in"}
_ON_TIME_BEFORE = re.compile(
    r"\b(?:was|were|am|is|are|be|been|being|running|arrived|showed\s+up|came|got\s+(?:there|home|in))\s+$",
    re.IGNORECASE,
)
_RANGE_END_BEFORE = re.compile(
    r"(?:\b(?:to|until|till|through|thru|and|au|à|jusqu'au|jusqu'à|et)|[-–])\s*$"
    # the return after an absence: "out from the 22nd to the 2nd, back on the 3rd"
    r"|\b(?:back|returning|de\s+retour)\s+(?:on\s+|le\s+)?$"
    # the day after another: "moved from Tuesday to the following Monday"
    r"|\bfollowing\s+$",
    re.IGNORECASE,
)
# A quarter said as a noun's word: "the Q1 migration", "our Q3 targets" ("the Q1 2027 migration").
_DETERMINER_BEFORE = re.compile(r"\b(?:the|our|my|your|their|his|her|its|a|this|that)\s+$", re.IGNORECASE)
# A verb right after a date that opens its sentence: the date is the sentence's subject.
_BE_AFTER = re.compile(
    r"\s+(?:was|is|were|has\s+been|had\s+been|will\s+be|should\s+be|looks|felt|feels)\b|'s\s", re.IGNORECASE
)


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
                year_of_month[month_at] = shift_period(today, "year", direction(modifier)).year
                month_of_year[year_at] = month_at
            elif (
                month.group("month")
                and not month.group("month_year")
                and (
                    month.group("month_preposition")
                    or (month.group("month_modifier") or "").lower() == "this"
                )
                and (back := whole_years_ago(year)) is not None
                and not ABOUT_BEFORE.search(clause, 0, year.start())
                and month_at not in year_of_month
                and year_at not in month_of_year
            ):
                # "we got married 5 years ago this June", "il y a deux ans en mars": that year's month.
                year_of_month[month_at] = today.year - back
                month_of_year[year_at] = month_at
    return year_of_month, month_of_year


# A day moved to another: "my interview got moved from Tuesday to Thursday" happens on the Thursday.
_MOVED_TO = re.compile(
    rf"\b{MOVED_VERB_EN}\b"
    r"[^\x00\x01]*?\bfrom\s+(?:\x00\d+\x00|\x01\d+\x01)\s+(?:to|until|till)\s+(?:the\s+following\s+)?"
    r"(?:\x00(\d+)\x00|\x01(\d+)\x01)",
    re.IGNORECASE,
)


def expand_dates(text: str, dates: list[ResolvedDate]) -> tuple[str, float | None]:
    """Put the absolute dates back into `text`; also return the timestamp of when it happens: the
    first date's, or the one a day was moved to."""
    first: list[float] = []

    def written(match: re.Match[str]) -> str:
        index = int(match.group(1) or match.group(2))
        if index >= len(dates):
            return ""
        first.append(dates[index].at)
        return dates[index].inline if match.group(1) else dates[index].bare

    out = _STRAY_MARKS.sub("", PLACEHOLDER.sub(written, text))
    moved = _MOVED_TO.search(text)
    if moved is not None and int(moved.group(1) or moved.group(2)) < len(dates):
        return out, dates[int(moved.group(1) or moved.group(2))].at
    return out, (first[0] if first else None)


def bare_slot(index: str) -> str:
    """The placeholder that `expand_dates` replaces by dates[index] written bare."""
    return f"\x01{index}\x01"


# A holiday or a period spent, as the day it is: "we're spending Thanksgiving with my sister", "we
# hosted Easter", "I spent last weekend at the lake" ("spent the weekend of ...", not "spent on the
# weekend of ...").
_SPENT_BEFORE = re.compile(
    r"\b(?:spend|spending|spent|celebrate|celebrating|celebrated|host|hosting|hosted|passer|passé|passe|"
    r"fêter|fêté|fête)\s*$",
    re.IGNORECASE,
)


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
        log_heuristic_failure("dates")
        return text


def date_mentions(text: str, now: datetime, past: bool | None = None) -> list[tuple[date, str]]:
    """Every date expression of `text` as (the day meant, or the first day of the period, and its
    unit: day, week, weekend, month, season or year), in order: what the rules understood. `past`
    reads "Friday" and "in June" as the last ones (a question about what was said) or the next;
    None: as each sentence's tense tells."""
    found: list[tuple[date, str]] = []
    for sentence in SENTENCE_BREAK.split(clean_text(text)):
        told_past = told_in_past(sentence) if past is None else past
        _, dates = find_dates(sentence, now, looks_french(sentence), told_past)
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
