"""Spans and lists of days that share one month ("March 3-5", "the 14th and 15th of January", "du 23
au 2 janvier") written out as one date per day, for `dates` to read each."""

from __future__ import annotations

import itertools
import re

from .date_patterns import MONTH_ALT, MONTH_KEYS_EN_ALT
from .lexicons import MONTH_NUMBERS, MONTHS_EN, MONTHS_FR
from .normalize import regex

__all__ = ["with_day_lists", "with_day_spans"]


# "March 3-5", "June 9th to 13th", "3-5 mars", "2 to 16 nov", "du 18 au 22 avril", "the 14th-15th of
# January": a span of days in one month.
_DAY_SPAN = regex(
    r"\b(?P<lead>on\s+(?:the\s+)?|the\s+)?"
    rf"(?:(?P<month>{MONTH_ALT})\.?\s+(?P<first>[0-3]?\d)(?:st|nd|rd|th)?(?:\s*[-–]\s*|\s+(?:to|through|thru)\s+)"
    r"(?P<last>[0-3]?\d)(?:st|nd|rd|th)?"
    rf"|(?P<first_day>[0-3]?\d)(?:st|nd|rd|th|er)?(?:\s*[-–]\s*|\s+(?:to|au)\s+)"
    rf"(?:the\s+)?(?P<last_day>[0-3]?\d)(?:st|nd|rd|th)?(?:\s+of)?\s+(?P<month_after>{MONTH_ALT}))"
    r"\b(?![-–/:.]\d)"
)


# "the 21st to the 28th", "for the 21st to the 28th", "21st-28th": days of the month said without it,
# where no "from" opens the span (which the range's end then follows; "on the 3rd" alone is a day).
_ORDINAL_SPAN_EN = regex(
    r"(?<!\bfrom\s)(?<!\bon\s)(?<!\bbetween\s)(?<!\bfrom\sthe\s)(?<!\bon\sthe\s)(?<!\bbetween\sthe\s)"
    r"(?:\bfor\s+)?(?:\bthe\s+)?\b(?P<first>[0-3]?\d(?:st|nd|rd|th))"
    r"(?:\s*[-–]\s*|\s+(?:to|until|till|through|thru)\s+)(?:the\s+)?(?P<last>[0-3]?\d(?:st|nd|rd|th))\b"
)


# A month named right before a span of its days: "June 9th to 13th", "in June, 9th to 13th".
_MONTH_JUST_BEFORE = regex(rf"\b(?:{MONTH_ALT})\.?,?\s*$")
_SPAN_MARKS = ("-", "–", " to ", " au ", " until ", " till ", " through ", " thru ")
_SPAN_OPENED = regex(r"\b(?:from|between|du|entre)\s+$")


def with_day_spans(text: str, french: bool) -> str:
    """`text` with each span of days written as its two dates ("March 3-5" -> "March 3 to March 5",
    "3-5 mars" -> "3 mars au 5 mars", "du 23 au 2 janvier" -> "du 23 décembre au 2 janvier"), and
    a span of days of the month as one from its first ("the 21st to the 28th" -> "from the 21st to
    the 28th"), for each to be read as a date; other spans that end before they start stay as
    written."""

    def written(match: re.Match[str]) -> str:
        month = match.group("month") or match.group("month_after")
        first = int(match.group("first") or match.group("first_day"))
        last = int(match.group("last") or match.group("last_day"))
        to = "au" if french else "to"
        # "the offsite is March 3-5" reads "from March 3 to March 5" unless "from", "du" or "between"
        # opens it already; "on the 14th-15th of January" -> "from 14 January to 15 January" (French
        # "on" is "we", and stays).
        lead = match.group("lead") or ""
        kept = "on " if french and lead.lower().startswith("on") else ""
        opened = _SPAN_OPENED.search(text, 0, match.start())
        start = kept + ("" if opened else ("du " if french else "from "))
        if not match.group("month") and 1 <= last < first <= 31:
            # "du 23 au 2 janvier": the span starts in the month before the one named
            names = MONTHS_FR if french else MONTHS_EN
            before = names[(MONTH_NUMBERS[month.lower()] - 2) % 12]
            return f"{start}{first} {before} {to} {last} {month}"
        if not 1 <= first < last <= 31:
            return match.group(0)
        if match.group("month"):
            return f"{start}{month} {first} {to} {month} {last}"
        return f"{start}{first} {month} {to} {last} {month}"

    if not any(mark in text for mark in _SPAN_MARKS):
        return text
    text = _DAY_SPAN.sub(written, text)
    if french:
        return text

    def from_its_first(match: re.Match[str]) -> str:
        if _MONTH_JUST_BEFORE.search(text, 0, match.start()):
            return match.group(0)  # "in June, 9th to 13th": June's days, left as said
        return f"from the {match.group('first')} to the {match.group('last')}"

    return _ORDINAL_SPAN_EN.sub(from_its_first, text)


# Days that share the month named after them, or before them: "the 14th and 15th of January", "les 14
# et 15 janvier", "the 3rd, 4th and 5th of March", "January 14th and 15th".
_LISTED_DAY = r"[0-3]?\d(?:st|nd|rd|th|er)?"
_DAY_LIST = (
    rf"{_LISTED_DAY}(?:\s*,\s*(?:the\s+|le\s+)?{_LISTED_DAY})*"
    rf"\s*,?\s+(?:and|et|&)\s+(?:the\s+|le\s+)?{_LISTED_DAY}"
)
_DAYS_THEN_MONTH = regex(
    rf"\b(?P<article>the\s+|les\s+)?(?P<days>{_DAY_LIST})(?:\s+of)?\s+(?P<month>{MONTH_ALT})"
    r"(?P<year>,?\s+\d{4})?\b(?![-–/:.]\d)"
)
_MONTH_THEN_DAYS = regex(
    rf"\b(?P<month>{MONTH_KEYS_EN_ALT})\.?\s+(?P<days>{_DAY_LIST})\b(?P<year>,?\s+\d{{4}})?(?![-–/:.]\d)"
)
_DAY_NUMBER = re.compile(r"\d+")


def with_day_lists(text: str, french: bool) -> str:
    """`text` with each list of days that share one month written as dates of their own ("the 14th
    and 15th of January" -> "14 January and 15 January", "les 14 et 15 janvier" -> "le 14 janvier
    et le 15 janvier"), for each to be read as a date; a list whose days do not follow one another
    in the month stays as written."""

    def written(match: re.Match[str]) -> str:
        days = [int(day) for day in _DAY_NUMBER.findall(match.group("days"))]
        if not all(1 <= earlier < later <= 31 for earlier, later in itertools.pairwise(days)):
            return match.group(0)
        month, year = match.group("month"), (match.group("year") or "").lstrip(",")
        if french:
            dates = [f"le {day} {month}{year}" for day in days]
        elif match.re is _MONTH_THEN_DAYS:
            dates = [f"{month} {day}{year}" for day in days]
        else:
            dates = [f"{day} {month}{year}" for day in days]
        last = " et " if french else " and "
        return ", ".join(dates[:-1]) + last + dates[-1]

    if not any(word in text.lower() for word in (" and ", " et ", " & ")):
        return text
    text = _DAYS_THEN_MONTH.sub(written, text)
    return text if french else _MONTH_THEN_DAYS.sub(written, text)
