"""Rules for who does what at work, said of someone named: "Maria owns the migration", "agreed, Ken does
the rollback plan"."""

from __future__ import annotations

import re

from memory.models import MemoryType

from ..facts import Predicate
from ..lexicons import APPS, KIN_AS_NAME_EN, TOOLS
from ..normalize import regex
from ..phrases import is_a_persons_name
from .base import Hit, Item, Rule

__all__ = ["ASSIGNMENTS", "tells_who_does_what"]

# Said of someone else, and the talk may not be over.
_CONFIDENCE = 0.65

_NAME = r"(?-i:[A-ZÀ-Ý][a-zà-ÿ'-]+(?:\s+[A-ZÀ-Ý][a-zà-ÿ'-]+)?)"
# The work one takes on, wherever it is said: "owns the migration", "will handle the rollback".
_TAKES_ON = (
    r"(?:owns|(?:will|'ll)\s+own|is\s+owning|handles|(?:will|'ll)\s+handle|is\s+handling|(?:will|'ll)\s+drive|"
    r"is\s+driving|(?:will|'ll)\s+lead|is\s+leading|is\s+(?:in\s+charge\s+of|responsible\s+for)|"
    r"(?:will|'ll)\s+(?:take\s+over|pick\s+up)|is\s+(?:taking\s+over|picking\s+up))"
)
# What one does, only once the talk says it is settled ("agreed, Ken does the rollback plan"; "Ken
# does the dishes" alone is a habit).
_DOES = r"(?:does|(?:will|'ll)\s+(?:do|take)|is\s+(?:doing|taking))"
_SETTLED = r"(?:agreed|plan|final\s+plan|sounds\s+good|perfect|done|deal)\s*[,:!.-]?\s+"
_LEAD = r"(?:(?:ok|okay|so|and|also|then|great|cool|alright)\s*[,:!]?\s+)*"
# The work, up to the next one given in the same breath ("the migration and Ken does the rollback").
_WORK = (
    r"(?P<object>(?:the|our)\s+[^,;.!?]+?)"
    rf"(?=\s+and\s+{_NAME}\s+(?:{_TAKES_ON}|{_DOES})\s|\s*[,;.!?]|\s*$)"
)
_ASSIGNED_EN = regex(rf"^\W*{_LEAD}(?:{_SETTLED})?(?P<name>{_NAME})\s+(?P<verb>{_TAKES_ON})\s+{_WORK}")
_ASSIGNED_WHEN_SETTLED_EN = regex(rf"^\W*{_LEAD}{_SETTLED}(?P<name>{_NAME})\s+(?P<verb>{_DOES})\s+{_WORK}")
# The next one given in the same breath: "... and Ken does the rollback plan".
_AND_NEXT = regex(rf"\s+and\s+(?P<name>{_NAME})\s+(?P<verb>{_TAKES_ON}|{_DOES})\s+{_WORK}")
# Who stands in for the speaker: "Jonas is covering for me while I'm out", "Ana will cover for us on Friday".
_COVERS_EN = regex(
    rf"^\W*{_LEAD}(?P<name>{_NAME})\s+(?P<verb>is\s+covering|(?:will|'ll)\s+cover|covers)\s+for\s+(?P<whom>me|us)"
    r"(?P<object>[^,;.!?]*)"
)
_WILL = re.compile(r"'ll\s+")
# Companies and products own and lead things too: "Apple owns the patent", "Google is leading the market".
_NO_ONE = (
    APPS | TOOLS | frozenset("apple microsoft amazon meta openai nvidia tesla disney ibm oracle".split())
)
_OUR = re.compile(r"^our\s+", re.IGNORECASE)


def tells_who_does_what(text: str) -> bool:
    """Whether a clause may say who does what (it needs no word of the speaker's to be read)."""
    rules = (_ASSIGNED_EN, _ASSIGNED_WHEN_SETTLED_EN, _COVERS_EN)
    return any(rule.search(text) is not None for rule in rules)


def _someone(name: str, speaker: str) -> bool:
    """Whether `name` names a person other than the speaker ("If Maria", "Mom" and "Apple" do not)."""
    return (
        name.casefold() != speaker.casefold()
        and name.casefold() not in KIN_AS_NAME_EN
        and name.casefold() not in _NO_ONE
        and is_a_persons_name(name)
    )


def _assigned(hit: Hit) -> list[Item]:
    """ "Maria owns the migration", "Ken will do the rollback plan": one note per person named."""
    items: list[Item] = []
    found: re.Match[str] | None = hit.match
    while found is not None:
        name = found.group("name")
        if _someone(name, hit.speaker):
            verb = _WILL.sub("will ", " ".join(found.group("verb").split()))
            # "our migration" is the team's, not the one named's ("their" would say theirs)
            work = _OUR.sub("the team's ", " ".join(found.group("object").split()))
            items.append(
                Item(
                    f"{name} {verb} {work}",
                    MemoryType.DECISION,
                    hit.confidence(_CONFIDENCE),
                    [work],
                    [name],
                    predicate=Predicate.DECIDED,
                    object=f"{verb} {work}",
                    subject=name,
                )
            )
        found = _AND_NEXT.match(hit.clause.text, found.end())
    return items


def _covers(hit: Hit) -> Item | None:
    """ "Jonas is covering for Mickael while Mickael is out": who stands in for the speaker (or the team)."""
    name = hit.group("name")
    if not _someone(name, hit.speaker):
        return None
    verb = _WILL.sub("will ", " ".join(hit.group("verb").split()))
    whom = hit.speaker if hit.group("whom").lower() == "me" else f"{hit.speaker} and others"
    when = " ".join(hit.third(hit.group("object")).split())
    said = f"{verb} for {whom}" + (f" {when}" if when else "")
    return Item(
        f"{name} {said}",
        MemoryType.DECISION,
        hit.confidence(_CONFIDENCE),
        [whom],
        [name],
        predicate=Predicate.DECIDED,
        object=said,
        subject=name,
    )


ASSIGNMENTS = (
    Rule(_ASSIGNED_EN, _assigned, french=False, check_object=False),
    Rule(_ASSIGNED_WHEN_SETTLED_EN, _assigned, french=False, check_object=False),
    Rule(_COVERS_EN, _covers, french=False, check_object=False),
)
