"""A local fake of Discord's REST API and gateway for a real discord.py client (a test helper, not tests)."""

from __future__ import annotations

import asyncio
import contextlib
import datetime
import fnmatch
import itertools
import json
import uuid
import zlib
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

import discord
import yarl
from aiohttp import BodyPartReader, WSMsgType, web
from discord.gateway import DiscordWebSocket
from discord.http import Route

from tests.fakes.local_server import WAIT_LIMIT_SECONDS, LocalServer

Payload = dict[str, Any]

API_PREFIX = "/api/v10"
HEARTBEAT_INTERVAL_MS = 41_250
MAX_CONTENT = 2000

# Permission bits (https://discord.com/developers/docs/topics/permissions), plain ints for the builders.
ADMINISTRATOR = 1 << 3
MANAGE_GUILD = 1 << 5
VIEW_CHANNEL = 1 << 10
SEND_MESSAGES = 1 << 11
READ_MESSAGE_HISTORY = 1 << 16
SEND_MESSAGES_IN_THREADS = 1 << 38
# What a new guild's @everyone gets: view, send, reactions, embeds, files, history, app commands, threads.
EVERYONE_PERMISSIONS = VIEW_CHANNEL | SEND_MESSAGES | READ_MESSAGE_HISTORY | SEND_MESSAGES_IN_THREADS
EVERYONE_PERMISSIONS |= (1 << 6) | (1 << 14) | (1 << 15) | (1 << 31) | (1 << 35) | (1 << 36)
EPHEMERAL = 1 << 6  # message flags
LOADING = 1 << 7
# The privileged intents: GUILD_MEMBERS, GUILD_PRESENCES, MESSAGE_CONTENT.
PRIVILEGED_INTENTS = (1 << 1) | (1 << 8) | (1 << 15)
# GATEWAY_GUILD_MEMBERS_LIMITED | GATEWAY_MESSAGE_CONTENT_LIMITED: an unverified bot's application flags.
APPLICATION_FLAGS = (1 << 15) | (1 << 19)

# --- builders: plain dicts shaped like Discord's documented JSON ------------------------------------------

_counter = itertools.count(1)
# A fixed 2025-01-01 timestamp part keeps ids increasing and their creation times plausible.
_SNOWFLAKE_BASE = (1_735_689_600_000 - 1_420_070_400_000) << 22


def snowflake() -> str:
    """A new, increasing snowflake, as the string Discord sends."""
    return str(_SNOWFLAKE_BASE | next(_counter))


def iso_now() -> str:
    return datetime.datetime.now(datetime.UTC).isoformat()


def user(username: str, *, user_id: str | None = None, bot: bool = False) -> Payload:
    data = {
        "id": user_id or snowflake(),
        "username": username,
        "global_name": None if bot else username.title(),
    }
    return data | {"discriminator": "0", "avatar": None, "bot": bot, "public_flags": 0}


def member(of: Payload, *, roles: Sequence[str] = (), permissions: int | None = None) -> Payload:
    """A guild member; `permissions` (theirs in the channel) is only sent with interactions."""
    data = {"user": of, "nick": None, "avatar": None, "roles": list(roles), "joined_at": iso_now()}
    data |= {"deaf": False, "mute": False, "flags": 0, "pending": False}
    return data | ({} if permissions is None else {"permissions": str(permissions)})


def role(role_id: str, name: str, permissions: int = 0, *, position: int = 1) -> Payload:
    data = {"id": role_id, "name": name, "permissions": str(permissions), "position": position}
    return data | {"color": 0, "hoist": False, "managed": False, "mentionable": False, "flags": 0}


def overwrite(target_id: str, *, member: bool = False, allow: int = 0, deny: int = 0) -> Payload:
    """A permission overwrite for a role (type 0; @everyone's id is the guild's) or a member (type 1)."""
    return {"id": target_id, "type": 1 if member else 0, "allow": str(allow), "deny": str(deny)}


def text_channel(
    guild_id: str,
    name: str,
    *,
    position: int = 0,
    parent_id: str | None = None,
    overwrites: Sequence[Payload] = (),
) -> Payload:
    data = {"id": snowflake(), "type": 0, "guild_id": guild_id, "name": name, "position": position}
    data |= {"parent_id": parent_id, "permission_overwrites": list(overwrites), "topic": None, "nsfw": False}
    return data | {"last_message_id": None, "rate_limit_per_user": 0, "flags": 0}


def category(guild_id: str, name: str, *, position: int = 0, overwrites: Sequence[Payload] = ()) -> Payload:
    data = {"id": snowflake(), "type": 4, "guild_id": guild_id, "name": name, "position": position}
    return data | {"parent_id": None, "permission_overwrites": list(overwrites), "flags": 0}


def dm_channel(recipient: Payload, *, channel_id: str | None = None) -> Payload:
    return {"id": channel_id or snowflake(), "type": 1, "last_message_id": None, "recipients": [recipient]}


def thread(
    parent: Payload, name: str, *, owner_id: str, private: bool = False, member_count: int = 2
) -> Payload:
    """A public (type 11) or private (type 12) thread under the text channel `parent`."""
    metadata = {"archived": False, "auto_archive_duration": 1440, "archive_timestamp": iso_now()}
    metadata |= {"locked": False, "create_timestamp": iso_now()} | ({"invitable": False} if private else {})
    data = {"id": snowflake(), "type": 12 if private else 11, "guild_id": parent["guild_id"], "name": name}
    data |= {"parent_id": parent["id"], "owner_id": owner_id, "thread_metadata": metadata, "flags": 0}
    return data | {"message_count": 0, "member_count": member_count, "last_message_id": None}


