"""A belief the speaker corrects in the same breath, rewritten as what holds: "I thought the deadline
was Friday but it's actually Monday" -> "the deadline is Monday"."""

from __future__ import annotations

import re

from .normalize import regex

__all__ = ["with_beliefs_corrected"]

# What was believed, of a thing named, then what it is: "I thought the deadline was Friday but it's
# actually Monday", "I assumed our flight was at 9, turns out it's at 7".
_CORRECTED_BELIEF_EN = regex(
    r"\bi\s+(?:thought|assumed|figured|believed)\s+(?:that\s+)?"
    r"(?P<what>(?:the|our|my)\s+[\w'’ -]{1,40}?)\s+(?P<be>was|were|is|are)\s+[^,.;!?]{1,40}?,?\s+"
    r"(?:but\s+)?(?:(?:it\s+)?turns\s+out\s+)?(?P<now>it's|it\s+is|they're|they\s+are)\s+"
    r"(?:actually\s+|really\s+|in\s+fact\s+)?(?P<holds>[^,.;!?]+)"
)
_NOW_BE = {"was": "is", "is": "is", "were": "are", "are": "are"}


def _what_holds(match: re.Match[str]) -> str:
    return f"{match.group('what')} {_NOW_BE[match.group('be').lower()]} {match.group('holds')}"


def with_beliefs_corrected(text: str) -> str:
    """`text` with each belief it corrects replaced by what holds, so that only that is learned."""
    return _CORRECTED_BELIEF_EN.sub(_what_holds, text)
