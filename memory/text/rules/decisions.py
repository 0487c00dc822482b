"""Rules for decisions: "we decided to ...", "let's go with ...", "Decision: ...", "on part sur ..."."""

from __future__ import annotations

import re
from collections.abc import Callable

from memory.models import MemoryType

from ..facts import Predicate
from ..lexicons import VOWELS
from ..normalize import regex
from ..rewrite import capitalize_first
from .base import OBJECT, Hit, Item, OneOf, Rule

__all__ = ["DECISIONS", "settles_decision"]

_CONFIDENCE = 0.8
_PROPOSAL_CONFIDENCE = 0.7  # "let's use X" may still be discussed

_DECIDED_EN = regex(
    r"\b(?P<who>we|i|(?:the|our)\s+team|everyone|everybody|we\s+all)(?:'ve|\s+have|'d|\s+had|\s+just|\s+finally|\s+all|\s+now|\s+officially|\s+eventually)*\s+"
    r"(?P<verb>decided|agreed|settled|chose|picked|opted|voted)\s+(?P<that>that\s+)?" + OBJECT
)
_LETS_USE_EN = regex(
    r"\b(?:let's|let\s+us|we'll|we\s+will|we're\s+going\s+to|we\s+are\s+going\s+to)\s+(?P<not>not\s+)?"
    r"(?P<verb>go\s+with|use|pick|choose|stick\s+with|switch\s+to|adopt|move\s+to|migrate\s+to|go\s+for)\s+"
    + OBJECT
)
# What the team stops doing: "we're not going to support IE11 anymore", "we no longer ship on Fridays",
# "we won't use Redis".
_NO_LONGER_EN = regex(
    r"\bwe(?:'re\s+not\s+going\s+to|\s+are\s+not\s+going\s+to|\s+won't|\s+will\s+not|'ll\s+no\s+longer|"
    r"\s+will\s+no\s+longer|\s+no\s+longer|'re\s+no\s+longer|\s+are\s+no\s+longer|(?:'re|\s+are)\s+not(?!\s+running\b)|"
    # "we don't do standups anymore": a practice stopped, not "we don't use Jira" (how it has been)
    r"(?:\s+don't|\s+do\s+not)(?=.*\bany\s*more\b))\s+"
    # "we won't be hiring until March", "we're not hiring until March"
    r"(?:be\s+)?(?P<verb>hir(?:e|ing)|support(?:ing)?|use|using|ship(?:ping)?|maintain(?:ing)?|offer(?:ing)?|allow(?:ing)?|accept(?:ing)?|"
    r"run(?:ning)?|host(?:ing)?|deploy(?:ing)?|do(?:ing)?(?=\s+(?:standups?|meetings?|releases?|deploys?)\b))\b\s*"
    + OBJECT
)
# An idea or a tool the team let go: "we dropped the Kafka idea", "we scrapped the rewrite".
_DROPPED_EN = regex(
    r"\b(?P<who>we|(?:the|our)\s+team)(?:'ve|\s+have|\s+just|\s+finally|\s+officially)*\s+"
    r"(?P<verb>dropped|scrapped|ditched|abandoned|shelved|cancell?ed|deprecated|sunsetted)\s+"
    r"(?!(?:the\s+ball|it|that|this|them|everything)\b)" + OBJECT
)
# A rule for what comes: "going forward, all PRs need a ticket", "from now on standup is at 9:30".
_FROM_NOW_ON_EN = regex(
    r"^\W*(?P<when>(?:(?:going|moving)\s+forward|effective\s+(?:immediately|today|now))(?=\s*[,:-])|from\s+now\s+on"
    # ... from a day said: "starting next week, no more meetings on Wednesdays" (the day a placeholder),
    # a rule after it (not the speaker's own plan, "starting Monday, I'm on nights", nor "can't wait")
    r"|(?:starting|beginning|as\s+of|effective)\s+(?:on\s+|in\s+)?(?:\x00\d+\x00|\x01\d+\x01)"
    r"(?=\s*[,:-]\s*(?!(?:i|i'm|i've|i'll|my|me)\b)[^.!?]*?\b(?:no|not|only|all|every\w*|must|need|needs|will|"
    r"is|are|go|goes|use|uses|move|moves|stop|stops|start|starts|happen|happens)\b))"
    r"\s*[,:-]?\s+(?P<object>\S.*)"
)
# The same said last, after "let's": "let's do code reviews in the morning from now on".
_LETS_FROM_NOW_ON_EN = regex(
    r"^\W*(?P<object>let's\s+\S.*?)\s*,?\s+(?P<when>from\s+now\s+on|(?:going|moving)\s+forward)\W*$"
)
_LETS_EN = regex(r"^let's\s+")
# The decision said first, then who took it: "no more meetings on Fridays, the team decided".
_DECIDED_AFTER_EN = regex(
    r"^\W*(?P<object>\S.{2,}?)\s*[,;:-]\s*(?P<who>we|(?:the|our)\s+team|everyone)(?:\s+all|\s+just|\s+finally)*\s+"
    r"(?P<verb>decided|agreed|voted)\W*$"
)
# "we're switching from Jira to Linear", "we're migrating to Postgres" (not "moving to", said of homes)
_GOING_WITH_EN = regex(
    r"\bwe(?:'re|\s+are)\s+(?P<verb>going\s+with|sticking\s+with|(?P<switch>switching|migrating)\s+"
    r"(?:from\s+(?P<from>[\w.+#-]+(?:\s+[\w.+#-]+){0,2}?)\s+)?to)\s+" + OBJECT
)
_DECISION_LABEL_EN = regex(
    r"\b(?:(?:final|our|the)\s+)?decision\s*(?::|-|is\s+(?=to\b|that\b)|was\s+(?=to\b|that\b))\s*"
    + OBJECT
    + r"|\b(?:it's|it\s+is)\s+decided\s*[:,-]\s*(?P<decided>.+)"
)
_DECIDED_FR = regex(
    r"\b(?P<who>on|nous|j')\s*(?P<aux>a|avons|ai|avait|avions|avais)\s+(?:finalement\s+|enfin\s+|donc\s+|"
    r"tous\s+|officiellement\s+)*(?P<verb>décidé|choisi|convenu|opté|tranché|voté)\s+" + OBJECT
)
_ON_PART_SUR_FR = regex(
    r"\b(?P<verb>on\s+part\s+sur|on\s+va\s+(?:utiliser|partir\s+sur|prendre)|on\s+utilisera|on\s+prend|"
    r"on\s+garde|on\s+choisit|partons\s+sur|allons-y\s+avec)\s+" + OBJECT
)
_INFINITIVE_FR = {
    "on part sur": "partir sur", "on va utiliser": "utiliser", "on va partir sur": "partir sur",
    "on va prendre": "prendre", "on utilisera": "utiliser", "on prend": "prendre", "on garde": "garder",
    "on choisit": "choisir", "partons sur": "partir sur", "allons-y avec": "partir sur",
}  # fmt: skip
_DECISION_LABEL_FR = regex(
    r"\b(?:c'est\s+décidé|(?:la\s+)?décision(?:\s+finale)?(?:\s+est\s+prise)?)\s*[:,-]\s*" + OBJECT
)
# "we decided up front", "I chose you": no choice named.
_NOT_DECIDED_EN = frozenset("up you it that this them".split())
_INFINITIVE_EN = {
    "going with": "go with", "sticking with": "stick with", "switching": "switch", "migrating": "migrate",
}  # fmt: skip


