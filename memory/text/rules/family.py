"""Rules for relatives, pets and others named: who they are and what happens to them ("Mom retired")."""

from __future__ import annotations

import re
from collections.abc import Callable

from memory.models import MemoryType

from ..dates import DATE_SLOT, PLACEHOLDER
from ..facts import Predicate
from ..lexicons import (
    FAMILY_WORD,
    KIN_AS_NAME_EN,
    NATIONALITIES,
    NOBODY_EN,
    RELATIVES_EN,
    RELATIVES_FR,
    is_occupation_en,
    is_occupation_fr,
)
from ..normalize import regex
from ..phrases import NAME_CAPTURE, name_from_phrase, noun_phrase, trim_phrase
from ..rewrite import article_fr, capitalize_first, of_fr, possessive_en, third_person
from .base import Hit, Item, OneOf, Rule
from .said_first import with_date_said_first

__all__ = ["FAMILY", "tells_of_someone_named"]

_CONFIDENCE = 0.75
# Told of someone else by name: hearsay, and the name may not be a person's.
_OTHER_CONFIDENCE = 0.65

_NAMED_EN = regex(
    rf"\b(?:my|our)\s+(?P<rel>{RELATIVES_EN})(?:'s\s+name\s+is|\s+is\s+called|\s+is\s+named|\s+name\s+is|\s+goes\s+by)\s+"
    + NAME_CAPTURE
)
# "my manager is Priya": a capitalised name that ends the clause ("my wife is French" is no name).
_IS_NAMED_EN = regex(
    rf"\b(?:my|our)\s+(?P<rel>{RELATIVES_EN})\s+is\s+(?-i:(?P<name>[A-ZÀ-Ý][\w'-]+(?:\s+[A-ZÀ-Ý][\w'-]+)?))"
    r"(?=\s*(?:[.,!?;:)]|$)|\s+(?:and|but|so)\s)"
)
# The same said name first: "Priya is my manager", "Léa is my little sister". Kin and roles at work
# only: "Coffee is my best friend" and "Netflix is my therapist" say what a thing is to the speaker.
_NAME_IS_MY_EN = regex(
    r"^\W*(?-i:(?P<name>[A-ZÀ-Ý][\w'-]+(?:\s+[A-ZÀ-Ý][\w'-]+)?))\s+is\s+(?P<poss>my|our)\s+"
    r"(?P<rel>(?:little\s+|big\s+|older\s+|younger\s+|twin\s+|new\s+)?(?:sister|brother|son|daughter|mom|mum|mother|"
    r"dad|father|cousin|aunt|uncle|niece|nephew|grandmother|grandfather|grandma|grandpa|boss|manager|team\s+lead|"
    r"tech\s+lead|mentor|supervisor|colleague|coworker|co-worker|teammate|roommate|cofounder|co-founder|landlord|"
    r"landlady))(?=\s*(?:[.,!?;:)]|$)|\s+(?:and|but|so)\s)"
)
_NOT_A_NAME = NATIONALITIES | {"catholic", "christian", "muslim", "jewish", "hindu", "buddhist", "atheist"}
# "my daughter Léa": the name must be capitalised as written, or "my dog loves walks" would name it.
# Names listed together, each capitalised as written: "Mochi and Tofu", "Léo, Ana and Sam".
_NAMES_LISTED = (
    r"(?-i:(?P<names>[A-ZÀ-Ý][\w'-]+(?:(?:\s*,\s*|\s*,?\s+and\s+|\s*&\s*)[A-ZÀ-Ý][\w'-]+){1,5}))\b"
)
# Pets or relatives named together: "my turtles are named Bubbles and Squirt", "our kids are called
# Léo, Ana and Sam".
_NAMED_TOGETHER_EN = regex(
    rf"\b(?:my|our)\s+(?:(?:two|three|four|five|\d)\s+)?(?P<rel>{RELATIVES_EN})s\s*"
    # "... are named A and B", or named after a comma: "our two cats, Mochi and Tofu"
    r"(?:\s(?:are\s+(?:named|called)|names\s+are)\s+|,\s*)" + _NAMES_LISTED
)
# "I just adopted two kittens, Salt and Pepper", "we got two cats named Mochi and Tofu".
_GOT_NAMED_TOGETHER_EN = regex(
    r"\b(?:i|we)(?:'ve|\s+have)?\s+(?:just\s+|finally\s+)?(?:adopted|got|rescued|brought\s+home)\s+"
    rf"(?:two|three|four|\d)\s+(?:[\w'-]+\s+)?(?P<rel>{RELATIVES_EN})s\s*(?:,\s*|\s+(?:named|called)\s+)"
    + _NAMES_LISTED
)
_NAMES_APART = regex(r"\s*,?\s+and\s+|\s*[,&]\s*")
# "we named the puppy Mochi", "I called my new kitten Pixel": the name given is the relative's name.
_GAVE_NAME_EN = regex(
    rf"\b(?:i|we)\s+(?:just\s+|finally\s+|officially\s+)?(?:named|called)\s+(?:the|our|my)\s+(?:new\s+)?"
    rf"(?P<rel>{RELATIVES_EN})\s+(?-i:(?P<name>[A-ZÀ-Ý][\w'-]+))"
)
# "I adopted a third dog named Pepper", "we got a kitten called Miso": one had, and their name.
_GOT_NAMED_EN = regex(
    r"\b(?:i|we)(?:'ve|\s+have)?\s+(?:just\s+|finally\s+)?(?:adopted|got|rescued|have|brought\s+home)\s+(?:a|an|another)\s+"
    # what the one had is like: "a very loud cat called Miso", "a second rescue dog named Pepper"
    rf"(?:(?:new|second|third|fourth|little|baby|rescue)\s+)?(?:(?-i:[a-z][\w'-]*)\s+){{0,3}}?(?P<rel>{RELATIVES_EN})"
    # what kind, said after a comma: "a new puppy, a golden retriever named Max"
    r"(?:\s*,\s*(?:a|an)\s+(?:(?-i:[a-z][\w'-]*)\s+){0,2}?(?-i:[a-z][\w'-]*))?"
    r"\s+(?:named|called)\s+"
    r"(?-i:(?P<name>[A-ZÀ-Ý][\w'-]+))"
)
# "j'ai un chat qui s'appelle Moustache", "on a adopté une chienne nommée Lune".
_GOT_NAMED_FR = regex(
    r"\b(?:j'ai|nous\s+avons|on\s+a)\s+(?:adopté\s+|recueilli\s+|eu\s+)?(?P<poss>un|une)\s+"
    rf"(?:(?-i:[a-zà-ÿ][\w'-]*)\s+){{0,2}}?(?P<rel>{RELATIVES_FR})\s+(?:(?-i:[a-zà-ÿ][\w'-]*)\s+)?"
    r"(?:qui\s+s'appelle|nommée?|appelée?)\s+(?-i:(?P<name>[A-ZÀ-Ý][\w'-]+))"
)
_APPOSITION_EN = regex(rf"\b(?:my|our)\s+(?P<rel>{RELATIVES_EN}),?\s+(?-i:(?P<name>[A-ZÀ-Ý][\w'-]+))")
_NAMED_FR = regex(
    rf"\b(?P<poss>mon|ma|mes|notre)\s+(?P<rel>{RELATIVES_FR})\s+(?:s'appelle|se\s+nomme|est\s+appelée?|c'est)\s+"
    + NAME_CAPTURE
)
_APPOSITION_FR = regex(
    rf"\b(?P<poss>mon|ma|mes|notre)\s+(?P<rel>{RELATIVES_FR}),?\s+(?-i:(?P<name>[A-ZÀ-Ý][\w'-]+))"
)
# What the named relative does, after "my daughter Léa": a verb phrase of at least two words.
_PREDICATE = re.compile(r"^,?\s+(?P<said>(?-i:[a-zà-ÿ])[\w'-]*\s+\S.*)$")
# Nor a new clause's subject: "RIP my cat Luna, she was 17" says her age, not "Luna she was 17".
_NOT_A_PREDICATE = regex(
    r"^(?:and|or|but|who|which|that|is\s+called|et|ou|mais|qui|que|s'appelle|"
    r"he|she|they|it|i|we|you|il|elle|ils|elles|je|on|nous|vous)\b"
)
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
    r"(?=\s+(?:(?:us|the\s+(?:company|team))\s+)?(?:(?:on|from|until|till|next|this|at|in)\s+)?\x00\d+\x00)|"
    r"passed\s+away|passed\b(?!\s+(?:the|a|an|his|her|their|my)\b)|died|(?:is|are)\s+getting\s+(?:married|engaged|"
    r"divorced)|got\s+(?:married|engaged|divorced|"
    r"sick|hired|promoted|fired|laid\s+off|(?:a\s+)?(?:new\s+)?job|into\s+(?-i:[A-Z])\w*|accepted|hurt|injured|"
    rf"(?:in|into)\s+{_AN_ACCIDENT})|retired|graduated|"
    rf"had\s+(?:a\s+baby|(?:her|his|their)\s+(?:(?:first|second|third|fourth|fifth)\s+)?(?:baby|child|kid)|twins|(?:[a-z]+\s+){{0,2}}?surgery|an?\s+operation|a\s+stroke|a\s+heart\s+attack|{_AN_ACCIDENT})|"
    r"gave\s+birth|(?:was|got|has\s+been)\s+diagnosed|(?:broke|fractured|sprained|injured|hurt|dislocated)\s+(?:his|her|their)|"
    r"(?:started|starts?|(?:is|are)\s+starting|will\s+start)\s+(?:walking|talking|crawling|school|kindergarten|preschool|daycare|college|university|"
    r"high\s+school|a\s+new\s+(?:job|school)|(?:her|his|their)\s+new\s+(?:job|school|role)|therapy|"
    r"(?:[\w-]+\s+){1,2}?(?:lessons|classes|practice))|retires|is\s+retiring|will\s+retire|"
    r"got\s+(?:a\s+)?(?:promotion|raise|scholarship)|"
    # "my mom is visiting from Manila next week", "my in-laws are coming to stay with us"
    r"(?:is|are)\s+(?:visiting|coming\s+(?:to\s+(?:visit|stay)|over|for\s+(?:a\s+visit|the\s+weekend))|"
    r"flying\s+in|staying\s+with\s+(?:me|us))|"
    rf"(?:is|was)\s+(?:pregnant|expecting|in\s+(?:the\s+)?hospital|hospitali[sz]ed|in\s+{_AN_ACCIDENT})|"
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
_LIFE_EVENT_EN = regex(
    rf"\b(?:my|our)\s+(?P<rel>{RELATIVES_EN}s?|parents|children)\s+(?P<object>{_EVENT_EN})"
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
    # "ma fille a 6 ans", "mon fils a eu 5 ans hier", "mon fils aura 5 ans samedi"
    r"(?:eu\s+)?\d{1,2}\s+ans|aura\s+\d{1,2}\s+ans|va\s+avoir\s+\d{1,2}\s+ans)\b.*)"
)
# "we're having a baby!", "I'm expecting twins": the family's news, with or without its date.
# Where a relative lives or works, where they are from, what they play or study: "my brother lives in
# Seattle", "my partner works at Google", "ma sœur habite à Lyon".
_LIFE_EN = (
    r"(?:still\s+|now\s+|also\s+|currently\s+|both\s+)?"
    r"(?:lives?\s+(?:in|at|near|with|abroad|overseas|nearby|close\s+by)|works?\s+(?:at|for|in|as|from)|"
    r"(?:is|are)\s+(?:from|originally\s+from|retired|a\s+retired\b)|comes?\s+from|grew\s+up\s+in|"
    # "my brother is in the army, stationed in Germany"
    r"(?:is|are)\s+in\s+the\s+(?:army|navy|air\s+force|marines|military|police|coast\s+guard)|"
    r"studies|(?:is|are)\s+studying|plays?|moved\s+here\s+from)\b.*"
)
_RELATIVE_LIFE_EN = regex(rf"\b(?:my|our)\s+(?P<rel>{RELATIVES_EN}s?|parents)\s+(?P<object>{_LIFE_EN})")
# Someone named who is no relative said to be one: "Sam just got promoted", "omg Priya and Tom got
# engaged", "Dave lives in Leeds now". The name opens the clause, capitalised as written; what
# happens to them is what happens to a relative.
_OTHER_EN = regex(
    r"^\W*(?:(?:omg|btw|fyi|so|also|oh|wow|and|update|news|guess\s+what)[,!:]?\s+)*"
    r"(?-i:(?P<name>[A-ZÀ-Ý][a-zà-ÿ'-]+(?:\s+[A-ZÀ-Ý][a-zà-ÿ'-]+)?(?:\s+(?:and|&)\s+[A-ZÀ-Ý][a-zà-ÿ'-]+)?))\s+"
    rf"(?P<object>{_EVENT_EN}|{_LIFE_EN})"
)
_RELATIVE_LIFE_FR = regex(
    rf"\b(?P<poss>mon|ma|mes|notre|nos)\s+(?P<rel>{RELATIVES_FR}s?|parents)\s+(?P<object>(?:habite|habitent|vit|vivent|"
    r"travaille|travaillent|bosse|bossent|est\s+originaire|sont\s+originaires|vient\s+d[e']|viennent\s+d[e']|étudie|"
    r"joue|jouent|est\s+à\s+la\s+retraite|sont\s+à\s+la\s+retraite)\b.*)"
)
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
# "we have two kids" / "nous avons deux enfants": the speaker's family as much as "I have".
_HAVE_EN = regex(
    r"\b(?:i|we)(?:\s+have|\s+have\s+got|'ve\s+got|(?P<got>\s+got))\s+"
    r"(?P<object>(?:a|an|one|two|three|four|five|six|\d{1,2})\s+.+)"
)
_DATED_TAIL = regex(rf"\s*(?:\b(?:on|in|at|during|over|around|since)\s+)?{DATE_SLOT}.*$")
_HAVE_FR = regex(
    r"\b(?:j'ai|nous\s+avons|on\s+a)\s+(?P<object>(?:un|une|deux|trois|quatre|cinq|six|\d{1,2})\s+.+)"
)


