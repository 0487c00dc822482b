"""Rules for when and how the speaker wants to be reached: "no meetings before 10 for me", "don't DM me
about prod issues", "I'd rather not be tagged in #random"."""

from __future__ import annotations

from memory.models import MemoryType

from ..normalize import regex
from ..phrases import trim_phrase
from .base import Hit, Item, Rule

__all__ = ["DO_NOT_REACH_EN", "NO_MEETINGS_EN", "NO_MEETINGS_FR", "RATHER_NOT_REACHED_EN", "REACH_ME_EN"]

_CONFIDENCE = 0.75

# When the speaker takes no meetings, asked of the team: "please don't schedule meetings before 10 for
# me", "no calls after 5pm for me", "don't book me on Fridays".
_NO_MEETINGS_EN = regex(
    r"^\W*(?:(?:please|pls|plz|btw|fyi|also)\W+)*(?:(?:don't|do\s+not)\s+(?:schedule|book|put)\s+"
    r"(?:me\s+(?:in\s+)?)?(?:any\s+)?(?P<what>meetings|calls|syncs|standups|anything)?|no\s+(?P<what2>meetings|calls|syncs))"
    r"\s*(?:with\s+me\s+)?(?P<object>(?:before|after|on|at|during)\s+[^,;:!?.]+?)(?:\s+for\s+me)?(?:\s+(?:please|pls|plz))?\s*$"
)
_NO_MEETINGS_FR = regex(
    r"^\W*(?:(?:svp|stp|merci|aussi)\W+)*(?:pas\s+de|aucune?)\s+(?P<what>réunions?|calls?|appels?|visios?)\s+"
    r"(?P<object>(?:avant|après|le|les|entre)\s+[^,;:!?.]+?)(?:\s+pour\s+moi)(?:\s+(?:svp|stp|merci))?\s*$"
)
_ME = regex(r"\bme\b")
# A reason the speaker gives next says whose the rule is: "..., I do school drop-off".
_MY_REASON = regex(r"^(?:i|i'm|i've|i'll|i'd)\b")


def _no_meetings_en(hit: Hit) -> Item | None:
    """ "Mickael takes no meetings before 10", asked of the team for the speaker (a "for me", a "me"
    or a reason of the speaker's next says whose; "no meetings on Fridays" alone is the team's rule)."""
    if not _ME.search(hit.clause.text) and not _MY_REASON.match(hit.clause.after):
        return None
    what = (hit.match.group("what") or hit.match.group("what2") or "meetings").lower()
    what = "meetings" if what == "anything" else what
    content = f"{hit.speaker} takes no {what} {hit.phrase}"
    return Item(content, MemoryType.PREFERENCE, hit.confidence(_CONFIDENCE), [what, hit.phrase])


def _no_meetings_fr(hit: Hit) -> Item:
    """ "Mickael ne prend pas de réunion avant 10h", asked for the speaker ("pour moi")."""
    what = hit.words("what").lower()
    de = "d'" if what[0] in "aeiouéè" else "de "
    return Item(
        f"{hit.speaker} ne prend pas {de}{what} {hit.phrase}",
        MemoryType.PREFERENCE,
        hit.confidence(_CONFIDENCE),
        [what, hit.phrase],
    )


# How the speaker wants to be reached, or not: "please don't ping me before 10am", "don't DM me about
# prod issues", "I'd rather not be tagged in #random".
_DO_NOT_REACH_EN = regex(
    r"^\W*(?:(?:please|pls|plz|kindly)\s+)?(?:don't|dont|do\s+not|never)\s+(?P<verb>ping|dm|tag|@|message|msg|call|"
    r"text|email|e-mail|mention|page|wake|cc)\s+me\b(?P<object>[^,;.!?]*)"
)
_RATHER_NOT_REACHED_EN = regex(
    r"\bi(?:'d|\s+would)\s+(?:rather|prefer)\s+(?:not\s+(?:to\s+)?be|to\s+not\s+be)\s+(?P<verb>pinged|dm'?e?d|tagged|"
    r"messaged|called|texted|e-?mailed|mentioned|paged|cc'?e?d|woken\s+up)\b(?P<object>[^,;.!?]*)"
)
_REACHED_EN = {
    "ping": "pinged", "dm": "DMed", "tag": "tagged", "@": "tagged", "message": "messaged", "msg": "messaged",
    "call": "called", "text": "texted", "email": "emailed", "e-mail": "emailed", "mention": "mentioned",
    "page": "paged", "wake": "woken", "cc": "CCed",
}  # fmt: skip


