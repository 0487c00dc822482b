"""Rules for events: what happened to the speaker ("I broke my wrist"); dated plans are dated_events.py's."""

from __future__ import annotations

import dataclasses
import re

from memory.models import MemoryType

from ..date_format import PERIOD_LEAD_EN
from ..dates import PLACEHOLDER
from ..facts import Predicate
from ..lexicons import FAMILY_WORD, FINITE_VERBS_EN, IRREGULAR_PAST_EN, RANKS_EN
from ..normalize import regex
from ..phrases import (
    TO_THE_LISTENER,
    first_word,
    is_object,
    names_someone,
    trim_phrase,
    without_the_listener,
    without_what_was_told,
)
from ..rewrite import capitalize_first
from ..sentences import co_subject, opens_relative_clause
from .base import Hit, Item, OneOf, Rule
from .dated_events import DATED_CONFIDENCE
from .said_first import with_date_said_first

__all__ = ["EVENTS"]

_CONFIDENCE = 0.65

_EVENT_VERBS_EN = (
    # Before their first word alone: "signed up" is not "signed" with the object "up ...".
    r"signed\s+up|paid\s+off|turned\s+down(?=\s+(?:the|an?|their|his|her|my)\s+(?:[\w-]+\s+){0,2}?(?:offer|job|role|"
    r"position|promotion|proposal))|declined(?=\s+(?:the|an?|their|his|her|my)\s+(?:[\w-]+\s+){0,2}?(?:offer|job|role|"
    r"position|promotion))|managed\s+to\s+(?:run|finish|complete|win|pass|climb|visit|save|sell|buy|find|land|book|fix|"
    r"hit|beat|see|meet|raise|qualify)|"
    r"broke\s+up|split\s+up|broke|broken|fractured|sprained|injured|hurt|twisted|dislocated|tore|torn|got|gotten|started|finished|"
    # a plan moved or dropped: "we postponed the wedding to 2028", "we called off the launch"
    r"postponed|rescheduled|delayed|pushed\s+back|brought\s+forward|called\s+off|cancell?ed|"
    r"completed|lost|won|passed|failed|moved|bought|sold|married|graduated|quit|left|joined|adopted|met|"
    r"launched|released|shipped|deployed|merged|fixed|landed|arrived|stopped|accepted|published|submitted|applied\s+(?:to|for)|signed|received|became|become|retired|resigned|was\s+promoted|"
    r"was\s+hired|was\s+fired|was\s+laid\s+off|been\s+promoted|been\s+hired|been\s+fired|gave\s+birth|"
    r"had\s+(?:a\s+baby|surgery|an?\s+operation|an?\s+(?:car\s+)?accident|covid|the\s+flu|twins)|ran|"
    r"climbed|visited|travel(?:l)?ed|returned|came\s+back|went|flew|crashed|found|founded|built|created|"
    r"wrote|written|defended|earned|achieved|booked|rented|renovated|finally\s+got|"
    # Not ideas explored: "I explored the idea a bit".
    # An age or a change: "I turned 30", "we turned the garage into a studio"; not "I turned the light on".
    r"turned(?=\s+(?:\d|(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|[a-z]+teen|twenty|thirty|"
    r"forty|fifty|sixty|seventy|eighty|ninety)\b|(?:[\w'-]+\s+){0,4}into\b))|"
    r"celebrated|explored(?!\s+(?:the\s+|some\s+|other\s+|new\s+|a\s+few\s+)?(?:ideas?|options?|possibilit(?:y|ies)|ways?|"
    r"alternatives?|avenues?|concepts?|topics?|themes?|feelings?|emotions?)\b)|teamed\s+up|partnered|organi[sz]ed|donated|"
    # "I scored 40 points", "we scored the winning goal"
    r"scored|switched|migrated|reached|enrolled|registered|repainted|redecorated|remodell?ed|installed|"
    r"planted|presented|performed|spoke\s+(?=at\b)|"
    # a home bought ("we just closed on our house"), a day off taken ("I took the day off to ...")
    r"closed\s+on(?=\s+(?:our|my|a|the)\s+(?:new\s+|first\s+)?(?:house|home|apartment|flat|condo|place)\b)|"
    r"took(?=\s+(?:the|a)\s+(?:day|week|morning|afternoon)\s+off\b)|"
    # "I gave a talk at a school", "we did our first gig": given to others, not "I gave up", "I did it".
    r"(?:gave|did)\s+(?=(?:a|an|my|our)\s+(?:(?:first|last|big|short|little|small|whole|live|guest)\s+)?(?:talk|speech|presentation|"
    r"toast|lecture|keynote|sermon|performance|concert|recital|workshop|eulogy|gig|show|reading|panel|demo|interview|"
    r"podcast|stand-?up\s+set|set|5k|10k|marathon|half\s+marathon|triathlon)\b)|"
    # "I hit diamond", "just hit level 50": a rank or a mark reached, not "I hit the gym".
    rf"hit(?=\s+(?:a\s+|my\s+|the\s+)?(?:new\s+)?(?:{RANKS_EN}))|"
    # "we hit our Q3 target": a goal reached
    r"hit(?=\s+(?:our|my|the)\s+(?:[\w'-]+\s+){0,2}?(?:target|goal|quota|milestone|numbers)\b)|"
    # "we finally beat the raid boss", "I beat the game": a game's challenge, not "beat me to it"
    r"beat(?=\s+(?:the|that|this)\s+(?:[\w'-]+\s+){0,2}?(?:boss|raid|game|level|dungeon|campaign|final|"
    r"record|high\s+score|challenge)\b)"
)
_EVENT_EN = regex(
    # "I" or "we" (the speaker and others: "We won the tournament", "we've moved to Berlin").
    r"\b(?:i|we)(?:'ve|\s+have|\s+just|\s+finally|\s+recently|\s+officially|\s+also|\s+actually|\s+already|"
    r"\s+all)*\s+"
    # Not "won't": the apostrophe ends the word "won" too.
    rf"(?P<verb>{_EVENT_VERBS_EN})\b(?!['’]t\b)(?P<object>.*)"
)
# Events that need no object: "I graduated", "I got married".
_INTRANSITIVE = regex(
    r"broke\s+up|split\s+up|married|graduated|retired|resigned|quit|promoted|hired|fired|laid\s+off|gave\s+birth|had\s+|got\s+"
    r"(?:married|engaged|promoted|hired|fired|divorced)"
)
# "I got it", "I got lost", "I went out": chat, not something that happened to remember.
_NOT_AN_EVENT_EN = regex(
    r"^\s*(?:it|this|that|you|them|him|her|bored|tired|confused|lost|a\s+question|questions|an?\s+idea|"
    r"time|home|to\s+bed|back\s+to\s+you|used\s+to|stuck|distracted|caught\s+up|sidetracked|nothing|"
    r"something)(?![\w'])|^\s*(?:out|off|on|around|up|down|through|over)(?![\w'])(?!\s*\x00)"
    # "I moved out of Berlin", "out of my parents' place": where from says the place.
    r"(?!\s+of\s+(?:(?-i:[A-Z])|(?:my|our)\s+(?!way\b)|the\s+(?:city|country|house|apartment|flat)\b))"
)
# What an event's object may start with and still say nothing once it is taken away: "the parade
# I went to a few weeks ago" leaves "went to <date>", "I went to it yesterday" "to it", and "a show I
# went to." "to".
_LEADING_PREPOSITION_EN = regex(
    r"^(?:(?:back|over|up|down|out)\s+)?(?:to|at|on|in|into|from|for|with|by|about)(?:\s+|$)"
)
_EMPTY_PLACES_EN = frozenset({"there", "here"})
_HERE_FROM_EN = regex(r"^(?:back\s+)?(?:here|there)\s+(?=from\s+\S)")
# When, said too vaguely to be a date: "a pic I got a while back" leaves the event no object.
_VAGUE_TIME_EN = regex(
    r"\b(?:a\s+(?:little\s+|long\s+|good\s+)?while\s+(?:back|ago)|(?:some|a\s+long)\s+time\s+(?:back|ago)"
    r"|ages\s+ago|the\s+other\s+day|not\s+(?:so\s+)?long\s+ago|recently|lately|earlier)\b"
)
# Prepositions some verbs take only after their object: "the people I met in CA", "the support
# I got from friends" (but "I met with Ana", "I got into Harvard").
_NO_PLACE_FOR_A_PREPOSITION_EN = {
    "met": regex(r"^(?:in|at|on|during|through|over|from|there|here)\b"),
    "got": regex(r"^from\b"),
}
# Verbs that take their object directly: after them a preposition means the object came earlier
# ("a book I found with tons of them"), where "went to", "moved to" are whole.
_TRANSITIVE_EN = regex(
    r"found|bought|sold|built|created|received|adopted|booked|rented|renovated|earned|achieved|published|"
    r"released|launched|founded"
)
# A clause of its own where such a verb's object should be: the object came earlier.
_SUBORDINATE_START_EN = regex(r"^(?:when|whenever|while|if|because|as\s+soon\s+as)\b")
# The speaker, alone or with others ("nous", and "on" where it says "nous"): "j'ai" / "nous avons" /
# "on a", "je suis" / "nous sommes" / "on est", "je me suis" / "nous nous sommes" / "on s'est". A
# participle after "être" agrees with them ("nous sommes allés", "on s'est mariées").
_EVENTS_FR: list[re.Pattern[str]] = [
    regex(
        r"\b(?:je\s+(?:me\s+suis|m'suis)|nous\s+nous\s+sommes|on\s+s'est)\s+(?:\w+ment\s+)?(?P<verb>"
        r"cassée?s?|foulée?s?|fait\s+mal|fait\s+opérer|mariée?s?|pacsée?s?|fiancée?s?|séparée?s?|installée?s?|inscrite?s?|"
        r"blessée?s?|fracturée?s?|fait\s+virer|fait\s+licencier|lancée?s?\s+dans|remise?s?\s+(?:à|au))\b"
        r"(?P<object>.*)"
    ),
    regex(
        r"\b(?:j'ai|nous\s+avons|on\s+a)\s+(?:enfin\s+|récemment\s+|finalement\s+|déjà\s+|officiellement\s+)?"
        r"(?P<verb>obtenu|trouvé|"
        r"perdu|gagné|réussi|raté|acheté|vendu|déménagé|emménagé|commencé|fini|terminé|quitté|rejoint|adopté|rencontré|"
        r"visité|lancé|publié|signé|reçu|démissionné|accouché|arrêté\s+(?:de|le|la|les|l')|eu\s+(?:un\s+bébé|une\s+promotion|mon|ma|"
        r"un\s+accident|un\s+nouveau|une\s+nouvelle|des\s+jumeaux|notre|nos)|été\s+(?:promue?s?|augmentée?s?|embauchée?s?|"
        r"licenciée?s?|virée?s?|opérée?s?|acceptée?s?|admise?s?|diplômée?s?)|passé\s+(?:mon|ma|mes|notre|nos|le|"
        r"la|l')|couru|fêté|écrit|construit|créé|fondé|soutenu|cassé|"
        # "j'ai repris le boulot lundi", "j'ai changé de poste"
        r"repris\s+(?:le|la|les|l')|changé\s+d[e']\s*(?=boulot|travail|poste|job|emploi|équipe))\b(?P<object>.*)"
    ),
    regex(
        r"\b(?:je\s+suis|nous\s+sommes|on\s+est)\s+(?:enfin\s+|finalement\s+)?(?P<verb>allée?s?|partie?s?|"
        r"devenue?s?|rentrée?s?|revenue?s?|tombée?s?|arrivée?s?|diplômée?s?|retraitée?s?)\b(?P<object>.*)"
    ),
    # What was just done: "je viens de finir mon mémoire", "on vient d'acheter une maison".
    regex(
        r"\b(?:je\s+viens|nous\s+venons|on\s+vient)\s+(?:enfin\s+|juste\s+)?d[e']\s*(?P<verb>finir|terminer|rendre|"
        r"commencer|passer|obtenir|réussir|recevoir|acheter|vendre|adopter|signer|lancer|publier|déménager|emménager|"
        r"décrocher|gagner|perdre|quitter|rejoindre|trouver|avoir|fêter|courir|écrire|soutenir|accoucher)\b(?P<object>.*)"
    ),
]
_NOT_AN_EVENT_FR = regex(r"^\s*(?:ça|cela|ceci|te\b|toi|vous)")
_GOT_STATE = regex(r"\s*(?:married|engaged|promoted|hired|fired|divorced)")
# "I've got two cats" is what the speaker has (rules/family.py), not something that happened.
_HAVE_BEFORE_EN = regex(r"(?:'ve|\bhave)\s+$")
_COUNTED_EN = regex(r"^\s*(?:a|an|one|two|three|four|five|six|\d{1,2})\s")
# What "I've got" tells as news rather than as something had: "I've got a new job", "I've got into
# Harvard", "I've got back from Rome", "I've got married".
_GOT_NEWLY_EN = regex(
    r"\s*(?:(?:a\s+|my\s+)?(?:new|first)\b|into\b|back\b|in\s+touch\b|married|engaged|promoted|hired)"
)