def _decision(hit: Hit, content: str, base: float, decided: str, who: str) -> Item:
    confidence = hit.confidence(base)
    return Item(
        content,
        MemoryType.DECISION,
        confidence,
        [hit.phrase],
        predicate=Predicate.DECIDED,
        object=decided,
        subject=who,
    )


# What a family or a couple decides, not a team: "we picked a name for the baby", "we decided to sell
# the house".
_HOUSEHOLD_EN = regex(
    r"\b(?:baby|wedding|honeymoon|house|flat|apartment|kids?|son|daughter|puppy|kitten|dog|cat|marriage|"
    r"engagement|in-laws|mortgage|trip|holiday|vacation)\b"
)


def _we(hit: Hit) -> str:
    """Who "we" are with the speaker: "the team", or "others" when the choice is a household's."""
    said = " ".join(hit.group("who").lower().split())
    household = said in ("we", "we all") and _HOUSEHOLD_EN.search(hit.phrase)
    return f"{hit.speaker} and {'others' if household else 'the team'}"


def _decided_en(hit: Hit) -> Item:
    who = hit.speaker if hit.group("who").lower() == "i" else _we(hit)
    decided = hit.third(hit.phrase)
    that = "that " if hit.group("that") else ""  # "we agreed that reviews need two approvals"
    content = f"{who} {hit.group('verb').lower()} {that}{decided}"
    return _decision(hit, content, _CONFIDENCE, decided, who)