def _not_reached_en(hit: Hit) -> Item | None:
    """ "Mickael asked not to be pinged before 10am" ("don't ping me ..."), "Mickael would rather not
    be tagged in #random" ("I'd rather not be tagged ...")."""
    said_verb = hit.words("verb")
    asked = said_verb.lower() in _REACHED_EN
    verb = _REACHED_EN[said_verb.lower()] if asked else said_verb
    said = " ".join(hit.third(trim_phrase(hit.group("object")), named=True).split())
    if asked and said.lower() in ("that", "this", "it", "out", "back"):
        return None  # "don't call me that": what "that" was is not in the message
    wish = "asked not to be" if asked else "would rather not be"
    content = " ".join(f"{hit.speaker} {wish} {verb} {said}".split())
    return Item(content, MemoryType.PREFERENCE, hit.confidence(0.7), [verb, said or verb])


# How the speaker wants to be reached: "text me if it's urgent", "ping me on Slack rather than
# email", "please use my personal email for anything urgent", "the best way to reach me is Signal".
# A way (on, via, at my ...) or a standing condition (if it's urgent, only for sev1), not a one-off
# ("call me at 5", "text me when you get there", "DM me if you need anything"), nor a name ("call me
# Zed").
_REACH_VERB_EN = r"ping|dm|text|call|phone|email|e-mail|message|msg|page|reach|contact"
_REACH_ME_EN = regex(
    r"^\W*(?:(?:please|pls|plz|just|also|btw|fyi|so)\W+)*"
    r"(?:(?P<cond_first>(?:for|if|in\s+case\s+of|in)\s+(?:anything\s+|something\s+|an?\s+)?(?:urgent|emergenc(?:y|ies)|"
    r"sev\s*[0-9]|outages?|incidents?)[^,;]*?),\s*)?"
    r"(?:(?:you\s+can|u\s+can|best\s+to|better\s+to|always)\s+)?"
    rf"(?:(?P<verb>{_REACH_VERB_EN})\s+me|(?P<use>use)|(?P<verb_my>{_REACH_VERB_EN}))"
    r"(?(use)\s+(?=my\b)|(?(verb_my)\s+(?=my\b)|\b))"
    r"(?P<object>(?:\s*(?:on|via|through|over|at|by|using)\s+|\s*(?:my|only|if|when|whenever|for|in\s+case|in\s+an?|"
    r"rather|instead|anytime)\b)[^;!?]*)$"
    # "the best way to reach me is Signal"
    r"|^\W*(?:the\s+)?(?:best|easiest|fastest|quickest)\s+way\s+to\s+(?P<best>reach|contact|get\s+(?:hold\s+of|in\s+touch\s+with)|ping)"
    r"\s+me\s+(?:is|would\s+be)\s+(?P<way>[^,;!?]+?)\s*$"
)
# A one-off or an offer: "if you need anything", "when you get there", "at 5", "in 10 minutes".
_ONE_OFF_EN = regex(
    r"\b(?:you|u|ya|tomorrow|tonight|today|later|back|asap|now)\b|\x00|^\s*(?:at|in|by)\s+(?!my\b|\S+@\S)"
    r"|^\s*on\s+(?:here|there|it|that|this)\b|^\s*for\s+(?:the|a|an|that|this|it|details|more|info|a\s+link)\b"
)
_REACHED_AS_EN = {
    **_REACHED_EN, "phone": "phoned", "reach": "reached", "contact": "contacted", "use": "reached",
}  # fmt: skip


def _reach_me_en(hit: Hit) -> Item | None:
    """ "Mickael wants to be texted if it's urgent", "Mickael wants to be reached on their personal
    email for anything urgent", "The best way to reach Mickael is Signal"."""
    if hit.group("best"):
        way = " ".join(hit.group("way").split())
        if _ONE_OFF_EN.search(way):
            return None
        content = f"The best way to reach {hit.speaker} is {hit.third(way)}"
        return Item(content, MemoryType.PREFERENCE, hit.confidence(0.7), ["reach", way])
    said = " ".join(hit.group("object").split())
    if _ONE_OFF_EN.search(said):
        return None
    verb = (hit.group("verb") or hit.group("verb_my") or hit.group("use")).lower()
    if said.lower().startswith("my "):
        said = "on " + said  # "call my cell": "be called on their cell"
    first = hit.group("cond_first")
    how = " ".join(f"{said} {first}".split())
    content = f"{hit.speaker} wants to be {_REACHED_AS_EN[verb]} {hit.third(how)}"
    return Item(content, MemoryType.PREFERENCE, hit.confidence(0.7), [_REACHED_AS_EN[verb], how])


NO_MEETINGS_EN = Rule(_NO_MEETINGS_EN, _no_meetings_en, french=False, check_object=False)
NO_MEETINGS_FR = Rule(_NO_MEETINGS_FR, _no_meetings_fr, french=True, check_object=False)
DO_NOT_REACH_EN = Rule(_DO_NOT_REACH_EN, _not_reached_en, french=False, object_groups=())
RATHER_NOT_REACHED_EN = Rule(_RATHER_NOT_REACHED_EN, _not_reached_en, french=False, object_groups=())
REACH_ME_EN = Rule(_REACH_ME_EN, _reach_me_en, french=False, object_groups=())
