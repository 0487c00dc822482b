"""The JSON reply form `{"message": ..., "memories": [...]}`: recognised, validated, never fatal."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

from memory.errors import ToolArgumentError, TTLArgumentError

from .memory_tools import MemoryRequest, parse_memory_request

MAX_JSON_MEMORIES = 20  # more than this in one reply is a model looping, not remembering

# A reply wrapped in a Markdown code fence: ```json {...} ``` (the fence language is optional).
_FENCED = re.compile(r"^\s*```[A-Za-z0-9_-]*\s*\n?(?P<body>.*?)\n?\s*```\s*$", re.DOTALL)


@dataclass(slots=True)
class ParsedReply:
    """What to send the user, what to remember, and why any memory entry was refused."""

    message: str
    memories: list[tuple[MemoryRequest, str | None]] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    # Memories kept with something of them dropped (a TTL that is not a duration), and why.
    warnings: list[str] = field(default_factory=list)
    structured: bool = False


def _load_object(text: str) -> dict[str, Any] | None:
    candidate = text.strip()
    fenced = _FENCED.match(candidate)
    if fenced:
        candidate = fenced.group("body").strip()
    if not (candidate.startswith("{") and candidate.endswith("}")):
        return None
    try:
        value = json.loads(candidate)
    except (ValueError, RecursionError):  # RecursionError: nesting deeper than the parser's stack
        return None
    return value if isinstance(value, dict) else None


def parse_reply(text: str) -> ParsedReply:
    """Split a model's final text into the user-facing message and memories to store.

    Plain text is the message as-is. A JSON object counts as the structured form only when it
    has a string `message` or a `memories` list; anything else (a code answer that happens to
    be JSON, a malformed object) is shown as text, so nothing the model said is lost.
    """
    data = _load_object(text)
    if data is None or not (isinstance(data.get("message"), str) or isinstance(data.get("memories"), list)):
        return ParsedReply(message=text.strip())
    message = data.get("message")
    reply = ParsedReply(message=message.strip() if isinstance(message, str) else "", structured=True)
    entries = data.get("memories", [])
    if not isinstance(entries, list):
        reply.errors.append("`memories` must be a list")
        return reply
    if len(entries) > MAX_JSON_MEMORIES:
        reply.errors.append(f"only the first {MAX_JSON_MEMORIES} of {len(entries)} memories were considered")
    for n, entry in enumerate(entries[:MAX_JSON_MEMORIES]):
        if isinstance(entry, str):
            entry = {"content": entry}
        if not isinstance(entry, dict):
            reply.errors.append(f"memories[{n}] must be an object with `content`")
            continue
        try:
            request = parse_memory_request(entry)
        except TTLArgumentError as exc:
            # The fact is still worth keeping: without an expiry rather than not at all.
            try:
                request = parse_memory_request({k: v for k, v in entry.items() if k != "ttl"})
            except ToolArgumentError as again:
                reply.errors.append(f"memories[{n}]: {again}")
                continue
            reply.warnings.append(f"memories[{n}]: {exc}; kept without an expiry")
        except ToolArgumentError as exc:
            reply.errors.append(f"memories[{n}]: {exc}")
            continue
        about = entry.get("about") if isinstance(entry.get("about"), str) else None
        reply.memories.append((request, about))
    return reply
