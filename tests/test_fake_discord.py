"""The Discord fake speaks the wire protocol plain discord.py expects: REST, gateway, interactions."""

from __future__ import annotations

import asyncio
import io
from collections.abc import AsyncIterator
from dataclasses import dataclass

import discord
import pytest
from discord import app_commands

from tests.fakes import discord_api as fd
from tests.fakes.discord_api import FakeDiscord, Payload, running_client


@dataclass
class World(fd.Acme):
    """Acme with a hidden channel that Alice may see, and a public thread in #general."""

    secret: Payload
    public_thread: Payload


@pytest.fixture
async def world() -> AsyncIterator[World]:
    async with FakeDiscord() as fake:
        guild_id = fd.snowflake()
        alice, admin = fd.user("alice"), fd.user("root")
        general = fd.text_channel(guild_id, "general")
        hidden = fd.overwrite(guild_id, deny=fd.VIEW_CHANNEL)
        member_sees = fd.overwrite(alice["id"], member=True, allow=fd.VIEW_CHANNEL)
        secret = fd.text_channel(guild_id, "secret", position=1, overwrites=[hidden, member_sees])
        public_thread = fd.thread(general, "ideas", owner_id=alice["id"])
        guild, admin_role = fd.add_acme(
            fake, guild_id, admin, [alice], channels=[general, secret], threads=[public_thread]
        )
        yield World(fake, guild, general, alice, admin, admin_role, secret, public_thread)


class Client(discord.Client):
    """A plain client (default intents and message content) whose on_message hands messages over by id."""

    def __init__(self) -> None:
        intents = discord.Intents.default()
        intents.message_content = True
        super().__init__(intents=intents, guild_ready_timeout=0)
        self.inbox: dict[int, asyncio.Future[discord.Message]] = {}

    def expect(self, message_id: int) -> asyncio.Future[discord.Message]:
        return self.inbox.setdefault(message_id, asyncio.get_running_loop().create_future())

    async def on_message(self, message: discord.Message) -> None:
        self.expect(message.id).set_result(message)

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        # discord.py sleeps 5 s before every IDENTIFY but the first (Discord's identify rate limit).
        return None


def new_client() -> Client:
    return Client()


async def received(client: Client, fake: FakeDiscord, data: Payload) -> discord.Message:
    """Dispatch MESSAGE_CREATE and return the discord.Message that on_message got for it."""
    await fake.dispatch("MESSAGE_CREATE", data)
    return await asyncio.wait_for(client.expect(int(data["id"])), fd.WAIT_LIMIT_SECONDS)


async def test_login_identify_and_guild_state(world: World) -> None:
    fake = world.fake
    async with running_client(fake, new_client()) as client:
        assert client.user is not None and client.user.id == int(fake.bot_user["id"])
        assert client.application_id == int(fake.application_id)
        startup = [(c.method, c.path) for c in fake.requests]
        assert startup == [("GET", "/users/@me"), ("GET", "/oauth2/applications/@me")]
        assert fake.requests[0].headers["Authorization"] == "Bot fake-token"
        assert fake.connections[0].query["compress"] == "zlib-stream"
        identify = next(p for p in fake.gateway_received if p["op"] == 2)
        assert identify["d"]["token"] == "fake-token"
        assert identify["d"]["intents"] & discord.Intents.message_content.flag

        guild = client.get_guild(int(world.guild["id"]))
        assert guild is not None and guild.name == "Acme" and guild.member_count == 3
        assert guild.default_role.id == guild.id
        assert guild.me is not None and guild.me.id == client.user.id
        general = guild.get_channel(int(world.general["id"]))
        secret = guild.get_channel(int(world.secret["id"]))
        assert isinstance(general, discord.TextChannel) and isinstance(secret, discord.TextChannel)
        assert general.permissions_for(guild.default_role).view_channel is True
        assert secret.permissions_for(guild.default_role).view_channel is False
        assert secret.overwrites[guild.default_role].view_channel is False
        # Without the members intent only the bot's member is cached, as on Discord.
        assert [m.id for m in guild.members] == [client.user.id]
        assert secret.overwrites_for(discord.Object(int(world.alice["id"]))).view_channel is True
        admin_role = guild.get_role(int(world.admin_role["id"]))
        assert admin_role is not None and admin_role.permissions.manage_guild is True
        thread = guild.get_channel_or_thread(int(world.public_thread["id"]))
        assert isinstance(thread, discord.Thread) and thread.parent == general


async def test_wrong_token_is_a_login_failure(world: World) -> None:
    with pytest.raises(discord.LoginFailure):
        async with running_client(world.fake, new_client(), token="not-the-token"):
            pass
    assert world.fake.requests[0].status == 401
    assert world.fake.identifies == 0


async def test_a_privileged_intent_not_enabled_is_refused(world: World) -> None:
    world.fake.privileged_intents &= ~discord.Intents.message_content.flag
    with pytest.raises(discord.PrivilegedIntentsRequired):
        async with running_client(world.fake, new_client()):
            pass
    assert world.fake.identifies == 0