# "Let's go with Postgres then", "on part sur Redis alors": the "then" says the talk is settled.
_SETTLED_TAIL = regex(r"\s+(?:then|alors|donc|du\s+coup)\W*$")


def _lets_use_en(hit: Hit) -> Item:
    verb = hit.words("verb").lower()
    verb = _INFINITIVE_EN.get(verb, verb)
    switch = hit.match.groupdict().get("switch")
    if switch:
        # "switching from Jira to" -> "switch from Jira to"
        away = f" from {hit.third(hit.words('from'))}" if hit.group("from") else ""
        verb = f"{_INFINITIVE_EN[switch.lower()]}{away} to"
    no = "not " if hit.match.groupdict().get("not") else ""  # "let's not use Redis"
    decided = f"{no}to {verb} {hit.third(_SETTLED_TAIL.sub('', hit.phrase))}"
    who = f"{hit.speaker} and the team"
    return _decision(hit, f"{who} decided {decided}", _PROPOSAL_CONFIDENCE, decided, who)


def _no_longer_en(hit: Hit) -> Item:
    """ "Mickael and the team decided to no longer support IE11"."""
    verb = hit.words("verb").lower()
    verb = _NO_LONGER_VERBS_EN.get(verb, verb)
    said = hit.clause.text[hit.match.start() :].lower()
    # "we won't use Mongo" was never used; "we no longer ship", "not ... anymore" stop something done.
    stops = "no longer" in said or _NO_LONGER_TAIL.search(hit.phrase) is not None
    what = hit.third(_NO_LONGER_TAIL.sub("", hit.phrase))
    decided = f"{'to no longer' if stops else 'not to'} {verb} {what}"
    who = f"{hit.speaker} and the team"
    return _decision(hit, f"{who} decided {decided}", _PROPOSAL_CONFIDENCE, decided, who)


# The verb as it follows "to": "supporting" -> "support", "shipping" -> "ship".
_NO_LONGER_VERBS_EN = {
    "supporting": "support", "using": "use", "shipping": "ship", "maintaining": "maintain",
    "offering": "offer", "allowing": "allow", "accepting": "accept", "running": "run", "hosting": "host",
    "deploying": "deploy", "hiring": "hire", "doing": "do",
}  # fmt: skip
_NO_LONGER_TAIL = regex(r"\s+(?:any\s*more|from\s+now\s+on|going\s+forward)\W*$")


def _dropped_en(hit: Hit) -> Item:
    """ "Mickael and the team dropped the Kafka idea"."""
    decided = f"{hit.words('verb').lower()} {hit.third(hit.phrase)}"
    who = _we(hit)
    return _decision(hit, f"{who} {decided}", _CONFIDENCE, decided, who)


def _from_now_on_en(hit: Hit) -> Item:
    """ "From now on, all PRs need a ticket number", the speaker's words in the third person."""
    when = capitalize_first(hit.words("when").lower())
    who = f"{hit.speaker} and the team"
    lets = _LETS_EN.match(hit.phrase)
    # "let's keep PRs small" is the team's own rule: "Going forward, Mickael and the team keep PRs small".
    said = f"{who} {hit.phrase[lets.end() :]}" if lets else hit.phrase
    decided = hit.third(said, named=False)
    return _decision(hit, f"{when}, {decided}", _CONFIDENCE, decided, who)


