"""The reply's words about the user turned into the user's own: "you prefer tea" -> "I prefer tea"."""

from __future__ import annotations

import re

from .lexicons import VOWELS
from .normalize import regex as _rx

__all__ = ["as_user_words", "second_to_first"]


_LEADIN = _rx(
    r"^\W*(?:(?:got\s+it|noted|understood|okay|ok|alright|sure|great|perfect|thanks|thank\s+you|d'accord|"
    r"entendu|compris|c'est\s+noté|noté|bien\s+reçu|parfait|ça\s+marche|super|merci)\b\W*)*"
    r"(?:(?:i'll|i\s+will)\s+(?:remember|keep\s+in\s+mind|note|make\s+a\s+note)\s+(?:that\s+)?|"
    r"i've\s+noted\s+(?:that\s+)?|i\s+(?:see|understand)\s+(?:that\s+)?|so\s+|"
    r"(?:je\s+retiens|je\s+note|je\s+garde\s+en\s+tête|je\s+comprends|je\s+vois)\s*(?:que\s+|qu')?|donc\s+)?"
)
# The reply speaking of itself cannot be turned into the user's words.
_SELF = _rx(
    r"\b(?:i|i'm|i'll|i've|i'd|me|my|mine|myself|we|we're|we'll|we've|us|our|je|moi|mon|ma|mes|nous|notre|nos)"
    r"(?![\w'])|\b[jm]'"
)
_YOU_EN = _rx(r"\b(?:you're|you've|you'll|you'd|you\s+are|you\s+were|yourself|yours|your|you)(?![\w'])")
_YOU_EN_MAP = {
    "you're": "I'm", "you've": "I've", "you'll": "I'll", "you'd": "I'd", "you are": "I am",
    "you were": "I was", "yourself": "myself", "yours": "mine", "your": "my",
}  # fmt: skip
_SUBJECT_BEFORE = _rx(
    r"(?:^|[,;:.!(—–-]|\b(?:that|and|but|so|if|when|because|since|as|now|then|also|once|while|until|unless|"
    r"where|noted|ok|okay))\s*$"
)
_TU_FR = _rx(
    r"\btu\s+(?P<neg>ne\s+|n')?(?P<obj>(?:te\s+|t'|le\s+|la\s+|les\s+|l'|lui\s+|leur\s+|y\s+|en\s+)*)"
    r"(?P<v>[^\W\d_][\w-]*)"
)
_TU_IRREGULAR = {"es": "suis", "as": "ai", "vas": "vais"}
_VOUS_FR = {
    "vous avez": "j'ai", "vous êtes": "je suis", "vous allez": "je vais", "vous devez": "je dois",
    "vous préférez": "je préfère", "vous aimez": "j'aime", "vous adorez": "j'adore",
    "vous détestez": "je déteste", "vous n'aimez pas": "je n'aime pas",
}  # fmt: skip
_VOUS_RX = _rx(r"\b(?:" + "|".join(re.escape(k).replace(r"\ ", r"\s+") for k in _VOUS_FR) + r")\b")
_POSS_FR = _rx(r"\b(?P<p>ton|ta|tes|toi|votre|vos)\b(?:\s+(?P<noun>[^\W\d_][\w-]*))?")
_FEMININE = ("ion", "té", "ée", "ure", "ette", "ance", "ence", "ie", "ade")
_MASCULINE_E = ("age", "isme", "ème", "ome", "aire", "ège", "ste")


def _feminine(noun: str) -> bool:
    low = noun.lower()
    return low.endswith(_FEMININE) or (low.endswith("e") and not low.endswith(_MASCULINE_E))


def second_to_first(text: str) -> str:
    """The reply's "you"/"tu" turned into the user's "I"/"je", so the extractor reads it as theirs."""

    def en(m: re.Match[str]) -> str:
        word = " ".join(m.group(0).lower().split())
        if word in _YOU_EN_MAP:
            return _YOU_EN_MAP[word]
        return "I" if _SUBJECT_BEFORE.search(text[: m.start()]) else "me"

    def tu(m: re.Match[str]) -> str:
        verb = m.group("v")
        low = verb.lower()
        first = _TU_IRREGULAR.get(low) or (verb[:-1] if low.endswith("es") and len(low) > 3 else verb)
        obj = re.sub(r"(?i)\bt'", "m'", re.sub(r"(?i)\bte\b", "me", m.group("obj") or ""))
        neg = m.group("neg") or ""
        if neg.lower() == "n'" and (obj or first[:1].lower() not in VOWELS + "h"):
            neg = "ne "
        if not neg and not obj and first[:1].lower() in VOWELS + "h":
            return f"j'{first}"
        return f"je {neg}{obj}{first}"

    def poss(m: re.Match[str]) -> str:
        p, noun = m.group("p").lower(), m.group("noun")
        if p == "toi":
            mine = "moi"
        elif p in ("tes", "vos"):
            mine = "mes"
        elif p == "ta":
            mine = "ma"
        elif p == "votre" and noun and noun[:1].lower() not in VOWELS and _feminine(noun):
            mine = "ma"
        else:
            mine = "mon"
        return f"{mine} {noun}" if noun else mine

    text = _YOU_EN.sub(en, text)
    text = _VOUS_RX.sub(lambda m: _VOUS_FR[" ".join(m.group(0).lower().split())], text)
    text = _TU_FR.sub(tu, text)
    return _POSS_FR.sub(poss, text)


def as_user_words(sentence: str) -> str | None:
    """A reply sentence restating the user, in the user's first person; None when the reply speaks of
    itself (that cannot become the user's words) or says nothing past its lead-in."""
    body = _LEADIN.sub("", sentence, count=1)
    if not body or _SELF.search(body):
        return None
    return second_to_first(body)