async def test_messages_reach_on_message_with_the_right_channel_types(world: World) -> None:
    fake = world.fake
    async with running_client(fake, new_client()) as client:
        in_guild = await received(client, fake, fd.message(world.general, world.alice, "hello guild"))
        assert isinstance(in_guild.channel, discord.TextChannel)
        assert in_guild.content == "hello guild" and in_guild.guild is not None
        assert isinstance(in_guild.author, discord.Member)

        dm = fd.dm_channel(world.alice)
        in_dm = await received(client, fake, fd.message(dm, world.alice, "hello dm"))
        assert isinstance(in_dm.channel, discord.DMChannel) and in_dm.guild is None
        assert in_dm.author.id == int(world.alice["id"])

        in_public = await received(client, fake, fd.message(world.public_thread, world.alice, "in a thread"))
        assert isinstance(in_public.channel, discord.Thread)
        assert in_public.channel.type is discord.ChannelType.public_thread
        assert in_public.channel.parent_id == int(world.general["id"])

        private = fd.thread(world.general, "secret plans", owner_id=world.alice["id"], private=True)
        joined = client.wait_for("thread_create", check=lambda t: t.id == int(private["id"]))
        await fake.dispatch("THREAD_CREATE", fd.thread_create(private))
        await asyncio.wait_for(joined, fd.WAIT_LIMIT_SECONDS)
        in_private = await received(client, fake, fd.message(private, world.alice, "psst"))
        assert isinstance(in_private.channel, discord.Thread)
        assert in_private.channel.type is discord.ChannelType.private_thread
        assert in_private.channel.parent is not None and in_private.channel.parent.name == "general"


async def test_replies_are_recorded_and_parsed_back(world: World) -> None:
    fake = world.fake
    async with running_client(fake, new_client()) as client:
        for channel in (world.public_thread, fd.dm_channel(world.alice)):
            incoming = await received(client, fake, fd.message(channel, world.alice, "remember me"))
            async with incoming.channel.typing():
                sent = await incoming.channel.send("noted", reference=incoming)
            assert sent.content == "noted" and sent.author.id == client.user.id  # type: ignore[union-attr]
            assert sent.reference is not None and sent.reference.message_id == incoming.id
            [posted] = fake.sent_messages(channel["id"])
            assert posted["content"] == "noted"
            assert int(posted["message_reference"]["message_id"]) == incoming.id
            assert fake.requests_to("POST", f"/channels/{channel['id']}/typing")[0].status == 204


async def test_rest_failures_and_discord_validation(world: World) -> None:
    fake = world.fake
    fake.fail("POST", f"/channels/{world.secret['id']}/messages", 403)
    async with running_client(fake, new_client()) as client:
        secret = client.get_channel(int(world.secret["id"]))
        assert isinstance(secret, discord.TextChannel)
        with pytest.raises(discord.Forbidden) as forbidden:
            await secret.send("leak")
        assert forbidden.value.code == 50013
        general = client.get_channel(int(world.general["id"]))
        assert isinstance(general, discord.TextChannel)
        with pytest.raises(discord.HTTPException) as too_long:
            await general.send("x" * 2001)
        assert too_long.value.status == 400 and too_long.value.code == 50035
        with pytest.raises(discord.NotFound):
            await client.fetch_channel(12345)
        fetched = await client.fetch_channel(int(world.public_thread["id"]))
        assert isinstance(fetched, discord.Thread) and fetched.name == "ideas"
    assert [c.status for c in fake.requests_to("POST", "/channels/*/messages")] == [403, 400]
    assert fake.sent_messages() == []


def memory_tree(client: discord.Client, seen: list[discord.WebhookMessage]) -> app_commands.CommandTree:
    tree = app_commands.CommandTree(client)
    memory = app_commands.Group(name="memory", description="What the bot remembers")

    @memory.command(name="list", description="List memories")
    async def list_(interaction: discord.Interaction, limit: int = 10) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        export = discord.File(io.BytesIO(b"kim is the cto\n"), "memories.txt")
        embed = discord.Embed(title="Memories")
        seen.append(
            await interaction.followup.send(f"{limit} memories", embed=embed, file=export, ephemeral=True)
        )

    tree.add_command(memory)
    return tree