def thread_create(thread_data: Payload, *, newly_created: bool = True) -> Payload:
    """THREAD_CREATE data: discord.py fires on_thread_create if newly created, on_thread_join otherwise."""
    return thread_data | {"newly_created": newly_created}


def guild(
    guild_id: str,
    name: str,
    *,
    owner_id: str,
    channels: Sequence[Payload] = (),
    threads: Sequence[Payload] = (),
    members: Sequence[Payload] = (),
    roles: Sequence[Payload] = (),
    everyone_permissions: int = EVERYONE_PERMISSIONS,
) -> Payload:
    """A GUILD_CREATE payload; its @everyone role's id is the guild's id, as on Discord."""
    everyone = role(guild_id, "@everyone", everyone_permissions, position=0)
    data = {"id": guild_id, "name": name, "owner_id": owner_id, "roles": [everyone, *roles], "icon": None}
    data |= {"channels": list(channels), "threads": list(threads), "members": list(members)}
    data |= {"member_count": len(members), "large": False, "unavailable": False, "joined_at": iso_now()}
    data |= {"preferred_locale": "en-US", "verification_level": 0, "mfa_level": 0, "nsfw_level": 0}
    empty = ("features", "emojis", "stickers", "presences", "voice_states", "stage_instances")
    return data | {key: [] for key in (*empty, "guild_scheduled_events", "soundboard_sounds")}


def message(
    channel: Payload,
    author: Payload,
    content: str,
    *,
    member_data: Payload | None = None,
    mentions: Sequence[Payload] = (),
    mention_roles: Sequence[str] = (),
    attachments: Sequence[Payload] = (),
    reference: Payload | None = None,
) -> Payload:
    """MESSAGE_CREATE data; guild_id and member come with a guild `channel`, so DMs have neither."""
    data = {"id": snowflake(), "channel_id": channel["id"], "type": 0, "author": author, "content": content}
    data |= {"timestamp": iso_now(), "edited_timestamp": None, "flags": 0, "embeds": [], "components": []}
    data |= {
        "mentions": list(mentions),
        "mention_roles": list(mention_roles),
        "attachments": list(attachments),
    }
    data |= {"tts": False, "mention_everyone": False, "pinned": False}
    if "guild_id" in channel:
        # The gateway sends the author's member without its user.
        author_member = {k: v for k, v in (member_data or member(author)).items() if k != "user"}
        data |= {"guild_id": channel["guild_id"], "member": author_member}
    if reference is not None:
        ref = {"type": 0, "message_id": reference["id"], "channel_id": reference["channel_id"]}
        ref |= {"guild_id": reference["guild_id"]} if "guild_id" in reference else {}
        data |= {"type": 19, "message_reference": ref, "referenced_message": reference}  # 19: REPLY
    return data


def attachment(
    filename: str, *, size: int = 1024, content_type: str = "text/plain", description: str | None = None
) -> Payload:
    """An attachment object; `description` is the alt text its uploader wrote."""
    attachment_id = snowflake()
    url = f"https://cdn.discordapp.com/attachments/0/{attachment_id}/{filename}"
    data = {"id": attachment_id, "filename": filename, "size": size, "content_type": content_type}
    if description is not None:
        data["description"] = description
    return data | {"url": url, "proxy_url": url}


def option(name: str, value: Any, *, type: int = 3) -> Payload:
    """A command option value: type 3 string, 4 integer, 5 boolean, 10 number."""
    return {"name": name, "type": type, "value": value}


def _interaction(
    kind: int, user_data: Payload, channel: Payload, permissions: int, application_id: str
) -> Payload:
    guild_id = channel.get("guild_id")
    # The partial channel Discord attaches carries the invoker's permissions in it.
    data = {"id": snowflake(), "application_id": application_id, "type": kind, "version": 1}
    data |= {"channel": channel | {"permissions": str(permissions)}, "channel_id": channel["id"]}
    data |= {"token": "itoken-" + uuid.uuid4().hex, "app_permissions": str(EVERYONE_PERMISSIONS)}
    data |= {"locale": "en-US", "entitlements": [], "attachment_size_limit": 10 * 1024 * 1024}
    # A guild install's owner "0" is the guild; in the bot's DMs Discord sends "0". Context 0 GUILD, 1 BOT_DM.
    data |= {"authorizing_integration_owners": {"0": guild_id or "0"}, "context": 0 if guild_id else 1}
    if guild_id is None:
        return data | {"user": user_data}
    data |= {"guild_id": guild_id, "guild": {"id": guild_id, "locale": "en-US", "features": []}}
    return data | {"guild_locale": "en-US", "member": member(user_data, permissions=permissions)}


def command_interaction(
    name: str,
    *,
    user_data: Payload,
    channel: Payload,
    application_id: str,
    subcommand: str | None = None,
    options: Sequence[Payload] = (),
    command_id: str | None = None,
    permissions: int = EVERYONE_PERMISSIONS,
) -> Payload:
    """INTERACTION_CREATE data for `/name [subcommand] options…` in `channel` (guild channel, thread or DM).

    discord.py's CommandTree matches by name (and guild), so `command_id` can be any snowflake;
    `application_id` must be the fake's, since follow-ups go to /webhooks/{application_id}/{token}.
    """
    leaf = list(options)
    if subcommand is not None:
        leaf = [{"type": 1, "name": subcommand, "options": leaf}]
    command = {"id": command_id or snowflake(), "name": name, "type": 1, "options": leaf}
    return _interaction(2, user_data, channel, permissions, application_id) | {"data": command}


