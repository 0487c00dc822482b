"""Rules for who one is besides home and work: age, relationship, temperament, languages, time zone."""

from __future__ import annotations

from memory.models import MemoryType

from ..facts import Predicate
from ..lexicons import LANGUAGES, is_occupation_en
from ..normalize import regex
from ..phrases import first_word
from ..rewrite import possessive_en
from ..zones import region_of_place, zone_named
from .base import OBJECT, Hit, Item, OneOf, Rule
from .home import HOME_EN, LIVING_AFTER_EN
from .home_and_work import IDENTITY_CONFIDENCE, identity_memory
from .home_and_work_fr import JOB_AND_HOME_FR, LEAVING_AND_ORIGIN_FR, STUDIES_FR
from .schedule import DAYS_LIST_EN
from .work import STUDIES_EN, WORK_EN

__all__ = ["IDENTITY"]

_MIN_AGE, _MAX_AGE = 3, 120

# --------------------------------------------------------------------------- English


def _age(hit: Hit) -> Item | None:
    age = int(hit.group("age"))
    if not _MIN_AGE <= age <= _MAX_AGE:
        return None
    value = f"{age} ans" if hit.french else f"{age} years old"
    content = f"{hit.speaker} {'a' if hit.french else 'is'} {value}"
    confidence = hit.confidence(IDENTITY_CONFIDENCE)
    return Item(content, MemoryType.IDENTITY, confidence, [], predicate=Predicate.AGE, object=value)


# An introduction's age and home town after the name: "I'm Dana, 28, from Portland", "moi c'est
# Claire, 35 ans".
_INTRO = (
    r"\b(?:i(?:'m|\s+am)|(?:my\s+)?name(?:'s|\s+is)|moi,?\s+c'est|je\s+m'appelle|je\s+suis)\s+"
    r"(?-i:[A-ZÀ-Ý])[\w'-]+(?:\s*\([^()]{1,20}\))?"
    # pronouns said next: "I'm Aiko, she/her, illustrator from Ohio"
    r"(?:\s*,\s*(?:she|he|they|xe|ze|elle|il|iel)\s*/\s*[a-z]+(?:\s*/\s*[a-z]+)?)?\s*,\s*"
)
_INTRO_AGE = _INTRO + r"(?P<age>\d{1,2})(?:\s*(?:y/?o|years?\s+old|ans))?\s*(?=$|[,.;!]|and\b|et\b)"
_INTRO_FROM_EN = (
    _INTRO
    + r"(?:\d{1,2}(?:\s*(?:y/?o|years?\s+old))?\s*,\s*)?"
    + r"(?P<job>(?!originally\b)(?:an?\s+)?[^,.;!()]{2,40}?\s+)?"
    r"(?P<from>(?:originally\s+)?from)\s+(?P<place>[^,.;!()]+)"
)
# The job said in an introduction: "I'm Priya, 27, software engineer from Pune", "I'm Raj, a nurse".
_INTRO_JOB_EN = (
    _INTRO + r"(?:\d{1,2}(?:\s*(?:y/?o|years?\s+old))?\s*,\s*)?(?P<art>an?\s+)?"
    r"(?P<object>[^,.;!()]{2,40}?)(?=\s*(?:$|[,.;!()]|\s+(?:from|based|and|who|living)\b))"
)


def _intro_from(hit: Hit) -> Item | None:
    """ "Dana is from Portland" from "I'm Dana, 28, from Portland" (or "…, nurse from Portland")."""
    job = hit.match.group("job")
    if job and not is_occupation_en(job):
        return None  # "I'm Dana, just back from Lisbon": no home town
    said = f"{hit.words('from').lower()} {hit.phrase}"
    return identity_memory(hit, f"{hit.speaker} is {said}", Predicate.ORIGIN, said)


def _intro_job(hit: Hit) -> Item | None:
    """ "Priya is a software engineer" from "I'm Priya, 27, software engineer from Pune"."""
    if not is_occupation_en(hit.phrase):
        return None
    article = (
        (hit.match.group("art") or ("an " if hit.phrase[:1].lower() in "aeiou" else "a ")).strip().lower()
    )
    job = hit.third(hit.phrase)
    return identity_memory(hit, f"{hit.speaker} is {article} {job}", Predicate.JOB, job)


