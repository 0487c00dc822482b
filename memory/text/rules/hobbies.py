"""Rules for pastimes and habits: "I play the cello", "I keep bees", "reading helps me relax"."""

from __future__ import annotations

from memory.models import MemoryType

from ..normalize import regex
from ..phrases import points_back, without_the_listener
from ..rewrite import capitalize_first, possessive_en
from ..sentences import opens_relative_clause
from .activities import ACTIVITY_TAG
from .base import OBJECT, Hit, Item, OneOf, Rule

__all__ = ["HOBBIES"]

_CONFIDENCE = 0.7
_OFTEN_EN = r"(?:(?:also|still|often|usually|regularly|sometimes|really|actually)\s+)?"
_HOBBY_EN = regex(
    r"\bi\s+" + _OFTEN_EN + r"(?P<verb>play|keep|grow|collect|practi[cs]e|breed|knit|paint|brew|bake)"
    r"\s+" + OBJECT
)
# First words that make the verb mean something else ("I keep forgetting", "I play it safe").
_NOT_A_PASTIME_EN = frozenset(
    {
        "along", "around", "away", "back", "dumb", "fair", "forgetting", "going", "in", "mind",
        "nice", "on", "out", "quiet", "safe", "saying", "telling", "thinking", "tired", "trying",
        "up", "wondering", "worse", "better", "older", "weary",
    }
)  # fmt: skip
# Idioms whose verb is no pastime ("I keep an eye on it", "I play a part in it").
_IDIOMS_EN = (
    "an eye", "a close eye", "an open mind", "a low profile", "a role", "a part", "a key role", "track",
    "in touch", "my word", "my promise", "a secret", "the peace", "the change", "a straight face",
)  # fmt: skip
# "je fais/joue" only with what is done or played ("du piano", "de l'escalade"): "je fais
# attention" is not a pastime.
_HOBBY_FR = regex(
    r"(?:\bje\s+(?:(?P<verb>fais|joue)\s+(?:aussi\s+|encore\s+|souvent\s+)?(?P<partitive>du\s+|de\s+la\s+|"
    # a game named: "je joue à Valorant presque tous les soirs"
    r"de\s+l'|des\s+|au\s+|à\s+la\s+|aux\s+|à\s+(?=(?-i:[A-Z0-9])))|(?P<other>collectionne|cultive|pratique|tricote|peins)\s+)"
    r"|\bj'(?P<elided>élève)\s+)" + OBJECT
)


def _pastime_en(hit: Hit) -> Item | None:
    verb = hit.words("verb").lower()
    phrase = hit.phrase.lower()
    if verb == "keep" and phrase.split()[0].endswith("ing"):
        return None  # "I keep hoping it works"
    if phrase.startswith(_IDIOMS_EN):
        return None
    return _pastime(hit, f"I {verb} ")


def _pastime_fr(hit: Hit) -> Item:
    if hit.group("elided"):
        return _pastime(hit, f"j'{hit.words('elided')} ")
    verb = hit.words("verb") or hit.words("other")
    return _pastime(hit, f"je {verb} {hit.group('partitive').lstrip()}")


def _pastime(hit: Hit, said: str) -> Item:
    """The pastime as the speaker said it (`said`: its first words, then the object phrase),
    rewritten in the third person."""
    content = hit.third(said + hit.phrase)
    return Item(content, MemoryType.FACT, hit.confidence(_CONFIDENCE), [hit.phrase])


# The pastimes named as such: "my main hobbies are X and Y", "X and Y are my hobbies".
# ("my favourite hobby is X" is the favourites rule's, in preferences.)
_HOBBY_WORDS_EN = r"(?:main\s+|only\s+|biggest\s+|two\s+|three\s+|new\s+)?(?:hobb(?:y|ies)|pastimes?)"
_MY_HOBBIES_EN = regex(r"\bmy\s+" + _HOBBY_WORDS_EN + r"\s+(?:is|are|include|would\s+be)\s+" + OBJECT)
_ARE_MY_HOBBIES_EN = regex(
    r"^(?P<object>[\w' -]+(?:,\s*[\w' -]+)*)\s+(?:is|are)\s+(?:(?:probably|definitely|really)\s+)?my\s+"
    r"(?:favou?rite\s+)?" + _HOBBY_WORDS_EN + r"\b"
)


