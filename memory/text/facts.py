"""What a memory says as fields (`models.Fact`: subject, predicate, object) read back from its words,
for the memories that were stored without them (the model's); and a value bounded for a profile."""

from __future__ import annotations

import re

from memory.models import Fact, MemoryType, Predicate

from .lexicons import (
    DIET_PLANS_EN,
    FAMILY_WORD,
    JOB_TITLE_EN,
    NATIONALITIES,
    RELATIVES_EN,
    RELATIVES_FR,
    TASTE_SINCE_EN,
    is_occupation_en,
    is_occupation_fr,
)
from .normalize import regex

__all__ = ["MAX_VALUE_CHARS", "Fact", "Predicate", "clean_value", "read_facts"]

MAX_VALUE_CHARS = 80  # one remembered phrase; longer ones are cut at a word boundary


def clean_value(value: str) -> str:
    """`value` on one line, without edge punctuation, at most MAX_VALUE_CHARS (cut at a word, with …)."""
    value = " ".join(value.split()).strip(" .,;:!…\"'")
    if len(value) > MAX_VALUE_CHARS:
        value = value[: MAX_VALUE_CHARS - 1].rsplit(" ", 1)[0].rstrip(" ,;:-") + "…"
    return value


# --------------------------------------------------------------------------- reading memories back

# The memories come from the heuristic extractor ("Mickael lives in Lyon") or from the model's
# `remember` tool, which writes the same third-person style; both start with the user's name.
_WHO = r"^(?P<who>[^\W\d_][^\n]{0,63}?)"
_ADVERBS = (
    r"(?:(?:really|truly|also|just|still|totally|absolutely|definitely|honestly|actually|genuinely|always|"
    r"now|currently|usually|generally|secretly|particularly|especially|bien|beaucoup|vraiment|aussi|"
    r"énormément|tellement|surtout|toujours)\s+)*"
)