# The age just reached, said alone or with when: not "I turned 20 pages".
_TURNED_EN = (
    r"\bi\s+(?:just\s+|finally\s+|officially\s+)?turned\s+(?P<age>\d{1,3})"
    r"(?=\s*(?:$|[^\w\s]|\x00|(?:years?|yesterday|today|last|this|on|and|but|so|recently)\b))"
)


def _turned(hit: Hit) -> Item | None:
    """ "I turned 35 yesterday", "j'ai eu 40 ans hier": the age now, unless said of a year long
    gone ("I turned 5 in 1995")."""
    if any(said.unit == "year" for said in hit.clause.dates):
        return None
    return _age(hit)


# "I'm married", "je suis célibataire": one value, the newest word wins (as for where one lives).
_RELATIONSHIP_EN = (
    r"\b(?:i(?:'m|\s+am)|(?P<we>we(?:'re|\s+are)))\s+(?:(?P<no_longer>no\s+longer\s+)|(?P<not>not\s+))?"
    r"(?:now\s+|happily\s+|still\s+|newly\s+|recently\s+|officially\s+|finally\s+)?"
    # "we're engaged" says it of the speaker too; "we're single" says nothing of a couple
    r"(?P<state>married|(?(we)(?!)|single)|divorced|engaged|(?(we)(?!)|widowed)|separated|in\s+a\s+relationship)"
    # "I'm not married anymore" (not "I'm not married", which may be said of many things)
    r"(?(not)\s+any\s*more\b|)(?=\s*(?:$|[^\w\s-]|and\b|but\b|now\b|again\b|with\b|since\b|for\b|\x00|"
    # to someone named, not "married to our jobs"
    r"to\s+(?:(?-i:[A-Z])|an?\s)))"
)
_RELATIONSHIP_FR = (
    r"\bje\s+suis\s+(?:désormais\s+|maintenant\s+|toujours\s+|enfin\s+)?(?P<state>mariée?|célibataire|"
    r"divorcée?|fiancée?|veuf|veuve|pacsée?|en\s+couple)(?=\s*(?:$|[^\w\s-]|et\b|mais\b|depuis\b|avec\b|\x00))"
)