def _named_hobbies(hit: Hit) -> Item:
    """The speaker's hobbies as they named them, with the kind, so that "what are her hobbies?" finds them."""
    things = hit.third(hit.phrase)
    if things.split(" ", 1)[0].endswith("ing"):
        # "Playing chess is my hobby": the capital was the sentence's, not the hobby's.
        things = things[0].lower() + things[1:]
    content = f"{possessive_en(hit.speaker)} hobbies include {things}"
    return Item(content, MemoryType.FACT, hit.confidence(_CONFIDENCE), [hit.phrase], tags=[ACTIVITY_TAG])


# What the speaker has been doing since a time said: "I've been coding for 10 years", "I've been
# training since January" (the date makes it a pastime of theirs, not today's chore).
_BEEN_DOING_EN = regex(r"\bi(?:'ve|\s+have)\s+been\s+(?P<object>[a-z]+ing\b[^,;:!?]*)")


def _been_doing(hit: Hit) -> Item | None:
    """ "Mickael has been coding for 10 years (since about 2016)"."""
    if points_back(hit.phrase) or hit.phrase.split(" ", 1)[0].lower() in _NOT_A_PASTIME_GERUND:
        return None
    content = f"{hit.speaker} has been {hit.third(hit.phrase)}"
    return Item(content, MemoryType.FACT, hit.confidence(_CONFIDENCE), [hit.phrase])


# What the speaker uses or plays as: "I use Arch btw", "I mostly use vim", "I main Mercy in
# Overwatch", "j'utilise Linux". Not "I use it to ...", "I used to ...".
_USES_EN = regex(
    r"\bi\s+(?:(?:mostly|mainly|usually|always|only|still|now|also|just|personally)\s+)*(?P<verb>use|main|self-host|selfhost|host)\s+"
    + OBJECT
)
_USES_FR = regex(
    r"\bj'utilise\s+(?:(?:surtout|toujours|uniquement|encore|aussi|principalement)\s+)*" + OBJECT
)
_NOT_USED = frozenset(
    {
        "to",
        "my",
        "your",
        "the",
        "a",
        "an",
        "some",
        "that",
        "this",
        "it",
        "them",
        "for",
        "as",
        "in",
        "on",
        "with",
    }
)


# The character a player plays most, said as a noun and named: "my main is Genji", "my main champ is
# Ahri" (not "my main is broken rn").
_MY_MAIN_EN = regex(
    r"\bmy\s+main(?:\s+(?:character|char|hero|champ(?:ion)?|class|legend|agent|pick|deck))?\s+(?:is|=|rn\s+is)\s+"
    r"(?=(?-i:[A-Z]))" + OBJECT
)


# Where the speaker games: "I play on PS5 mostly, sometimes Switch", "I mainly game on PC and Steam
# Deck" (named platforms only: "I play on the team" is no console).
_PLATFORM_EN = (
    r"(?:PC|PS[345]|PlayStation(?:\s+[345])?|Xbox(?:\s+(?:One|Series\s+[XS]))?|(?:Nintendo\s+)?Switch(?:\s+2)?|"
    r"Steam\s*Deck|Game\s*Pass|Quest(?:\s+\d)?|mobile|console|Mac|Linux)\b"
)
_PLAYS_ON_EN = regex(
    r"\bi\s+(?:mostly\s+|mainly\s+|usually\s+|only\s+|also\s+|now\s+|still\s+)?(?:play|game)\s+"
    r"(?:mostly\s+|mainly\s+|only\s+)?on\s+(?:(?:my|the|a)\s+)?"
    rf"{_PLATFORM_EN}(?:\s+(?:mostly|mainly))?(?:(?:\s*(?:,|and|or|&|/)\s*|,?\s+(?:but\s+)?(?:sometimes|occasionally|"
    rf"also)\s+)(?:(?:my|the|a)\s+)?{_PLATFORM_EN}){{0,2}}"
)


