"""Logging set-up: plain text for terminals, one JSON object per line for machines."""

from __future__ import annotations

import contextvars
import json
import logging
import sys
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from types import MappingProxyType

# Attributes every LogRecord has; anything else was passed through `extra=` and is context.
_STANDARD = set(vars(logging.makeLogRecord({}))) | {"message", "asctime", "taskName"}

# The conversation being worked on. Asyncio tasks copy it when created, so background work a
# turn starts logs under that turn's conversation too.
_log_context: contextvars.ContextVar[Mapping[str, str]] = contextvars.ContextVar(
    "memorybot_log_context", default=MappingProxyType({})
)


@contextmanager
def log_context(**fields: str | None) -> Iterator[None]:
    """Add `fields` (None values skipped) to every log line emitted inside the block.

    Nested blocks add to the outer one. Meant for identifiers (platform, workspace_id,
    channel_id, thread_id), never for message text.
    """
    merged = {**_log_context.get(), **{k: str(v) for k, v in fields.items() if v is not None}}
    token = _log_context.set(MappingProxyType(merged))
    try:
        yield
    finally:
        _log_context.reset(token)


def current_log_context() -> dict[str, str]:
    """The fields `log_context` blocks around this point add to log lines."""
    return dict(_log_context.get())


class ContextFilter(logging.Filter):
    """Copies the current `log_context` onto each record a handler sees.

    A handler filter rather than a record factory: values passed with `extra=` win, and a
    record factory that set the same names would make `extra=` raise instead.
    """

    def filter(self, record: logging.LogRecord) -> bool:
        for key, value in _log_context.get().items():
            if key not in record.__dict__:
                setattr(record, key, value)
        return True


def _context(record: logging.LogRecord) -> dict[str, object]:
    return {k: v for k, v in vars(record).items() if k not in _STANDARD}


class JsonFormatter(logging.Formatter):
    """One JSON object per record: time, level, logger, event, then every context field."""

    def format(self, record: logging.LogRecord) -> str:
        payload: dict[str, object] = {
            "ts": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname.lower(),
            "logger": record.name,
            "event": record.getMessage(),
            **_context(record),
        }
        if record.exc_info:
            payload["exc"] = self.formatException(record.exc_info)
        line = json.dumps(payload, default=str, ensure_ascii=False)
        # A lone surrogate (from a platform's JSON or a model) would make the line invalid UTF-8.
        return line.encode("utf-8", "replace").decode("utf-8")


class TextFormatter(logging.Formatter):
    """`time level logger: event key=value ...` for terminals."""

    def __init__(self) -> None:
        super().__init__("%(asctime)s %(levelname)-7s %(name)s: %(message)s", "%H:%M:%S")

    def format(self, record: logging.LogRecord) -> str:
        line = super().format(record)
        context = _context(record)
        if context:
            line += " " + " ".join(f"{k}={v}" for k, v in context.items())
        return line


def setup_logging(level: str = "INFO", fmt: str = "text", log_file: Path | None = None) -> None:
    """Route every logger to stderr in the chosen format; quiet the chatty libraries.

    With `log_file` (the terminal chat) the log goes there at `level`, and the terminal only
    shows warnings: the conversation stays readable.
    """

    def handler_for(stream_handler: logging.Handler, handler_level: str | int) -> logging.Handler:
        stream_handler.setFormatter(JsonFormatter() if fmt == "json" else TextFormatter())
        stream_handler.addFilter(ContextFilter())
        stream_handler.setLevel(handler_level)
        return stream_handler

    handlers = [handler_for(logging.StreamHandler(sys.stderr), level)]
    if log_file is not None:
        log_file.parent.mkdir(parents=True, exist_ok=True)
        to_file = logging.FileHandler(log_file, encoding="utf-8")
        handlers = [handler_for(to_file, level), handler_for(logging.StreamHandler(sys.stderr), "WARNING")]
    root = logging.getLogger()
    root.handlers[:] = handlers
    root.setLevel(level)
    for noisy in ("httpx", "httpcore", "sentence_transformers", "transformers", "urllib3", "discord.gateway"):
        logging.getLogger(noisy).setLevel(max(logging.WARNING, logging.getLevelName(level)))
