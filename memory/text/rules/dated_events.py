"""The rule for dated plans and news: a clause with a date and a word that makes it an event ("my exam
is on 3 June", "I'm flying to Rome on Friday"), tried when no other rule found anything in it."""

from __future__ import annotations

import dataclasses

from memory.models import MemoryType

from ..dates import DATE_SLOT, PLACEHOLDER
from ..facts import Predicate
from ..normalize import regex
from ..phrases import trim_phrase, without_the_listener
from ..rewrite import capitalize_first
from ..sentences import strip_filler
from .base import Hit, Item, Rule, asserted_in_clause

__all__ = ["DATED_CONFIDENCE", "DATED_EVENT"]

DATED_CONFIDENCE = 0.6

# Words that make a dated clause an event: "my exam is on 3 June", "I'm flying to Rome on Friday".
_EVENT_CUE = regex(
    r"\b(?:exams?|tests?|interview|meeting|appointment|flight|trip|holidays?|vacation|party|birthday|wedding|"
    r"launch|release|demo|presentation|conference|concert|surgery|operation|call|dinner|lunch|match|game|"
    r"review|standup|retro|workshop|webinar|hackathon|ceremony|funeral|graduation|show|festival|session|"
    r"class|lesson|course|training|onboarding|kick-?off|appt|examen|partiel|contrôle|entretien|réunion|"
    r"rendez-vous|rdv|vol|voyage|vacances|fête|soirée|anniversaire|mariage|lancement|démo|présentation|"
    r"conférence|opération|appel|dîner|déjeuner|atelier|séminaire|cérémonie|soutenance|cours|formation|"
    r"déménagement|opérer|opérée?|accouche|accoucher|accouchement|dentiste|médecin|restaurant|resto|réservation|réservée?|reservation|dentist|doctor|doctor's|gp|vet|haircut|hairdresser|optician|therapy|therapist|married|engaged|baby|due\s+date|deploy|deployment|migration|maintenance|"
    r"outage|day\s+off|(?:mental\s+health|sick|personal|duvet)\s+day|time\s+off|off\s+work|out\s+of\s+(?:the\s+)?office|ooo|pto|mariage|congé|anniversary|permis|"
    # "je suis en arrêt maladie jusqu'à vendredi"
    r"arrêt\s+maladie|en\s+arrêt|"
    r"housewarming|closing|raid(?:ing)?|scrims?|stream(?:ing)?|tourney|tournament|lan\s+party|playoffs?|1:1|one-on-one|1-on-1|"
    r"gig|recital|open\s+mic|performing|playing\s+at|hosting|presenting|defending|quitting|speaking\s+at|deadline|(?:switching|changing|moving)\s+(?:teams?|jobs?|roles?|to\s+(?:the|a|an|our)\s+(?:[\w&-]+\s+){0,3}?"
    r"(?:team|squad|department|org|group|role|position))|new\s+(?:job|role|position)|book\s+club|meetup|get-together|bbq|barbecue|"
    r"picnic|brunch|potluck|sleepover|playdate|one-?shot|d&d|dnd|game\s+night|campaign|farewell|send-?off|going-?away|leaving\s+(?:do|drinks|party)|(?<![\w-])(?:grand\s+)?opening|premiere|debut|wisdom\s+teeth|lease|"
    r"move-?in|move-?out|taking\s+(?:\S+\s+){1,3}off|"
    # days spent somewhere or with someone: "we're spending Thanksgiving with my sister", "ma
    # belle-mère vient passer Noël chez nous", "on a passé Noël en Bretagne"
    r"spent|spending|(?:vien(?:t|nent)|va|vont)\s+passer|vien(?:t|nent)(?=\s+(?:pour\s+|à\s+|le\s+|en\s+)?\x00)|(?:vien(?:t|nent)|va|vont)\s+(?:nous|me)\s+voir|pass(?:é|er|ons|erons)(?=\s+\x00)|"
    # a defense, a check-up, a race, a document's end: "my passport expires in February"
    r"defen[cs]e|defended|root\s+canal|(?:a|my|the|new)\s+(?:crown|filling|implant)|fillings|braces|closes|thesis|dissertation|viva|audition|tryouts?|check-?up|physio|vaccine|booster|race|marathon|"
    r"triathlon|exhibition|court\s+date|hearing|jury\s+duty|expires|expiring|expiry|runs\s+out|renews|renewal|contract|"
    r"post-?mortem|expire|contrat|thèse|absente?|en\s+déplacement|adopting|adopte|adopter|"
    r"follow-?up|scan|mri|x-?ray|ultrasound|blood\s+(?:test|work)|biopsy|chemo|infusion|on\s+leave|wfh|heads\s+down|"
    r"work(?:ing)?\s+(?:from\s+home|remotely)|télétravail|sprint|hard\s+stop|"
    r"school\s+play|nativity|talent\s+show|sports\s+day|parent-?teacher|field\s+trip|"
    r"offsite|off-site|all-hands|town\s*hall|sync|catch-?up|planning|code\s+freeze|freeze|closed|on\s+call|on-call|"
    # a team's dated work: "we're deprecating the v1 API on March 31", "the cutover is Sunday night"
    r"deprecat(?:e|es|ing|ed)|sunset(?:ting)?|shipping|releasing|launching|migrating|rolling\s+out|go(?:es|ing)?\s+live|"
    r"go-live|cut-?over|upgrading|taking\s+over|frozen|hiring\s+freeze|new\s+hires|leaving|renovat(?:ing|ions?)|"
    # shifts: "starting March 3 I'm on nights"
    r"on\s+(?:nights|earlies|lates|the\s+night\s+shift)|night\s+shifts?|"
    # work done on a home: "we're getting the kitchen redone next month"
    r"redone|remodel(?:l?ing|l?ed)?|refurb(?:ished|ishing|ishment)?|(?:re)?paint(?:ed|ing)\s+(?:the|our|my)\s+(?:\w+\s+)?(?:house|flat|"
    r"apartment|kitchen|bathroom|bedroom|living\s+room|nursery|hallway|fence|deck|porch|garage|shed|walls)|"
    # an age reached, a rent raised: "turning 33 in March", "our landlord is raising the rent in February"
    r"turn(?:s|ing)\s+\d{1,3}|(?:rais(?:es|ing)|increas(?:es|ing)|hik(?:es|ing)|putting\s+up)\s+(?:the|our|my)\s+rent|"
    r"rent\s+(?:is\s+)?(?:going\s+up|increase)|raise|pay\s+rise|bonus|effective|"
    r"(?:maternity|paternity|parental|medical|sick|family|bereavement)\s+leave|sabbatical|retiring|retirement|congé\s+(?:maternité|paternité|parental))\b"
    # back to school: "I'm going back to school for nursing in the fall"
    r"|\bgoing\s+back\s+to\s+(?:school|college|uni|university|grad\s+school)\b"
    # a workplace's move: "our office is moving to Shoreditch in January"
    r"|\b(?:our|my|the)\s+(?:office|company|team|school|lab|studio|clinic)\s+(?:is|are)\s+(?:moving|relocating)\b"
    # "I'll be back on the 6th", "je serai de retour lundi"
    r"|\b(?:i|we)(?:'ll|\s+will|(?:'m|\s+am|'re|\s+are)\s+going\s+to)\s+be\s+back\b|\bde\s+retour\b"
    r"|\blast\s+day\b|\bfirst\s+day\b|\bgraduating\b|\binterviewing\s+(?:at|with|for)\b"
    # "I'm in Tokyo until Sunday": where one is, on the days said
    r"|\b(?:i|we)(?:'m|\s+am|'re|\s+are|'ll\s+be|\s+will\s+be)\s+in\s+(?-i:[A-Z])[\w-]+"
    # "I'll be out Friday", "I'm off next week", "we're away from the 3rd": away from work or chat.
    # "I'm going to be AFK this weekend" (AFK: away from the keyboard, as gamers say it).
    r"|\b(?:i|we)(?:'ll|\s+will|(?:'m|\s+am|'re|\s+are)\s+going\s+to)\s+be\s+(?:out|off|away|offline|afk)\b"
    r"|\b(?:i|we)(?:'m|\s+am|'re|\s+are)\s+(?:out|off|away|offline|afk)(?!\s+(?:to\s+bed|of|for\s+now)\b)"
    r"|\b(?:i|we)(?:'m|\s+am|'re|\s+are|'ll|\s+will)?(?:\s+(?:probably|definitely|likely|finally|actually|also|now))?"
    r"\s+(?:fly|flying|leave|leaving|travel|travelling|traveling|move|moving|"
    r"relocate|relocating|visit|visiting|arrive|arriving|return|returning|coming\s+back|off\s+to(?!\s+bed\b)|starting|start|"
    r"celebrate|celebrating|heading\s+(?:to|back|home|out|off)|headed\s+(?:to|back|home|out|off))\b"
    r"|\b(?:i(?:'m|\s+am)|we(?:'re|\s+are)|and\s+i\s+are)\s+going\s+to\s+(?-i:[A-Z])"
    # "we're going to my parents this weekend", "I'm going home on Friday"
    r"|\b(?:i|we)(?:'m|\s+am|'re|\s+are)\s+going\s+(?:to\s+(?:my|our)\s+|home\b|back\s+home\b)"
    # "I'll be in NYC next week", "we'll be in Lisbon from the 3rd": a stay somewhere named, dated.
    r"|\b(?:i|we)(?:'ll|\s+will)\s+be\s+(?:in|at)\s+(?-i:[A-Z])"
    r"|\bje\s+(?:pars|rentre|reviens|déménage|emménage|commence|arrive|prends\s+l'avion|vais\s+(?:à|au|aux|chez|en)|"
    r"serai)\b"
    r"|\b(?:on|nous)\s+(?:part|partons|rentre|rentrons|revient|revenons|déménage|déménageons|emménage|emménageons|"
    r"commence|commençons|arrive|arrivons|se\s+marie|nous\s+marions)\b"
    r"|\b(?:j'ai|nous\s+avons|on\s+a)\s+(?:vu|lu|regardé|mangé|organisé|cuisiné|préparé|fêté|joué)\s+"
    r"(?:un|une|le|la|les|des|mon|ma|mes|notre|nos|deux|trois|\d+)\s"
    # What the speaker saw, read, had or did on a day: "I saw a great movie yesterday", "We had a
    # picnic last weekend" (the day makes it something that happened, not a habit).
    r"|\b(?:i|we)\s+(?:just\s+|finally\s+|also\s+|actually\s+)?(?:watched|saw|read|had|ate|played|hosted|"
    r"threw|attended|cooked|baked|tried|made)\s+(?:a|an|the|my|our|some|two|three|\d+)\s+(?!(?:bit|lot|look|"
    r"word|chat|talk|question|feeling|thought|go|try|chance|sec|second|minute)\b)"
)


