"""Rules for the speaker's health: "I have asthma", "I'm diabetic", "j'ai de l'asthme"."""

from __future__ import annotations

from memory.models import MemoryType

from ..dates import PLACEHOLDER
from ..normalize import regex
from ..rewrite import capitalize_first
from .base import Hit, Item, Rule
from .said_first import with_date_said_first

__all__ = ["HEALTH"]

_CONFIDENCE = 0.7

# Conditions a friend would remember, said with "I have": a word that names an illness or a
# lasting condition, not "I have anxiety about Monday" read as a diagnosis (what follows is kept).
_CONDITIONS_EN = (
    r"asthma|(?:type\s+[12]\s+)?diabetes|adhd|autism|dyslexia|dyspraxia|epilepsy|(?:rheumatoid\s+)?arthritis|"
    r"migraines|insomnia|sleep\s+apnea|co?eliac(?:\s+disease)?|lupus|multiple\s+sclerosis|crohn'?s(?:\s+disease)?|"
    r"ibs|high\s+blood\s+pressure|hypertension|(?:(?:breast|skin|prostate|lung|bone|thyroid)\s+)?cancer|"
    r"long\s+covid|tinnitus|eczema|psoriasis|ptsd|ocd|bipolar(?:\s+disorder)?|chronic\s+(?:pain|fatigue)|"
    r"fibromyalgia|an?\s+heart\s+condition|hearing\s+loss|scoliosis|endometriosis|pcos|hay\s+fever|"
    r"an?\s+(?:bad|weak|dodgy|broken)\s+(?:back|knee|hip|shoulder|ankle|wrist)|"
    r"an?\s+(?:[\w-]+\s+)?(?:allergy|intolerance)|(?:lactose|gluten)\s+intolerance"
)
_HAVE_EN = regex(
    r"\bi(?:'ve|\s+have)?(?:\s+(?:got|also|actually|still))*\s+(?:have\s+|suffer\s+from\s+|live\s+with\s+)?"
    rf"(?P<object>(?:(?:mild|severe|chronic|bad|really\s+bad)\s+)?(?:{_CONDITIONS_EN}))\b"
)
# "I'm diabetic", "I'm pregnant": what the speaker is, said in one word or two.
_IS_EN = regex(
    r"\bi(?:'m|\s+am)(?:\s+(?:also|actually|still|now))*\s+(?P<object>diabetic|asthmatic|epileptic|autistic|dyslexic|"
    r"co?eliac|bipolar|\d{1,2}\s+weeks\s+pregnant|pregnant|colou?r-?\s*blind|(?:deaf|hard\s+of\s+hearing)\s+in\s+(?:my|one|the)\s+(?:left\s+|right\s+)?ear|"
    r"blind\s+in\s+(?:my|one|the)\s+(?:left\s+|right\s+)?eye|deaf|hard\s+of\s+hearing|(?:lactose|gluten)\s+intolerant|"
    r"immunocompromised|in\s+remission|on\s+crutches|in\s+a\s+wheelchair)"
    # The whole of what the speaker is: "deaf in one ear" is not "deaf".
    # ... or a bracket that says which: "I'm colorblind (deuteranopia)"
    r"(?=[\s,;:.!?]*$|\s*[,;:.!?(]|\s+(?:and|but|so|because|since|now|too|though|myself)\b)"
)
# What the speaker takes, said as a habit or a treatment: "I take metformin every morning", "I'm on
# antidepressants", "I'm on insulin now" (not "I'm on it", "I take the bus").
_MEDICATION_EN = regex(
    r"\bi(?:\s+take\s+(?!(?:the|a|an|my|our|your|his|her|their|it|this|that|some|care|time|notes|photos|"
    r"pictures|walks?|showers?|baths?|naps?|classes|lessons|breaks?)\b)"
    r"(?P<object>[a-z][\w-]{2,30}(?:\s+[\w-]+)?)\s+(?=(?:every\s+(?:day|morning|night|evening)|"
    r"daily|twice\s+a\s+day|once\s+a\s+day|for\s+my\s+\w+)\b)"
    # ... and for how long: "I've been on antidepressants since 2022"
    r"|(?:'m|\s+am|'ve\s+been|\s+have\s+been)\s+(?:now\s+|still\s+|also\s+)?on\s+(?P<treatment>(?:antidepressants|antibiotics|insulin|steroids|"
    r"blood\s+thinners|the\s+pill|birth\s+control|meds|medication|painkillers|chemo|dialysis|hrt|testosterone|"
    r"estrogen|prep|beta\s+blockers|antihistamines|ssris?|adhd\s+meds))\b"
    # a drug named for what it treats: "I'm taking Lexapro for anxiety" (not "I'm taking Spanish for fun")
    r"|(?:'m|\s+am)\s+(?:now\s+|still\s+|also\s+)?(?:on|taking)\s+(?P<drug>(?-i:[A-Z])[a-z]{3,20})(?=\s+for\s+(?:my\s+)?"
    r"(?:anxiety|depression|adhd|pain|migraines?|blood\s+pressure|cholesterol|sleep|insomnia|acne|allergies|asthma|"
    r"heart|thyroid|diabetes|seizures|epilepsy|ocd|ptsd|bipolar|panic\s+attacks)\b))"
)
# "my blood type is O negative"
_BLOOD_TYPE_EN = regex(
    r"\bmy\s+blood\s+type\s+is\s+(?P<object>(?:ab|a|b|o)\s*(?:[+-]|pos(?:itive)?|neg(?:ative)?)?)(?!\w)"
)
# "I was diagnosed with ADHD last year", "I'm recovering from knee surgery": what it was follows.
# Where what was diagnosed ends: the clause's end, or a conjunction that goes on to something else.
_PHRASE_END_EN = r"(?=\s+(?:and|but|so|because|which|who|when|while|since|though)\b|[\s.!?]*$)"
_PHRASE_END_FR = r"(?=\s+(?:et|mais|donc|car|parce|qui|quand|depuis)\b|[\s.!?]*$)"
_DIAGNOSED_EN = regex(
    r"\bi(?:'ve|\s+have)?(?:\s+(?:just|recently|finally|also|been))*\s+(?P<verb>was\s+diagnosed|been\s+diagnosed|"
    r"got\s+diagnosed)\s+with\s+(?P<object>[^,;:.!?]+?)" + _PHRASE_END_EN
)
_RECOVERING_EN = regex(
    r"\bi(?:'m|\s+am)(?:\s+(?:still|slowly|finally|now))*\s+(?P<verb>recovering|recuperating)\s+from\s+"
    r"(?P<object>(?:a|an|my|the|some)?\s*[^,;:.!?]+?)" + _PHRASE_END_EN
)
# A part of the body that troubles the speaker: "my knee is acting up again", "my back's been killing
# me", "my wrist still hurts" (not "my back is turned", "my feet are cold").
_BODY_PART_EN = (
    r"knee|knees|back|lower\s+back|neck|shoulder|shoulders|hip|hips|ankle|ankles|wrist|wrists|elbow|foot|feet|hand|"
    r"hamstring|achilles|shin|shins|jaw|tooth|teeth|ear|ears|eye|eyes|stomach|gut|chest|heart|leg|legs|arm|arms|"
    r"hands|head|sinuses"
)
_TROUBLE_EN = regex(
    rf"\bmy\s+(?:(?:left|right|bad|dodgy|old)\s+)?(?P<object>{_BODY_PART_EN})(?:'s|\s+is|\s+are|\s+has|\s+have|\s+keeps?)?"
    r"(?:\s+(?:still|really|so|been|again))*\s*"
    r"(?:(?P<flare>acting\s+up|playing\s+up|flared\s+up|flaring\s+up|giving\s+out|giving\s+me\s+(?:trouble|grief|hell))|"
    r"killing\s+me|hurts?|hurting|aches?|aching|sore|swollen|throbbing|locked\s+up)\b"
    # what it comes from, since when, for how long: kept with it
    r"(?P<rest>[^,;:.!?]*?)(?=\s*[,;:.!?]|\s+(?:and|but|so|because|which|though)\b|\s*$)"
)
# Only a lasting trouble is worth remembering: "my stomach hurts" passes, "my knee is acting up
# again", "my back's been killing me since Monday" and "my wrist still hurts" last.
_LASTING_EN = regex(
    r"\b(?:again|still|been|keeps?|since|for\s+(?:weeks|months|days|ages|years|a\s+while))\b|\x00"
)


