"""The `/memory` command table, its text parser and its executor, shared by every platform."""

from __future__ import annotations

import json
import logging
import math
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Literal

from memory.engine import MemoryEngine
from memory.errors import CommandError
from memory.models import Audience, Memory, MemoryType
from memory.store import MemoryQuery

from .logs import log_context

log = logging.getLogger(__name__)

OptionKind = Literal["text", "choice", "user", "id", "int"]

ROOT_COMMAND = "memory"
SEARCH_LIMIT = 50
_SCAN_BATCH = 500


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


# --- execution -----------------------------------------------------------------------------------


def _page_number(spec: CommandSpec, value: object) -> int:
    number = convert_option(spec, _PAGE, value)
    assert isinstance(number, int)  # an int option always converts to int
    return number


def _date(ts: float) -> str:
    return datetime.fromtimestamp(ts, UTC).strftime("%Y-%m-%d")


def memory_item(memory: Memory, score: float | None = None, replaced: str | None = None) -> dict[str, object]:
    """One memory as a result item; `replaced` is the older note it superseded (undo brings it back)."""
    item: dict[str, object] = {
        "id": memory.id,
        "content": memory.content,
        "type": memory.memory_type.value,
        "date": _date(memory.created_at),
        "visibility": memory.visibility.value,
    }
    if score is not None:
        item["score"] = round(score, 3)
    if replaced is not None:
        item["replaced"] = replaced
    return item


def _newest_first(memories: Iterable[Memory]) -> list[Memory]:
    # The id breaks ties so pages never overlap when several memories share a timestamp.
    return sorted(memories, key=lambda m: (-m.created_at, m.id))


def may_change(invoker: Invoker, memory: Memory) -> bool:
    """Whether the invoker may forget or un-merge a memory they can see: theirs, about them, or
    (admins) anyone's in the conversation they are in."""
    return invoker.is_admin or invoker.user_id in (memory.author_id, memory.user_id)


NOT_FOUND = "No memory {id!r} among the ones you can forget: it does not exist, or it is not yours."
NOT_UNDONE = "No merge to undo for {id!r} among your memories: it replaced no other note, or it is not yours."


