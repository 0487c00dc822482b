"""Synthetic but realistic memories, turns and questions over many workspaces, channels and users."""

from __future__ import annotations

import math
import random
import uuid
from dataclasses import dataclass

from memory.models import MemoryDraft, MemoryType, Scope, Source, StoredMessage, Visibility

DAY = 86400.0
# The first workspaces are the busy ones; more are added as the memory count grows (see `workspaces`).
BASE_WORKSPACES = [("discord", "guild-1"), ("discord", "guild-2"), ("slack", "T-acme"), ("slack", "T-globex")]
MEMORIES_PER_WORKSPACE = 2500
CHANNELS = ["general", "engineering", "random", "support", "design"]
USERS = [
    "alice", "bob", "carol", "dave", "erin", "frank", "grace", "heidi", "ivan", "judy", "mallory", "niaj",
    "olivia", "peggy", "rupert", "sybil", "trent", "victor", "walter", "zoe",
]  # fmt: skip
CITIES = ["Lisbon", "Berlin", "Paris", "Oslo", "Montreal", "Kyoto", "Nairobi", "Austin", "Porto", "Lyon"]
PROJECTS = ["billing", "checkout", "search", "onboarding", "mobile app", "data pipeline", "auth", "analytics"]
TOOLS = ["Postgres", "Kafka", "Rust", "Go", "TypeScript", "Terraform", "Kubernetes", "Redis", "Grafana"]
FOODS = ["sushi", "ramen", "tacos", "falafel", "pizza", "pho", "curry", "salads", "croissants"]
HOBBIES = ["climbing", "chess", "cycling", "piano", "running", "photography", "gardening", "board games"]
DAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday"]

TEMPLATES: dict[MemoryType, list[str]] = {
    MemoryType.IDENTITY: [
        "{user} is the tech lead of the {project} team",
        "{user} lives in {city} and works remotely",
        "{user} joined the company as a {tool} engineer",
        "{user}'s pronouns are they/them and they manage the {project} roadmap",
    ],
    MemoryType.PREFERENCE: [
        "{user} prefers {food} for team lunches",
        "{user} likes code reviews written as short bullet points",
        "{user} prefers async standups over calls on {day}",
        "{user} wants {tool} examples instead of pseudo-code",
    ],
    MemoryType.FACT: [
        "The {project} service is written in {tool}",
        "The {project} dashboards live in Grafana under the {city} folder",
        "The {project} on-call rotation changes every {day}",
        "{user} owns the {tool} migration for {project}",
        "The {project} staging cluster runs in the {city} region",
    ],
    MemoryType.DECISION: [
        "The team decided to move {project} to {tool} by the end of the quarter",
        "We agreed to freeze {project} deploys every {day} afternoon",
        "Decision: {project} incidents get a written postmortem within two days",
    ],
    MemoryType.EVENT: [
        "{user} came back from a {hobby} trip to {city}",
        "{user} broke their wrist while {hobby} last {day}",
        "The {project} outage on {day} lasted forty minutes",
        "{user} gave a talk about {tool} at the {city} meetup",
    ],
    MemoryType.GOAL: [
        "{user} wants to cut {project} latency by half this quarter",
        "The {project} team aims to reach 99.9% uptime",
    ],
    MemoryType.TODO: [
        "{user} needs to rotate the {tool} credentials for {project} before {day}",
        "Remember to book the {city} offsite venue",
    ],
    MemoryType.OBSERVATION: [
        "{user} seemed stressed about the {project} deadline",
        "The {city} office coffee machine is broken again",
        "{user} often mentions {food} when the topic is lunch",
    ],
}
TYPE_WEIGHTS = {
    MemoryType.IDENTITY: 0.08,
    MemoryType.PREFERENCE: 0.14,
    MemoryType.FACT: 0.34,
    MemoryType.DECISION: 0.08,
    MemoryType.EVENT: 0.16,
    MemoryType.GOAL: 0.05,
    MemoryType.TODO: 0.05,
    MemoryType.OBSERVATION: 0.10,
}
QUERIES = [
    "who leads the {project} team?",
    "what is the {project} service written in?",
    "where does {user} live these days?",
    "what should we order for lunch with {user}?",
    "can we deploy {project} on {day}?",
    "how did {user}'s {hobby} trip go?",
    "any news about the {project} outage?",
    "what's the plan for the {tool} migration?",
    "remind me who owns {project} on-call",
    "{user} asked about the {city} offsite, what do we know?",
    "is {user} still working on {project} latency?",
    "which region hosts {project} staging?",
]
META_QUERIES = [
    "what did we talk about this week?",
    "what did we discuss last week?",
    "de quoi on a parlé hier ?",
    "résume nos conversations de cette semaine",
    "summarize our previous conversations",
]


