"""Questions asking by kind ("what are Léa's hobbies?"): the kind tags they ask for, the people they name."""

from __future__ import annotations

import re
from collections.abc import Sequence

from ..models import Memory
from ..text.rules.activities import ACTIVITY_TAG, PET_TAG, PLACE_TAG

__all__ = ["about_named", "asked_kinds"]

_MAX_SCAN_CHARS = 2_000
# The words by which people ask for what the pastime and pet rules (memory/text/rules/activities)
# tag: a question names the kind, the turn only the thing.
_ASKS: tuple[tuple[re.Pattern[str], str], ...] = (
    (
        re.compile(
            r"\b(?:activit(?:y|ies)|hobb(?:y|ies)|pastimes?|sports?|exercis(?:e|es|ing)|workouts?|outdoors?|"
            r"for\s+fun|free\s+time|spare\s+time)\b",
            re.IGNORECASE,
        ),
        ACTIVITY_TAG,
    ),
    (re.compile(r"\b(?:pets?|animals?)\b", re.IGNORECASE), PET_TAG),
    (
        re.compile(
            r"\b(?:countr(?:y|ies)|cit(?:y|ies)|states|places|travel\w*|trips?|vacation\w*|visit(?:ed|s)?|"
            r"destinations?|been\s+to)\b",
            re.IGNORECASE,
        ),
        PLACE_TAG,
    ),
)
_WORD = re.compile(r"[^\W\d_][\w'-]*")
_SELF = re.compile(r"\b(?:i|my|me)\b", re.IGNORECASE)


def asked_kinds(text: str) -> list[str]:
    """The kind tags `text` asks about, in a fixed order; [] for a question that asks by no kind."""
    tail = text[-_MAX_SCAN_CHARS:]
    return [tag for pattern, tag in _ASKS if pattern.search(tail)]


def about_named(memories: Sequence[Memory], text: str, viewer_id: str | None) -> list[Memory]:
    """The memories about someone `text` names: their first subject (the person the extractor wrote
    them about) is a word of the text, or they are the viewer's own and the text says "I" or "my"."""
    words = {word.casefold().removesuffix("'s") for word in _WORD.findall(text[-_MAX_SCAN_CHARS:])}
    itself = viewer_id is not None and _SELF.search(text) is not None
    return [
        m for m in memories if (m.subjects and m.subjects[0] in words) or (itself and m.user_id == viewer_id)
    ]