async def test_slash_command_interaction_defer_and_followup(world: World) -> None:
    fake = world.fake
    seen: list[discord.WebhookMessage] = []
    client = new_client()
    tree = memory_tree(client, seen)
    async with running_client(fake, client):
        synced = await tree.sync()
        assert [c.name for c in synced] == ["memory"]
        assert [o.name for o in synced[0].options] == ["list"]
        assert fake.commands[None][0]["name"] == "memory"

        interaction = fd.command_interaction(
            "memory",
            subcommand="list",
            options=[fd.option("limit", 3, type=4)],
            command_id=str(synced[0].id),
            user_data=world.admin,
            channel=world.public_thread,
            permissions=fd.EVERYONE_PERMISSIONS | fd.MANAGE_GUILD,
            application_id=fake.application_id,
        )
        # discord.py fires app_command_completion once the callback has returned without error.
        completed = client.wait_for("app_command_completion")
        await fake.dispatch("INTERACTION_CREATE", interaction)
        got, command = await asyncio.wait_for(completed, fd.WAIT_LIMIT_SECONDS)

    [callback] = fake.callbacks()
    assert callback["type"] == 5 and callback["data"]["flags"] & fd.EPHEMERAL
    [call] = fake.requests_to("POST", "/interactions/*/callback")
    assert call.status == 200 and call.query["with_response"] == "1"
    [followup] = fake.requests_to("POST", "/webhooks/*")
    assert followup.query["wait"] == "1" and followup.headers["Content-Type"].startswith("multipart/")
    assert followup.json["content"] == "3 memories" and followup.json["flags"] & fd.EPHEMERAL
    assert followup.json["embeds"][0]["title"] == "Memories" and fake.followups() == [followup.json]
    assert [(f.filename, f.data) for f in followup.files] == [("memories.txt", b"kim is the cto\n")]
    [reply] = seen
    assert reply.attachments[0].filename == "memories.txt" and reply.flags.ephemeral
    assert command.qualified_name == "memory list"
    assert isinstance(got.channel, discord.Thread) and got.channel.id == int(world.public_thread["id"])
    assert got.permissions.manage_guild is True


async def test_button_clicks_on_a_sent_view(world: World) -> None:
    fake = world.fake

    class Pager(discord.ui.View):
        @discord.ui.button(label="Next", custom_id="pager:next")
        async def next_page(self, interaction: discord.Interaction, button: discord.ui.Button[Pager]) -> None:
            await interaction.response.defer()  # type 6, then PATCH @original: the message clicked on
            await interaction.edit_original_response(content="page 2")

        @discord.ui.button(label="Close", custom_id="pager:close")
        async def close(self, interaction: discord.Interaction, button: discord.ui.Button[Pager]) -> None:
            await interaction.response.edit_message(content="closed", view=None)  # type 7

    async with running_client(fake, new_client()) as client:
        general = client.get_channel(int(world.general["id"]))
        assert isinstance(general, discord.TextChannel)
        sent = await general.send("page 1", view=Pager(timeout=None))
        stored = fake.messages[str(sent.id)]
        assert [b["custom_id"] for b in stored["components"][0]["components"]] == [
            "pager:next",
            "pager:close",
        ]
        # Next answers with a callback then an edit, Close with its callback alone.
        answered = {
            "pager:next": lambda: len(fake.requests_to("PATCH", "/webhooks/*")) == 1,
            "pager:close": lambda: len(fake.callbacks()) == 2,
        }
        for custom_id, done in answered.items():
            click = fd.component_interaction(
                custom_id,
                message_data=dict(stored),
                user_data=world.alice,
                channel=world.general,
                application_id=fake.application_id,
            )
            await fake.dispatch("INTERACTION_CREATE", click)
            await fake.wait_for(done)
    assert [c["type"] for c in fake.callbacks()] == [6, 7]
    [edit] = fake.requests_to("PATCH", "/webhooks/*/messages/@original")
    assert edit.json["content"] == "page 2" and edit.status == 200
    assert stored["content"] == "closed" and stored["components"] == [] and stored["edited_timestamp"]


async def test_sync_returns_once_the_client_has_parsed_what_was_sent(world: World) -> None:
    fake = world.fake
    async with running_client(fake, new_client()) as client:
        renamed = {k: v for k, v in world.guild.items() if k not in ("channels", "threads", "members")}
        await fake.dispatch("GUILD_UPDATE", renamed | {"name": "Acme Corp"})
        await fake.sync()
        guild = client.get_guild(int(world.guild["id"]))
        assert guild is not None and guild.name == "Acme Corp"


async def test_dropped_connection_resumes_and_replays_missed_events(world: World) -> None:
    fake = world.fake
    async with running_client(fake, new_client()) as client:
        resumed = client.wait_for("resumed")
        await fake.close_session(4000)
        # Dispatched while the client is away: the fake keeps it for the RESUME.
        missed = fd.message(world.general, world.alice, "while you were away")
        await fake.dispatch("MESSAGE_CREATE", missed)
        await asyncio.wait_for(resumed, fd.WAIT_LIMIT_SECONDS)
        arrived = await asyncio.wait_for(client.expect(int(missed["id"])), fd.WAIT_LIMIT_SECONDS)
        assert arrived.content == "while you were away"
        assert (fake.identifies, fake.resumes, len(fake.connections)) == (1, 1, 2)
        resume = next(p for p in fake.gateway_received if p["op"] == 6)
        assert resume["d"]["session_id"] and resume["d"]["seq"] >= 2
        after = await received(client, fake, fd.message(world.general, world.alice, "back"))
        assert after.content == "back"


async def test_invalidated_session_makes_the_client_identify_again(world: World) -> None:
    fake = world.fake
    async with running_client(fake, new_client()) as client:
        await fake.close_session(4009)
        await fake.wait_ready()
        assert (fake.identifies, fake.resumes, fake.invalid_sessions) == (2, 0, 1)
        assert client.get_guild(int(world.guild["id"])) is not None
        after = await received(client, fake, fd.message(world.general, world.alice, "fresh session"))
        assert after.content == "fresh session"
