"""Rules for what sets the speaker apart: what they can't do or fear, have never done, their degree;
and what they owe or are owed."""

from __future__ import annotations

import re

from memory.models import MemoryType

from ..dates import DATE_SLOT, PLACEHOLDER, bare_slot
from ..facts import Predicate
from ..normalize import regex
from ..rewrite import capitalize_first
from .base import OBJECT, Hit, Item, Rule

__all__ = ["PERSONAL"]

_CONFIDENCE = 0.7

# "I can't swim", "I don't know how to drive": skills people ask about ("can Rae swim?").
_CANT_EN = regex(
    r"\bi\s+(?:can't|cannot|can\s+not|don't\s+know\s+how\s+to|never\s+learned\s+(?:how\s+)?to)\s+(?P<object>(?:swim|drive|"
    r"cook|dance|sing|ski|skate|surf|ride\s+a\s+(?:bike|horse|motorcycle)|read\s+music|whistle|type|knit|sew)\b[^,;:!?.]*)"
)
# "I'm scared of heights", "I'm terrified of spiders".
_FEAR_EN = regex(
    r"\bi(?:'m|\s+am)\s+(?:really\s+|so\s+|terribly\s+|deathly\s+|a\s+bit\s+|kind\s+of\s+|still\s+)?"
    r"(?P<fear>scared|afraid|terrified|frightened)\s+of\s+" + OBJECT
)
# "I've never been to Europe", "I have never tried sushi".
_NEVER_EN = regex(
    r"\bi(?:'ve|\s+have)\s+never\s+(?P<object>(?:been\s+to|visited|seen|tried|eaten|ridden|flown|driven|watched|read|"
    r"played|left|lived\s+(?:in|abroad|alone))\b[^,;:!?.]*)"
)
# "I have a degree in biology", "I got my master's in economics".
_DEGREE_EN = regex(
    r"\bi\s+(?:have|hold|got|earned|finished|completed)\s+(?:a|an|my)\s+(?P<object>(?:(?:bachelor'?s|master'?s|phd|"
    r"doctorate|associate'?s|law|medical|nursing|engineering|art|business)\s+)?(?:degree|diploma|master'?s|bachelor'?s|"
    r"phd)(?:\s+in\s+[^,;:!?.]+)?)"
)
# "My first job was at a bookstore", "my dream job is to be a vet".
_WHICH_JOB_EN = regex(
    r"\bmy\s+(?P<which>first|first\s+real|old|previous|last|dream|summer|part-time)\s+job\s+(?P<be>was|is|would\s+be)\s+"
    + OBJECT
)
# "I've been sober for two years", "I've been smoke-free since March": a recovery, and how long (the
# time said is a date's placeholder by now).
_SOBER_EN = regex(
    r"\bi(?:'ve|\s+have)\s+(?:now\s+)?been\s+(?P<object>(?:sober|clean|smoke-free|alcohol-free|drug-free|cancer-free|"
    r"in\s+remission|off\s+(?:alcohol|cigarettes|smoking|drugs|the\s+booze))\s+(?:for\b|since\b|\x00|"
    # "sober 100 days today"
    r"\d+\s+(?:days?|weeks?|months?|years?)\b)[^,;:!?]*)"
)
# "I'm 6 months sober today", "I'm two years clean": the same, said with how long first.
_SOBER_FOR_EN = regex(
    r"\bi(?:'m|\s+am)\s+(?:now\s+|officially\s+)?(?P<how_long>(?:\d+|a|one|two|three|four|five|six|seven|eight|"
    r"nine|ten|eleven|twelve)\s+(?:days?|weeks?|months?|years?))\s+(?P<state>sober|clean|smoke-free|alcohol-free|"
    rf"drug-free|cancer-free)\b(?:\s+(?:today|{DATE_SLOT}))?"
)
# "I'm cancer free!", "I'm officially in remission": a recovery told as it stands today.
_RECOVERED_EN = regex(
    r"\bi(?:'m|\s+am)\s+(?:(?:now|officially|finally|still)\s+)*"
    r"(?P<state>cancer[- ]free|in\s+(?:full\s+)?remission|debt[- ]free|smoke[- ]free)\b"
)
# "We've been together for 7 years", "we've been married since 2015": a couple, and how long.
_TOGETHER_EN = regex(
    r"\bwe(?:'ve|\s+have)\s+been\s+(?P<object>(?:together|married|dating|engaged|best\s+friends|friends)\s+"
    r"(?:for\b|since\b|\x00)[^,;:!?]*)"
)
# "I'm a Leo", "I'm a Scorpio btw": a star sign, which people ask about ("what's Ev's sign?").
_STAR_SIGN_EN = regex(
    r"\bi(?:'m|\s+am)\s+(?:a|an)\s+(?P<object>aries|taurus|gemini|cancer|leo|virgo|libra|scorpio|sagittarius|capricorn|"
    r"aquarius|pisces)\b(?!\s+(?:survivor|patient|man|woman|guy|girl|cub|fan)\b)"
)
# "my shoe size is 42", "my ring size is 7": what gifts and orders need.
_SIZE_EN = regex(
    r"\bmy\s+(?P<what>(?:shoe|ring|shirt|t-shirt|dress|jeans|pants|trouser|jacket|coat|hat|glove|bra|waist|collar)\s+"
    r"size)\s+(?:is|'s)\s+(?P<object>(?:an?\s+|uk\s+|us\s+|eu\s+)?[\w./-]{1,8}(?:\s+(?:uk|us|eu|wide|regular|slim))?)\b"
)
# "I'm the oldest of four kids", "I'm an only child".
_BIRTH_ORDER_EN = regex(
    r"\bi(?:'m|\s+am)\s+(?P<object>(?:the\s+)?(?:oldest|eldest|youngest|middle\s+child|second\s+oldest|second\s+youngest)"
    r"(?:\s+of\s+[^,;:!?.]+)?|an\s+only\s+child)"
)


