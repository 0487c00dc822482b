"""Rules for what turned out otherwise: a plan called off, a couple apart, a promotion missed or in view,
and the years spent at one company."""

from __future__ import annotations

from memory.models import MemoryType

from ..normalize import regex
from .base import Hit, Item, Rule
from .said_first import with_date_said_first

__all__ = ["CHANGES"]

_CONFIDENCE = 0.65

# Where what was said ends: the clause's end, a comma, or a conjunction that goes on to something else.
_END = r"(?=\s*[,;:.!?]|\s+(?:and|but|so|because|since|though)\b|\s*$)"

# A plan called off: "I'm not moving to Berlin after all", "we're not doing the secret santa this
# year", "I'm no longer going to the conference" (not "I'm not going to lie", "I'm not doing great").
_CALLED_OFF_EN = regex(
    r"\b(?:i(?:'m|\s+am)|we(?:'re|\s+are))\s+(?:not|no\s+longer)\s+(?:going\s+to\s+(?!(?:lie|say|pretend)\b)|"
    r"(?P<doing>(?!(?:doing\s+(?:great|well|good|ok|okay|fine|too\s+\w+)|feeling|looking|kidding|joking|"
    r"sure|getting\s+(?:it|any))\b)[a-z]+ing)\b)"
    # "this year" is a date's placeholder by now
    r"(?P<object>[^,;:.!?]*?(?:\b(?:after\s+all|anymore|any\s+more|this\s+time)|\x00\d+\x00))" + _END
)
# A couple apart: "Ana and I aren't together anymore", "I'm not with Tom anymore".
_APART_EN = regex(
    r"\b(?:(?P<partner>(?-i:[A-Z])[\w'-]+)\s+and\s+i\s+(?:aren't|are\s+not|are\s+no\s+longer)|"
    r"i(?:'m|\s+am)\s+(?:not|no\s+longer)\s+with\s+(?P<partner2>(?-i:[A-Z])[\w'-]+))"
    r"(?:\s+(?:together|a\s+couple|dating|seeing\s+each\s+other))?(?:\s+(?:anymore|any\s+more))?" + _END
)
# A job, a place or a promotion not got: "I didn't get the promotion", "we didn't get the flat".
_NOT_GOT_EN = regex(
    r"\b(?:i|we)\s+(?:didn't|did\s+not|never)\s+(?:end\s+up\s+)?(?:get(?:ting)?|land)\s+(?P<object>(?:the|that|a|an|my|our)\s+"
    r"(?:[\w'-]+\s+){0,3}?(?:promotion|job|role|position|offer|raise|scholarship|grant|visa|flat|apartment|house|place|"
    r"internship|contract|part|lead|spot|funding|loan|mortgage|tickets?))" + _END
)
# What is in view at work: "I'm up for promotion in January", "my manager said I'm up for a raise".
_UP_FOR_EN = regex(
    r"\bi(?:'m|\s+am)\s+(?:(?:finally|officially|now|also)\s+)?(?:up\s+for|in\s+line\s+for|being\s+considered\s+for)\s+"
    r"(?P<object>(?:a\s+|the\s+)?(?:promotion|raise|pay\s+rise|bonus|tenure|partner|senior|lead|principal)\b[^,;:.!?]*?)"
    + _END
)
# Years at one company: "I've been at this company for 10 years today", "I've worked at Shopify for 3
# years", "I've been with Stripe since 2021" (the dates say how long, and since when).
_TENURE_EN = regex(
    r"\bi(?:'ve|\s+have)\s+(?:now\s+|officially\s+)?(?:been\s+(?:at|with)|worked\s+(?:at|for))\s+(?P<object>(?:this|the|my|our)\s+"
    r"(?:company|firm|job|place|team|startup|agency|school|hospital|bank)|(?-i:[A-Z])[\w&.'-]+(?:\s+(?-i:[A-Z])[\w&.'-]+)?)"
    r"(?:\s+now)?\s+\x00\d+\x00(?:\s+\x00\d+\x00)?"
    r"|\bi(?:'ve|\s+have)\s+worked\s+(?P<here>here|there)(?:\s+now)?\s+\x00\d+\x00(?:\s+\x00\d+\x00)?"
)


def _as_said(hit: Hit) -> Item:
    """What was said, in the third person, as news: "Ana is not moving to Berlin after all"."""
    content = with_date_said_first(hit.as_said(), hit)
    return Item(content, MemoryType.EVENT, hit.confidence(_CONFIDENCE), [hit.phrase or hit.match.group(0)])


_LAST_DATE = regex(r"\x00(\d+)\x00$")


def _called_off(hit: Hit) -> Item | None:
    """ "Ana is not moving to Berlin after all", "Ana and others are not doing the secret santa in 2026"."""
    dated = _LAST_DATE.search(hit.group("object"))
    if dated is not None:
        dates = hit.clause.dates
        index = int(dated.group(1))
        # "this year" calls a custom off; "I'm not working at Google today" is one day's news.
        if index >= len(dates) or dates[index].unit not in ("year", "season"):
            return None
    return _as_said(hit)


def _apart(hit: Hit) -> Item:
    """ "Mickael and Ana aren't together anymore"."""
    partner = hit.group("partner") or hit.group("partner2")
    content = f"{hit.speaker} and {partner} aren't together anymore"
    return Item(content, MemoryType.EVENT, hit.confidence(_CONFIDENCE), [partner], tags=[partner])


def _tenure(hit: Hit) -> Item:
    """ "Mickael has been at this company for 10 years (since about 2016)": a fact, though it holds dates."""
    content = with_date_said_first(hit.as_said(), hit)
    return Item(content, MemoryType.FACT, hit.confidence(_CONFIDENCE), [hit.phrase])


CHANGES = (
    Rule(_CALLED_OFF_EN, _called_off, french=False),
    Rule(_APART_EN, _apart, french=False, object_groups=()),
    Rule(_NOT_GOT_EN, _as_said, french=False),
    Rule(_UP_FOR_EN, _as_said, french=False),
    # "this company", "here": what the speaker is in, no object pointing back at something shown
    Rule(_TENURE_EN, _tenure, french=False, object_groups=("object", "here"), check_object=False),
)