def _trouble(hit: Hit) -> Item | None:
    """ "Ana's knee is acting up again", "Ana's back has been hurting since Monday"."""
    said = hit.clause.text[hit.match.start() : hit.match.end()].strip()
    if not (hit.group("flare") or _LASTING_EN.search(said)):
        return None
    # "killing me" is chat's "hurting": "Ana's back has been hurting", not "killing Ana".
    content = capitalize_first(hit.third(_KILLING_ME.sub("hurting", said), named=False))
    content = with_date_said_first(content, hit)
    kind = MemoryType.EVENT if PLACEHOLDER.search(content) else MemoryType.FACT
    return Item(content, kind, hit.confidence(_CONFIDENCE), [hit.phrase])


_KILLING_ME = regex(r"\bkilling\s+me\b")


# What the speaker's doctor ordered: "physio says no running for 6 weeks", "my doctor told me to cut
# out salt", "the dentist wants me to wear a night guard" (not "my doctor says hi").
_ORDERS_EN = regex(
    r"(?:^|(?<=,\s)|\b(?P<whose>my|the)\s+)(?P<who>doctor|doc|gp|physio|physiotherapist|surgeon|dentist|cardiologist|specialist|"
    r"dermatologist|consultant|midwife|ob-?gyn|nurse|therapist|dietitian|nutritionist)\s+"
    r"(?P<verb>says|said|told\s+me|wants\s+me|advised(?:\s+me)?|recommended|ordered(?:\s+me)?|put\s+me|has\s+me)\s+"
    r"(?P<object>(?:no|not\s+to|to|on|off)\s+(?!(?:worry|panic|stress)\b)[^,;:.!?]+?)" + _PHRASE_END_EN
)
# In French: "j'ai de l'asthme", "je suis diabétique", "on m'a diagnostiqué un TDAH".
_HAVE_FR = regex(
    r"\bj'ai(?:\s+(?:aussi|toujours|encore))*\s+(?P<object>(?:de\s+l'|du\s+|des\s+|une?\s+|le\s+|la\s+)?"
    r"(?:asthme|diabète|tdah|autisme|dyslexie|épilepsie|arthrose|arthrite|migraines|insomnie|maladie\s+c[œo]eliaque|"
    r"sclérose\s+en\s+plaques|maladie\s+de\s+crohn|hypertension|tension|cancer(?:\s+du\s+\w+)?|covid\s+long|"
    r"acouphènes|eczéma|psoriasis|bipolarité|douleurs\s+chroniques|fibromyalgie|endométriose|rhume\s+des\s+foins|"
    r"allergie\s+(?:aux?|à\s+la|à\s+l')\s*\S+|intolérance\s+(?:au|à\s+la|à\s+l')\s*\S+|mal\s+au\s+dos))"
)
_IS_FR = regex(
    r"\bje\s+suis(?:\s+(?:aussi|toujours|encore))*\s+(?P<object>diabétique|asthmatique|épileptique|autiste|"
    r"dyslexique|c[œo]eliaque|bipolaire|enceinte|daltonienne?|sourde?|malentendante?|intolérante?\s+au\s+\w+|"
    r"immunodéprimée?|en\s+rémission|sous\s+béquilles|en\s+fauteuil\s+roulant)\b"
)
_DIAGNOSED_FR = regex(
    r"\b(?P<verb>on\s+m'a\s+diagnostiqué|j'ai\s+été\s+diagnostiquée?)\s+(?P<object>[^,;:.!?]+?)"
    + _PHRASE_END_FR
)
_RECOVERING_FR = regex(
    r"\bje\s+me\s+(?P<verb>remets|rétablis)\s+(?P<object>d[e'][^,;:.!?]+?)" + _PHRASE_END_FR
)


