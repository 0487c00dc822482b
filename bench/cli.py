"""`memorybot bench locomo|latency|load`: parser, runner, and a standalone `python -m bench.cli` entry."""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from memory.errors import ConfigError

from .extra import INSTALL, PLOTS, can_plot, missing

if TYPE_CHECKING:
    from bot.config import Settings
    from memory.embedders import Embedder

    from .backend import BenchBackend

DEFAULT_OUT = Path("bench") / "results"


def _sizes(raw: str) -> list[int]:
    try:
        sizes = [int(part.replace("_", "")) for part in raw.split(",") if part.strip()]
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected comma-separated counts, got {raw!r}") from None
    if not sizes or any(s < 1 for s in sizes):
        raise argparse.ArgumentTypeError(f"expected positive counts, got {raw!r}")
    return sizes


def _positive(raw: str) -> int:
    value = int(raw)
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a positive number, got {raw!r}")
    return value


def _non_negative(raw: str) -> float:
    value = float(raw)
    if value < 0:
        raise argparse.ArgumentTypeError(f"expected a number >= 0, got {raw!r}")
    return value


DATABASE_HELP = (
    "a postgresql:// URL to run on PostgreSQL (default: MEMORYBOT_DATABASE_URL; unset or '' = the "
    "embedded backend in a temporary directory). The database must hold no memorybot rows: the run "
    "refuses one that does, and empties the tables it filled when it ends. `python -m bench.pg_server` "
    "starts a throwaway server and prints its URL"
)
RESET_HELP = (
    "empty the memorybot tables of --database-url before the run (TRUNCATE, schema kept) instead of "
    "refusing a non-empty database: only for a database kept for benchmarks"
)