# A clause whose subject is its date: "Yesterday was my birthday", "This week has been hectic".
_DATE_AS_SUBJECT_EN = regex(
    rf"^\s*(?P<date>{DATE_SLOT})(?P<verb>'s|\s+(?:is|was|has\s+been|had\s+been|will\s+be))\s+(?P<rest>\S.*)$"
)
# The verb as the speaker would say it of themselves, for the third-person rewrite to conjugate.
_FIRST_PERSON_EN = {"is": "am", "'s": "am", "has been": "have been"}
_THIRD_PERSON_EN = {"'s": "is"}
_NOUN_PHRASE_START_EN = regex(r"^(?:my|our|the|a|an)\b")
_WHAT_THE_DAY_IS_EN = regex(r"^(?:a|an)\s")


def _date_as_subject(hit: Hit) -> str | None:
    """The clause said with its date where a date goes: "Yesterday was my birthday" is "<speaker>'s
    birthday was on <day>", "This week has been hectic at work" "<speaker> has been hectic at work
    in the week of <day>" (not "On <day> Was ..."), "Monday is a holiday" "<day> is a holiday"."""
    if hit.clause.french:
        return None
    match = _DATE_AS_SUBJECT_EN.match(strip_filler(hit.clause.text))
    rest = trim_phrase(match.group("rest")) if match else ""
    if not match or not rest:
        return None
    verb = " ".join(match.group("verb").lower().split())
    if _WHAT_THE_DAY_IS_EN.match(rest):
        # "Monday is a holiday": the day is what it says of ("A holiday is <day>" read backwards).
        said = f"{match.group('date')} {_THIRD_PERSON_EN.get(verb, verb)} {rest}"
    elif _NOUN_PHRASE_START_EN.match(rest):
        said = f"{rest} {_THIRD_PERSON_EN.get(verb, verb)} {match.group('date')}"
    else:
        said = f"I {_FIRST_PERSON_EN.get(verb, verb)} {rest} {match.group('date')}"
    return capitalize_first(hit.third(said, named=False))