def _fact(hit: Hit, content: str) -> Item:
    """A fact about the speaker, keyed by the phrase the rule read."""
    return Item(content, MemoryType.FACT, hit.confidence(_CONFIDENCE), [hit.phrase])


def _cant(hit: Hit) -> Item:
    """ "Rae can't swim"."""
    return _fact(hit, f"{hit.speaker} can't {hit.third(hit.phrase)}")


def _fear(hit: Hit) -> Item:
    """ "Rae is scared of heights"."""
    said = f"{hit.speaker} is {hit.words('fear').lower()} of {hit.third(hit.phrase)}"
    return Item(
        said, MemoryType.PREFERENCE, hit.confidence(_CONFIDENCE), [hit.phrase], predicate=Predicate.DISLIKES
    )


def _never(hit: Hit) -> Item:
    """ "Rae has never been to Europe"."""
    return _fact(hit, f"{hit.speaker} has never {hit.third(hit.phrase)}")


def _degree(hit: Hit) -> Item:
    """ "Rae has a degree in biology" (what the profile calls studies)."""
    determiner = hit.match.group(0).split()[2].lower()  # "a", "an" or "my"
    # What one has, not when it was got ("I got my master's last year" is also an event).
    degree = " ".join(PLACEHOLDER.sub(" ", hit.phrase).split())
    said = f"has {hit.third(f'{determiner} {degree}')}"
    return Item(
        f"{hit.speaker} {said}",
        MemoryType.IDENTITY,
        hit.confidence(_CONFIDENCE),
        [hit.phrase],
        predicate=Predicate.STUDIES,
        object=said,
    )


def _which_job(hit: Hit) -> Item:
    """ "Rae's first job was at a bookstore"."""
    which = hit.words("which").lower()
    return _fact(hit, f"{hit.speaker}'s {which} job {hit.words('be').lower()} {hit.third(hit.phrase)}")


def _sober(hit: Hit) -> Item:
    """ "Maria has been sober for two years as of today"."""
    return _fact(hit, f"{hit.speaker} has been {hit.third(hit.phrase)}")


