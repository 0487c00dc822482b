"""Socket Mode: the websocket to Slack, and envelopes bolt cannot answer acknowledged and dropped."""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING, Any

from slack_bolt.async_app import AsyncApp

from .guards import socket_logger, unusable_envelope

if TYPE_CHECKING:
    from slack_sdk.socket_mode.aiohttp import SocketModeClient

log = logging.getLogger(__name__)


class SocketModeLink:
    """bolt's Socket Mode handler for `app`: connects in the background, says whether it is up."""

    def __init__(self, app: AsyncApp, app_token: str) -> None:
        # Imported here: the handler needs a running loop, and HTTP mode never builds one.
        from slack_bolt.adapter.socket_mode.async_handler import AsyncSocketModeHandler

        self.handler = AsyncSocketModeHandler(app, app_token, web_client=app.client, logger=socket_logger())
        self.handler.client.message_listeners.append(_refuse_unusable_envelope)
        self.task: asyncio.Task[None] | None = None

    def connect(self) -> None:
        """Start connecting; `task` finishes at the first connection."""
        self.task = asyncio.create_task(self._connect(), name="slack-socket-connect")

    async def _connect(self) -> None:
        try:
            # connect_async keeps retrying inside slack_sdk until it connects or the client closes.
            await self.handler.connect_async()
            log.info("slack socket mode connected")
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("slack socket mode connection failed")

    @property
    def connected(self) -> bool:
        client: SocketModeClient = self.handler.client
        session = client.current_session
        return not client.closed and not client.stale and session is not None and not session.closed

    async def close(self) -> None:
        """Disconnect; a failure to close is logged, not raised."""
        try:
            # Closing first stops Slack from pushing more events to a process that is leaving.
            await self.handler.close_async()
        except Exception:
            log.warning("socket mode close failed", exc_info=True)


async def _refuse_unusable_envelope(client: Any, message: dict[str, Any], raw: str | None) -> None:
    """Acknowledge, and drop, a Socket Mode envelope bolt could not answer (a payload of the
    wrong shape, an envelope type it does not know), so Slack does not deliver it again."""
    envelope_id = message.get("envelope_id") if isinstance(message, dict) else None
    if not isinstance(envelope_id, str) or not envelope_id:
        return
    problem = unusable_envelope(message)
    if problem is None:
        return  # bolt answers it, and acknowledges it then
    from slack_sdk.socket_mode.response import SocketModeResponse

    log.warning("slack socket envelope refused: malformed", extra={"reason": problem})
    await client.send_socket_mode_response(SocketModeResponse(envelope_id=envelope_id))