def _relative_of(hit: Hit, relative: str) -> str:
    """The speaker's `relative` named as a subject: "Mickael's sister", "La sœur de Mickael"."""
    if hit.french:
        return capitalize_first(f"{article_fr(hit.group('poss'), relative)}{relative} {of_fr(hit.speaker)}")
    return f"{possessive_en(hit.speaker)} {relative}"


def _what_they_do(hit: Hit) -> tuple[str, MemoryType] | None:
    """What follows a named relative ("… Léa starts school in Lyon next September"), rewritten in
    the third person, and its kind: an event when it holds a date. None when nothing is said."""
    said = _PREDICATE.match(hit.clause.text[hit.match.end() :])
    if said is None or _NOT_A_PREDICATE.match(said.group("said")):
        return None
    phrase = trim_phrase(said.group("said"))
    if len(phrase.split()) < 2:
        return None
    kind = MemoryType.EVENT if PLACEHOLDER.search(phrase) else MemoryType.FACT
    return third_person(phrase, hit.speaker, hit.french, named=True), kind


def _named_relative(strict: bool, with_predicate: bool) -> Callable[[Hit], list[Item]]:
    """ "Mickael's sister is called Léa" / "La sœur de Mickael s'appelle Léa", and with an
    apposition what the relative does: "Mickael's daughter Léa starts school ..."."""

    def make(hit: Hit) -> list[Item]:
        name = name_from_phrase(hit.group("name"), strict=strict)
        if not name:
            return []  # the wording matched: no other wording of a named relative is tried
        relative = hit.words("rel")
        confidence = hit.confidence(_CONFIDENCE)
        named = _relative_of(hit, relative)
        if hit.french:
            verb = "s'appellent" if hit.group("poss").lower() == "mes" else "s'appelle"
            content = f"{named} {verb} {name}"
        else:
            content = f"{named} is called {name}"
        relation = relative.casefold()
        items = [
            Item(
                content,
                MemoryType.FACT,
                confidence,
                [relative],
                [name],
                predicate=Predicate.RELATIVE,
                object=name,
                relation=relation,
            )
        ]
        said = _what_they_do(hit) if with_predicate else None
        if said is not None:
            text, kind = said
            who = f"{named}, {name}," if hit.french else f"{named} {name}"
            # The relative is the subject here: "Mickael's daughter Léa" EVENT "starts school in ...".
            predicate = Predicate.EVENT if kind is MemoryType.EVENT else Predicate.STATED
            content = f"{who} {text}"
            subject = who.rstrip(",")
            items.append(
                Item(
                    content,
                    kind,
                    confidence,
                    [relative],
                    [name],
                    predicate=predicate,
                    object=text,
                    subject=subject,
                )
            )
        return items

    return make


