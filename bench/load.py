"""Load benchmark: many conversations at once through coalescer, pipeline, a paced fake model and real stores.

`run_load` opens the bot the way `memorybot run` does (`App.start`: real SQLite, LanceDB and
embedder, in a temporary directory) with a stand-in model that waits a realistic, jittered
delay before answering. Simulated users then talk in `channels` conversations spread over a
few Discord and Slack workspaces, some of them DMs: each conversation sends bursts of 1-4
messages (gaps shorter than the debounce, so the coalescer really batches), usually waits for
the bot's reply, thinks a little, and goes on. Every message goes through one `Coalescer`
whose handler is `TurnPipeline.handle`, exactly as an adapter wires it.

Every message carries a unique marker (`code-CCCC-NNNNNN`, conversation and message number),
so the benchmark can tell where any text the model sees came from. It reports:

- `throughput_msgs_per_s`: messages / seconds from the first message to the last reply;
- `overhead_ms`: per batch, the handler's wall time minus the time spent inside the model
  (all its calls for that turn, tool rounds included), i.e. what the bot itself adds;
- `messages_lost`: messages not found, with their text, in SQLite after the run, plus those
  of batches whose handler raised;
- `cross_channel_leaks`: injected items (memories, past turns, summaries) the privacy rules
  forbid in that conversation, plus markers of another workspace or of someone else's DM
  found in anything sent to the model (system prompt, history, context blocks, tool results,
  and the background summary calls);
- `rss_mb`: the process's peak resident set size.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import random
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field, replace
from functools import partial
from pathlib import Path
from typing import Any

from pydantic import SecretStr
from tqdm import tqdm

from adapters.base import IncomingMessage
from adapters.coalescer import Coalescer, LoopScheduler
from bot.app import App
from bot.config import Settings
from bot.pipeline import audience_of
from memory.embedders import Embedder, warm_up
from memory.errors import ConfigError
from memory.models import Scope

from .backend import BenchBackend
from .load_model import MARKER, METER, LeakLog, Origin, PacedModel, TurnMeter, injection_leaks, where
from .recall import peak_rss_mb, percentiles
from .report import write_report
from .synthetic import USERS, fill

log = logging.getLogger(__name__)

MAX_CHANNELS = 9_999  # the marker's widths
MAX_MESSAGES = 999_999
START_TIMEOUT = 600.0  # seconds a bot process waits for the others to be up

TEMPLATES = [
    "I prefer {food} for lunch, my ticket is {marker}.",
    "Remember that the {project} deploy code is {marker}.",
    "We decided to move {project} to {tool}; reference {marker}.",
    "I am flying to {city} next {day} for {hobby}, booking {marker}.",
    "I need to rotate the {tool} credentials before {day}, ticket {marker}.",
    "The {project} build broke again on {day}, see {marker}.",
    "Can you remind me what we said about {project}? {marker}",
    "I love {food}. My locker code is {marker}",
    "Who owns the {tool} migration for {project}? asking for {marker}",
    "What did we talk about this week? {marker}",
]


@dataclass(slots=True)
class LoadOptions:
    """What `run_load` simulates; delays are in seconds except `model_delay_ms`."""

    channels: int = 50
    messages: int = 5000
    workspaces: int = 4
    users_per_workspace: int = 8
    model_delay_ms: float = 150.0
    jitter: float = 0.5  # each model call waits delay × uniform(1 - jitter, 1 + jitter)
    dm_share: float = 0.2
    mention_share: float = 0.3
    tool_share: float = 0.2  # turns where the model first calls `remember`
    json_share: float = 0.1  # turns answered in the JSON form with a memory
    wait_share: float = 0.85  # bursts after which the user waits for the reply
    debounce: float = 0.05
    max_wait: float = 0.5
    think: float = 0.1  # pause after a reply, at most
    reply_timeout: float = 300.0  # a user stops waiting for a reply after this long
    seed: int = 7
    out: Path | None = None
    processes: int = 1
    backend: BenchBackend = field(default_factory=BenchBackend)

    def check(self) -> None:
        if not 1 <= self.channels <= MAX_CHANNELS:
            raise ValueError(f"channels must be within 1..{MAX_CHANNELS}, got {self.channels}")
        if not 1 <= self.messages <= MAX_MESSAGES:
            raise ValueError(f"messages must be within 1..{MAX_MESSAGES}, got {self.messages}")
        if self.workspaces < 1 or self.users_per_workspace < 1:
            raise ValueError("workspaces and users_per_workspace must be positive")
        if self.model_delay_ms < 0 or not 0 <= self.jitter <= 1:
            raise ValueError("model_delay_ms must be >= 0 and jitter within 0..1")
        if self.processes > 1 and not self.backend.url:
            raise ConfigError(
                "more than one bot process needs PostgreSQL (a database URL): the embedded "
                "backend's data directory belongs to one process"
            )
        if not 1 <= self.processes <= self.workspaces:
            raise ValueError(
                f"processes must be within 1..{self.workspaces} (each serves whole workspaces), "
                f"got {self.processes}"
            )


@dataclass(frozen=True, slots=True)
class Conversation:
    """One simulated conversation: a shared channel, or the DM of `dm_user`."""

    index: int
    platform: str
    workspace_id: str
    channel_id: str
    users: tuple[str, ...]
    is_dm: bool = False


def conversations(options: LoadOptions, rng: random.Random) -> list[Conversation]:
    """Shared channels round-robin over the workspaces, then DMs (the last `dm_share` of them).

    Workspaces alternate Discord and Slack; their members overlap, so the same user id speaks in
    several workspaces. A Discord DM lives in the `dm-<user>` pseudo-workspace as the adapter
    makes it; a Slack DM in its team's workspace, where only the visibility keeps it private.
    """
    members: list[tuple[str, str, tuple[str, ...]]] = []
    for w in range(options.workspaces):
        platform = "discord" if w % 2 == 0 else "slack"
        workspace = f"guild-{w}" if platform == "discord" else f"T{w:04d}"
        people = tuple(rng.sample(USERS, min(options.users_per_workspace, len(USERS))))
        members.append((platform, workspace, people))
    dms = round(options.channels * options.dm_share) if options.channels >= 3 else 0
    shared = options.channels - dms
    convs: list[Conversation] = []
    for i in range(shared):
        platform, workspace, people = members[i % len(members)]
        channel = f"C{i:04d}"
        convs.append(Conversation(i, platform, workspace, channel, people))
    for i in range(shared, options.channels):
        platform, workspace, people = members[i % len(members)]
        user = people[(i // len(members)) % len(people)]
        if platform == "discord":
            workspace = f"dm-{user}"
        convs.append(Conversation(i, platform, workspace, f"D{i:04d}", (user,), is_dm=True))
    return convs


def plan_messages(
    convs: Sequence[Conversation], options: LoadOptions, rng: random.Random
) -> dict[int, list[IncomingMessage]]:
    """Every message each conversation will send, in order; timestamps are stamped at send time."""
    plan: dict[int, list[IncomingMessage]] = {c.index: [] for c in convs}
    for n in range(options.messages):
        conv = convs[n % len(convs)]
        author = rng.choice(conv.users)
        text = fill(rng.choice(TEMPLATES), rng, marker=f"code-{conv.index:04d}-{n:06d}")
        plan[conv.index].append(
            IncomingMessage(
                platform=conv.platform,
                workspace_id=conv.workspace_id,
                channel_id=conv.channel_id,
                author_id=author,
                author_name=author.capitalize(),
                text=text,
                external_id=f"load-{n:06d}",
                is_dm=conv.is_dm,
                mentions_bot=not conv.is_dm and rng.random() < options.mention_share,
            )
        )
    return plan


def _log(message: str) -> None:
    # stdout carries only the JSON.
    tqdm.write(message, file=sys.stderr)


async def _count_lost(app: App, plan: Mapping[int, Sequence[IncomingMessage]], failed: set[str]) -> int:
    """Submitted messages whose text is not stored in their channel, plus those of failed batches."""
    agent = app.pipeline.agent_id
    lost = set(failed)
    for sent in plan.values():
        if not sent:
            continue
        first = sent[0]
        # Each batch adds at most one reply, so twice the messages (and some slack) covers them all.
        rows = await app.engine.recent_turns(
            Scope(first.platform, first.workspace_id, first.channel_id, agent), limit=2 * len(sent) + 10
        )
        stored = {row.external_id: row.content for row in rows if row.role == "user"}
        lost.update(m.external_id for m in sent if stored.get(m.external_id) != m.text and m.external_id)
    return len(lost)


def shards(convs: Sequence[Conversation], processes: int) -> list[list[Conversation]]:
    """The conversations each bot process serves, as Discord shards split a bot's guilds: a whole
    workspace lives in one process (its ordinal modulo `processes`), Discord DMs in the first, as
    Discord delivers DMs to shard 0; a Slack DM stays with its team's workspace."""
    ordinals: dict[str, int] = {}
    out: list[list[Conversation]] = [[] for _ in range(processes)]
    for conv in convs:
        if conv.platform == "discord" and conv.is_dm:
            out[0].append(conv)
            continue
        ordinal = ordinals.setdefault(conv.workspace_id, len(ordinals))
        out[ordinal % processes].append(conv)
    return out