# The speaker's time zone: "I'm in PST", "my timezone is UTC+2", "mon fuseau horaire est CET". Only
# zone names and offsets: "I'm in NYC" says where, not when.
_ZONE = (
    r"(?P<zone>(?-i:(?:PST|PDT|PT|MST|MDT|MT|CST|CDT|CT|EST|EDT|ET|AKST|AKDT|HST|GMT|BST|UTC|CET|CEST|EET|EEST|"
    r"WET|WEST|IST|JST|KST|AEST|AEDT|ACST|AWST|NZST|NZDT|SGT|HKT|BRT|ART))(?:\s*[+-]\s*\d{1,2}(?::?\d{2})?)?)"
    r"(?![\w+-])"
)
# "I'm in PST", and chat's "I'm GMT+1 btw" (a zone's name, not the speaker's: see names.py).
_TIMEZONE_EN = (
    rf"\b(?:my\s+time\s*zone\s+is\s+(?:the\s+)?|i(?:'m|\s+am)\s+(?:(?:in|on)\s+(?:the\s+)?)?){_ZONE}"
)
# After "my timezone is" a zone's name is one in any case: "my timezone is est".
_TIMEZONE_SAID_EN = (
    r"\bmy\s+time\s*zone\s+is\s+(?:the\s+)?(?P<zone>[a-z]{2,5}(?:\s*[+-]\s*\d{1,2}(?::?\d{2})?)?)(?![\w+/-])"
)
# Hours given in a zone: "I'm usually online 9-5 EST", "I work 10am to 6pm CET".
_HOURS_IN_ZONE_EN = (
    r"\bi(?:'m|\s+am)?\s+(?:(?:usually|mostly|generally|normally|typically)\s+)?(?:online|around|available|"
    r"working|work|on)\s+(?:from\s+)?\d{1,2}(?::\d{2})?\s*(?:am|pm)?\s*(?:-|–|to|till|until)\s*\d{1,2}(?::\d{2})?"
    rf"\s*(?:am|pm)?\s+(?:in\s+|my\s+time\s+)?{_ZONE}"
)
_TIMEZONE_FR = (
    r"\b(?:mon\s+fuseau(?:\s+horaire)?\s+(?:est|c'est)\s+(?:l'heure\s+)?(?:le\s+)?|je\s+suis\s+(?:en\s+)?)"
    + _ZONE
)
# A zone named by a place: "I'm on Berlin time", "I'm on East Coast time", "je suis à l'heure de Montréal".
_PLACE_TIME_EN = (
    r"\bi(?:'m|\s+am)\s+(?:on|in|using|living\s+on)\s+(?P<place>[^\W\d_][\w'.-]*(?:\s+[^\W\d_][\w'.-]*){0,2}?)"
    r"\s+time\b(?!\s*(?:off|to|for|of|with)\b)"
)
_PLACE_TIME_FR = (
    r"\bje\s+(?:suis|vis)\s+(?:à|a|sur)\s+l['’]heure\s+(?:de\s+|d['’])"
    r"(?P<place>[^\W\d_][\w'-]*(?:\s+[^\W\d_][\w'-]*){0,2}?)\b(?=\s*(?:$|[^\w\s'-]))"
)
# The speaker's name on a service: "my username on steam is darkfox99", "my gamertag is xX_Fox_Xx",
# "my github is @mkl". Said to be found there, so kept as said.
_HANDLE_EN = (
    r"\bmy\s+(?P<what>user\s*name|handle|gamer\s*tag|ign|in-game\s+name|battle\s*tag|friend\s+code|"
    r"(?:steam|psn|xbox|epic|riot|discord|twitch|github|gitlab|twitter|insta(?:gram)?|ig|tiktok|reddit|"
    r"bluesky|mastodon|chess\.com|lichess)(?:\s+(?:name|id|handle|username|tag|account))?)"
    r"(?:\s+(?P<prep>on|in|for)\s+(?P<where>[\w.-]+(?:\s+[\w.-]+)?))?\s*(?:is|=|:)\s+"
    r"(?P<handle>@?[\w][\w.#@-]{1,39})(?![\w#@-])"
)
# How the speaker works: "I work remotely", "I work night shifts".
_WORKS_HOW_EN = (
    r"\bi\s+(?:currently\s+|mostly\s+|usually\s+|now\s+|also\s+)?work\s+(?P<how>remotely|"
    r"remote(?=\s+(?:for|at)\b)|part[- ]time|full[- ]time|nights|night\s+shifts?|the\s+night\s+shift|"
    r"weekends|shifts|freelance|"
    r"as\s+a\s+freelancer)\b"
    # where from: "I work remotely from Lisbon most of the year"
    r"(?:\s+from\s+(?P<from>(?-i:[A-Z])[\w'-]+(?:\s+(?-i:[A-Z])[\w'-]+){0,2}))?"
    # on which days of every week: "I work remotely on Mondays and Fridays"
    rf"(?P<days>\s+(?:on\s+)?{DAYS_LIST_EN}\b)?"
    # a day said right after is one day's, not how one works ("I work remotely this week")
    r"(?!\s*\x00)"
)


def _timezone(hit: Hit) -> Item | None:
    """ "Mickael is in the PST time zone": when the speaker's days and nights are."""
    zone = "".join(hit.group("zone").split()).upper()
    if zone_named(zone) is None:
        return None  # "my timezone is weird"
    if hit.french:
        content = f"{hit.speaker} est dans le fuseau horaire {zone}"
    else:
        content = f"{hit.speaker} is in the {zone} time zone"
    return _zone_memory(hit, content, zone, zone)


def _zone_memory(hit: Hit, content: str, said: str, zone: str) -> Item:
    """The speaker's time zone, `said` as they named it, `zone` as `zones.zone_named` reads it."""
    confidence = hit.confidence(IDENTITY_CONFIDENCE)
    return Item(content, MemoryType.IDENTITY, confidence, [said], predicate=Predicate.TIMEZONE, object=zone)


def _place_time(hit: Hit) -> Item | None:
    """ "Mickael is on Berlin time (Europe/Berlin)": the zone by the place the speaker named."""
    place = " ".join(hit.group("place").split())
    region = region_of_place(place)
    if region is None:
        return None  # "I'm on break time", "I'm in no time"
    if hit.french:
        content = f"{hit.speaker} est à l'heure de {place} ({region})"
    else:
        content = f"{hit.speaker} is on {place} time ({region})"
    return _zone_memory(hit, content, place, region)


def _handle(hit: Hit) -> Item | None:
    """ "Mickael's username on steam is darkfox99"."""
    handle = hit.group("handle")
    if handle.lower() in ("the", "my", "same", "private", "secret", "just", "also", "a", "an"):
        return None
    what = " ".join(hit.group("what").split())
    where = f" {hit.group('prep').lower()} {hit.words('where')}" if hit.group("where") else ""
    content = f"{hit.speaker}'s {what}{where} is {handle}"
    return Item(content, MemoryType.IDENTITY, hit.confidence(IDENTITY_CONFIDENCE), [what, handle])


