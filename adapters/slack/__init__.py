"""The Slack adapter (slack-bolt, asyncio): events and /memory over Socket Mode or HTTP."""

from .adapter import DEDUP_FILENAME, EVENTS_PATH, SlackAdapter, SlackConfig

__all__ = ["DEDUP_FILENAME", "EVENTS_PATH", "SlackAdapter", "SlackConfig"]