_PRONOUNS = regex(
    r"\b(?P<value>(?:he|she|they|xe|ze|it|il|elle|iel|ielle)\s*/\s*(?:him|her|them|his|hers|their|theirs|xem|hir|"
    r"zir|its|lui|elle|iel|eux|elles)(?:\s*/\s*[^\W\d_]+)?)\b"
)
_FAMILY_NAMED: list[re.Pattern[str]] = [
    regex(rf"{_WHO}'s\s+(?P<rel>{RELATIVES_EN})\s+(?:is\s+called|is\s+named|goes\s+by)\s+(?P<value>.+)$"),
    # "Nate's turtles are called Bubbles and Squirt"
    regex(rf"{_WHO}'s\s+(?P<rel>(?:{RELATIVES_EN})s)\s+are\s+(?:called|named)\s+(?P<value>.+)$"),
    regex(
        rf"^(?:le|la|les|l')\s*(?P<rel>{RELATIVES_FR})\s+(?:de\s+|d')(?P<who>.{{1,64}}?)\s+s'appell(?:e|ent)\s+(?P<value>.+)$"
    ),
]
_FAMILY_HAS = regex(rf"{_WHO}\s+(?P<value>(?:has|a)\s+.+)$")
# Single-valued identity facts: (predicate, pattern after the user's name); the first match wins.
_IDENTITY_AFTER_NAME: list[tuple[str, str]] = [
    ("name", r"'s\s+(?:first\s+|full\s+|real\s+)?name\s+is\s+(?P<value>.+)$"),
    ("name", r"\s+s'appelle\s+(?P<value>.+)$"),
    (
        "nickname",
        r"\s+(?:wants\s+to\s+be\s+called|goes\s+by|veut\s+qu'on\s+l'appelle|se\s+fait\s+appeler)\s+(?P<value>.+)$",
    ),
    ("pronouns", r"'s\s+pronouns\s+are\s+(?P<value>.+)$"),
    (
        "timezone",
        r"\s+(?:is\s+in\s+the\s+(?P<value>\S+)\s+time\s+zone|est\s+dans\s+le\s+fuseau\s+horaire\s+(?P<value_fr>\S+))\W*$",
    ),
    # "is on Berlin time (Europe/Berlin)": the region said in brackets.
    (
        "timezone",
        r"\s+(?:is\s+on\s+[^()]{1,40}?\s+time|est\s+à\s+l'heure\s+d[e'][^()]{0,40}?)\s+\((?P<value>[A-Za-z_]+(?:/[A-Za-z_+-]+)+)\)\W*$",
    ),
    (
        "location",
        rf"\s+{_ADVERBS}(?P<value>(?:no\s+longer\s+)?(?:lives|habite|vit|is\s+based|is\s+living|is\s+located|"
        r"has\s+lived|est\s+basée?|est\s+installée?|n'habite\s+plus|ne\s+vit\s+plus)\b.+)$",
    ),
    (
        "origin",
        # (not "was born in 1990", a date alone, which rules/home.py says is who one is, not where from)
        r"\s+(?P<value>(?:is\s+(?:originally\s+)?from|was\s+born(?!\s+(?:in|on)\s+[^.]*?\d{4}\W*$)|grew\s+up|"
        r"est\s+originaire|"
        r"est\s+née?\s+(?:à|a|en|au|aux|le|dans)|vient\s+d)\b.+)$",
    ),
    (
        "job",
        rf"\s+{_ADVERBS}(?:works|worked|travaille)\s+(?:as|comme|en\s+tant\s+que)\s+"
        r"(?:an?\s+|the\s+|un\s+|une\s+)?(?P<value>.+)$",
    ),
    (
        "workplace",
        rf"\s+{_ADVERBS}(?P<value>(?:no\s+longer\s+)?(?:works|has\s+worked|travaille|ne\s+travaille\s+plus)\s+"
        # (not how one works: "from home", "à mi-temps")
        r"(?!from\s+home\b|à\s+(?:mi-temps|temps\s+partiel|plein\s+temps|distance|domicile)\b)"
        r"(?:at|for|in|on|with|from|chez|à|a|au|pour|dans|sur)\s+.+)$",
    ),
    ("age", r"\s+(?P<value>(?:is\s+\d{1,3}\s+years?\s+old|a\s+\d{1,3}\s+ans))\b"),
    (
        "relationship",
        r"\s+(?:is|est)\s+(?:now\s+|happily\s+|still\s+|newly\s+|désormais\s+|maintenant\s+)?"
        r"(?P<value>(?:no\s+longer\s+)?(?:married|single|divorced|engaged|widowed|separated|in\s+a\s+relationship|mariée?|"
        r"célibataire|divorcée?|fiancée?|veuf|veuve|pacsée?|en\s+couple))\W*$",
    ),
    ("languages", rf"\s+{_ADVERBS}(?P<value>(?:speaks|parle)\s+.+)$"),
    (
        "studies",
        rf"\s+{_ADVERBS}(?P<value>(?:studies|studied|is\s+studying|étudie|fait\s+des\s+études)\s+.+)$",
    ),
]
_IDENTITY = [(Predicate(key), regex(_WHO + pattern)) for key, pattern in _IDENTITY_AFTER_NAME]
# "is from Montreal" reads as "from Montreal", "a 34 ans" as "34 ans".
_LEADING_IS = regex(r"^(?:is|a)\s+")
_WITHOUT_IS = (Predicate.LOCATION, Predicate.ORIGIN, Predicate.AGE)
# "the new designer" as rules/work.py reads it: the job is "new designer"; "the only designer on the
# team" is a designer's.
_IS_A_EN = regex(rf"{_WHO}\s+is\s+(?:now\s+|also\s+)?(?:an?|the(?=\s+new\s)|the\s+only)\s+(?P<value>.+)$")
# "Mickael is Senior Engineer at Stripe", "Mickael est CTO chez Doctolib": a title as rules/names.py
# writes one said without its article.
_IS_TITLE_EN = regex(rf"{_WHO}\s+(?:is|est)\s+(?P<value>(?=(?-i:[A-Z])){JOB_TITLE_EN}.*)$")
# "Mickael is no longer a nurse": the job ended, the newest word on it (rules/work.py).
_NO_LONGER_A_EN = regex(rf"{_WHO}\s+is\s+(?P<value>no\s+longer\s+an?\s+(?P<job>.+))$")
_IS_A_FR = regex(rf"{_WHO}\s+est\s+(?:(?:un|une)\s+)?(?P<value>.+)$")
# ... and how long it has lasted, which is no part of the diet: "has been vegan since 2019", "est
# végétarienne depuis 2025" (rules/preferences.py).
_DIET = regex(
    rf"{_WHO}\s+(?:is|est|has\s+been|(?=n'est\s+plus))\s*(?:now\s+|strictly\s+)?(?:an?\s+)?"
    r"(?P<value>(?:no\s+longer\s+|not\s+|n'est\s+plus\s+)?(?:an?\s+)?"
    r"(?:vegetarian|vegan|pescatarian|gluten[- ]free|lactose[- ]intolerant|teetotal|halal|kosher|"
    r"végétarien(?:ne)?|végane?|vegan|"
    # "is on a keto diet" (rules/preferences.py)
    rf"on\s+a\s+{DIET_PLANS_EN}\s+diet)"
    r"(?:\s+(?:except|apart\s+from|but\s+(?:still\s+)?eats)\s+[^.;]+?)?)"
    r"(?:\s+(?:since|for|depuis)\s+[^.;]+?)?\W*$"
)
# "Mickael's first language is Tagalog": a language spoken (rules/identity.py).
_FIRST_LANGUAGE = regex(rf"{_WHO}'s\s+(?:first|native|mother|home)\s+language\s+is\s+(?P<value>.+)$")
# What the subject does not eat or drink (rules/preferences.py): "can't have dairy".
_FOOD_NOT = regex(
    rf"{_WHO}\s+(?P<value>(?:(?:can't|doesn't)\s+(?:eat|drink|have)|no\s+longer\s+(?:eats|drinks|has)|"
    r"ne\s+(?:(?:mange|boit)\s+(?:pas|plus|jamais)|peut\s+(?:pas|plus)\s+(?:manger|boire)))\s+[^.;]+?)\W*$"
)
_NEUTRAL = regex(rf"{_WHO}\s+(?:doesn't|does\s+not)\s+mind\b")
_DISLIKE: list[re.Pattern[str]] = [
    regex(
        rf"{_WHO}\s+{_ADVERBS}(?:hates|dislikes|detests|loathes|despises|can't\s+stand|cannot\s+stand|"
        r"(?:doesn't|does\s+not)\s+(?:really\s+|much\s+)?(?:like|love|enjoy)|no\s+longer\s+(?:likes|loves|enjoys)|"
        r"is\s+not\s+(?:a\s+(?:big\s+)?fan\s+of|"
        rf"into|keen\s+on)|has\s+(?:{TASTE_SINCE_EN}\s+)*(?:hated|disliked|despised))"
        r"\s+(?P<value>.+)$"
    ),
    regex(
        rf"{_WHO}\s+(?:déteste|hait|a\s+horreur\s+d(?:e\s+|u\s+|es\s+|')|"
        r"n'aime\s+(?:vraiment\s+)?pas(?:\s+(?:trop|du\s+tout|beaucoup))?|n'aime\s+plus|"
        r"ne\s+supporte\s+(?:pas|plus)|n'apprécie\s+pas|n'adore\s+pas|n'est\s+pas\s+fan\s+d(?:e\s+|u\s+|es\s+|')|"
        r"a\s+toujours\s+détesté)\s*"
        rf"{_ADVERBS}(?P<value>.+)$"
    ),
]
_LIKE: list[re.Pattern[str]] = [
    # "Mickael's weakness is cheese", "Mickael's guilty pleasure is reality TV" (rules/preferences.py)
    regex(
        rf"{_WHO}'s\s+(?:weakness|guilty\s+pleasure|comfort\s+food|kryptonite)\s+(?:is|are)\s+(?P<value>.+)$"
    ),
    regex(
        rf"{_WHO}\s+{_ADVERBS}(?:likes|loves|adores|enjoys|prefers|is\s+(?:really\s+)?into|"
        r"is\s+(?:a\s+)?(?:big\s+|huge\s+)?fan\s+of|is\s+crazy\s+about|is\s+obsessed\s+with|"
        r"is\s+passionate\s+about|is\s+mad\s+about|is\s+addicted\s+to|is\s+interested\s+in|is\s+drawn\s+to|"
        rf"has\s+(?:{TASTE_SINCE_EN}\s+)*(?:loved|liked|enjoyed|adored|"
        r"been\s+(?:(?:really|very|so)\s+)?(?:into|passionate\s+about|interested\s+in|(?:a\s+)?(?:big\s+|huge\s+)?fan\s+of)))"
        r"\s+(?P<value>.+)$"
    ),
    regex(
        rf"{_WHO}\s+(?:aime|adore|apprécie|affectionne|kiffe|préfère|raffole\s+d(?:e\s+|u\s+|es\s+|')|"
        r"est\s+(?:un\s+|une\s+)?(?:grande?\s+)?fan\s+d(?:e\s+|u\s+|es\s+|')|est\s+passionnée?\s+(?:de\s+|d'|par\s+)|"
        rf"est\s+accro\s+(?:à|au|aux)\s+|a\s+toujours\s+(?:adoré|aimé|apprécié)\s+|s'intéresse\s+(?:à\s+|au\s+|aux\s+))"
        rf"\s*{_ADVERBS}(?P<value>.+)$"
    ),
]
_FAVORITE: list[re.Pattern[str]] = [
    regex(
        rf"{_WHO}'s\s+(?:all[- ]time\s+)?(?:favou?rite|go-to)\s+(?P<cat>[^\n]{{1,40}}?)\s+"
        r"(?:is|are|was|were|has\s+always\s+been)\s+(?P<value>.+)$"
    ),
    regex(
        r"^(?:le|la|les|l')\s*(?P<cat>[^\n]{1,40}?)\s+(?P<adj>préférée?s?|favorie?s?|fétiches?)\s+(?:de\s+|d')"
        r"(?P<who>.{1,64}?)\s+(?:est|sont)\s+(?P<value>.+)$"
    ),
]