# A request to the listener with the speaker as its object: "Call me tomorrow about the meeting",
# "Tell me about the meeting", "Appelle-moi demain". Not "let me ..." (the speaker's own offer).
_ASKED_OF_THE_LISTENER = regex(
    # After `strip_filler` ("ok so", "alors"): only the polite words it leaves.
    r"^\W*(?:(?:please|pls|plz|just|stp|svp)\W+)*(?:(?!let\b)[a-z]+\s+me\b(?!')|[^\W\d_]+-(?:moi|nous)\b)"
    # "please release the lease draft tomorrow", "can you send the deck by Friday": a task asked of
    # others (not "please note the office is closed Friday", which tells).
    r"|^\W*(?:please|pls|plz|kindly)\s+(?!(?:note|be\s+aware|remember|keep\s+in\s+mind|know)\b)[a-z]+"
    r"|^\W*(?:can|could|would|will)\s+(?:you|u|someone|somebody|anyone)\b"
)


# Where a chat line moves on before its dated part: a colon ("quick plan for the week: ..."), an
# emoji's shortcode (":wave:"), a closing bracket, a dash between spaces.
_BREAK_BEFORE_THE_DATE = regex(r"(?::[a-z0-9_+-]+:|:(?!\d)|\)|\s[-–—]\s)\s*")


