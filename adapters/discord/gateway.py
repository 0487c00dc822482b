"""Gateway events discord.py cannot parse cost that one event, never the connection."""

from __future__ import annotations

import logging
from collections.abc import Callable, MutableMapping
from typing import Any

from adapters.discord.cogs import PLATFORM

log = logging.getLogger(__name__)

Parser = Callable[[Any], None]


def guard_parsers(parsers: MutableMapping[str, Parser]) -> None:
    """Wrap each of discord.py's event parsers (`ConnectionState.parsers`, which the gateway calls
    with every DISPATCH's data) so that a payload of the wrong shape is dropped with one log line.

    Unwrapped, a parser's KeyError or ValueError (a message without an author, an id that is not a
    number) escapes `Client.connect` and ends the client, and with it every conversation.
    """
    for event, parser in list(parsers.items()):
        if not isinstance(parser, _Guarded):
            parsers[event] = _Guarded(event, parser)


class _Guarded:
    """One parser that logs and drops what it cannot parse."""

    def __init__(self, event: str, parser: Parser) -> None:
        self.event = event
        self.parser = parser

    def __call__(self, data: Any) -> None:
        try:
            self.parser(data)
        except Exception as exc:
            # The payload holds message text: only its event name and the error's type are logged.
            log.warning(
                "discord event dropped: payload not as documented",
                extra={"platform": PLATFORM, "event": self.event, "error": type(exc).__name__},
            )
            log.debug("discord event parse failure", extra={"event": self.event}, exc_info=exc)