def _who(match: re.Match[str]) -> str:
    return match.group("who") if "who" in match.groupdict() else ""


def _about(content: str, subject: str | None) -> str:
    """An identity statement without the subject's name in front ("is French"), or the whole of it."""
    if subject and content[: len(subject)].casefold() == subject.casefold():
        return content[len(subject) :].strip()
    return content


def _identity(text: str, content: str, subject: str | None) -> list[Fact]:
    facts: list[Fact] = []
    said = _PRONOUNS.search(text)
    if said:
        pronouns = re.sub(r"\s*/\s*", "/", said.group("value").lower())
        facts.append(Fact(subject or "", Predicate.PRONOUNS, pronouns))
    said = _FIRST_LANGUAGE.search(text)
    if said:
        return [*facts, Fact(_who(said), Predicate.LANGUAGES, f"speaks {said.group('value')}")]
    for predicate, pattern in _IDENTITY:
        if predicate is Predicate.PRONOUNS and facts:
            continue  # "he/him" already read from the text
        said = pattern.search(text)
        if said:
            value = said.group("value") or said.groupdict().get("value_fr") or ""
            if predicate in _WITHOUT_IS:
                value = _LEADING_IS.sub("", value)
            facts.append(Fact(_who(said), predicate, value))
            return facts
    said = _DIET.search(text)
    if said:
        return [*facts, Fact(_who(said), Predicate.DIET, said.group("value").lower())]
    said = _IS_A_EN.search(text)
    if said and is_occupation_en(said.group("value")):
        return [*facts, Fact(_who(said), Predicate.JOB, said.group("value"))]
    said = _NO_LONGER_A_EN.search(text)
    if said and is_occupation_en(said.group("job")):
        return [*facts, Fact(_who(said), Predicate.JOB, said.group("value"))]
    said = _IS_TITLE_EN.search(text)
    if said:
        return [*facts, Fact(_who(said), Predicate.JOB, said.group("value"))]
    said = _IS_A_FR.search(text)
    if said:
        first = said.group("value").split()[0] if said.group("value").split() else ""
        if is_occupation_fr(first) and first.casefold() not in NATIONALITIES:
            return [*facts, Fact(_who(said), Predicate.JOB, said.group("value"))]
    if facts:
        return facts
    about = _about(content, subject)
    if about.startswith(("'s ", "’s ")):
        return []  # "Mickael's Steam username is …": something of theirs, not who they are
    return [Fact(subject or "", Predicate.ABOUT, about)]