_SPEAKER_CLAUSE_EN = regex(r"\s+(?:(?:that|who|whom)\s+)?(?:i|we)\s+(?!and\b).*$")


def _has(hit: Hit) -> Item | None:
    """ "I have two kids", "j'ai un chat": only when it names relatives or pets."""
    relative = FAMILY_WORD.search(hit.phrase)
    if not relative:
        return None
    verb = "a" if hit.french else "has"
    # "3 nephews I adore": who they are, without what the speaker says of them
    phrase = hit.phrase if hit.french else _SPEAKER_CLAUSE_EN.sub("", hit.phrase)
    if hit.match.groupdict().get("got"):  # only the English wording has "got"
        # "I got a puppy last week": the date is the getting's (the event says it), not the having's.
        phrase = _DATED_TAIL.sub("", phrase).strip() or phrase
    content = f"{hit.speaker} {verb} {hit.third(phrase)}"
    confidence = hit.confidence(_CONFIDENCE)
    relation = relative.group(0).casefold()
    return Item(
        content, MemoryType.FACT, confidence, [hit.phrase], predicate=Predicate.HAS, relation=relation
    )


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
    return _news(hit, _relative_of(hit, relative), _CONFIDENCE, [relative], [])


def tells_of_someone_named(text: str) -> bool:
    """Whether a clause may tell what happened to someone it names ("Sam got promoted"): such a
    clause needs no word of the speaker's to be read."""
    return _OTHER_EN.search(text) is not None or _NAMED_JOB_EN.search(text) is not None