def _happened_en(hit: Hit) -> Item | None:
    verb = hit.words("verb").lower()
    # "I bought the book you recommended": the book is what was bought.
    after = without_what_was_told(hit.group("object"))
    phrase = trim_phrase(after)
    got_state = verb == "got" and bool(_GOT_STATE.match(after))
    needs_no_object = bool(_INTRANSITIVE.match(verb)) or got_state
    got_to = verb == "got" and re.match(r"(?i)\s*to\b", after)  # "I got to go"
    if verb == "got" and re.match(r"(?i)\s*(?:someone|somebody|anyone|anybody)\b", after):
        return None  # "i got someone easy" (drawn for a secret santa): nobody is named, nothing happened
    before_verb = hit.clause.text[hit.match.start() : hit.match.start("verb")]
    if (
        verb == "got"
        and _HAVE_BEFORE_EN.search(before_verb)
        and _COUNTED_EN.match(after)
        and FAMILY_WORD.search(after)
    ):
        return None
    if (
        got_to
        or (_NOT_AN_EVENT_EN.match(after) and not names_someone(after))
        or not (phrase or needs_no_object)
    ):
        return None
    if (
        verb == "got"
        and _HAVE_BEFORE_EN.search(before_verb)
        and hit.clause.text[hit.match.start() :][:2].lower() == "we"
    ):
        return None  # "We've got a pup and a kitty", "we've got the right attitude": what they have
    if (
        verb == "got"
        and _HAVE_BEFORE_EN.search(before_verb)
        and not _GOT_NEWLY_EN.match(after)
        and "\x00" not in after
    ):
        # "I've got a bad knee", "I've got lots of books": what they have, not what happened ("I've
        # got a tournament next month" has its day, so it is one to come).
        return None
    if not is_object(phrase or "ok", False):
        return None
    if phrase and not needs_no_object and not _names_something(phrase):
        return None
    if _TRANSITIVE_EN.fullmatch(verb) and _LEADING_PREPOSITION_EN.match(phrase):
        return None
    if (_TRANSITIVE_EN.fullmatch(verb) or verb in ("got", "gotten")) and _SUBORDINATE_START_EN.match(phrase):
        return None  # "a shot I got when I volunteered": what was got came before the subject
    if opens_relative_clause(hit.clause.text[: hit.match.start()]) and (
        _TRANSITIVE_EN.fullmatch(verb) or _starts_with_a_verb(phrase)
    ):
        # "the figurines I bought yesterday remind me ...": what was bought is the noun before the
        # subject; "the support I got made a huge difference": the sentence's verb, not an object.
        return None
    misplaced = _NO_PLACE_FOR_A_PREPOSITION_EN.get(verb)
    if misplaced is not None and misplaced.match(phrase):
        return None
    said = hit.clause.text[hit.match.start() :]
    partner = co_subject(hit.clause.text[: hit.match.start()])
    if partner is not None:
        # "My wife and I moved to Berlin": who else it happened to stays in the event.
        said = f"{said[0]} and {partner}{said[1:]}"
    # "Last week I went to a conference": the date said before the subject goes after the event,
    # with its preposition ("On Friday, I got ..." -> "... on Friday 20 November 2026").
    content = _without_the_listener(capitalize_first(hit.third(trim_phrase(said) or said, named=False)), hit)
    if not content:
        return None
    return Item(
        content, MemoryType.EVENT, hit.confidence(_CONFIDENCE), [phrase or verb], predicate=Predicate.EVENT
    )


