"""What the home and work rules of both languages share: the identity item they write, a place as
said, a verb and its preposition, and the words that say no workplace or home."""

from __future__ import annotations

from collections.abc import Callable

from memory.models import MemoryType

from ..dates import PLACEHOLDER
from ..facts import Predicate
from ..normalize import regex
from ..phrases import noun_phrase
from .base import Hit, Item

__all__ = [
    "ANYMORE",
    "IDENTITY_CONFIDENCE",
    "NOT_A_HOME",
    "NOT_A_WORKPLACE",
    "NOT_A_WORKPLACE_FR",
    "THE_FR",
    "TIMES_FR",
    "identity_memory",
    "place_said",
    "verb_and_preposition_en",
]

IDENTITY_CONFIDENCE = 0.75  # shared with identity.py's rules


def identity_memory(hit: Hit, content: str, predicate: Predicate, value: str = "") -> Item:
    """An identity memory about the object phrase; `value` "" reads the fact's object off the content."""
    confidence = hit.confidence(IDENTITY_CONFIDENCE)
    return Item(content, MemoryType.IDENTITY, confidence, [hit.phrase], predicate=predicate, object=value)


_HOME = regex(r"home\b")


def verb_and_preposition_en(verb: str, predicate: Predicate) -> Callable[[Hit], Item | None]:
    """ "<speaker> <verb> <preposition as said> <object>": "Mickael lives in Lyon"; nothing for a
    way of living or a time of work ("I live in fear", "I work at night")."""
    not_said = NOT_A_WORKPLACE if predicate is Predicate.WORKPLACE else NOT_A_HOME

    def make(hit: Hit) -> Item | None:
        if not_said.match(hit.phrase):
            return None
        preposition = hit.words("prep").lower()
        # "the government, can't say more", "Seoul and love it"
        place = _CLAUSE_AFTER_A_PLACE.sub("", _CLAUSE_AFTER_A_COMMA.sub("", hit.phrase))
        said = predicate
        if predicate is Predicate.WORKPLACE and preposition == "from" and _HOME.match(place):
            if PLACEHOLDER.search(place):
                return None  # "I work from home tomorrow": that day's, for the dated event rule
            said = Predicate.ABOUT  # "I work from home on Fridays": how one works, not for whom
        return identity_memory(hit, f"{hit.speaker} {verb} {preposition} {hit.third(place)}", said)

    return make


# What follows a place after a comma and says something else: "I work for the government, can't say
# more", "I work at Google, it's fine", "I live at 42 Baker Street, come by anytime" (not "Portland,
# Oregon").
_CLAUSE_AFTER_A_COMMA = regex(
    r"\s*,\s*(?=(?:it|it's|its|that|that's|this|i|i'm|we|they|he|she|can't|cannot|but|so|and|which|who|lol|"
    r"haha|though|not|no|pretty|kinda|love|hate|"
    # an invitation after it: "I live at 42 Baker Street, come by anytime"
    r"come|feel|drop|swing|hit|ping|dm|message|text|call|visit)\b).*$"
)
# ... or with no comma at all: "I live in Seoul and love it", "when I lived in Paris I learned French".
_CLAUSE_AFTER_A_PLACE = regex(
    r"\s+(?:(?:and\s+)?i\s+(?=[a-z])|and\s+(?=(?:really\s+|totally\s+|absolutely\s+)?(?:love|loved|like|liked|"
    r"hate|hated|enjoy|enjoyed|miss|missed|adore|adored)\b)).*$"
)


# Where a new or past job, or a new home, is said to be ends before why, how long or what came next:
# "at Stripe to be closer to home", "à Lyon pour le travail", "at Acme and started at Google".
_PLACE_ENDS = regex(r"\s+(?:to|for|since|after|when|until|pour|depuis|après|quand|jusqu'|jusque)\b")


def place_said(hit: Hit) -> str:
    """The rule's object as a place: without its dates, up to the end of its noun phrase."""
    phrase = noun_phrase(PLACEHOLDER.sub("", hit.phrase), 8)
    end = _PLACE_ENDS.search(phrase)
    return (phrase[: end.start()] if end else phrase).strip(" ,")


NOT_A_WORKPLACE = regex(
    r"(?:\d|(?:noon|midnight|nights?|dawn|weekends?|my\s+desk)\b|(?:the|this|that|a|one)\s+(?:summer|"
    r"winter|spring|fall|autumn|weekend|week|day|night|morning|afternoon|evening|moment|holidays?|year|month|"
    r"while|bit|few|couple)\b)"
)
# Ways of living, not places: "I live in fear of deadlines", "I'm living in the moment".
NOT_A_HOME = regex(
    r"(?:fear|hope|denial|dread|terror|shame|sin|peace|harmony|luxury|poverty|misery|comfort|constant|"
    r"(?:the|a|my|your)\s+(?:moment|past|present|future|bubble|dream|head|world\s+of|fantasy))\b"
)
# A season or a stretch of time after its article ("l'été", "cette semaine"): when, not where.
THE_FR = r"(?:l'|le\s+|la\s+|les\s+|cet\s+|cette\s+|ce\s+)"
TIMES_FR = r"été|hiver|printemps|automne|week-end|semaine|mois|année|an|moment"
# ... and how one works, not where: "à mi-temps", "à distance".
NOT_A_WORKPLACE_FR = regex(
    rf"(?:\d|midi|minuit|{THE_FR}(?:{TIMES_FR}|matin|soir|vacances)\b|mi-temps|temps\s+(?:partiel|plein)|"
    r"plein\s+temps|distance\b|domicile\b)"
)
ANYMORE = regex(r"\s+(?:anymore|any\s+more)\W*$")
