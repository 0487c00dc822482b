"""The `/memory` executor: runs the subcommands of the command table against the memory engine."""

from __future__ import annotations

import json
import logging
import math
import re
from collections.abc import Callable, Iterable, Mapping
from datetime import UTC, datetime

from adapters.command_table import (
    ROOT_COMMAND,
    Attachment,
    CommandResult,
    Invoker,
    bind_args,
    command_spec,
    error_result,
    format_invocation,
    help_lines,
    page_number,
    usage,
)
from memory.engine import MemoryEngine
from memory.errors import CommandError
from memory.models import Audience, Memory, MemoryType
from memory.storage import MemoryQuery

from .logs import log_context

log = logging.getLogger(__name__)

SEARCH_LIMIT = 50
_SCAN_BATCH = 500


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
    # Stable: memories of one instant stay in the order the storage listed them (by arrival, the
    # latest first), and pages are slices of this one list, so they never overlap.
    return sorted(memories, key=lambda m: -m.created_at)


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
        spec = command_spec(name)
        if spec is None:
            return error_result(CommandError(f"unknown command {name!r}", usage()), name)
        try:
            bound = bind_args(spec, args)
            page = page_number(spec, bound.pop("page", page))
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
        spec = command_spec(str(args.get("command", "")))
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
        total = await self.engine.count_memories(audience, MemoryQuery(types=types))
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
        found = await self.engine.visible_memory(memory_id, audience)
        allowed = found is not None and may_change(invoker, found)
        # One message for "no such memory" and "not yours", so ids from other scopes reveal nothing.
        forgotten = await self.engine.forget(memory_id, audience) if allowed else None
        if forgotten is None:
            return CommandResult(command="forget", title="Forget", error=NOT_FOUND.format(id=memory_id))
        log.info(
            "memory forgotten by command",
            extra={"memory_id": memory_id, "platform": invoker.platform, "admin": invoker.is_admin},
        )
        return _changed("forget", "Forgotten", f"Forgot memory {memory_id}.", forgotten)

    async def _undo(
        self, args: dict[str, object], invoker: Invoker, audience: Audience, page: int
    ) -> CommandResult:
        memory_id = str(args["id"])
        newer = await self.engine.merge_of(memory_id, audience)
        restored = None
        if newer is not None and may_change(invoker, newer):
            try:
                restored = await self.engine.undo_supersede(newer.id)
            except KeyError:
                restored = None
        if restored is None:
            return CommandResult(command="undo", title="Undo", error=NOT_UNDONE.format(id=memory_id))
        assert newer is not None  # restored only through it
        log.info("merge undone by command", extra={"memory_id": newer.id, "platform": invoker.platform})
        return _changed(
            "undo", "Restored", f"Brought back memory {restored.id}; {newer.id} stays as well.", restored
        )

    async def _items(
        self, memories: list[Memory], scores: list[float] | None = None
    ) -> list[dict[str, object]]:
        """Result items for these memories, each with the older note it replaced, if any."""
        replaced = await self.engine.merged_into([m.id for m in memories])
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
        total = await self.engine.count_memories(audience)
        by_type = await self.engine.count_by_type(audience)
        about_you = await self.engine.count_memories(audience, MemoryQuery(user_ids=[invoker.user_id]))
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


def _changed(command: str, title: str, line: str, memory: Memory) -> CommandResult:
    """The result of a command that changed one memory: what it did, and that memory."""
    return CommandResult(command=command, title=title, lines=[line], items=[memory_item(memory)], total=1)