def _decided_after_en(hit: Hit) -> Item:
    """ "Mickael and the team decided: no more meetings on Fridays"."""
    who = f"{hit.speaker} and the team"
    decided = hit.third(hit.phrase, named=False)
    return _decision(hit, f"{who} {hit.words('verb').lower()}: {decided}", _CONFIDENCE, decided, who)


# The first person in a labelled decision: "Decision: we're using Terraform" names the speaker's team.
_FIRST_PERSON_EN = regex(r"\b(?:i|we|my|our|me|us)\b|\b(?:i|we)['’]")


def _labelled(label: str) -> Callable[[Hit], Item]:
    """ "Decision: X" kept as said (it names no one, so nothing is rewritten)."""

    def make(hit: Hit) -> Item:
        decided = hit.phrase if hit.french else re.sub(r"(?i)^(?:to|that)\s+", "", hit.phrase)
        if not hit.french and _FIRST_PERSON_EN.search(decided):
            decided = hit.third(decided, named=False)
        confidence = hit.confidence(_CONFIDENCE)
        return Item(
            f"{label} {decided}",
            MemoryType.DECISION,
            confidence,
            [decided],
            predicate=Predicate.DECIDED,
            object=decided,
        )

    return make


def _decided_fr(hit: Hit) -> Item:
    alone = hit.group("who").lower() == "j'"
    who, verb = (hit.speaker, "a") if alone else (f"{hit.speaker} et l'équipe", "ont")
    decided = hit.third(hit.phrase)
    content = f"{who} {verb} {hit.group('verb').lower()} {decided}"
    return _decision(hit, content, _CONFIDENCE, decided, who)


def _on_part_sur_fr(hit: Hit) -> Item:
    infinitive = _INFINITIVE_FR.get(hit.words("verb").lower(), "utiliser")
    de = "d'" if infinitive[0] in VOWELS else "de "
    decided = f"{de}{infinitive} {hit.third(_SETTLED_TAIL.sub('', hit.phrase))}"
    who = f"{hit.speaker} et l'équipe"
    return _decision(hit, f"{who} ont décidé {decided}", _PROPOSAL_CONFIDENCE, decided, who)


DECISIONS = (
    Rule(_DECIDED_EN, _decided_en, french=False, not_objects=_NOT_DECIDED_EN),
    OneOf(
        (
            Rule(_LETS_USE_EN, _lets_use_en, french=False),
            Rule(_GOING_WITH_EN, _lets_use_en, french=False),
            Rule(_NO_LONGER_EN, _no_longer_en, french=False),
        )
    ),
    Rule(_DROPPED_EN, _dropped_en, french=False),
    # What follows is a whole clause, not an object phrase.
    Rule(_FROM_NOW_ON_EN, _from_now_on_en, french=False, check_object=False),
    Rule(_LETS_FROM_NOW_ON_EN, _from_now_on_en, french=False, check_object=False),
    Rule(_DECIDED_AFTER_EN, _decided_after_en, french=False, check_object=False),
    # A labelled decision stands even inside a hypothetical: the label says it was taken.
    Rule(
        _DECISION_LABEL_EN,
        _labelled("Decision:"),
        french=False,
        guard=None,
        object_groups=("object", "decided"),
    ),
    Rule(_DECIDED_FR, _decided_fr, french=True),
    Rule(_ON_PART_SUR_FR, _on_part_sur_fr, french=True),
    Rule(_DECISION_LABEL_FR, _labelled("Décision :"), french=True, guard=None),
)

_SETTLED = (_DECIDED_EN, _DECIDED_FR, _DECISION_LABEL_EN, _DECISION_LABEL_FR)


def settles_decision(text: str) -> bool:
    """Whether `text` says a decision was taken ("we decided to ...", "c'est décidé :"), not proposed."""
    return any(pattern.search(text) for pattern in _SETTLED)
