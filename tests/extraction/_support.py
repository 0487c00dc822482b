"""What the extraction tests share: the day they are said on, the kinds of note, and how a line is read."""

from __future__ import annotations

from datetime import datetime

from memory.models import MemoryType
from memory.text import Extracted, extract
from memory.text.dates import resolve_relative_dates
from tests.helpers import SUNDAY_NOON as NOW  # a Sunday
from tests.helpers import WEDNESDAY_NOON

ID = MemoryType.IDENTITY
PREF = MemoryType.PREFERENCE
DEC = MemoryType.DECISION
TODO = MemoryType.TODO
EVENT = MemoryType.EVENT
GOAL = MemoryType.GOAL
FACT = MemoryType.FACT


def run(text: str, speaker: str = "Mickael", now: datetime = NOW) -> list[Extracted]:
    return extract(text, speaker, now=now)


def contents(text: str, speaker: str = "Mickael") -> list[tuple[MemoryType, str]]:
    return [(item.memory_type, item.content) for item in run(text, speaker)]


def notes(text: str) -> list[str]:
    """What Mickael's `text` leaves, read at `WEDNESDAY_NOON`."""
    return [item.content for item in run(text, now=WEDNESDAY_NOON)]


def assert_written_out(said: str, written: str) -> None:
    """`said` has its dates written out as `written` at `WEDNESDAY_NOON`, and `written` is left as it
    is: a text whose dates are already written out is never dated twice."""
    assert resolve_relative_dates(said, WEDNESDAY_NOON) == written
    assert resolve_relative_dates(written, WEDNESDAY_NOON) == written
