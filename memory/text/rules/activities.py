"""Rules for what the speaker does, keeps and went to: "we went camping", "our puppy", "I flew to Tokyo"."""

from __future__ import annotations

import re

from memory.models import MemoryType

from ..kind_notes import kind_note
from ..lexicons import APPS, BREEDS_EN, FEMININE_KIN_FR, MONTHS_EN, WEEKDAYS_EN
from ..normalize import regex
from ..rewrite import of_fr, possessive_en
from .base import Hit, Item, OneOf, Rule

__all__ = [
    "ACTIVITIES",
    "ACTIVITY_TAG",
    "PET_TAG",
    "PLACE_TAG",
    "TASTE",
    "Kinds",
    "bounded",
    "bounded_clause",
    "kind_memory",
]

# Subjects the memories carry (searchable), so that they can be found by kind;
# prefixed, so that no word a memory is about ("a pet shop") reads as one.
ACTIVITY_TAG = "kind:activity"
PET_TAG = "kind:pet"
PLACE_TAG = "kind:place"

_CONFIDENCE = 0.6
_MAX_CLAUSE_WORDS = 20


class Kinds:
    """Terms by the kind a memory names them by ("hiking" is one of the "outdoor activities"), in
    order: all of them as one alternation for a larger pattern, and the kind of a term it found."""

    __slots__ = ("_patterns", "terms")

    def __init__(self, *kinds: tuple[str, str]) -> None:
        self.terms = "|".join(terms for _, terms in kinds)  # a regex source
        self._patterns = [(regex(rf"^(?:{terms})$"), kind) for kind, terms in kinds]

    def of(self, term: str) -> str:
        """The first kind whose terms match `term` (case and spacing folded)."""
        folded = " ".join(term.casefold().split())
        return next(kind for pattern, kind in self._patterns if pattern.match(folded))


# Common pastimes by kind. The memory names the kind ("Léa's outdoor activities include hiking")
# because a question asks by kind ("what does Léa do outdoors?", "what sports does she play?")
# and the turn only names the thing: the kind word is the missing link between the two.
_KINDS = Kinds(
    (
        "sports and activities",
        r"running|jogging|swimming|swims?|cycling|biking|yoga|pilates|tennis|basketball|football|soccer|"
        r"baseball|volleyball|golf|boxing|kickboxing|karate|judo|martial\s+arts|surfing|skiing|snowboarding|"
        r"skating|skateboarding|climbing|bouldering|weightlifting|crossfit|hockey|rowing|marathons?|"
        r"workouts?|working\s+out|gym|triathlons?|badminton|squash|cricket|rugby|archery|fencing|lacrosse|"
        r"softball|bowling|table\s+tennis|ping[\s-]pong|pickleball|water\s+polo|gymnastics|taekwondo|"
        r"jiu[\s-]?jitsu|muay\s+thai|aikido|zumba|aerobics|powerlifting|bodybuilding|parkour|cheerleading|"
        r"wakeboarding|water[\s-]?skiing|kitesurfing|windsurfing",
    ),
    (
        "outdoor activities",
        r"hiking|hikes?|camping|fishing|kayaking|canoeing|sailing|birdwatching|bird\s+watching|road\s+trips?|"
        r"picnics?|stargazing|horse(?:back)?\s+riding|mountaineering|trekking|backpacking|snorkell?ing|"
        r"scuba\s+diving|paddle[\s-]?boarding|rafting|skydiving|paragliding|trail\s+running|geocaching|foraging",
    ),
    (
        "art and hobbies",
        r"painting|paintings|drawing|sketching|pottery|ceramics|sculpting|photography|knitting|sewing|"
        r"crocheting|embroidery|calligraphy|woodworking|crafts|crafting|scrapbooking|poetry|origami|quilting|"
        r"woodcarving|jewell?e?ry\s+making|glassblowing|printmaking|journall?ing|cosplay",
    ),
    (
        "music and hobbies",
        r"guitar|piano|violin|cello|drums|ukulele|flute|saxophone|singing|choir|songwriting|trumpet|clarinet|"
        r"trombone|accordion|banjo|mandolin|harmonica|djing|dj'ing",
    ),
    (
        "hobbies and activities",
        r"cooking|baking|gardening|gaming|video\s+games|board\s+games|chess|puzzles|dancing|traveling|"
        r"travelling|volunteering|meditation|meditating|astronomy|karaoke|homebrewing|3d\s+printing|"
        r"tabletop\s+games|dungeons\s+(?:and|&)\s+dragons",
    ),
)

