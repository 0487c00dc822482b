"""Rules for deadlines and dated to-dos: "the report is due Friday", "I must ... by Monday"."""

from __future__ import annotations

import re
from collections.abc import Callable

from memory.models import MemoryType

from ..dates import DATE_SLOT, bare_slot
from ..dropped_subject import PREGNANCY
from ..facts import Predicate
from ..normalize import regex
from ..phrases import TO_THE_LISTENER, trim_phrase
from ..sentences import strip_filler
from .base import Hit, Item, OneOf, Rule, asserted_in_clause

__all__ = ["DEADLINES", "OBLIGATION"]

_CONFIDENCE = 0.75
_TODO_CONFIDENCE = 0.7  # a dated obligation, with no "deadline" said
_MAX_THING_WORDS = 8
_ARTICLE = re.compile(r"(?i)(?:the|a|an|this|that|le|la|les|l'|ce|cette)\b")

_DEADLINE_EN: list[re.Pattern[str]] = [
    regex(
        rf"\bdeadline\s+(?:for|of|on)\s+(?P<thing>[^,\x00]{{1,80}}?)\s*(?:is|was|will\s+be|:|=|-|,)?\s*"
        rf"(?:on\s+|by\s+|set\s+for\s+)?{DATE_SLOT}"
    ),
    regex(
        rf"\b(?P<thing>(?:the|our|my|this|that)\s+[^,\x00]{{1,60}}?)(?:'s)?\s+deadline\s+(?:is|was|will\s+be|:)\s*"
        rf"(?:on\s+|by\s+)?{DATE_SLOT}"
    ),
    regex(
        rf"\bdeadline\s*(?:is|was|will\s+be|:|=|-)?\s*(?:on\s+|by\s+|set\s+for\s+)?{DATE_SLOT}"
        r"(?:\s+for\s+(?P<thing>[^,\x00]{1,80}))?"
    ),
    regex(
        rf"\b(?:(?P<thing>[^,\x00]{{1,80}}?)\s+(?:is\s+|are\s+|was\s+|'s\s+|will\s+be\s+)?)?due\s+"
        # "due EOD Friday", "due by COB tomorrow": the end of the day said before the day
        rf"(?:on\s+|by\s+|before\s+|for\s+)?(?:(?:eod|cob|eow|end\s+of\s+(?:the\s+)?(?:day|business))\s+(?:on\s+)?)?"
        rf"(?:the\s+)?{DATE_SLOT}"
    ),
]
_DEADLINE_FR: list[re.Pattern[str]] = [
    regex(
        rf"\b(?:la\s+)?date\s+limite\s+(?P<prep>pour|de|du|des|d')\s*(?P<thing>[^,\x00]{{1,80}}?)\s*"
        rf"(?:est|sera|:|,|=)?\s*(?:fixée\s+)?(?:le\s+|au\s+|pour\s+)?{DATE_SLOT}"
    ),
    regex(
        rf"\b(?:la\s+)?(?P<word>date\s+limite|échéance|deadline)\s*(?:est|sera|:|,|=)?\s*(?:fixée\s+)?"
        rf"(?:le\s+|au\s+|pour\s+)?{DATE_SLOT}"
    ),
    regex(
        rf"\b(?P<thing>[^,\x00]{{1,80}}?)\s+(?:est|sont)\s+(?:à\s+rendre|dûe?s?|dus|prévue?s?\s+pour)\s+"
        rf"(?:pour\s+|avant\s+|le\s+)?(?:le\s+)?{DATE_SLOT}"
    ),
    regex(
        rf"\b(?P<thing>[^,\x00]{{1,80}}?)\s+(?:doit|doivent)\s+être\s+(?:rendue?s?|livrée?s?|fini[es]*|"
        rf"terminée?s?|envoyée?s?)\s+(?:pour\s+|avant\s+|le\s+|d'ici\s+)?(?:le\s+)?{DATE_SLOT}"
    ),
]
_DUE = regex(
    rf"\b(?:by|before|no\s+later\s+than|not\s+later\s+than|pour|avant|d'ici|au\s+plus\s+tard)\s+"
    # "by EOD Friday": the end of the day said before the day
    r"(?:(?:eod|cob|eow|end\s+of\s+(?:the\s+)?(?:day|business))\s+(?:on\s+)?)?"
    rf"(?:the\s+|le\s+|la\s+)?{DATE_SLOT}|\b(?:todo|to-do|to\s+do\s*:|à\s+faire)\b"
)
OBLIGATION = regex(
    r"\b(?:i|we)\s+(?:really\s+|still\s+|also\s+)?(?:need\s+to|have\s+to|must|gotta|got\s+to|'ve\s+got\s+to|"
    r"have\s+got\s+to|am\s+supposed\s+to|'m\s+supposed\s+to|are\s+supposed\s+to|promised\s+to)\b|"
    r"\b(?:je\s+dois|on\s+doit|nous\s+devons|il\s+faut|faut\s+que|je\s+vais\s+devoir|il\s+me\s+faut)\b|"
    # A request opens its clause or follows a polite lead-in: in "these remind me of home" the
    # figurines evoke something, nobody asked to be reminded.
    r"(?:^|[.!?,;:]\s*|\b(?:please|pls|plz|can\s+you|could\s+you|would\s+you|will\s+you|and|also|just|ok|"
    r"okay|so|bot|hey)\s+)remind\s+me\b|\brappel(?:le|ez)-moi\b"
)
# What the speaker says they will do on a day: "I'll send the report tomorrow", "je vais finir les
# slides lundi" is a dated to-do as much as "I have to send it". The verb is followed by what is
# done: not a place ("I'm going to the dentist"), not "it", not chat ("I'll see you").
COMMITMENT = regex(
    r"\b(?:i(?:'ll|\s+will|'m\s+going\s+to|\s+am\s+going\s+to|'m\s+gonna|\s+shall)|we(?:'ll|\s+will)|"
    r"je\s+vais|on\s+va|nous\s+allons)\s+(?:(?:also|definitely|probably|finally|then|just|really|surely|"
    r"totally|aussi|enfin|sûrement|sans\s+doute)\s+)?"
    r"(?P<verb>[a-zà-ÿ'-]+)\s+(?P<object>[^\x00,;]*)"
)
_NOT_A_COMMITMENT_VERB = frozenset(
    """
    be see talk chat tell let ask try go come get sleep stay keep think check look wait miss love like hate
    need want have hang head catch
    être voir parler dire demander essayer aller venir dormir rester penser regarder attendre faire avoir
    the a an my our his her their this that some to le la les l' un une des mon ma mes y en lui leur me te
    chez à au aux dans vers sur
    always never remember forget toujours jamais not no maybe perhaps ne pas peut-être
    """.split()
)
# A job begun is no task that ends on its day: "I'm gonna start at Stripe on Monday" is the news
# "I'm starting at Stripe on Monday" is (rules/events.py), not a to-do gone once Monday is.
_A_NEW_JOB = regex(
    r"^(?:(?:at|with)\s+(?-i:[A-ZÀ-Ý])|(?:my|a|the)\s+(?:new\s+)?(?:job|role|position|internship|residency)\b)"
)
_JOB_STARTS = frozenset({"start", "begin", "join"})
_NOT_WHAT_IS_DONE = regex(
    r"^(?:it|this|that|them|him|her|there|here|back|home|up|out|in|on|off|ça|cela|"
    r"the\s+(?:same|rest)|some|something|anything|nothing|more|a\s+(?:bit|lot|look|try|break))\b"
)
# Who is due with a baby, or the baby: "I'm due in June", "our baby is due in March", "my wife is
# due in March", "she's due next month" (a person is due with a baby, a report with its work).
_A_BIRTH_DUE = regex(
    r"^(?:i|i'm|i\s+am|we|we're|we\s+are|(?:the|our|my)\s+(?:baby|babies|twins|little\s+one|daughter|son)|"
    r"(?:my|our)\s+(?:first|second|third)\s+(?:baby|child)|baby|she|she's|she\s+is|"
    r"my\s+(?:wife|partner|girlfriend|fianc[ée]e|(?:big\s+|little\s+|older\s+|younger\s+)?sister|sister-in-law|"
    r"daughter-in-law|(?:best\s+)?friend|cousin|niece|coworker|colleague|co-worker|teammate|manager|boss))$"
)
# A "thing" holding a subject or a verb is a sentence, not the name of what is due.
_NOT_A_THING = regex(
    r"\b(?:i|we|you|have|has|need|needs|must|which|that|je|j'|tu|nous|dois|doit|faut|qui|que)\b|^(?:it|this|that|ça|"
    r"ce|c')$"
)


