"""What a message shows rather than says: code, quoted lines and struck-through words are not the
speaker's statements."""

from __future__ import annotations

import re

__all__ = ["without_shown"]

# A fenced block first (it may hold backticks of its own), then an inline span.
_CODE_BLOCK = re.compile(r"```.*?(?:```|$)", re.DOTALL)
_CODE_SPAN = re.compile(r"`([^`\n]*)`")
# A span that would read as the speaker's own statement once its backticks are gone.
_FIRST_PERSON = re.compile(r"(?i)\b(?:i|i'm|i've|my|me|we|we're|our|je|j'|moi|mon|ma|mes|nous|notre)\b|\bj'")
# Discord and Slack quote a line with "> " (">>> " quotes the rest of the message on Discord).
_QUOTE_REST = re.compile(r"^>>>[ \t]?.*", re.MULTILINE | re.DOTALL)
_QUOTED_LINE = re.compile(r"^>[ \t]?.*$", re.MULTILINE)
# Markdown's strikethrough ("~~I'm vegan~~ I'm vegetarian now"): words taken back as they are shown.
_STRUCK = re.compile(r"~~[^~\n]+~~")


def without_shown(text: str) -> str:
    """`text` with its code blocks, first-person code spans ("`my name is Bob` is the placeholder"),
    quoted lines ("> I live in Paris") and struck-through words ("~~I'm vegan~~") blanked: someone's
    words shown, or the speaker's taken back, not the speaker telling who they are. Each becomes a
    space, so the words around it stay apart; a span naming a thing ("not `Lyon`") keeps its words."""
    if "`" not in text and ">" not in text and "~~" not in text:
        return text
    text = _STRUCK.sub(" ", text)
    text = _CODE_BLOCK.sub(" ", text)
    # "not `Lyon`" still names Lyon; "`my name is Bob`" is a template's words, not the speaker's.
    text = _CODE_SPAN.sub(lambda m: " " if _FIRST_PERSON.search(m.group(1)) else m.group(1), text)
    for pattern in (_QUOTE_REST, _QUOTED_LINE):
        text = pattern.sub(" ", text)
    return text
