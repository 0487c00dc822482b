"""Whether a clause is told in the past, as a plan or as a habit: what decides which "Friday" or which
"Christmas" a date means."""

from __future__ import annotations

import re

from .date_patterns import FUTURE_EN, PAST_TENSE, SUBJECT_VERB_EN
from .lexicons import is_past_form_en

__all__ = ["HABIT_EN", "told_as_a_plan", "told_in_past"]

# A verb of knowing or saying that reports what follows: "I forgot that my passport expires in
# February" tells of a February to come, in the tense of what was forgotten.
_REPORTED_EN = re.compile(
    r"\b(?:i|we)\s+(?:just\s+|totally\s+|completely\s+)?(?:forgot|realized|realised|remembered|noticed|found\s+out|"
    r"learned|learnt|heard|read)\s+(?:that\s+)?(?=(?:my|our|the|it|he|she|they|his|her|their)\b)"
    # ... and what someone said of the speaker: "my manager said I'm up for promotion in January"
    r"|\b(?:my|our|the)\s+[\w-]+\s+(?:just\s+)?(?:said|told\s+me|confirmed|mentioned|announced)\s+(?:that\s+)?"
    r"(?=(?:i'm|i\s+am|i'll|i\s+will|we're|we\s+are|we'll|we\s+will)\b)",
    re.IGNORECASE,
)


# What did not happen is told in the past too: "I didn't go to the party on Saturday".
_DID_NOT_EN = re.compile(
    r"\b(?:i|we)\s+(?:didn't|did\s+not|wasn't|was\s+not|weren't|were\s+not)\b", re.IGNORECASE
)


def told_in_past(text: str) -> bool:
    """Whether `text` is told in the past tense ("I broke", "j'ai cassé", "last week")."""
    reported = _REPORTED_EN.search(text)
    if reported is not None and not PAST_TENSE.search(text):
        return told_in_past(text[reported.end() :])
    if PAST_TENSE.search(text) or _DID_NOT_EN.search(text):
        return True
    if FUTURE_EN.search(text):
        return False  # "I said I'll come on Friday": the Friday to come
    return any(
        is_past_form_en(m.group("verb"))
        or (m.group("verb").lower() in _SAME_IN_THE_PAST_EN and not HABIT_EN.search(text))
        for m in SUBJECT_VERB_EN.finditer(text)
    )


# Verbs whose past is their present: "I quit smoking in January" tells of the last January, as "I
# stopped" would; "I quit every January" is a habit.
_SAME_IN_THE_PAST_EN = frozenset(
    {"quit", "cut", "hurt", "hit", "put", "set", "shut", "split", "spread", "let", "read", "upset", "beat"}
)
# What comes before a holiday since the last comma, told as a plan: the holiday is the next one.
# The future ("we'll be in Paris over New Year's"), the progressive ("we're going to my in-laws for
# Christmas"), or being away ("I'm off for Christmas"); not a habit (`HABIT_EN`, `_HABIT_FR`: "we
# always go home for Christmas"), nor a plan said before the comma ("I'll sort it today, it's been
# stale since before Christmas" is the last one).
_PLANNED_HOLIDAY = re.compile(
    r"\b(?:will|shall|gonna|going\s+to)\b|\w'll\b"
    r"|\b(?:i'm|we're|they're|he's|she's|i\s+am|we\s+are|is|are)\s+(?:\w+\s+)?(?:\w+ing|off|away|out|home|back)\b"
    # French: "je vais chez mes parents pour Noël", "ma belle-mère vient passer Noël chez nous"
    r"|\b(?:je\s+vais|on\s+va|nous\s+allons|ils\s+vont|elles\s+vont|je\s+pars|on\s+part|nous\s+partons|"
    r"je\s+serai|on\s+sera|nous\s+serons|(?:vient|viennent|va|vont)\s+passer|passera|passerons|passerai|"
    # a visit to come: "ma mère vient nous voir pour Noël"
    r"vien(?:t|nent)(?:\s+(?:nous|me|te)\s+voir)?|"
    r"fêtera|fêterons|fêterai|serai|sera|serons)\b",
    re.IGNORECASE,
)
_HABIT_FR = re.compile(r"\b(?:chaque|tous\s+les|toujours|d'habitude|souvent|jamais)\b", re.IGNORECASE)
# What makes a clause a habit, not one time: "I quit every January", "we used to swim in the summer".
HABIT_EN = re.compile(
    r"\b(?:used\s+to|would|every|each|usually|always|often|never|sometimes|normally|tend\s+to)\b",
    re.IGNORECASE,
)


def told_as_a_plan(said: str) -> bool:
    """Whether `said` (what comes before a holiday) tells a plan, not a habit."""
    return bool(_PLANNED_HOLIDAY.search(said)) and not (HABIT_EN.search(said) or _HABIT_FR.search(said))
