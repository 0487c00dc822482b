"""Rules for what happens to relatives and others named, and where they live or work: "Mom retired",
"Sam got promoted", "my brother lives in Seattle", "we're having a baby"."""

from __future__ import annotations

import re

from memory.models import MemoryType

from ..dates import PLACEHOLDER
from ..facts import Predicate
from ..lexicons import KIN_AS_NAME_EN, RELATIVES_EN, RELATIVES_FR, SCHOOL_YEAR_EN
from ..normalize import regex
from ..phrases import is_a_persons_name
from ..rewrite import article_fr, capitalize_first, of_fr, possessive_en
from .base import Hit, Item, Rule
from .said_first import with_date_said_first

__all__ = ["NEWS", "OTHER_CONFIDENCE", "RELATIVE_CONFIDENCE", "relative_of", "tells_of_news_of_someone_named"]

RELATIVE_CONFIDENCE = 0.75
# Told of someone else by name: hearsay, and the name may not be a person's.
OTHER_CONFIDENCE = 0.65

# What happens to a relative that a friend would remember: "my mom passed away last year", "my
# son was born on 3 June 2019", "my sister got married in June", "my dad was diagnosed with ...",
# "my son got into a car accident";
# "our" / "notre" / "nos" and a relative in the plural ("our kids graduated") too.
_AN_ACCIDENT = (
    r"an?\s+(?:(?:bad|serious|minor|small|little|car|bike|bicycle|skiing|terrible)\s+){0,2}(?:accident|crash)"
)
_EVENT_EN = (
    r"(?:just\s+|recently\s+|finally\s+)?(?:was\s+born|"
    # days at work with the day said: "Sarah starts Monday", "Tom is out Friday", "Priya will be back
    # on the 6th", "Nadia is leaving the company end of month" (with no day, "Tom is out of ideas"
    # tells nothing of the kind)
    r"(?:starts|joins(?:\s+us)?|leaves|is\s+(?:starting|joining(?:\s+us)?|leaving|out|off|away|back)|"
    r"will\s+(?:start|join(?:\s+us)?|leave|be\s+(?:out|off|away|back)))"
    # ... and the role said first: "Léa joins as a designer on Monday"
    r"(?=\s+(?:(?:us|the\s+(?:company|team))\s+)?(?:as\s+(?:an?\s+|the\s+|our\s+)?(?:[\w-]+\s+){1,4}?)?"
    r"(?:(?:on|from|until|till|next|this|at|in)\s+)?\x00\d+\x00)|"
    r"passed\s+away|passed\b(?!\s+(?:the|a|an|his|her|their|my)\b)|died|(?:is|are)\s+getting\s+(?:married|engaged|"
    r"divorced)|got\s+(?:married|engaged|divorced|"
    r"sick|hired|promoted|fired|laid\s+off|(?:a\s+)?(?:new\s+)?job|into\s+(?-i:[A-Z])\w*|accepted|hurt|injured|"
    rf"(?:in|into)\s+{_AN_ACCIDENT})|retired|graduated|"
    rf"had\s+(?:(?:a|the)\s+baby|(?:her|his|their)\s+(?:(?:first|second|third|fourth|fifth)\s+)?(?:baby|child|kid)|twins|(?:[a-z]+\s+){{0,2}}?surgery|an?\s+operation|a\s+stroke|a\s+heart\s+attack|{_AN_ACCIDENT})|"
    r"gave\s+birth|(?:was|got|has\s+been)\s+diagnosed|(?:broke|fractured|sprained|injured|hurt|dislocated)\s+(?:his|her|their)|"
    r"(?:started|starts?|(?:is|are)\s+starting|will\s+start)\s+(?:walking|talking|crawling|school|kindergarten|preschool|daycare|college|university|"
    r"high\s+school|a\s+new\s+(?:job|school)|(?:her|his|their)\s+new\s+(?:job|school|role)|therapy|"
    r"(?:[\w-]+\s+){1,2}?(?:lessons|classes|practice))|retires|is\s+retiring|will\s+retire|"
    r"got\s+(?:a\s+)?(?:promotion|raise|scholarship)|(?:was|has\s+been)\s+(?:promoted|hired|laid\s+off|accepted)|"
    r"bought\s+(?:a|their|his|her)\s+(?:first\s+|new\s+)?(?:house|home|flat|apartment|condo|place)|"
    # "my mom is visiting from Manila next week", "my in-laws are coming to stay with us"
    r"(?:is|are)\s+(?:visiting|coming\s+(?:to\s+(?:visit|stay)|over|for\s+(?:a\s+visit|the\s+weekend))|"
    r"flying\s+in|staying\s+with\s+(?:me|us))|"
    rf"(?:is|was|has\s+been)\s+(?:pregnant|expecting|in\s+(?:the\s+)?hospital|hospitali[sz]ed|in\s+{_AN_ACCIDENT})|"
    r"(?:is|was)\s+(?:still\s+)?recovering\s+from|"
    # what a relative may not eat, and a couple's news: "my son is allergic to peanuts", "Alex is vegan"
    r"(?:is|are)\s+(?:(?:very|severely|deathly|also)\s+)?allergic\s+to|"
    r"(?:is|are)\s+(?:vegan|vegetarian|gluten[- ]free|lactose[- ]intolerant|celiac|coeliac|diabetic)\b|"
    r"(?:broke|split)\s+up|(?:quit|left)\s+(?:his|her|their)\s+job|started\s+(?:at|working\s+at|a\s+new)\b|"
    # a child's firsts and a family's sick days: "my daughter lost her first tooth", "my son has an
    # ear infection again"
    r"proposed|(?:is|are)\s+moving\s+(?:to|back|out|in\s+with|away|abroad)|"
    r"lost\s+(?:his|her|their)\s+(?:first\s+)?(?:tooth|teeth)|took\s+(?:his|her|their)\s+first\s+steps?|"
    r"said\s+(?:his|her|their)\s+first\s+words?|"
    r"(?:has|have|had)\s+(?:a|an|the)\s+(?:(?:bad|nasty|high|mild|little)\s+)?(?:ear\s+infection|cold|flu|fever|cough|"
    r"stomach\s+bug|rash|infection|chest\s+infection|strep(?:\s+throat)?|chickenpox|concussion)|"
    r"(?:has|have|had)\s+(?:covid|chickenpox|strep|pneumonia|bronchitis|the\s+flu)|(?:is|are|was|were)\s+(?:home\s+)?sick|"
    # and what they live with: "my dad has Parkinson's", "my son has ADHD", "my mom has stage 2 breast cancer"
    r"(?:has|have|had)\s+(?:(?:stage\s+\d|early[- ]onset|terminal|breast|lung|prostate|skin|colon|pancreatic|"
    r"brain|type\s+[12])\s+){0,2}(?:cancer|parkinson's|alzheimer's|dementia|diabetes|multiple\s+sclerosis|ms|als|"
    r"epilepsy|autism|asthma|arthritis|leuka?emia|lymphoma|lupus|crohn's|adhd|a\s+heart\s+condition|heart\s+disease|"
    r"copd|long\s+covid|down\s+syndrome)|"
    # what a relative handed down: "my grandma taught me how to make tamales"
    r"(?:taught|teaches|showed)\s+(?:me|us)\s+(?:how\s+)?to\b|"
    # a relative's trip: "my husband is flying to Berlin tomorrow", "my mom left for Manila"
    r"(?:is|are)\s+(?:flying|travell?ing|heading|driving)\s+(?:to|back|home)|(?:leaves|left)\s+for|"
    r"lost\s+(?:his|her|their)\s+job|moved\s+(?:to|in\s+with|out|back)|passed\s+(?:his|her|their)\s+(?:exams?|driving\s+test|bar)|"
    # "my son made the varsity soccer team", "my husband surprised me with tickets to Hamilton"
    r"made\s+(?:the|a|his|her|their)\s+(?:[\w-]+\s+){0,3}?team|"
    r"surprised\s+(?:me|us)\s+with|(?:got|bought|gave)\s+(?:me|us)\s+(?:a|an|some|tickets|flowers|two|my|our)\b"
    r"(?!\s+(?:hard\s+time|ride|lift|call|look|hand|hug|break|chance|heads[- ]up|minute|second|sec|bit|"
    r"lot)\b)|"
    # An age reached or had: "my daughter turns 6 next Tuesday", "my son is 5" (not "is 5 minutes late").
    r"(?:just\s+)?turned\s+\d{1,3}|turns\s+\d{1,3}|will\s+turn\s+\d{1,3}|is\s+turning\s+\d{1,3}|"
    r"is\s+\d{1,2}(?:\s+(?:years?|months?)\s+old)?(?=\s*(?:$|[^\w\s]|\x00|(?:now|and|but|so)\b))|"
    # "my kids are 7 and 10": the ages of several
    r"are\s+\d{1,2}(?:\s*(?:,|and|&)\s*\d{1,2})+(?:\s+(?:years?\s+old|now))?(?=\s*(?:$|[^\w\s]|(?:and|but|so)\b)))\b.*"
)
# With the relative's partner or family as one subject: "my brother and his wife just bought a house".
_AND_THEIR_OWN = (
    r"(?:\s+and\s+(?:his|her|their)\s+(?:wife|husband|partner|girlfriend|boyfriend|fiancée?|kids|family))?"
)
# A relative's relative: "my wife's grandmother", "my partner's parents".
_RELATIVES_OF_EN = rf"(?:(?:{RELATIVES_EN})['’]s\s+)?"
_LIFE_EVENT_EN = regex(
    rf"\b(?:my|our)\s+(?P<rel>{_RELATIVES_OF_EN}(?:{RELATIVES_EN}s?|parents|children){_AND_THEIR_OWN})\s+"
    rf"(?P<object>{_EVENT_EN})"
)
_LIFE_EVENT_FR = regex(
    rf"\b(?P<poss>mon|ma|mes|notre|nos)\s+(?P<rel>{RELATIVES_FR}s?|parents)\s+"
    r"(?P<object>(?:(?:vient|viennent)\s+d[e']\s*|est\s+|sont\s+|a\s+|ont\s+|s'est\s+|se\s+sont\s+)?"
    r"(?:(?:enfin\s+|récemment\s+)?(?:née?s?|décédée?s?|morte?s?|mariée?s?|fiancée?s?|pacsée?s?|"
    r"diplômée?s?|retraitée?s?|enceintes?|hospitalisée?s?|à\s+l'hôpital)|pris\s+sa\s+retraite|accouché|"
    r"eu\s+(?:un\s+bébé|des\s+jumeaux|un\s+accident)|été\s+opérée?|été\s+hospitalisée?|été\s+diagnostiquée?|"
    r"(?:cassé|fracturé|foulé|blessé)e?\s+(?:la|le|les|l')|perdu\s+son\s+(?:travail|emploi|boulot)|"
    # a child's firsts: "ma fille a perdu sa première dent", "mon fils a fait ses premiers pas"
    r"perdu\s+sa\s+première\s+dent|fait\s+ses\s+premiers\s+pas|dit\s+son\s+premier\s+mot|"
    r"trouvé\s+un\s+(?:nouveau\s+)?(?:travail|emploi|boulot|job)|déménagé|"
    # "mon fils a eu son bac", "ma fille a eu son permis", "ma mère arrive demain"
    r"eu\s+(?:son|sa|ses|leur|leurs)\s+(?:bac|brevet|permis|diplôme|master|licence|examen|concours)|"
    r"(?:arrive|arrivent|arrivera|arriveront)\b|"
    # "mon fils a la varicelle", "ma fille est malade"
    r"(?:a|ont|avait)\s+(?:la|le|une|un|de\s+la)\s+(?:varicelle|grippe|covid|gastro|otite|angine|rhume|fièvre|"
    r"bronchite|rougeole|bronchiolite|conjonctivite)|(?:est|sont)\s+malades?|"
    # "ma fille entre au CP en septembre", "mon mari part en déplacement à Berlin demain"
    r"(?:entre|rentre|entrera|est\s+entrée?)\s+(?:au|en|à\s+la|à\s+l'|à\s+l’)\s*\w+|"
    r"(?:part|partent|partira|est\s+partie?|sont\s+partie?s)\s+(?:en|à|au|aux|pour)\s+\w+|"
    # "mon fils commence le judo en janvier", "ma fille a commencé la crèche", "mon mari a changé de
    # boulot", "ma femme a repris le travail"
    r"(?:commencé|commence(?:nt|ra|ront)?)\s+(?:le|la|les|l'|un|une|son|sa|ses)\s*\w+|"
    r"changé\s+d[e']\s*(?:boulot|travail|poste|job|emploi|école|équipe)|"
    r"repris\s+(?:le\s+(?:boulot|travail|sport)|l'école|les\s+cours)|mourir|naître|se\s+marier|décéder|"
    # "mon frère se marie en juin", "ma sœur se fiance", "mes parents divorcent"
    r"(?:se\s+marie(?:nt|ra|ront)?|se\s+fiance(?:nt)?|divorcent|divorce|déménage(?:nt|ra|ront)?)\b|"
    # "ma femme attend notre deuxième enfant pour avril", "ma sœur attend des jumeaux"
    r"attend(?:ent)?\s+(?:un\s+bébé|un\s+enfant|des\s+jumeaux|(?:notre|leur|son|sa)\s+(?:\w+\s+)?(?:enfant|bébé))\b|"
    # "ma fille a 6 ans", "mon fils a eu 5 ans hier", "mon fils aura 5 ans samedi"
    r"(?:eu\s+)?\d{1,2}\s+ans|aura\s+\d{1,2}\s+ans|va\s+avoir\s+\d{1,2}\s+ans)\b.*)"
)
# Where a relative lives or works, where they are from, what they play or study: "my brother lives in
# Seattle", "my partner works at Google", "ma sœur habite à Lyon".
_LIFE_EN = (
    r"(?:still\s+|now\s+|also\s+|currently\s+|both\s+)?"
    r"(?:(?:lives?|(?:has|have)\s+been\s+living)\s+(?:in|at|near|with|abroad|overseas|nearby|close\s+by)|"
    r"works?\s+(?:at|for|in|as|from)|"
    r"(?:is|are)\s+(?:from|originally\s+from|retired|a\s+retired\b)|comes?\s+from|grew\s+up\s+in|"
    # "my brother is in the army, stationed in Germany"
    r"(?:is|are)\s+in\s+the\s+(?:army|navy|air\s+force|marines|military|police|coast\s+guard)|"
    # "my daughter is in 3rd grade now", "my son is in year 5", "our twins are in kindergarten"
    r"(?:is|are)\s+in\s+" + SCHOOL_YEAR_EN + "|"
    r"studies|(?:is|are)\s+studying|plays?|moved\s+here\s+from)\b.*"
)
# What a relative goes through, said as theirs: "my mom's surgery went well", "my dad's scan came back
# clear".
_RELATIVES_OWN_EN = regex(
    rf"\b(?:my|our)\s+(?P<rel>{RELATIVES_EN}s?|parents)['’]s?\s+(?P<object>(?:surgery|operation|treatment|chemo|"
    r"scan|biopsy|(?:test\s+|blood\s+)?results|recovery|funeral|wedding|graduation|baby|labou?r|transplant)\s+"
    r"(?:went|was|is|came|has|had|will|got)\b.*)"
)
# Where someone is, a place named (capitalised): "my brother is in Glasgow now", "my parents are based
# in Lisbon". Said of a name, only with "now" ("Dave is in Leeds now"): "Paris is in France" is no news.
# The place is the name said, not a name's thing ("my brother is in Chemistry class", "my sister is
# in Spanish club"): what follows it ends the clause or says when, how long or with whom.
_IN_A_PLACE_EN = (
    r"(?:is|are)\s+(?:now\s+)?(?:based\s+|living\s+|settled\s+)?in\s+"
    r"(?=(?-i:[A-ZÀ-Ý][a-zà-ÿ'-]+)(?:\s+(?:(?:de|da|do|dos|del|la|le|upon|am|an|on)\s+)?(?-i:[A-ZÀ-Ý][a-zà-ÿ'-]+)){0,3}(?:\s*(?:$|[^\w\s])|\s+(?:now|these\s+days|"
    r"nowadays|currently|still|for|since|until|till|with|and|but|so|right|again|too|permanently|full[- ]time|"
    r"this|next|at\s+the\s+moment)\b))"
)
_NOW_IN_A_PLACE_EN = (
    r"(?:is|are)\s+(?:based\s+|living\s+|settled\s+)?in\s+(?-i:[A-ZÀ-Ý][a-zà-ÿ-]+(?:\s+[A-ZÀ-Ý][a-zà-ÿ-]+)?)"
    r"\s+(?:now|these\s+days|nowadays)\b.*"
)
_RELATIVE_LIFE_EN = regex(
    rf"\b(?:my|our)\s+(?P<rel>{_RELATIVES_OF_EN}(?:{RELATIVES_EN}s?|parents))\s+"
    rf"(?P<object>{_LIFE_EN}|{_IN_A_PLACE_EN}.*)"
)
# Someone named who is no relative said to be one: "Sam just got promoted", "omg Priya and Tom got
# engaged", "Dave lives in Leeds now". The name opens the clause, capitalised as written; what
# happens to them is what happens to a relative.
_OTHER_EN = regex(
    r"^\W*(?:(?:omg|btw|fyi|so|also|oh|wow|and|update|news|guess\s+what)[,!:]?\s+)*"
    # a heading said first: "Our team is growing: Léa joins on Monday"; who they are to the team:
    # "the new hire Aiko starts Monday"
    r"(?:[\w' ]{3,40}:\s+)?(?:(?:the|our)\s+new\s+(?:[\w-]+\s+){1,2}?(?=(?-i:[A-ZÀ-Ý])))?"
    r"(?-i:(?P<name>[A-ZÀ-Ý][a-zà-ÿ-]+(?:\s+[A-ZÀ-Ý][a-zà-ÿ-]+)?(?:\s+(?:and|&)\s+[A-ZÀ-Ý][a-zà-ÿ-]+)?))"
    # a relative of theirs: "Ken's wife just had a baby"
    rf"(?:['’]s\s+(?P<their>{RELATIVES_EN}))?\s+"
    rf"(?P<object>{_EVENT_EN}|{_LIFE_EN}|{_NOW_IN_A_PLACE_EN})"
)
_RELATIVE_LIFE_FR = regex(
    rf"\b(?P<poss>mon|ma|mes|notre|nos)\s+(?P<rel>{RELATIVES_FR}s?|parents)\s+(?P<object>(?:habite|habitent|vit|vivent|"
    r"travaille|travaillent|bosse|bossent|est\s+originaire|sont\s+originaires|vient\s+d[e']|viennent\s+d[e']|étudie|"
    r"joue|jouent|est\s+à\s+la\s+retraite|sont\s+à\s+la\s+retraite)\b.*)"
)
# "we're having a baby!", "I'm expecting twins": the family's news, with or without its date.
_EXPECTING_EN = regex(
    # a family's news told by who one becomes: "I'm going to be an aunt!!", "we're going to be grandparents"
    r"\b(?:i|we)(?:'m|'re|\s+am|\s+are)\s+(?:going\s+to|gonna)\s+be\s+(?:an?\s+)?(?:aunt|uncle|auntie|"
    r"grandma|grandpa|grandmother|grandfather|grandparents|(?:a\s+)?(?:dad|mom|mum|father|mother|parents)|"
    r"big\s+(?:sister|brother)|godmother|godfather|godparents)\b.*"
    r"|\b(?:i|we)(?:'m|'re|\s+am|\s+are)\s+(?:having|expecting)\s+(?:(?:a\s+|our\s+(?:first|second|third)\s+)?"
    # "we're expecting our first in April"
    r"(?:baby|babies|twins|child|kid|little\s+one|girl|boy)|our\s+(?:first|second|third))\b.*"
)
_NEXT_CLAUSE = regex(r"\s+(?:and|but|so)\s+(?:it|i|we|he|she|they|that|this|there|everyone)\b.*$")
_NEXT_CLAUSE_FR = regex(r"\s+(?:et|mais|donc)\s+(?:c'|ça|je|j'|on|nous|il|elle|ils|elles|tout)\b.*$")