def _add_backend(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--database-url", default=None, metavar="URL", help=DATABASE_HELP)
    parser.add_argument("--reset", action="store_true", help=RESET_HELP)


def add_bench_parser(subparsers: Any) -> argparse.ArgumentParser:
    """Add `bench` with its `locomo`, `latency`, `load` and `dates` commands to a CLI's subparsers."""
    bench = subparsers.add_parser(
        "bench", help="benchmarks: LoCoMo retrieval, pre-hook latency at scale, load"
    )
    sub = bench.add_subparsers(dest="bench_command", required=True)

    locomo = sub.add_parser("locomo", help="evidence recall of the pre-hook on a LoCoMo-format file")
    locomo.add_argument("--data", required=True, type=Path, help="LoCoMo-format JSON file")
    locomo.add_argument(
        "--out", type=Path, default=DEFAULT_OUT, help=f"results directory (default {DEFAULT_OUT})"
    )
    locomo.add_argument("--limit", type=_positive, default=None, help="only the first N conversations")
    locomo.add_argument(
        "--max-questions",
        type=_positive,
        default=None,
        help="only the first N questions of each conversation",
    )
    _add_backend(locomo)
    locomo.add_argument(
        "--folds",
        action="store_true",
        help="leave one conversation out: each conversation's figures, knobs chosen on the others",
    )
    locomo.add_argument(
        "--vary",
        action="append",
        default=[],
        metavar="KNOB=V1,V2",
        help="with --folds: pre-hook knob values to choose from (repeatable; every combination)",
    )
    locomo.add_argument(
        "--token-cap",
        type=_positive,
        default=None,
        help="with --folds: mean injected tokens a chosen variant may spend (default 1200)",
    )

    latency = sub.add_parser("latency", help="pre-hook latency on synthetic memories, beside a naive hook")
    latency.add_argument(
        "--memories",
        type=_sizes,
        default=[10_000, 100_000],
        help="comma-separated counts (default 10000,100000)",
    )
    latency.add_argument(
        "--out", type=Path, default=DEFAULT_OUT, help=f"results directory (default {DEFAULT_OUT})"
    )
    latency.add_argument("--runs", type=_positive, default=200, help="timed requests per size (default 200)")
    latency.add_argument("--warmup", type=int, default=10, help="untimed requests first (default 10)")
    latency.add_argument(
        "--baseline-runs",
        type=_positive,
        default=100,
        help="timed naive requests (default 100, at most --runs)",
    )
    latency.add_argument("--messages", type=int, default=3000, help="past turns stored beside the memories")
    latency.add_argument("--seed", type=int, default=7)
    _add_backend(latency)
    latency.add_argument(
        "--keep",
        action="store_true",
        help="PostgreSQL: leave the filled memories in --database-url when the run ends (recorded "
        "with their size, seed, turns and model), and time a fill left so instead of refusing the "
        "database, once its rows are checked to be exactly the fill this run would make (one size)",
    )
    latency.add_argument(
        "--maintenance-work-mem",
        default="1GB",
        help="PostgreSQL: memory for building the HNSW index after the bulk load (default 1GB)",
    )
    latency.add_argument(
        "--vectors-dir",
        type=Path,
        default=None,
        metavar="DIR",
        help="keep the synthetic memories' vectors in DIR (one .npy per model, size and seed) and "
        "reuse them: the other backend's run, or a rerun, then skips embedding them",
    )

    load = sub.add_parser(
        "load", help="many channels at once through coalescer, pipeline and stores, with a paced fake model"
    )
    load.add_argument(
        "--channels", type=_positive, default=50, help="conversations, DMs included (default 50)"
    )
    load.add_argument("--messages", type=_positive, default=5000, help="messages in all (default 5000)")
    load.add_argument(
        "--workspaces", type=_positive, default=4, help="Discord and Slack workspaces (default 4)"
    )
    load.add_argument(
        "--model-delay-ms",
        type=_non_negative,
        default=150.0,
        help="mean time of one fake model call, jittered by ±50%% (default 150)",
    )
    load.add_argument(
        "--out", type=Path, default=DEFAULT_OUT, help=f"results directory (default {DEFAULT_OUT})"
    )
    load.add_argument("--seed", type=int, default=7)
    load.add_argument(
        "--processes",
        type=_positive,
        default=1,
        help="bot processes sharing one PostgreSQL database, each serving its share of the "
        "workspaces as Discord shards do (default 1; more needs --database-url)",
    )
    _add_backend(load)

    dates = sub.add_parser(
        "dates", help="the extractor's date rules beside dateparser, on a labelled set of messages"
    )
    dates.add_argument(
        "--out", type=Path, default=DEFAULT_OUT, help=f"results directory (default {DEFAULT_OUT})"
    )
    return bench


def _backend(args: argparse.Namespace, settings: Settings) -> BenchBackend:
    """`--database-url` (else MEMORYBOT_DATABASE_URL; '' = embedded), `--reset` and `--keep` (latency)."""
    from .backend import backend_from

    url = args.database_url
    if url is None and settings.storage.database_url is not None:
        url = settings.storage.database_url.get_secret_value()
    return backend_from(url, args.reset, getattr(args, "keep", False))


async def run_bench(args: argparse.Namespace, settings: Settings | None = None) -> int:
    """Run the chosen benchmark; prints its JSON on stdout (progress goes to stderr).

    `settings` picks the embedder and the pre-hook knobs; by default they come from the
    environment only (no `.env`), so a run measures the shipped defaults unless asked otherwise.
    """
    # Local imports: the bot's CLI stays quick to start when no benchmark runs.
    from bot.app import build_embedder
    from bot.config import Settings

    if args.bench_command != "dates" and (absent := missing()):
        sys.stderr.write(f"memorybot bench: {' and '.join(absent)} not installed: {INSTALL}\n")
        return 2
    if args.bench_command != "dates" and not can_plot():
        sys.stderr.write(f"memorybot bench: {PLOTS} not installed, so no plots (JSON only): {INSTALL}\n")
    if args.bench_command == "dates":
        from .relative_dates import run

        dates = run(args.out)
        sys.stdout.write(json.dumps(dates, indent=2, ensure_ascii=False) + "\n")
        return 0
    settings = settings or Settings.load(env_file=None)
    try:
        report = await _run(args, settings, build_embedder)
    except ConfigError as exc:
        # A database that is not the benchmark's to fill, more processes than the embedded
        # backend allows, a URL that is not PostgreSQL's: nothing was changed.
        sys.stderr.write(f"memorybot bench: {exc}\n")
        return 2
    if report is None:
        return 2
    sys.stdout.write(json.dumps(report, indent=2) + "\n")
    sys.stdout.flush()
    if args.out is not None:
        sys.stderr.write(f"results written under {args.out}\n")
    return 0


async def _run(
    args: argparse.Namespace, settings: Settings, build_embedder: Callable[[Settings], Embedder]
) -> dict[str, Any] | None:
    """The chosen benchmark's report, or None after saying on stderr why it cannot run."""
    report: dict[str, Any]
    backend = _backend(args, settings)
    if args.bench_command == "load":
        from .load import LoadOptions

        load_options = LoadOptions(
            channels=args.channels,
            messages=args.messages,
            workspaces=args.workspaces,
            model_delay_ms=args.model_delay_ms,
            seed=args.seed,
            out=args.out,
            processes=args.processes,
            backend=backend,
        )
        load_options.check()  # before the embedding model loads
    embedder = build_embedder(settings)
    if args.bench_command == "locomo":
        from .locomo import run_locomo

        if not args.data.is_file():
            sys.stderr.write(f"memorybot bench: no such file {args.data}\n")
            return None
        if args.folds or args.vary:
            if backend.url:
                sys.stderr.write("memorybot bench: --folds runs on the embedded backend only\n")
                return None
            return await _run_folds(args, embedder, settings)
        report = await run_locomo(
            args.data, embedder, args.out, args.limit, args.max_questions, settings=settings, backend=backend
        )
    elif args.bench_command == "latency":
        from .latency import LatencyOptions, run_latency

        options = LatencyOptions(
            sizes=args.memories,
            out=args.out,
            runs=args.runs,
            warmup=max(0, args.warmup),
            messages=max(0, args.messages),
            seed=args.seed,
            baseline_runs=args.baseline_runs,
            backend=backend,
            maintenance_work_mem=args.maintenance_work_mem,
            vectors_dir=args.vectors_dir,
        )
        report = await run_latency(options, embedder, settings.prehook.prehook_config())
    elif args.bench_command == "load":
        from .load import run_load

        report = await run_load(load_options, embedder, settings)
    else:
        sys.stderr.write(f"memorybot bench: unknown benchmark {args.bench_command!r}\n")
        return None
    return report


async def _run_folds(args: argparse.Namespace, embedder: Any, settings: Settings) -> dict[str, Any] | None:
    from .folds import DEFAULT_TOKEN_CAP, parse_variants, run_folds

    try:
        variants = parse_variants(args.vary, settings.prehook.prehook_config())
    except ValueError as exc:
        sys.stderr.write(f"memorybot bench: {exc}\n")
        return None
    report = await run_folds(
        args.data,
        embedder,
        variants,
        args.out,
        args.limit,
        args.max_questions,
        settings=settings,
        token_cap=args.token_cap or DEFAULT_TOKEN_CAP,
    )
    return report


def main(argv: Sequence[str] | None = None) -> int:
    """Standalone entry: `python -m bench.cli locomo --data FILE`, `... latency` or `... load`."""
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
    parser = argparse.ArgumentParser(prog="python -m bench.cli", description="memorybot benchmarks")
    subparsers = parser.add_subparsers(dest="command", required=True)
    add_bench_parser(subparsers)
    # `python -m bench.cli locomo ...` reads as `bench locomo ...`.
    args = parser.parse_args(["bench", *(sys.argv[1:] if argv is None else argv)])
    # Per-memory write logs would drown the progress bars; LOG_LEVEL still wins.
    logging.basicConfig(level=os.environ.get("LOG_LEVEL", "WARNING").upper(), stream=sys.stderr)
    # The process the bot runs in, as `memorybot bench` has it: the matrix products on one BLAS
    # thread (a second one spinning for a core beside the SQL and the embedder slowed them tenfold).
    from bot.process import limit_blas_threads

    limit_blas_threads()
    try:
        return asyncio.run(run_bench(args))
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