def component_interaction(
    custom_id: str,
    *,
    message_data: Payload,
    user_data: Payload,
    channel: Payload,
    application_id: str,
    component_type: int = 2,
) -> Payload:
    """INTERACTION_CREATE data for a click on component `custom_id` (type 2, a button) of `message_data`."""
    data = _interaction(3, user_data, channel, EVERYONE_PERMISSIONS, application_id)
    return data | {
        "data": {"custom_id": custom_id, "component_type": component_type},
        "message": message_data,
    }


# --- the server ------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class UploadedFile:
    field: str
    filename: str
    content_type: str
    data: bytes


@dataclass(slots=True)
class RestCall:
    """One REST request: `path` is after /api/v10; `json` is the JSON body or a multipart's payload_json."""

    method: str
    path: str
    query: dict[str, str]
    json: Any
    files: list[UploadedFile]
    headers: dict[str, str]
    status: int = 0  # of the fake's answer


@dataclass(slots=True)
class _Failure:
    method: str
    pattern: str
    response: Payload
    status: int
    times: int | None


class GatewayConnection:
    """One gateway WebSocket; `query` is what the client asked for (v, encoding, compress)."""

    def __init__(self, ws: web.WebSocketResponse, query: dict[str, str]) -> None:
        self.ws = ws
        self.query = query
        # zlib-stream: one compressor for the connection's life, every payload ending in a sync flush.
        self._zlib = zlib.compressobj() if query.get("compress") == "zlib-stream" else None
        # Compressed frames must leave in compression order.
        self._lock = asyncio.Lock()

    async def send(self, payload: Payload) -> None:
        await self.send_raw(json.dumps(payload))

    async def send_raw(self, raw: str) -> None:
        """One frame as given (JSON or not), compressed like the others."""
        async with self._lock:
            if self.ws.closed:
                return
            if self._zlib is None:
                # discord.py decompresses only binary frames, so text suits any other compress value too.
                await self.ws.send_str(raw)
            else:
                await self.ws.send_bytes(
                    self._zlib.compress(raw.encode()) + self._zlib.flush(zlib.Z_SYNC_FLUSH)
                )


@dataclass(eq=False, slots=True)
class _Session:
    session_id: str
    connection: GatewayConnection | None
    seq: int = 0
    frames: list[Payload] = field(default_factory=list)  # every dispatch, to replay on RESUME
    heartbeat_seq: int = -1  # the highest sequence the client has reported in a heartbeat
    ready: bool = False
    invalid: bool = False
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    shard: tuple[int, int] | None = None  # [id, count] as IDENTIFY said; None: not sharded

    def serves(self, guild_id: str | None) -> bool:
        """Whether Discord sends this session the guild's events (a DM's go to shard 0)."""
        if self.shard is None:
            return True
        shard_id, count = self.shard
        return shard_id == (0 if guild_id is None else shard_of(guild_id, count))


def shard_of(guild_id: str, count: int) -> int:
    """The shard a guild belongs to, by Discord's rule."""
    return (int(guild_id) >> 22) % count


def _json(data: Any, status: int = 200) -> web.Response:
    # discord.py parses a body as JSON only if Content-Type is exactly "application/json", no charset.
    return web.Response(
        body=json.dumps(data).encode(), status=status, headers={"Content-Type": "application/json"}
    )


def _error(status: int, code: int, message: str, errors: Payload | None = None) -> web.Response:
    return _json({"message": message, "code": code} | ({"errors": errors} if errors else {}), status)


def _form_error(key: str, code: str, message: str) -> web.Response:
    return _error(400, 50035, "Invalid Form Body", {key: {"_errors": [{"code": code, "message": message}]}})


Handler = Callable[[web.Request, RestCall], Awaitable[web.Response]]


