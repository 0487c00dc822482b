"""Kind memories' text ("Ana's pets include a dog: Ana adopted a dog"): written by the rules, read
back so that the pre-hook can show a kind's other instances on the line of the one it recalled."""

from __future__ import annotations

from dataclasses import dataclass

from .normalize import regex
from .phrases import without_the_listener
from .rewrite import named_as_given

__all__ = ["KindNote", "kind_note", "read_kind_note"]

# "<whose> <kind> include <thing>: <clause>" / "<kind> de <whom> incluent <thing> : <clause>".
# A title in quotes may hold a colon ("Star Wars: A New Hope").
_NOTE = regex(
    r"^(?P<kind>.{2,80}?\s(?:include|incluent))\s"
    r"(?P<thing>\"[^\"]{1,80}\"|“[^”]{1,80}”|«[^»]{1,80}»|[^:]{1,80}?)(?:\s?:\s|$)"
)


@dataclass(frozen=True, slots=True)
class KindNote:
    """What a kind memory is of ("Ana's pets include") and the instance it records ("a dog")."""

    kind: str
    thing: str


def kind_note(speaker: str, head: str, said: str, french: bool = False) -> str:
    """A kind memory: `head` ("Ana's pets include a dog") and the clause that said it, without what
    it says to the listener ("..., you'd love him"); the head alone when the clause is all said to
    the listener ("Ana went hiking with you")."""
    said = without_the_listener(said, speaker)
    if not said:
        return head
    # The clause's capital is a sentence's, not the name's: "root's pets include a dog: root adopted
    # a dog", as the head and every other note of "root" say it.
    said = named_as_given(said, speaker)
    return f"{head} : {said}" if french else f"{head}: {said}"


def read_kind_note(content: str) -> KindNote | None:
    """The kind and the instance of a memory written by `kind_note`; None for any other text."""
    match = _NOTE.match(content)
    if match is None:
        return None
    return KindNote(" ".join(match.group("kind").split()), match.group("thing").strip())
