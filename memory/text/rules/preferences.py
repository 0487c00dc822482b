"""Rules for tastes: likes and dislikes, diets and allergies (favourites: rules/favorites.py)."""

from __future__ import annotations

from collections.abc import Callable

from memory.models import MemoryType

from ..facts import Predicate
from ..lexicons import DIET_PLANS_EN, TASTE_SINCE_EN
from ..normalize import regex
from ..phrases import is_object, points_back, trim_phrase, up_to_the_next_clause
from ..rewrite import capitalize_first, possessive_en, third_person_fr
from ..sentences import opens_relative_clause
from .base import OBJECT, Hit, Item, Rule
from .favorites import FAVORITES
from .reaching import DO_NOT_REACH_EN, NO_MEETINGS_EN, NO_MEETINGS_FR, RATHER_NOT_REACHED_EN, REACH_ME_EN

__all__ = ["PREFERENCES"]

_CONFIDENCE = 0.75
_FACT_CONFIDENCE = 0.8  # an allergy is a fact about the speaker, said plainly

_ADVERBS = (
    r"(?:(?:really|truly|also|just|still|totally|absolutely|definitely|honestly|actually|genuinely|kind\s+of|"
    r"kinda|sort\s+of|do|so|personally|generally|usually|always|secretly|simply|particularly|especially)\s+)*"
)
# How much, in French: "j'aime bien", "j'adore vraiment"; said alone, they name nothing liked.
_ADVERBS_FR = r"(?:bien|beaucoup|vraiment|trop|énormément|tellement|assez|surtout|aussi)"
_LIKE_EN = regex(
    r"\bi(?:'ve(?=\s+stopped))?\s+"
    + _ADVERBS
    + r"(?P<verb>like|love|adore|enjoy|prefer|hate|dislike|loathe|detest|despise|"
    r"can't\s+stand|cannot\s+stand|can\s+not\s+stand|don't\s+(?:really\s+|much\s+)?(?:like|love|enjoy)|"
    r"do\s+not\s+(?:really\s+)?(?:like|love|enjoy)|don't\s+mind|do\s+not\s+mind|"
    # a taste that ended: "I no longer like coffee", "I stopped enjoying running", "I used to love
    # coffee" (said of a taste, "used to" tells it is over)
    r"no\s+longer\s+(?:like|love|enjoy)|(?:have\s+)?stopped\s+(?:liking|loving|enjoying)|"
    r"used\s+to\s+(?:like|love|enjoy|adore))\s+" + OBJECT
)
# A taste told in the present perfect: "I've always loved jazz", "I have long hated mornings".
_LOVED_EN = regex(
    rf"\bi(?:'ve|\s+have)\s+(?P<since>{TASTE_SINCE_EN}\s+)*"
    r"(?P<verb>loved|liked|enjoyed|adored|hated|disliked|despised)\s+" + OBJECT
)
_THIRD_PERSON_EN = {
    "like": "likes", "love": "loves", "adore": "adores", "enjoy": "enjoys", "prefer": "prefers",
    "hate": "hates", "dislike": "dislikes", "loathe": "hates", "detest": "hates", "despise": "hates",
}  # fmt: skip
_BE_INTO_EN = regex(
    r"\bi(?:'m|\s+am|(?P<perfect>(?:'ve|\s+have)\s+(?:always\s+|long\s+|also\s+)*been))\s+(?P<neg>not\s+)?"
    r"(?:really\s+|really\s+not\s+|also\s+|such\s+|very\s+|so\s+|particularly\s+|genuinely\s+)?(?P<kind>into|"
    r"interested\s+in|drawn\s+to|"
    r"(?:a\s+)?(?:big\s+|huge\s+|massive\s+|great\s+)?fan\s+of|crazy\s+about|obsessed\s+with|"
    r"passionate\s+about|mad\s+about|addicted\s+to|allergic\s+to)\s+" + OBJECT
)
# "I'm a huge Arsenal fan", "I'm a lifelong Radiohead fan": a fan of what is named before "fan".
_NAMED_FAN_EN = regex(
    r"\bi(?:'m|\s+am)\s+(?:also\s+|really\s+)?an?\s+(?:(?:big|huge|massive|great|die-?hard|lifelong|long-?time|"
    r"massive|loyal|proud|total)\s+)?(?P<object>(?-i:[A-Z])[\w'&.-]*(?:\s+(?-i:[A-Z])[\w'&.-]*){0,2})\s+(?:fan|nerd|geek)\b"
)
# A taste said of the thing: "jazz is my jam", "pho is my comfort food", "my guilty pleasure is
# reality TV", "spicy food is not my thing", "I'd take tea over coffee any day".
_IS_MY_THING_EN = regex(
    r"^\W*(?:(?P<thing>[\w' -]{2,40}?)\s+(?P<be>is|are)\s+(?P<neg>not\s+)?my\s+"
    r"(?P<what>jam|thing|comfort\s+food|guilty\s+pleasure|weakness|kryptonite)|my\s+(?P<what2>guilty\s+pleasure|comfort\s+food|weakness)\s+(?:is|are)\s+"
    r"(?P<thing2>[\w' -]{2,40}?))\s*[.!]*$"
)
_TAKE_OVER_EN = regex(
    r"\bi(?:'d|\s+would)\s+(?:always\s+)?(?:take|pick|choose)\s+(?P<object>[^,;:!?.]+?\s+over\s+[^,;:!?.]+?)"
    r"(?:\s+any\s+day(?:\s+of\s+the\s+week)?)?\s*[.!]*$"
)
# What interests the speaker, said as the sentence's subject: "Photography really interests me",
# "Improving education is particularly interesting to me".
_INTERESTS_ME_EN = regex(
    r"^(?P<object>[^,;:!?]{3,80}?)\s+(?:(?:really|particularly|especially|very|super|so|truly|always)\s+)*"
    r"(?:interests|fascinates|(?:is|are)\s+(?:(?:really|particularly|especially|very|super|so|truly|always)\s+)*"
    r"(?:interesting|fascinating)\s+to)\s+me\b"
)
_GERUND_READ_AS_DOING_EN = regex(r"^i(?:'m|\s+am)\s+(?=\w+ing\b)")
# Subjects that say nothing once the sentence is read elsewhere: "That really interests me".
_NOT_A_TOPIC_EN = regex(
    r"^(?:it|this|that|these|those|what|which|everything|anything|something|nothing|all)\b"
)
# What the speaker does not eat or drink: "I can't have dairy", "I don't eat meat", "I can't do
# dairy". "Have" and "do" only of food ("I can't have kids", "I can't do mornings" is no diet).
_FOOD_NOT_EN = regex(
    r"\bi\s+(?P<verb>can't|cannot|can\s+not|don't|do\s+not|no\s+longer)\s+(?:really\s+|even\s+)?"
    r"(?P<what>eat|drink|(?:have|do)(?=\s+(?:any\s+)?(?:dairy|gluten|lactose|sugar|caffeine|alcohol|meat|pork|beef|"
    r"fish|shellfish|seafood|nuts|peanuts|eggs|soy|wheat|milk|cheese|spicy\s+food|coffee|red\s+meat)\b))\s+"
    + OBJECT
)
_DIET_EN = regex(
    r"\bi(?:'m|\s+am|(?P<been>['’]ve\s+been|\s+have\s+been))\s+(?P<neg>no\s+longer\s+|not\s+)?(?:now\s+|also\s+|strictly\s+)?(?:an?\s+)?"
    r"(?P<object>vegetarian|vegan|pescatarian|gluten[- ]free|lactose[- ]intolerant|teetotal|celiac|coeliac|"
    r"halal|kosher)\b(?P<anymore>\s+(?:anymore|any\s+more))?"
    # what the diet leaves in: "I'm vegetarian except for fish", "vegan apart from honey"
    r"(?P<except>,?\s+(?:except|apart\s+from|but\s+(?:i\s+)?(?:still\s+)?eat)\s+(?:for\s+)?[\w -]{2,30}?"
    r"(?=\s*(?:$|[,;.!?])))?"
    # how long it has lasted: "I've been vegan since 2019" (a date's placeholder), "since I was 12",
    # "for a while" (not "vegan for ethical reasons")
    r"(?P<how_long>\s+(?:\x00\d+\x00|since\s+[^,;.!?]{2,40}?|for\s+(?:a\s+(?:while|long\s+time)|ages|years|"
    r"months|decades|most\s+of\s+my\s+life))(?=\s*(?:$|[,;.!?])))?"
)
# One thing over another: "I'd rather we use Postgres than Mongo for this", "I'd much rather walk than
# drive" (not "I'd rather not", which rules/preferences reads as a contact wish, nor "rather than").
_RATHER_EN = regex(
    r"\bi(?:'d|\s+would)\s+(?:much\s+|really\s+|honestly\s+)?rather\s+(?:we\s+|you\s+guys\s+)?"
    r"(?P<object>(?!not\b)[^,;:!?.]+?\s+than\s+[^,;:!?.]+)"
)
# "I love how nobody answered", "I love how it never works": a complaint said wryly, no taste.
_SAID_WRYLY_EN = regex(r"^how\b.*\b(?:nobody|no\s+one|nothing|never|none|not|no)\b|^how\b.*n't\b")
# "I like to say ...", "I love the idea of ...": talk, not a taste.
_NOT_LIKED_EN = (
    "to say", "to think", "to believe", "to know", "to ask", "to see", "to point", "to add", "the idea",
    "the sound", "the way you", "not to ", "the look of",
)  # fmt: skip
_LIKE_FR = regex(
    r"\b(?:j'(?P<j_negated>aime\s+pas|supporte\s+pas|ai\s+horreur\s+d(?:e\s+|u\s+|es\s+|'))|"
    r"j'(?P<j_verb>aime|adore|apprécie|affectionne|kiffe)|je\s+(?P<je_verb>déteste|hais|préfère|kiffe|adore|"
    r"raffole\s+d(?:e|u|es)|suis\s+fan\s+d(?:e\s+|u\s+|es\s+|')|suis\s+(?:un\s+|une\s+)?(?:grande?\s+)?fan\s+"
    r"d(?:e\s+|u\s+|es\s+|')|suis\s+passionnée?\s+(?:de|d'|par)|suis\s+accro\s+(?:à|au|aux)|"
    r"ne\s+supporte\s+(?:pas|plus)|n'aime\s+(?:vraiment\s+)?pas(?:\s+trop|\s+du\s+tout|\s+beaucoup)?|n'aime\s+plus|"
    r"n'apprécie\s+pas|n'adore\s+pas|suis\s+allergique\s+(?:à|au|aux)|suis\s+végétarien(?:ne)?|"
    r"suis\s+végane?|suis\s+vegan|ne\s+suis\s+plus\s+(?:végétarien(?:ne)?|végane?|vegan)))\b"
    rf"\s*(?P<adv>{_ADVERBS_FR}\s+)*(?P<object>.*)"
)
# The same in French: "j'ai toujours adoré le jazz", "je m'intéresse à la photo", "je suis
# intéressée par l'histoire", "je ne mange pas de viande", "je ne peux pas boire d'alcool".
_LOVED_FR = regex(
    r"\b(?P<head>j'ai\s+(?:(?:toujours|vraiment|longtemps|beaucoup|aussi)\s+)*(?P<verb>adoré|aimé|apprécié|détesté))\s+"
    + OBJECT
)
_INTERESTED_FR = regex(
    r"\bje\s+(?:m'intéresse|suis\s+(?:très\s+|vraiment\s+)?intéressée?\s+par)\s+(?:(?:beaucoup|vraiment|aussi|surtout)\s+)*"
    r"(?P<prep>à\s+la\s+|à\s+l'|au\s+|aux\s+|à\s+|la\s+|le\s+|les\s+|l')?" + OBJECT
)
_FOOD_NOT_FR = regex(
    r"\b(?P<head>je\s+ne\s+(?:(?:mange|bois)\s+(?:pas|plus|jamais)|peux\s+(?:pas|plus)\s+(?:manger|boire)))\s+"
    r"(?P<de>de\s+|d'|du\s+|des\s+)" + OBJECT
)
_ONLY_ADVERBS_FR = regex(rf"(?:{_ADVERBS_FR}\W*)+")
_PREDICATE_EN = {
    "dislikes": Predicate.DISLIKES,
    "hates": Predicate.DISLIKES,
    "can't stand": Predicate.DISLIKES,
    "doesn't mind": Predicate.DOES_NOT_MIND,
}
_STOPPED_EN = {"liking": "like", "loving": "love", "enjoying": "enjoy"}
# "I don't like coffee anymore": what follows the taste says it ended.
_ANY_MORE_EN = regex(r"\s+any\s*more\W*$")
# and every "ne ..."/"n'...", and "ai horreur de ..."
_DISLIKES_FR = frozenset({"aime pas", "supporte pas", "déteste", "hais"})