def _from_the_dated_part(hit: Hit) -> Hit | None:
    """`hit` read from the last break before the clause's first date, when a cue word follows it
    ("morning all, happy new year (again) :wave: quick plan: 2.4 is locked for Friday 14 Feb, so
    code freeze is 7 Feb" is read from "2.4 is locked"); None when no such part holds a cue."""
    first = PLACEHOLDER.search(hit.clause.text)
    if first is None:
        return None
    breaks = list(_BREAK_BEFORE_THE_DATE.finditer(hit.clause.text, 0, first.start()))
    if not breaks:
        return None
    tail = hit.clause.text[breaks[-1].end() :]
    if not _EVENT_CUE.search(tail):
        return None
    clause = dataclasses.replace(
        hit.clause, text=tail, before=f"{hit.clause.before} {hit.clause.text[: breaks[-1].end()]}"
    )
    return dataclasses.replace(hit, clause=clause)


def _dated_event(hit: Hit) -> Item | None:
    if _ASKED_OF_THE_LISTENER.match(strip_filler(hit.clause.text)):
        return None  # what the speaker asks someone to do is not something that happens to them
    content = without_the_listener(_date_as_subject(hit) or hit.whole_clause(), hit.speaker)
    if content and not PLACEHOLDER.search(content):
        # "morning all, happy new year (again) :wave: … locked for Friday 14 Feb": the dated part
        # was cut away with what followed a bracket or a colon; read from where it starts, or none.
        dated = _from_the_dated_part(hit)
        if dated is None:
            return None
        return _dated_event(dated)
    if not content:
        return None  # "See you at the party on Friday": whom it names is known only where it was said
    return Item(
        content,
        MemoryType.EVENT,
        hit.confidence(DATED_CONFIDENCE),
        [hit.clause.text],
        predicate=Predicate.EVENT,
    )


# Tried only when no other rule found anything in the clause.
DATED_EVENT = Rule(_EVENT_CUE, _dated_event, guard=asserted_in_clause, needs_date=True, object_groups=())
