"""Privacy matrix for /memory on every platform: who sees, finds, exports and forgets which memory."""

from __future__ import annotations

import json
from dataclasses import dataclass

import pytest

from adapters.command_table import Invoker
from bot.commands import MemoryCommands
from memory.engine import MemoryEngine
from memory.models import Memory, MemoryDraft, Scope, Visibility
from tests.helpers import stored_memory

# Every cell of the matrix on both storage backends.
STORAGE_BACKENDS = ("embedded", "postgres")

# Per platform: the shared workspace, another workspace, and where Alice's DM lives. Discord DMs
# have no guild, so they get a private pseudo-workspace; Slack DMs stay in the team.
LAYOUTS = {
    "discord": ("111", "222", "dm-alice"),
    "slack": ("T1", "T2", "T1"),
    "console": ("local", "other-local", "local"),
}


@dataclass(frozen=True)
class Actor:
    user_id: str
    workspace: str  # "shared" | "other" | "dm"
    admin: bool = False
    agent: str = "default"  # the bot persona the command is run against


ACTORS = {
    "owner": Actor("alice", "shared"),
    "dm_owner": Actor("alice", "dm"),
    "other_user": Actor("bob", "shared"),
    "admin": Actor("carol", "shared", admin=True),
    "other_workspace": Actor("alice", "other"),
    "other_agent": Actor("alice", "shared", agent="agent-b"),
}


def invoker(platform: str, actor: Actor) -> Invoker:
    shared, other, dm = LAYOUTS[platform]
    workspace = {"shared": shared, "other": other, "dm": dm}[actor.workspace]
    channel = f"dm-{actor.user_id}" if actor.workspace == "dm" else "general"
    return Invoker(
        platform, workspace, channel, actor.user_id, is_dm=actor.workspace == "dm", is_admin=actor.admin
    )


async def seed(engine: MemoryEngine, platform: str) -> dict[str, Memory]:
    shared, other, dm = LAYOUTS[platform]
    drafts = {
        "workspace": MemoryDraft(
            "Alice ships the mobile app release on Fridays",
            Scope(platform, shared, "general", "default"),
            user_id="alice",
            author_id="alice",
        ),
        "private": MemoryDraft(
            "Alice is quietly interviewing for a job at another company",
            Scope(platform, dm, "dm-alice", "default"),
            user_id="alice",
            author_id="alice",
            visibility=Visibility.PRIVATE,
        ),
        "elsewhere": MemoryDraft(
            "Alice organises the hackathon in the sister community",
            Scope(platform, other, "general", "default"),
            user_id="alice",
            author_id="alice",
        ),
    }
    return {name: (await engine.remember(d)).memory for name, d in drafts.items()}


def may_see(platform: str, actor: Actor, memory: Memory) -> bool:
    inv = invoker(platform, actor)
    if memory.agent_id != actor.agent:
        return False  # nothing crosses agents
    if (
        inv.is_dm
        and memory.visibility is Visibility.WORKSPACE
        and memory.author_id == memory.user_id == actor.user_id
    ):
        return True  # a DM reaches what its person said of themselves in any shared conversation
    if memory.workspace_id != inv.workspace_id:
        return False  # nothing else crosses workspaces, admins included
    if memory.visibility is Visibility.PRIVATE:
        return memory.author_id == actor.user_id  # private: its owner only, never an admin
    return True


def may_forget(platform: str, actor: Actor, memory: Memory) -> bool:
    visible = may_see(platform, actor, memory)
    return visible and (actor.admin or actor.user_id in (memory.author_id, memory.user_id))


@pytest.mark.parametrize("actor_name", list(ACTORS))
@pytest.mark.parametrize("platform", list(LAYOUTS))
async def test_privacy_matrix(engine: MemoryEngine, platform: str, actor_name: str) -> None:
    actor = ACTORS[actor_name]
    memories = await seed(engine, platform)
    commands = MemoryCommands(engine, actor.agent)
    who = invoker(platform, actor)
    expected = {name for name, m in memories.items() if may_see(platform, actor, m)}

    def names(contents: list[object]) -> set[str]:
        return {name for name, m in memories.items() if m.content in contents}

    listed = await commands.execute("list", {}, who)
    assert names([i["content"] for i in listed.items]) == expected, "list"

    about = await commands.execute("about", {"user": "alice"}, who)
    assert names([i["content"] for i in about.items]) == expected, "about"

    for name, memory in memories.items():
        found = await commands.execute("search", {"query": memory.content}, who)
        assert (memory.content in [i["content"] for i in found.items]) == (name in expected), f"search {name}"

    export = await commands.execute("export", {}, who)
    assert export.attachment is not None
    exported = [row["content"] for row in json.loads(export.attachment.data)]
    own = {n for n in expected if actor.user_id in (memories[n].author_id, memories[n].user_id)}
    assert names(exported) == own, "export"

    # Forget last: refused ones first, so an allowed delete cannot hide a wrongly refused one.
    order = sorted(memories, key=lambda n: may_forget(platform, actor, memories[n]))
    for name in order:
        memory = memories[name]
        outcome = await commands.execute("forget", {"id": memory.id}, who)
        allowed = may_forget(platform, actor, memory)
        assert (outcome.error is None) == allowed, f"forget {name}"
        still_there = await stored_memory(engine, memory.id)
        assert (still_there is None or still_there.forgotten) == allowed, f"forget {name} stored"