def _plan(options: LoadOptions) -> tuple[list[Conversation], dict[int, list[IncomingMessage]]]:
    # Deterministic in the seed: every process rebuilds the same plan and keeps its share.
    rng = random.Random(options.seed)
    convs = conversations(options, rng)
    return convs, plan_messages(convs, options, rng)


async def _drive(
    options: LoadOptions,
    convs: Sequence[Conversation],
    plan: Mapping[int, Sequence[IncomingMessage]],
    embedder: Embedder,
    settings: Settings,
    start_gate: Callable[[], Awaitable[None]] | None = None,
) -> dict[str, Any]:
    """One bot process: `App.start` on the run's storage, then the conversations `convs` talk to it.

    `plan` holds every conversation's messages (the leak checks know where each marker was
    said); only those of `convs` are sent. `start_gate` is awaited once the bot is up, so that
    several processes start talking together. Returns this process's raw figures.
    """
    origins = {MARKER.findall(m.text)[0]: Origin.of(m) for sent in plan.values() for m in sent}
    mine = {c.index: list(plan[c.index]) for c in convs}
    messages = sum(len(sent) for sent in mine.values())
    leaks = LeakLog()
    overhead_ms: list[float] = []
    failed: set[str] = set()
    replied: dict[str, asyncio.Event] = {}
    stats = {"batches": 0, "replies": 0, "turn_errors": 0, "injected": 0, "reply_timeouts": 0}

    with tempfile.TemporaryDirectory(prefix="memorybot-load-", ignore_cleanup_errors=True) as tmp:
        update: dict[str, Any] = {"data_dir": Path(tmp)}
        if options.backend.url:
            update["database_url"] = SecretStr(options.backend.url)
        run_settings = settings.model_copy(update={"storage": settings.storage.model_copy(update=update)})
        agent_id = run_settings.storage.agent_id
        model = PacedModel(options, origins, agent_id, leaks)
        app = await App.start(run_settings, embedder=embedder, llm=model)
        try:
            # The model load is start-up cost, not load.
            await warm_up(getattr(embedder, "inner", embedder))
            if start_gate is not None:
                await start_gate()
            bar = tqdm(total=messages, desc="load", unit="msg", file=sys.stderr, leave=False)

            async def handle(batch: list[IncomingMessage]) -> None:
                last = batch[-1]
                audience = audience_of(last, agent_id)
                markers = [mk for m in batch for mk in MARKER.findall(m.text)]
                meter = TurnMeter(audience, last.author_name, markers)
                token = METER.set(meter)
                started = time.perf_counter()
                try:
                    result = await app.pipeline.handle(batch)
                except Exception:
                    failed.update(m.external_id for m in batch if m.external_id)
                    log.exception("load batch failed", extra={"batch_size": len(batch)})
                    return
                finally:
                    elapsed = time.perf_counter() - started
                    meter.closed = True
                    METER.reset(token)
                    for m in batch:
                        replied[m.external_id or ""].set()
                    bar.update(len(batch))
                overhead_ms.append(max(0.0, elapsed - meter.model_seconds) * 1000)
                stats["batches"] += 1
                stats["replies"] += result.reply is not None
                stats["turn_errors"] += result.error is not None
                stats["injected"] += len(result.injected)
                forbidden = injection_leaks(result.prehook, audience)
                leaks.add(len(forbidden), f"injected {forbidden[:3]} into {where(audience)}")

            coalescer = Coalescer(
                handle, debounce=options.debounce, max_wait=options.max_wait, scheduler=LoopScheduler()
            )

            async def speak(conv: Conversation, sent: list[IncomingMessage]) -> None:
                talk = random.Random(options.seed * 100_003 + conv.index)
                await asyncio.sleep(talk.uniform(0, 0.5))  # users do not all start at once
                i = 0
                while i < len(sent):
                    burst = sent[i : i + talk.choice((1, 1, 2, 2, 3, 4))]
                    i += len(burst)
                    for message in burst:
                        replied[message.external_id or ""] = asyncio.Event()
                        # Stamped now: the pipeline orders history and recency by it.
                        coalescer.submit(replace(message, timestamp=time.time()))
                        await asyncio.sleep(talk.uniform(0, options.debounce * 0.5))
                    if talk.random() < options.wait_share:
                        try:
                            await asyncio.wait_for(
                                replied[burst[-1].external_id or ""].wait(), options.reply_timeout
                            )
                        except TimeoutError:
                            # The user moves on; what they send next queues behind the late turn.
                            stats["reply_timeouts"] += 1
                    await asyncio.sleep(talk.uniform(0, options.think))

            started_at = time.time()
            started = time.perf_counter()
            await asyncio.gather(*(speak(c, mine[c.index]) for c in convs))
            await coalescer.aclose()
            wall = time.perf_counter() - started
            ended_at = time.time()
            bar.close()
            await app.pipeline.idle()
            lost = await _count_lost(app, mine, failed)
            usage = app.pipeline.llm_usage.snapshot()
        finally:
            await app.close()

    _log(
        f"{messages} messages in {len(convs)} conversations ({sum(c.is_dm for c in convs)} DMs): "
        f"{stats['batches']} batches, {stats['replies']} replies, {model.calls} model calls, "
        f"{stats['injected']} memories injected, {stats['turn_errors']} model errors, {wall:.1f} s"
    )
    if stats["reply_timeouts"]:
        _log(f"{stats['reply_timeouts']} bursts got no reply within {options.reply_timeout:.0f} s")
    if model.unattributed:
        _log(f"{model.unattributed} model calls ran outside any turn (not checked for leaks)")
    return {
        "workspaces": sorted({c.workspace_id for c in convs}),
        "channels": len(convs),
        "messages": messages,
        "wall_s": wall,
        "started_at": started_at,
        "ended_at": ended_at,
        "overhead_ms": overhead_ms,
        "messages_lost": lost,
        "cross_channel_leaks": leaks.count,
        "leak_examples": leaks.examples,
        "replies": stats["replies"],
        "reply_calls": sum(c.calls for (_, purpose), c in usage.items() if purpose == "reply"),
        "background_calls": sum(c.calls for (_, purpose), c in usage.items() if purpose != "reply"),
        "rss_mb": peak_rss_mb(),
    }


