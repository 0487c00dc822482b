"""Tells whether a text holds a credential: a password, a key or token, a card or social security number."""

from __future__ import annotations

import re

from .normalize import regex

__all__ = ["credential_in"]

# A password or code given with its value: "my password is hunter2", "the wifi password: coffee123",
# "mon mot de passe c'est soleil42". Not what is said of one ("my password is too long").
_SAID_SECRET = regex(
    r"\b(?P<what>password|passwd|passcode|pass\s*phrase|pin(?:\s+code)?|security\s+code|cvv|mot\s+de\s+passe|mdp|"
    r"code\s+pin|code\s+secret|api[\s_-]*key|secret(?:\s+key)?|access\s+(?:key|token)|(?:auth\s+|bearer\s+)?token|"
    r"private\s+key|clé\s+(?:d'api|api|privée|secrète))\s*(?:is|=|:|est|c'est|was)\s*[\"'`]?(?P<value>[^\s\"'`,;]+)"
)
_NOT_A_VALUE = frozenset(
    """
    too a an the my your our not wrong incorrect expired same weak strong long short required changed reset
    different case-sensitive case stored saved in on at for still now also just really very so missing
    empty blank invalid valid correct fine ok okay set there here gone lost new old
    trop le la les un une mon ma mes pas faux expiré changé perdu oublié nouveau même
    """.split()
)
# Shapes of keys and tokens services issue, whatever words go with them.
_KEY_SHAPES = re.compile(
    r"\b(?:sk-[A-Za-z0-9_-]{16,}|sk-ant-[A-Za-z0-9_-]{16,}|gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,}|"
    r"xox[abposr]-[A-Za-z0-9-]{10,}|AKIA[0-9A-Z]{16}|AIza[0-9A-Za-z_-]{35}|glpat-[A-Za-z0-9_-]{20,})"
    r"|-----BEGIN (?:[A-Z]+ )?PRIVATE KEY-----"
)
# A card number: 13 to 19 digits, maybe grouped by spaces or dashes; checked with Luhn's sum.
_CARD = re.compile(r"(?<![\d-])\d(?:[ -]?\d){12,18}(?![\d-])")
# A US social security number with what names it.
_SSN = regex(r"\b(?:ssn|social\s+security(?:\s+number)?)\b\D{0,20}\d{3}-?\d{2}-?\d{4}\b")


def credential_in(text: str) -> str | None:
    """What kind of credential `text` holds ("a password", "a key or token", "a card number", "a
    social security number"), or None: such things are never kept as memories."""
    for said in _SAID_SECRET.finditer(text):
        if said.group("value").lower().strip(".!?") not in _NOT_A_VALUE:
            what = said.group("what").lower()
            return "a key or token" if re.search(r"key|token|clé|secret", what) else "a password"
    if _KEY_SHAPES.search(text):
        return "a key or token"
    if any(_luhn_valid(re.sub(r"\D", "", found.group(0))) for found in _CARD.finditer(text)):
        return "a card number"
    if _SSN.search(text):
        return "a social security number"
    return None


def _luhn_valid(digits: str) -> bool:
    total = 0
    for n, ch in enumerate(reversed(digits)):
        d = int(ch)
        if n % 2 == 1:
            d = d * 2 - 9 if d > 4 else d * 2
        total += d
    return total % 10 == 0
