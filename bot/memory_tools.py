"""The model's memory tools: `remember`, `search_memories`, `get_recent_memories`, checked and executed."""

from __future__ import annotations

import json
import logging
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, tzinfo
from typing import Any

from memory.engine import MemoryEngine, WriteResult
from memory.errors import InvalidInput, ToolArgumentError, TTLArgumentError, TTLError
from memory.models import Audience, Memory, MemoryDraft, MemoryType, Scope, Source, Visibility
from memory.storage import MemoryQuery
from memory.ttl import is_permanent, parse_duration

from .llm.types import ToolCall, ToolSpec

log = logging.getLogger(__name__)

MAX_CONTENT_CHARS = 2_000
MAX_SUBJECTS = 12
MAX_SUBJECT_CHARS = 64
MAX_QUERY_CHARS = 1_000
SEARCH_LIMIT = 20
RECENT_LIMIT = 50
MAX_RESULT_CHARS = 8_000  # a tool result that big only wastes the model's context
MAX_LOGGED_RESULT = 2_000  # what the transcript keeps of each result, and of each argument string
MAX_LOGGED_ITEMS = 20  # what it keeps of each list or object among the arguments
MAX_LOGGED_DEPTH = 4

_TYPES = [t.value for t in MemoryType]

REMEMBER = ToolSpec(
    name="remember",
    description=(
        "Store a durable fact worth knowing in later conversations: who someone is, what they prefer, "
        "what happened to them, what was decided, a deadline. One self-contained sentence in the third "
        'person naming the person ("Mickael is allergic to peanuts"). Do not store small talk.'
    ),
    parameters={
        "type": "object",
        "properties": {
            "content": {"type": "string", "description": "the fact, one self-contained sentence"},
            "subjects": {
                "type": "array",
                "items": {"type": "string"},
                "description": 'short lowercase tags: people, places, topics (e.g. ["mickael", "injury"])',
            },
            "ttl": {
                "type": "string",
                "description": (
                    'how long it stays true, e.g. "6h", "3 days", "1 week", "2 weeks", "1 month"; '
                    'omit it (or "permanent") if it stays true'
                ),
            },
            "type": {"type": "string", "enum": _TYPES, "description": "kind of memory (default fact)"},
            "about": {"type": "string", "description": "name of the person it is about, if not the speaker"},
        },
        "required": ["content"],
    },
)

SEARCH_MEMORIES = ToolSpec(
    name="search_memories",
    description="Search long-term memory for notes related to a query (people, topics, past events).",
    parameters={
        "type": "object",
        "properties": {
            "query": {"type": "string", "description": "what to look for"},
            "limit": {"type": "integer", "minimum": 1, "maximum": SEARCH_LIMIT},
        },
        "required": ["query"],
    },
)

GET_RECENT_MEMORIES = ToolSpec(
    name="get_recent_memories",
    description="The most recently stored memories visible in this conversation, newest first.",
    parameters={
        "type": "object",
        "properties": {"limit": {"type": "integer", "minimum": 1, "maximum": RECENT_LIMIT}},
    },
)

MEMORY_TOOLS: tuple[ToolSpec, ...] = (REMEMBER, SEARCH_MEMORIES, GET_RECENT_MEMORIES)


@dataclass(frozen=True, slots=True)
class MemoryRequest:
    """A validated request to remember something, from a tool call or a JSON reply."""

    content: str
    subjects: list[str] = field(default_factory=list)
    ttl: str | None = None
    memory_type: MemoryType = MemoryType.FACT