def _without_the_listener(said: str, hit: Hit) -> str:
    """The event said without what it says to the listener, with its date said first put back; ""
    when the event itself is said to them ("I'll call you tomorrow", "je t'appelle demain")."""
    kept = without_the_listener(said, hit.speaker)
    return with_date_said_first(kept, hit) if kept else ""


def _starts_with_a_verb(phrase: str) -> bool:
    word = first_word(phrase)
    return word in FINITE_VERBS_EN or word in IRREGULAR_PAST_EN


# What happened to something of the speaker's: "my car broke down on the highway yesterday", "my
# phone got stolen".
_THING_HAPPENED_EN = regex(
    r"\b(?:my|our)\s+(?:(?:new|old)\s+)?(?P<thing>car|truck|van|bike|motorcycle|phone|laptop|computer|pc|tv|fridge|"
    r"washer|dishwasher|furnace|heater|boiler|house|apartment|flat|basement|wallet|bag|luggage|suitcase|keys|flight|"
    r"train|bus|order|package|parcel)(?:\s+(?:to|from|for|home|back)(?:\s+[\w'-]+){0,2}?)?\s+"
    r"(?P<what>broke(?:\s+down)?|died|crashed|got\s+(?:stolen|towed|hacked|damaged|flooded|broken\s+into|cancell?ed|"
    r"delayed|totall?ed|rear-ended|hit|keyed|dented|repossessed)|was\s+(?:stolen|towed|hacked|damaged|flooded|broken\s+into|"
    r"cancell?ed|delayed|totall?ed|rear-ended|hit|keyed|repossessed)|caught\s+fire|flooded|"
    r"stopped\s+working)\b"
    # What became of a piece of work: "one of my scripts got picked up by a producer", "my paper got
    # accepted".
    r"|\b(?:(?:one|two|some|both)\s+of\s+)?(?:my|our)\s+(?:(?:new|first|latest|last)\s+)?(?P<work>scripts?|screenplays?|"
    r"books?|novels?|songs?|album|papers?|articles?|paintings?|photos?|apps?|games?|pitch|proposals?|applications?|"
    r"talks?|abstracts?|designs?|films?|short\s+films?|poems?|stories|story|grant)\s+(?P<happened>(?:got|was|were|has\s+been|"
    r"have\s+been)\s+(?:picked\s+up|accepted|published|rejected|selected|featured|approved|funded|greenlit|shortlisted|"
    r"nominated|signed|optioned|produced|released|exhibited|shown))\b"
    # a team's result: "my team won the league!", "our guild finally made it to the finals"
    r"|\b(?:my|our)\s+(?P<team>team|club|squad|band|guild|clan|crew)\s+(?:just\s+|finally\s+)?(?:won|lost|qualified|"
    r"made\s+(?:it\s+(?:to|into)\s+)?(?:the\s+)?(?:playoffs|finals?|semis|semi-?finals?)|got\s+(?:promoted|relegated))\b"
)


