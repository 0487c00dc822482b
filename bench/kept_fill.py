"""A PostgreSQL fill kept between latency runs (`--keep`): its record, its rows' fingerprint, its check."""

from __future__ import annotations

import asyncio
import hashlib
import random
import time
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from memory.drafts import build_memory
from memory.embedders import Embedder
from memory.engine import MemoryEngine

from .backend import Claim, DatabaseNotEmpty
from .synthetic import synthetic_drafts, synthetic_messages

if TYPE_CHECKING:
    from .latency import LatencyOptions


def fill_record(size: int, options: LatencyOptions, embedder: Embedder) -> dict[str, Any]:
    """What a kept fill must match to be timed again (its clock is added once it is made)."""
    return {
        "memories": size,
        "seed": options.seed,
        "messages": options.messages,
        "model": embedder.name,
        "dim": embedder.dim,
    }


class Clock:
    """The engine's clock: the wall clock, or (a kept fill timed again) the wall clock set back
    to where it stood when that fill was ready."""

    def __init__(self) -> None:
        self.offset = 0.0

    def __call__(self) -> float:
        return time.time() - self.offset


def _line_sum(lines: Sequence[str]) -> int:
    # Order-free: each line's md5, its first 60 bits, added up (as `_FINGERPRINT_SQL` does).
    return sum(int(hashlib.md5(line.encode("utf-8")).hexdigest()[:15], 16) for line in lines)


def _micros(seconds: float) -> int:
    return round(seconds * 1_000_000)  # as the PostgreSQL codec stores a time


# Each memory and each turn as one line of what made it; the SQL and the Python agree on every byte.
_MEMORY_LINE = (
    "concat_ws('|', content_hash, platform, workspace_id, channel_id, agent_id, visibility, memory_type, "
    "COALESCE(user_id, ''), (extract(epoch FROM created_at) * 1000000)::bigint)"
)
_MESSAGE_LINE = (
    "concat_ws('|', platform, workspace_id, channel_id, author_id, role, content, "
    "(extract(epoch FROM created_at) * 1000000)::bigint)"
)
_FINGERPRINT_SQL = (
    "SELECT count(*), COALESCE(sum(('x' || substr(md5({line}), 1, 15))::bit(60)::bigint), 0) FROM {table}"
)


def expected_fingerprint(size: int, messages: int, seed: int, now: float) -> dict[str, list[int]]:
    """(rows, fingerprint) of the memories and turns the fill of `size`, `messages` and `seed` at
    clock `now` writes, made again as `bench.latency` fills PostgreSQL."""
    rng = random.Random(seed)
    drafts = synthetic_drafts(size, now, rng)
    memories = [build_memory(d, now) for d in drafts]
    memory_lines = [
        "|".join(
            (
                m.content_hash,
                m.platform,
                m.workspace_id,
                m.channel_id,
                m.agent_id,
                m.visibility.value,
                m.memory_type.value,
                m.user_id or "",
                str(_micros(m.created_at)),
            )
        )
        for m in memories
    ]
    turns = synthetic_messages(messages, now, rng, size)
    turn_lines = [
        "|".join(
            (
                t.scope.platform,
                t.scope.workspace_id,
                t.scope.channel_id,
                t.author_id,
                t.role,
                t.content,
                str(_micros(t.created_at)),
            )
        )
        for t in turns
    ]
    return {
        "memories": [len(memory_lines), _line_sum(memory_lines)],
        "messages": [len(turn_lines), _line_sum(turn_lines)],
    }


async def stored_fingerprint(engine: MemoryEngine) -> dict[str, list[int]]:
    """(rows, fingerprint) of the memories and turns the database holds."""
    db = engine.storage.db  # type: ignore[attr-defined]
    out = {}
    for table, line in (("memories", _MEMORY_LINE), ("messages", _MESSAGE_LINE)):
        row = await db.fetch(_FINGERPRINT_SQL.format(line=line, table=table))
        out[table] = [int(row[0][0]), int(row[0][1])]
    return out


# Stored vectors compared with the model's own, by cosine.
_VECTOR_CHECKS = 16
_SAME_VECTOR = 0.999


async def checked_fingerprint(engine: MemoryEngine, record: dict[str, Any]) -> dict[str, list[int]]:
    """The fingerprint of the database's rows, refused (DatabaseNotEmpty) unless it is that of the
    fill `record` describes: the one recorded with it, else (none recorded yet) the fill made again
    from its size, turns, seed and clock (about a minute and a half at a million memories)."""
    stored = await stored_fingerprint(engine)
    expected = record.get("fingerprint")
    if expected is None:
        expected = await asyncio.to_thread(
            expected_fingerprint,
            int(record["memories"]),
            int(record["messages"]),
            int(record["seed"]),
            float(record["now"]),
        )
    if stored != expected:
        raise DatabaseNotEmpty(
            f"the benchmark database's rows are not the kept fill they are recorded as (rows and "
            f"fingerprints {stored}, expected {expected}); pass --reset to empty it"
        )
    return stored


async def check_kept(engine: MemoryEngine, claim: Claim, wanted: dict[str, Any]) -> dict[str, Any]:
    """Refuse (DatabaseNotEmpty) a kept fill that is not exactly the one this run would make; then
    clear the access counts earlier timed runs added. Returns the setup entry of the run."""
    t = time.perf_counter()
    record = dict(claim.kept or {})
    made = {k: record.get(k) for k in wanted}
    if made != wanted:
        raise DatabaseNotEmpty(
            f"the benchmark database holds a kept fill of {made}, not {wanted}; pass --reset to empty it"
        )
    fingerprint = await checked_fingerprint(engine, record)
    if "fingerprint" not in record:
        # Checked against the fill made again: later runs compare with it, in seconds.
        await claim.record({**record, "fingerprint": fingerprint})
    db = engine.storage.db  # type: ignore[attr-defined]
    rows = await db.fetch(
        f"SELECT content, embedding FROM memories ORDER BY content_hash LIMIT {_VECTOR_CHECKS}"
    )
    fresh = await engine.embedder.embed([r[0] for r in rows])
    for row, vector in zip(rows, fresh, strict=True):
        stored_vector = np.asarray(row[1], dtype=np.float32)
        cosine = float(stored_vector @ vector) / max(
            float(np.linalg.norm(stored_vector) * np.linalg.norm(vector)), 1e-12
        )
        if cosine < _SAME_VECTOR:
            raise DatabaseNotEmpty(
                f"the benchmark database's vectors are not {wanted['model']}'s (cosine {cosine:.4f} "
                f"for {row[0]!r}); pass --reset to empty it"
            )
    # The pre-hook counts what it recalls, and counts weigh in its ranking: every run starts from
    # the fill's own counts (none).
    cleared = await db.execute("DELETE FROM memory_access")
    return {
        "kept_fill": "timed again",
        "filled": record.get("setup"),
        "check_s": round(time.perf_counter() - t, 1),
        "access_counts_cleared": int(cleared.split()[-1]),
    }
