"""Rules for explicit requests: "remember that ...", "don't forget to ...", "n'oublie pas que ..."."""

from __future__ import annotations

from memory.models import MemoryType

from ..dates import DATE_SLOT
from ..facts import Predicate
from ..normalize import regex
from ..phrases import TO_THE_LISTENER
from ..rewrite import capitalize_first
from .base import OBJECT, Clause, Hit, Item, OneOf, Rule

__all__ = ["REQUESTS", "asks_to_forget"]

_CONFIDENCE = 0.9  # asked in so many words
_MAX_LEAD_CHARS = 100

# Only polite or vocative lead-ins may precede a request: "I remember that ..." is reminiscing, not a request.
_REQUEST_LEAD = regex(
    r"[\W\d_]+|(?:please|pls|plz|kindly|hey|hi|hello|ok|okay|so|also|and|btw|oh|just|bot|"
    r"(?:can|could|would|will)\s+you(?:\s+please)?|i\s+(?:want|need)\s+you\s+to|i'd\s+like\s+you\s+to|"
    r"you\s+should|make\s+sure\s+(?:to|you)|try\s+to|stp|svp|s'il\s+(?:te|vous)\s+pla[iî]t|peux-tu|"
    r"tu\s+peux|pourrais-tu|tu\s+pourrais|pouvez-vous|vous\s+pouvez|merci\s+de|hé|au\s+fait|bon|alors|"
    r"et|est-ce\s+que\s+tu\s+peux|bien)(?![\w'])"
)
_REMEMBER_EN = regex(
    r"\b(?:(?:remember|keep\s+in\s+mind|bear\s+in\s+mind|don't\s+forget|do\s+not\s+forget|never\s+forget|"
    r"memori[sz]e)(?:\s+that\b|\s+this\b)?|(?:note|make\s+a\s+note|take\s+note|write\s+down|save)\s+"
    r"(?:that\b|this\s*:)|note(?:\s+to\s+self)?\s*:|note\s+to\s+self\b"
    # a correction is said to be kept in place of what it corrects: "correction: the offsite is in
    # Porto, not Lisbon", "scratch that, the demo is Thursday"
    r"|correction\s*:|(?:actually\s+)?scratch\s+that\s*[,:!.-])\s*[:,-]?\s*" + OBJECT
)
_CORRECTION_EN = regex(r"\W*(?:correction|(?:actually\s+)?scratch\s+that)\b")
_REMEMBER_TODO_EN = regex(
    rf"\b(?:(?:remember|don't\s+forget|do\s+not\s+forget|(?:don't|do\s+not)\s+let\s+me\s+forget|"
    rf"remind\s+me(?:\s+{DATE_SLOT})?)\s+to\s+"
    # a list's heading: "todo: email the landlord", "to-do - renew the passport", "reminder to self:
    # renew the passport"
    r"|^\W*(?:todo|to-do|to\s+do|reminder\s+(?:to|for)\s+(?:self|myself|me))\s*[:-]\s*)" + OBJECT
)
_REMEMBER_FR = regex(
    r"\b(?:n'oublie\s+pas|n'oubliez\s+pas|souviens-toi|souvenez-vous|rappelle-toi|rappelez-vous|retiens|"
    r"retenez|retenir|note|notez|noter|mémorise|mémorisez|mémoriser|garde\s+en\s+(?:tête|mémoire)|"
    r"gardez\s+en\s+(?:tête|mémoire)|enregistre)(?:\s+bien)?\s*(?:que\s+|qu'|:\s*)" + OBJECT
)
_REMEMBER_TODO_FR = regex(
    r"\b(?:n'oublie\s+pas|n'oubliez\s+pas|rappelle-moi|rappelez-moi)\s+(?:de\s+|d')" + OBJECT
)
# "remember when ...", "tu te souviens comment ...": recalling together, nothing to store.
_REMINISCE = regex(r"^(?:when|how|the\s+time|me\b|quand|comment|la\s+fois)")
_ONLY_A_POINTER = regex(r"\s*(?:that|this|it|ça|cela|ceci)\W*")


# "It's crucial to find some peace and remember life's beauty": the verb joins an infinitive said
# before it, a thought about remembering, not a request.
_JOINS_AN_INFINITIVE = regex(r"\bto\s+[\w'-]+(?:\s+[\w'-]+)*\s+(?:and|or)\s*$")


