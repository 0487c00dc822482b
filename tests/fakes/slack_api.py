"""A local fake of the Slack Web API, response_url webhooks and Socket Mode, for tests (not a test module)."""

from __future__ import annotations

import itertools
import json
from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qsl

from aiohttp import WSMsgType, web

from tests.fakes.local_server import LocalServer

BOT_USER_ID = "UBOT0001"
BOT_ID = "BBOT0001"
TEAM_ID = "T0TEAM001"


@dataclass(frozen=True, slots=True)
class ApiCall:
    """One Web API call: the method and its arguments (query, form and JSON merged), and the token."""

    method: str
    args: dict[str, Any]
    token: str | None


@dataclass(slots=True)
class Upload:
    file_id: str
    filename: str
    data: bytes = b""


class FakeSlackAPI(LocalServer):
    """aiohttp server on 127.0.0.1 with a free port, answering like Slack.

    - `/api/<method>`: auth.test, users.info, conversations.info, conversations.list,
      chat.postMessage, conversations.open, files.getUploadURLExternal,
      files.completeUploadExternal, apps.connections.open; every call is recorded in `calls`;
      `method_errors[method] = "code"` makes one fail. Conversations are those given to
      `add_channel`; any other `C…` id is a public channel, `D…` a DM (as Slack answers a bot
      with channels:read and im:read).
    - `/upload/<file_id>`: the upload URL files_upload_v2 posts the bytes to.
    - `/response/<name>`: a response_url; JSON bodies land in `responses[name]`.
    - `/socket`: a Socket Mode WebSocket; `send_envelope` pushes, `socket_acks` records acks.

    `wait_for` resolves when a condition on the recorded traffic holds, with no polling or sleeps.
    """

    def __init__(self) -> None:
        super().__init__()
        self.calls: list[ApiCall] = []
        self.responses: dict[str, list[dict[str, Any]]] = {}
        self.uploads: dict[str, Upload] = {}
        self.users: dict[str, dict[str, Any]] = {}
        self.channels: dict[str, dict[str, Any]] = {}
        self.list_page_size = 100
        self.auth_failures = 0
        self.auth_error = "service_unavailable"
        self.post_failures: dict[str, str] = {}
        self.method_errors: dict[str, str] = {}
        self.socket_acks: list[dict[str, Any]] = []
        self._sockets: list[web.WebSocketResponse] = []
        self._ts = itertools.count(1)
        self._ids = itertools.count(1)

    # --- set-up ------------------------------------------------------------------------------------

    @property
    def api_url(self) -> str:
        """What `AsyncWebClient(base_url=...)` takes."""
        return f"{self.url}/api/"

    def response_url(self, name: str) -> str:
        return f"{self.url}/response/{name}"

    def add_user(
        self,
        user_id: str,
        display_name: str,
        *,
        is_admin: bool = False,
        is_owner: bool = False,
        tz: str = "Europe/Paris",
    ) -> None:
        self.users[user_id] = {
            "id": user_id,
            "team_id": TEAM_ID,
            "name": display_name.lower().replace(" ", "."),
            "deleted": False,
            "real_name": display_name,
            "tz": tz,
            "profile": {"real_name": display_name, "display_name": display_name, "team": TEAM_ID},
            "is_admin": is_admin,
            "is_owner": is_owner,
            "is_primary_owner": False,
            "is_bot": False,
            "updated": 1_700_000_000,
        }

    def add_channel(self, channel_id: str, kind: str, name: str | None = None) -> None:
        """A conversation of `kind` (public, private, mpim or im) that the bot is a member of."""
        self.channels[channel_id] = {
            "id": channel_id,
            "name": name or channel_id.lower(),
            "is_channel": kind in ("public", "private"),
            "is_group": kind == "private",
            "is_im": kind == "im",
            "is_mpim": kind == "mpim",
            "is_private": kind != "public",
            "is_archived": False,
            "is_member": True,
            "context_team_id": TEAM_ID,
        }

    def build_app(self) -> web.Application:
        app = web.Application()
        app.router.add_route("*", "/api/{method}", self._api)
        app.router.add_post("/upload/{file_id}", self._upload)
        app.router.add_post("/response/{name}", self._response)
        app.router.add_get("/socket", self._socket)
        return app

    async def stop(self) -> None:
        for ws in list(self._sockets):
            await ws.close()
        await super().stop()

    # --- inspection --------------------------------------------------------------------------------

    def calls_to(self, method: str) -> list[ApiCall]:
        return [c for c in self.calls if c.method == method]

    def posts(self) -> list[dict[str, Any]]:
        """The arguments of every chat.postMessage, in order."""
        return [c.args for c in self.calls_to("chat.postMessage")]

    # --- Socket Mode -------------------------------------------------------------------------------

    @property
    def socket_connected(self) -> bool:
        return any(not ws.closed for ws in self._sockets)

    async def drop_sockets(self) -> None:
        """Close every Socket Mode connection from the server side, as a network drop or a restart would."""
        for ws in list(self._sockets):
            await ws.close()

    async def send_envelope(self, envelope: dict[str, Any]) -> None:
        """Push one Socket Mode envelope (events_api, slash_commands, interactive) to the client."""
        await self.send_raw(json.dumps(envelope))

    async def send_raw(self, frame: str) -> None:
        """Push one text frame as it is, well formed or not."""
        for ws in self._sockets:
            if not ws.closed:
                await ws.send_str(frame)
                return
        raise RuntimeError("no socket mode client connected")

    async def _socket(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse()
        await ws.prepare(request)
        self._sockets.append(ws)
        await ws.send_str(
            json.dumps(
                {
                    "type": "hello",
                    "num_connections": 1,
                    "debug_info": {"host": "fake", "approximate_connection_time": 18060},
                    "connection_info": {"app_id": "A0APP0001"},
                }
            )
        )
        self._notify()
        async for message in ws:
            if message.type == WSMsgType.TEXT:
                try:
                    self.socket_acks.append(json.loads(message.data))
                except ValueError:
                    continue
                self._notify()
        self._notify()
        return ws

    # --- handlers ----------------------------------------------------------------------------------

    async def _args(self, request: web.Request) -> dict[str, Any]:
        args: dict[str, Any] = dict(request.query)
        raw = await request.read()
        if raw:
            content_type = request.headers.get("Content-Type", "")
            if "json" in content_type:
                body = json.loads(raw)
                if isinstance(body, dict):
                    args.update(body)
            else:
                args.update(dict(parse_qsl(raw.decode("utf-8"), keep_blank_values=True)))
        return args

    async def _api(self, request: web.Request) -> web.Response:
        method = request.match_info["method"]
        args = await self._args(request)
        auth = request.headers.get("Authorization", "")
        token = auth.removeprefix("Bearer ") if auth.startswith("Bearer ") else args.pop("token", None)
        self.calls.append(ApiCall(method, args, token))
        try:
            handler = getattr(self, "_m_" + method.replace(".", "_"), None)
            if method in self.method_errors:
                body = {"ok": False, "error": self.method_errors[method]}
            elif handler is None:
                body: dict[str, Any] = {"ok": False, "error": "unknown_method"}
            else:
                body = handler(args)
            return web.json_response(body)
        finally:
            self._notify()

    async def _upload(self, request: web.Request) -> web.Response:
        file_id = request.match_info["file_id"]
        upload = self.uploads.get(file_id)
        if upload is None:
            return web.Response(status=404, text="unknown upload")
        upload.data = await request.read()
        self._notify()
        return web.Response(text=f"OK - {len(upload.data)}")

    async def _response(self, request: web.Request) -> web.Response:
        name = request.match_info["name"]
        body = await request.json()
        self.responses.setdefault(name, []).append(body)
        self._notify()
        return web.Response(text="ok")

    # --- methods -----------------------------------------------------------------------------------

    def _m_auth_test(self, args: dict[str, Any]) -> dict[str, Any]:
        if self.auth_failures > 0:
            self.auth_failures -= 1
            return {"ok": False, "error": self.auth_error}
        return {
            "ok": True,
            "url": "https://acme.slack.com/",
            "team": "Acme",
            "user": "memorybot",
            "team_id": TEAM_ID,
            "user_id": BOT_USER_ID,
            "bot_id": BOT_ID,
            "is_enterprise_install": False,
        }

    def _m_users_info(self, args: dict[str, Any]) -> dict[str, Any]:
        user = self.users.get(str(args.get("user")))
        if user is None:
            return {"ok": False, "error": "user_not_found"}
        return {"ok": True, "user": user}

    def _channel(self, channel_id: str) -> dict[str, Any] | None:
        if channel_id in self.channels:
            return self.channels[channel_id]
        if channel_id.startswith(("C", "D")):
            kind = "im" if channel_id.startswith("D") else "public"
            self.add_channel(channel_id, kind)
            return self.channels.pop(channel_id)
        return None

    def _m_conversations_info(self, args: dict[str, Any]) -> dict[str, Any]:
        channel = self._channel(str(args.get("channel")))
        if channel is None:
            return {"ok": False, "error": "channel_not_found"}
        return {"ok": True, "channel": channel}

    def _m_conversations_list(self, args: dict[str, Any]) -> dict[str, Any]:
        types = set(str(args.get("types") or "public_channel").split(","))
        wanted = [
            c
            for c in self.channels.values()
            if ("public_channel" in types and c["is_channel"] and not c["is_private"])
            or ("private_channel" in types and c["is_group"])
            or ("mpim" in types and c["is_mpim"])
            or ("im" in types and c["is_im"])
        ]
        start = int(args.get("cursor") or 0)
        page = wanted[start : start + self.list_page_size]
        more = start + self.list_page_size < len(wanted)
        cursor = str(start + self.list_page_size) if more else ""
        return {"ok": True, "channels": page, "response_metadata": {"next_cursor": cursor}}

    def _m_chat_postMessage(self, args: dict[str, Any]) -> dict[str, Any]:
        channel = str(args.get("channel"))
        if channel in self.post_failures:
            return {"ok": False, "error": self.post_failures[channel]}
        ts = f"1800000000.{next(self._ts):06d}"
        message = {
            "type": "message",
            "user": BOT_USER_ID,
            "bot_id": BOT_ID,
            "text": args.get("text"),
            "ts": ts,
        }
        if args.get("thread_ts"):
            message["thread_ts"] = args["thread_ts"]
        return {"ok": True, "channel": channel, "ts": ts, "message": message}

    def _m_conversations_open(self, args: dict[str, Any]) -> dict[str, Any]:
        users = str(args.get("users", ""))
        return {"ok": True, "channel": {"id": "D" + users.split(",")[0].lstrip("U")}}

    def _m_files_getUploadURLExternal(self, args: dict[str, Any]) -> dict[str, Any]:
        file_id = f"F{next(self._ids):08d}"
        self.uploads[file_id] = Upload(file_id, str(args.get("filename")))
        return {"ok": True, "upload_url": f"{self.url}/upload/{file_id}", "file_id": file_id}

    def _m_files_completeUploadExternal(self, args: dict[str, Any]) -> dict[str, Any]:
        files = json.loads(args.get("files", "[]"))
        return {
            "ok": True,
            "files": [{"id": f["id"], "title": f.get("title", ""), "mode": "hosted"} for f in files],
        }

    def _m_apps_connections_open(self, args: dict[str, Any]) -> dict[str, Any]:
        return {"ok": True, "url": f"ws://127.0.0.1:{self.port}/socket"}