def _works_how(hit: Hit) -> Item:
    """ "Mickael works remotely", "Mickael works night shifts", "Mickael est en télétravail le vendredi"."""
    how = " ".join(hit.group("how").split()).lower()
    how = "remotely" if how == "remote" else how  # "I work remote for a company in Austin"
    if hit.french:
        # "je bosse de chez moi": "Mickael travaille à domicile", whoever Mickael is
        how = _FROM_HOME_FR.sub("à domicile", how)
        content = f"{hit.speaker} {_WORKS_HOW_VERB_FR[hit.words('verb').lower()]} {how}"
    else:
        content = f"{hit.speaker} works {how}"
        if hit.group("from"):
            content += f" from {hit.group('from')}"
        if hit.group("days"):
            content += f" {' '.join(hit.group('days').split())}"
    return Item(
        content, MemoryType.IDENTITY, hit.confidence(IDENTITY_CONFIDENCE), [how], predicate=Predicate.ABOUT
    )


# "je suis en télétravail le vendredi", "je travaille à distance", "je bosse de nuit".
_DAYS_FR = r"(?:lundis?|mardis?|mercredis?|jeudis?|vendredis?|samedis?|dimanches?|week-?ends?)"
_WORKS_HOW_FR = (
    r"\bje\s+(?P<verb>suis|travaille|bosse)\s+(?:souvent\s+|surtout\s+|maintenant\s+)?(?P<how>(?:en\s+télétravail|"
    r"à\s+distance|en\s+remote|de\s+chez\s+moi|depuis\s+chez\s+moi|de\s+la\s+maison|à\s+la\s+maison|à\s+temps\s+partiel|à\s+mi-temps|en\s+freelance|de\s+nuit|en\s+horaires\s+décalés)"
    # on which days, one or several: "le lundi et le vendredi", "les lundis et mercredis"
    r"(?:\s+(?:le|les|tous\s+les)\s+"
    + _DAYS_FR
    + r"(?:(?:\s*,\s*|\s+et\s+)(?:(?:le|les)\s+)?"
    + _DAYS_FR
    + r")*)?)"
    # a day said right after is one day's, not how one works ("je suis en télétravail cette semaine")
    r"(?!\s*\x00)"
)
_WORKS_HOW_VERB_FR = {"suis": "est", "travaille": "travaille", "bosse": "travaille"}
_FROM_HOME_FR = regex(r"^(?:de\s+chez\s+moi|depuis\s+chez\s+moi|de\s+la\s+maison|à\s+la\s+maison)")
# Who one is by temperament: "I'm an introvert", "I'm not a morning person", "je suis du soir".
_TRAIT_EN = (
    r"\bi(?:'m|\s+am)\s+(?P<neg>not\s+)?(?:(?:definitely|totally|really|such|more\s+of|kind\s+of|"
    r"a\s+bit\s+of)\s+)*(?P<trait>an?\s+(?:introvert|extrovert|extravert|ambivert|night\s+owl|early\s+bird|"
    r"morning\s+person|night\s+person|homebody|people\s+person|bookworm|foodie|perfectionist|"
    r"procrastinator|optimist|pessimist|(?:big\s+)?nerd|(?:total\s+)?geek|(?P<lefty>lefty|leftie|southpaw))|"
    r"left-handed|right-handed)"
    r"(?=\s*(?:$|[^\w\s-]|and\b|but\b|so\b|at\s+heart\b|at\s+all\b|tbh\b|lol\b|fr\b|ngl\b|honestly\b|either\b|though\b))"
)
_TRAIT_FR = (
    r"\bje\s+(?:ne\s+)?suis\s+(?P<neg>pas\s+)?(?:(?:vraiment|plutôt|très|un\s+peu)\s+)*(?P<trait>introvertie?|"
    r"extravertie?|du\s+matin|du\s+soir|casani(?:er|ère)|gauch(?:er|ère)|droiti(?:er|ère)|perfectionniste|optimiste|"
    r"pessimiste|(?:un\s+|une\s+)?lève-tôt|(?:un\s+|une\s+)?couche-tard)(?=\s*(?:$|[^\w\s-]|et\b|mais\b))"
)