def _thing_happened(hit: Hit) -> Item | None:
    """ "Mickael's car broke down on the highway on <day>", "One of Mickael's scripts got picked up",
    "Mickael's team won the league"."""
    said = trim_phrase(hit.clause.text[hit.match.start() :])
    return _event(hit, said, [hit.group("thing") or hit.group("work") or hit.group("team")])


def _names_something(phrase: str) -> bool:
    """Whether the object, past its preposition and without its dates, still names something: the
    event "went to <date>" (its object said earlier in the sentence) or "went to it" would be
    remembered as an event with nothing in it."""
    # "moved here from Toronto": where from says the place.
    rest = PLACEHOLDER.sub(" ", _LEADING_PREPOSITION_EN.sub("", _HERE_FROM_EN.sub("", phrase.strip())))
    rest = _VAGUE_TIME_EN.sub(" ", rest).strip()
    if not any(ch.isalpha() for ch in rest):
        return False
    # "that pottery class" names a thing as "the pottery class" does.
    rest = _DEMONSTRATIVE_EN.sub("the ", rest)
    return is_object(rest, False, _EMPTY_PLACES_EN)


_DEMONSTRATIVE_EN = regex(r"^(?:that|this|these|those)\s+(?=[^\W\d_]+\s+[^\W\d_])")