# Verbs saying the speaker does it: one must stand between the subject and the pastime.
_DOING = (
    r"love|loved|loves|enjoy|enjoyed|like|liked|go|goes|went|going|gone|been|started|start|took|take|"
    r"tried|do|did|doing|play|played|playing|practice|practise|practiced|practised|joined|took\s+up|"
    r"got\s+into|into|off|trying|tries|spent|spend|spending|practicing|practising|picked\s+up|"
    r"signed\s+up|enrolled|registered"
)
# Words that make it something the speaker does not (yet) do, or someone else's: "I don't swim",
# "I'd love to try surfing", "I used to ski", "we're planning a hike", "I took my son to his tennis".
_NOT_DONE = regex(
    r"\b(?:not|never|no|n't|don't|didn't|won't|can't|cannot|couldn't|wouldn't|would|'d|could|should|might|"
    r"may|must|want|wanted|wanna|wish|hope|hoping|plan|plans|planned|planning|gonna|used|thinking|"
    r"considering|stopped|quit|gave|hate|hated|miss|missed|tired|sick|bored|afraid|scared|supposed|meant|"
    # a trip called off was never made: "we cancelled the trip to Greece"
    r"cancel(?:l)?ed|cancel|called\s+off|postponed|"
    r"you|your|he|she|they|him|her|them|his|their|someone|somebody|people|friend|friends)\b"
    r"|\bgoing\s+to\s+(?!the\b|a\b)|\bwas\s+going\b|\bwill\b|'ll\b|n't\b"
)
_ACTIVITY_EN = regex(
    r"\b(?P<who>i|we)(?P<between>(?:'[a-z]+)?(?:\s+[\w'-]+){0,5}?)\s+(?P<term>" + _KINDS.terms + r")\b"
    # A pastime that is also a plain verb needs no object: "I'm running late", "drawing a blank".
    r"(?!\s+(?:late|out|low|behind|short|away|into|up|a(?!\s+(?:lot|bit|little)\b)|an|the|my|our|your|his|her|their|this|that|"
    r"it|them|dinner|lunch|breakfast|errands|something|some|around|through|day)\b)"
    # Figures of speech: "fishing for compliments", "swimming in paperwork", "running on fumes".
    r"(?!\s+(?:for\s+(?:compliments|praise|attention|likes|answers|info|information|sympathy|reassurance|"
    r"votes|office)|in\s+(?:circles|work|paperwork|debt|emails|tasks|bills)|on\s+(?:empty|fumes|thin\s+ice))\b)"
)
_DOING_AT_ALL = regex(rf"(?:^|\s|')(?:{_DOING})\b")
# "I love hiking" is the preference rule's ("Léa loves hiking"): a second note of the same clause
# would refine it into a fact, and her tastes would lose it.
_LIKES = (
    r"(?:'m|\s+am|\s+really|\s+just|\s+also|\s+still|\s+absolutely|\s+totally)*\s+(?:love|enjoy|like|into)\b"
)
TASTE = regex("^" + _LIKES)
# "movie marathons", "video game tournaments": a word before the pastime that makes it another thing.
_OTHER_THING = regex(r"(?:^|\s)(?:movie|movies|film|tv|netflix|binge|anime|gaming|game|video|book|reading)$")

