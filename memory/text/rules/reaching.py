"""Rules for when and how the speaker wants to be reached: "no meetings before 10 for me", "don't DM me
about prod issues", "I'd rather not be tagged in #random"."""

from __future__ import annotations

from memory.models import MemoryType

from ..normalize import regex
from ..phrases import trim_phrase
from .base import Hit, Item, Rule

__all__ = ["DO_NOT_REACH_EN", "NO_MEETINGS_EN", "NO_MEETINGS_FR", "RATHER_NOT_REACHED_EN"]

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


NO_MEETINGS_EN = Rule(_NO_MEETINGS_EN, _no_meetings_en, french=False, check_object=False)
NO_MEETINGS_FR = Rule(_NO_MEETINGS_FR, _no_meetings_fr, french=True, check_object=False)
DO_NOT_REACH_EN = Rule(_DO_NOT_REACH_EN, _not_reached_en, french=False, object_groups=())
RATHER_NOT_REACHED_EN = Rule(_RATHER_NOT_REACHED_EN, _not_reached_en, french=False, object_groups=())