def _event(hit: Hit, said: str, keys: list[str], confidence: float = _CONFIDENCE) -> Item | None:
    """The event `said` from its subject, in the third person and without what it says to the
    listener (None when that is all it says)."""
    content = _without_the_listener(capitalize_first(hit.third(said, named=False)), hit)
    if not content:
        return None
    return Item(content, MemoryType.EVENT, hit.confidence(confidence), keys, predicate=Predicate.EVENT)


# What two do to each other, said with "on" and "avec": "on s'est séparés avec Paul" is the speaker
# and Paul, not "Mickael et d'autres ... avec Paul".
_WITH_SOMEONE_FR = regex(
    r"^(?P<who>.+?) et d'autres (?P<verb>se\s+sont\s+(?:séparée?s|mariée?s|pacsée?s|fiancée?s|rencontrée?s|"
    r"disputée?s|réconciliée?s|quittée?s))\s+avec\s+(?P<name>(?-i:[A-ZÀ-Ý])[\w'-]+)(?P<rest>.*)$"
)


# ... and said first: "ma copine et moi, on s'est séparés", "Paul et moi on a emménagé ensemble".
_CO_SUBJECT_FR = regex(r"(?P<co>(?:mon|ma|mes)\s+[\w'-]+|(?-i:[A-ZÀ-Ý])[\w'-]+)\s+et\s+moi\s*,?\s*$")