_PETS = (
    r"dogs?|pupp(?:y|ies)|cats?|kittens?|turtles?|tortoises?|hamsters?|rabbits?|bunn(?:y|ies)|parrots?|"
    r"guinea\s+pigs?|horses?|ponies|pony|lizards?|snakes?|goldfish|budgies?|ferrets?|" + BREEDS_EN + "s?"
)
_OWN_PET_EN = regex(
    r"\b(?:(?P<poss>my|our)\s+(?:(?:new|little|old|sweet|rescue|adopted|two|three|four)\s+){0,2}"
    r"|(?P<who>i|we)(?:'ve|\s+have|\s+just|\s+finally|\s+recently|\s+also)*\s+"
    r"(?:have|got|adopted|rescued|bought|brought\s+home)\s+(?:a|an|two|three|four|\d{1,2})\s+"
    r"(?:(?:new|little|sweet|rescue|baby)\s+)?)(?P<pet>" + _PETS + r")\b"
)
# "my dog died" is still a pet had; "my friend's dog" never reaches here (the pet must follow
# "my"); a negation before the pet makes it none: "I never had a dog", "we don't have cats".
_NO_PET = regex(r"\b(?:not|never|no|don't|didn't|if|would|'d|want|wish|hope)\b|n't\b")
# "my horse painting", "our dog food": the pet word names something else.
_PET_AS_A_WORD = regex(
    r"^\s+(?:painting|paintings|drawing|picture|pic|photo|sculpture|food|toy|toys|video|videos|shelter|sitter|"
    r"park|show|lover|lovers|person|people|bed|walker|treats|costume|mug|shirt|print|tattoo)\b"
)
# A named pet is already remembered by name ("Mickael's dog is called Rex", rules/family.py).
_NAMED_PET = regex(
    r"^(?:,?\s+(?-i:[A-Z])|\s*'s\s+name\s+is\b|\s+(?:is\s+called|is\s+named|named|called|s'appelle|nommée?)\b)"
)
# In French: "j'ai adopté un chien", "on a deux chats", "mon chiot dort", "notre tortue".
_PETS_FR = (
    r"chiens?|chiennes?|chiots?|chats?|chattes?|chatons?|lapins?|hamsters?|perroquets?|perruches?|tortues?|"
    r"poissons?\s+rouges?|cochons?\s+d'inde|chevaux|cheval|poneys?|furets?|lézards?|serpents?"
)
_OWN_PET_FR = regex(
    r"\b(?:(?P<poss>mon|ma|mes|notre|nos)\s+(?:(?:nouveau|nouvelle|petit|petite|vieux|vieille|deux|trois)\s+){0,2}"
    r"|(?P<who>j'ai|nous\s+avons|on\s+a)\s+(?:(?:enfin|récemment|aussi|déjà)\s+)*"
    r"(?:adopté\s+|recueilli\s+|acheté\s+|ramené\s+|eu\s+)?(?:un|une|deux|trois|quatre|\d{1,2})\s+"
    r"(?:(?:petit|petite|nouveau|nouvelle)\s+)?)(?P<pet>" + _PETS_FR + r")\b"
)
# Not had or not done, in French: a negation, a supposition, a wish (pets and pastimes).
_NOT_DONE_FR = regex(r"\b(?:ne|n'|pas|jamais|si|voudrais|veux|aimerais|rêve)\b")
_PET_AS_A_WORD_FR = regex(r"^\s+(?:en\s+peluche|de\s+(?:quelqu'un|mon|ma|mes|ton|ta|tes|son|sa|ses)\b)")


def bounded(text: str) -> str:
    """`text` cut to its first words, marked when cut (a kind memory is recalled for its kind, not length)."""
    words = text.split()
    said = " ".join(words[:_MAX_CLAUSE_WORDS])
    return said + ("…" if len(words) > _MAX_CLAUSE_WORDS else "")


def bounded_clause(hit: Hit) -> str:
    """The clause in the third person, bounded."""
    return bounded(hit.whole_clause())


def kind_memory(hit: Hit, head: str, key: str, tag: str, *, said: str | None = None) -> Item:
    """One instance of a kind, remembered (activities here, works in rules/works.py): `head` ("Léa's
    pets include a dog") with the clause that said it (`said`; by default the whole clause, bounded),
    in the rule's language, found by `key` and tagged with its kind."""
    content = kind_note(hit.speaker, head, bounded_clause(hit) if said is None else said, french=hit.french)
    return Item(content, MemoryType.FACT, hit.confidence(_CONFIDENCE), [key], tags=[tag])


# Nouns said for the pastime itself: "went on a hike" is hiking.
_GERUNDS = {
    "hike": "hiking", "hikes": "hiking", "swim": "swimming", "swims": "swimming", "workout": "working out",
    "workouts": "working out", "picnic": "picnics",
}  # fmt: skip


def _pastime(hit: Hit, term: str) -> Item:
    """ "Léa's outdoor activities include hiking: ...", of the pastime as said ("hike", "hiking")."""
    thing = _GERUNDS.get(term, term)
    head = f"{possessive_en(hit.speaker)} {_KINDS.of(term)} include {thing}"
    return kind_memory(hit, head, thing, ACTIVITY_TAG)


