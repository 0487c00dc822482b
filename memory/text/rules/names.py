"""Rules for what the speaker is called and how to speak of them: name, nickname, pronouns."""

from __future__ import annotations

import re

from memory.models import MemoryType

from ..facts import Predicate
from ..lexicons import JOB_TITLE_AT_START_EN, NATIONALITIES, NOT_A_NAME_HERE, RANKS_EN
from ..normalize import regex
from ..phrases import NAME_CAPTURE, first_word, is_negated_call, name_from_phrase
from ..rewrite import of_fr, possessive_en
from ..zones import zone_named
from .base import Hit, Item, Rule

__all__ = ["NAMES"]

_NAME_CONFIDENCE = 0.8
# A nationality said with "I'm" ("I'm French") is an identity statement, as sure as the others.
_IDENTITY_CONFIDENCE = 0.75

_NAME_EN = regex(
    r"\b(?:(?P<strong>my\s+(?:first\s+|full\s+|real\s+|last\s+)?name(?:'s|\s+is)|^\W*name(?:'s|\s+is))"
    r"|(?P<call>(?:you\s+can\s+|please\s+|just\s+|people\s+|everyone\s+|everybody\s+|friends\s+)?call\s+me"
    r"|i\s+(?:usually\s+|mostly\s+)?go\s+by)"
    r"|(?P<im>i(?:'m|\s+am)))\s+" + NAME_CAPTURE
)
# "hey all, Mia here", "Raj here, backend dev in Bangalore": a name said as chat introduces itself,
# after a greeting or before who one is ("Same here", "Admin here" alone are no names).
_NAME_HERE_EN = regex(
    r"^\W*(?:(?P<greeting>(?:hi|hey|hello|hiya|heya|yo)(?:\s+(?:all|everyone|everybody|folks|team|y'all))?)\b[\s!,.]*)?"
    r"(?P<strong>)(?P<call>)(?P<im>)"
    r"(?!(?-i:(?:" + "|".join(NOT_A_NAME_HERE) + r"))\b)"
    r"(?-i:(?P<name>[A-ZÀ-Ý][\w'-]+))\s+here\b"
    # after a greeting, or with who they are after a comma: "Raj here, backend dev in Bangalore"
    r"(?(greeting)(?!\s+(?:is|are|was|were|we|to|in|at|for|and|too|yet|now|again|lol)\b)|\s*,\s*(?=\S)(?!(?:it|it's|its|we|we're|they|there|weather)\b)(?:(?:a|an|the)\s+)?[\w-]{2,})"
)
_NAME_FR = regex(
    r"\b(?:(?P<strong>je\s+m'appelle|mon\s+(?:nom|prénom|petit\s+nom)\s+(?:est|c'est))"
    r"|(?P<call>on\s+m'appelle|appelle[- ]moi|appelez[- ]moi|tu\s+peux\s+m'appeler|vous\s+pouvez\s+m'appeler)"
    r"|(?P<im>je\s+suis|moi,?\s+c'est))\s+" + NAME_CAPTURE
)


# "I'm half Japanese", "I'm part Irish": a heritage shared between nationalities.
_PART_NATIONALITY_EN = regex(
    r"\bi(?:'m|\s+am)\s+(?P<part>half|part|a\s+quarter|one\s+quarter)[\s-]+(?P<nationality>[a-z]+)\b"
)
_PART_NATIONALITY_FR = regex(
    r"\bje\s+suis\s+(?P<part>à\s+moitié|en\s+partie|pour\s+moitié)\s+(?P<nationality>[a-zé]+)\b"
)


def _part_nationality(hit: Hit) -> Item | None:
    """ "Mickael is half Japanese"."""
    nationality = hit.group("nationality")
    if nationality.lower() not in NATIONALITIES:
        return None
    if hit.french:
        written = f"{hit.words('part').lower()} {nationality.lower()}"
    else:
        written = f"{hit.words('part').lower()} {nationality[:1].upper()}{nationality[1:].lower()}"
    return Item(
        f"{hit.speaker} {'est' if hit.french else 'is'} {written}",
        MemoryType.IDENTITY,
        hit.confidence(_IDENTITY_CONFIDENCE),
        [nationality],
        # the profile's "about" line, as read from the words ("is half Japanese")
        predicate=Predicate.ABOUT,
    )