def _said(hit: Hit) -> Item | None:
    """The statement from its subject to the end of what it names, in the third person: "Ana has
    asthma", "Ana was diagnosed with ADHD in 2025"; an event when it says when."""
    said = hit.clause.text[hit.match.start() : hit.match.end()].strip()
    if "verb" in hit.match.re.groupindex and hit.group("verb").lower().startswith("on "):
        # "on m'a diagnostiqué un TDAH": the speaker is its object ("On a diagnostiqué un TDAH à Ana").
        content = (
            f"{hit.speaker} a reçu le diagnostic : {hit.third(hit.group('object').strip(), named=False)}"
        )
    else:
        content = capitalize_first(hit.third(said, named=False))
    if not content:
        return None
    content = with_date_said_first(content, hit)
    kind = MemoryType.EVENT if PLACEHOLDER.search(content) else MemoryType.FACT
    return Item(content, kind, hit.confidence(_CONFIDENCE), [hit.phrase])


# How long a treatment lasts: "for a week", "for another 10 days", "until Friday" (a date's placeholder).
_TREATMENT_LASTS_EN = regex(
    r"^\s+(?:for\s+(?:another\s+|the\s+next\s+)?(?:a|an|one|two|three|four|five|six|seven|ten|\d{1,3})\s+"
    r"(?:days?|weeks?|months?)|(?:until|till|through)\s+\x00\d+\x00|"
    # since when: "since 2022" (a date's placeholder, "since" and all)
    r"\x00\d+\x00(?=\s*(?:$|[,;.!?]))|since\s+\x00\d+\x00)"
)