def _activity(hit: Hit) -> Item | None:
    between = hit.group("between")
    # Read with its subject, so that "I'd love to" shows its "'d".
    if _NOT_DONE.search(hit.group("who") + between) or not _DOING_AT_ALL.search(between):
        return None
    if _OTHER_THING.search(between) or (hit.group("who").casefold() == "i" and TASTE.match(between)):
        return None
    return _pastime(hit, " ".join(hit.group("term").split()).casefold())


# "our family camping trip", "my weekend hikes": a pastime the speaker's own, said with no verb of
# doing. Only the words below may stand between "my"/"our" and the pastime, so that "my son's
# soccer" or "my sister's yoga class" (someone else's) never match.
_POSSESSED_EN = regex(
    r"\b(?:my|our)\s+(?:(?:family|weekend|weekly|annual|yearly|summer|winter|spring|fall|autumn|morning|"
    r"evening|daily|nightly|sunday|saturday|usual|regular|first|latest|favorite|favourite|new|last|recent|"
    r"big|little|long|early)\s+){0,3}(?P<term>" + _KINDS.terms + r")"
    r"(?P<noun>\s+(?:trips?|class(?:es)?|lessons?|sessions?|club|group|routine|practice|days?|weekends?|"
    r"nights?|adventures?|buddy|buddies|partner))?\b"
)
# What makes it not (or no longer) the speaker's: "I miss our hikes", "we cancelled our camping trip".
_NOT_HAD = regex(
    r"\b(?:not|never|no|don't|didn't|if|would|'d|want|wish|hope|miss|missed|cancel(?:l)?ed|cancel|skipped|"
    r"postponed|used|plan|planned|planning|next)\b|n't\b"
)
# "I love our weekend hikes" is the preference rule's (see TASTE).
_I_LIKE = regex(r"\bi" + _LIKES)


# "I hike every weekend", "we volunteered at the shelter": the pastime said by its own verb.
_PASTIME_VERBS = {
    "hike": "hiking", "hiked": "hiking", "swim": "swimming", "swam": "swimming", "surf": "surfing",
    "surfed": "surfing", "ski": "skiing", "skied": "skiing", "camped": "camping", "kayaked": "kayaking",
    "biked": "biking", "cycled": "cycling", "danced": "dancing", "meditate": "meditation",
    "meditated": "meditation", "volunteer": "volunteering", "volunteered": "volunteering",
    "volunteers": "volunteering", "jog": "jogging", "jogged": "jogging", "run": "running", "ran": "running",
}  # fmt: skip
# "I run" is a pastime only with a distance or how often ("I run 5k every morning", "I ran 10 miles"),
# never "I run a bakery" or "I ran into Sam".
_RUN_AS_SPORT = regex(
    r"^\s+(?:(?:a\s+)?(?:half\s+)?(?:\d+(?:[.,]\d+)?\s*(?:k|km|kms|mi|miles?|kilomet(?:er|re)s?)\b|marathons?\b)|"
    r"(?:every|each)\s+(?:day|morning|evening|night|week|weekend)|daily|twice|three\s+times|most\s+(?:days|mornings))"
)
_DIRECT_EN = regex(
    r"\b(?P<who>i|we)(?P<between>(?:\s+(?:also|still|often|usually|regularly|sometimes|really|actually|just|"
    r"recently|finally|even|always|occasionally|have|had|'ve|'d))*)\s+(?P<verb>"
    + "|".join(sorted(_PASTIME_VERBS, key=len, reverse=True))
    + r")\b(?!\s+(?:to|through|past|around|across|in\s+(?:circles|work|debt)|for\s+(?:office|it|cover))\b)"
)


def _direct(hit: Hit) -> Item | None:
    between = hit.group("between")
    # "I'd hike more if ...": a wish; "I'd" reads "I had" as often, so refuse it.
    if "'d" in between or _NOT_DONE.search(hit.clause.text[: hit.match.start()]):
        return None
    verb = hit.group("verb").casefold()
    if verb in ("run", "ran") and not _RUN_AS_SPORT.match(hit.clause.text[hit.match.end() :]):
        return None
    return _pastime(hit, _PASTIME_VERBS[verb])