def _taste(hit: Hit, content: str, key: str, predicate: Predicate, taste: str) -> Item:
    """A preference as most rules here keep it: `content`, found by `key`, with the fact it states
    (`predicate`, `taste`); less sure when the clause hedges."""
    confidence = hit.confidence(_CONFIDENCE)
    return Item(content, MemoryType.PREFERENCE, confidence, [key], predicate=predicate, object=taste)


def _likes_en(hit: Hit) -> Item | None:
    if any(hit.phrase.lower().startswith(talk) for talk in _NOT_LIKED_EN) or _SAID_WRYLY_EN.match(hit.phrase):
        return None
    if points_back(hit.phrase) or hit.phrase.lower() in ("to", "it"):
        return None  # "I love how uncomplicated it is", "I love to!": said of what was just shown
    if opens_relative_clause(hit.clause.text[: hit.match.start()]):
        return None  # "a job I enjoy every day": which job, not a taste for "every day"
    verb = hit.words("verb").lower()
    last = verb.rsplit(" ", 1)[-1]  # "like" of "don't really like", "enjoying" of "stopped enjoying"
    phrase = hit.phrase
    ended = verb.startswith(("no longer", "stopped", "have stopped", "used to"))
    anymore = _ANY_MORE_EN.search(phrase)
    if anymore and verb.startswith(("don't", "do not")) and last != "mind":
        phrase, ended = phrase[: anymore.start()], True  # "I don't like coffee anymore"
    if ended:
        third = f"no longer {_THIRD_PERSON_EN[_STOPPED_EN.get(last, last)]}"
    elif verb.startswith(("don't", "do not")):
        third = "doesn't mind" if last == "mind" else "dislikes"
    elif verb.startswith(("can't", "cannot", "can not")):
        third = "can't stand"
    else:
        third = _THIRD_PERSON_EN[verb]
    liked = hit.third(phrase)
    content = f"{hit.speaker} {third} {liked}"
    # A taste that ended replaces the taste in the profile as a dislike does.
    predicate = Predicate.DISLIKES if ended else _PREDICATE_EN.get(third, Predicate.LIKES)
    return _taste(hit, content, hit.phrase, predicate, liked)


