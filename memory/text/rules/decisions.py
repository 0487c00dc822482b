"""Rules for decisions: "we decided to ...", "let's go with ...", "Decision: ...", "on part sur ..."."""

from __future__ import annotations

import re
from collections.abc import Callable

from memory.models import MemoryType

from ..facts import Predicate
from ..lexicons import VOWELS
from ..normalize import regex
from .base import OBJECT, Hit, Item, OneOf, Rule

__all__ = ["DECISIONS", "settles_decision"]

_CONFIDENCE = 0.8
_PROPOSAL_CONFIDENCE = 0.7  # "let's use X" may still be discussed

_DECIDED_EN = regex(
    r"\b(?P<who>we|i|(?:the|our)\s+team|everyone|everybody|we\s+all)(?:'ve|\s+have|'d|\s+had|\s+just|\s+finally|\s+all|\s+now|\s+officially|\s+eventually)*\s+"
    r"(?P<verb>decided|agreed|settled|chose|picked|opted|voted)\s+(?P<that>that\s+)?" + OBJECT
)
_LETS_USE_EN = regex(
    r"\b(?:let's|let\s+us|we'll|we\s+will|we're\s+going\s+to|we\s+are\s+going\s+to)\s+"
    r"(?P<verb>go\s+with|use|pick|choose|stick\s+with|switch\s+to|adopt|move\s+to|migrate\s+to|go\s+for)\s+"
    + OBJECT
)
_GOING_WITH_EN = regex(
    r"\bwe(?:'re|\s+are)\s+(?P<verb>going\s+with|sticking\s+with|switching\s+to)\s+" + OBJECT
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
_INFINITIVE_EN = {"going with": "go with", "sticking with": "stick with", "switching to": "switch to"}


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


def _decided_en(hit: Hit) -> Item:
    who = hit.speaker if hit.group("who").lower() == "i" else f"{hit.speaker} and the team"
    decided = hit.third(hit.phrase)
    that = "that " if hit.group("that") else ""  # "we agreed that reviews need two approvals"
    content = f"{who} {hit.group('verb').lower()} {that}{decided}"
    return _decision(hit, content, _CONFIDENCE, decided, who)


# "Let's go with Postgres then", "on part sur Redis alors": the "then" says the talk is settled.
_SETTLED_TAIL = regex(r"\s+(?:then|alors|donc|du\s+coup)\W*$")


def _lets_use_en(hit: Hit) -> Item:
    verb = hit.words("verb").lower()
    verb = _INFINITIVE_EN.get(verb, verb)
    decided = f"to {verb} {hit.third(_SETTLED_TAIL.sub('', hit.phrase))}"
    who = f"{hit.speaker} and the team"
    return _decision(hit, f"{who} decided {decided}", _PROPOSAL_CONFIDENCE, decided, who)


def _labelled(label: str) -> Callable[[Hit], Item]:
    """ "Decision: X" kept as said (it names no one, so nothing is rewritten)."""

    def make(hit: Hit) -> Item:
        decided = hit.phrase if hit.french else re.sub(r"(?i)^(?:to|that)\s+", "", hit.phrase)
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
        )
    ),
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
