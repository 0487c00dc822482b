"""Rules for where the speaker lives, lived and comes from, in English."""

from __future__ import annotations

import re

from ..facts import Predicate
from ..lexicons import APPS, MONTHS_EN, TOOLS, WEEKDAYS_EN
from ..normalize import regex
from ..phrases import up_to_the_next_clause
from .base import OBJECT, Hit, Item, Rule
from .home_and_work import (
    NOT_A_HOME,
    NOT_A_WORKPLACE,
    identity_memory,
    place_said,
    verb_and_preposition_en,
)

__all__ = ["HOME_EN", "LIVING_AFTER_EN"]


def _is_from_en(hit: Hit) -> Item | None:
    """ "Mickael is from Montreal" (ORIGIN), "Mickael is based in Lyon" (LOCATION): the fact drops "is"."""
    preposition = hit.words("prep").lower()
    if preposition == "from":
        predicate = Predicate.ORIGIN
        if _NOT_A_HOMETOWN_EN.match(hit.phrase):
            return None  # "I'm from the future": a joke, no place
    else:
        predicate = Predicate.LOCATION
        if NOT_A_HOME.match(hit.phrase):
            return None  # "I'm living in the moment"
    # "originally from Pune" says where they no longer live: kept
    originally = (
        "originally " if preposition == "from" and (hit.match.groupdict().get("originally") or "") else ""
    )
    said = f"{originally}{preposition} {hit.third(hit.phrase)}"
    return identity_memory(hit, f"{hit.speaker} is {said}", predicate, said)


_AN_ARTICLE = regex(r"^(?:a|an|the)\s")
_A_NAME = re.compile(r"\s[A-Z]")


def _home_country_en(hit: Hit) -> Item | None:
    """ "my home country, Sweden", "my hometown is Lyon": "Mickael is from Sweden" (ORIGIN)."""
    # A place is named: "Sweden", "a small village in Ohio"; not "amazing", "in a crisis", or
    # "my home country, which I miss".
    phrase = up_to_the_next_clause(hit.phrase)
    if not (
        phrase[:1].isupper()
        or (_AN_ARTICLE.match(phrase) and not hit.group("comma") and _A_NAME.search(phrase))
    ):
        return None
    said = f"from {hit.third(phrase)}"
    return identity_memory(hit, f"{hit.speaker} is {said}", Predicate.ORIGIN, said)


def _preposition_alone_en(hit: Hit) -> Item | None:
    """ "Mickael was born in Lyon", "Mickael grew up near Lyon": the words said are the verb."""
    if _NOT_A_BIRTHPLACE.match(hit.phrase) or _ONLY_A_DATE.fullmatch(hit.phrase):
        return None  # "I was born in the wrong decade", "born in the 90s", "born on 3 May": when, not where
    return identity_memory(
        hit, f"{hit.speaker} {hit.words('prep').lower()} {hit.third(hit.phrase)}", Predicate.ORIGIN
    )


def _born_when_en(hit: Hit) -> Item:
    """ "Mickael was born in 1990": who the speaker is, by the year they were born."""
    when = f"{(hit.group('on') or '').lower()}{hit.group('when')}"
    return identity_memory(hit, f"{hit.speaker} was born {when}", Predicate.ABOUT)


# Where no one comes from: "I'm from the future", "I'm from another planet", "I'm from the 90s".
_NOT_A_HOMETOWN_EN = regex(
    r"(?:the\s+(?:future|past|internet|moon|void|matrix|\d0s|'\d0s|nineties|eighties|seventies|sixties)|"
    r"another\s+(?:planet|dimension|world|universe|timeline|era|time|century)|a\s+(?:different|simpler|"
    r"parallel)\s+(?:time|era|world|universe|dimension)|outer\s+space|space|mars|hell|heaven|\d0s|'\d0s)\b"
)
_ONLY_A_DATE = regex(r"\s*\x00\d+\x00\s*")
# Times, not places, after "born in" / "grew up in".
_NOT_A_BIRTHPLACE = regex(
    r"(?:\d|the\s+(?:wrong|right|same|early|late|mid|\d|nineties|eighties|seventies|sixties|year|\w+\s+century)|"
    r"a\s+(?:different|simpler)\s+(?:time|era|age|world))"
)
_HAS_LIVED = (
    r"\bi(?:'ve|\s+have)\s+(?:been\s+living|lived)\s+(?P<prep>in|near)\s+"
    r"(?=[^.!?;]*(?:\b(?:since|for|(?:my|our)\s+(?:whole|entire)\s+li(?:fe|ves)|all\s+(?:my|our)\s+li(?:fe|ves))\b|\x00))"
)
_LIVES = r"\bi\s+(?:currently\s+|now\s+|still\s+)?live\s+(?P<prep>in|at|near|with|outside|close\s+to)\s+"

# Where one lives, said after a comma of a sentence about oneself: "I'm a UX designer from Toronto,
# currently living in Berlin".
_LIVING_AFTER_EN = (
    r"\bi(?:'m|\s+am)\b[^.!?;]*?,\s*(?:and\s+)?(?:currently\s+|now\s+)?(?:living|based)\s+in\s+"
)