def _possessed(hit: Hit) -> Item | None:
    before = hit.clause.text[: hit.match.start()]
    if _NOT_HAD.search(before) or _I_LIKE.search(before) or _OTHER_THING.search(before):
        return None
    return _pastime(hit, " ".join(hit.group("term").split()).casefold())


# "we took the kids to the museum", "my kids love the zoo": a family outing, said by the place
# gone to; the memory names the kind so that "what does she do with her family?" reaches it.
_VENUES = (
    r"zoo|aquarium|museum|art\s+gallery|gallery|beach|national\s+park|amusement\s+park|theme\s+park|"
    r"water\s+park|park|carnival|circus|planetarium|farmers'?\s+market|"
    r"botanical\s+gardens?|theat(?:er|re)|lake|library|bookstore|cinema|movies|science\s+center"
)
# Events gone to, told the same way ("I went to a pride parade", "we were at the conference"): a
# question asks "what events has she attended?".
_EVENTS = (
    r"concert|festival|fair|parade|rally|march|protest|conference|convention|workshop|seminar|meetup|"
    r"fundraiser|charity\s+(?:run|walk|event|gala)|support\s+group|book\s+club|game\s+night|talent\s+show"
)
_EVENT_KIND = regex(rf"^(?:{_EVENTS})$")
_OUTING_EN = regex(
    r"\b(?P<who>i|we|(?:my|our)\s+(?:kids|children|family|son|daughter|husband|wife|partner|boys|girls))"
    r"(?P<between>(?:'[a-z]+)?(?:\s+[\w'-]+){0,5}?)\s+(?:to|at|in|by)?\s*(?:the|a)\s+"
    r"(?:(?:local|new|big|little|nearby|city|children's|kids'|pride|lgbtq\+?|music|art|book|school|charity)\s+)?"
    r"(?P<venue>" + _VENUES + "|" + _EVENTS + r")\b"
    r"(?!['’]s|\s+(?:ticket|tickets|pass|passes|membership|website|app|site|page)\b)"
)
_OUTING_VERBS = regex(
    r"(?:^|\s|')(?:went|go|goes|been|took|take|taking|visited|visit|love|loves|loved|enjoy|enjoyed|"
    r"spent|spend|were|was|had\s+a\s+blast|had\s+fun)\b"
)


def _outing(hit: Hit) -> Item | None:
    between = hit.group("between")
    # Who went is the speaker or their own family: "they", "she", "my friend" make it someone else's.
    if _NOT_DONE.search(between) or not _OUTING_VERBS.search(between) or _PLAN.search(between):
        return None
    if _NOT_DONE.search(hit.clause.text[: hit.match.start()]):
        return None
    # "I love going to the beach" is the preference rule's (see TASTE).
    if hit.group("who").casefold() == "i" and TASTE.match(between):
        return None
    venue = " ".join(hit.group("venue").split()).casefold()
    kind = "events attended" if _EVENT_KIND.match(venue) else "outings and family activities"
    return kind_memory(hit, f"{possessive_en(hit.speaker)} {kind} include the {venue}", venue, ACTIVITY_TAG)


def _pet(hit: Hit) -> Item | None:
    """ "Léa's pets include a dog: ..." / "Les animaux de Léa incluent un chien : ..."."""
    before = hit.clause.text[: hit.match.start("pet")]
    after = hit.clause.text[hit.match.end() :]
    no_pet, as_a_word = (_NOT_DONE_FR, _PET_AS_A_WORD_FR) if hit.french else (_NO_PET, _PET_AS_A_WORD)
    if no_pet.search(before) or _NAMED_PET.match(after) or as_a_word.match(after):
        return None
    pet = " ".join(hit.group("pet").split()).casefold()
    if hit.french:
        # "un chien", "une tortue", "des chats"
        article = "des" if pet.endswith(("s", "x")) else "une" if pet in FEMININE_KIN_FR else "un"
        pet = f"{article} {pet}"
        head = f"Les animaux {of_fr(hit.speaker)} incluent {pet}"
    else:
        # "a dog", but "kittens" and "goldfish" as said.
        pet = pet if pet.endswith(("s", "goldfish")) else f"a {pet}"
        head = f"{possessive_en(hit.speaker)} pets include {pet}"
    return kind_memory(hit, head, pet, PET_TAG)


