"""Child process for the crash tests: ingests through the engine's write path, acking each returned write.

Usage: python -m tests.fakes.ingest_worker DATA_DIR_OR_DATABASE_URL [--crash KIND:POINT]

Every line on stdout is `ack message <id>` or `ack memory <id>`, printed only after the call
that wrote it returned, so the parent knows exactly what was acknowledged when it kills this
process. With `--crash`, the process kills itself at one point between the two stores (after
printing `crash <kind> <ids>`), which makes that window reproducible.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import signal
import sys
import time
import traceback
import uuid
from collections.abc import Awaitable, Callable
from typing import Any

from memory.engine import MemoryEngine
from memory.models import MemoryDraft, Scope, StoredMessage
from tests.fakes.embedders import HashEmbedder

WORKSPACE = "T-crash"
CHANNELS = ("C-one", "C-two", "C-three")
# Made-up words, so memories rarely share enough words to be merged by the dedup on store.
_SYLLABLES = ("ka", "lo", "mi", "ne", "ru", "sa", "ti", "vo", "ze", "pu", "da", "fe")
CRASH_POINTS = ("message:before_vector", "message:before_mark", "memory:before_vector", "memory:before_mark")
# Writes acknowledged before the crash point is armed, so the crash lands mid-stream.
CRASH_AFTER_ACKS = 12


def word(rng: random.Random) -> str:
    return "".join(rng.choice(_SYLLABLES) for _ in range(3))


def ack(kind: str, ids: list[str]) -> None:
    for item in ids:
        sys.stdout.write(f"ack {kind} {item}\n")
    sys.stdout.flush()


def die(kind: str, ids: list[str]) -> None:
    """Tell the parent what was in flight, then die as abruptly as a power cut allows a process to."""
    sys.stdout.write(f"crash {kind} {' '.join(ids)}\n")
    sys.stdout.flush()
    os.kill(os.getpid(), signal.SIGKILL)


def arm(engine: MemoryEngine, point: str) -> None:
    """Replace one step of the write path with a self-kill, keeping every step before it real."""
    kind, where = point.split(":")

    async def killer(first: Any, *rest: Any, **kwargs: Any) -> None:
        if kind == "message":
            ids = [r.id for r in first] if where == "before_vector" else list(first)
        else:
            ids = [r.id for r in first] if where == "before_vector" else [first]
        die(kind, ids)

    target: tuple[Any, str] = {
        "message:before_vector": (engine.storage.vectors.messages, "insert"),
        "message:before_mark": (engine.storage.turns, "mark_indexed"),
        "memory:before_vector": (engine.storage.vectors.memories, "insert"),
        "memory:before_mark": (engine.storage.memories, "complete_write"),
    }[point]
    setattr(target[0], target[1], killer)


async def channel_loop(
    engine: MemoryEngine, channel: str, seed: int, counted: Callable[[], Awaitable[None]]
) -> None:
    rng = random.Random(seed)
    scope = Scope("slack", WORKSPACE, channel, "default")
    n = 0
    while True:
        n += 1
        user = f"U{rng.randrange(5)}"
        text = " ".join(word(rng) for _ in range(8))
        message = StoredMessage(
            id=uuid.uuid4().hex,
            scope=Scope(
                platform="slack",
                workspace_id=WORKSPACE,
                channel_id=channel,
                agent_id="default",
                thread_id=None,
            ),
            author_id=user,
            author_name=f"User {user}",
            role="user",
            content=text,
            created_at=time.time(),
            external_id=f"{channel}-{n}",
        )
        ack("message", await engine.store_messages([message]))
        await counted()
        draft = MemoryDraft(
            content=f"{word(rng).capitalize()} keeps the {word(rng)} {word(rng)} near {word(rng)}",
            scope=scope,
            user_id=user,
            author_id=user,
            sources=[message.id],
        )
        written = await engine.remember(draft)
        ack("memory", [written.memory.id])
        await counted()


async def maintain(engine: MemoryEngine, wake: asyncio.Event) -> None:
    # Compaction in the background, as the pipeline schedules it: the kill may land mid-optimize.
    while True:
        await wake.wait()
        wake.clear()
        if engine.needs_maintenance:
            await engine.maintain()


async def main(data_dir: str, crash: str | None) -> None:
    engine = await MemoryEngine.open(data_dir, HashEmbedder())
    acks = 0
    wake = asyncio.Event()

    async def counted() -> None:
        nonlocal acks
        acks += 1
        wake.set()
        if crash is not None and acks == CRASH_AFTER_ACKS:
            arm(engine, crash)

    # Several channels at once, as a busy bot writes: the kill lands between interleaved writes.
    await asyncio.gather(
        maintain(engine, wake),
        *(channel_loop(engine, channel, seed, counted) for seed, channel in enumerate(CHANNELS)),
    )


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    # A directory (the embedded backend) or a postgresql:// URL.
    parser.add_argument("data_dir")
    parser.add_argument("--crash", choices=CRASH_POINTS)
    args = parser.parse_args()
    try:
        asyncio.run(main(args.data_dir, args.crash))
    except BaseException:
        # Exit at once: open store threads would otherwise keep a failed worker alive, and the
        # parent would wait for acks that never come.
        traceback.print_exc()
        sys.stderr.flush()
        os._exit(1)