def _overhead(samples: Sequence[float]) -> dict[str, float]:
    return percentiles(samples, (50, 95, 99), digits=1) if samples else {"p50": 0.0, "p95": 0.0, "p99": 0.0}


def _calls_per_reply(shares: Sequence[Mapping[str, Any]]) -> dict[str, float]:
    per = max(1, sum(s["replies"] for s in shares))
    return {
        "reply": round(sum(s["reply_calls"] for s in shares) / per, 3),
        "background": round(sum(s["background_calls"] for s in shares) / per, 3),
    }


def combine(shares: Sequence[Mapping[str, Any]], backend: dict[str, Any]) -> dict[str, Any]:
    """The report of a run from each process's figures: totals, and each process on its own."""
    messages = sum(s["messages"] for s in shares)
    # From the first message any process sent to the last reply any process gave.
    wall = max(s["ended_at"] for s in shares) - min(s["started_at"] for s in shares)
    if len(shares) == 1:
        wall = shares[0]["wall_s"]  # the monotonic clock's, when one process ran
    return {
        "backend": backend,
        "processes": len(shares),
        "throughput_msgs_per_s": round(messages / wall, 2) if wall > 0 else 0.0,
        "overhead_ms": _overhead([ms for s in shares for ms in s["overhead_ms"]]),
        "messages_lost": sum(s["messages_lost"] for s in shares),
        "cross_channel_leaks": sum(s["cross_channel_leaks"] for s in shares),
        "model_calls_per_reply": _calls_per_reply(shares),
        # What the bot processes hold together (each one's peak).
        "rss_mb": round(sum(s["rss_mb"] for s in shares), 1),
        "per_process": [
            {
                "process": n,
                "workspaces": s["workspaces"],
                "channels": s["channels"],
                "messages": s["messages"],
                "throughput_msgs_per_s": round(s["messages"] / s["wall_s"], 2) if s["wall_s"] > 0 else 0.0,
                "overhead_ms": _overhead(s["overhead_ms"]),
                "messages_lost": s["messages_lost"],
                "cross_channel_leaks": s["cross_channel_leaks"],
                "rss_mb": s["rss_mb"],
            }
            for n, s in enumerate(shares)
        ],
    }