def _happened_fr(hit: Hit) -> Item | None:
    if _NOT_AN_EVENT_FR.match(hit.group("object")):
        return None
    said = hit.clause.text[hit.match.start() :]
    item = _event(hit, trim_phrase(said) or said, [hit.group("object") or hit.group("verb")])
    if item is None:
        return None
    two = _WITH_SOMEONE_FR.match(item.content)
    # (the clause may start at "on": "mon frère et moi" is then what came before it)
    co = _CO_SUBJECT_FR.search(f"{hit.clause.before} {hit.clause.text[: hit.match.start()]}")
    others = f"{hit.speaker} et d'autres"
    if two is not None and two.group("who") == hit.speaker:
        item.content = f"{two.group('who')} et {two.group('name')} {two.group('verb')}{two.group('rest')}"
    elif co is not None and item.content.startswith(others):
        item.content = f"{hit.speaker} et {hit.third(co.group('co'))}{item.content[len(others) :]}"
    return item


# A win said after another verb of the same subject: "we fought hard and got the win", "I trained
# all year and won the race". Only winning: most verbs so joined are chat ("I went home and got
# some sleep").
_WON_AFTER_EN = regex(
    r"\b(?:i|we)(?:\s+[\w'-]+){1,6}?\s+and\s+(?:then\s+|finally\s+|still\s+)?"
    r"(?P<verb>won|got|took|clinched|secured)(?P<object>\s+(?:the|a|our|my)\s+(?:win|victory|title|championship|"
    r"game|match|race|tournament|final|finals|cup|trophy|gold)\b.*)"
)


def _won_after(hit: Hit) -> Item | None:
    """ "Ana and others fought hard and got the win": the whole joined clause, from its subject."""
    if hit.words("verb").casefold() != "won" and not _A_WIN.match(hit.group("object")):
        return None  # "we trained and got the game" is no win
    return _happened_en(hit)


_A_WIN = regex(r"\s+(?:the|a|our|my)\s+(?:win|victory)\b")


# What the speaker did, named before they say they did it: "this pride parade I went to a few weeks
# ago", "the pottery class we took last summer". The words of the thing are content words (not "the
# kids about a movie I saw": a preposition or a second determiner is no part of one noun phrase).
_FUNCTION_WORD_EN = (
    r"(?:a|an|the|this|that|these|those|my|our|your|his|her|their|of|to|in|on|at|for|with|from|about|"
    r"by|and|or|but|so|as|if|when|than|after|before|since|until|while|because|then|just|here|there|now|also|"
    r"too|all|out|up|i|we|you|it|is|was|are|were)"
)
_DONE_BEFORE_SAID_EN = regex(
    rf"\b(?P<det>this|that|these|those|the|an?|my|our)\s+(?P<thing>(?:(?!{_FUNCTION_WORD_EN}\b)[^\W\d_][\w'-]*\s+){{0,2}}"
    rf"(?!{_FUNCTION_WORD_EN}\b)[^\W\d_][\w'-]*)\s+(?:that\s+|which\s+)?(?P<who>i|we)(?:\s+(?:just|finally|recently|"
    r"actually|also))?\s+(?P<verb>went\s+to|attended|visited|saw|watched|bought|made|baked|built|painted|drew|"
    r"wrote|took|adopted|organi[sz]ed|ran|finished|won)\b(?!['’]t\b)(?P<rest>[^,;:.!?]*)"
)
# Things too plain to be what happened: "the way I saw it", "the first thing I made".
_PLAIN_THING_EN = frozenset(
    "time times way ways thing things stuff one ones moment moments reason part point kind sort lot bit "
    "idea ideas feeling feelings day days night year week month fact end rest minute second first last best "
    "most only same other decision decisions choice choices mistake mistakes effort progress difference "
    "money impact photo photos pic pics picture pictures pictured video videos".split()
)
# Where the thing's own clause ends and the sentence goes on: "the figurines I bought yesterday
# remind me of family" is bought yesterday.
_REST_ENDS_EN = regex(
    r"\s(?:and|but|so|because|which|who|that|when|while|as|is|was|were|are|has|have|had|will|would|can|"
    r"could|still|really|always|remind|reminds|reminded|makes?|made|gave|gives|means?|meant|mean|helps?|"
    r"helped|got|gets|brings?|brought|keeps?|kept|turned|became|looks?|looked|feels?|felt|seems?|seemed)\b"
)
_DONE_DET_EN = {"this": "a", "that": "a", "these": "some", "those": "some"}


