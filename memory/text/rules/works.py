"""Rules for what the speaker reads, watches, plays and makes: "I watched "Dune"", "I baked a cake"."""

from __future__ import annotations

from ..lexicons import MONTHS_EN, WEEKDAYS_EN
from ..normalize import regex
from ..rewrite import of_fr, possessive_en
from .activities import TASTE, Kinds, bounded, bounded_clause, kind_memory
from .base import Hit, Item, Rule

__all__ = ["MADE_TAG", "MEDIA_TAG", "WORKS"]

# Subjects the memories carry, prefixed as the pastime ones are (rules/activities.py), so that
# they can be found by kind: a question asks "what books has she read?" where the turn names
# only the title.
MEDIA_TAG = "kind:media"
MADE_TAG = "kind:made"

# Words that make it something the speaker did not (yet) do, or someone else's: "I haven't read
# it", "I'd love to watch", "I want to bake", "she wrote a novel", "you should read". Unlike the
# pastime rule's, "your" is allowed: "I took your advice and watched ...".
_NOT_DONE = regex(
    r"\b(?:not|never|no|don't|didn't|won't|can't|cannot|couldn't|wouldn't|would|'d|could|should|might|"
    r"may|must|want|wanted|wanna|wish|hope|hoping|plan|plans|planned|planning|gonna|going|used|thinking|"
    # what one gave up: "I stopped playing League", "I quit watching it"
    r"considering|stopped|quit|gave|will|you|he|she|they|him|her|them|someone|somebody|people|friend|friends)\b"
    r"|'ll\b|n't\b"
)

# What is read, watched, played or heard, and the kind the memory names. The verb decides the kind
# unless the turn names it ("a show called ...").
_MEDIA_VERBS = Kinds(
    ("books and reading", r"read|reading|reread|rereading|re-read|re-reading"),
    ("movies and TV shows", r"watched|watching|rewatched|rewatching|binged|binge-watched|saw|seen"),
    ("video games and games", r"played|playing|beat|finished\s+playing"),
    ("music and podcasts", r"listened\s+to|listening\s+to"),
)
_MEDIA_NOUNS = Kinds(
    ("books and reading", r"book|novel|memoir|trilogy|saga"),
    ("movies and TV shows", r"movie|film|show|tv\s+show|series|documentary|anime|musical"),
    ("video games and games", r"video\s+game|game|rpg|board\s+game"),
    ("music and podcasts", r"album|song|podcast|record"),
)
# A title: in quotes, or a run of capitalised words (small words allowed inside: "The Lord of the
# Rings"). Unquoted, it needs a verb that reads or plays it, or the kind named before it.
_TITLE = (
    r"(?P<quoted>\"[^\"]{2,60}\"|“[^”]{2,60}”)"
    r"|(?P<named>(?-i:[A-Z][\w'’:-]*)(?:\s+(?:(?-i:of|the|and|in|on|to|a|an|for|at)\s+)*(?-i:[A-Z0-9][\w'’:-]*)){0,5})"
)
_MEDIA_EN = regex(
    r"\b(?P<who>i|we)(?P<between>(?:'[a-z]+)?(?:\s+[\w'-]+){0,4}?)\s+(?P<verb>" + _MEDIA_VERBS.terms + r")\s+"
    r"(?:(?:the|this|that|a|an|my|our|your)\s+)?(?:(?:[\w-]+\s+){0,3}?(?P<noun>" + _MEDIA_NOUNS.terms + r")s?"
    r"(?:\s+(?:called|named|titled))?\s+)?(?:" + _TITLE + r")"
)
# Names that are no title: days, months, the apps a chat works in, people's possessions.
_NOT_A_TITLE = frozenset(
    w.casefold()
    for w in [*WEEKDAYS_EN, *MONTHS_EN, "I", "It", "This", "That", "Netflix", "YouTube", "Spotify", "Twitch"]
)


def _refused(hit: Hit, *more: str) -> bool:
    """Whether the clause says the speaker did not do it, or only likes it (both read before the verb)."""
    who, between = hit.group("who"), hit.group("between")
    # "I love reading fantasy" is the preference rule's (see activities.TASTE).
    if who.casefold() == "i" and TASTE.match(between):
        return True
    return bool(_NOT_DONE.search(" ".join([who + between, *more])))


def _from_match(hit: Hit, named: bool = True) -> str:
    """The clause from where the match starts, in the third person, bounded (`named`: as a sentence
    that already named the speaker, so "my" is "their")."""
    return bounded(hit.third(hit.clause.text[hit.match.start() :].strip(), named=named))