def _other_event(hit: Hit) -> Item | None:
    """ "Sam got promoted on Tuesday 24 November 2026": what happens to someone the speaker names,
    told as the speaker's relatives' news is; the note is the speaker's, about that person."""
    said = hit.words("name")
    names = [name for name in re.split(r"\s+(?:and|&)\s+", said) if name]
    if said.casefold() == hit.speaker.casefold() or any(
        name.split()[0].casefold() in NOBODY_EN or name_from_phrase(name, strict=True) != name
        for name in names
    ):
        return None  # "Networking plays a big role": a capitalised word that names no one
    kin = KIN_AS_NAME_EN.get(said.casefold())
    if kin:
        return _news(hit, f"{possessive_en(hit.speaker)} {kin}", _OTHER_CONFIDENCE, [kin], [])
    return _news(hit, said, _OTHER_CONFIDENCE, [], names)


def _expecting(hit: Hit) -> Item:
    """ "Mickael and others are having a baby in March 2027": an event when dated, else a fact."""
    said = hit.whole_clause()
    kind = MemoryType.EVENT if hit.clause.dates else MemoryType.FACT
    return Item(said, kind, hit.confidence(_CONFIDENCE), ["baby"], predicate=Predicate.STATED)


def _is_named(hit: Hit) -> list[Item]:
    """ "my manager is Priya": named as with "is called", unless the word says what they are."""
    if hit.group("name").split()[0].casefold() in _NOT_A_NAME:
        return []
    return _named_relative(strict=True, with_predicate=False)(hit)