# "we went on a trip to Oregon", "I flew to Tokyo", "our vacation in Tampa", "we spent a week in
# Portugal", "just got back from Iceland": a named place the speaker went to. The place is a
# capitalised name right after the preposition.
_TRAVEL = (
    r"went|go|goes|been|was|were|travel(?:l)?ed|travel(?:l)?ing|flew|trips?|vacation(?:ed)?|holidays?|visited|"
    r"drove|toured|stayed|explored|exploring|spent|spend|spending|back"
)
_PLACE_EN = regex(
    # A date said on the way counts as a word: "I took a short trip last week to Rome".
    r"\b(?P<who>i|we)(?P<between>(?:'[a-z]+)?(?:\s+(?:[\w'-]+|\x00\d+\x00)){0,8}?)\s+"
    # "visited Chicago": the place is the verb's object.
    r"(?:(?:to|in|around|across)\s+|(?<=visited\s)|(?<=toured\s)|(?<=explored\s)|(?<=back\sfrom\s))"
    r"(?P<place>(?:the\s+)?(?-i:[A-Z][\w-]+)(?:\s+(?-i:[A-Z][\w-]+)){0,2})(?!['’\w])"
)
_PLAN = regex(
    r"\bgoing$|'m$|'re$|\b(?:am|are)$"
    # "I'm saving up for a trip to Japan", "we booked a trip to Rome": a trip still to come.
    r"|\b(?:saving\s+(?:up\s+)?for|planning|plan\s+to|want\s+to|wanna|hope\s+to|hoping|dream(?:ing)?\s+of|"
    r"thinking\s+(?:of|about)|booked|booking|will|'ll|gonna|going\s+to|can't\s+wait)\b"
    # "we're spending Easter in Rome", "I'm flying to Tokyo": a trip said as under way or to come
    r"|(?:'re|'m|\b(?:am|are|is))\s+(?:\w+\s+)?(?:spending|flying|heading|driving|travel(?:l)?ing|doing|taking)\b"
)
_TRAVELLED = regex(rf"(?:^|\s|')(?:{_TRAVEL})\b")
# A move is a new home, not a place visited: "I moved back to Paris in May".
_MOVED_HOME = regex(r"\b(?:moved|moving|relocated|relocating)\b")
_NOT_A_PLACE = frozenset(
    w.casefold()
    for w in [
        *WEEKDAYS_EN,
        *MONTHS_EN,
        "I",
        "Christmas",
        "Easter",
        "Work",
        "School",
        "Home",
        "Class",
        "Office",
        "Gym",
        # errands, not trips: "just got back from the ER"
        "ER",
        "ICU",
        "DMV",
        "Hospital",
        "Clinic",
        "Dentist",
        "Doctor",
        "Vet",
    ]
)
# A capitalised name followed by one of these is a thing, not a place: "the Apple store", "the
# Design channel", "the Friday meeting".
_A_THING = regex(
    r"^\s+(?:store|shop|app|apps|account|website|site|page|channel|server|thread|chat|call|meeting|"
    r"standup|docs?|repo|dashboard|board|ticket|file|folder|sheet|spreadsheet|tab|menu|settings)\b"
)


def _place(hit: Hit) -> Item | None:
    between = hit.group("between")
    # "we're going to Italy" is a plan, not a place been to; "I was born in Paris" is no trip.
    if (
        _NOT_DONE.search(hit.group("who") + between)
        or re.search(r"\bborn\b", between, re.IGNORECASE)
        or not _TRAVELLED.search(between)
        or _PLAN.search(between)
        or _MOVED_HOME.search(between)
    ):
        return None
    place = " ".join(hit.group("place").split())
    words = [w.casefold() for w in place.split() if w.casefold() != "the"]
    if words[-1] in _NOT_A_PLACE or words[0] in _NOT_A_PLACE or APPS.intersection(words):
        return None
    if _A_THING.match(hit.clause.text[hit.match.end("place") :]):
        return None
    head = f"{possessive_en(hit.speaker)} travels and places visited include {place}"
    return kind_memory(hit, head, place, PLACE_TAG)