def _would_en(verb: str, other: str) -> Callable[[Hit], Item | None]:
    """ "Dev would rather use Postgres than Mongo for this", "Dev would take tea over coffee": a
    choice between two, unless the first is only pointed at ("I'd rather that than nothing")."""

    def make(hit: Hit) -> Item | None:
        if points_back(hit.phrase.split(f" {other} ", 1)[0]):
            return None
        liked = f"would {verb} {hit.third(hit.phrase)}"
        return _taste(hit, f"{hit.speaker} {liked}", hit.phrase, Predicate.LIKES, liked)

    return make


def _loved_en(hit: Hit) -> Item | None:
    """ "I've always loved jazz" -> "Mickael has always loved jazz"."""
    if any(hit.phrase.lower().startswith(talk) for talk in _NOT_LIKED_EN) or points_back(hit.phrase):
        return None
    if opens_relative_clause(hit.clause.text[: hit.match.start()]):
        return None  # "the city I've always loved": which city, not a taste
    verb = hit.words("verb").lower()
    since = hit.words("since").lower()
    liked = hit.third(hit.phrase)
    content = f"{hit.speaker} has {since + ' ' if since else ''}{verb} {liked}"
    predicate = Predicate.DISLIKES if verb in ("hated", "disliked", "despised") else Predicate.LIKES
    return _taste(hit, content, hit.phrase, predicate, liked)


