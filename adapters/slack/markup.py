"""Slack's message markup read back as the text a person typed: mentions by name, links, entities."""

from __future__ import annotations

import re
from collections.abc import Mapping

__all__ = ["mentioned_users", "plain_text", "unescape"]

# Slack writes every mention, channel link, broadcast, date and URL as `<...>` and escapes the
# characters it reserves (`&`, `<`, `>`) everywhere else, so no sequence holds a `<` or `>` itself.
_SEQUENCE = re.compile(r"<([^<>]*)>")
_USER = re.compile(r"<@([UW][A-Z0-9]+)(?:\|[^<>]*)?>")
_ENTITIES = {"&lt;": "<", "&gt;": ">", "&amp;": "&"}
_ENTITY = re.compile("|".join(_ENTITIES))
# Schemes Slack puts in front of what it links by itself ("example.com", "ann@example.com").
_AUTO_SCHEMES = ("http://", "https://", "mailto:")


def mentioned_users(text: str) -> list[str]:
    """The user ids `text` mentions (`<@U123>`, `<@U123|name>`), each once, in order."""
    return list(dict.fromkeys(_USER.findall(text)))


def unescape(text: str) -> str:
    """`&lt;`, `&gt;` and `&amp;` as the characters typed; Slack's `<...>` sequences stay."""
    return _ENTITY.sub(lambda m: _ENTITIES[m.group()], text)


def plain_text(text: str, names: Mapping[str, str]) -> str:
    """`text` as its author typed it: `<@U123>` becomes `@` and the name `names` gives (else the
    label Slack sent, else the id), `<#C123|general>` `#general`, `<!here>` `@here`, a date its
    fallback, a link its label and address, and `&lt;`, `&gt;`, `&amp;` their characters."""
    return unescape(_SEQUENCE.sub(lambda m: _read(m.group(1), names), text))


def _read(sequence: str, names: Mapping[str, str]) -> str:
    target, _, label = sequence.partition("|")
    if target.startswith("@"):
        return "@" + (names.get(target[1:]) or label.lstrip("@") or target[1:])
    if target.startswith("#"):
        return "#" + (label or target[1:])
    if target.startswith("!"):
        # Broadcasts (`!here`), user groups (`!subteam^S1|@team`) and dates (`!date^…|fallback`).
        name, _, argument = target[1:].partition("^")
        if name in ("here", "channel", "everyone"):
            return "@" + name
        if name == "subteam":
            return "@" + (label.lstrip("@") or argument)
        return label or name
    if not label or label in (target, *(target.removeprefix(s) for s in _AUTO_SCHEMES)):
        # A link Slack made of what was typed: what was typed.
        return label or target.removeprefix("mailto:")
    return f"{label} ({target})"
