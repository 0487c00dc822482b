"""Rules for who the speaker is: name, nickname, nationality, job, workplace, home, origin, age, languages."""

from __future__ import annotations

from collections.abc import Callable

from memory.models import MemoryType

from ..lexicons import LANGUAGES, NATIONALITIES, is_occupation_en, is_occupation_fr
from ..normalize import regex
from ..phrases import NAME_CAPTURE, first_word, is_negated_call, name_from_phrase, noun_phrase
from ..rewrite import possessive_en
from .base import OBJECT, Hit, Item, OneOf, Rule

__all__ = ["IDENTITY", "NAMES"]

_NAME_CONFIDENCE = 0.8
_IDENTITY_CONFIDENCE = 0.75
_MIN_AGE, _MAX_AGE = 3, 120

# --------------------------------------------------------------------------- names

_NAME_EN = regex(
    r"\b(?:(?P<strong>my\s+(?:first\s+|full\s+|real\s+|last\s+)?name(?:'s|\s+is))"
    r"|(?P<call>(?:you\s+can\s+|please\s+|just\s+|people\s+|everyone\s+|everybody\s+|friends\s+)?call\s+me)"
    r"|(?P<im>i(?:'m|\s+am)))\s+" + NAME_CAPTURE
)
_NAME_FR = regex(
    r"\b(?:(?P<strong>je\s+m'appelle|mon\s+(?:nom|prénom|petit\s+nom)\s+(?:est|c'est))"
    r"|(?P<call>on\s+m'appelle|appelle[- ]moi|appelez[- ]moi|tu\s+peux\s+m'appeler|vous\s+pouvez\s+m'appeler)"
    r"|(?P<im>je\s+suis|moi,?\s+c'est))\s+" + NAME_CAPTURE
)


def _name(hit: Hit) -> Item | None:
    """ "my name is X" (strong: the first word may be lowercase), "call me X", "I'm X" / "I'm French"."""
    speaker, phrase = hit.speaker, hit.group("name")
    if hit.group("call") and is_negated_call(hit.clause.text[: hit.match.start()]):
        return None
    if hit.group("im") and first_word(phrase) in NATIONALITIES:
        nationality = phrase.split()[0].strip(",.!")
        if hit.french:
            content = f"{speaker} est {nationality.lower()}"
        else:
            content = f"{speaker} is {nationality[:1].upper()}{nationality[1:]}"
        return Item(content, MemoryType.IDENTITY, hit.confidence(_IDENTITY_CONFIDENCE), [nationality])
    name = name_from_phrase(phrase, strict=not hit.group("strong"))
    if not name or name.casefold() == speaker.casefold():
        # The speaker's display name already says it: "Mickael's name is Mickael" teaches nothing.
        return None
    confidence = hit.confidence(_NAME_CONFIDENCE)
    if hit.group("call"):
        content = (
            f"{speaker} veut qu'on l'appelle {name}" if hit.french else f"{speaker} wants to be called {name}"
        )
        return Item(content, MemoryType.IDENTITY, confidence, [], [name])
    content = f"{speaker} s'appelle {name}" if hit.french else f"{possessive_en(speaker)} name is {name}"
    return Item(content, MemoryType.IDENTITY, confidence, [], [name], given_name=name)


NAMES = (
    Rule(_NAME_EN, _name, french=False, object_groups=()),
    Rule(_NAME_FR, _name, french=True, object_groups=()),
)

# --------------------------------------------------------------------------- English


def _said(hit: Hit, content: str) -> Item:
    return Item(content, MemoryType.IDENTITY, hit.confidence(_IDENTITY_CONFIDENCE), [hit.phrase])


def _age(hit: Hit) -> Item | None:
    age = int(hit.group("age"))
    if not _MIN_AGE <= age <= _MAX_AGE:
        return None
    content = f"{hit.speaker} a {age} ans" if hit.french else f"{hit.speaker} is {age} years old"
    return Item(content, MemoryType.IDENTITY, hit.confidence(_IDENTITY_CONFIDENCE), [])


def _occupation_en(hit: Hit) -> Item | None:
    if not is_occupation_en(hit.phrase):
        return None
    return _said(hit, f"{hit.speaker} is {hit.group('art').lower()} {hit.third(hit.phrase)}")