def _names_the_subject(who: str, subject: str | None) -> bool:
    """Whether what stands before "has" / "a" is who the memory is about, not a clause of its own
    ("Ana went to a party with a sister", "Ana's pets include a dog: ..."): the subject itself when
    known, otherwise a name (its words capitalised, or one word)."""
    if subject is not None:
        return who.casefold() == subject.casefold()
    words = who.split()
    return len(words) == 1 or all(word[:1].isupper() for word in words)


def _relatives(text: str, subject: str | None = None) -> list[Fact]:
    for pattern in _FAMILY_NAMED:
        said = pattern.search(text)
        if said:
            relation = " ".join(said.group("rel").split()).casefold()
            return [Fact(_who(said), Predicate.RELATIVE, said.group("value"), relation)]
    said = _FAMILY_HAS.search(text)
    if said and _names_the_subject(said.group("who"), subject):
        word = FAMILY_WORD.search(said.group("value"))
        if word:
            return [Fact(_who(said), Predicate.HAS, said.group("value"), word.group(0).casefold())]
    return []


def _preferences(text: str) -> list[Fact]:
    if _NEUTRAL.search(text):
        return []  # "doesn't mind" is no taste worth a portrait
    said = _DIET.search(text) or _FOOD_NOT.search(text)
    if said:
        return [Fact(_who(said), Predicate.DIET, said.group("value").lower())]
    for pattern in _DISLIKE:
        said = pattern.search(text)
        if said:
            return [Fact(_who(said), Predicate.DISLIKES, said.group("value"))]
    for pattern in _FAVORITE:
        said = pattern.search(text)
        if said:
            category = " ".join(said.group("cat").split())
            label = (
                f"{category} {said.group('adj')}" if said.groupdict().get("adj") else f"favorite {category}"
            )
            return [Fact(_who(said), Predicate.FAVORITE, said.group("value"), label)]
    for pattern in _LIKE:
        said = pattern.search(text)
        if said:
            return [Fact(_who(said), Predicate.LIKES, said.group("value"))]
    return []


def read_facts(content: str, memory_type: MemoryType, subject: str | None = None) -> list[Fact]:
    """What a memory's third-person text says of who it is about and what they like, as facts with
    objects as written (bound them with `clean_value`); [] when it says nothing of the kind.

    Memories come from the extractor ("Mickael lives in Lyon") or from the model, which writes the
    same style, so this reads what rules/ writes. Only identity, preference and fact memories are
    read, and a fact only for relatives and pets. `subject` is the name the memory opens with, if
    known: an identity statement that fits no predicate is then kept without it (ABOUT "is French").
    """
    text = " ".join(content.split())
    if memory_type is MemoryType.PREFERENCE:
        return _preferences(text)
    if memory_type is MemoryType.IDENTITY:
        return _relatives(text, subject) or _identity(text, content, subject)
    if memory_type is MemoryType.FACT:
        return _relatives(text, subject)
    return []