def _deadline(hit: Hit) -> Item:
    """ "Deadline for <thing>: <date>" / "Date limite pour <thing> : <date>", or the whole clause
    when what is due is not a plain noun phrase."""
    confidence = hit.confidence(_CONFIDENCE)
    thing = strip_filler(trim_phrase(hit.match.groupdict().get("thing"))).strip()
    if _A_BIRTH_DUE.match(thing) or (not thing and PREGNANCY.search(hit.clause.text[: hit.match.start()])):
        # "our baby is due in March", "I'm due in June": a birth to come, not a task's deadline.
        return Item(
            hit.whole_clause(), MemoryType.EVENT, confidence, [hit.clause.text], predicate=Predicate.EVENT
        )
    if thing and (_NOT_A_THING.search(thing) or len(thing.split()) > _MAX_THING_WORDS):
        return Item(
            hit.whole_clause(), MemoryType.TODO, confidence, [hit.clause.text], predicate=Predicate.TODO
        )
    date = bare_slot(hit.group("n"))
    label = "Date limite" if hit.french else "Deadline"
    if hit.french and hit.match.groupdict().get("word") and hit.group("word").lower() == "échéance":
        label = "Échéance"
    if not thing:
        content = f"{label}{' :' if hit.french else ':'} {date}"
        return Item(content, MemoryType.TODO, confidence, [], predicate=Predicate.DEADLINE, object=date)
    if _ARTICLE.match(thing):
        thing = thing[:1].lower() + thing[1:]  # it now reads mid-sentence
    body = hit.third(thing, named=False)
    if hit.french:
        preposition = (hit.match.groupdict().get("prep") or "pour").lower()
        glue = "" if preposition.endswith("'") else " "
        content = f"Date limite {preposition}{glue}{body} : {date}"
    else:
        content = f"Deadline for {body}: {date}"
    # What is due is the object; when it is due is the memory's event_at.
    return Item(content, MemoryType.TODO, confidence, [thing], predicate=Predicate.DEADLINE, object=body)