def _takes(hit: Hit) -> Item:
    """ "Ana takes metformin every morning", "Ana is on antibiotics for a week": what a doctor would ask."""
    said = hit.clause.text[hit.match.start() : hit.match.end()].strip()
    rest = hit.clause.text[hit.match.end() :]
    if hit.match.group("object") or hit.match.group("drug"):
        when = rest.split(",")[0].split(" but ")[0].strip()
    else:
        lasts = _TREATMENT_LASTS_EN.match(rest)
        when = lasts.group(0).strip() if lasts else ""
    content = capitalize_first(hit.third(f"{said} {when}".strip(), named=False))
    return Item(content, MemoryType.FACT, hit.confidence(_CONFIDENCE), [hit.phrase])


def _orders(hit: Hit) -> Item:
    """ "Ana's physio says no running for 6 weeks": what the speaker was told to do or not to do."""
    said = hit.clause.text[hit.match.start("who") : hit.match.end()].strip()
    content = f"{hit.speaker}'s {hit.third(said, named=False)}"
    return Item(content, MemoryType.FACT, hit.confidence(_CONFIDENCE), [hit.phrase])


def _blood_type(hit: Hit) -> Item:
    letters, _, sign = hit.group("object").partition(" ")
    return Item(
        f"{hit.speaker}'s blood type is {' '.join([letters.upper(), sign.lower()]).strip()}",
        MemoryType.FACT,
        hit.confidence(_CONFIDENCE),
        [hit.phrase],
    )


HEALTH = (
    *(Rule(pattern, _said, french=False) for pattern in (_DIAGNOSED_EN, _RECOVERING_EN, _HAVE_EN, _IS_EN)),
    Rule(_MEDICATION_EN, _takes, french=False, object_groups=("object", "treatment", "drug")),
    Rule(_BLOOD_TYPE_EN, _blood_type, french=False, check_object=False),
    Rule(_ORDERS_EN, _orders, french=False),
    Rule(_TROUBLE_EN, _trouble, french=False),
    *(Rule(pattern, _said, french=True) for pattern in (_DIAGNOSED_FR, _RECOVERING_FR, _HAVE_FR, _IS_FR)),
)