def _trait(hit: Hit) -> Item:
    """ "Mickael is an introvert", "Mickael n'est pas du matin": said of who they are (ABOUT)."""
    trait = " ".join(hit.group("trait").split()).lower()
    if hit.match.groupdict().get("lefty"):
        trait = "left-handed"  # "I'm a lefty", as "I'm left-handed" is said
    if hit.french:
        verb = "n'est pas" if hit.group("neg") else "est"
    else:
        verb = "is not" if hit.group("neg") else "is"
    content = f"{hit.speaker} {verb} {trait}"
    confidence = hit.confidence(IDENTITY_CONFIDENCE)
    return Item(content, MemoryType.IDENTITY, confidence, [trait], predicate=Predicate.ABOUT)


def _relationship(hit: Hit) -> Item:
    state = " ".join(hit.group("state").split()).lower()
    if hit.match.groupdict().get("no_longer") or hit.match.groupdict().get("not"):
        state = f"no longer {state}"  # "I'm not married anymore"
    content = f"{hit.speaker} {'est' if hit.french else 'is'} {state}"
    confidence = hit.confidence(IDENTITY_CONFIDENCE)
    return Item(
        content, MemoryType.IDENTITY, confidence, [state], predicate=Predicate.RELATIONSHIP, object=state
    )


def _speaks(hit: Hit) -> Item | None:
    if first_word(hit.phrase) not in LANGUAGES:
        return None
    verb = "parle" if hit.french else "speaks"
    how = hit.match.groupdict().get("how")
    if how:
        verb += f" {' '.join(how.lower().split())}"
    return identity_memory(hit, f"{hit.speaker} {verb} {hit.third(hit.phrase)}", Predicate.LANGUAGES)


def _first_language(hit: Hit) -> Item | None:
    """ "Mickael's first language is Tagalog": a language the speaker speaks, and which one came first."""
    language = first_word(hit.phrase)
    if language not in LANGUAGES:
        return None  # "my first language is code lol"
    which = hit.words("which").lower()
    said = " ".join(hit.third(hit.phrase).split())
    return identity_memory(
        hit, f"{possessive_en(hit.speaker)} {which} language is {said}", Predicate.LANGUAGES, f"speaks {said}"
    )


# What comes after the languages and is something else: "Spanish and learning Portuguese".
_AND_NOT_A_LANGUAGE = regex(r"\s+and\s+(?!(?-i:[A-Z])).*$")


def _speaks_how(hit: Hit) -> Item | None:
    """ "Mickael speaks Spanish fluently", "Mickael speaks French and English (bilingual)"."""
    said = _AND_NOT_A_LANGUAGE.sub("", hit.phrase)
    if first_word(said) not in LANGUAGES:
        return None
    how = hit.words("how").lower()
    manner = {"fluent": "fluently", "conversational": "at a conversational level"}.get(how, "(bilingual)")
    return identity_memory(hit, f"{hit.speaker} speaks {hit.third(said)} {manner}", Predicate.LANGUAGES)


# "I'm 19", "I'm 19 and in college", "I'm 32 btw" (not "I'm 2 and 0 this season").
_AGE_EN_END = (
    r"(?:\s*(?:years?\s+old|yo|y/o|yrs?\s+old))?(?:\s+(?:btw|tbh|fyi|lol|haha\w*|now|already))?"
    r"\s*(?:$|[,;!.]|and\s+(?:in|a|an|still|from|live|living|work|"
    r"working|studying|going|currently|just)\b)"
)
_AGE_EN_SAID = r"\s*(?:years?\s+old|yo|y/o|yrs?\s+old)\b"