def _is_request(clause: Clause, start: int) -> bool:
    """Whether only polite or vocative words come before the request at `start`."""
    if not clause.french and _JOINS_AN_INFINITIVE.search(clause.before):
        return False
    prefix = clause.text[:start].strip()
    if len(prefix) > _MAX_LEAD_CHARS:
        return False
    if not prefix or prefix.endswith(","):
        return True
    position = 0
    while position < len(prefix):  # a loop of single matches: a starred regex would backtrack exponentially
        lead = _REQUEST_LEAD.match(prefix, position)
        if not lead or lead.end() == position:
            return False
        position = lead.end()
    return True


def _reminder(hit: Hit) -> Item | None:
    if TO_THE_LISTENER.search(hit.phrase):
        return None  # "just remember to take care of yourself": advice to whoever is addressed
    body = hit.third(hit.phrase)
    content = f"Rappel pour {hit.speaker} : {body}" if hit.french else f"Reminder for {hit.speaker}: {body}"
    return Item(content, MemoryType.TODO, _CONFIDENCE, [hit.phrase], predicate=Predicate.TODO, object=body)


# A task noted for oneself: "note to self, buy milk", "note: renew the passport" (after "remember
# that", "call" is a noun: "remember that call was rough").
_NOTED_EN = regex(r"note\b")
_TASK_START_EN = regex(
    r"^(?:buy|call|email|e-mail|text|book|pay|send|finish|pick\s+up|get|renew|cancel|check|order|return|"
    r"schedule|submit|reply|ask|fix|clean|water|feed|bring|print|sign|update|backup|back\s+up)\b"
)


def _remembered(hit: Hit) -> list[Item] | None:
    """What the speaker asked to remember, read by the statement rules; as said when none fits, and
    as a reminder when it is a task ("note to self, buy milk")."""
    if _REMINISCE.match(hit.phrase) or _ONLY_A_POINTER.fullmatch(hit.phrase):
        return None  # "remember when ...", "I'd like you to remember that": nothing said to keep
    if not hit.french and _NOTED_EN.match(hit.match.group(0)) and _TASK_START_EN.match(hit.phrase):
        reminder = _reminder(hit)
        return [reminder] if reminder is not None else None
    inner = Clause(hit.phrase, hit.phrase, "", hit.french, hit.clause.past, hit.clause.dates)
    items = hit.reread(inner)
    if not items:
        if TO_THE_LISTENER.search(hit.phrase):
            return None
        if hit.clause.dates and _CORRECTION_EN.match(hit.match.group(0)):
            return None  # "scratch that, the meeting is Thursday": the dated event's, as if said plainly
        return [
            Item(
                capitalize_first(hit.third(hit.phrase, named=False)),
                MemoryType.FACT,
                _CONFIDENCE,
                [hit.phrase],
            )
        ]
    for item in items:
        item.confidence = max(item.confidence, _CONFIDENCE)
    return items


# "forget that I live in Paris", "oublie que ma sœur habite à Lyon": what follows is to be forgotten,
# never learned ("don't forget that ..." is a request to remember, read above).
_FORGET_EN = regex(
    r"\b(?<!don't\s)(?<!not\s)(?:forget|disregard|ignore|delete|erase)\s+(?:that|about(?!\s+it\b)|what|the\s+part)\b"
)
_FORGET_FR = regex(
    r"\b(?<!n')(?:oublie|oubliez|efface|effacez|supprime|supprimez)\s+(?:que|qu'|ce\s+que|le\s+fait)"
)


def asks_to_forget(clause: Clause) -> bool:
    """Whether `clause` asks the bot to forget something ("please forget that I live in Paris")."""
    found = _FORGET_EN.search(clause.text) or _FORGET_FR.search(clause.text)
    return found is not None and _is_request(clause, found.start())


def _forgotten(hit: Hit) -> list[Item]:
    """Nothing: the request itself is what `/memory forget` is for, and its words teach nothing."""
    return []


# A request to forget first (it reads nothing), then a reminder to do something, then "remember
# that <statement>".
REQUESTS = OneOf(
    (
        Rule(_FORGET_EN, _forgotten, french=False, guard=_is_request, object_groups=()),
        Rule(_FORGET_FR, _forgotten, french=True, guard=_is_request, object_groups=()),
        Rule(_REMEMBER_TODO_EN, _reminder, french=False, guard=_is_request),
        Rule(_REMEMBER_TODO_FR, _reminder, french=True, guard=_is_request),
        Rule(_REMEMBER_EN, _remembered, french=False, guard=_is_request, check_object=False),
        Rule(_REMEMBER_FR, _remembered, french=True, guard=_is_request, check_object=False),
    )
)
