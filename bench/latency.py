"""Pre-hook latency at scale, beside a naive pre-hook on the same data: synthetic memories, JSON and a PNG.

For each memory count: a fresh engine in a temporary directory is filled through
`MemoryEngine.import_memories` (plus a few thousand past turns through `store_messages`), its
vector tables are compacted and indexed as the bot's background maintenance would and its
search index loaded into RAM as a started bot does, then the real `PreHook` answers `runs`
varied requests (after `warmup` untimed ones) from conversations in the busiest and in some
small workspaces. The naive pre-hook then answers the same requests
on the same data (embedded backend only: it is LanceDB's own flat search).

On PostgreSQL (`options.backend`) the database is claimed for each size (see `bench.backend`),
and the memories are embedded in chunks and COPY-loaded with the vector and full-text indexes
dropped, then those are built once (HNSW with `maintenance_work_mem`, parallel workers) and the
tables ANALYZEd; `setup` times each step. The pre-hook is timed the same way on both. Peak RSS
is the process's high-water mark when the run ends (it only grows, so later, larger runs include
the earlier ones).

With `--keep` (PostgreSQL, one size) the fill stays in the database, recorded with what made it
(size, seed, turns, embedding model, its clock); a later run with `--keep` and the same size,
seed and turns times that fill again instead of filling one, once it has checked the rows are
exactly it: the same counts and a fingerprint of every memory and turn against the fill made
again from its seed and clock, and a few stored vectors against the model's. The run's clock is
set back to the fill's (requests see the memories as old as the first run saw them), and the
access counts earlier timed runs added are cleared, so each run times the same data
(`bench.kept_fill`).
"""

from __future__ import annotations

import asyncio
import random
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
from tqdm import tqdm

from bot.process import freeze_startup_heap
from memory.drafts import build_memory
from memory.embedders import Embedder, warm_up
from memory.engine import MemoryEngine
from memory.errors import ConfigError
from memory.models import Audience, MemoryDraft, Scope
from memory.prehook import STAGES, PreHook, PrehookConfig, PrehookRequest

from .backend import BenchBackend
from .extra import can_plot
from .kept_fill import Clock, check_kept, checked_fingerprint, fill_record
from .naive_prehook import NaivePreHook
from .recall import peak_rss_mb, percentile
from .report import write_report
from .synthetic import META_QUERIES, QUERIES, USERS, conversations, fill, synthetic_drafts, synthetic_messages
from .vectors import SyntheticVectors

if TYPE_CHECKING:
    pass

IMPORT_CHUNK = 4096  # drafts per import_memories call (progress granularity; batches stay 512)


@dataclass(slots=True)
class LatencyOptions:
    """What `run_latency` measures.

    The naive hook is several times slower, so it answers only the first `baseline_runs`
    requests (after the same warm-up): enough for its p95, and a small run stays cheap.
    """

    sizes: Sequence[int]
    out: Path | None = None
    runs: int = 200
    warmup: int = 10
    messages: int = 3000
    seed: int = 7
    baseline_runs: int = 100
    meta_share: float = 0.1
    backend: BenchBackend = field(default_factory=BenchBackend)
    # PostgreSQL's memory for building the HNSW graph after a bulk load (past it, a slower build).
    maintenance_work_mem: str = "1GB"
    # Where the synthetic memories' vectors are kept between runs (None: embedded every time).
    vectors_dir: Path | None = None


def _log(message: str) -> None:
    # stdout carries only the JSON.
    tqdm.write(message, file=sys.stderr)