def _media(hit: Hit) -> Item | None:
    if _refused(hit):
        return None
    title = hit.group("quoted") or hit.words("named")
    after = hit.clause.text[hit.match.end() :]
    if not hit.group("quoted"):
        first = title.split()[0].casefold()
        # "I watched Sarah's kids", "I saw Tom yesterday": a person, not a title; an unquoted
        # name after "saw" or "seen" is too often one.
        if first in _NOT_A_TITLE or title.endswith(("'s", "’s")) or after.startswith(("'s", "’s")):
            return None
        if not hit.group("noun") and hit.words("verb").casefold() in {"saw", "seen", "beat"}:
            return None
    noun = hit.words("noun")
    kind = _MEDIA_NOUNS.of(noun) if noun else _MEDIA_VERBS.of(hit.words("verb"))
    return kind_memory(
        hit, f"{possessive_en(hit.speaker)} {kind} include {title}", title.strip('"“”'), MEDIA_TAG
    )


# Things the speaker made, by kind: "I baked a chocolate cake", "I finished my first screenplay".
_MADE_THINGS = Kinds(
    (
        "recipes and baking",
        r"cakes?|cupcakes?|cookies|pies?|tarts?|bread|muffins|brownies|ice\s*cream|icecream|desserts?|pastr(?:y|ies)|"
        r"recipes?|cheesecake|pancakes|waffles|smoothies?|jam|soup|curry|lasagna|swirls?|parfaits?|sorbet|gelato|"
        r"pudding|cobbler|scones|pizza|pasta|stew|chili|casserole|dumplings",
    ),
    (
        "written works",
        r"screenplays?|scripts?|novels?|books?|short\s+stor(?:y|ies)|stor(?:y|ies)|poems?|poetry|articles?|"
        r"blog\s+posts?|essays?|chapters?|memoir|songs?|lyrics",
    ),
    (
        "art and crafts",
        r"paintings?|drawings?|sketch(?:es)?|portraits?|murals?|sculptures?|vases?|bowls?|pots|pottery|quilts?|"
        r"scarf|scarves|sweaters?|jewelry|necklaces?|bracelets?|furniture|birdhouse",
    ),
)
_MADE_EN = regex(
    r"\b(?P<who>i|we)(?P<between>(?:'[a-z]+)?(?:\s+[\w'-]+){0,4}?)\s+"
    r"(?P<verb>made|make|making|baked|bake|baking|cooked|cooking|wrote|written|writing|drafted|published|"
    r"painted|painting|drew|drawn|sketched|knitted|knit|sewed|sewn|crocheted|built|carved|sculpted|"
    r"composed|recorded|finished|finishing|completed|wrapped\s+up|tried|tested|testing|whipped\s+up|whipping\s+up)\s+"
    r"(?P<det>(?:a|an|the|this|that|these|those|some|my|our|two|three|another)\s+)?"
    r"(?P<adjs>(?:[\w'-]+\s+){0,4}?)(?P<thing>" + _MADE_THINGS.terms + r")\b"
    # "a book on", "the cake for": the thing must end the phrase, or be followed by what it is.
    r"(?!\s*-)"
)
# "a cake I made", "the poem that I wrote": the thing named first.
_MADE_AFTER_EN = regex(
    r"\b(?P<det>a|an|the|this|that|my|our)\s+(?P<adjs>(?:[\w'-]+\s+){0,3}?)"
    r"(?P<thing>" + _MADE_THINGS.terms + r")\s+"
    r"(?:that\s+|which\s+)?(?P<who>i|we)(?P<between>(?:\s+(?:just|recently|finally|also|have|had|'ve))*)\s+"
    r"(?P<verb>made|baked|cooked|wrote|written|painted|drew|knitted|sewed|crocheted|built|carved|sculpted|composed|"
    # "my horse painting I did recently"
    r"did)\b"
)
# What a picture shows: "I painted a sunset", "we drew a map of the island". The art verbs' object
# is what the work is of, not a thing from the list above; see `_NOT_ART` for what is no art.
_ART_OF_EN = regex(
    r"\b(?P<who>i|we)(?P<between>(?:'[a-z]+)?(?:\s+(?:just|finally|also|recently|have|had|actually))*)\s+"
    r"(?P<verb>painted|drew|sketched)\s+(?P<what>(?:a|an|the|this|that|some|my|our|two|three)\s+[^,;:!?.]+)"
)
_WORK_OF = {"painted": "a painting of", "drew": "a drawing of", "sketched": "a sketch of"}
# A room, a fence or nails painted are no art, nor a blank, a conclusion or a crowd drawn, nor a
# plan sketched; "this" alone is what was just shown ("I painted this last week").
_NOT_ART = regex(
    r"^(?:\S+\s+){0,2}?(?:fence|house|walls?|room|bedroom|kitchen|door|doors|nails|car|deck|ceiling|garage|nursery|"
    r"hallway|hall|stairs|staircase|porch|shutters|windows?|trim|cabinets|cupboards|dresser|crib|cot|"
    r"office|apartment|flat|shed|bathroom|furniture|town|picture|blank|conclusions?|line|attention|bath|crowd|"
    r"inspiration|comparison|parallels?|breath|lots|straws?|card|cards|number|sword|curtains|blood|"
    r"distinction|plan|plans|outline|roadmap|design|idea|ideas)\b"
    r"|^(?:this|that)(?:\s+(?:one|last|yesterday|today|recently|earlier)\b|\s*$)"
)
# Where the work's subject ends: a date, a time or place said after it, or the next clause.
_ART_END = regex(
    r"\s+(?:for|with|at|in|on|to|during|while|when|after|before|from|yesterday|today|tonight|last|this|since|"
    r"and|but|because|so)\b|\x00"
)
# "I finished the book" is a book read, not written: finishing something the speaker did not
# make needs "my"/"our" ("I finished my first screenplay").
_FINISHING = frozenset({"finished", "finishing", "completed", "wrapped up"})
# "I tried a new recipe" is one made; "I tried the cake" is one eaten.
_TRYING = frozenset({"tried", "tested", "testing"})