def _named_together(hit: Hit) -> Item:
    """ "Nate's turtles are called Bubbles and Squirt"."""
    names = [name for name in _NAMES_APART.split(hit.group("names")) if name]
    relatives = f"{hit.words('rel')}s"
    said = ", ".join(names[:-1]) + f" and {names[-1]}"
    return Item(
        f"{_relative_of(hit, relatives)} are called {said}",
        MemoryType.FACT,
        hit.confidence(_CONFIDENCE),
        [relatives],
        names,
        predicate=Predicate.RELATIVE,
        object=said,
        relation=relatives.casefold(),
    )


def _named_relatives(named: re.Pattern[str], apposition: re.Pattern[str], french: bool) -> OneOf:
    """ "my sister is called Léa", else "my sister Léa ...": the first wording that matches wins."""
    return OneOf(
        (
            Rule(named, _named_relative(strict=False, with_predicate=False), french=french, object_groups=()),
            *(
                (
                    Rule(
                        _GOT_NAMED_FR,
                        _named_relative(strict=True, with_predicate=False),
                        french=True,
                        object_groups=(),
                    ),
                )
                if french
                else (
                    Rule(_NAMED_TOGETHER_EN, _named_together, french=False, object_groups=()),
                    Rule(_GOT_NAMED_TOGETHER_EN, _named_together, french=False, object_groups=()),
                    Rule(_IS_NAMED_EN, _is_named, french=False, object_groups=()),
                    Rule(_NAME_IS_MY_EN, _is_named, french=False, object_groups=()),
                    Rule(
                        _GAVE_NAME_EN,
                        _named_relative(strict=True, with_predicate=False),
                        french=False,
                        object_groups=(),
                    ),
                    Rule(
                        _GOT_NAMED_EN,
                        _named_relative(strict=True, with_predicate=False),
                        french=False,
                        object_groups=(),
                    ),
                )
            ),
            Rule(
                apposition, _named_relative(strict=True, with_predicate=True), french=french, object_groups=()
            ),
        )
    )