def make_requests(
    count: int, memory_count: int, rng: random.Random, meta_share: float
) -> list[PrehookRequest]:
    """Varied requests: several workspaces and channels, DMs, a share of meta questions, new texts."""
    convs = conversations(memory_count, rng)
    requests = []
    for n in range(count):
        conv = convs[n % len(convs)]
        text = rng.choice(META_QUERIES) if rng.random() < meta_share else fill(rng.choice(QUERIES), rng)
        # Every text is new, so the embedding cache never flatters the numbers.
        text = f"{text} [{n}]"
        channel = f"dm-{conv.viewer}" if conv.dm else conv.channel
        viewer = Audience(conv.platform, conv.workspace, "default", conv.viewer, channel, private_ok=conv.dm)
        participants = [conv.viewer] if conv.dm else [conv.viewer, *rng.sample(USERS, 2)]
        requests.append(
            PrehookRequest(
                text=text,
                scope=Scope(conv.platform, conv.workspace, channel),
                viewer=viewer,
                participants=participants,
            )
        )
    return requests


async def _vectors(
    engine: MemoryEngine, drafts: list[MemoryDraft], size: int, seed: int, directory: Path | None
) -> SyntheticVectors | None:
    if directory is None:
        return None
    texts = [engine.build_memory(d).content for d in drafts]  # what the import embeds
    return await SyntheticVectors.open(directory, engine.embedder, texts, size, seed)


async def _fill(
    engine: MemoryEngine, size: int, messages: int, seed: int, vectors_dir: Path | None = None
) -> dict[str, Any]:
    rng = random.Random(seed)
    now = engine.clock()
    drafts = synthetic_drafts(size, now, rng)
    setup: dict[str, Any] = {}
    vectors = await _vectors(engine, drafts, size, seed, vectors_dir)
    embedder = engine.embedder
    t = time.perf_counter()
    if vectors is not None:
        setup["vectors"] = "from file" if vectors.loaded else "embedded"
        engine.embedder = vectors.embedder  # the engine looks its embedder up on every call
    try:
        with tqdm(total=len(drafts), desc=f"import {size:,} memories", unit="mem", file=sys.stderr) as bar:
            for start in range(0, len(drafts), IMPORT_CHUNK):
                chunk = drafts[start : start + IMPORT_CHUNK]
                await engine.import_memories(chunk)
                bar.update(len(chunk))
    finally:
        engine.embedder = embedder
    setup["import_s"] = round(time.perf_counter() - t, 1)
    if vectors is not None:
        await vectors.keep()
    setup["messages_s"] = await _store_turns(engine, size, messages, now, rng)
    t = time.perf_counter()
    # What the bot's background maintenance does after a bulk write: compact, index (ANN included
    # once a table is past its threshold).
    await engine.maintain()
    await engine.build_search_indexes()
    setup["index_s"] = round(time.perf_counter() - t, 1)
    _per_100k(setup, size, setup["import_s"] + setup["index_s"])
    # And what `memorybot run` does once started: load the search index into RAM, freeze the heap.
    t = time.perf_counter()
    setup["index_rows"] = await engine.warm_search()
    freeze_startup_heap()
    setup["warm_s"] = round(time.perf_counter() - t, 1)
    return setup


async def _store_turns(engine: MemoryEngine, size: int, count: int, now: float, rng: random.Random) -> float:
    """Past turns beside the memories, through the bot's own write; returns the seconds taken."""
    t = time.perf_counter()
    turns = synthetic_messages(count, now, rng, size)
    for start in range(0, len(turns), 512):
        await engine.store_messages(turns[start : start + 512])
    return round(time.perf_counter() - t, 1)


def _per_100k(setup: dict[str, Any], size: int, seconds: float) -> None:
    # Filling grows about linearly (an HNSW build a little faster): 1M is estimated as ten 100k.
    setup["populate_s"] = round(seconds, 1)
    setup["populate_s_per_100k"] = round(seconds * 100_000 / size, 1)
    setup["populate_1m_estimate_s"] = round(seconds * 1_000_000 / size)