# A job title said without its article, as a signature says it ("I'm Senior Engineer at Stripe", "I'm
# CTO at Acme", "I'm VP Sales": no name, lexicons.JOB_TITLE_AT_START_EN), ends where the clause moves
# on; a place or a team after it is part of the job ("at Stripe", "for search").
_TITLE_AND_WHERE_EN = regex(r"^(?P<title>[^,;:!?.]+?)\s*(?:[,;:!?.]|$|\s+(?:and|but|so|btw|lol)\b)")
_WHERE_NEXT_EN = regex(r"\s+(?:at|for|of|on|in)\b")
# "I'm Gold 2": a rank.
_RANK_SAID_EN = regex(rf"(?:{RANKS_EN})\s*\d")


def _surely_a_title(title: re.Match[str], phrase: str) -> bool:
    """A title of more than one word, an acronym ("CTO"), or a word said with where ("Head of
    Design", "Lead at Acme"); "I'm Dev" or "I'm Head" alone may well be a name."""
    words = title.group(0).split()
    return len(words) > 1 or words[0].isupper() or bool(_WHERE_NEXT_EN.match(phrase, title.end()))


# A word written as no name is: an acronym of three or four capitals ("SEO", "NASA"; two may be
# initials: "I'm TJ") or a word with a capital inside ("DevOps", "iOS").
_NOT_A_NAME_SAID = re.compile(r"^[A-Z]{3,4}$|[a-z][A-Z]")
# Who chat says it is as a joke, quoting a film: "I'm Batman", "I'm Groot", "I'm Spartacus", "I'm Iron
# Man" (only after "I'm": "my name is Sherlock" is a name).
_QUOTED_HEROES_EN = frozenset(
    "batman groot spartacus superman spiderman spider-man ironman iron sherlock shrek".split()
)
# Where one is from, as French writes it capitalised after "je suis" ("Parisien", "Bretonne",
# "Lyonnais", "Québécoise", "Marseillaise", "Africain"); a first name of the same ending stays one.
_OF_A_PLACE_FR = re.compile(r"(?:ien|ienne|ais|aise|ois|oise|ain|aine|on|onne)$")
_FIRST_NAMES_OF_THAT_ENDING_FR = frozenset(
    """julien adrien fabien damien sébastien bastien lucien vivien cyprien maximilien gatien aurélien
    fabienne adrienne julienne vivienne lucienne françois françoise gervais alain germain romain lorraine
    germaine romaine simon léon manon marion gaston yvon sharon allison shannon""".split()
)


def _of_a_place_fr(word: str) -> bool:
    return bool(_OF_A_PLACE_FR.search(word.lower())) and word.lower() not in _FIRST_NAMES_OF_THAT_ENDING_FR


def _job_title(hit: Hit) -> Item | None:
    """ "Mickael is Senior Engineer at Stripe": a title said without its article, as a signature."""
    rest = hit.clause.text[hit.match.start("name") :]
    said = _TITLE_AND_WHERE_EN.match(rest)
    if said is None:
        return None
    title = " ".join(said.group("title").split())
    content = f"{hit.speaker} {'est' if hit.french else 'is'} {title}"
    return Item(
        content,
        MemoryType.IDENTITY,
        hit.confidence(_IDENTITY_CONFIDENCE),
        [title],
        predicate=Predicate.JOB,
        object=title,
    )