# What a relative does: "My wife is a doctor", "ma sœur est infirmière".
_RELATIVE_JOB_EN = regex(
    rf"\b(?:my|our)\s+(?P<rel>{RELATIVES_EN})\s+is\s+(?:now\s+|also\s+)?(?P<art>an?)\s+" + r"(?P<object>.+)"
)
# What someone named does: "Sarah is a designer", "Sam is our new tech writer at Acme".
_NAMED_JOB_EN = regex(
    r"^\W*(?-i:(?P<name>[A-ZÀ-Ý][a-zà-ÿ'-]+(?:\s+[A-ZÀ-Ý][a-zà-ÿ'-]+)?))\s+is\s+(?:now\s+|also\s+)?"
    r"(?P<art>an?|our|my|the)\s+(?P<new>new\s+)?(?P<object>.+)"
)
_RELATIVE_JOB_FR = regex(
    rf"\b(?P<poss>mon|ma|notre)\s+(?P<rel>{RELATIVES_FR})\s+est\s+(?:maintenant\s+|aussi\s+)?(?P<object>[^\W\d_][\w-]*"
    # and of what: "prof de maths", "prof d'anglais", "infirmière en pédiatrie"
    r"(?:\s+(?:de\s+|d'|en\s+)(?!(?:la|le|les|l')\b)[^\W\d_][\w-]*)?)"
)