def _works_as_en(hit: Hit) -> Item:
    article = hit.group("art").strip().lower()
    return _said(hit, f"{hit.speaker} works as {article + ' ' if article else ''}{hit.third(hit.phrase)}")


def _speaks(hit: Hit) -> Item | None:
    if first_word(hit.phrase) not in LANGUAGES:
        return None
    verb = "parle" if hit.french else "speaks"
    return _said(hit, f"{hit.speaker} {verb} {hit.third(hit.phrase)}")


def _verb_and_preposition_en(verb: str) -> Callable[[Hit], Item]:
    """ "<speaker> <verb> <preposition as said> <object>": "Mickael lives in Lyon"."""

    def make(hit: Hit) -> Item:
        preposition = hit.words("prep").lower()
        return _said(hit, f"{hit.speaker} {verb} {preposition} {hit.third(hit.phrase)}")

    return make


def _preposition_alone_en(hit: Hit) -> Item:
    """ "Mickael was born in Lyon", "Mickael grew up near Lyon": the words said are the verb."""
    return _said(hit, f"{hit.speaker} {hit.words('prep').lower()} {hit.third(hit.phrase)}")


def _studies_en(hit: Hit) -> Item:
    verb = "studied" if hit.words("prep").lower() == "studied" else "studies"
    return _said(hit, f"{hit.speaker} {verb} {hit.third(hit.phrase)}")


_AGE_EN_END = r"(?:\s*(?:years?\s+old|yo|y/o|yrs?\s+old))?\s*$"
_AGE_EN_SAID = r"\s*(?:years?\s+old|yo|y/o|yrs?\s+old)\b"
_LIVES = r"\bi\s+(?:currently\s+|now\s+|still\s+)?live\s+(?P<prep>in|at|near|with|outside|close\s+to)\s+"

# The first English wording that yields a memory wins.
_IDENTITY_EN = OneOf(
    (
        Rule(
            regex(r"\bi(?:'m|\s+am)\s+(?:now\s+|currently\s+|also\s+|actually\s+)?(?P<art>an?)\s+" + OBJECT),
            _occupation_en,
            french=False,
            max_words=12,
        ),
        Rule(
            regex(
                r"\bi\s+(?:currently\s+|now\s+|also\s+)?work(?:ed)?\s+as\s+(?P<art>an?\s+|the\s+)?" + OBJECT
            ),
            _works_as_en,
            french=False,
            max_words=12,
        ),
        Rule(
            regex(
                r"\bi\s+(?:currently\s+|now\s+|also\s+)?work\s+(?P<prep>at|for|in|on|with|from)\s+" + OBJECT
            ),
            _verb_and_preposition_en("works"),
            french=False,
        ),
        Rule(regex(_LIVES + OBJECT), _verb_and_preposition_en("lives"), french=False),
        Rule(
            regex(
                r"\bi(?:'m|\s+am)\s+(?:originally\s+)?(?P<prep>from|based\s+in|located\s+in|living\s+in)\s+"
                + OBJECT
            ),
            _verb_and_preposition_en("is"),
            french=False,
        ),
        Rule(
            regex(r"\bi\s+(?P<prep>was\s+born\s+(?:in|at|on)|grew\s+up\s+(?:in|at|near|on))\s+" + OBJECT),
            _preposition_alone_en,
            french=False,
        ),
        Rule(regex(r"\bi\s+(?:currently\s+)?(?P<prep>study|studied)\s+" + OBJECT), _studies_en, french=False),
        Rule(
            regex(r"\bi(?:'m|\s+am)\s+(?P<prep>studying)\s+" + OBJECT),
            _verb_and_preposition_en("is"),
            french=False,
        ),
        Rule(
            regex(r"\bi\s+(?:also\s+)?(?P<prep>speak)\s+" + OBJECT),
            _speaks,
            french=False,
            max_words=12,
            lists=True,
        ),
        Rule(
            regex(r"\bi(?:'m|\s+am)\s+(?P<age>\d{1,3})" + _AGE_EN_END), _age, french=False, object_groups=()
        ),
        Rule(
            regex(r"\bi(?:'m|\s+am)\s+(?P<age>\d{1,3})" + _AGE_EN_SAID), _age, french=False, object_groups=()
        ),
    )
)

