"""Posting a turn's reply: in a thread under a channel mention, split at Slack's limit, no broadcasts."""

from __future__ import annotations

import logging
from collections.abc import Sequence

from slack_sdk.web.async_client import AsyncWebClient

from ..base import AdapterMetrics, IncomingMessage
from .api import PLATFORM, error_code
from .guards import loggable_id
from .render import neutralize_broadcasts, split_message

log = logging.getLogger(__name__)


def wants_reply(message: IncomingMessage, answer_channels: frozenset[str]) -> bool:
    """A DM, a mention, or a message in a channel the bot answers in."""
    return message.is_dm or message.mentions_bot or message.channel_id in answer_channels


async def post_reply(
    client: AsyncWebClient,
    batch: Sequence[IncomingMessage],
    reply: str,
    limit: int,
    metrics: AdapterMetrics | None,
) -> None:
    """chat.postMessage, chunk by chunk; a chunk Slack refuses ends the reply there."""
    last = batch[-1]
    thread_ts = last.thread_id
    if thread_ts is None and not last.is_dm and any(m.mentions_bot for m in batch):
        # Answer a channel mention in a thread under the last message, not in the channel.
        thread_ts = _ts_of(last)
    chunks = split_message(neutralize_broadcasts(reply), limit)
    for index, chunk in enumerate(chunks):
        try:
            await client.chat_postMessage(channel=last.channel_id, text=chunk, thread_ts=thread_ts)
        except Exception as exc:
            # Later chunks would read out of order without this one; stop here.
            log.warning(
                "slack reply not posted",
                extra={
                    "channel_id": loggable_id(last.channel_id),
                    "chunk": index,
                    "chunks": len(chunks),
                    "error": error_code(exc),
                },
            )
            return
    if metrics is not None:
        metrics.replies_sent.labels(PLATFORM).inc()
    log.info(
        "slack reply posted",
        extra={
            "channel_id": loggable_id(last.channel_id),
            "threaded": thread_ts is not None,
            "chunks": len(chunks),
        },
    )


def _ts_of(message: IncomingMessage) -> str | None:
    if message.external_id and ":" in message.external_id:
        return message.external_id.split(":", 1)[1]
    return None