# Thanks for a day are no task due then: "Merci à tous pour samedi", "thanks for Saturday".
_THANKS = regex(r"^\W*(?:merci|thanks|thank\s+you|thx|ty)\b")


# A task asked of the others: "please review my PR by EOD", "pls merge it by tonight".
_ASKED_OF_OTHERS_EN = regex(r"^\W*(?:please|pls|plz|kindly)\s+(?=[a-z])")
# ... or with "please" said last: "send it by COB tomorrow please" (not "I'll send it, please hold").
_ASKED_LAST_EN = regex(r"[\s,]+(?:please|pls|plz)\W*$")
_SAID_OF_ONESELF_EN = regex(r"^\W*(?:i|i'm|i'll|i've|we|we're|we'll|my|our)\b")


# Going or coming "pour Noël" is when one goes, not what is due by then: "je vais chez mes parents
# pour Noël", "ma mère vient nous voir pour Noël" (the dated event rule keeps them).
_GOING_FR = regex(
    r"\b(?:vais|va|vont|allons|allez|viens|vient|viennent|venons|pars|part|partons|partent|rentre|"
    r"rentrons|rentrent)\b"
)


def _dated_todo(hit: Hit) -> Item | None:
    """A dated obligation or "by <date>": the whole clause, as a to-do; a task asked of the others
    as asked ("Mickael asked someone to review their PR by ...")."""
    if _THANKS.match(hit.clause.text):
        return None
    if hit.french and hit.match.group(0).lower().startswith("pour") and _GOING_FR.search(hit.clause.text):
        return None
    confidence = hit.confidence(_TODO_CONFIDENCE)
    asked = None if hit.french else _ASKED_OF_OTHERS_EN.match(hit.clause.text)
    asked_last = None if hit.french else _ASKED_LAST_EN.search(hit.clause.text)
    if asked is None and asked_last is not None and not _SAID_OF_ONESELF_EN.match(hit.clause.text):
        task = hit.third(hit.clause.text[: asked_last.start()].strip(), named=True)
        task = task[:1].lower() + task[1:]
        content = f"{hit.speaker} asked someone to {task}"
        return Item(content, MemoryType.TODO, confidence, [hit.clause.text], predicate=Predicate.TODO)
    if asked is not None:
        task = hit.third(hit.clause.text[asked.end() :], named=True)
        content = f"{hit.speaker} asked someone to {task}"
        return Item(content, MemoryType.TODO, confidence, [hit.clause.text], predicate=Predicate.TODO)
    content = hit.whole_clause()
    if hit.french:
        # "Rappelle-moi le rendez-vous demain" in the third person is no imperative ("Rappelle-Léa
        # ..."): it is a reminder, said as the other reminders are.
        content = re.sub(
            rf"^(?:.*?\s)?rappel(?:le|ez)-{re.escape(hit.speaker)}\s+",
            f"Rappel pour {hit.speaker} : ",
            content,
            count=1,
            flags=re.IGNORECASE,
        )
    return Item(content, MemoryType.TODO, confidence, [hit.clause.text], predicate=Predicate.TODO)


