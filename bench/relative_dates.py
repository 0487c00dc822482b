"""`memorybot bench dates`: the extractor's date rules and dateparser, scored on a labelled set."""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import date, datetime, timedelta
from pathlib import Path
from typing import Any

from memory.text import date_mentions

DATA = Path(__file__).parent / "data" / "relative_dates.json"

Mentions = Callable[[str, datetime], list[tuple[date, str]]]


def load_cases(path: Path = DATA) -> list[dict[str, Any]]:
    """The labelled cases: message time, text, and the (first day, unit) of every date in it."""
    data = json.loads(path.read_text(encoding="utf-8"))
    return list(data["cases"])


def _start(day: date, unit: str) -> date:
    if unit == "week":
        return day - timedelta(days=day.weekday())
    if unit == "month":
        return day.replace(day=1)
    if unit == "year":
        return day.replace(month=1, day=1)
    return day


def dateparser_mentions(text: str, now: datetime) -> list[tuple[date, str]]:
    """What `dateparser.search.search_dates` finds, with the message time as RELATIVE_BASE, each
    date's precision from `DateDataParser` (day, week, month or year)."""
    from dateparser.date import DateDataParser
    from dateparser.search import search_dates

    settings = {"RELATIVE_BASE": now.replace(tzinfo=None)}
    found = search_dates(text, languages=["en", "fr"], settings=settings) or []
    parser = DateDataParser(languages=["en", "fr"], settings=settings)
    out: list[tuple[date, str]] = []
    for phrase, when in found:
        period = parser.get_date_data(phrase).period or "day"
        unit = period if period in ("week", "month", "year") else "day"
        out.append((_start(when.date(), unit), unit))
    return out


def _correct(got: list[tuple[date, str]], expected: list[list[str]]) -> bool:
    if len(got) != len(expected):
        return False
    for (day, unit), (want_day, want_unit) in zip(got, expected, strict=True):
        want = date.fromisoformat(want_day)
        if want_unit == "weekend" and unit != "weekend":
            # dateparser has no weekends: any day of that weekend counts for it.
            if not want <= day <= want + timedelta(days=1):
                return False
        elif (day, unit) != (want, want_unit):
            return False
    return True


def score(mentions: Mentions, cases: list[dict[str, Any]]) -> dict[str, Any]:
    """Accuracy of `mentions` on `cases` (a case counts when every date in it is right), and misses."""
    misses: list[dict[str, Any]] = []
    right = 0
    for case in cases:
        now = datetime.fromisoformat(case["now"])
        try:
            got = mentions(case["text"], now)
        except Exception as exc:  # a library crash on one message is a wrong answer, not the end
            got = []
            misses.append({"text": case["text"], "error": type(exc).__name__})
            continue
        if _correct(got, case["expect"]):
            right += 1
        else:
            misses.append(
                {"text": case["text"], "got": [[d.isoformat(), u] for d, u in got], "expect": case["expect"]}
            )
    return {"accuracy": round(right / len(cases), 4), "right": right, "cases": len(cases), "misses": misses}


def run(out: Path | None = None) -> dict[str, Any]:
    """Score both on the labelled set; dateparser only when installed (`pip install .[bench]`)."""
    cases = load_cases()
    result: dict[str, Any] = {"benchmark": "relative_dates", "rules": score(date_mentions, cases)}
    try:
        import dateparser
    except ImportError:
        result["dateparser"] = {"skipped": "not installed: pip install -e '.[bench]'"}
    else:
        result["dateparser"] = {"version": dateparser.__version__, **score(dateparser_mentions, cases)}
    if out is not None:
        out.mkdir(parents=True, exist_ok=True)
        (out / "relative_dates.json").write_text(json.dumps(result, indent=2, ensure_ascii=False) + "\n")
    return result