async def _fill_postgres(
    engine: MemoryEngine,
    size: int,
    messages: int,
    seed: int,
    work_mem: str,
    vectors_dir: Path | None,
    now: float,
) -> dict[str, Any]:
    """The same memories as `_fill`, embedded by the same embedder, but COPY-loaded into
    PostgreSQL with the vector and full-text indexes built once after the load; every row's
    time relative to `now` (`expected_fingerprint` makes them again from it)."""
    from memory.storage.postgres import PostgresStorage
    from memory.storage.postgres.bulk import copy_memories, indexes_deferred

    storage = engine.storage
    assert isinstance(storage, PostgresStorage)  # the backend's location is a postgresql:// URL
    rng = random.Random(seed)
    drafts = synthetic_drafts(size, now, rng)
    vectors = await _vectors(engine, drafts, size, seed, vectors_dir)
    embedder = engine.embedder if vectors is None else vectors.embedder
    setup: dict[str, Any] = {"embed_s": 0.0, "copy_s": 0.0}
    started = time.perf_counter()
    async with indexes_deferred(storage, work_mem=work_mem):
        with tqdm(total=len(drafts), desc=f"copy {size:,} memories", unit="mem", file=sys.stderr) as bar:
            for start in range(0, len(drafts), IMPORT_CHUNK):
                # As `import_memories` builds and embeds them; no duplicate check: the drafts are
                # distinct and the database empty.
                chunk = [build_memory(d, now) for d in drafts[start : start + IMPORT_CHUNK]]
                t = time.perf_counter()
                embedded = await embedder.embed([m.content for m in chunk])
                setup["embed_s"] += time.perf_counter() - t
                t = time.perf_counter()
                await copy_memories(storage, chunk, embedded)
                setup["copy_s"] += time.perf_counter() - t
                bar.update(len(chunk))
        built = time.perf_counter()
    # The indexes are built (and ANALYZEd) as the block ends.
    setup["index_s"] = time.perf_counter() - built
    populate = time.perf_counter() - started
    setup = {k: round(v, 1) for k, v in setup.items()}
    if vectors is not None:
        setup["vectors"] = "from file" if vectors.loaded else "embedded"
        await vectors.keep()
    setup["messages_s"] = await _store_turns(engine, size, messages, now, rng)
    t = time.perf_counter()
    await engine.maintain()
    await engine.build_search_indexes()  # ANALYZE with the turns in
    setup["analyze_s"] = round(time.perf_counter() - t, 1)
    setup["memories_stored"] = await storage.memories.indexed_count()
    _per_100k(setup, size, populate)
    # Without the embedding, which costs the same on either backend.
    setup["load_s_per_100k_without_embed"] = round((populate - setup["embed_s"]) * 100_000 / size, 1)
    t = time.perf_counter()
    setup["index_rows"] = await engine.warm_search()
    freeze_startup_heap()
    setup["warm_s"] = round(time.perf_counter() - t, 1)
    return setup


def _stage_summary(samples: dict[str, list[float]]) -> dict[str, dict[str, float]]:
    return {
        stage: {"p50_ms": round(percentile(v, 50), 2), "p95_ms": round(percentile(v, 95), 2)}
        for stage, v in samples.items()
    }


def _requests(size: int, options: LatencyOptions) -> list[PrehookRequest]:
    # The same requests for the system and the naive hook, whatever ran before.
    rng = random.Random(options.seed + size)
    return make_requests(options.warmup + options.runs, size, rng, options.meta_share)


async def _time_prehook(
    engine: MemoryEngine, size: int, options: LatencyOptions, config: PrehookConfig
) -> tuple[list[float], list[float], dict[str, list[float]]]:
    """The real pre-hook's times (ms): each request's, each without its query embedding, per stage."""
    hook = PreHook(engine, config)
    totals: list[float] = []
    no_embed: list[float] = []
    stages: dict[str, list[float]] = {s: [] for s in STAGES}
    for n, request in enumerate(tqdm(_requests(size, options), desc="pre-hook", unit="req", file=sys.stderr)):
        t = time.perf_counter()
        result = await hook.run(request)
        elapsed = (time.perf_counter() - t) * 1000
        if n < options.warmup:
            continue
        totals.append(elapsed)
        no_embed.append(elapsed - result.stage_ms.get("embed", 0.0))
        for stage in STAGES:
            stages[stage].append(result.stage_ms.get(stage, 0.0))
    await hook.aclose()
    return totals, no_embed, stages