def _settings_embedder(settings: Settings) -> Embedder:
    # In a bot process: the embedder the settings name, as `memorybot run` builds it.
    from bot.app import build_embedder

    return build_embedder(settings)


def _process_main(
    options: LoadOptions,
    settings: Settings,
    make_embedder: Callable[[], Embedder],
    process: int,
    gate: Any,
) -> dict[str, Any]:
    """A spawned bot process: its share of the conversations, on the shared database."""
    logging.basicConfig(level=logging.WARNING, stream=sys.stderr)
    convs, plan = _plan(options)
    mine = shards(convs, options.processes)[process]

    async def start_together() -> None:
        # Every process has started its bot (model loaded) before anyone talks.
        await asyncio.to_thread(gate.wait, START_TIMEOUT)

    return asyncio.run(_drive(options, mine, plan, make_embedder(), settings, start_together))


async def _run_processes(
    options: LoadOptions, settings: Settings, make_embedder: Callable[[], Embedder]
) -> list[dict[str, Any]]:
    # Spawned, not forked: each bot process starts clean, as separate `memorybot run` would.
    context = multiprocessing.get_context("spawn")
    with context.Manager() as manager, ProcessPoolExecutor(options.processes, mp_context=context) as pool:
        gate = manager.Barrier(options.processes)
        loop = asyncio.get_running_loop()
        jobs = [
            loop.run_in_executor(pool, _process_main, options, settings, make_embedder, n, gate)
            for n in range(options.processes)
        ]
        return list(await asyncio.gather(*jobs))


async def run_load(
    options: LoadOptions,
    embedder: Embedder,
    settings: Settings | None = None,
    make_embedder: Callable[[], Embedder] | None = None,
) -> dict[str, Any]:
    """Run the load simulation; returns the report (and writes `load.json` under `options.out`).

    With `options.processes` above 1 (PostgreSQL only), each bot process builds its embedder
    with `make_embedder` (picklable; by default the one `settings` names).
    """
    options.check()
    settings = settings or Settings.load(env_file=None)
    backend = await options.backend.describe(embedder.dim)
    async with options.backend.claimed(embedder.dim):
        if options.processes == 1:
            convs, plan = _plan(options)
            shares = [await _drive(options, convs, plan, embedder, settings)]
        else:
            factory = make_embedder or partial(_settings_embedder, settings)
            shares = await _run_processes(options, settings, factory)
    report = combine(shares, backend)
    for share in shares:
        for example in share["leak_examples"]:
            _log(f"leak: {example}")
    if options.out is not None:
        await write_report(options.out, "load.json", report)
    return report
