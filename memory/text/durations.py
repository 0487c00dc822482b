"""Amounts of time written as dates: how near "about five years ago" is, since when "for 3 years now" runs."""

from __future__ import annotations

import re
from datetime import date

from .date_format import format_day, format_period
from .date_patterns import PERFECT_BEFORE_EN
from .lexicons import is_past_form_en

__all__ = ["ABOUT_BEFORE", "roughly", "since_written"]


# Words that make "N years ago" approximate ("about", "over"), said before it in English.
ABOUT_BEFORE = re.compile(
    r"\b(?P<about>about|around|roughly|approximately|some|nearly|almost|close\s+to|just\s+over|over|"
    r"more\s+than|just\s+under|under|less\s+than)\s+$",
    re.IGNORECASE,
)
_AT_LEAST = ("over", "just over", "more than", "plus d")
_AT_MOST = ("under", "just under", "less than", "moins d")


def roughly(bare: str, lead: str, about: str, french: bool) -> str:
    """A period said approximately: "around 2018", "in 2013 or earlier" (over ten years ago),
    "en 2022 ou après" (il y a moins d'un an)."""
    said = " ".join(about.lower().split())
    if said.startswith(_AT_LEAST):
        return f"{lead}{bare} {'ou avant' if french else 'or earlier'}"
    if said.startswith(_AT_MOST):
        return f"{lead}{bare} {'ou après' if french else 'or later'}"
    return f"{'vers' if french else 'around'} {bare}"


def since_written(
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
        bare = format_day(day, french) if unit == "day" else format_period(day, unit, french)
        return f"{said} ({'depuis' if french else 'since'} {bare})", bare
    if not (said.lower().startswith("depuis") or _perfect_before(before)):
        return None  # "I lived there for 3 years", "for 3 years in a row": no since
    # The duration stays as said ("How long has she had them?"), with the start it gives ("When
    # did she get them?"), which stays true when the note is read years later.
    if match.group("lasting_today"):
        # "for two years today": since this very day, as many years ago; the "today" left out, as
        # the note is read on other days
        said = " ".join(match.string[match.start() : match.start("lasting_today")].split())
        bare = format_day(day, french)
        return f"{said} ({'depuis le' if french else 'since'} {bare})", bare
    bare = format_period(day, unit, french)
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