# What the speaker did for fun, or was, and no longer does: "I used to play bass in a punk band", "I
# used to be a competitive swimmer" (not where one lived or worked: rules/home.py, rules/work.py).
_USED_TO_EN = regex(
    r"\bi\s+used\s+to\s+(?:play|sing|dance|paint|draw|run|swim|skate|surf|climb|box|fence|ride|race|compete|"
    r"coach|teach|write|act|perform|model|knit|ski|snowboard|smoke|vape|drink|be\s+(?:an?|in|on)\s)[^,;:!?.]*"
)


# An instrument once played with others, and when: "When I was a teenager I played bass in a punk band
# called The Rusty Nails", "I played violin in the school orchestra".
_PLAYED_IN_EN = regex(
    r"(?:\bwhen\s+i\s+was\s+[^,;:!?.]{1,30}?,?\s+|\bback\s+in\s+[^,;:!?.]{1,30}?,?\s+)?"
    r"\bi\s+(?:also\s+|once\s+)?played\s+(?:the\s+)?(?:bass|guitar|drums|piano|keys|keyboards?|violin|viola|cello|"
    r"sax(?:ophone)?|trumpet|trombone|flute|clarinet|ukulele|banjo|harp|oboe)\s+(?:in|with|for\s+(?-i:[A-Z]))\s*[^,;:!?.]*"
)


# A player's rank in a ranked game: "I'm in Diamond 2 right now", "I'm hardstuck Gold 3 in Valorant",
# "I'm plat 1", "I'm finally Immortal!" (a division number, or the tier's capital and nothing after it:
# not "I'm in Gold leaf paint", "I'm silver", "I'm a legend").
_TIERS = (
    r"iron|bronze|silver|gold|platinum|plat|emerald|diamond|masters?|grandmaster|challenger|immortal|radiant|"
    r"ascendant|champion|grand\s+champion|legend|mythic|predator|elite|supersonic\s+legend"
)
_RANKED_EN = regex(
    r"\bi(?:'m|\s+am)\s+(?:currently\s+|now\s+|still\s+|finally\s+|(?:hard\s*)?stuck\s+(?:in\s+|at\s+)?)*"
    rf"(?P<object>(?:(?:in|at)\s+)?(?:(?:{_TIERS})\s+(?:\d|i{{1,3}}|iv|v)\b|(?=(?-i:[A-Z]))(?:{_TIERS})\b"
    r"(?=\s*(?:$|[,.!?])|\s+(?:(?:right\s+now|rn|now|this\s+season)\b|in\s+(?-i:[A-Z]))))"
    # and in which game: "I'm Gold 2 in Valorant"
    r"(?:\s+in\s+(?-i:[A-Z])[\w'&:-]*(?:\s+(?-i:[A-Z0-9])[\w'&:-]*){0,2})?)"
)


def _my_main(hit: Hit) -> Item | None:
    """ "Kai mains Genji"."""
    if points_back(hit.phrase):
        return None
    return Item(
        f"{hit.speaker} mains {hit.third(hit.phrase)}",
        MemoryType.FACT,
        hit.confidence(_CONFIDENCE),
        [hit.phrase],
    )


def _uses(hit: Hit) -> Item | None:
    """ "Mickael uses vim", "Mickael mains Mercy in Overwatch", "Mickael utilise Linux"."""
    used = hit.phrase
    if points_back(used) or opens_relative_clause(hit.clause.text[: hit.match.start()]):
        return None  # "the app I use for notes": which app was said before
    if hit.french:
        content = f"{hit.speaker} utilise {hit.third(used)}"
    else:
        content = f"{hit.speaker} {hit.words('verb').lower()}s {hit.third(used)}"
    return Item(content, MemoryType.FACT, hit.confidence(_CONFIDENCE), [used])