def _made(hit: Hit) -> Item | None:
    if _refused(hit, hit.group("adjs")):
        return None
    verb = hit.words("verb").casefold()
    det = hit.words("det").casefold()
    if verb in _FINISHING and det not in {"my", "our"}:
        return None
    thing = " ".join(hit.group("thing").split()).casefold()
    if verb in _TRYING and not thing.startswith("recipe"):
        return None
    kind = _MADE_THINGS.of(thing)
    # "a cake I made": the clause from the thing, which the speaker's part alone would leave out.
    # "my horse painting I did": "Léa's horse painting", the name not said yet.
    said = (
        bounded_clause(hit)
        if hit.match.start("who") < hit.match.start("thing")
        else _from_match(hit, named=det not in {"my", "our"})
    )
    return kind_memory(
        hit, f"{possessive_en(hit.speaker)} {kind} include {thing}", thing, MADE_TAG, said=said
    )


# The made-thing rule's own: "I painted a portrait" is a portrait made, not a painting of one.
_THING_ALONE = regex(r"^(?:\S+\s+){1,3}?(?:" + _MADE_THINGS.terms + r")\b")


def _art_of(hit: Hit) -> Item | None:
    """ "Léa's art and crafts include a painting of a sunset: Léa painted a sunset last week"."""
    what = hit.group("what")
    end = _ART_END.search(what)
    subject = " ".join((what[: end.start()] if end else what).split()[:6])
    if not subject or _NOT_ART.match(subject) or _THING_ALONE.match(subject) or _refused(hit):
        return None
    thing = f"{_WORK_OF[hit.words('verb').casefold()]} {hit.third(subject)}"
    return kind_memory(hit, f"{possessive_en(hit.speaker)} art and crafts include {thing}", subject, MADE_TAG)


# In French, a quoted title only (an unquoted one is too often a name): "J'ai regardé "Inception"",
# "je lis le roman « Dune »", "on a vu "Barbie"". The memory names its kind in French.
_MEDIA_VERBS_FR = Kinds(
    ("Les lectures", r"lu|lis|relu|relis|lisons|lisais|(?:fini|terminé)\s+de\s+lire"),
    (
        "Les films et séries",
        r"vu|revu|regardé|regarde|regardons|regardais|maté|(?:fini|terminé)\s+de\s+regarder",
    ),
    ("Les jeux", r"joué\s+à|joue\s+à|jouons\s+à|jouais\s+à"),
    ("La musique et les podcasts", r"écouté|écoute|écoutons|écoutais"),
)
_MEDIA_NOUNS_FR = Kinds(
    ("Les lectures", r"livre|roman|bd|bande\s+dessinée|manga|essai|saga|trilogie"),
    ("Les films et séries", r"film|série|documentaire|anime|dessin\s+animé|téléfilm"),
    ("Les jeux", r"jeu(?:\s+vidéo)?|jeu\s+de\s+société"),
    ("La musique et les podcasts", r"album|chanson|podcast|disque|morceau"),
)
_MEDIA_FR = regex(
    r"\b(?P<who>j'|je\s+|nous\s+|on\s+)(?P<between>(?:ai\s+|avons\s+|a\s+)?(?:(?:enfin|déjà|récemment|"
    r"encore|aussi)\s+)*)(?P<verb>" + _MEDIA_VERBS_FR.terms + r")\s+"
    r"(?:(?:le|la|les|l'|un|une|ce|cette|mon|ma|son|sa)\s*(?:[\w-]+\s+){0,2}?(?P<noun>"
    + _MEDIA_NOUNS_FR.terms
    + r")s?\s+)?(?P<quoted>\"[^\"]{2,60}\"|«\s?[^»]{2,60}?\s?»|“[^”]{2,60}”)"
)