class FakeDiscord(LocalServer):
    """aiohttp server on 127.0.0.1 with a free port, answering like Discord's API v10 and gateway.

    - `async with FakeDiscord() as fake:` starts it and points discord.py at it (`Route.BASE` and
      `DiscordWebSocket.DEFAULT_GATEWAY`, see `discord_py_pointed_at`); `running_client(fake, client)`
      runs a client against it until `on_ready`.
    - State: `add_guild(guild(...))` (adds the bot's member), `add_channel(...)`; READY lists the guilds
      and a GUILD_CREATE follows for each. `channels`, `messages`, `interactions` (by id) and `commands`
      (by guild id, None for global) hold what Discord would know; `dispatch` keeps them in step.
    - REST under /api/v10: users/@me, (oauth2/)applications/@me, gateway(/bot), GET channels/{id},
      POST channels/{id}/messages and /typing, interactions/{id}/{token}/callback (with_response=1 gets
      an InteractionCallbackResponse), webhooks/{app}/{token} follow-ups and messages/{id|@original},
      GET/PUT application commands. Bodies are checked like Discord (2000 characters, not empty, known
      reply target, acknowledge once). Every request lands in `requests` with its status;
      `fail(method, path_glob, status)` injects Discord's JSON error; unknown routes get a JSON 404.
    - Gateway at `gateway_url`: HELLO, IDENTIFY -> READY + GUILD_CREATEs, heartbeat ACKs, RESUME with
      replay (or INVALID_SESSION), close 4014 for privileged intents not in `privileged_intents`;
      zlib-stream compression when asked for. No member chunking: leave the members intent off.
      An IDENTIFY with `shard: [id, count]` gets only the guilds of that shard, and a guild's later
      events go to the session of its shard, as Discord routes them.
      `dispatch(event, data)` pushes an event, `close_session(code)` drops the connection (of one
      guild's shard with `guild_id=`, as do `wait_ready` and `sync`);
      `connections` and `gateway_received` record the client's side.
    - `wait_ready()` and `sync()` resolve once the client has *parsed* everything sent so far;
      `wait_for(predicate)` resolves on recorded traffic. No polling or sleeps.
    """

    def __init__(self, *, token: str = "fake-token", bot_name: str = "memorybot", patch: bool = True) -> None:
        super().__init__()
        self.token = token
        # The privileged intents enabled in the "developer portal"; others are refused with close code 4014.
        self.privileged_intents = PRIVILEGED_INTENTS
        self.application_id = snowflake()
        # A bot user's id is its application's id.
        self.bot_user = user(bot_name, user_id=self.application_id, bot=True)
        self.guilds: dict[str, Payload] = {}
        self.channels: dict[str, Payload] = {}
        self.messages: dict[str, Payload] = {}
        self.interactions: dict[str, Payload] = {}
        self.commands: dict[str | None, list[Payload]] = {}
        self.requests: list[RestCall] = []
        self.gateway_received: list[Payload] = []
        self.connections: list[GatewayConnection] = []
        self.identifies = self.resumes = self.invalid_sessions = 0
        self._sessions: list[_Session] = []
        self._failures: list[_Failure] = []
        self._acknowledged: set[str] = set()
        self._originals: dict[str, str] = {}  # interaction token -> its @original message id
        self._patch = contextlib.ExitStack() if patch else None

    # --- set-up ------------------------------------------------------------------------------------

    @property
    def api_url(self) -> str:
        """What `discord.http.Route.BASE` becomes."""
        return self.url + API_PREFIX

    @property
    def gateway_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/gateway"

    def add_guild(self, data: Payload) -> Payload:
        """Register a guild for the next IDENTIFY, with the bot as a member so `guild.me` works."""
        members = data.setdefault("members", [])
        if all(m["user"]["id"] != self.bot_user["id"] for m in members):
            members.append(member(self.bot_user))
        data["member_count"] = len(members)
        self.guilds[data["id"]] = data
        for channel in [*data.get("channels", []), *data.get("threads", [])]:
            self.channels[channel["id"]] = channel | {"guild_id": data["id"]}
        return data

    def add_channel(self, data: Payload) -> Payload:
        self.channels[data["id"]] = data
        return data

    def fail(
        self,
        method: str,
        path: str,
        status: int = 403,
        *,
        code: int = 50013,
        message: str = "Missing Permissions",
        times: int | None = None,
    ) -> None:
        """Answer `method path` (a glob after /api/v10, e.g. "/channels/*/messages") with a Discord error.

        Use 4xx: discord.py retries 5xx and 429 after real sleeps. `times=None` fails every time.
        """
        self._failures.append(
            _Failure(method.upper(), path, {"message": message, "code": code}, status, times)
        )

    def build_app(self) -> web.Application:
        app = web.Application()
        routes: list[tuple[str, str, Handler]] = [
            ("GET", "/users/@me", self._get_me),
            ("GET", "/oauth2/applications/@me", self._get_application),
            ("GET", "/applications/@me", self._get_application),
            ("GET", "/gateway", self._get_gateway),
            ("GET", "/gateway/bot", self._get_gateway),
            ("GET", "/channels/{channel_id}", self._get_channel),
            ("POST", "/channels/{channel_id}/messages", self._post_message),
            ("POST", "/channels/{channel_id}/typing", self._post_typing),
            ("POST", "/interactions/{interaction_id}/{token}/callback", self._post_callback),
            ("POST", "/webhooks/{application_id}/{token}", self._post_followup),
            ("*", "/webhooks/{application_id}/{token}/messages/{message_id}", self._webhook_message),
            ("*", "/applications/{application_id}/commands", self._commands),
            ("*", "/applications/{application_id}/guilds/{guild_id}/commands", self._commands),
            ("*", "/{tail:.*}", self._unknown),  # last: the router tries routes in order
        ]
        for method, path, handler in routes:
            app.router.add_route(method, API_PREFIX + path, self._endpoint(handler))
        app.router.add_get("/gateway", self._gateway)
        return app

    async def start(self) -> None:
        await super().start()
        if self._patch is not None:
            self._patch.enter_context(discord_py_pointed_at(self))

    async def stop(self) -> None:
        if self._patch is not None:
            self._patch.close()
        for connection in self.connections:
            await connection.ws.close()
        await super().stop()

    # --- inspection --------------------------------------------------------------------------------

    def requests_to(self, method: str, path: str) -> list[RestCall]:
        """The recorded requests for `method` whose path matches the glob `path` (after /api/v10)."""
        return [c for c in self.requests if c.method == method.upper() and fnmatch.fnmatchcase(c.path, path)]

    def sent_messages(self, channel_id: str = "*") -> list[Payload]:
        """The body of every message the client posted to a channel and the fake accepted, in order."""
        return [
            c.json for c in self.requests_to("POST", f"/channels/{channel_id}/messages") if c.status == 200
        ]

    def callbacks(self) -> list[Payload]:
        """The body of every interaction callback: type 4 message, 5 deferred, 6/7 component update..."""
        return [c.json for c in self.requests_to("POST", "/interactions/*/callback")]

    def followups(self) -> list[Payload]:
        """The body of every interaction follow-up message (POST /webhooks/{app}/{token})."""
        return [c.json for c in self.requests_to("POST", "/webhooks/*") if c.path.count("/") == 3]

    # --- gateway -----------------------------------------------------------------------------------

    def _session(self, guild_id: str | None = None, *, dm: bool = False) -> _Session | None:
        """The latest session that can still be resumed (with `guild_id`, one of the guild's shard;
        with `dm`, one that gets DMs: shard 0's)."""
        return next(
            (
                s
                for s in reversed(self._sessions)
                if not s.invalid and (s.serves(guild_id) if guild_id is not None or dm else True)
            ),
            None,
        )

    def _live(self, guild_id: str | None = None) -> _Session:
        session = self._session(guild_id)
        if session is None or session.connection is None or not session.ready:
            raise RuntimeError("no discord.py client is connected to the fake gateway")
        return session

    async def wait_ready(self, guild_id: str | None = None) -> None:
        """Resolve once a client has identified and parsed READY and every GUILD_CREATE (on the
        session of `guild_id`'s shard, when given: a process running several shards has one each)."""
        await self.wait_for(
            lambda: (s := self._session(guild_id)) is not None and s.ready and s.connection is not None
        )
        await self.sync(guild_id)

    async def sync(self, guild_id: str | None = None) -> None:
        """Resolve once the client has parsed every dispatch sent so far (on the session of
        `guild_id`'s shard, when given).

        The barrier is a HEARTBEAT request (op 1): discord.py handles frames in order and answers with
        the last sequence it has seen, so the answer comes after everything before it was parsed.
        """
        session = self._live(guild_id)
        target = session.seq
        assert session.connection is not None
        await session.connection.send({"op": 1, "d": None})
        await self.wait_for(lambda: session.heartbeat_seq >= target)

    async def dispatch(self, event: str, data: Any, *, observe: bool = True) -> int:
        """Send a DISPATCH (op 0) event and return its sequence; kept for replay if the client is away.

        `observe=False` sends it without updating the fake's state: for payloads not as documented.
        A guild's event goes to the session of its shard, any other (a DM's) to shard 0's, as
        Discord routes them.
        """
        guild_id = data.get("guild_id") if isinstance(data, dict) else None
        session = self._session(str(guild_id) if guild_id is not None else None, dm=True)
        if session is None:
            raise RuntimeError("no gateway session to dispatch to")
        if observe:
            self._observe(event, data)
        return await self._send_dispatch(session, event, data)

    async def send_raw(self, raw: str) -> None:
        """Push one raw frame (not a sequenced dispatch, so never replayed) on the live connection."""
        connection = self._live().connection
        assert connection is not None
        await connection.send_raw(raw)

    async def close_session(
        self, code: int = 4000, *, invalidate: bool = False, guild_id: str | None = None
    ) -> None:
        """Drop the client's connection with `code`; discord.py resumes after 4000-4003 and 4005-4009.

        With `invalidate` (implied by 4007 and 4009) the RESUME gets INVALID_SESSION and it re-identifies.
        With `guild_id`, the connection dropped is that of the guild's shard; the others stay up.
        """
        session = self._live(guild_id)
        connection, session.connection = session.connection, None
        session.invalid = invalidate or code in (4007, 4009)
        assert connection is not None
        await connection.ws.close(code=code, message=b"closed by the fake")
        self._notify()

    async def _send_dispatch(self, session: _Session, event: str, data: Payload) -> int:
        async with session.lock:
            session.seq += 1
            frame = {"op": 0, "t": event, "s": session.seq, "d": data}
            session.frames.append(frame)
            if session.connection is not None:
                await session.connection.send(frame)
            return session.seq

    def _observe(self, event: str, data: Payload) -> None:
        """Keep what REST answers from in step with what the client was told."""
        if event == "MESSAGE_CREATE":
            self.messages[data["id"]] = data
            if "guild_id" not in data and data["channel_id"] not in self.channels:
                self.add_channel(dm_channel(data["author"], channel_id=data["channel_id"]))
        elif event in ("CHANNEL_CREATE", "CHANNEL_UPDATE", "THREAD_CREATE", "THREAD_UPDATE"):
            channel = {k: v for k, v in data.items() if k != "newly_created"}
            self.channels[channel["id"]] = channel
            guild_data = self.guilds.get(channel.get("guild_id", ""))
            if guild_data is not None:  # so that a later IDENTIFY's GUILD_CREATE has it too
                key = "threads" if event.startswith("THREAD") else "channels"
                guild_data[key] = [c for c in guild_data[key] if c["id"] != channel["id"]] + [channel]
        elif event == "INTERACTION_CREATE":
            self.interactions[data["id"]] = data
        elif event == "GUILD_CREATE":
            self.add_guild(data)

    async def _gateway(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse()
        await ws.prepare(request)
        connection = GatewayConnection(ws, dict(request.query))
        self.connections.append(connection)
        await connection.send({"op": 10, "d": {"heartbeat_interval": HEARTBEAT_INTERVAL_MS}})
        session: _Session | None = None
        async for frame in ws:
            if frame.type not in (WSMsgType.TEXT, WSMsgType.BINARY):
                continue
            payload = json.loads(frame.data)
            self.gateway_received.append(payload)
            op, data = payload.get("op"), payload.get("d")
            if op == 1:  # HEARTBEAT
                if session is not None and isinstance(data, int):
                    session.heartbeat_seq = max(session.heartbeat_seq, data)
                await connection.send({"op": 11})
            elif op == 2:  # IDENTIFY
                session = await self._identify(connection, data)
            elif op == 6:  # RESUME
                session = await self._resume(connection, data)
            self._notify()
        if session is not None and session.connection is connection:
            session.connection = None
        self._notify()
        return ws

    async def _identify(self, connection: GatewayConnection, data: Payload) -> _Session | None:
        if data.get("token") != self.token:
            await connection.ws.close(code=4004, message=b"Authentication failed.")
            return None
        if data.get("intents", 0) & PRIVILEGED_INTENTS & ~self.privileged_intents:
            await connection.ws.close(code=4014, message=b"Disallowed intent(s).")
            return None
        self.identifies += 1
        shard = data.get("shard")
        session = _Session(
            uuid.uuid4().hex, connection, shard=(int(shard[0]), int(shard[1])) if shard else None
        )
        self._sessions.append(session)
        guilds = [g for g in self.guilds.values() if session.serves(g["id"])]
        ready: Payload = {
            "v": 10,
            "user": self.bot_user | {"verified": True, "mfa_enabled": False},
            "guilds": [{"id": g["id"], "unavailable": True} for g in guilds],
            "session_id": session.session_id,
            "session_type": "normal",
            "resume_gateway_url": self.gateway_url,
            "application": {"id": self.application_id, "flags": APPLICATION_FLAGS},
            "private_channels": [],
            "relationships": [],
            "presences": [],
            "_trace": ['["fake-gateway",{}]'],
        }
        if "shard" in data:
            ready["shard"] = data["shard"]
        await self._send_dispatch(session, "READY", ready)
        for guild_data in guilds:
            await self._send_dispatch(session, "GUILD_CREATE", guild_data)
        session.ready = True
        return session

    async def _resume(self, connection: GatewayConnection, data: Payload) -> _Session | None:
        session = next((s for s in self._sessions if s.session_id == data.get("session_id")), None)
        if session is None or session.invalid or data.get("token") != self.token:
            self.invalid_sessions += 1
            await connection.send({"op": 9, "d": False})  # not resumable: identify again
            return None
        async with session.lock:
            session.connection = connection
            for frame in session.frames:
                if frame["s"] > (data.get("seq") or 0):
                    await connection.send(frame)
        self.resumes += 1
        await self._send_dispatch(session, "RESUMED", {"_trace": ['["fake-gateway",{}]']})
        return session

    # --- REST plumbing -----------------------------------------------------------------------------

    def _endpoint(self, handler: Handler) -> Callable[[web.Request], Awaitable[web.Response]]:
        """Parse and record the request; answer with an injected failure, a 401, or the handler."""

        async def endpoint(request: web.Request) -> web.Response:
            call = await self._parse(request)
            try:
                response = (
                    self._injected_failure(call) or self._unauthorized(call) or await handler(request, call)
                )
            except (KeyError, TypeError, ValueError) as exc:
                # A body the fake cannot read gets a 400: a 500 would make discord.py retry after sleeps.
                response = _error(400, 50109, f"The request body contains invalid JSON. ({exc!r})")
            call.status = response.status
            self.requests.append(call)
            self._notify()
            return response

        return endpoint

    async def _parse(self, request: web.Request) -> RestCall:
        body: Any = None
        files: list[UploadedFile] = []
        if request.content_type.startswith("multipart/"):
            async for part in await request.multipart():
                if not isinstance(part, BodyPartReader):
                    continue
                data = bytes(await part.read())
                if part.name == "payload_json":
                    body = json.loads(data)
                else:
                    content_type = part.headers.get("Content-Type", "application/octet-stream")
                    files.append(UploadedFile(part.name or "", part.filename or "", content_type, data))
        elif request.body_exists:
            raw = await request.read()
            body = json.loads(raw) if "json" in request.content_type else raw.decode()
        path = request.path.removeprefix(API_PREFIX)
        return RestCall(request.method, path, dict(request.query), body, files, dict(request.headers))

    def _injected_failure(self, call: RestCall) -> web.Response | None:
        for failure in self._failures:
            if failure.method == call.method and fnmatch.fnmatchcase(call.path, failure.pattern):
                if failure.times is not None:
                    failure.times -= 1
                    if failure.times <= 0:
                        self._failures.remove(failure)
                return _json(failure.response, failure.status)
        return None

    def _unauthorized(self, call: RestCall) -> web.Response | None:
        # Interaction callbacks and webhooks are authorised by the token in their path, not a header.
        if call.path.startswith(("/webhooks/", "/interactions/")):
            return None
        if call.headers.get("Authorization") != f"Bot {self.token}":
            return _error(401, 0, "401: Unauthorized")
        return None

    def _invalid(
        self, body: Payload, files: list[UploadedFile], *, edit: bool = False
    ) -> web.Response | None:
        """Discord's checks on a message body: at most 2000 characters, and something to send."""
        if len(body.get("content") or "") > MAX_CONTENT:
            return _form_error(
                "content", "BASE_TYPE_MAX_LENGTH", f"Must be {MAX_CONTENT} or fewer in length."
            )
        parts = ("content", "embeds", "components", "sticker_ids", "poll", "attachments")
        if not edit and not files and not any(body.get(k) for k in parts):
            return _error(400, 50006, "Cannot send an empty message")
        return None

    def _new_message(
        self, channel_id: str, body: Payload, files: list[UploadedFile], **extra: Any
    ) -> Payload:
        data = message({"id": channel_id}, self.bot_user, body.get("content") or "")
        data |= {
            "embeds": body.get("embeds") or [],
            "components": body.get("components") or [],
            "flags": int(body.get("flags") or 0),
            "tts": bool(body.get("tts")),
            "attachments": [
                attachment(f.filename, size=len(f.data), content_type=f.content_type) for f in files
            ],
            **extra,
        }
        self.messages[data["id"]] = data
        return data

    def _interaction_for(self, request: web.Request) -> Payload | None:
        """The acknowledged interaction a webhook token belongs to (follow-ups need the response first)."""
        token, application_id = request.match_info["token"], request.match_info["application_id"]
        found = next((i for i in self.interactions.values() if i["token"] == token), None)
        if (
            found is None
            or found["id"] not in self._acknowledged
            or found["application_id"] != application_id
        ):
            return None
        return found

    # --- REST handlers -------------------------------------------------------------------------------

    async def _unknown(self, request: web.Request, call: RestCall) -> web.Response:
        return _error(404, 0, "404: Not Found")

    async def _get_me(self, request: web.Request, call: RestCall) -> web.Response:
        return _json(self.bot_user | {"verified": True, "mfa_enabled": False, "locale": "en-US"})

    async def _get_application(self, request: web.Request, call: RestCall) -> web.Response:
        app = {"id": self.application_id, "name": self.bot_user["username"], "icon": None, "description": ""}
        app |= {"bot_public": True, "bot_require_code_grant": False, "verify_key": "0" * 64, "team": None}
        app |= {"owner": user("owner"), "bot": self.bot_user, "flags": APPLICATION_FLAGS}
        # No interactions endpoint URL: interactions come over the gateway.
        return _json(app | {"interactions_endpoint_url": None, "integration_types_config": {"0": {}}})

    async def _get_gateway(self, request: web.Request, call: RestCall) -> web.Response:
        limit = {"total": 1000, "remaining": 999, "reset_after": 14_400_000, "max_concurrency": 1}
        return _json({"url": self.gateway_url, "shards": 1, "session_start_limit": limit})

    async def _get_channel(self, request: web.Request, call: RestCall) -> web.Response:
        channel = self.channels.get(request.match_info["channel_id"])
        return _json(channel) if channel is not None else _error(404, 10003, "Unknown Channel")

    async def _post_typing(self, request: web.Request, call: RestCall) -> web.Response:
        if request.match_info["channel_id"] not in self.channels:
            return _error(404, 10003, "Unknown Channel")
        return web.Response(status=204)

    async def _post_message(self, request: web.Request, call: RestCall) -> web.Response:
        channel_id, body = request.match_info["channel_id"], call.json or {}
        if channel_id not in self.channels:
            return _error(404, 10003, "Unknown Channel")
        if (invalid := self._invalid(body, call.files)) is not None:
            return invalid
        extra: Payload = {}
        if reference := body.get("message_reference"):
            referenced = self.messages.get(str(reference.get("message_id")))
            if referenced is None and reference.get("fail_if_not_exists", True):
                return _form_error(
                    "message_reference", "MESSAGE_REFERENCE_UNKNOWN_MESSAGE", "Unknown message"
                )
            # discord.py sends ids as ints; Discord echoes snowflakes as strings.
            reference = {"type": 0} | {k: str(v) if k.endswith("_id") else v for k, v in reference.items()}
            extra = {"type": 19, "message_reference": reference, "referenced_message": referenced}
        return _json(self._new_message(channel_id, body, call.files, **extra))

    async def _post_callback(self, request: web.Request, call: RestCall) -> web.Response:
        interaction = self.interactions.get(request.match_info["interaction_id"])
        if interaction is None or interaction["token"] != request.match_info["token"]:
            return _error(404, 10062, "Unknown interaction")
        if interaction["id"] in self._acknowledged:
            return _error(400, 40060, "Interaction has already been acknowledged.")
        body = call.json or {}
        kind, data = body.get("type"), body.get("data") or {}
        if kind == 4 and (invalid := self._invalid(data, call.files)) is not None:
            return invalid
        self._acknowledged.add(interaction["id"])
        flags = int(data.get("flags") or 0)
        answer: Payload = {"id": interaction["id"], "type": interaction["type"]}
        answer |= {
            "response_message_loading": kind == 5,
            "response_message_ephemeral": bool(flags & EPHEMERAL),
        }
        result: Payload = {"interaction": answer}
        if kind in (4, 5):  # a new message, "thinking..." while deferred
            data = data | {"flags": flags | (LOADING if kind == 5 else 0)}
            reply = self._new_message(
                interaction["channel_id"], data, call.files, webhook_id=self.application_id
            )
            self._originals[interaction["token"]] = answer["response_message_id"] = reply["id"]
            result["resource"] = {"type": kind, "message": reply}
        elif kind in (6, 7) and "message" in interaction:
            # A component interaction's @original is the message the component is on.
            original = self.messages.setdefault(interaction["message"]["id"], interaction["message"])
            self._originals[interaction["token"]] = original["id"]
            if kind == 7:
                original |= {k: v for k, v in data.items() if k in ("content", "embeds", "components")}
                result["resource"] = {"type": 7, "message": original}
        if call.query.get("with_response") not in ("1", "true", "True"):
            return web.Response(status=204)
        return _json(result)

    async def _post_followup(self, request: web.Request, call: RestCall) -> web.Response:
        interaction, body = self._interaction_for(request), call.json or {}
        if interaction is None:
            return _error(404, 10015, "Unknown Webhook")
        if (invalid := self._invalid(body, call.files)) is not None:
            return invalid
        reply = self._new_message(interaction["channel_id"], body, call.files, webhook_id=self.application_id)
        return _json(reply) if call.query.get("wait") in ("1", "true", "True") else web.Response(status=204)

    async def _webhook_message(self, request: web.Request, call: RestCall) -> web.Response:
        interaction = self._interaction_for(request)
        if interaction is None:
            return _error(404, 10015, "Unknown Webhook")
        message_id = request.match_info["message_id"]
        if message_id == "@original":
            message_id = self._originals.get(interaction["token"], "")
        found = self.messages.get(message_id)
        if found is None:
            return _error(404, 10008, "Unknown Message")
        if call.method == "DELETE":
            del self.messages[message_id]
            return web.Response(status=204)
        if call.method == "PATCH":
            body = call.json or {}
            if (invalid := self._invalid(body, call.files, edit=True)) is not None:
                return invalid
            found |= {k: body[k] for k in ("content", "embeds", "components") if k in body}
            # Editing a deferred response replaces its "thinking..." state.
            found |= {"flags": int(found.get("flags") or 0) & ~LOADING, "edited_timestamp": iso_now()}
            if call.files:
                found["attachments"] = [attachment(f.filename, size=len(f.data)) for f in call.files]
        elif call.method != "GET":
            return _error(405, 0, "405: Method Not Allowed")
        return _json(found)

    async def _commands(self, request: web.Request, call: RestCall) -> web.Response:
        if request.match_info["application_id"] != self.application_id:
            return _error(403, 20012, "You are not authorized to perform this action on this application")
        guild_id = request.match_info.get("guild_id")
        if call.method == "PUT":  # bulk overwrite: echo the commands back with ids, as Discord does
            defaults = {"type": 1, "description": "", "options": [], "default_member_permissions": None}
            ids = {"application_id": self.application_id} | ({"guild_id": guild_id} if guild_id else {})
            self.commands[guild_id] = [
                defaults | command | ids | {"id": snowflake(), "version": snowflake()}
                for command in call.json or []
            ]
        elif call.method != "GET":
            return _error(405, 0, "405: Method Not Allowed")
        return _json(self.commands.get(guild_id, []))


@contextlib.contextmanager
def discord_py_pointed_at(fake: FakeDiscord) -> Iterator[None]:
    """Point discord.py's REST base and default gateway at `fake`; restore both on exit.

    A plain Client never asks /gateway/bot: it connects to `DiscordWebSocket.DEFAULT_GATEWAY`, then
    resumes at READY's `resume_gateway_url`. So the default gateway is patched along with `Route.BASE`.
    """
    base, gateway = Route.BASE, DiscordWebSocket.DEFAULT_GATEWAY
    Route.BASE, DiscordWebSocket.DEFAULT_GATEWAY = fake.api_url, yarl.URL(fake.gateway_url)
    try:
        yield
    finally:
        Route.BASE, DiscordWebSocket.DEFAULT_GATEWAY = base, gateway


@contextlib.asynccontextmanager
async def running_client(
    fake: FakeDiscord, client: discord.Client, *, token: str | None = None
) -> AsyncIterator[discord.Client]:
    """Run `client.start()` against `fake` until READY is parsed and `on_ready` fired; close it on exit.

    Build the client with `guild_ready_timeout=0`, or discord.py waits two idle seconds after the last
    GUILD_CREATE before `on_ready` (the guilds are parsed either way: `fake.wait_ready()` sees to it).
    A start-up error (LoginFailure for a wrong token...) is raised here.
    """
    task = asyncio.create_task(client.start(token or fake.token), name="discord-client")
    try:
        ready = asyncio.create_task(fake.wait_ready())
        await asyncio.wait({task, ready}, return_when=asyncio.FIRST_COMPLETED)
        if not ready.done():
            ready.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await ready
            task.result()
            raise RuntimeError("the discord.py client stopped before READY")
        ready.result()
        async with asyncio.timeout(WAIT_LIMIT_SECONDS):
            await client.wait_until_ready()
        yield client
    finally:
        await client.close()
        if not task.done():
            async with asyncio.timeout(WAIT_LIMIT_SECONDS):
                await task
        elif not task.cancelled():
            task.exception()  # retrieved, so asyncio does not also log it as never retrieved


# --- a guild for a test module's fixture ----------------------------------------------------------


@dataclass
class Acme:
    """The guild "Acme" on `fake`, as `add_acme` adds it: its #general, Alice, and its owner `admin`,
    who holds its admin role. A test module's world subclasses it with its own channels and people."""

    fake: FakeDiscord
    guild: Payload
    general: Payload
    alice: Payload
    admin: Payload
    admin_role: Payload


def add_acme(
    fake: FakeDiscord,
    guild_id: str,
    admin: Payload,
    people: Sequence[Payload],
    *,
    channels: Sequence[Payload],
    threads: Sequence[Payload],
) -> tuple[Payload, Payload]:
    """Add the guild "Acme" to `fake`, owned by `admin`, who holds its admin role (manage guild) and
    is a member along with `people`; returns the guild and that role."""
    admin_role = role(snowflake(), "admin", MANAGE_GUILD)
    members = [*(member(person) for person in people), member(admin, roles=[admin_role["id"]])]
    data = guild(
        guild_id,
        "Acme",
        owner_id=admin["id"],
        channels=channels,
        threads=threads,
        members=members,
        roles=[admin_role],
    )
    return fake.add_guild(data), admin_role