def _living_after_en(hit: Hit) -> Item:
    """ "Mia lives in Berlin"."""
    return identity_memory(hit, f"{hit.speaker} lives in {hit.third(hit.phrase)}", Predicate.LOCATION)


# "I moved to Berlin", "we finally relocated to the UK": where the speaker lives now, beside the
# dated news, as in French. Only a named place: one moves to a new team, a bigger flat, or Postgres.
_MOVED_EN = (
    r"\b(?:i|we)(?:'ve|\s+have)?\s+(?:just\s+|finally\s+|recently\s+|officially\s+|also\s+|then\s+|later\s+|eventually\s+)?"
    r"(?:moved|relocated)\s+(?:back\s+|over\s+)?(?P<prep>to)\s+"
)
_NAMED_PLACE = regex(r"^(?:the\s+)?(?-i:[A-Z][\w'-]*)(?:\s+(?-i:[A-Z][\w'-]*)){0,2}$")
_NOT_A_HOME_EN = frozenset(w.casefold() for w in (*WEEKDAYS_EN, *MONTHS_EN, "I"))


def _used_to_en(hit: Hit) -> Item | None:
    """ "Mickael used to live in Paris", "Mickael used to work at Google": where they were (a fact
    of who they are, never their home or workplace now); not "I used to work at night"."""
    verb = hit.words("verb").lower()
    place = place_said(hit)
    if not place or (NOT_A_WORKPLACE if verb == "work" else NOT_A_HOME).match(place):
        return None
    preposition = hit.words("prep").lower()
    return identity_memory(
        hit, f"{hit.speaker} used to {verb} {preposition} {hit.third(place)}", Predicate.ABOUT
    )


def _moved_en(hit: Hit) -> Item | None:
    """ "Mickael lives in Berlin", from the news of the move (the event rule keeps the news, dated)."""
    phrase = place_said(hit)
    if not _NAMED_PLACE.match(phrase):
        return None  # "to a new team", "to the countryside with my kids": no named place
    words = {w.casefold() for w in phrase.split()} - {"the"}
    if words & (APPS | TOOLS | _NOT_A_HOME_EN):
        return None  # "we moved to Slack", "I moved to Rust": a tool, not a home
    return identity_memory(hit, f"{hit.speaker} lives in {hit.third(phrase)}", Predicate.LOCATION)


# Home wordings, in the order identity.py's English `OneOf` tries them (after work's).
HOME_EN: tuple[Rule, ...] = (
    Rule(regex(_LIVES + OBJECT), verb_and_preposition_en("lives", Predicate.LOCATION), french=False),
    # "I used to live in Paris", "I used to work at Google": where they were, never where they are.
    Rule(
        regex(r"\bi\s+used\s+to\s+(?P<verb>live|work)\s+(?P<prep>in|near|at|for)\s+" + OBJECT),
        _used_to_en,
        french=False,
    ),
    # "I lived in Madrid until 2019", "I lived in Seoul for two years": where they were, as above.
    Rule(
        regex(r"\bi\s+lived\s+(?P<prep>in|near)\s+" + OBJECT),
        verb_and_preposition_en("lived", Predicate.ABOUT),
        french=False,
    ),
    Rule(regex(_MOVED_EN + OBJECT), _moved_en, french=False),
    # "I've lived in Berlin since 2019" (a date, or "for"), not "I've lived in Paris and Rome".
    Rule(
        regex(_HAS_LIVED + OBJECT),
        verb_and_preposition_en("has lived", Predicate.LOCATION),
        french=False,
    ),
    Rule(
        regex(
            r"\bi(?:'m|\s+am)\s+(?P<originally>originally\s+)?(?P<prep>from|based\s+in|located\s+in|living\s+in)\s+"
            + OBJECT
        ),
        _is_from_en,
        french=False,
    ),
    Rule(
        regex(
            r"\bmy\s+(?:home\s+country|hometown|home\s+town|homeland|native\s+country|country\s+of\s+origin)"
            r"(?:\s+is|(?P<comma>\s*,))\s+" + OBJECT
        ),
        _home_country_en,
        french=False,
    ),
    Rule(
        # "I was born in 1990 in Naples": the date said first (a date's placeholder) goes with the place
        regex(
            r"\bi\s+(?P<prep>was\s+born\s+(?P<when>\x00\d+\x00\s+)?(?:in|at|on)|grew\s+up\s+(?:in|at|near|on))\s+"
            + OBJECT
        ),
        _preposition_alone_en,
        french=False,
    ),
    # "I was born in 1990", "I was born on 3 May 1991": when, which says the age
    Rule(
        regex(r"\bi\s+was\s+born\s+(?P<on>(?:on|in)\s+)?(?P<when>\x00\d+\x00)\s*(?:$|[,.!;])"),
        _born_when_en,
        french=False,
        object_groups=(),
    ),
)

# Tried beside the wordings above, not among them: "I'm a UX designer from Toronto, currently living in
# Berlin" says the job and the home in one sentence.
LIVING_AFTER_EN = Rule(regex(_LIVING_AFTER_EN + OBJECT), _living_after_en, french=False, max_words=6)
