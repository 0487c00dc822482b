"""The extraction rules, as one table: each entry turns a kind of first-person statement into memories."""

from __future__ import annotations

from ..dates import PLACEHOLDER
from ..normalize import regex
from .activities import ACTIVITIES
from .assignments import ASSIGNMENTS, tells_who_does_what
from .base import Clause, Entry, Item, run_rules
from .changes import CHANGES
from .childhood import CHILDHOOD
from .dated_events import DATED_EVENT
from .deadlines import DEADLINES, OBLIGATION
from .decisions import DECISIONS, settles_decision
from .events import EVENTS
from .family import FAMILY, tells_of_someone_named
from .goals import GOALS
from .health import HEALTH
from .hobbies import HOBBIES
from .identity import IDENTITY
from .names import NAMES
from .personal import PERSONAL
from .preferences import PREFERENCES
from .requests import REQUESTS, asks_to_forget
from .schedule import SCHEDULE
from .works import WORKS

__all__ = ["OBLIGATION", "Clause", "Item", "asks_to_forget", "read_clause", "settles_decision"]

# Statement rules, in priority order (items come out in this order; the first of equal ones is kept).
STATEMENTS: tuple[Entry, ...] = (
    *NAMES,
    *FAMILY,
    *IDENTITY,
    *SCHEDULE,
    *PREFERENCES,
    *PERSONAL,
    *HEALTH,
    *CHANGES,
    *DECISIONS,
    *ASSIGNMENTS,
    DEADLINES,
    *GOALS,
    *EVENTS,
    *HOBBIES,
    *CHILDHOOD,
    *ACTIVITIES,
    *WORKS,
)

# Cheap gate: clauses with none of these words cannot match any rule, so most text skips the regex battery.
_GATE = regex(
    r"\b(?:i|forward|i'm|i've|i'd|my|me|we|we're|we've|we'll|let's|let|our|decision|decided|agreed|deadline|due|todo|to-do|"
    r"remember|forget|note|save|remind|call|keep|bear|memori[sz]e|write|correction|scratch|je|j'|moi|mon|ma|mes|nous|notre|nos|on|"
    r"c'est|décision|date|échéance|rendre|être|pour|avant|d'ici|n'oublie|n'oubliez|souviens|souvenez|"
    r"rappelle|rappelez|retiens|retenez|retenir|notez|noter|mémorise|garde|gardez|enregistre|"
    r"tu|vous|peux|pouvez|partons|allons-y|il|faut|pronouns|pronoms|name|here|favou?rite|fave|fav|every|each|"
    # what the speaker asks of the team's calendar: "please don't schedule meetings before 10, I ..."
    r"schedule|book\s+(?:me|anything|any)|meetings|calls|réunions?|"
    # what one's doctor ordered: "the physio says no running for 6 weeks"
    r"doctor|physio|dentist|gp)(?![\w])|\bj'|\x00"
    # Pronouns given alone: "he/him", "elle/elle".
    r"|\b(?:he|she|they|xe|ze|il|elle|iel)\s*/"
)


def _statements(clause: Clause, speaker: str) -> list[Item]:
    return run_rules(STATEMENTS, clause, speaker, lambda inner: _statements(inner, speaker))


def read_clause(clause: Clause, speaker: str) -> list[Item]:
    """The memories one clause states: an explicit request wins (it re-reads its inner text with
    the statement rules); otherwise every statement rule, and a dated event when none of them
    kept the clause's date."""
    if not (
        _GATE.search(clause.text) or tells_of_someone_named(clause.text) or tells_who_does_what(clause.text)
    ):
        return []
    requested = REQUESTS.apply(clause, speaker, lambda inner: _statements(inner, speaker))
    if requested is not None:
        return requested  # none, for a request to forget
    stated = _statements(clause, speaker)
    if any(PLACEHOLDER.search(item.content) for item in stated):
        return stated
    # A dated event when nothing else kept the clause's date: "je pars en Corse le 9 août avec ma
    # copine Françoise" names the friend, and the trip is still on the 9th.
    return stated + run_rules((DATED_EVENT,), clause, speaker, lambda inner: [])
