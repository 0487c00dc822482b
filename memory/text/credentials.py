"""Finds credentials in a text (a password, a key or token, a card or social security number), masks them."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from .normalize import regex

__all__ = ["REDACTED", "credential_in", "credential_values", "without_credentials"]

# What stands where a credential was in a stored turn: the words around it stay readable.
REDACTED = "[redacted]"
_SHORTEST_REPEATED = 4

# A password or code given with its value: "my password is hunter2", "the wifi password: coffee123",
# "mon mot de passe c'est soleil42". Not what is said of one ("my password is too long").
_SAID_SECRET = regex(
    r"\b(?P<what>password|passwd|passcode|pass\s*phrase|pin(?:\s+code)?|security\s+code|cvv|mot\s+de\s+passe|mdp|"
    r"code\s+pin|code\s+secret|api[\s_-]*key|secret(?:\s+key)?|access\s+(?:key|token)|(?:auth\s+|bearer\s+)?token|"
    r"private\s+key|clé\s+(?:d'api|api|privée|secrète))\s*(?:is|=|:|est|c'est|was)\s*(?P<quote>[\"'`]?)"
    r"(?P<value>[^\s\"'`,;]+)"
)
_NOT_A_VALUE = frozenset(
    """
    too a an the my your our not wrong incorrect expired same weak strong long short required changed reset
    different case-sensitive case stored saved in on at for still now also just really very so missing
    empty blank invalid valid correct fine ok okay set there here gone lost new old
    trop le la les un une mon ma mes pas faux expiré changé perdu oublié nouveau même
    """.split()
)
# Words that name a value only when it looks like one: "the secret is out", "the pin is up in
# #general" and "the token is to ask first" say no secret; "the secret is Xk9#p" does.
_NAMES_ANY_WORD = regex(r"password|passwd|passcode|pass\s*phrase|mot\s+de\s+passe|mdp")
_LOOKS_SECRET = re.compile(r"\d|[^\w\s]|[a-z][A-Z]|^.{12,}$")
# Shapes of keys and tokens services issue, whatever words go with them; a private key block is
# masked whole, to its end line (or the text's end, when it was cut).
_KEY_SHAPES = re.compile(
    r"\b(?:sk-[A-Za-z0-9_-]{16,}|sk-ant-[A-Za-z0-9_-]{16,}|gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,}|"
    r"xox[abposr]-[A-Za-z0-9-]{10,}|AKIA[0-9A-Z]{16}|AIza[0-9A-Za-z_-]{35}|glpat-[A-Za-z0-9_-]{20,})"
    r"|-----BEGIN (?:[A-Z]+ )?PRIVATE KEY-----(?:.*?-----END (?:[A-Z]+ )?PRIVATE KEY-----|.*\Z)",
    re.DOTALL,
)
# A card number: 13 to 19 digits, maybe grouped by spaces or dashes; checked with Luhn's sum.
_CARD = re.compile(r"(?<![\d-])\d(?:[ -]?\d){12,18}(?![\d-])")
# A US social security number with what names it.
_SSN = regex(r"\b(?:ssn|social\s+security(?:\s+number)?)\b\D{0,20}(?P<value>\d{3}-?\d{2}-?\d{4})\b")


@dataclass(frozen=True, slots=True)
class _Found:
    start: int
    end: int
    kind: str


def credential_in(text: str) -> str | None:
    """What kind of credential `text` holds ("a password", "a key or token", "a card number", "a
    social security number"), or None: such things are never kept as memories."""
    found = _credentials(text)
    return found[0].kind if found else None


def credential_values(text: str) -> list[str]:
    """The credentials' values in `text`, as typed: what a reply to it must not repeat either."""
    return list(dict.fromkeys(text[f.start : f.end] for f in _credentials(text)))


def without_credentials(text: str, also: Iterable[str] = ()) -> str:
    """`text` with each credential's value replaced by `REDACTED`; what names it stays ("my password
    is [redacted]"), so a stored turn still says what happened without keeping the secret. `also`:
    values found elsewhere (the message a reply answers) masked wherever they stand alone here;
    one shorter than four characters is left, since it would mask common words."""
    spans = [(f.start, f.end) for f in _credentials(text)]
    for value in also:
        if len(value) >= _SHORTEST_REPEATED and value != REDACTED:
            pattern = rf"(?<![\w-]){re.escape(value)}(?![\w-])"
            spans += [m.span() for m in re.finditer(pattern, text)]
    spans.sort()
    if not spans:
        return text
    parts: list[str] = []
    at = 0
    for start, end in spans:
        if end <= at:  # inside one masked already ("my api key is sk-…" is found twice)
            continue
        parts.append(text[at : max(start, at)])
        parts.append(REDACTED)
        at = end
    parts.append(text[at:])
    return "".join(parts)


def _credentials(text: str) -> list[_Found]:
    """Every credential in `text`, the values said with their names first (that order gives a
    sentence its kind: "my api key is sk-…" is a key)."""
    found: list[_Found] = []
    for said in _SAID_SECRET.finditer(text):
        value = said.group("value")
        bare = value.rstrip(".!?")
        if not bare or bare.lower() in _NOT_A_VALUE:
            continue
        what = said.group("what").lower()
        if not (_NAMES_ANY_WORD.fullmatch(what) or said.group("quote") or _LOOKS_SECRET.search(bare)):
            continue
        kind = "a key or token" if re.search(r"key|token|clé|secret", what) else "a password"
        found.append(_Found(said.start("value"), said.start("value") + len(bare), kind))
    found += [_Found(*m.span(), "a key or token") for m in _KEY_SHAPES.finditer(text)]
    found += [
        _Found(*m.span(), "a card number")
        for m in _CARD.finditer(text)
        if _luhn_valid(re.sub(r"\D", "", m.group(0)))
    ]
    found += [_Found(*m.span("value"), "a social security number") for m in _SSN.finditer(text)]
    return found


def _luhn_valid(digits: str) -> bool:
    total = 0
    for n, ch in enumerate(reversed(digits)):
        d = int(ch)
        if n % 2 == 1:
            d = d * 2 - 9 if d > 4 else d * 2
        total += d
    return total % 10 == 0
