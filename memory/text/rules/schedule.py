"""Rules for the speaker's standing week: when they work ("I work 4 days a week", "I'm off every
Friday", "my hours are 8 to 4", "je suis à 80 %"), what comes back on its day ("my 1:1 with Priya is
every other Tuesday", "our book club meets monthly") and their day ("I wake up at 5am", "I bike to
work")."""

from __future__ import annotations

from memory.models import MemoryType

from ..facts import Predicate
from ..lexicons import WEEKDAYS_EN, WEEKDAYS_FR
from ..normalize import regex
from ..rewrite import capitalize_first
from ..sentences import strip_filler
from .base import Hit, Item, OneOf, Rule

__all__ = ["DAYS_LIST_EN", "SCHEDULE"]

_CONFIDENCE = 0.7

_DAYS_EN = "|".join(f"{day}s" for day in WEEKDAYS_EN) + "|weekends"
_DAYS_FR = "|".join(WEEKDAYS_FR)
_COUNT_EN = r"(?:\d(?:\.5)?|one|two|three|four|five|six)"
# Days said as a habit: "Fridays", "Mondays and Fridays" (a weekday alone, "Friday", is one day).
DAYS_LIST_EN = rf"(?:{_DAYS_EN})(?:\s*(?:,|and|or|&)\s*(?:{_DAYS_EN}))*"

