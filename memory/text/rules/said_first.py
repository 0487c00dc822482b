"""A date said before a clause's subject ("Last week, I ...") moved after the event the rule read."""

from __future__ import annotations

import dataclasses
import re

from ..dates import PLACEHOLDER, ResolvedDate
from ..lexicons import WEEKDAYS_EN, WEEKDAYS_FR
from ..normalize import regex
from .base import Hit

__all__ = ["with_date_said_first"]

# A date said before the subject, with the preposition said before it.
_DATE_SAID_FIRST = regex(
    rf"(?:\b(?:on|in|at|during|since|by|from|le|en|au|pendant|depuis|dès)\s+)?{PLACEHOLDER.pattern}"
)
# The prepositions a date said first may carry inside it ("In June", "En 2019"), from a capital.
_PREPOSITIONS_SAID = frozenset({"In", "On", "At", "During", "Since", "By", "From", "Until", "En", "Depuis"})
_WEEKDAYS = frozenset(WEEKDAYS_EN + WEEKDAYS_FR)


def with_date_said_first(content: str, hit: Hit) -> str:
    """`content` with the dates said before its subject after it ("Last week I went to a
    conference", "Hier, j'ai adopté un chien"): the rules read from the subject on."""
    if PLACEHOLDER.search(content):
        return content
    dates = hit.clause.dates

    def moved(slot: re.Match[str]) -> str:
        # A copy of the date as it reads after the event, since the other memories of the clause
        # may still open on it: "In June I moved" -> "... moved to Berlin in June 2026", "Friday I
        # adopted a dog" -> "... adopted a dog on Friday 20 November 2026".
        said = dates[int(slot.group(1))] if slot.group(1) is not None else None
        if said is None:
            return slot.group(0)
        first = said.inline.split(" ", 1)[0]
        if first in _PREPOSITIONS_SAID:
            inline = first.lower() + said.inline[len(first) :]
        elif slot.start() == 0 and first.lower() in _WEEKDAYS:
            inline = ("le " if hit.french else "on ") + said.inline
        else:
            return slot.group(0)
        dates.append(dataclasses.replace(said, inline=inline))
        return f"\x00{len(dates) - 1}\x00"

    # "I've known them for 4 years, since I moved": how long the knowing lasts is no date of the move.
    said_first = [
        m for m in _DATE_SAID_FIRST.finditer(hit.clause.text[: hit.match.start()]) if not _lasting(m, dates)
    ]
    before = " ".join(PLACEHOLDER.sub(moved, m.group(0)[:1].lower() + m.group(0)[1:]) for m in said_first)
    return f"{content} {before}" if before else content


def _lasting(said: re.Match[str], dates: list[ResolvedDate]) -> bool:
    """Whether the date said first is since when something lasts ("for 4 years now")."""
    index = said.group(1) or said.group(2)
    return index is not None and int(index) < len(dates) and dates[int(index)].lasting