# The first English wording that yields a memory wins.
_IDENTITY_EN = OneOf(
    (
        *WORK_EN,
        *HOME_EN,
        *STUDIES_EN,
        Rule(
            # "I speak Portuguese", "I can speak three languages: English, Spanish and Tagalog"
            regex(
                # ... and "I'm the only one on the team who speaks German"
                r"\b(?:i|i(?:'m|\s+am)\s+the\s+only\s+one(?:\s+(?:on|in|at)\s+(?:the|my|our)\s+\w+)?\s+who)\s+"
                r"(?:also\s+|can\s+|also\s+can\s+|can\s+also\s+)?(?P<prep>speaks?)\s+"
                r"(?:(?:two|three|four|five|\d)\s+languages\s*(?::|-|,)?\s*)?"
                # how well, said first: "I speak a little German", "I speak fluent Spanish"
                r"(?:(?P<how>a\s+little|a\s+bit\s+of|some|basic|broken|decent|fluent|conversational)\s+)?"
                + OBJECT
            ),
            _speaks,
            french=False,
            max_words=12,
            lists=True,
        ),
        Rule(
            # "I'm fluent in Spanish and learning Portuguese", "I'm bilingual in French and English"
            regex(
                r"\bi(?:'m|\s+am)\s+(?:also\s+|now\s+)?(?P<how>fluent|bilingual|conversational)\s+in\s+"
                + OBJECT
            ),
            _speaks_how,
            french=False,
            max_words=6,
            lists=True,
        ),
        Rule(
            # "my first language is Tagalog", "my native language is Polish"
            regex(r"\bmy\s+(?P<which>first|native|mother|home)\s+(?:language|tongue)\s+is\s+" + OBJECT),
            _first_language,
            french=False,
            max_words=4,
        ),
        Rule(
            regex(r"\bi(?:'m|\s+am)\s+(?P<age>\d{1,3})" + _AGE_EN_END), _age, french=False, object_groups=()
        ),
        # "I turned 35 yesterday", "I just turned 30!": the age it is now.
        Rule(regex(_TURNED_EN), _turned, french=False, object_groups=()),
        Rule(regex(_RELATIONSHIP_EN), _relationship, french=False, object_groups=()),
        Rule(regex(_TRAIT_EN), _trait, french=False, object_groups=()),
        Rule(
            regex(r"\bi(?:'m|\s+am)\s+(?P<age>\d{1,3})" + _AGE_EN_SAID), _age, french=False, object_groups=()
        ),
    )
)
# Said beside the rest: "I'm 30 and I'm in PST", "I work remotely from Lyon".
_WHEN_AND_HOW_EN = (
    OneOf(
        (
            Rule(regex(_TIMEZONE_EN), _timezone, french=False, object_groups=()),
            Rule(regex(_TIMEZONE_SAID_EN), _timezone, french=False, object_groups=()),
            Rule(regex(_HOURS_IN_ZONE_EN), _timezone, french=False, object_groups=()),
        )
    ),
    Rule(regex(_PLACE_TIME_EN), _place_time, french=False, object_groups=()),
    Rule(regex(_HANDLE_EN), _handle, french=False, object_groups=()),
    Rule(regex(_WORKS_HOW_EN), _works_how, french=False, object_groups=()),
)

# --------------------------------------------------------------------------- French


_IDENTITY_FR = OneOf(
    (
        *LEAVING_AND_ORIGIN_FR,
        Rule(regex(_RELATIONSHIP_FR), _relationship, french=True, object_groups=()),
        Rule(regex(_TRAIT_FR), _trait, french=True, object_groups=()),
        *JOB_AND_HOME_FR,
        Rule(regex(r"\bj'ai\s+(?P<age>\d{1,3})\s+ans\b"), _age, french=True, object_groups=()),
        Rule(
            regex(r"\b(?:j'ai\s+eu|je\s+viens\s+d'avoir)\s+(?P<age>\d{1,3})\s+ans\b"),
            _turned,
            french=True,
            object_groups=(),
        ),
        *STUDIES_FR,
        # "je parle couramment espagnol et un peu d'italien": how well, said first
        Rule(
            regex(r"\bje\s+(?:parle)\s+(?:(?P<how>couramment|bien|un\s+peu|aussi|également)\s+)?" + OBJECT),
            _speaks,
            french=True,
        ),
    )
)

# Every identity rule, home and work's (work.py, home.py, home_and_work_fr.py) included, in the
# order they are tried.
IDENTITY = (
    _IDENTITY_EN,
    LIVING_AFTER_EN,
    *_WHEN_AND_HOW_EN,
    # Said beside a name: "I'm Dana, 28, from Portland".
    Rule(regex(_INTRO_AGE), _age, object_groups=()),
    Rule(regex(_INTRO_FROM_EN), _intro_from, french=False, object_groups=("place",)),
    Rule(regex(_INTRO_JOB_EN), _intro_job, french=False),
    _IDENTITY_FR,
    Rule(regex(_TIMEZONE_FR), _timezone, french=True, object_groups=()),
    Rule(regex(_PLACE_TIME_FR), _place_time, french=True, object_groups=()),
    Rule(regex(_WORKS_HOW_FR), _works_how, french=True, object_groups=()),
)