def parse_memory_request(args: Mapping[str, Any]) -> MemoryRequest:
    """Check `remember` arguments; raises ToolArgumentError saying exactly what is wrong."""
    content = args.get("content")
    if not isinstance(content, str) or not content.strip():
        raise ToolArgumentError("`content` must be a non-empty string")
    content = " ".join(content.split())
    if len(content) > MAX_CONTENT_CHARS:
        raise ToolArgumentError(
            f"`content` is too long ({len(content)} characters, at most {MAX_CONTENT_CHARS})"
        )
    subjects_raw = args.get("subjects") or []
    if isinstance(subjects_raw, str):
        subjects_raw = subjects_raw.split(",")
    if not isinstance(subjects_raw, list) or not all(isinstance(s, str) for s in subjects_raw):
        raise ToolArgumentError("`subjects` must be a list of strings")
    subjects = [s.strip()[:MAX_SUBJECT_CHARS] for s in subjects_raw if s.strip()][:MAX_SUBJECTS]
    ttl = args.get("ttl")
    if ttl is not None and not isinstance(ttl, str):
        raise TTLArgumentError('`ttl` must be a duration string such as "3 days", "1 week" or "1 month"')
    ttl = None if is_permanent(ttl) else " ".join(ttl.split())  # type: ignore[union-attr]
    if ttl:
        try:
            parse_duration(ttl)
        except TTLError as exc:
            raise TTLArgumentError(f"`ttl`: {exc}") from None
    kind = args.get("type", args.get("memory_type"))
    if kind is None or kind == "":
        memory_type = MemoryType.FACT
    else:
        try:
            memory_type = MemoryType(str(kind).strip().lower())
        except ValueError:
            raise ToolArgumentError(f"`type` must be one of {', '.join(_TYPES)}, got {kind!r}") from None
    return MemoryRequest(content, subjects, ttl or None, memory_type)


def _int_arg(args: Mapping[str, Any], name: str, default: int, maximum: int) -> int:
    value = args.get(name, default)
    if value is None:
        return default
    if isinstance(value, bool) or not isinstance(value, int | float | str):
        raise ToolArgumentError(f"`{name}` must be an integer between 1 and {maximum}")
    try:
        number = int(value)
    except (ValueError, OverflowError):  # "abc", NaN, Infinity (Python's JSON accepts the last two)
        raise ToolArgumentError(f"`{name}` must be an integer between 1 and {maximum}") from None
    return max(1, min(maximum, number))


def _date(ts: float) -> str:
    return datetime.fromtimestamp(ts, UTC).strftime("%Y-%m-%d")


def _note(memory: Memory) -> dict[str, Any]:
    return {
        "id": memory.id,
        "content": memory.content,
        "type": memory.memory_type.value,
        "subjects": memory.subjects,
        "date": _date(memory.created_at),
    }


def _dump(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False)
    if len(text) > MAX_RESULT_CHARS and isinstance(value, dict) and isinstance(value.get("memories"), list):
        # Drop whole notes from the end rather than cut JSON in half.
        notes = list(value["memories"])
        while notes and len(text) > MAX_RESULT_CHARS:
            notes.pop()
            text = json.dumps({**value, "memories": notes, "truncated": True}, ensure_ascii=False)
    return text


@dataclass(slots=True)
class TurnContext:
    """Where a turn happens and who it is for: what tools may read and how they write."""

    scope: Scope
    audience: Audience
    author_id: str
    visibility: Visibility
    source_message_ids: list[str] = field(default_factory=list)
    # display name (casefolded) or id -> user id, so `remember` can say whom a fact is about
    participants: Mapping[str, str] = field(default_factory=dict)
    search_threshold: float = 0.5
    # The author's time zone: the model's "next Friday" is the author's next Friday.
    tz: tzinfo = UTC