def _interests_me_en(hit: Hit) -> Item | None:
    """ "Photography really interests me" -> "Mickael is interested in photography"."""
    # "Learning about cultures fascinates me" reaches the rules as "I'm learning ..." (a dropped subject).
    topic = _GERUND_READ_AS_DOING_EN.sub("", hit.phrase)
    if _NOT_A_TOPIC_EN.match(topic) or points_back(topic) or not is_object(topic, False):
        return None
    first, _, rest = topic.partition(" ")
    if first.lower().endswith("ing") or first.lower() in ("the", "a", "an", "my", "our"):
        topic = f"{first.lower()} {rest}".strip()  # a gerund or an article opened the sentence
    liked = hit.third(topic)
    content = f"{hit.speaker} is interested in {liked}"
    return _taste(hit, content, topic, Predicate.LIKES, liked)


def _food_not_en(hit: Hit) -> Item | None:
    """ "I can't have dairy" -> "Mickael can't have dairy"; "I don't eat meat" -> "Mickael doesn't eat
    meat": what the speaker leaves out of their diet."""
    if points_back(hit.phrase) or hit.phrase.lower().startswith(
        ("that", "this", "anything", "much", "a lot")
    ):
        return None
    food = up_to_the_next_clause(hit.phrase)  # "dairy, so no ice cream for me"
    verb = hit.words("verb").lower()
    negation = {"don't": "doesn't", "do not": "doesn't", "cannot": "can't", "can not": "can't"}.get(
        verb, verb
    )
    what = hit.words("what").lower().replace("do", "have")  # "I can't do dairy": as one says it of food
    if negation == "no longer":
        what = {"have": "has"}.get(what, what + "s")  # "no longer eats meat"
    diet = f"{negation} {what} {hit.third(food)}"
    content = f"{hit.speaker} {diet}"
    return _taste(hit, content, food, Predicate.DIET, diet)