async def _time_naive(
    engine: MemoryEngine,
    data_dir: Path,
    size: int,
    options: LatencyOptions,
    embedder: Embedder,
    config: PrehookConfig,
) -> list[float]:
    """The naive hook's times (ms) on the embedded backend's own LanceDB tables."""
    # The naive hook reads the same LanceDB table through its own connection, and embeds
    # without the cache (it had none).
    raw = getattr(embedder, "inner", embedder)
    # The embedded backend's LanceDB directory under the data directory.
    import lancedb  # only the embedded naive baseline needs it: the load bench's workers never do

    db = await lancedb.connect_async(str(data_dir / "lancedb"))
    baseline: list[float] = []
    try:
        naive = NaivePreHook(
            engine, await db.open_table("memories"), await db.open_table("messages"), raw, config
        )
        count = min(options.runs, options.baseline_runs)
        requests = _requests(size, options)[: options.warmup + count]
        for n, request in enumerate(tqdm(requests, desc="naive", unit="req", file=sys.stderr)):
            t = time.perf_counter()
            await naive.run(request)
            if n >= options.warmup:
                baseline.append((time.perf_counter() - t) * 1000)
    finally:
        db.close()
    return baseline


async def measure_size(
    size: int, options: LatencyOptions, embedder: Embedder, config: PrehookConfig
) -> dict[str, Any]:
    """One entry of `runs`: the system and the naive hook on `size` synthetic memories."""
    backend = options.backend
    baseline: list[float] = []
    with tempfile.TemporaryDirectory(prefix="memorybot-latency-") as tmp:
        async with backend.claimed(embedder.dim) as claim:
            clock = Clock()
            if claim.kept is not None:
                clock.offset = time.time() - float(claim.kept["ready"])
            engine = await MemoryEngine.open(
                backend.location(Path(tmp)), embedder, reconcile=False, clock=clock
            )
            try:
                wanted = fill_record(size, options, embedder)
                if claim.kept is not None:
                    setup = await check_kept(engine, claim, wanted)
                    setup["warm_s"] = 0.0
                    setup["index_rows"] = await engine.warm_search()
                    freeze_startup_heap()
                elif backend.url:
                    now = clock()
                    setup = await _fill_postgres(
                        engine,
                        size,
                        options.messages,
                        options.seed,
                        options.maintenance_work_mem,
                        options.vectors_dir,
                        now,
                    )
                    if backend.keep:
                        record = {**wanted, "now": now, "ready": clock(), "setup": setup}
                        # What later runs check the rows against (itself checked against the fill).
                        record["fingerprint"] = await checked_fingerprint(engine, record)
                        await claim.record(record)
                else:
                    setup = await _fill(engine, size, options.messages, options.seed, options.vectors_dir)
                _log(f"{size:,} memories ready: {setup}")
                totals, no_embed, stages = await _time_prehook(engine, size, options, config)
                if not backend.url:
                    baseline = await _time_naive(engine, Path(tmp), size, options, embedder, config)
            finally:
                await engine.close()
    system_p95 = percentile(totals, 95)
    without = f"{percentile(no_embed, 95):.1f} ms without the query embedding"
    if baseline:
        baseline_p95 = percentile(baseline, 95)
        _log(f"{size:,}: system p95 {system_p95:.1f} ms ({without}), naive p95 {baseline_p95:.1f} ms")
    else:
        _log(f"{size:,}: system p95 {system_p95:.1f} ms ({without}); no naive hook on {backend.name}")
    return {
        "memories": size,
        "setup": setup,
        "system": {
            "p50_ms": round(percentile(totals, 50), 2),
            "p95_ms": round(system_p95, 2),
            "p99_ms": round(percentile(totals, 99), 2),
            # The pre-hook's own work: each request's time minus its query embedding.
            "p50_without_embed_ms": round(percentile(no_embed, 50), 2),
            "p95_without_embed_ms": round(percentile(no_embed, 95), 2),
            "p99_without_embed_ms": round(percentile(no_embed, 99), 2),
            "embed_p50_ms": round(percentile(stages["embed"], 50), 2),
            "stages": _stage_summary(stages),
            "rss_mb": peak_rss_mb(),
        },
        # The naive hook is LanceDB's flat search: it has no PostgreSQL counterpart.
        "baseline": {
            "p50_ms": round(percentile(baseline, 50), 2),
            "p95_ms": round(baseline_p95, 2),
        }
        if baseline
        else None,
        "speedup_p95": round(baseline_p95 / system_p95, 1) if baseline and system_p95 > 0 else None,
    }


