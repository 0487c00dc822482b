"""What "this" names under a picture: "I made this! [image: a cake]" says "I made a cake"."""

from __future__ import annotations

import re

from .normalize import regex

__all__ = ["with_what_was_shown"]

# How a message carries what its picture shows: a line of its own, "[image: a dog on the couch]"
# (adapters/attachment_notes.py writes it from the alt text people give their pictures).
_IMAGE_NOTE = re.compile(r"^\[image: (?P<what>[^\]\n]+)\]$", re.MULTILINE)
# A description that says it is a picture says what of ("a photo of a cake" shows a cake).
_PICTURE_OF = regex(r"^(?:(?:a|an|the|my)\s+)?(?:photo|photograph|picture|pic|image|shot|snapshot)\s+of\s+")
_MAX_WORDS = 12
# "I painted this" of "a painting of a sunset" painted a sunset.
_ART_OF = regex(r"^(?:(?:a|an|my)\s+)?(?:painting|drawing|sketch)\s+of\s+")
# "I made this", "we just baked these", "look what I painted": a thing made or got, pointed at.
_VERBS = (
    r"made|baked|cooked|painted|drew|sketched|built|knitted|knit|crocheted|sewed|sewn|carved|crafted|"
    r"designed|whipped\s+up|bought|got|finished|planted|grew|caught|framed"
)
_POINTED_AT = regex(
    rf"(?:\b(?P<who>i|we)\s+|^)(?:(?:just|finally|also|recently|actually)\s+)?(?P<verb>{_VERBS})\s+"
    r"(?P<this>this|these|that)(?=[ \t]*(?:[!.,;:)?\n]|$)|\s+(?:for|myself|ourselves|yesterday|today|"
    r"earlier|recently|last|this\s+(?:morning|week|weekend)|with|at|over|from)\b)"
    rf"|\bwhat\s+(?P<who_what>i|we)\s+(?:(?:just|finally|also|recently)\s+)?(?P<verb_what>{_VERBS})\b"
)


def _what_is_shown(text: str) -> str | None:
    """What the message's one picture shows, as a noun phrase; None for none, several, or a long
    description (a paragraph of alt text is no object of a sentence)."""
    if "[image: " not in text:
        return None  # most messages show no picture
    notes = list(_IMAGE_NOTE.finditer(text))
    if len(notes) != 1:
        return None
    what = _PICTURE_OF.sub("", notes[0].group("what").strip().rstrip(".!…").strip())
    words = what.split()
    if not words or len(words) > _MAX_WORDS or re.search(r"[.!?;:]\s", what):
        return None
    return what


def with_what_was_shown(text: str) -> str:
    """`text` with the first "this" that points at its picture replaced by what the picture shows,
    and the picture's note gone: the rules then read "I made a chocolate cake" as they read it typed.
    Text without one described picture, or saying nothing of it, comes back unchanged."""
    what = _what_is_shown(text)
    if what is None:
        return text
    pointed = _POINTED_AT.search(text)
    if pointed is None:
        return text
    verb = (pointed.group("verb") or pointed.group("verb_what")).lower()
    if verb in ("painted", "drew", "sketched"):
        what = _ART_OF.sub("", what)
    before = text[: pointed.start()]
    if pointed.group("this"):
        said = f"{pointed.group(0)[: pointed.start('this') - pointed.start()]}{what}"
    else:
        # "Look what I made!" -> "Look. I made a chocolate cake!": its own sentence.
        before = before.rstrip() + (". " if before.strip() else "")
        said = f"{pointed.group('who_what')} {pointed.group('verb_what')} {what}"
    told = before + said + text[pointed.end() :]
    return _IMAGE_NOTE.sub("", told).strip()