class MemoryCommands:
    """Runs `/memory` subcommands for an invoker; results are ephemeral and platform-neutral."""

    def __init__(
        self,
        engine: MemoryEngine,
        agent_id: str,
        page_size: int = 10,
        clock: Callable[[], float] | None = None,
        search_threshold: float = 0.5,
    ) -> None:
        if page_size < 1:
            raise ValueError("page_size must be at least 1")
        self.engine = engine
        self.agent_id = agent_id
        self.page_size = page_size
        self.clock = clock or engine.clock
        self.search_threshold = search_threshold

    def audience(self, invoker: Invoker) -> Audience:
        """What the invoker may see: replies are ephemeral, so their own private memories too.

        Channel-only memories only in their channel, admins included: a workspace admin is not
        a member of every private channel. In a DM, also what the invoker said about themselves
        in the platform's other workspaces.
        """
        return Audience(
            platform=invoker.platform,
            workspace_id=invoker.workspace_id,
            agent_id=self.agent_id,
            viewer_id=invoker.user_id,
            channel_id=invoker.channel_id,
            private_ok=True,
            own_elsewhere=invoker.is_dm,
        )

    async def execute(
        self, name: str, args: Mapping[str, object], invoker: Invoker, page: int = 1
    ) -> CommandResult:
        """Run one subcommand; user mistakes come back as `CommandResult.error`, never raised.

        A `page` inside `args` (as a Discord option arrives) takes precedence over `page`.
        """
        if name == "help":
            return self._help(args)
        spec = _BY_NAME.get(name)
        if spec is None:
            return error_result(CommandError(f"unknown command {name!r}", usage()), name)
        try:
            bound = bind_args(spec, args)
            page = _page_number(spec, bound.pop("page", page))
        except CommandError as exc:
            return error_result(exc, name)
        log.debug(
            "memory command",
            extra={"command": name, "platform": invoker.platform, "workspace_id": invoker.workspace_id},
        )
        audience = self.audience(invoker)
        handler = getattr(self, f"_{name}")
        with log_context(
            platform=invoker.platform, workspace_id=invoker.workspace_id, channel_id=invoker.channel_id
        ):
            result: CommandResult = await handler(bound, invoker, audience, page)
        result.args = bound
        return result

    # --- subcommands ----------------------------------------------------------------------------

    def _help(self, args: Mapping[str, object]) -> CommandResult:
        spec = _BY_NAME.get(str(args.get("command", "")))
        if spec is not None:
            lines = [usage(spec), spec.description]
            lines += [
                f"  {o.name}: {o.description}" + (f" ({', '.join(o.choices)})" if o.choices else "")
                for o in spec.options
            ]
            return CommandResult(command="help", title=f"/{ROOT_COMMAND} {spec.name}", lines=lines)
        return CommandResult(command="help", title=f"/{ROOT_COMMAND} commands", lines=help_lines())

    def _page(
        self,
        name: str,
        args: dict[str, object],
        title: str,
        page: int,
        total: int,
        items: list[dict[str, object]],
        empty: str,
    ) -> CommandResult:
        """A result for one page of `total` items, with the empty or past-the-end note."""
        pages = max(1, math.ceil(total / self.page_size))
        lines: list[str] = []
        if total == 0:
            lines.append(empty)
        elif page > pages:
            count = "is 1 page" if pages == 1 else f"are {pages} pages"
            lines.append(f"Page {page} is past the end: there {count}.")
        return CommandResult(
            command=name,
            title=title,
            lines=lines,
            items=items,
            page=page,
            pages=pages,
            total=total,
            offset=(page - 1) * self.page_size,
            next_command=format_invocation(name, args, page + 1) if page < pages else None,
        )

    async def _list(
        self, args: dict[str, object], invoker: Invoker, audience: Audience, page: int
    ) -> CommandResult:
        kind = args.get("type")
        types = [MemoryType(str(kind))] if kind else None
        now = self.clock()
        total = await self.engine.store.count_memories(audience, now, MemoryQuery(types=types))
        rows = await self.engine.list_memories(
            audience,
            MemoryQuery(types=types, limit=self.page_size, offset=(page - 1) * self.page_size),
        )
        title = f"Your {kind} memories" if kind else "Your memories"
        empty = f"No {kind} memories you can see yet." if kind else "No memories you can see yet."
        return self._page("list", args, title, page, total, await self._items(rows), empty)

    async def _search(
        self, args: dict[str, object], invoker: Invoker, audience: Audience, page: int
    ) -> CommandResult:
        query = str(args["query"])
        hits = await self.engine.search(query, audience, limit=SEARCH_LIMIT, threshold=self.search_threshold)
        start = (page - 1) * self.page_size
        shown = hits[start : start + self.page_size]
        items = await self._items([h.memory for h in shown], [h.score for h in shown])
        return self._page(
            "search", args, f"Search: {query}", page, len(hits), items, f"Nothing found for {query!r}."
        )

    async def _about(
        self, args: dict[str, object], invoker: Invoker, audience: Audience, page: int
    ) -> CommandResult:
        target = str(args["user"])
        # Console users are stored by casefolded name, Discord/Slack by id: try both forms.
        user_ids = list(dict.fromkeys([target, target.casefold()]))
        about = await self._scan(audience, MemoryQuery(user_ids=user_ids))
        tagged = await self._scan(audience, MemoryQuery(subjects=[target.casefold()]))
        rows = _newest_first({m.id: m for m in [*about, *tagged]}.values())
        start = (page - 1) * self.page_size
        items = await self._items(rows[start : start + self.page_size])
        return self._page(
            "about",
            args,
            f"About {target}",
            page,
            len(rows),
            items,
            f"Nothing remembered about {target} that you can see.",
        )

    async def _forget(
        self, args: dict[str, object], invoker: Invoker, audience: Audience, page: int
    ) -> CommandResult:
        memory_id = str(args["id"])
        found = await self.engine.store.visible_memories([memory_id], audience, self.clock())
        allowed = bool(found) and may_change(invoker, found[0])
        # One message for "no such memory" and "not yours", so ids from other scopes reveal nothing.
        forgotten = await self.engine.forget(memory_id, audience) if allowed else None
        if forgotten is None:
            return CommandResult(command="forget", title="Forget", error=NOT_FOUND.format(id=memory_id))
        log.info(
            "memory forgotten by command",
            extra={"memory_id": memory_id, "platform": invoker.platform, "admin": invoker.is_admin},
        )
        return CommandResult(
            command="forget",
            title="Forgotten",
            lines=[f"Forgot memory {memory_id}."],
            items=[memory_item(forgotten)],
            total=1,
        )

    async def _undo(
        self, args: dict[str, object], invoker: Invoker, audience: Audience, page: int
    ) -> CommandResult:
        memory_id = str(args["id"])
        store, now = self.engine.store, self.clock()
        newer = await store.visible_memories([memory_id], audience, now)
        if not newer:
            # The id of the older note itself: the merge is found through the one that replaced it.
            older = await store.get_memory_unscoped(memory_id)
            if older is not None and older.superseded_by is not None:
                newer = await store.visible_memories([older.superseded_by], audience, now)
        allowed = bool(newer) and may_change(invoker, newer[0])
        restored = None
        if allowed:
            try:
                restored = await self.engine.undo_supersede(newer[0].id)
            except KeyError:
                restored = None
        if restored is None:
            return CommandResult(command="undo", title="Undo", error=NOT_UNDONE.format(id=memory_id))
        log.info("merge undone by command", extra={"memory_id": newer[0].id, "platform": invoker.platform})
        return CommandResult(
            command="undo",
            title="Restored",
            lines=[f"Brought back memory {restored.id}; {newer[0].id} stays as well."],
            items=[memory_item(restored)],
            total=1,
        )

    async def _items(
        self, memories: list[Memory], scores: list[float] | None = None
    ) -> list[dict[str, object]]:
        """Result items for these memories, each with the older note it replaced, if any."""
        replaced = await self.engine.store.merged_into([m.id for m in memories])
        return [
            memory_item(m, scores[n] if scores is not None else None, replaced.get(m.id))
            for n, m in enumerate(memories)
        ]

    async def _export(
        self, args: dict[str, object], invoker: Invoker, audience: Audience, page: int
    ) -> CommandResult:
        me = invoker.user_id
        rows = [m for m in await self._scan(audience, MemoryQuery()) if me in (m.user_id, m.author_id)]
        rows = _newest_first(rows)
        payload = json.dumps([m.to_public_dict() for m in rows], ensure_ascii=False, indent=2) + "\n"
        stamp = datetime.fromtimestamp(self.clock(), UTC).strftime("%Y%m%d")
        who = re.sub(r"[^A-Za-z0-9_-]+", "_", me)[:40] or "user"
        filename = f"memories-{invoker.platform}-{who}-{stamp}.json"
        noun = "memory" if len(rows) == 1 else "memories"
        return CommandResult(
            command="export",
            title="Export",
            lines=[f"Exported {len(rows)} {noun} about you or from you."],
            total=len(rows),
            attachment=Attachment(filename, payload.encode("utf-8")),
        )

    async def _stats(
        self, args: dict[str, object], invoker: Invoker, audience: Audience, page: int
    ) -> CommandResult:
        now = self.clock()
        store = self.engine.store
        total = await store.count_memories(audience, now)
        by_type = await store.count_by_type(audience, now)
        about_you = await store.count_memories(audience, now, MemoryQuery(user_ids=[invoker.user_id]))
        ordered = {t.value: by_type.get(t.value, 0) for t in MemoryType if by_type.get(t.value)}
        lines = [f"{total} memor{'y' if total == 1 else 'ies'} you can see, {about_you} about you."]
        lines += [f"{kind}: {count}" for kind, count in ordered.items()]
        return CommandResult(
            command="stats",
            title="Memory stats",
            lines=lines,
            total=total,
            data={"total": total, "by_type": ordered, "about_you": about_you},
        )

    async def _scan(self, audience: Audience, query: MemoryQuery) -> list[Memory]:
        """Every memory matching `query`, read in batches (the store caps one read at `limit`)."""
        rows: list[Memory] = []
        offset = 0
        while True:
            query.limit, query.offset = _SCAN_BATCH, offset
            batch = await self.engine.list_memories(audience, query)
            rows.extend(batch)
            offset += len(batch)
            if len(batch) < _SCAN_BATCH:
                return rows