def _media_fr(hit: Hit) -> Item | None:
    title = hit.group("quoted")
    noun = hit.words("noun")
    kind = _MEDIA_NOUNS_FR.of(noun) if noun else _MEDIA_VERBS_FR.of(hit.words("verb"))
    return kind_memory(hit, f"{kind} {of_fr(hit.speaker)} incluent {title}", title.strip('"“”«» '), MEDIA_TAG)


# Things made, said in French: "J'ai fait un gâteau", "on a préparé des crêpes", "j'ai peint un
# tableau", "j'ai écrit un poème". The past or present of a verb of making, then the thing.
_MADE_THINGS_FR = Kinds(
    (
        "Les recettes et pâtisseries",
        r"gâteaux?|cookies|biscuits|tartes?|pains?|brioches?|muffins|brownies|glaces?|desserts?|crêpes|"
        r"recettes?|cheesecake|gaufres|confitures?|soupes?|curry|lasagnes|quiches?|pizzas?",
    ),
    (
        "Les écrits",
        r"scénarios?|romans?|livres?|nouvelles?|histoires?|poèmes?|articles?|chansons?|essais?|chapitres?",
    ),
    (
        "L'art et l'artisanat",
        r"tableaux?|peintures?|dessins?|portraits?|fresques?|sculptures?|vases?|bols?|poteries?|écharpes?|"
        r"pulls?|bijoux|colliers?|bracelets?|meubles?|nichoirs?",
    ),
)
_MADE_FR = regex(
    r"\b(?P<who>j'|je\s+|nous\s+|on\s+)(?P<between>(?:ai\s+|avons\s+|a\s+)?(?:(?:enfin|déjà|récemment|"
    r"encore|aussi|moi-même)\s+)*)(?P<verb>fait|fais|faisons|préparé|prépare|préparons|cuisiné|cuisine|"
    r"pâtissé|peint|peins|dessiné|dessine|écrit|écris|écrivons|fini\s+d'écrire|terminé|tricoté|tricote|"
    r"cousu|fabriqué|fabrique|construit|sculpté|composé)\s+(?P<det>(?:une|un|des|mon|ma|mes|notre|nos|"
    r"les|le|la|deux|trois)\s+|l')(?P<adjs>(?:[\w'-]+\s+){0,2}?)(?P<thing>"
    + _MADE_THINGS_FR.terms
    + r")(?![\w-])"
)
# "J'ai terminé le livre" is one read: finishing needs "mon", "ma", "mes", "notre" or "nos".
_FINISHING_FR = frozenset({"fini d'écrire", "terminé"})


def _made_fr(hit: Hit) -> Item | None:
    """ "Les recettes et pâtisseries de Léa incluent gâteau : Léa a fait un gâteau au chocolat"."""
    if _NOT_MADE_FR.search(hit.clause.text[: hit.match.start("verb")]):
        return None
    verb = " ".join(hit.group("verb").split()).casefold()
    det = hit.words("det").casefold()
    if verb in _FINISHING_FR and det not in {"mon", "ma", "mes", "notre", "nos"}:
        return None
    thing = hit.group("thing").casefold()
    # "un gâteau", "des crêpes", "son roman": the thing with the determiner said, in the third person.
    article = _THIRD_DETERMINER_FR.get(det, det)
    named = f"{article}{'' if article.endswith(chr(39)) else ' '}{thing}"
    return kind_memory(
        hit, f"{_MADE_THINGS_FR.of(thing)} {of_fr(hit.speaker)} incluent {named}", thing, MADE_TAG
    )


_THIRD_DETERMINER_FR = {"mon": "son", "ma": "sa", "mes": "ses", "notre": "leur", "nos": "leurs"}
# As for pastimes (activities), and what is still to come: "je vais faire un gâteau" is no cake made.
_NOT_MADE_FR = regex(r"\b(?:ne|n'|pas|jamais|si|voudrais|veux|aimerais|vais|va|allons|rêve|compte)\b")


WORKS = (
    Rule(_MEDIA_EN, _media, french=False, object_groups=()),
    Rule(_MADE_FR, _made_fr, french=True, object_groups=()),
    Rule(_MEDIA_FR, _media_fr, french=True, object_groups=()),
    Rule(_MADE_EN, _made, french=False, object_groups=()),
    Rule(_MADE_AFTER_EN, _made, french=False, object_groups=()),
    Rule(_ART_OF_EN, _art_of, french=False, object_groups=()),
)
