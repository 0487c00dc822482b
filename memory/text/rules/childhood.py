"""Rules for what the speaker had as a child: "I had a film camera as a kid", "enfant, j'avais un chien"."""

from __future__ import annotations

from memory.models import MemoryType

from ..normalize import regex
from ..phrases import without_what_is_shown
from .base import Hit, Item, Rule

__all__ = ["CHILDHOOD"]

_CONFIDENCE = 0.65

# When it was: "as a kid", "when I was young", "growing up".
_WHEN = (
    r"(?P<when>as\s+a\s+(?:little\s+)?(?:kid|child|boy|girl|teen|teenager)|growing\s+up|in\s+my\s+childhood|"
    r"when\s+i\s+was\s+(?:a\s+)?(?:little\s+)?(?:kid|child|boy|girl|teen|teenager|little|young|younger|small))"
)
_HAD = r"(?:had|used\s+to\s+have|owned)"
# What was had: counted or owned ("a doll", "my first bike", "two hamsters"), to the end of its phrase.
_THING = r"(?:a|an|my|two|three|four|\d+)\s+[^,.;!?]{2,60}?"
# "I had a film camera as a kid"
_HAD_THEN_EN = regex(rf"\bi\s+{_HAD}\s+(?P<object>{_THING})\s+{_WHEN}\b")
# "As a kid, I had two hamsters"
_THEN_HAD_EN = regex(
    rf"\b{_WHEN},?\s+i\s+{_HAD}\s+(?P<object>{_THING})(?=\s*(?:$|[,.;!?]|\s(?:and|but|that|which|who)\b))"
)
# "the film camera I had as a kid"
# (A noun phrase of up to six words, none of them a determiner or a preposition: in "my friend
# about the camera I had", the camera is what was had.)
_THING_I_HAD_EN = regex(
    r"\b(?P<object>(?:the|a|an|my|this)\s+(?:(?!(?:the|a|an|my|this|about|of|to|with|for|in|on|at)\b)"
    rf"[\w'-]+\s+){{0,4}}?[\w'-]+)\s+(?:that\s+)?i\s+{_HAD}\s+{_WHEN}\b"
)


# The same said in a clause of its own first: "As a kid, I had two hamsters", "Quand j'étais
# petite, j'avais un chien", "Enfant, j'avais un vélo"; or after it in French.
_WHEN_SAID_FIRST = regex(
    rf"(?:^|\b){_WHEN}\W*$|(?:^|\b)(?P<when_fr>(?:quand|lorsque)\s+j'étais\s+(?:petite?|enfant|jeune|gamine?|ado)|enfant|"
    r"petite?|dans\s+mon\s+enfance)\W*$"
)
_HAD_AFTER_EN = regex(rf"^\s*i\s+{_HAD}\s+(?P<object>{_THING})\s*$")
_HAD_FR = regex(
    r"^\s*j'avais\s+(?P<object>(?:un|une|des|deux|trois|mon|ma|mes|\d+)\s+[^,.;!?]{2,60}?)"
    r"(?:\s+(?P<when_after>(?:quand|lorsque)\s+j'étais\s+(?:petite?|enfant|jeune|gamine?|ado)|dans\s+mon\s+enfance))?\s*$"
)


def _had_when_said_first(hit: Hit) -> Item | None:
    """ "As a kid, I had two hamsters" -> "Mickael had two hamsters as a kid"; "Quand j'étais petit,
    j'avais un chien" -> "Enfant, Mickael avait un chien"."""
    said_first = _WHEN_SAID_FIRST.search(hit.clause.before)
    if hit.clause.french:
        if not (said_first or hit.group("when_after")):
            return None
        thing = without_what_is_shown(hit.phrase)
        content = f"Enfant, {hit.speaker} avait {hit.third(thing)}"
        return Item(content, MemoryType.FACT, hit.confidence(_CONFIDENCE), [thing])
    if said_first is None or not said_first.group("when"):
        return None
    thing = without_what_is_shown(hit.phrase)
    when = hit.third(" ".join(said_first.group("when").lower().split()))
    content = f"{hit.speaker} had {hit.third(thing)} {when}"
    return Item(content, MemoryType.FACT, hit.confidence(_CONFIDENCE), [thing])


def _had_as_a_child(hit: Hit) -> Item:
    """ "Mickael had a film camera as a kid"."""
    thing = hit.phrase
    if thing.split(" ", 1)[0].lower() in ("the", "this") and " " in thing:
        thing = "a " + thing.split(" ", 1)[1]  # "the film camera I had": which one was said before
    thing = without_what_is_shown(thing)  # "a little doll like this": the doll, not the picture just shown
    when = hit.third(hit.words("when").lower())
    content = f"{hit.speaker} had {hit.third(thing)} {when}"
    return Item(content, MemoryType.FACT, hit.confidence(_CONFIDENCE), [thing])


CHILDHOOD = (
    *(
        Rule(pattern, _had_as_a_child, french=False)
        for pattern in (_HAD_THEN_EN, _THEN_HAD_EN, _THING_I_HAD_EN)
    ),
    Rule(_HAD_AFTER_EN, _had_when_said_first, french=False),
    Rule(_HAD_FR, _had_when_said_first, french=True),
)