def _committed(hit: Hit) -> Item | None:
    """ "Mickael will send the report on Saturday 28 November 2026": a dated to-do, unless it is chat
    ("I'll see you tomorrow"), speaks to the listener, or names nothing done."""
    verb = hit.group("verb").lower()
    done = hit.group("object").strip()
    if verb in _NOT_A_COMMITMENT_VERB or TO_THE_LISTENER.search(hit.clause.text) or hit.clause.past:
        return None  # chat, to the listener, or "I'll always remember our trip last year"
    if not done or _NOT_WHAT_IS_DONE.match(done) or not any(ch.isalpha() for ch in done):
        return None
    if verb in _JOB_STARTS and _A_NEW_JOB.match(done):
        return None
    if hit.group("verb")[:1].isupper() and not hit.french:
        return None  # "I'm going to Paris for a conference next week": a trip (rules/events.py), no to-do
    return _dated_todo(hit)


def _dated(pattern: re.Pattern[str], make: Callable[[Hit], Item | None], french: bool | None) -> Rule:
    """A rule for clauses that hold a date, read whole: asserted throughout, no object phrase."""
    return Rule(pattern, make, french=french, guard=asserted_in_clause, needs_date=True, object_groups=())


# English wordings first, then French, then any dated obligation; the first that matches wins.
DEADLINES = OneOf(
    (
        *(_dated(pattern, _deadline, False) for pattern in _DEADLINE_EN),
        *(_dated(pattern, _deadline, True) for pattern in _DEADLINE_FR),
        _dated(_DUE, _dated_todo, None),
        _dated(OBLIGATION, _dated_todo, None),
        _dated(COMMITMENT, _committed, None),
    )
)
