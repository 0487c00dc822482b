"""Hostile-input guards: request signatures, malformed bodies and envelopes, payload-free log lines."""

from __future__ import annotations

import hashlib
import hmac
import json
import logging
import re
import time
from collections.abc import Mapping
from typing import Any
from urllib.parse import parse_qsl

from slack_bolt.request.async_request import AsyncBoltRequest

log = logging.getLogger(__name__)

# Slack's advice: refuse a request signed more than five minutes ago (a replay).
SIGNATURE_MAX_AGE_SECONDS = 300


def signature_ok(signing_secret: str, raw: bytes, headers: Mapping[str, str]) -> bool:
    """Slack's v0 request signature over the raw bytes, from the last five minutes."""
    timestamp = headers.get("X-Slack-Request-Timestamp", "")
    signature = headers.get("X-Slack-Signature", "")
    try:
        sent_at = int(timestamp)
    except ValueError:
        return False
    if abs(time.time() - sent_at) > SIGNATURE_MAX_AGE_SECONDS:
        return False  # a replay of an old request
    base = b"v0:" + timestamp.encode("ascii") + b":" + raw
    expected = "v0=" + hmac.new(signing_secret.encode(), base, hashlib.sha256).hexdigest()
    return hmac.compare_digest(expected, signature)


def malformed_request(raw: bytes, content_type: str) -> str | None:
    """Why a signed request body is not one Slack sends, or None when it is well formed."""
    try:
        body = raw.decode("utf-8")
    except UnicodeDecodeError:
        return "body is not UTF-8"
    if "application/x-www-form-urlencoded" in content_type:
        form = dict(parse_qsl(body, keep_blank_values=True))
        if "payload" not in form:
            return None  # a slash command: flat fields
        return _json_problem(form["payload"], "payload")
    return _json_problem(body, "body")


def _json_problem(text: str, what: str) -> str | None:
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        return f"{what} is not JSON"
    if not isinstance(data, dict):
        return f"{what} is not a JSON object"
    if "event" in data and not isinstance(data["event"], dict):
        return "event is not an object"
    if "event" in data and not isinstance(data["event"].get("type"), str):
        return "event has no type"
    if data.get("type") == "event_callback" and "event" not in data:
        return "event_callback without an event"
    return None


_SOCKET_REQUESTS = frozenset({"events_api", "slash_commands", "interactive"})


def unusable_envelope(message: Mapping[str, Any]) -> str | None:
    """Why bolt cannot answer a Socket Mode envelope, or None when it can."""
    kind = message.get("type")
    if kind not in _SOCKET_REQUESTS:
        return "not a request envelope"
    payload = message.get("payload")
    if not isinstance(payload, dict):
        return "payload is not an object"
    if kind == "events_api":
        event = payload.get("event")
        if not isinstance(event, dict) or not isinstance(event.get("type"), str):
            return "event is not an object with a type"
    try:
        AsyncBoltRequest(mode="socket_mode", body=payload)
    except Exception as exc:  # bolt reads ids while building the request and fails on wrong types
        return f"unreadable payload ({type(exc).__name__})"
    return None


# Slack's ids (users, channels, teams, bots): capital letters and digits.
_SLACK_ID = re.compile(r"[A-Z0-9]{1,40}")


def loggable_id(value: str) -> str:
    """`value` if it has the shape of a Slack id, else a placeholder: an event's id fields are
    whatever its sender put there, and a log line must never carry a body."""
    return value if _SLACK_ID.fullmatch(value) else "<not an id>"


# --- log filters ---------------------------------------------------------------------------------


def bolt_logger() -> logging.Logger:
    """The logger bolt writes to: its request verification logs refused bodies at INFO and its
    unhandled-request warning quotes the request, so everything it says is lowered to DEBUG."""
    return _filtered("adapters.slack.bolt", _ToDebug)


class _ToDebug(logging.Filter):
    """Rewrites a record to DEBUG (and drops its traceback), whatever level it was logged at."""

    def filter(self, record: logging.LogRecord) -> bool:
        record.levelno, record.levelname = logging.DEBUG, "DEBUG"
        record.exc_info, record.exc_text = None, None
        # A handler's level was checked against the original level; the record says DEBUG now,
        # and is only kept when DEBUG is wanted.
        return logging.getLogger().isEnabledFor(logging.DEBUG)


def socket_logger() -> logging.Logger:
    """The Socket Mode client's logger: its tracebacks (a frame it could not process) go to DEBUG,
    the line itself stays at its level."""
    return _filtered("adapters.slack.socket", _NoTraceback)


def _filtered(name: str, kind: type[logging.Filter]) -> logging.Logger:
    """The logger `name` with a `kind` filter on it, added once however many adapters ask for it."""
    logger = logging.getLogger(name)
    if not any(isinstance(f, kind) for f in logger.filters):
        logger.addFilter(kind())
    return logger


class _NoTraceback(logging.Filter):
    """Keeps a record's line, moves its traceback (if any) to a DEBUG record of its own."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.exc_info and record.levelno > logging.DEBUG:
            log.debug("slack socket mode traceback", exc_info=record.exc_info)
            record.exc_info, record.exc_text = None, None
        return True