# --------------------------------------------------------------------------- French


def _occupation_fr(hit: Hit) -> Item | None:
    words = hit.phrase.split()
    if not words or not is_occupation_fr(words[0]) or first_word(hit.phrase) == "fan":
        return None
    phrase = noun_phrase(hit.phrase, 8)
    body = hit.third(phrase)
    article = f"{hit.group('art').lower()} " if hit.group("art") else ""
    if words[0].lower() in NATIONALITIES and not article:
        body = body[:1].lower() + body[1:]  # "Mickael est française", as French writes nationalities
    content = f"{hit.speaker} est {article}{body}"
    return Item(content, MemoryType.IDENTITY, hit.confidence(_IDENTITY_CONFIDENCE), [phrase])


def _studies_fr(hit: Hit) -> Item:
    return _said(hit, f"{hit.speaker} étudie {hit.third(hit.phrase)}")


def _verb_and_preposition_fr(verb: str) -> Callable[[Hit], Item | None]:
    """ "<speaker> <verb> <preposition as said><object>": "Mickael habite à Paris", "vient d'Italie"."""

    def make(hit: Hit) -> Item | None:
        preposition = hit.words("prep")
        if verb == "habite" and not preposition and not hit.phrase[:1].isupper():
            return None  # "j'habite loin" says no place
        glue = "" if preposition.endswith("'") else " "
        phrase = f"{verb} {preposition}{glue}" if preposition else f"{verb} "
        return _said(hit, f"{hit.speaker} {phrase}{hit.third(hit.phrase)}")

    return make


_IN_PLACE_FR = r"(?:à|a|en|au|aux)\s+"

_IDENTITY_FR = OneOf(
    (
        Rule(
            regex(
                r"\bje\s+(?:suis|travaille)\s+(?P<prep>originaire\s+d(?:e\s+|')|basée?\s+"
                + _IN_PLACE_FR
                + r"|"
                r"installée?\s+" + _IN_PLACE_FR + r"|née?\s+(?:à|a|en|au|aux|le|dans)\s+)" + OBJECT
            ),
            _verb_and_preposition_fr("est"),
            french=True,
        ),
        Rule(regex(r"\bje\s+suis\s+(?:(?P<art>un|une)\s+)?" + OBJECT), _occupation_fr, french=True),
        Rule(
            regex(
                r"\bje\s+travaille\s+(?P<prep>comme|en\s+tant\s+que|chez|à|a|au|pour|dans|sur)\s+" + OBJECT
            ),
            _verb_and_preposition_fr("travaille"),
            french=True,
        ),
        Rule(
            regex(r"\bj'habite\s+(?P<prep>à|a|au|aux|en|dans|près\s+de|chez|sur)?\s*" + OBJECT),
            _verb_and_preposition_fr("habite"),
            french=True,
        ),
        Rule(
            regex(r"\bje\s+vis\s+(?P<prep>à|a|au|aux|en|dans|avec|près\s+de|chez)\s+" + OBJECT),
            _verb_and_preposition_fr("vit"),
            french=True,
        ),
        Rule(
            regex(r"\bje\s+viens\s+(?P<prep>de|d'|du|des)\s*(?P<x>[A-ZÀ-Ý].*)"),
            _verb_and_preposition_fr("vient"),
            french=True,
        ),
        Rule(regex(r"\bj'ai\s+(?P<age>\d{1,3})\s+ans\b"), _age, french=True, object_groups=()),
        Rule(regex(r"\bj'(?P<prep>étudie)\s+" + OBJECT), _studies_fr, french=True),
        Rule(
            regex(
                r"\bje\s+(?:fais|suis)\s+(?P<prep>des\s+études\s+(?:de|d'|en)|en\s+(?:licence|master|thèse|"
                r"doctorat|prépa|bts|but|dut)\s+(?:de|d'|en)?)\s*" + OBJECT
            ),
            _verb_and_preposition_fr("fait"),
            french=True,
        ),
        Rule(regex(r"\bje\s+(?:parle)\s+" + OBJECT), _speaks, french=True),
    )
)

IDENTITY = (_IDENTITY_EN, _IDENTITY_FR)