def _is_into_en(hit: Hit) -> Item | None:
    """ "I'm (not) into / a big fan of / allergic to X"."""
    kind = hit.words("kind").lower()
    if points_back(hit.phrase) and not kind.startswith("allergic"):
        return None  # "I've been really into making this lately": said of what was just shown
    if "fan of" in kind:
        kind = "a fan of"
    negation = "not " if hit.group("neg") else ""
    liked = hit.third(hit.phrase)
    perfect = hit.words("perfect").lower().replace("'ve", "has").replace("have", "has").strip()
    content = f"{hit.speaker} {perfect or 'is'} {negation}{kind} {liked}"
    if kind.startswith("allergic"):
        confidence = hit.confidence(_FACT_CONFIDENCE)
        if negation:  # "turns out I'm not allergic to cats": no allergy to file
            return Item(content, MemoryType.FACT, confidence, [hit.phrase])
        return Item(
            content, MemoryType.FACT, confidence, [hit.phrase], predicate=Predicate.ALLERGY, object=liked
        )
    predicate = Predicate.DISLIKES if negation else Predicate.LIKES
    return _taste(hit, content, hit.phrase, predicate, liked)


def _named_fan_en(hit: Hit) -> Item:
    """ "Mickael is a fan of Arsenal", as "I'm a big fan of Arsenal" says it."""
    liked = hit.third(hit.phrase)
    content = f"{hit.speaker} is a fan of {liked}"
    return _taste(hit, content, hit.phrase, Predicate.LIKES, liked)