def _name(hit: Hit) -> Item | None:
    """ "my name is X" (strong: the first word may be lowercase), "call me X", "I'm X" / "I'm French"."""
    speaker, phrase = hit.speaker, hit.group("name")
    if hit.group("call") and is_negated_call(hit.clause.text[: hit.match.start()]):
        return None
    if hit.group("im") and first_word(phrase) in NATIONALITIES:
        nationality = phrase.split()[0].strip(",.!")
        if hit.french:
            written = nationality.lower()
            content = f"{speaker} est {written}"
        else:
            written = f"{nationality[:1].upper()}{nationality[1:]}"
            content = f"{speaker} is {written}"
        confidence = hit.confidence(_IDENTITY_CONFIDENCE)
        return Item(
            content,
            MemoryType.IDENTITY,
            confidence,
            [nationality],
            predicate=Predicate.ABOUT,
        )
    said = phrase.split(maxsplit=1)[0] if phrase.split() else ""
    if hit.group("im") and said.isupper() and zone_named(said) is not None:
        return None  # "I'm GMT+1 btw": a time zone written as one (identity.py), no name; "I'm Art" is
    if hit.group("im") and _RANK_SAID_EN.match(hit.clause.text, hit.match.start("name")):
        return None  # "I'm Gold 2": a rank (hobbies.py)
    title = JOB_TITLE_AT_START_EN.search(phrase) if hit.group("im") else None
    if title is not None and _surely_a_title(title, phrase):
        return _job_title(hit)
    if hit.group("im") and _NOT_A_NAME_SAID.search(said):
        return None  # "I'm DevOps", "je suis PO": a word written as no name is
    if hit.group("im") and not hit.french and said.strip(",.!").casefold() in _QUOTED_HEROES_EN:
        return None  # "I'm Batman": a film quoted
    if hit.group("im") and hit.french and hit.group("im").lower().startswith("je") and _of_a_place_fr(said):
        return None  # "je suis Parisien", "je suis Bretonne": where from, capitalised
    name = name_from_phrase(phrase, strict=not hit.group("strong"))
    if not name or name.casefold() == speaker.casefold():
        # The speaker's display name already says it: "Mickael's name is Mickael" teaches nothing.
        return None
    confidence = hit.confidence(_NAME_CONFIDENCE)
    if hit.group("call"):
        content = (
            f"{speaker} veut qu'on l'appelle {name}" if hit.french else f"{speaker} wants to be called {name}"
        )
        return Item(
            content, MemoryType.IDENTITY, confidence, [], [name], predicate=Predicate.NICKNAME, object=name
        )
    content = f"{speaker} s'appelle {name}" if hit.french else f"{possessive_en(speaker)} name is {name}"
    return Item(
        content,
        MemoryType.IDENTITY,
        confidence,
        [],
        [name],
        given_name=name,
        predicate=Predicate.NAME,
        object=name,
    )


# "my pronouns are she/her", "I use they/them", "mes pronoms sont iel/iel": how to speak of them.
_PRONOUN_PAIR = (
    r"(?P<pronouns>(?:he|she|they|xe|ze|il|elle|iel|ielle)\s*/\s*(?:him|her|them|his|hers|their|theirs|xem|hir|"
    r"zir|lui|elle|iel|eux|elles|le|la)(?:\s*/\s*[^\W\d_]+)?)\b"
)
_PRONOUNS_EN = regex(
    r"\b(?:my\s+pronouns\s+are|i\s+(?:use|go\s+by|prefer)|pronouns\s*[:=-])\s*" + _PRONOUN_PAIR
)
_PRONOUNS_FR = regex(
    r"\b(?:mes\s+pronoms\s+sont|mon\s+pronom\s+est|j'utilise(?:\s+les?\s+pronoms?)?|pronoms?\s*[:=-])\s*"
    + _PRONOUN_PAIR
)


# Pronouns said alone, or beside a name: "name's Marco, he/him", "Dana (she/her)". Only the pairs
# people give as theirs: "he/she will decide" is none.
_PRONOUNS_ALONE = regex(
    r"(?:^\W*|[,(;]\s*)(?P<pronouns>(?:he\s*/\s*(?:him|they|his)|she\s*/\s*(?:her|they|hers)|they\s*/\s*(?:them|he|she|theirs)|"
    r"xe\s*/\s*xem|ze\s*/\s*(?:zir|hir)|il\s*/\s*lui|elle\s*/\s*elle|iel\s*/\s*iel)(?:\s*/\s*[^\W\d_]+)?)"
    r"\s*(?:(?:btw|fyi|pls|please|thanks|ty)\b\W*)?(?:$|[),.;!])"
)


def _pronouns(hit: Hit) -> Item:
    """ "Mickael's pronouns are they/them" / "Les pronoms de Mickael sont iel/iel"."""
    said = re.sub(r"\s*/\s*", "/", hit.group("pronouns").lower())
    if hit.french:
        content = f"Les pronoms {of_fr(hit.speaker)} sont {said}"
    else:
        content = f"{possessive_en(hit.speaker)} pronouns are {said}"
    confidence = hit.confidence(_NAME_CONFIDENCE)
    return Item(content, MemoryType.IDENTITY, confidence, [], predicate=Predicate.PRONOUNS, object=said)


NAMES = (
    Rule(_NAME_EN, _name, french=False, object_groups=()),
    Rule(_NAME_HERE_EN, _name, french=False, object_groups=()),
    Rule(_PART_NATIONALITY_EN, _part_nationality, french=False, object_groups=()),
    Rule(_PART_NATIONALITY_FR, _part_nationality, french=True, object_groups=()),
    Rule(_NAME_FR, _name, french=True, object_groups=()),
    Rule(_PRONOUNS_EN, _pronouns, french=False, object_groups=()),
    Rule(_PRONOUNS_FR, _pronouns, french=True, object_groups=()),
    Rule(_PRONOUNS_ALONE, _pronouns, object_groups=()),
)
