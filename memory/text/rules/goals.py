"""Rules for goals: "I want to ...", "I'm training for ...", "my goal is to ...", "je voudrais ..."."""

from __future__ import annotations

from memory.models import MemoryType

from ..dates import DATE_SLOT
from ..facts import Predicate
from ..normalize import regex
from ..phrases import up_to_the_next_clause
from ..rewrite import article_fr, capitalize_first, of_fr, possessive_en, third_person_fr
from .base import OBJECT, Hit, Item, Rule

__all__ = ["GOALS"]

_CONFIDENCE = 0.7

_WANT_EN = regex(
    r"\bi(?:\s+|(?='))(?:really\s+|also\s+|still\s+|seriously\s+|eventually\s+|finally\s+|one\s+day\s+|"
    r"someday\s+|definitely\s+)*(?P<verb>want\s+to|wanna|plan\s+to|intend\s+to|hope\s+to|aim\s+to|"
    # "I've always wanted to go to Japan"
    r"(?:'ve|have)\s+(?:always\s+|long\s+|really\s+)?wanted\s+to|"
    r"dream\s+of|dream\s+about|would\s+(?:really\s+)?(?:like|love)\s+to|'d\s+(?:really\s+)?(?:like|love)\s+to|"
    r"(?:am|'m|'ve\s+been|have\s+been)\s+(?:really\s+|still\s+|currently\s+)?(?:trying\s+to|planning\s+to|planning\s+on|aiming\s+to|"
    r"aiming\s+for|hoping\s+to|working\s+towards?|saving\s+(?:up\s+)?for|learning|training\s+for)|"
    r"want\s+(?=(?:a|an|my|some)\s))\s*" + OBJECT
)
_THIRD_PERSON_EN = {
    "want to": "wants to", "wanna": "wants to", "plan to": "plans to", "intend to": "intends to",
    "hope to": "hopes to", "aim to": "aims to", "dream of": "dreams of", "dream about": "dreams about",
    "want": "wants",
}  # fmt: skip
# "I want to say ...", "I'd like to ask ...": conversation, not an aim.
_NOT_GOAL_VERBS_EN = frozenset(
    """
    say tell ask know see check thank mention add point clarify understand help apologize apologise confirm
    let share remind figure remember sleep sure have hear talk
    die cry scream puke vomit disappear nap rest
    """.split()
)
_NOT_A_GOAL_EN = regex(
    r"^(?:go\s+(?:to\s+bed|home|to\s+sleep|now|back)|be\s+(?:honest|clear|sure|fair|careful)|a\s+lot|"
    r"a\s+bit|so\s+much|much|more|something|nothing|things|stuff)\b"
)
# A plan for the speaker's life, told as what is coming: "I'm going to open a bakery", "I'm gonna
# take a shot at starting my own business", "I'm thinking of starting a podcast", "I'm starting a
# dance studio". Only such undertakings: "I'm going to check", "I'm gonna go to bed" are chat.
_UNDERTAKING_EN = (
    r"(?:start|open|launch|found|build|create|write|publish|learn|study|move|buy|adopt|quit|apply|run(?:ning)?(?=\s+(?:a|an|my|for)\s)|"
    r"train|become|join|switch|change|sell|get\s+(?:married|engaged|a\s+(?:degree|dog|cat|puppy|house|job))|"
    r"go(?:ing)?\s+back\s+to\s+(?:school|college|university|uni)|retire|travel)"
)
_PLAN_EN = regex(
    r"\b(?:i(?:'m|\s+am|'ve\s+been|\s+have\s+been)|(?P<we>we(?:'re|\s+are|'ve\s+been|\s+have\s+been)))\s+"
    r"(?:(?:really|also|finally|actually|seriously|definitely)\s+)*"
    r"(?P<verb>(?:going\s+to|gonna)(?:\s+(?:try\s+to|take\s+a\s+shot\s+at|try))?|thinking\s+(?:of|about)|"
    r"considering)\s+(?P<object>(?:"
    + _UNDERTAKING_EN
    + r")(?:ing)?\b.*|(?:moving|writing|becoming|retiring|changing|creating|"
    r"getting\s+(?:married|engaged|(?:a|an|another|my\s+own)\s+(?:(?:second|third|new|bigger|first|little)\s+)?"
    r"(?:degree|dog|cat|puppy|kitten|turtle|pet|house|car|job|tattoo|bike|place|apartment|motorcycle))|"
    r"having\s+(?:a\s+baby|kids))\b.*)"
    # "I'm starting a dance studio", "I'm opening a bakery": an undertaking under way.
    r"|\bi(?:'m|\s+am)\s+(?:(?:finally|also|actually|officially)\s+)*(?P<doing>(?:starting|opening|launching|"
    r"founding|building)\s+(?:a|an|my|our)\s+(?:own\s+)?.*)"
)
# A move to come, or work on the home under way, told without its day: "I'm moving to Berlin",
# "we're relocating back to Ohio in the spring", "we're renovating our kitchen" (with a day it is a
# dated event: rules/dated_events.py).
_UNDER_WAY_EN = regex(
    r"\b(?P<who>i(?:'m|\s+am)|we(?:'re|\s+are))\s+(?:(?:finally|also|actually|officially|probably|definitely)\s+)*"
    r"(?P<doing>(?:moving|relocating)\s+(?:back\s+)?(?:to|abroad|overseas|out\s+of|in\s+with|home)\b.*"
    # "we're renovating our kitchen": work on the home under way
    r"|(?:renovating|remodell?ing|redoing|redecorating|rebuilding|repainting)\s+(?:our|my|the)\s+(?:[\w-]+\s+)?"
    r"(?:kitchen|bathroom|house|home|apartment|flat|garden|yard|basement|attic|bedroom|living\s+room|deck|patio|"
    r"roof|garage|place|office|nursery)\b.*"
    # "I'm applying to counseling programs", "we're applying for a mortgage": a step towards it
    r"|(?:applying|interviewing)\s+(?:to|for|at|with)\s+(?!(?:it|this|that|them|you)\b).*"
    # "I'm looking for a new job", "we're looking for a bigger place": what one is out to find
    r"|looking\s+for\s+(?:a|an)\s+(?:new\s+|bigger\s+|cheaper\s+|remote\s+|full-time\s+|part-time\s+)?(?:job|role|position|"
    r"apartment|flat|place|house|home|roommate|internship|co-?founder|therapist|babysitter|nanny)\b.*"
    # "I'm training to be a pilot": a job to come
    r"|training\s+to\s+(?:be(?:come)?)\s+(?:an?\s+)?[\w-]+.*"
    # "I'm going back to school for nursing in the fall": studies to come
    r"|going\s+back\s+to\s+(?:school|college|uni|university|grad\s+school)\b.*"
    # "I'm switching teams at work", "we're switching to Linear": a change under way
    r"|switching\s+(?:teams|jobs|careers|roles|departments|schools|majors|to\s+(?!(?:it|this|that)\b))\b.*)"
)
# Moves in a conversation or a piece of work, not a home: "moving to the next topic", "to step 2".
_NOT_A_HOME_EN = regex(
    r"^(?:(?:back\s+)?to|on\s+to)\s+(?:(?:the|a|an|this|that|our|my)\s+)?(?:(?:next|other|another|different|new|following|"
    r"last|final)\s+)?(?:topic|point|question|section|item|slide|thread|channel|step|phase|page|stage|part|"
    r"agenda|discussion|conversation|room|tab|branch|ticket|task|issue|one|thing|it|this|that)\b"
)
_PLAN_FR = regex(
    r"\b(?P<head>je\s+(?:vais|pense|songe\s+à|réfléchis\s+à|envisage\s+d(?:e\s+|'))|j'envisage\s+d(?:e\s+|'))\s*"
    r"(?P<object>(?:ouvrir|lancer|créer|monter|fonder|écrire|publier|apprendre|étudier|déménager|acheter|adopter|"
    r"quitter|commencer|devenir|rejoindre|changer\s+de|reprendre\s+(?:mes|les)\s+études|me\s+lancer)\b.*)"
)
_MY_GOAL_EN = regex(
    r"\bmy\s+(?:(?:main|big|biggest|long[- ]term|short[- ]term|personal|new|current|only|ultimate|next|"
    r"real|true)\s+)*(?P<new_year>new\s+year(?:'s|s)?\s+)?(?P<what>goal|goals|objective|aim|plan|dream|ambition|resolution|target|mission)\s+"
    # "for next year", "this year" (a date's placeholder by now): kept, it says when
    rf"(?P<when>for\s+[^,]{{1,30}}?\s+|{DATE_SLOT}\s+)?(?P<be>is|are|was)\s+(?P<to>to\s+)?" + OBJECT
)
_WANT_FR = regex(
    r"\b(?P<head>je\s+(?:veux|voudrais|souhaite|souhaiterais|compte|prévois\s+d(?:e\s+|')|"
    r"vais\s+essayer\s+d(?:e\s+|')|essaie\s+d(?:e\s+|')|essaye\s+d(?:e\s+|')|rêve\s+d(?:e\s+|')|"
    r"projette\s+d(?:e\s+|')|cherche\s+à|m'entraîne\s+pour|apprends|travaille\s+sur)|"
    r"j'(?:aimerais|espère|ai\s+l'intention\s+d(?:e\s+|')|ai\s+pour\s+objectif\s+d(?:e\s+|')|apprends|"
    r"économise\s+pour))\s*" + OBJECT
)
_NOT_GOAL_VERBS_FR = frozenset(
    "sur dire bien savoir pas juste que qu' te vous t' ça voir demander remercier préciser vérifier "
    "comprendre "
    "parler rien "
    # what one wants right now, or says for effect ("je veux mourir"), is no aim
    "dormir mourir pleurer crier vomir disparaître".split()
)
_MY_GOAL_FR = regex(
    r"\b(?P<poss>mon|ma|mes)\s+(?:(?:grand|principal|nouvel|nouveau|vrai|seul|plus\s+grand)\s+)?"
    r"(?P<what>objectif|but|rêve|projet|ambition|résolution|défi|objectifs|buts|rêves|projets)\s+"
    rf"(?:principal\s+)?(?P<when>pour\s+[^,]{{1,30}}?\s+|{DATE_SLOT}\s+)?(?:est|c'est|sont|,\s*c'est)\s+"
    r"(?P<de>de\s+|d')?" + OBJECT
)


