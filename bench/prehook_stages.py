"""Pre-hook latency per stage at scale: 10k synthetic memories, ~200 varied runs, p50/p95 as JSON."""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import sys
import tempfile
import time
import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")

from memory.embedders import CachedEmbedder, LocalEmbedder
from memory.engine import MemoryEngine, memory_record
from memory.models import (
    DEFAULT_IMPORTANCE,
    Audience,
    Memory,
    MemoryType,
    Source,
    StoredMessage,
    Visibility,
    content_hash,
)
from memory.prehook import STAGES, PreHook, PrehookConfig, PrehookRequest

DAY = 86400.0
WORKSPACES = [("discord", "guild-1"), ("discord", "guild-2"), ("slack", "T-acme"), ("slack", "T-globex")]
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


def fill(template: str, rng: random.Random, user: str | None = None) -> str:
    return template.format(
        user=(user or rng.choice(USERS)).capitalize(),
        project=rng.choice(PROJECTS),
        tool=rng.choice(TOOLS),
        city=rng.choice(CITIES),
        food=rng.choice(FOODS),
        hobby=rng.choice(HOBBIES),
        day=rng.choice(DAYS),
    )


def synthetic_memories(count: int, now: float, rng: random.Random) -> list[Memory]:
    """Memories across workspaces, channels, users and agents, with realistic ages and visibilities."""
    types = list(TYPE_WEIGHTS)
    weights = list(TYPE_WEIGHTS.values())
    memories: list[Memory] = []
    seen: set[tuple[str, str]] = set()
    while len(memories) < count:
        memory_type = rng.choices(types, weights)[0]
        platform, workspace = rng.choice(WORKSPACES)
        user = rng.choice(USERS)
        text = fill(rng.choice(TEMPLATES[memory_type]), rng, user)
        # A short serial keeps rows distinct, as real memories are, without changing their meaning much.
        content = f"{text} (note {len(memories) % 97})" if rng.random() < 0.3 else text
        if (workspace, content) in seen:
            continue
        seen.add((workspace, content))
        roll = rng.random()
        if roll < 0.1:
            visibility, channel = Visibility.PRIVATE, f"dm-{user}"
        elif roll < 0.2:
            visibility, channel = Visibility.CHANNEL, rng.choice(CHANNELS)
        else:
            visibility, channel = Visibility.WORKSPACE, rng.choice(CHANNELS)
        # Ages: most spread over four months, some in the last day (the "recent" window).
        age = rng.uniform(0, 6 * 3600) if rng.random() < 0.02 else rng.uniform(0, 120 * DAY)
        created = now - age
        expires = created + rng.choice([3600.0, 7 * DAY, 30 * DAY]) if rng.random() < 0.05 else None
        memories.append(
            Memory(
                id=uuid.uuid4().hex[:16],
                content=content,
                memory_type=memory_type,
                importance=DEFAULT_IMPORTANCE[memory_type],
                confidence=round(rng.uniform(0.5, 1.0), 2),
                subjects=[user],
                source=Source.CONVERSATION,
                platform=platform,
                workspace_id=workspace,
                channel_id=channel,
                thread_id=None,
                user_id=user,
                author_id=user,
                agent_id="default" if rng.random() < 0.9 else "support-bot",
                visibility=visibility,
                created_at=created,
                updated_at=created,
                access_count=rng.choice([0, 0, 0, 1, 2, 3, 5, 8]),
                expires_at=expires,
                content_hash=content_hash(content),
            )
        )
    return memories


def synthetic_messages(count: int, now: float, rng: random.Random) -> list[StoredMessage]:
    messages = []
    for n in range(count):
        platform, workspace = rng.choice(WORKSPACES)
        user = rng.choice(USERS)
        messages.append(
            StoredMessage(
                id=uuid.uuid4().hex,
                platform=platform,
                workspace_id=workspace,
                channel_id=rng.choice(CHANNELS),
                thread_id=None,
                agent_id="default",
                author_id=user,
                author_name=user,
                role="user" if n % 2 == 0 else "assistant",
                content=fill(rng.choice(QUERIES), rng),
                created_at=now - rng.uniform(0, 30 * DAY),
            )
        )
    return messages


_INSERT = (
    "INSERT INTO memories (id, content, memory_type, importance, confidence, subjects, source, platform, "
    "workspace_id, channel_id, thread_id, user_id, author_id, agent_id, visibility, created_at, updated_at, "
    "last_accessed_at, access_count, expires_at, forgotten, superseded_by, content_hash, sources, embedding, "
    "indexed) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,1)"
)


async def bulk_load(engine: MemoryEngine, memories: list[Memory], vectors: np.ndarray) -> None:
    """One SQLite transaction and a few LanceDB appends; the write path per item is far too slow for 10k."""
    rows = [
        (
            m.id, m.content, m.memory_type.value, m.importance, m.confidence, json.dumps(m.subjects),
            m.source.value, m.platform, m.workspace_id, m.channel_id, m.thread_id, m.user_id, m.author_id,
            m.agent_id, m.visibility.value, m.created_at, m.updated_at, None, m.access_count, m.expires_at,
            0, None, m.content_hash, "[]", np.asarray(v, dtype=np.float32).tobytes(),
        )
        for m, v in zip(memories, vectors, strict=True)
    ]  # fmt: skip
    async with engine.store.transaction() as db:
        await db.executemany(_INSERT, rows)
        await db.executemany(
            "INSERT OR IGNORE INTO memory_subjects (memory_id, subject) VALUES (?, ?)",
            [(m.id, s) for m in memories for s in m.subjects],
        )
    for start in range(0, len(memories), 2000):
        chunk = range(start, min(start + 2000, len(memories)))
        await engine.vectors.memories.add([memory_record(memories[i], vectors[i]) for i in chunk])
    # Fold the bulk rows into the full-text and scalar indexes, as the bot's maintenance would.
    await engine.vectors.memories.optimize()