async def run_latency(
    options: LatencyOptions, embedder: Embedder, config: PrehookConfig | None = None
) -> dict[str, Any]:
    """Measure every size in `options.sizes`; writes latency.json and latency.png under `options.out`
    (the plot only where matplotlib is installed)."""
    config = config or PrehookConfig()
    if options.backend.keep and len(options.sizes) != 1:
        # A database holds one kept fill: a second size would find the first one's.
        raise ConfigError("--keep times one size per run: pass a single --memories")
    await warm_up(embedder)
    report = {
        "backend": await options.backend.describe(embedder.dim),
        "runs": [await measure_size(size, options, embedder, config) for size in options.sizes],
    }
    if options.out is not None:
        await write_report(options.out, "latency.json", report)
        if can_plot():
            await asyncio.to_thread(plot_latency, report, options.out / "latency.png")
    return report


def plot_latency(report: dict[str, Any], path: Path) -> None:
    """Left: end-to-end p50/p95 of the system and the naive hook by size; right: stage p95 by size."""
    import matplotlib

    matplotlib.use("Agg")  # files only, no display
    import matplotlib.pyplot as plt

    runs = report["runs"]
    sizes = [r["memories"] for r in runs]
    labels = [f"{s:,}" for s in sizes]
    x = np.arange(len(sizes))
    fig, (left, right) = plt.subplots(1, 2, figsize=(12, 4.5))
    series = [
        ("system p50", [r["system"]["p50_ms"] for r in runs]),
        ("system p95", [r["system"]["p95_ms"] for r in runs]),
        ("system p99", [r["system"]["p99_ms"] for r in runs]),
    ]
    if all(r["baseline"] for r in runs):  # no naive hook on PostgreSQL
        series += [
            ("naive p50", [r["baseline"]["p50_ms"] for r in runs]),
            ("naive p95", [r["baseline"]["p95_ms"] for r in runs]),
        ]
    width = 0.8 / len(series)
    for n, (name, values) in enumerate(series):
        left.bar(x + (n - len(series) / 2 + 0.5) * width, values, width, label=name)
    left.set_yscale("log")
    left.set_xticks(x, labels)
    left.set_xlabel("memories")
    left.set_ylabel("pre-hook latency (ms, log)")
    left.set_title("end to end, query embedding included")
    left.legend(fontsize=8)
    width = 0.8 / len(STAGES)
    for n, stage in enumerate(STAGES):
        values = [r["system"]["stages"][stage]["p95_ms"] for r in runs]
        right.bar(x + (n - len(STAGES) / 2 + 0.5) * width, values, width, label=stage)
    right.set_xticks(x, labels)
    right.set_xlabel("memories")
    right.set_ylabel("p95 (ms)")
    right.set_title("system pre-hook stages (sql and vector overlap)")
    right.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