def _goal(hit: Hit, content: str, aim: str, keys: list[str]) -> Item:
    confidence = hit.confidence(_CONFIDENCE)
    return Item(content, MemoryType.GOAL, confidence, keys, predicate=Predicate.GOAL, object=aim)


def _wants_en(hit: Hit) -> Item | None:
    if _NOT_A_GOAL_EN.match(hit.phrase):
        return None
    verb = hit.words("verb").lower()
    if verb.startswith(("'m", "am")):
        third = "is " + verb.split(" ", 1)[1]
    elif verb.startswith(("'ve ", "have ")):
        third = "has " + verb.split(" ", 1)[1]  # "has been trying to", "has always wanted to"
    elif verb.startswith(("'d", "would")):
        third = "would " + verb.split(" ", 1)[1].replace("really ", "")
    else:
        third = _THIRD_PERSON_EN[verb]
    aim = hit.third(hit.phrase)
    return _goal(hit, f"{hit.speaker} {third} {aim}", aim, [hit.phrase])


def _plans_en(hit: Hit) -> Item | None:
    """ "I'm going to open a bakery" -> "Mickael is going to open a bakery"; "I'm starting a dance
    studio" -> "Mickael is starting a dance studio"."""
    said = hit.group("doing") or hit.group("object")
    if not said:
        return None
    verb = " ".join(hit.words("verb").lower().replace("gonna", "going to").split())
    plan = up_to_the_next_clause(hit.phrase)  # "a dance studio 'cause I love dancing"
    aim = hit.third(plan)
    who = f"{hit.speaker} and others are" if hit.group("we") else f"{hit.speaker} is"
    content = f"{who} {verb + ' ' if verb else ''}{aim}"
    return _goal(hit, content, aim, [plan])