_TURN_OF_THE_CLAUSE = regex(r"\s+(?:but|so|though|although|yet)\s+")


def _is_my_thing_en(hit: Hit) -> Item | None:
    """ "Mickael's jam is jazz", "Mickael's guilty pleasure is reality TV", "spicy food is not
    Mickael's thing"."""
    thing = (hit.match.group("thing") or hit.match.group("thing2") or "").strip()
    # "I'm lactose intolerant but cheese is my weakness": the thing is what comes after the "but"
    thing = _TURN_OF_THE_CLAUSE.split(thing)[-1].strip()
    what = " ".join((hit.match.group("what") or hit.match.group("what2") or "").lower().split())
    if not thing or thing.lower() in ("it", "this", "that", "he", "she", "they", "you"):
        return None
    negated = bool(hit.match.group("neg"))
    body = hit.third(thing, named=False)
    if negated:
        be = hit.match.group("be").lower()
        content = f"{capitalize_first(body)} {be} not {possessive_en(hit.speaker)} {what}"
        predicate = Predicate.DISLIKES
    elif what in ("jam", "thing"):
        content = f"{hit.speaker} loves {body}"
        predicate = Predicate.LIKES
    else:
        content = f"{possessive_en(hit.speaker)} {what} is {body}"
        predicate = Predicate.LIKES
    return _taste(hit, content, thing, predicate, body)


# A diet said as one is on it: "I'm on a keto diet", "I'm no longer on the paleo diet".
_ON_A_DIET_EN = regex(
    r"\bi(?:'m|\s+am)\s+(?:now\s+|currently\s+|still\s+|also\s+)?(?P<neg>not\s+|no\s+longer\s+)?on\s+(?:a|the)\s+"
    rf"(?P<diet>{DIET_PLANS_EN})\s+diet\b(?!\s+(?:plan|book|app)\b)"
)


def _on_a_diet_en(hit: Hit) -> Item:
    """ "Mickael is on a keto diet", "Mickael is no longer on a keto diet"."""
    diet = f"on a {' '.join(hit.group('diet').lower().split())} diet"
    if hit.group("neg"):
        diet = f"{'no longer' if 'longer' in hit.group('neg').lower() else 'not'} {diet}"
    return _taste(hit, f"{hit.speaker} is {diet}", diet, Predicate.DIET, diet)


_BUT_I_EAT = regex(r"^but\s+(?:i\s+)?(?P<still>still\s+)?eat\b")


def _diet_en(hit: Hit) -> Item:
    """ "Mickael is vegan"; "I'm not vegan anymore" (or "no longer") says the diet ended, so that the
    profile's newest word on it is that one."""
    diet = hit.group("object").lower()
    negation = hit.words("neg").lower()
    if negation:
        diet = f"no longer {diet}" if negation == "no longer" or hit.group("anymore") else f"not {diet}"
    elif hit.group("except"):
        # "vegetarian except for fish"; "vegan but I still eat honey" as "vegan but still eats honey"
        left_in = _BUT_I_EAT.sub(
            lambda m: f"but {m.group('still') or ''}eats", hit.group("except").lstrip(", ")
        )
        diet += " " + " ".join(hit.third(left_in).split())
    content = f"{hit.speaker} is {diet}"
    how_long = hit.group("how_long")
    if how_long and not negation and (hit.group("been") or "\x00" not in how_long):
        # "has been vegan since 2019" answers "how long has Mickael been vegan?"; a date said after
        # "I'm vegan" is when, not since when ("I'm vegan this month")
        content = f"{hit.speaker} has been {diet} " + " ".join(hit.third(how_long).split())
    return _taste(hit, content, diet, Predicate.DIET, diet)