# What the speaker does that helps them: "Reading helps me relax", "..., but running keeps me sane".
# A gerund opens the clause or a part of it; the dropped-subject reading ("I'm reading") may have
# put "I'm" before it.
_HELPS_ME_EN = regex(
    r"(?:^|[,;]\s*)(?:(?:but|and|so|plus)\s+)?(?:i(?:'m|\s+am)\s+)?(?P<object>[a-z]+ing\b[^,;:!?]{0,60}?)\s+"
    r"(?:(?:really|always|definitely|also|honestly|just)\s+)*(?P<verb>helps|keeps|calms|relaxes|lets)\s+me\b"
    r"(?P<rest>[^,;:!?.]{0,60})"
)
# Gerunds that are no pastime: "Talking about it helps me", "Knowing that keeps me going".
_NOT_A_PASTIME_GERUND = frozenset(
    {"talking", "knowing", "having", "being", "seeing", "hearing", "thinking", "getting"}
)


def _helps_me(hit: Hit) -> Item | None:
    """ "Reading a great fantasy book helps me escape" -> "Reading a great fantasy book helps Tim escape"."""
    doing = hit.phrase
    if doing.split(" ", 1)[0].lower() in _NOT_A_PASTIME_GERUND or points_back(doing):
        return None  # "Playing it helps me": what "it" is was said before
    said = f"{doing} {hit.words('verb').lower()} me{hit.group('rest').rstrip()}"
    content = without_the_listener(capitalize_first(hit.third(said, named=False)), hit.speaker)
    if not content:
        return None
    return Item(content, MemoryType.FACT, hit.confidence(_CONFIDENCE), [doing])


# A group the speaker belongs to: "I'm in a band", "I'm part of a community choir", "I'm a member of
# the local running club", "je fais partie d'une chorale".
_MEMBER_EN = regex(
    r"\bi(?:'m|\s+am)\s+(?:also\s+|still\s+|now\s+)?(?:in|part\s+of|a\s+member\s+of|on)\s+"
    r"(?P<object>(?:a|an|the|our|my)\s+(?:[\w'-]+\s+){0,3}?(?:band|choir|club|team|league|group|orchestra|troupe|crew|"
    r"guild|society|committee|ensemble|quartet|squad)s?"
    # the group's noun ends its name: not "the group chat", "a team call"
    r"(?=\s*(?:$|[,;:!?.)]|(?:at|in|for|of|called|named|with|that|which|here|there|now|too|and|but)\b))[^,;:!?.]*)"
)
# Where the speaker keeps going: "I've been going to a support group for trans folks", "I go to
# therapy every week", "I've started going to church again".
_GOES_TO_EN = regex(
    r"\bi(?:'ve|\s+have)?(?:\s+(?:been|started|also|still|now|regularly|usually))*\s+(?:go|going|attend|attending)\s+"
    r"(?:to\s+)?(?P<object>(?:(?:a|an|the|my|our|this)\s+)?(?:[\w'-]+\s+){0,3}?(?:group|class(?:es)?|meetings?|"
    r"therapy|counsell?ing|church|mosque|synagogue|temple|gym|club|sessions?|meetups?|lessons|workshops?|"
    r"rehab|support\s+group|AA|bible\s+study|choir\s+practice|night\s+school)\b[^,;:!?.]*)"
)
# A class the speaker is taking: "I'm taking a blacksmithing class at the community college", "I'm
# doing an online course in UX design" (not "I'm taking a break", "taking a class photo").
_TAKING_A_CLASS_EN = regex(
    r"\bi(?:'m|\s+am)\s+(?:now\s+|also\s+|currently\s+|finally\s+)?(?:taking|doing|enrolled\s+in|signed\s+up\s+for)\s+"
    r"(?P<object>(?:a|an|some|two|three)\s+(?:[\w'-]+\s+){0,3}?(?:class|classes|course|courses|lessons|workshop|"
    r"program|bootcamp|certification)\b(?!\s+(?:photo|picture|pic|trip|notes?)\b)[^,;:!?.]*)"
)
# What the speaker says they do as a hobby, or streams: "I build mechanical keyboards as a hobby",
# "I stream on Twitch every Friday night".
_AS_A_HOBBY_EN = regex(
    r"\bi\s+(?:also\s+|mostly\s+|now\s+)?(?P<object>(?!(?:am|was|have|had|do|did|think|guess|mean|just|like|love|enjoy)\b)[a-z]+"
    r"(?:\s+[\w'-]+){0,5}?\s+(?:as\s+a\s+(?:hobby|side\s+hustle|side\s+project)|for\s+fun))\b"
    r"|\bi\s+(?:also\s+|now\s+)?(?P<stream>stream\s+(?:on|every|most|a\s+lot|games|music)\b[^,;:!?.]*)"
)
# "I should go to the gym", "I want to go to therapy": not gone to yet.
_NOT_YET_GOING = regex(r"\b(?:will|gonna|going\s+to\s+go|want|wanna|should|might|plan)\b")
_MEMBER_FR = regex(
    r"\bje\s+(?:fais\s+partie|suis\s+membre)\s+(?P<de>d'|de\s+la\s+|du\s+|des\s+|de\s+l')\s*"
    r"(?P<object>(?:une?\s+)?(?:[\w'-]+\s+){0,3}?(?:groupe|chorale|club|équipe|orchestre|troupe|association|"
    r"asso|ligue)\b[^,;:!?.]*)"
)


