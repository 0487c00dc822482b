"""The console adapter: a terminal chat on the same pipeline, one message per line of stdin."""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Awaitable, Callable
from typing import TextIO

from .base import IncomingMessage

CONSOLE_PLATFORM = "console"
CONSOLE_WORKSPACE = "local"
CONSOLE_CHANNEL = "terminal"

Handler = Callable[[list[IncomingMessage]], Awaitable[str | None]]
# Runs a `/memory ...` line for the user at the terminal and returns the text to print.
CommandRunner = Callable[[str], Awaitable[str]]
COMMAND_PREFIX = "/memory"


def console_message(text: str, user: str) -> IncomingMessage:
    """A terminal line as an incoming message; the console is one local shared channel."""
    return IncomingMessage(
        platform=CONSOLE_PLATFORM,
        workspace_id=CONSOLE_WORKSPACE,
        channel_id=CONSOLE_CHANNEL,
        author_id=user.casefold(),
        author_name=user,
        text=text,
        mentions_bot=True,
    )


def is_command(text: str) -> bool:
    """A `/memory` command line (not a message that merely starts with the word)."""
    head = text.strip().split(maxsplit=1)[0] if text.strip() else ""
    return head.casefold() == COMMAND_PREFIX


async def run_console(
    handle: Handler,
    user: str,
    stdin: TextIO = sys.stdin,
    stdout: TextIO = sys.stdout,
    commands: CommandRunner | None = None,
) -> int:
    """Read lines until EOF (or /quit), answer each; returns how many messages were handled.

    With `commands`, lines starting with `/memory` run the shared command table instead of
    going to the bot (they are not stored as conversation).
    """
    interactive = stdin.isatty()
    loop = asyncio.get_running_loop()
    handled = 0
    if interactive:
        hint = ", /memory help for your memories" if commands is not None else ""
        stdout.write(f"memorybot chat as {user}. Type a message{hint}, /quit to leave.\n")
    while True:
        if interactive:
            stdout.write("you> ")
            stdout.flush()
        # readline blocks, so it runs in a thread and the loop stays free for background work.
        line = await loop.run_in_executor(None, stdin.readline)
        if not line:
            break
        text = line.rstrip("\r\n")
        if text.strip() in ("/quit", "/exit"):
            break
        if not text.strip():
            continue
        if commands is not None and is_command(text):
            stdout.write(await commands(text) + "\n")
            stdout.flush()
            continue
        reply = await handle([console_message(text, user)])
        handled += 1
        if reply:
            stdout.write(("bot> " if interactive else "") + reply + "\n")
            stdout.flush()
    return handled