class MemoryToolbox:
    """Executes the model's tool calls for one turn; never raises, always answers with JSON text."""

    def __init__(
        self,
        engine: MemoryEngine,
        context: TurnContext,
        on_stored: Callable[[WriteResult], None] | None = None,
    ) -> None:
        self.engine = engine
        self.context = context
        self.on_stored = on_stored
        self.stored: list[WriteResult] = []
        # What the model called and what it got back, kept with the stored reply.
        self.log: list[dict[str, object]] = []

    async def call(self, call: ToolCall) -> str:
        """The tool result for `call` as a JSON string (`{"error": ...}` for anything unusable)."""
        result = await self._call(call)
        self.log.append(
            {"name": call.name, "arguments": _logged(call.arguments), "result": result[:MAX_LOGGED_RESULT]}
        )
        return result

    async def _call(self, call: ToolCall) -> str:
        if call.error:
            return _dump({"error": f"{call.error}; send the arguments as a JSON object"})
        if not isinstance(call.arguments, Mapping):
            # Providers parse arguments into a dict; anything else must not surface as a crash.
            kind = type(call.arguments).__name__
            return _dump({"error": f"tool arguments must be a JSON object, got {kind}"})
        handlers = {
            REMEMBER.name: self._remember,
            SEARCH_MEMORIES.name: self._search,
            GET_RECENT_MEMORIES.name: self._recent,
        }
        handler = handlers.get(call.name)
        if handler is None:
            return _dump({"error": f"unknown tool {call.name!r}; available: {', '.join(handlers)}"})
        try:
            return _dump(await handler(call.arguments))
        except ToolArgumentError as exc:
            return _dump({"error": str(exc)})
        except Exception as exc:  # a storage failure must reach the model as a result, not kill the turn
            log.warning("memory tool failed", extra={"tool": call.name}, exc_info=True)
            return _dump({"error": f"{call.name} failed ({type(exc).__name__}); try again later"})

    async def remember(self, request: MemoryRequest, about: str | None = None) -> WriteResult:
        """Store one validated memory in this turn's scope; ValueError when the write path refuses it."""
        ctx = self.context
        draft = MemoryDraft(
            content=request.content,
            scope=ctx.scope,
            memory_type=request.memory_type,
            subjects=request.subjects,
            ttl=request.ttl,
            source=Source.CONVERSATION,
            user_id=self._user_for(request, about),
            author_id=ctx.author_id,
            visibility=ctx.visibility,
            sources=list(ctx.source_message_ids),
            said_in=ctx.tz,
        )
        result = await self.engine.remember(draft)
        self.stored.append(result)
        if self.on_stored is not None:
            self.on_stored(result)
        return result

    def _user_for(self, request: MemoryRequest, about: str | None) -> str:
        # A fact is about the person it names when that person is in the conversation;
        # otherwise it is attributed to whoever the bot is answering.
        names = self.context.participants
        for candidate in [about, *request.subjects]:
            if candidate and candidate.strip().casefold() in names:
                return names[candidate.strip().casefold()]
        return self.context.author_id

    async def _remember(self, args: Mapping[str, Any]) -> dict[str, Any]:
        request = parse_memory_request(args)
        about = args.get("about") if isinstance(args.get("about"), str) else None
        try:
            result = await self.remember(request, about)
        except InvalidInput as exc:
            raise ToolArgumentError(str(exc)) from None
        status = {"inserted": "stored", "superseded": "stored (replaces an older note)"}.get(
            result.action, "already known"
        )
        return {"status": status, "id": result.memory.id, "content": result.memory.content}

    async def _search(self, args: Mapping[str, Any]) -> dict[str, Any]:
        query = args.get("query")
        if not isinstance(query, str) or not query.strip():
            raise ToolArgumentError("`query` must be a non-empty string")
        limit = _int_arg(args, "limit", 8, SEARCH_LIMIT)
        hits = await self.engine.search(
            query.strip()[:MAX_QUERY_CHARS],
            self.context.audience,
            limit=limit,
            threshold=self.context.search_threshold,
        )
        return {"memories": [{**_note(h.memory), "score": round(h.score, 3)} for h in hits]}

    async def _recent(self, args: Mapping[str, Any]) -> dict[str, Any]:
        limit = _int_arg(args, "limit", 10, RECENT_LIMIT)
        rows = await self.engine.list_memories(self.context.audience, MemoryQuery(limit=limit))
        return {"memories": [_note(m) for m in rows]}


def participants_index(pairs: Sequence[tuple[str, str]]) -> dict[str, str]:
    """`(user_id, display_name)` pairs as a lookup from casefolded name or id to user id."""
    index: dict[str, str] = {}
    for user_id, name in pairs:
        index[user_id.casefold()] = user_id
        if name and name.strip():
            index.setdefault(name.strip().casefold(), user_id)
    return index


def _logged(value: Any, depth: int = 0) -> Any:
    """A tool call's arguments as the transcript keeps them: whatever size the model sent, each string,
    list and object cut to a few kilobytes (a stored turn is read back into later prompts, masked and
    searched; megabytes of made-up arguments would cost all three)."""
    if isinstance(value, str):
        return value[:MAX_LOGGED_RESULT]
    if depth >= MAX_LOGGED_DEPTH and isinstance(value, Mapping | list):
        return "…"
    if isinstance(value, Mapping):
        kept = list(value.items())[:MAX_LOGGED_ITEMS]
        return {str(key)[:MAX_SUBJECT_CHARS]: _logged(item, depth + 1) for key, item in kept}
    if isinstance(value, list):
        return [_logged(item, depth + 1) for item in value[:MAX_LOGGED_ITEMS]]
    return value
