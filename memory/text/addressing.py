"""Whether a message names a person only to speak to them ("Thanks, Alice! I painted this"), not of them."""

from __future__ import annotations

import re

from .normalize import regex

__all__ = ["names_in", "only_addressed"]

# Words a name follows when it is the one spoken to: "thanks Alice", "wow, Alice", "merci Alice".
_GREETINGS = (
    r"hey|hi|hello|thanks|thank\s+you|wow|congrats|congratulations|aw+|oh|yay|omg|sorry|bye|cheers|"
    r"dear|good\s+luck|way\s+to\s+go|salut|coucou|bonjour|merci|bravo|f[ée]licitations"
)


def _word(name: str) -> str:
    return rf"(?<![\w'-]){re.escape(name)}(?![\w-])"


def names_in(text: str, names: set[str]) -> set[str]:
    """The names of `names` that `text` says as words (case folded)."""
    return {name for name in names if name and regex(_word(name)).search(text)}


def only_addressed(name: str, text: str) -> bool | None:
    """True when every time `text` says `name` it speaks to them: opening a sentence before a comma
    or "!" (or as `@name`), after a greeting, or after a comma at a sentence's end ("That's great,
    Alice!").
    False when it says the name otherwise ("I went with Alice"), None when it never says it."""
    word = _word(name)
    said = [m.start() for m in regex(word).finditer(text)]
    if not said:
        return None
    spoken_to: set[int] = set()
    for pattern in (
        rf"(?:^|[.!?]\s+)@?(?P<name>{word})\s*[,!]",
        # Chat's `@name` (how the adapters write a mention) opening a sentence speaks to them.
        rf"(?:^|[.!?]\s+)@(?P<name>{word})",
        rf"\b(?:{_GREETINGS})\s*,?\s+@?(?P<name>{word})",
        rf",\s*@?(?P<name>{word})\s*(?:[!?.]|$)",
    ):
        spoken_to.update(m.start("name") for m in regex(pattern).finditer(text))
    return all(start in spoken_to for start in said)