# How long a diet has lasted, in French: "depuis 2019" (said as a date's placeholder), "depuis le lycée".
_SINCE_FR = regex(r"(?:depuis\s+)?\x00\d+\x00|depuis\s+[^,;.!?]{2,30}?(?=\s*(?:$|[,;.!?]))")


def _likes_fr(hit: Hit) -> Item | None:
    """ "j'aime", "je déteste", "je suis fan de", "je suis végétarienne", "je suis allergique à"."""
    said = " ".join((hit.group("j_verb") or hit.group("je_verb") or hit.group("j_negated")).split())
    low = said.lower()
    if low.startswith("ne suis plus"):
        diet = f"n'est plus {said.rsplit(' ', 1)[1]}"  # the diet ended: the profile's newest word on it
        return _taste(hit, f"{hit.speaker} {diet}", diet, Predicate.DIET, diet)
    if low.startswith("suis vég") or low == "suis vegan":
        diet = said.split(" ", 1)[1]
        since = _SINCE_FR.match(hit.group("object") or "")
        # "Mickael est végétarienne depuis 2025": how long it has lasted
        content = f"{hit.speaker} est {diet}" + (f" {' '.join(since.group(0).split())}" if since else "")
        return _taste(hit, content, diet, Predicate.DIET, diet)
    phrase = trim_phrase(hit.group("object"))
    if not phrase or not is_object(phrase, True) or _ONLY_ADVERBS_FR.fullmatch(phrase):
        return None  # "j'aime bien", "j'adore trop": how much, with nothing liked
    if points_back(phrase) and not low.startswith(("suis allergique", "ne suis plus")):
        return None  # "j'adore cette couleur": said of what was just shown
    if low == "aime pas":
        verb = "n'aime pas"
    elif low == "supporte pas":
        verb = "ne supporte pas"
    elif low == "hais":
        verb = "déteste"
    elif low.startswith("ai horreur"):
        verb = "a " + said[3:]  # "j'ai horreur des araignées": "Mickael a horreur des araignées"
    elif low.startswith("suis "):
        verb = "est " + said[5:]
    else:
        verb = said
    adverbs = hit.words("adv")
    verb = verb + (f" {adverbs}" if adverbs else "")
    glue = "" if verb.endswith("'") else " "
    liked = hit.third(phrase)
    content = f"{hit.speaker} {verb}{glue}{liked}"
    if "allergique" in low:
        confidence = hit.confidence(_CONFIDENCE)
        return Item(content, MemoryType.FACT, confidence, [phrase], predicate=Predicate.ALLERGY, object=liked)
    disliked = low in _DISLIKES_FR or low.startswith(("n", "ai horreur"))
    predicate = Predicate.DISLIKES if disliked else Predicate.LIKES
    return _taste(hit, content, phrase, predicate, liked)


def _loved_fr(hit: Hit) -> Item | None:
    """ "j'ai toujours adoré le jazz" -> "Mickael a toujours adoré le jazz"."""
    if points_back(hit.phrase):
        return None
    content = third_person_fr(f"{hit.words('head')} {hit.phrase}", hit.speaker)
    liked = hit.third(hit.phrase)
    predicate = Predicate.DISLIKES if hit.group("verb").lower() == "détesté" else Predicate.LIKES
    return _taste(hit, content, hit.phrase, predicate, liked)