# "I work 4 days a week", "I only work three days per week".
_DAYS_A_WEEK_EN = regex(
    rf"\bi\s+(?:only\s+|now\s+|currently\s+|just\s+)?work\s+(?:only\s+)?{_COUNT_EN}\s+days\s+(?:a|per)\s+week\b"
    # ... and which: "I work 4 days a week, never on Fridays", "… except Mondays"
    rf"(?:\s*[,-]?\s*(?:never|not|but\s+not|except|off)\s+(?:on\s+)?{DAYS_LIST_EN}\b)?"
)
# "I don't work Fridays", "I never work on weekends".
_DAYS_NOT_WORKED_EN = regex(rf"\bi\s+(?:don't|do\s+not|never)\s+work\s+(?:on\s+)?{DAYS_LIST_EN}\b")
# "I'm off every Friday", "I'm off on Fridays", "I'm always offline on weekends".
_DAYS_OFF_EN = regex(
    r"\bi(?:'m|\s+am)\s+(?:always\s+|usually\s+)?(?:off|out|offline|away)\s+"
    rf"(?:every\s+(?:{'|'.join(WEEKDAYS_EN)}|weekend)|(?:on\s+)?{DAYS_LIST_EN})\b"
)
# "my hours are 8 to 4", "my working hours are 9:30-5:30 CET": hours said in numbers.
_HOURS_EN = regex(
    r"\bmy\s+(?:usual\s+)?(?:working\s+|work\s+|office\s+|core\s+)?hours\s+are\s+(?P<object>[^,;!?]*\d[^,;!?]*?)\s*$"
)
# "I usually start at 7", "I log off at 5 every day": a habit, said as one.
_STARTS_AT_EN = regex(
    r"\bi\s+(?P<habit>usually\s+|always\s+|normally\s+|generally\s+)?(?:start|finish|stop|log\s+(?:on|off)|"
    r"sign\s+(?:on|off)|clock\s+(?:in|out))\s+(?:at|around|by)\s+\d{1,2}(?:[:.h]\d\d)?"
    r"(?:\s*(?:am|pm|h))?(?P<when>\s+(?:every\s+(?:day|morning|evening|night|weekday)|most\s+days|on\s+weekdays|"
    r"each\s+day|daily))?\b"
)
# The rest of the clause, whose times keep their minutes ("at 9:30").
_UP_TO_A_BREAK = r"(?:[^,;:!?.]|[:.](?=\d))*"
# When the speaker's group meets: "my writing group meets every Thursday", "our book club meets monthly".
_GROUP_MEETS_EN = regex(
    r"\b(?:my|our)\s+(?:[\w'-]+\s+){0,2}?(?:group|club|team|class|band|choir|circle|crew|league|guild|squad)\s+"
    r"(?:meets|practices|plays|rehearses|trains|raids|streams|gets\s+together)\s+(?P<object>(?:every|each|on|once|twice|weekly|"
    r"monthly|daily|biweekly|the\s+(?:first|second|third|fourth|last)\s+\w+day\b|\w+days?\s+(?:mornings|afternoons|"
    rf"evenings|nights)\b|{DAYS_LIST_EN}\b)" + _UP_TO_A_BREAK + ")"
)
# When a group's regular thing happens: "our raid is every saturday at 9pm", "standup is at 10am every
# day", "the book club meets on the first tuesday of the month".
_SCHEDULED_EN = regex(
    r"^\W*(?P<object>(?:(?:my|our|the)\s+)?(?:[\w'-]+\s+){0,2}?(?:raids?|standups?|stand-ups?|syncs?|retros?|"
    r"practices?|rehearsals?|sessions?|game\s+nights?|movie\s+nights?|book\s+club|meetings?|classe?s?|lessons?|"
    r"scrims?|streams?|services?|trainings?|meetups?|1:1s?|1-on-1s?|one-on-ones?|check-ins?|therapy|shifts?|"
    r"appointments?|office\s+hours)"
    # with whom: "my 1:1 with Priya", "my sync with the design team"
    r"(?:\s+with\s+(?:(?-i:[A-Z])[\w'-]+(?:\s+(?-i:[A-Z])[\w'-]+)?|(?:my|our|the)\s+(?:[\w'-]+\s+)?[\w'-]+))?"
    # ... or its new day: "our 1:1s are moving to Wednesdays at 11 from next week"
    r"\s+(?:is|are|happens?|runs?|starts?|meets?|(?:is|are)\s+moving\s+to|moved\s+to|moves\s+to)\s+"
    # a time said first: "at 9:15 every day", "from 7 to 3 every day"
    r"(?:(?:at|from)\s+(?:[^,;:!?.]|:(?=\d)){1,30}?\s+)?(?:every|each|"
    r"on\s+(?:the\s+(?:first|second|third|fourth|last)\s+)?\w+days?\b|"
    rf"daily|weekly|monthly|twice\s+a|once\s+a|{DAYS_LIST_EN}\b)" + _UP_TO_A_BREAK + ")"
)
# What the speaker has on a day of every week: "I have physio every thursday at 6", "I've got band
# practice on Wednesdays", "I have therapy every other Tuesday". Not what they have to do or lack
# ("I have no time on Mondays"), nor what they have once ("I have a meeting on Thursday").
_WEEKLY_EN = rf"(?:{'|'.join(WEEKDAYS_EN)})"
_HAS_EVERY_EN = regex(
    r"\bi(?:\s+(?:usually\s+|always\s+|also\s+|still\s+|now\s+)?have(?:\s+got)?|'ve\s+got)\s+"
    r"(?P<object>(?!(?:no|nothing|to|it|that|this|time|fun|plans|work|a\s+(?:lot|bit|feeling))\b)"
    r"(?:[\w':-]+\s+){0,5}?[\w':-]+\s+"
    rf"(?:(?:every|each)\s+(?:other\s+)?(?:{_WEEKLY_EN}(?:\s+(?:morning|afternoon|evening|night))?|"
    r"day|weekday|morning|evening|night|week|weekend|month)\b|"
    rf"on\s+{DAYS_LIST_EN}\b|on\s+{_WEEKLY_EN}\s+(?:mornings|afternoons|evenings|nights)\b)"
    # and when in the day: "at 6", "from 7 to 9pm"
    r"(?:\s+(?:at|from|around|after|before)\s+\d{1,2}(?:[:.h]\d\d)?(?:\s*(?:am|pm))?"
    r"(?:\s*(?:-|–|to|till|until)\s*\d{1,2}(?:[:.h]\d\d)?(?:\s*(?:am|pm))?)?)?)"
)
# The speaker's day: "I wake up at 5am every day", "I usually go to bed around midnight", "I get off
# work at 6".
_ROUTINE_EN = regex(
    r"\bi\s+(?:usually\s+|always\s+|normally\s+|often\s+|typically\s+|generally\s+)?(?P<object>(?:wake\s+up|get\s+up|"
    r"go\s+to\s+(?:bed|sleep)|get\s+off\s+work|start\s+work|finish\s+work|leave\s+work|get\s+home)\s+"
    r"(?:at|around|by|before|after)\s+(?:\d{1,2}(?::\d{2})?\s*(?:am|pm)?|midnight|noon)(?:\s+(?:every\s+\w+|on\s+weekdays|"
    r"on\s+weekends|most\s+days|during\s+the\s+week))?)\b"
)
# How the speaker gets to work: "I bike to work every day", "I take the train everywhere".
_COMMUTE_EN = regex(
    r"\bi\s+(?:usually\s+|always\s+|often\s+|now\s+|mostly\s+|still\s+)?(?P<object>(?:bike|cycle|walk|run|drive|commute|"
    r"take\s+the\s+(?:bus|train|subway|tube|metro|ferry))\s+(?:to\s+(?:work|school|the\s+office|campus|class)|everywhere)\b"
    r"[^,;:!?.]*)"
)
# "je travaille 4 jours par semaine", "je ne travaille que trois jours par semaine".
_DAYS_A_WEEK_FR = regex(
    r"\bje\s+(?:ne\s+)?travaille\s+(?:que\s+|seulement\s+)?(?:\d|un|deux|trois|quatre|cinq)\s+jours\s+par\s+semaine\b"
)
# "je ne travaille pas le vendredi", "je ne bosse jamais le week-end".
_DAYS_NOT_WORKED_FR = regex(
    rf"\bje\s+ne\s+(?:travaille|bosse)\s+(?:pas|jamais)\s+(?:le\s+(?:{_DAYS_FR}|week-end)|les\s+(?:{_DAYS_FR})s)\b"
)
# "je suis à 80 %": a part-time share, as French says it at work.
_SHARE_FR = regex(r"\bje\s+suis\s+(?:à|a)\s+(?:\d0|\d5)\s*%")