def _relative_job(hit: Hit) -> Item | None:
    """ "Mickael's wife is a doctor", "La sœur de Mickael est infirmière": a fact of the speaker's family."""
    relative = " ".join(hit.group("rel").split()).lower()
    if hit.french:
        job = hit.phrase
        if not is_occupation_fr(job.split()[0]):
            return None
        possessive = hit.group("poss").lower()
        content = capitalize_first(
            f"{article_fr(possessive, relative)}{relative} {of_fr(hit.speaker)} est {job}"
        )
    else:
        job = noun_phrase(hit.phrase, 6)
        if not job or not is_occupation_en(job):
            return None
        content = f"{possessive_en(hit.speaker)} {relative} is {hit.group('art').lower()} {job}"
    return Item(content, MemoryType.FACT, hit.confidence(_CONFIDENCE), [relative, job])


def _named_job(hit: Hit) -> Item | None:
    """ "Sarah is a designer"; "Sarah is the new designer" for "our new designer" (the speaker's
    team, not the speaker's own)."""
    name = hit.group("name")
    if name.split()[0].casefold() in NOBODY_EN or name.casefold() in KIN_AS_NAME_EN:
        return None
    if _NAME_IS_MY_EN.match(hit.clause.text):
        return None  # "Priya is our new manager": the speaker's manager, named as such above
    job = noun_phrase(hit.phrase, 6)
    if not job or not is_occupation_en(job):
        return None
    article = hit.group("art").lower()
    said = f"{article} {job}" if article in ("a", "an") else f"the {hit.words('new').lower()} {job}"
    content = " ".join(f"{name} is {said}".split())
    # Said of someone else: never a line of the speaker's profile.
    return Item(content, MemoryType.FACT, hit.confidence(_OTHER_CONFIDENCE), [job], [name], subject=name)


# Who or what the speaker leans on: "My friends, family and mentors are my rocks", "my wife is my
# rock", "my journal's pretty much my rock". A question asks who supports them.
_SUPPORT_EN = regex(
    r"^\W*(?:and\s+|but\s+|honestly,?\s+)?(?P<who>(?:my|our)\s+[^.!?;:]{2,60}?)\s*(?P<be>\s+is|\s+are|'s|\s+has\s+(?:always\s+)?been|"
    r"\s+have\s+(?:always\s+)?been)\s+(?:(?:pretty\s+much|really|always|truly|honestly|totally|definitely)\s+)*(?:my|our)\s+"
    r"(?P<what>rocks?|anchors?|support\s+system|biggest\s+supporters?|biggest\s+fans?|backbone|lifeline)\b"
)


def _support(hit: Hit) -> Item | None:
    """ "Ana's friends and family are Ana's rocks (support for Ana)"."""
    be = hit.words("be").lstrip("'")
    plural = be == "are" or be.startswith("have")
    who = capitalize_first(hit.third(hit.group("who").strip(), named=False))
    what = " ".join(hit.group("what").split())
    content = (
        f"{who} {'are' if plural else 'is'} {possessive_en(hit.speaker)} {what} (support for {hit.speaker})"
    )
    return Item(content, MemoryType.FACT, hit.confidence(_CONFIDENCE), [what])


FAMILY = (
    _named_relatives(_NAMED_EN, _APPOSITION_EN, french=False),
    _named_relatives(_NAMED_FR, _APPOSITION_FR, french=True),
    Rule(_LIFE_EVENT_EN, _life_event, french=False, check_object=False),
    Rule(_EXPECTING_EN, _expecting, french=False, object_groups=()),
    Rule(_LIFE_EVENT_FR, _life_event, french=True, check_object=False),
    Rule(_RELATIVE_LIFE_EN, _life_event, french=False, check_object=False),
    Rule(_RELATIVE_LIFE_FR, _life_event, french=True, check_object=False),
    Rule(_OTHER_EN, _other_event, french=False, check_object=False),
    Rule(_RELATIVE_JOB_EN, _relative_job, french=False),
    Rule(_NAMED_JOB_EN, _named_job, french=False),
    Rule(_SUPPORT_EN, _support, french=False, object_groups=()),
    Rule(_RELATIVE_JOB_FR, _relative_job, french=True),
    Rule(_HAVE_EN, _has, french=False, max_words=12, lists=True, check_object=False),
    Rule(_HAVE_FR, _has, french=True, max_words=12, lists=True, check_object=False),
)