def _sober_for(hit: Hit) -> Item:
    """ "Mickael has been sober for 6 months as of Wednesday 25 November 2026"."""
    as_of = f" as of {bare_slot(hit.group('n'))}" if hit.group("n") else ""
    state, how_long = hit.words("state").lower(), hit.words("how_long")
    return _fact(hit, f"{hit.speaker} has been {state} for {how_long}{as_of}")


def _recovered(hit: Hit) -> Item:
    """ "Mickael is cancer-free"."""
    state = re.sub(r"[- ]free$", "-free", " ".join(hit.words("state").lower().split()))
    return _fact(hit, f"{hit.speaker} is {state}")


def _together(hit: Hit) -> Item:
    """ "Leo and others have been together for 7 years (since about 2016)"."""
    return _fact(hit, f"{hit.speaker} and others have been {hit.third(hit.phrase)}")


def _star_sign(hit: Hit) -> Item:
    """ "Ev is a Leo"."""
    sign = hit.phrase.capitalize()
    return _fact(hit, f"{hit.speaker} is {'an' if sign[0] in 'AEIOU' else 'a'} {sign}")


def _size(hit: Hit) -> Item:
    """ "Rae's shoe size is 42" (a size may be a bare number: no object phrase to trim)."""
    what, size = hit.words("what").lower(), hit.words("object")
    return Item(f"{hit.speaker}'s {what} is {size}", MemoryType.FACT, hit.confidence(_CONFIDENCE), [what])


def _birth_order(hit: Hit) -> Item:
    """ "Rae is the oldest of four kids"."""
    return _fact(hit, f"{hit.speaker} is {hit.third(hit.phrase)}")


# What the speaker owes or is owed: "I owe Sam $50 for the concert tickets", "Priya owes me a coffee".
_DEBT = (
    r"(?P<object>(?:[$€£]\s?\d[\d,.]*|\d[\d,.]*\s?(?:[$€£]|dollars|euros|bucks|quid|pounds|eur|usd)|"
    r"(?:a|one|two)\s+(?:beers?|coffees?|drinks?|favou?rs?|lunch|dinner|pizza))\b[^,;:!?.]*)"
)
_I_OWE_EN = regex(
    r"\bi\s+(?:still\s+|now\s+|also\s+)?owe\s+(?P<who>(?-i:[A-Z])[\w'-]+|my\s+(?:[\w'-]+\s+)?[\w'-]+?)\s+"
    + _DEBT
)
_OWES_ME_EN = regex(
    r"(?:^|[,;]\s*)(?P<who>(?-i:[A-Z])[\w'-]+|my\s+(?:[\w'-]+\s+)?[\w'-]+?)\s+(?:still\s+)?owes\s+me\s+"
    + _DEBT
)


def _owes(hit: Hit) -> Item:
    """ "Mickael owes Sam $50 for the concert tickets", "Priya owes Mickael a coffee"."""
    said = hit.clause.text[hit.match.start("who") : hit.match.end()]
    if hit.match.re is _I_OWE_EN:
        said = f"I owe {said}"
    return _fact(hit, capitalize_first(hit.third(said.strip(), named=False)))


PERSONAL = (
    Rule(_CANT_EN, _cant, french=False),
    Rule(_FEAR_EN, _fear, french=False),
    Rule(_NEVER_EN, _never, french=False),
    Rule(_DEGREE_EN, _degree, french=False),
    Rule(_WHICH_JOB_EN, _which_job, french=False),
    Rule(_BIRTH_ORDER_EN, _birth_order, french=False, check_object=False),
    Rule(_SOBER_EN, _sober, french=False),
    Rule(_SOBER_FOR_EN, _sober_for, french=False, object_groups=()),
    Rule(_RECOVERED_EN, _recovered, french=False, object_groups=()),
    Rule(_STAR_SIGN_EN, _star_sign, french=False, check_object=False),
    Rule(_TOGETHER_EN, _together, french=False),
    Rule(_SIZE_EN, _size, french=False, object_groups=()),
    Rule(_I_OWE_EN, _owes, french=False),
    Rule(_OWES_ME_EN, _owes, french=False),
)