def relative_of(hit: Hit, relative: str) -> str:
    """The speaker's `relative` named as a subject: "Mickael's sister", "La sœur de Mickael"."""
    if hit.french:
        return capitalize_first(f"{article_fr(hit.group('poss'), relative)}{relative} {of_fr(hit.speaker)}")
    return f"{possessive_en(hit.speaker)} {relative}"


def _news(hit: Hit, who: str, confidence: float, keys: list[str], tags: list[str]) -> Item:
    """What happens to `who` (a relative, someone named): the event dated when the clause says when."""
    # "passed away and it's been hard": what follows is about the speaker, not the event.
    event = (_NEXT_CLAUSE_FR if hit.french else _NEXT_CLAUSE).sub("", hit.phrase)
    said = with_date_said_first(hit.third(event), hit)
    kind = MemoryType.EVENT if PLACEHOLDER.search(said) else MemoryType.FACT
    return Item(
        f"{who} {said}",
        kind,
        hit.confidence(confidence),
        keys,
        tags=tags,
        predicate=Predicate.EVENT if kind is MemoryType.EVENT else Predicate.STATED,
        object=said,
        subject=who,
    )


def _life_event(hit: Hit) -> Item | None:
    """ "Mickael's mom passed away in 2025", "La mère de Mickael est décédée en 2025": the relative
    is the subject."""
    relative = hit.words("rel")
    return _news(hit, relative_of(hit, relative), RELATIVE_CONFIDENCE, [relative], [])


