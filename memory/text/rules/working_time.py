"""Rules for when the speaker works: "I work 4 days a week", "I don't work Fridays", "I'm off every
Friday", "my hours are 8 to 4", "je suis à 80 %"."""

from __future__ import annotations

from memory.models import MemoryType

from ..facts import Predicate
from ..lexicons import WEEKDAYS_EN, WEEKDAYS_FR
from ..normalize import regex
from ..rewrite import capitalize_first, possessive_en
from .base import Hit, Item, Rule

__all__ = ["WORKING_TIME"]

_CONFIDENCE = 0.7

_DAYS_EN = "|".join(f"{day}s" for day in WEEKDAYS_EN) + "|weekends"
_DAYS_FR = "|".join(WEEKDAYS_FR)
_COUNT_EN = r"(?:\d(?:\.5)?|one|two|three|four|five|six)"
# Days said as a habit: "Fridays", "Mondays and Fridays" (a weekday alone, "Friday", is one day).
_DAYS_LIST_EN = rf"(?:{_DAYS_EN})(?:\s*(?:,|and|or|&)\s*(?:{_DAYS_EN}))*"

# "I work 4 days a week", "I only work three days per week".
_DAYS_A_WEEK_EN = regex(
    rf"\bi\s+(?:only\s+|now\s+|currently\s+|just\s+)?work\s+(?:only\s+)?{_COUNT_EN}\s+days\s+(?:a|per)\s+week\b"
    # ... and which: "I work 4 days a week, never on Fridays", "… except Mondays"
    rf"(?:\s*[,-]?\s*(?:never|not|but\s+not|except|off)\s+(?:on\s+)?{_DAYS_LIST_EN}\b)?"
)
# "I don't work Fridays", "I never work on weekends".
_DAYS_NOT_WORKED_EN = regex(rf"\bi\s+(?:don't|do\s+not|never)\s+work\s+(?:on\s+)?{_DAYS_LIST_EN}\b")
# "I'm off every Friday", "I'm off on Fridays", "I'm always offline on weekends".
_DAYS_OFF_EN = regex(
    r"\bi(?:'m|\s+am)\s+(?:always\s+|usually\s+)?(?:off|out|offline|away)\s+"
    rf"(?:every\s+(?:{'|'.join(WEEKDAYS_EN)}|weekend)|(?:on\s+)?{_DAYS_LIST_EN})\b"
)
# "my hours are 8 to 4", "my working hours are 9:30-5:30 CET": hours said in numbers.
_HOURS_EN = regex(
    r"\bmy\s+(?:usual\s+)?(?:working\s+|work\s+|office\s+|core\s+)?hours\s+are\s+(?P<object>[^,;!?]*\d[^,;!?]*?)\s*$"
)
# "I usually start at 7", "I log off at 5 every day": a habit, said as one.
_STARTS_AT_EN = regex(
    r"\bi\s+(?P<habit>usually\s+|always\s+|normally\s+|generally\s+)?(?:start|finish|stop|log\s+(?:on|off)|"
    r"sign\s+(?:on|off)|clock\s+(?:in|out))\s+(?:work\s+|working\s+)?(?:at|around|by)\s+\d{1,2}(?:[:.h]\d\d)?"
    r"(?:\s*(?:am|pm|h))?(?P<when>\s+(?:every\s+(?:day|morning|evening|night|weekday)|most\s+days|on\s+weekdays|"
    r"each\s+day|daily))?\b"
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


def _hours(hit: Hit) -> Item:
    """ "Mickael's working hours are 8 to 4"."""
    hours = " ".join(hit.group("object").split())
    content = f"{possessive_en(hit.speaker)} working hours are {hours}"
    return Item(content, MemoryType.IDENTITY, hit.confidence(_CONFIDENCE), [hours], predicate=Predicate.ABOUT)


WORKING_TIME = (
    *(
        Rule(pattern, _habit, french=False, object_groups=())
        for pattern in (_DAYS_A_WEEK_EN, _DAYS_NOT_WORKED_EN, _DAYS_OFF_EN)
    ),
    Rule(_STARTS_AT_EN, _starts_at, french=False, object_groups=()),
    Rule(_HOURS_EN, _hours, french=False, check_object=False),
    *(
        Rule(pattern, _habit, french=True, object_groups=())
        for pattern in (_DAYS_A_WEEK_FR, _DAYS_NOT_WORKED_FR, _SHARE_FR)
    ),
)