def _as_said(hit: Hit) -> Item:
    """The words matched, in the third person, as a fact: "Leo bikes to work every day", "Kai is in
    Diamond 2", "Mickael is in a band", "Mickael fait partie d'une chorale"."""
    return Item(hit.as_said(), MemoryType.FACT, hit.confidence(_CONFIDENCE), [hit.phrase])


def _goes_to(hit: Hit) -> Item | None:
    """ "Caroline has been going to a support group for trans folks": a place kept going to."""
    if _NOT_YET_GOING.search(hit.clause.text[hit.match.start() : hit.match.end()]):
        return None
    return _as_said(hit)


HOBBIES: tuple[OneOf | Rule, ...] = (
    OneOf(
        (
            Rule(_MY_HOBBIES_EN, _named_hobbies, french=False, max_words=12, lists=True),
            Rule(_ARE_MY_HOBBIES_EN, _named_hobbies, french=False, max_words=12, lists=True),
            Rule(_HOBBY_EN, _pastime_en, french=False, max_words=12, not_objects=_NOT_A_PASTIME_EN),
            Rule(_HOBBY_FR, _pastime_fr, french=True, max_words=12),
        )
    ),
    Rule(_HELPS_ME_EN, _helps_me, french=False),
    Rule(_BEEN_DOING_EN, _been_doing, french=False, needs_date=True),
    Rule(_USES_EN, _uses, french=False, max_words=8, not_objects=_NOT_USED),
    Rule(_MY_MAIN_EN, _my_main, french=False, max_words=6),
    Rule(_RANKED_EN, _as_said, french=False, max_words=4),
    Rule(_PLAYS_ON_EN, _as_said, french=False, object_groups=()),
    Rule(_USED_TO_EN, _as_said, french=False, object_groups=()),
    Rule(_PLAYED_IN_EN, _as_said, french=False, object_groups=()),
    Rule(_USES_FR, _uses, french=True, max_words=8),
    Rule(_MEMBER_EN, _as_said, french=False),
    Rule(_GOES_TO_EN, _goes_to, french=False, max_words=14),
    Rule(_TAKING_A_CLASS_EN, _as_said, french=False, max_words=14),
    Rule(_AS_A_HOBBY_EN, _as_said, french=False, object_groups=("object", "stream")),
    Rule(_MEMBER_FR, _as_said, french=True),
)