def _relatives_own(hit: Hit) -> Item | None:
    """ "Mickael's mom's surgery went well": what the relative goes through is theirs."""
    relative = hit.words("rel")
    return _news(hit, f"{relative_of(hit, relative)}'s", RELATIVE_CONFIDENCE, [relative], [])


def tells_of_news_of_someone_named(text: str) -> bool:
    """Whether a clause may tell what happened to someone it names ("Sam got promoted")."""
    return _OTHER_EN.search(text) is not None


def _other_event(hit: Hit) -> Item | None:
    """ "Sam got promoted on Tuesday 24 November 2026": what happens to someone the speaker names,
    told as the speaker's relatives' news is; the note is the speaker's, about that person."""
    said = hit.words("name")
    names = [name for name in re.split(r"\s+(?:and|&)\s+", said) if name]
    if said.casefold() == hit.speaker.casefold() or not all(is_a_persons_name(name) for name in names):
        return None  # "Networking plays a big role": a capitalised word that names no one
    kin = KIN_AS_NAME_EN.get(said.casefold())
    their = hit.group("their")
    if their:
        return _news(hit, f"{possessive_en(said)} {their.lower()}", OTHER_CONFIDENCE, [their.lower()], names)
    if kin:
        return _news(hit, f"{possessive_en(hit.speaker)} {kin}", OTHER_CONFIDENCE, [kin], [])
    return _news(hit, said, OTHER_CONFIDENCE, [], names)


def _expecting(hit: Hit) -> Item:
    """ "Mickael and others are having a baby in March 2027": an event when dated, else a fact."""
    said = hit.whole_clause()
    kind = MemoryType.EVENT if hit.clause.dates else MemoryType.FACT
    return Item(said, kind, hit.confidence(RELATIVE_CONFIDENCE), ["baby"], predicate=Predicate.STATED)


# The news rules, in the order the family's table tries them.
NEWS = (
    Rule(_LIFE_EVENT_EN, _life_event, french=False, check_object=False),
    Rule(_EXPECTING_EN, _expecting, french=False, object_groups=()),
    Rule(_LIFE_EVENT_FR, _life_event, french=True, check_object=False),
    Rule(_RELATIVE_LIFE_EN, _life_event, french=False, check_object=False),
    Rule(_RELATIVES_OWN_EN, _relatives_own, french=False, check_object=False),
    Rule(_RELATIVE_LIFE_FR, _life_event, french=True, check_object=False),
    Rule(_OTHER_EN, _other_event, french=False, check_object=False),
)