def _under_way_en(hit: Hit) -> Item | None:
    """ "I'm moving to Berlin" -> "Mickael is moving to Berlin"."""
    if "\x00" in hit.clause.text:
        return None  # "I'm moving to Berlin next month" is an event on its day
    plan = up_to_the_next_clause(hit.phrase)
    if _NOT_A_HOME_EN.match(plan.removeprefix("moving ").removeprefix("relocating ")):
        return None
    content = capitalize_first(hit.third(f"{hit.words('who')} {plan}", named=False))
    return _goal(hit, content, hit.third(plan), [plan])


def _plans_fr(hit: Hit) -> Item:
    """ "je vais ouvrir une boulangerie" -> "Mickael va ouvrir une boulangerie"."""
    plan = up_to_the_next_clause(hit.phrase)
    head = hit.words("head")
    glue = "" if head.endswith("'") else " "
    content = third_person_fr(f"{head}{glue}{plan}", hit.speaker)
    return _goal(hit, content, hit.third(plan), [plan])


def _my_goal_en(hit: Hit) -> Item:
    to = "to " if hit.group("to") else ""
    what = hit.group("what").lower()
    if hit.group("new_year"):
        what = f"New Year's {what}"
    if hit.group("when"):
        what = f"{what} {hit.group('when').strip()}"
    goal = f"{possessive_en(hit.speaker)} {what} {hit.group('be').lower()} {to}"
    aim = hit.third(hit.phrase)
    return _goal(hit, goal + aim, aim, [hit.phrase])


