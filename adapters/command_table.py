"""The `/memory` command table every platform builds its commands from: subcommands and their
options, the text command parser, who runs a command (`Invoker`), what it produces
(`CommandResult`), and the interface of whatever executes it (`CommandRunner`)."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Literal, Protocol

from memory.errors import CommandError
from memory.models import MemoryType

OptionKind = Literal["text", "choice", "user", "id", "int"]

ROOT_COMMAND = "memory"


@dataclass(frozen=True, slots=True)
class OptionSpec:
    """One option of a subcommand.

    Kinds: `text` takes the rest of the line on text platforms; `choice` one of `choices`;
    `user` a person (mention, `@name` or plain name, normalised to an id or name);
    `id` a memory id; `int` a whole number of at least 1.
    """

    name: str
    kind: OptionKind
    description: str
    required: bool
    choices: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class CommandSpec:
    """One `/memory` subcommand; Discord, Slack and the console are all built from these."""

    name: str
    description: str
    options: tuple[OptionSpec, ...] = ()

    def option(self, name: str) -> OptionSpec | None:
        return next((o for o in self.options if o.name == name), None)


_PAGE = OptionSpec("page", "int", "Page number, 1 for the newest", False)

COMMANDS: tuple[CommandSpec, ...] = (
    CommandSpec(
        "list",
        "List the memories you can see, newest first",
        (
            OptionSpec(
                "type", "choice", "Only memories of this type", False, tuple(t.value for t in MemoryType)
            ),
            _PAGE,
        ),
    ),
    CommandSpec(
        "search",
        "Search the memories you can see by meaning and keywords",
        (OptionSpec("query", "text", "What to look for", True), _PAGE),
    ),
    CommandSpec(
        "about",
        "Memories about a person",
        (OptionSpec("user", "user", "The person: a mention or a name", True), _PAGE),
    ),
    CommandSpec(
        "forget",
        "Delete a memory by its id (yours, or about you)",
        (OptionSpec("id", "id", "The memory id shown by list, search or about", True),),
    ),
    CommandSpec(
        "undo",
        "Undo a merge: bring back the older note a memory replaced",
        (OptionSpec("id", "id", "The id of the memory that replaced it (or of the older note)", True),),
    ),
    CommandSpec("export", "Download the memories about you or from you as a JSON file"),
    CommandSpec("stats", "How many memories there are, by type, and how many are about you"),
)

_BY_NAME: dict[str, CommandSpec] = {c.name: c for c in COMMANDS}


@dataclass(slots=True)
class ParsedCommand:
    """A text command line bound to the table: subcommand name, typed options, page."""

    name: str
    args: dict[str, object] = field(default_factory=dict)
    page: int = 1


@dataclass(frozen=True, slots=True)
class Invoker:
    """Who runs a command and where; commands see what this person may see there."""

    platform: str
    workspace_id: str
    channel_id: str
    user_id: str
    is_dm: bool = False
    is_admin: bool = False


@dataclass(frozen=True, slots=True)
class Attachment:
    filename: str
    data: bytes
    content_type: str = "application/json"


@dataclass(slots=True)
class CommandResult:
    """What a command produced, for any renderer: a title, text lines, memory items, paging.

    `items` are memories as dicts with `id`, `content`, `type`, `date` (UTC, YYYY-MM-DD) and
    `visibility` (search adds `score`); `offset` is how many items precede this page, so
    numbering continues across pages. `next_command` is the text command for the next page.
    """

    command: str
    title: str
    lines: list[str] = field(default_factory=list)
    items: list[dict[str, object]] = field(default_factory=list)
    page: int = 1
    pages: int = 1
    total: int = 0
    offset: int = 0
    attachment: Attachment | None = None
    error: str | None = None
    ephemeral: bool = True
    next_command: str | None = None
    args: dict[str, object] = field(default_factory=dict)
    data: dict[str, object] = field(default_factory=dict)


# --- the table as text ---------------------------------------------------------------------------


def command_spec(name: str) -> CommandSpec | None:
    return _BY_NAME.get(name)


def usage(spec: CommandSpec | None = None) -> str:
    """`/memory list [type] [page]` for one subcommand, or the list of subcommands."""
    if spec is None:
        return f"/{ROOT_COMMAND} {'|'.join(c.name for c in COMMANDS)}|help"
    parts = [f"/{ROOT_COMMAND}", spec.name]
    for opt in spec.options:
        parts.append(f"<{opt.name}>" if opt.required else f"[{opt.name}]")
    return " ".join(parts)


def help_lines() -> list[str]:
    """One line per subcommand, plus the choices of choice options."""
    lines: list[str] = []
    for spec in COMMANDS:
        lines.append(f"{usage(spec)} — {spec.description}")
        for opt in spec.options:
            if opt.choices:
                lines.append(f"    {opt.name}: {', '.join(opt.choices)}")
    return lines


def format_invocation(name: str, args: Mapping[str, object], page: int = 1) -> str:
    """The text command that runs `name` with `args` at `page` (e.g. for a "next page" hint)."""
    spec = _BY_NAME[name]
    parts = [f"/{ROOT_COMMAND}", name]
    after_text = False
    for opt in spec.options:
        value = page if opt.name == "page" else args.get(opt.name)
        if value is None or (opt.name == "page" and value == 1):
            continue
        text = str(value)
        if opt.kind == "user" and any(c.isspace() for c in text):
            text = f'"{text}"'
        # After a rest-of-line option, later options need their name or they join the text.
        parts.append(f"{opt.name}:{text}" if after_text else text)
        after_text = after_text or opt.kind == "text"
    return " ".join(parts)


# --- parsing -------------------------------------------------------------------------------------

# A mention stays one token even with a display name inside; quotes group words.
_TOKEN = re.compile(r"<@[^>]*>|\"[^\"]*\"|“[^”]*”|\S+")
_KEYED = re.compile(r"^([a-z_]+):(\S.*)$")
# Slack <@U123> / <@U123|name>, Discord <@123> / <@!123>.
_USER_MENTION = re.compile(r"^<@!?([A-Za-z0-9]+)(?:\|[^>]*)?>$")
_MEMORY_ID = re.compile(r"^[A-Za-z0-9_-]{1,64}$")
_PREFIX = re.compile(rf"^/?{ROOT_COMMAND}(?:\s+|$)", re.IGNORECASE)


def _unquote(token: str) -> str:
    if len(token) >= 2 and token[0] + token[-1] in ('""', "“”"):
        return token[1:-1].strip()
    return token


def convert_option(spec: CommandSpec, opt: OptionSpec, raw: object) -> object:
    """Check and normalise one option value (a text token or a value a platform already typed)."""
    where = usage(spec)
    if opt.kind == "int":
        if isinstance(raw, bool):
            raise CommandError(f"{opt.name} must be a whole number", where)
        try:
            number = int(raw) if isinstance(raw, int) else int(str(raw).strip())
        except ValueError:
            raise CommandError(f"{opt.name} must be a whole number, not {str(raw)!r}", where) from None
        if number < 1:
            raise CommandError(f"{opt.name} must be 1 or more", where)
        return number
    text = _unquote(str(raw).strip())
    if not text:
        raise CommandError(f"{opt.name} is empty", where)
    if opt.kind == "choice":
        wanted = text.casefold()
        for choice in opt.choices:
            # A plural ("preferences") is what people type as often as the singular.
            if wanted in (choice, choice + "s"):
                return choice
        raise CommandError(f"{opt.name} must be one of: {', '.join(opt.choices)} (not {text!r})", where)
    if opt.kind == "user":
        mention = _USER_MENTION.match(text)
        if mention:
            return mention.group(1)
        if text.startswith("<"):
            raise CommandError(f"{opt.name} must be a person (a mention or a name), not {text!r}", where)
        name = text.lstrip("@").strip()
        if not name:
            raise CommandError(f"{opt.name} is empty", where)
        return name
    if opt.kind == "id":
        memory_id = text.strip("`")
        if not _MEMORY_ID.match(memory_id):
            raise CommandError(f"{memory_id!r} is not a memory id", where)
        return memory_id
    return text


def _accepts(spec: CommandSpec, opt: OptionSpec, token: str) -> bool:
    try:
        convert_option(spec, opt, token)
    except CommandError:
        return False
    return True


def parse_command(text: str) -> ParsedCommand:
    """Parse what follows `/memory` on a text platform; raises `CommandError` with a usage line.

    Options are positional in table order or written `name:value`. A text option takes
    the rest of the line; an optional option is skipped when the word fits the next one
    instead (`list 2` is page 2). `""` and `help` give the help command.
    """
    line = _PREFIX.sub("", text.strip(), count=1).strip()
    if not line:
        return ParsedCommand("help")
    head, *tail = line.split(maxsplit=1)
    rest = tail[0] if tail else ""
    name = head.casefold()
    if name in ("help", "?"):
        topic = rest.strip().casefold()
        return ParsedCommand("help", {"command": topic} if topic in _BY_NAME else {})
    spec = _BY_NAME.get(name)
    if spec is None:
        raise CommandError(f"unknown command {head!r}", usage())
    tokens = _TOKEN.findall(rest)
    values: dict[str, object] = {}
    positional: list[str] = []
    for token in tokens:
        keyed = _KEYED.match(token)
        opt = spec.option(keyed.group(1)) if keyed else None
        if keyed and opt is not None:
            values[opt.name] = convert_option(spec, opt, keyed.group(2))
        else:
            positional.append(token)
    remaining = [o for o in spec.options if o.name not in values]
    i = 0
    for k, opt in enumerate(remaining):
        if i >= len(positional):
            break
        if opt.kind == "text":
            values[opt.name] = convert_option(spec, opt, " ".join(positional[i:]))
            i = len(positional)
            break
        token = positional[i]
        if not opt.required and not _accepts(spec, opt, token):
            if any(_accepts(spec, later, token) for later in remaining[k + 1 :]):
                continue
        values[opt.name] = convert_option(spec, opt, token)
        i += 1
    if i < len(positional):
        raise CommandError(f"too many arguments: {' '.join(positional[i:])!r}", usage(spec))
    for opt in spec.options:
        if opt.required and opt.name not in values:
            raise CommandError(f"missing {opt.name}", usage(spec))
    page = values.pop("page", 1)
    return ParsedCommand(spec.name, values, page if isinstance(page, int) else 1)


def bind_args(spec: CommandSpec, args: Mapping[str, object]) -> dict[str, object]:
    """Check option values a platform passed as a mapping (Discord app commands) against the table."""
    bound: dict[str, object] = {}
    for key, value in args.items():
        opt = spec.option(key)
        if opt is None:
            raise CommandError(f"unknown option {key!r}", usage(spec))
        if value is not None:
            bound[key] = convert_option(spec, opt, value)
    for opt in spec.options:
        if opt.required and opt.name not in bound:
            raise CommandError(f"missing {opt.name}", usage(spec))
    return bound


def error_result(exc: CommandError, command: str = "") -> CommandResult:
    """A parse or option error as a result, so every renderer shows it the same way."""
    return CommandResult(
        command=command, title="Memory command", lines=[f"usage: {exc.usage}"], error=exc.message
    )


def page_number(spec: CommandSpec, value: object) -> int:
    """The page an option value asks for (1 or more); raises CommandError otherwise."""
    number = convert_option(spec, _PAGE, value)
    assert isinstance(number, int)  # an int option always converts to int
    return number


class CommandRunner(Protocol):
    """Executes subcommands of the table for an invoker (the bot's `MemoryCommands`)."""

    async def execute(
        self, name: str, args: Mapping[str, object], invoker: Invoker, page: int = 1
    ) -> CommandResult: ...