def _habit(hit: Hit) -> Item:
    """The speaker's working time, as they said it: "Mickael doesn't work on Fridays"."""
    said = " ".join(hit.match.group(0).split())
    content = capitalize_first(hit.third(said))
    return Item(content, MemoryType.IDENTITY, hit.confidence(_CONFIDENCE), [said], predicate=Predicate.ABOUT)


def _starts_at(hit: Hit) -> Item | None:
    """ "Mickael usually starts at 7": only said as a habit ("I start at 7" may be tomorrow's)."""
    return _habit(hit) if hit.group("habit") or hit.group("when") else None


def _as_said(hit: Hit) -> Item:
    """The words matched, in the third person, as a fact: "Leo bikes to work every day"."""
    return Item(hit.as_said(), MemoryType.FACT, hit.confidence(_CONFIDENCE), [hit.phrase])


_HAVE_GOT_EN = regex(r"^i(?:'ve|\s+have)\s+got\b")


def _has_every(hit: Hit) -> Item:
    """ "Mickael has band practice every Wednesday" ("I've got band practice …"): as said, "got" left out."""
    said = _HAVE_GOT_EN.sub("I have", hit.clause.text[hit.match.start() : hit.match.end()])
    content = capitalize_first(hit.third(said, named=False))
    return Item(content, MemoryType.FACT, hit.confidence(_CONFIDENCE), [said])


def _scheduled(hit: Hit) -> Item:
    """ "Standup is at 10am every day", "Mickael's raid is every saturday at 9pm": as said, without
    the chat that led to it ("fyi", "btw")."""
    said = strip_filler(hit.clause.text[hit.match.start() : hit.match.end()])
    content = capitalize_first(hit.third(said, named=False))
    return Item(content, MemoryType.FACT, hit.confidence(_CONFIDENCE), [said])


def _hours(hit: Hit) -> Item:
    """ "Mickael works 8 to 4" ("my hours are 8 to 4"): said as what the profile reads of who one is."""
    hours = " ".join(hit.group("object").split())
    content = f"{hit.speaker} works {hours}"
    return Item(content, MemoryType.IDENTITY, hit.confidence(_CONFIDENCE), [hours], predicate=Predicate.ABOUT)


SCHEDULE = (
    *(
        Rule(pattern, _habit, french=False, object_groups=())
        for pattern in (_DAYS_A_WEEK_EN, _DAYS_NOT_WORKED_EN, _DAYS_OFF_EN)
    ),
    Rule(_STARTS_AT_EN, _starts_at, french=False, object_groups=()),
    Rule(_HOURS_EN, _hours, french=False, check_object=False),
    # One wording of when a group's thing happens is enough: "our book club meets ..." says both.
    OneOf(
        (
            Rule(_GROUP_MEETS_EN, _as_said, french=False, max_words=10),
            Rule(_SCHEDULED_EN, _scheduled, french=False, object_groups=()),
        )
    ),
    Rule(_COMMUTE_EN, _as_said, french=False, max_words=10),
    Rule(_HAS_EVERY_EN, _has_every, french=False, check_object=False),
    Rule(_ROUTINE_EN, _as_said, french=False, check_object=False),
    *(
        Rule(pattern, _habit, french=True, object_groups=())
        for pattern in (_DAYS_A_WEEK_FR, _DAYS_NOT_WORKED_FR, _SHARE_FR)
    ),
)