def _wants_fr(hit: Hit) -> Item:
    head = hit.words("head")
    glue = "" if head.endswith("'") else " "
    # The verb is conjugated with the rest: "je voudrais" -> "Mickael voudrait".
    content = third_person_fr(f"{head}{glue}{hit.phrase}", hit.speaker)
    return _goal(hit, content, hit.third(hit.phrase), [hit.phrase])


def _my_goal_fr(hit: Hit) -> Item:
    possessive, what = hit.group("poss").lower(), hit.group("what")
    verb = "sont" if possessive == "mes" else "est"
    de = hit.group("de").strip()
    de = de + ("" if de.endswith("'") or not de else " ")
    when = f"{hit.group('when').strip()} " if hit.group("when") else ""
    goal = f"{article_fr(possessive, what)}{what} {of_fr(hit.speaker)} {when}{verb} {de}"
    aim = hit.third(hit.phrase)
    return _goal(hit, capitalize_first(goal + aim), aim, [what, hit.phrase])


GOALS = (
    Rule(_WANT_EN, _wants_en, french=False, not_objects=_NOT_GOAL_VERBS_EN),
    Rule(_MY_GOAL_EN, _my_goal_en, french=False),
    Rule(_PLAN_EN, _plans_en, french=False, object_groups=("object", "doing")),
    Rule(_UNDER_WAY_EN, _under_way_en, french=False, object_groups=("doing",)),
    Rule(_WANT_FR, _wants_fr, french=True, not_objects=_NOT_GOAL_VERBS_FR),
    Rule(_PLAN_FR, _plans_fr, french=True),
    Rule(_MY_GOAL_FR, _my_goal_fr, french=True),
)