def _done_before_said(hit: Hit) -> Item | None:
    """ "Ana went to a pride parade <date>" from "this pride parade I went to <date>"."""
    thing = hit.words("thing")
    words = thing.lower().split()
    if words[-1] in _PLAIN_THING_EN or words[0] in _PLAIN_THING_EN or not is_object(thing, False):
        return None
    rest = hit.group("rest")
    end = _REST_ENDS_EN.search(rest)
    rest = " ".join((rest[: end.start()] if end else rest).split())
    if TO_THE_LISTENER.search(rest):
        return None
    det = hit.group("det").lower()
    rest = _date_with_its_preposition(rest, hit)
    said = " ".join(
        w for w in (hit.group("who"), hit.words("verb").lower(), _DONE_DET_EN.get(det, det), thing, rest) if w
    )
    return _event(hit, said, [thing], DATED_CONFIDENCE)


# Someone new the speaker talked with, named: "at the event I had a conversation with someone named
# David", "I chatted with a guy called Tom". Without a name it is chat ("I talked to my boss").
_TALKED_WITH_EN = regex(
    r"\b(?P<who>i|we)(?:\s+(?:just|also|actually|finally|even))?\s+(?P<verb>(?:talked|spoke|chatted)\s+(?:to|with)|"
    r"had\s+an?\s+(?:[\w'-]+\s+){0,2}?(?:conversation|chat|talk)\s+with|got\s+to\s+know|made\s+friends\s+with)\s+"
    r"(?P<object>(?:someone|somebody|an?\s+(?:[\w'-]+\s+){0,2}?[\w'-]+|this\s+(?:[\w'-]+\s+){0,2}?[\w'-]+)\s+"
    r"(?:named|called)\s+(?-i:[A-Z])[\w'-]+[^,;:.!?]*)"
)


def _talked_with(hit: Hit) -> Item | None:
    """ "Maria had a conversation with someone named David at the event"."""
    said = f"{hit.group('who')} {hit.words('verb')} {' '.join(hit.group('object').split())}"
    return _event(hit, said, [hit.group("object")])


def _date_with_its_preposition(rest: str, hit: Hit) -> str:
    """`rest` with a date right after the verb's own preposition ("I went to <a few weeks ago>",
    written bare there) given its own, since the thing now comes between them."""
    slot = re.match(r"\x00(\d+)\x00", rest)
    dates = hit.clause.dates
    if slot is None or int(slot.group(1)) >= len(dates):
        return rest
    said = dates[int(slot.group(1))]
    if said.inline != said.bare:
        return rest
    dates.append(dataclasses.replace(said, inline=PERIOD_LEAD_EN.get(said.unit, "on ") + said.bare))
    return f"\x00{len(dates) - 1}\x00{rest[slot.end() :]}"


EVENTS = (
    Rule(_EVENT_EN, _happened_en, french=False, object_groups=()),
    Rule(_TALKED_WITH_EN, _talked_with, french=False, object_groups=()),
    Rule(_WON_AFTER_EN, _won_after, french=False, object_groups=()),
    Rule(_DONE_BEFORE_SAID_EN, _done_before_said, french=False, object_groups=()),
    Rule(_THING_HAPPENED_EN, _thing_happened, french=False, object_groups=()),
    OneOf(tuple(Rule(pattern, _happened_fr, french=True, object_groups=()) for pattern in _EVENTS_FR)),
)