def _interested_fr(hit: Hit) -> Item | None:
    """ "je m'intéresse à la photo", "je suis intéressée par l'histoire" -> "Mickael s'intéresse à ..."."""
    if points_back(hit.phrase):
        return None
    said = hit.words("prep").lower()
    preposition = {"la": "à la", "le": "au", "les": "aux", "l'": "à l'"}.get(said, said or "à")
    glue = "" if preposition.endswith("'") else " "
    liked = hit.third(hit.phrase)
    content = f"{hit.speaker} s'intéresse {preposition}{glue}{liked}"
    return _taste(hit, content, hit.phrase, Predicate.LIKES, liked)


def _food_not_fr(hit: Hit) -> Item | None:
    """ "je ne mange pas de viande" -> "Mickael ne mange pas de viande"."""
    if points_back(hit.phrase):
        return None
    food = up_to_the_next_clause(hit.phrase)
    de = hit.group("de").lower().strip()
    glue = "" if de.endswith("'") else " "
    content = third_person_fr(f"{hit.words('head')} {de}{glue}{food}", hit.speaker)
    diet = content[len(hit.speaker) + 1 :] if content.startswith(hit.speaker + " ") else content
    return _taste(hit, content, food, Predicate.DIET, diet)


# A pastime said as the speaker's favourite: "Kayaking on the lake is my favorite thing", "baking is
# my favourite way to relax" (the dropped-subject reading may have put "I'm" before the gerund).
_FAVOURITE_DOING_EN = regex(
    r"^\W*(?:i(?:'m|\s+am)\s+)?(?P<object>[a-z]+ing\b[^,;:!?]{0,60}?)\s+(?:is|was|has\s+always\s+been|has\s+been)\s+"
    r"(?:definitely\s+|probably\s+|honestly\s+|really\s+)?my\s+(?P<what>(?:favou?rite|fave|best)\s+(?:thing|hobby|"
    r"activity|pastime|part\s+of\s+(?:the|my)\s+(?:day|week)|way\s+to\s+(?:relax|unwind|destress|de-stress|recharge)))\b"
)


def _favourite_doing_en(hit: Hit) -> Item | None:
    """ "Ann's favorite thing is kayaking on the lake every Sunday"."""
    doing = hit.phrase[:1].lower() + hit.phrase[1:]  # "Kayaking ..." now reads mid-sentence
    if doing.split(" ", 1)[0] in ("nothing", "something", "anything", "everything", "thing"):
        return None
    what = " ".join(hit.group("what").split()).replace("favourite", "favorite")
    liked = hit.third(doing)
    return _taste(hit, f"{possessive_en(hit.speaker)} {what} is {liked}", doing, Predicate.LIKES, liked)


PREFERENCES = (
    Rule(_LIKE_EN, _likes_en, french=False),
    Rule(_LOVED_EN, _loved_en, french=False),
    Rule(_RATHER_EN, _would_en("rather", "than"), french=False),
    Rule(_TAKE_OVER_EN, _would_en("take", "over"), french=False),
    Rule(_IS_MY_THING_EN, _is_my_thing_en, french=False, object_groups=()),
    NO_MEETINGS_EN,
    NO_MEETINGS_FR,
    Rule(_BE_INTO_EN, _is_into_en, french=False),
    Rule(_NAMED_FAN_EN, _named_fan_en, french=False),
    Rule(_INTERESTS_ME_EN, _interests_me_en, french=False),
    Rule(_FOOD_NOT_EN, _food_not_en, french=False),
    Rule(_DIET_EN, _diet_en, french=False, object_groups=()),
    Rule(_ON_A_DIET_EN, _on_a_diet_en, french=False, object_groups=()),
    Rule(_LOVED_FR, _loved_fr, french=True),
    Rule(_INTERESTED_FR, _interested_fr, french=True),
    Rule(_FOOD_NOT_FR, _food_not_fr, french=True),
    Rule(_LIKE_FR, _likes_fr, french=True, object_groups=()),
    *FAVORITES,
    Rule(_FAVOURITE_DOING_EN, _favourite_doing_en, french=False),
    DO_NOT_REACH_EN,
    RATHER_NOT_REACHED_EN,
    REACH_ME_EN,
)