def fill(template: str, rng: random.Random, user: str | None = None, **given: str) -> str:
    """`template` with random values; `user` pins who it is about, `given` fills other placeholders."""
    return template.format(
        **given,
        user=(user or rng.choice(USERS)).capitalize(),
        project=rng.choice(PROJECTS),
        tool=rng.choice(TOOLS),
        city=rng.choice(CITIES),
        food=rng.choice(FOODS),
        hobby=rng.choice(HOBBIES),
        day=rng.choice(DAYS),
    )


def workspaces(memory_count: int) -> list[tuple[str, str]]:
    """(platform, workspace) pairs: the four base ones, plus one per `MEMORIES_PER_WORKSPACE` beyond."""
    extra = max(0, math.ceil(memory_count / MEMORIES_PER_WORKSPACE) - len(BASE_WORKSPACES))
    more = [("discord" if n % 2 else "slack", f"ws-{n}") for n in range(extra)]
    return BASE_WORKSPACES + more


def workspace_weights(count: int) -> list[float]:
    # Zipf-like: a few large communities and a long tail of small ones, as a hosted bot sees.
    return [1.0 / (n + 1) ** 0.8 for n in range(count)]


def synthetic_drafts(count: int, now: float, rng: random.Random) -> list[MemoryDraft]:
    """`count` memory drafts across workspaces, channels, users and agents, with realistic ages.

    Contents are distinct within a workspace; about 10% are private (learned in a DM), 10%
    channel-visible, 5% expire, 2% are from the last six hours, the rest spread over four months.
    """
    types = list(TYPE_WEIGHTS)
    type_weights = list(TYPE_WEIGHTS.values())
    spaces = workspaces(count)
    space_weights = workspace_weights(len(spaces))
    drafts: list[MemoryDraft] = []
    seen: set[tuple[str, str]] = set()
    while len(drafts) < count:
        memory_type = rng.choices(types, type_weights)[0]
        platform, workspace = rng.choices(spaces, space_weights)[0]
        user = rng.choice(USERS)
        text = fill(rng.choice(TEMPLATES[memory_type]), rng, user)
        # A short serial keeps rows distinct, as real memories are, without changing their meaning much.
        content = f"{text} (note {len(drafts) % 97})" if rng.random() < 0.3 else text
        if (workspace, content) in seen:
            # Busy workspaces run out of template combinations: make the row distinct instead.
            content = f"{text} (ref {len(drafts)})"
        seen.add((workspace, content))
        roll = rng.random()
        if roll < 0.1:
            visibility, channel = Visibility.PRIVATE, f"dm-{user}"
        elif roll < 0.2:
            visibility, channel = Visibility.CHANNEL, rng.choice(CHANNELS)
        else:
            visibility, channel = Visibility.WORKSPACE, rng.choice(CHANNELS)
        age = rng.uniform(0, 6 * 3600) if rng.random() < 0.02 else rng.uniform(0, 120 * DAY)
        agent = "default" if rng.random() < 0.9 else "support-bot"
        drafts.append(
            MemoryDraft(
                content=content,
                scope=Scope(platform, workspace, channel, agent),
                memory_type=memory_type,
                subjects=[user],
                ttl=rng.choice(["1h", "7d", "30d"]) if rng.random() < 0.05 else None,
                confidence=round(rng.uniform(0.5, 1.0), 2),
                source=Source.CONVERSATION,
                user_id=user,
                author_id=user,
                visibility=visibility,
                created_at=now - age,
            )
        )
    return drafts


def synthetic_messages(count: int, now: float, rng: random.Random, memory_count: int) -> list[StoredMessage]:
    """`count` past turns over the same workspaces as `synthetic_drafts(memory_count, ...)`."""
    spaces = workspaces(memory_count)
    weights = workspace_weights(len(spaces))
    messages = []
    for n in range(count):
        platform, workspace = rng.choices(spaces, weights)[0]
        user = rng.choice(USERS)
        messages.append(
            StoredMessage(
                id=uuid.uuid4().hex,
                scope=Scope(
                    platform=platform,
                    workspace_id=workspace,
                    channel_id=rng.choice(CHANNELS),
                    agent_id="default",
                    thread_id=None,
                ),
                author_id=user,
                author_name=user.capitalize(),
                role="user" if n % 2 == 0 else "assistant",
                content=fill(rng.choice(QUERIES), rng),
                created_at=now - rng.uniform(0, 30 * DAY),
            )
        )
    return messages


@dataclass(frozen=True, slots=True)
class Conversation:
    """Where a synthetic request happens and who asks."""

    platform: str
    workspace: str
    channel: str
    viewer: str
    dm: bool


def conversations(memory_count: int, rng: random.Random, per_workspace: int = 6) -> list[Conversation]:
    """Conversations in the busiest workspaces (where latency is worst) and a few in the tail."""
    spaces = workspaces(memory_count)
    chosen = spaces[:4] + rng.sample(spaces[4:], min(4, len(spaces) - 4))
    return [
        Conversation(p, w, rng.choice(CHANNELS), rng.choice(USERS), dm=rng.random() < 0.2)
        for p, w in chosen
        for _ in range(per_workspace)
    ]