@dataclass(slots=True)
class Conversation:
    platform: str
    workspace: str
    channel: str
    viewer: str
    dm: bool


def log(message: str, *args: object) -> None:
    # Progress goes to stderr so stdout stays pure JSON.
    print(message % args, file=sys.stderr, flush=True)


def percentiles(values: list[float]) -> dict[str, float]:
    ordered = sorted(values)

    def pick(q: float) -> float:
        return ordered[min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))]

    return {
        "p50": round(pick(0.5), 3),
        "p95": round(pick(0.95), 3),
        "max": round(ordered[-1], 3),
        "mean": round(statistics.fmean(ordered), 3),
    }


async def main(args: argparse.Namespace) -> dict[str, Any]:
    rng = random.Random(args.seed)
    now = time.time()
    setup: dict[str, float] = {}
    embedder = CachedEmbedder(LocalEmbedder())
    await embedder.warm_up()
    with tempfile.TemporaryDirectory(prefix="memorybot-bench-") as tmp:
        data_dir = Path(args.data_dir) if args.data_dir else Path(tmp)
        engine = await MemoryEngine.open(data_dir, embedder, reconcile=False)
        try:
            memories = synthetic_memories(args.memories, now, rng)
            messages = synthetic_messages(args.messages, now, rng)
            if args.data_dir and await engine.vectors.memories.count() > 0:
                log("reusing the memories already in %s", data_dir)
            else:
                t = time.perf_counter()
                chunks = [memories[i : i + 256] for i in range(0, len(memories), 256)]
                vectors = np.concatenate([await embedder.inner.embed([m.content for m in c]) for c in chunks])
                setup["embed_seconds"] = round(time.perf_counter() - t, 2)
                log("embedded %d memories in %.1f s", len(memories), setup["embed_seconds"])
                t = time.perf_counter()
                await bulk_load(engine, memories, vectors)
                await engine.store.insert_messages(messages)
                setup["insert_seconds"] = round(time.perf_counter() - t, 2)

            hook = PreHook(engine, PrehookConfig())
            conversations = [
                Conversation(p, w, rng.choice(CHANNELS), rng.choice(USERS), dm=rng.random() < 0.2)
                for p, w in WORKSPACES
                for _ in range(6)
            ]
            samples: dict[str, list[float]] = {s: [] for s in (*STAGES, "total")}
            injected, tokens, meta_runs = [], [], 0
            for run in range(args.warmup + args.runs):
                conv = conversations[run % len(conversations)]
                is_meta = rng.random() < args.meta_share
                if is_meta:
                    text = rng.choice(META_QUERIES)
                else:
                    text = fill(rng.choice(QUERIES), rng)
                text = f"{text} [{run}]"  # every batch text is new: the embedding cache never helps
                channel = f"dm-{conv.viewer}" if conv.dm else conv.channel
                viewer = Audience(conv.platform, conv.workspace, "default", conv.viewer, channel, conv.dm)
                participants = [conv.viewer] if conv.dm else [conv.viewer, *rng.sample(USERS, 2)]
                result = await hook.run(
                    PrehookRequest(
                        text=text,
                        platform=conv.platform,
                        workspace_id=conv.workspace,
                        channel_id=channel,
                        agent_id="default",
                        viewer=viewer,
                        participants=participants,
                    )
                )
                if run < args.warmup:
                    continue
                meta_runs += result.meta is not None
                for stage in samples:
                    samples[stage].append(result.stage_ms.get(stage, 0.0))
                injected.append(len(result.injected))
                tokens.append(result.tokens)
            await hook.aclose()
        finally:
            await engine.close()
    return {
        "memories": args.memories,
        "messages": args.messages,
        "runs": args.runs,
        "meta_question_runs": meta_runs,
        "cpu_count": os.cpu_count(),
        "setup": setup,
        "stage_ms": {stage: percentiles(values) for stage, values in samples.items()},
        "injected_per_run": percentiles([float(n) for n in injected]),
        "block_tokens": percentiles([float(n) for n in tokens]),
        "notes": (
            "sql and vector run concurrently, so stages overlap and do not add up to total; "
            "embed is a cache miss on every run (the real all-MiniLM-L6-v2 on CPU)"
        ),
    }


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--memories", type=int, default=10_000)
    parser.add_argument("--messages", type=int, default=3_000)
    parser.add_argument("--runs", type=int, default=200)
    parser.add_argument("--warmup", type=int, default=10)
    parser.add_argument("--meta-share", type=float, default=0.1, help="share of runs asking a meta question")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument(
        "--data-dir", help="keep the filled engine here (and reuse it on the next run) instead of a temp dir"
    )
    return parser.parse_args(argv)


if __name__ == "__main__":
    report = asyncio.run(main(parse_args()))
    json.dump(report, sys.stdout, indent=2)
    sys.stdout.write("\n")