# In French, a pastime said with "faire", "jouer" or "pratiquer" and its article ("je fais de
# l'escalade", "on a fait du camping", "je joue de la guitare"); the memory names the kind in French.
_KINDS_FR = Kinds(
    (
        "Les sports et activités",
        r"escalade|course(?:\s+à\s+pied)?|jogging|footing|natation|vélo|cyclisme|yoga|pilates|tennis|basket|"
        r"foot|football|rugby|boxe|judo|karaté|ski|snowboard|surf|musculation|muscu|crossfit|badminton|squash|"
        r"golf|roller|patin|aviron|triathlon|marathon|handball|volley|hockey|salle|escrime|tir\s+à\s+l'arc|"
        r"bowling|gymnastique|taekwondo|jiu-jitsu|zumba|aérobic|planche\s+à\s+voile|kitesurf",
    ),
    (
        "Les activités de plein air",
        r"randonnée|rando|camping|pêche|kayak|canoë|voile|équitation|cheval|pique-nique|alpinisme|trek|"
        r"plongée(?:\s+sous-marine)?|rafting|parapente|spéléologie|paddle|parachutisme",
    ),
    (
        "L'art et les loisirs créatifs",
        r"peinture|dessin|poterie|céramique|photo|photographie|tricot|couture|crochet|broderie|sculpture|"
        r"calligraphie|poésie|scrapbooking|aquarelle|origami|patchwork|cosplay",
    ),
    (
        "La musique et les loisirs",
        r"guitare|piano|violon|violoncelle|batterie|ukulélé|flûte|saxophone|chant|trompette|clarinette|"
        r"trombone|accordéon|banjo|mandoline|harmonica",
    ),
    (
        "Les loisirs et activités",
        r"cuisine|pâtisserie|jardinage|jeux\s+vidéo|échecs|puzzles?|danse|bénévolat|méditation|astronomie|"
        r"karaoké|jeux\s+de\s+société",
    ),
)
_ACTIVITY_FR = regex(
    r"\b(?:je|j'ai|j'en|nous|nous\s+avons|on|on\s+a)\s+(?:(?:aussi|souvent|encore|enfin|déjà|beaucoup|"
    r"régulièrement|toujours)\s+)*(?:fais|fait|faisons|faisais|pratique|pratiqué|pratiquons|joue|joué|jouons|"
    r"jouais)\s+(?:(?:aussi|souvent|encore|beaucoup|régulièrement)\s+)*(?P<art>du|de\s+la|de\s+l'|des|au|à\s+la|"
    r"à\s+l'|aux|la|le|l')\s*(?P<term>" + _KINDS_FR.terms + r")(?![\w-])"
)
# The article the pastime takes once named: "de l'escalade" -> "l'escalade", "du vélo" -> "le vélo".
_ARTICLE_FR = {
    "du": "le ", "de la": "la ", "de l'": "l'", "des": "les ", "au": "le ", "à la": "la ", "à l'": "l'",
    "aux": "les ", "la": "la ", "le": "le ", "l'": "l'",
}  # fmt: skip


def _activity_fr(hit: Hit) -> Item | None:
    """ "Les sports et activités de Léa incluent l'escalade : Léa fait de l'escalade le samedi"."""
    if _NOT_DONE_FR.search(hit.clause.text[: hit.match.start()]):
        return None  # "je ne fais plus de ...", "si je fais du ski": not said to be done
    term = " ".join(hit.group("term").split()).casefold()
    thing = _ARTICLE_FR[" ".join(hit.group("art").split()).casefold()] + term
    return kind_memory(hit, f"{_KINDS_FR.of(term)} {of_fr(hit.speaker)} incluent {thing}", term, ACTIVITY_TAG)


ACTIVITIES = (
    # Said with a verb of doing first; the same clause needs no second, verbless reading.
    OneOf(
        (
            Rule(_ACTIVITY_EN, _activity, french=False, object_groups=()),
            Rule(_DIRECT_EN, _direct, french=False, object_groups=()),
            Rule(_POSSESSED_EN, _possessed, french=False, object_groups=()),
        )
    ),
    Rule(_ACTIVITY_FR, _activity_fr, french=True, object_groups=()),
    Rule(_OUTING_EN, _outing, french=False, object_groups=()),
    Rule(_OWN_PET_EN, _pet, french=False, object_groups=()),
    Rule(_OWN_PET_FR, _pet, french=True, object_groups=()),
    Rule(_PLACE_EN, _place, french=False, object_groups=()),
)
