"""Picks the words a memory is about (its subjects), by which it is searched and compared."""

from __future__ import annotations

import re

from .dates import PLACEHOLDER
from .lexicons import STOPWORDS

__all__ = ["pick_subjects", "topic_words"]

MAX_SUBJECTS = 5
_WORD = re.compile(r"[^\W\d_][\w'-]*")
_CLOCK = re.compile(r"^h\d\d$")  # "10h30" leaves "h30" behind
_ELISION = re.compile(r"^(?:l|d|j|qu|n|s|c|m|t)'", re.IGNORECASE)


def pick_subjects(speaker: str, tags: list[str], phrases: list[str]) -> list[str]:
    """Up to five lowercase subjects: the speaker, then `tags` (names), then content words of `phrases`."""
    out: list[str] = []
    seen: set[str] = set()
    speaker_words = {word.lower() for word in _WORD.findall(speaker)}

    def add(tag: str) -> None:
        tag = tag.lower().strip()
        if tag and tag not in seen and len(out) < MAX_SUBJECTS:
            seen.add(tag)
            out.append(tag)

    add(speaker)
    for tag in tags:
        add(tag)
    for phrase in phrases:
        for token in _WORD.findall(PLACEHOLDER.sub(" ", phrase)):
            word = _ELISION.sub("", token).lower().strip("'-")
            if word.endswith("'s"):
                word = word[:-2]
            if len(word) < 2 or word in STOPWORDS or word in speaker_words or _CLOCK.match(word):
                continue
            add(word)
    return out


def topic_words(text: str) -> frozenset[str]:
    """The content words of `text`, casefolded, without elisions, stopwords or one-letter words."""
    # Accents are kept: folded, French "thé" would become the English stopword "the".
    out = set()
    for token in _WORD.findall(text.casefold()):
        word = _ELISION.sub("", token).strip("'-")
        if len(word) > 1 and word not in STOPWORDS:
            out.add(word)
    return frozenset(out)
