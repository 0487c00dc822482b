"""Both benchmarks end to end on tiny inputs: the JSON shapes the README documents, and a known recall."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np
import pytest
from threadpoolctl import threadpool_info, threadpool_limits

from bench.cli import add_bench_parser
from bench.cli import main as bench_main
from bench.extra import NEEDED, PLOTS, can_plot
from bench.latency import LatencyOptions, run_latency
from bench.locomo import run_locomo
from bench.vectors import KnownVectors
from bot.cli import main
from memory.embedders import CachedEmbedder, LocalEmbedder
from tests.fakes.embedders import CountingEmbedder, HashEmbedder
from tests.helpers import TINY_LOCOMO as CONVERSATION


def assert_plotted(path: Path) -> None:
    """A plot that is not empty where matplotlib (the bench extra) is installed; none otherwise."""
    if can_plot():
        assert path.stat().st_size > 0
    else:
        assert not path.exists()


RECALL_KEYS = {
    "injected_recall",
    "answer_in_block",
    "recall_at",
    "injected_items_mean",
    "injected_tokens_mean",
    "prehook_ms",
    "by_category",
}


@pytest.mark.model
async def test_locomo_on_a_two_session_conversation(tmp_path: Path, local_embedder: LocalEmbedder) -> None:
    data = tmp_path / "tiny.json"
    data.write_text(json.dumps(CONVERSATION), encoding="utf-8")
    out = tmp_path / "results"

    report = await run_locomo(data, CachedEmbedder(local_embedder), out)

    assert set(report) == {"backend", "dataset", "conversations", "questions", "system", "baselines"}
    assert report["backend"]["name"] == "embedded"
    assert (report["dataset"], report["conversations"], report["questions"]) == ("tiny.json", 1, 2)
    assert set(report["system"]) == RECALL_KEYS | {"small_talk_tokens_mean"}
    assert set(report["baselines"]) == {"vector_only", "bm25_only"}
    for block in (report["system"], *report["baselines"].values()):
        assert set(block) - {"small_talk_tokens_mean"} == RECALL_KEYS
        assert set(block["recall_at"]) == {"5", "10", "20"}
        assert set(block["prehook_ms"]) == {"p50", "p95"}
        assert set(block["by_category"]) == {"4"}
    # Five turns: any five of them are all of them, so the plain vector baseline must find every one.
    assert report["baselines"]["vector_only"]["recall_at"]["5"] == 1.0
    assert report["baselines"]["vector_only"]["injected_items_mean"] == 5.0
    # Each question paraphrases its one evidence turn: the pre-hook's block carries both, and with
    # them their answers ("Pixel", "Norway"), as does the baseline holding every turn.
    assert report["system"]["injected_recall"] == 1.0
    assert report["system"]["answer_in_block"] == 1.0
    assert report["baselines"]["vector_only"]["answer_in_block"] == 1.0
    assert 0 < report["system"]["injected_items_mean"] <= 20
    # Small talk asks for nothing: it is given less than the questions are.
    system = report["system"]
    assert 0 <= system["small_talk_tokens_mean"] < system["injected_tokens_mean"]
    assert json.loads((out / "tiny.json").read_text(encoding="utf-8")) == report
    assert_plotted(out / "tiny.png")


@pytest.mark.model
async def test_latency_reports_the_issue_shape(tmp_path: Path, local_embedder: LocalEmbedder) -> None:
    options = LatencyOptions(sizes=[80], out=tmp_path, runs=6, warmup=1, messages=10, baseline_runs=3)

    report = await run_latency(options, CachedEmbedder(local_embedder))

    (run,) = report["runs"]
    assert set(run) == {"memories", "setup", "system", "baseline", "speedup_p95"}
    assert run["memories"] == 80
    assert report["backend"]["name"] == "embedded"
    assert set(run["system"]) == {
        "p50_ms",
        "p95_ms",
        "p99_ms",
        "p50_without_embed_ms",
        "p95_without_embed_ms",
        "p99_without_embed_ms",
        "embed_p50_ms",
        "stages",
        "rss_mb",
    }
    assert 0 < run["system"]["p95_without_embed_ms"] <= run["system"]["p99_ms"]
    assert set(run["system"]["stages"]) == {"embed", "sql", "vector", "dedup", "format"}
    assert set(run["baseline"]) == {"p50_ms", "p95_ms"}
    assert run["system"]["p50_ms"] <= run["system"]["p95_ms"] <= run["system"]["p99_ms"]
    assert run["system"]["rss_mb"] > 0
    assert json.loads((tmp_path / "latency.json").read_text(encoding="utf-8")) == report
    assert_plotted(tmp_path / "latency.png")


def test_the_bench_parser_reads_both_commands() -> None:
    parser = argparse.ArgumentParser()
    add_bench_parser(parser.add_subparsers(dest="command"))
    args = parser.parse_args(["bench", "latency", "--memories", "10000,100_000", "--out", "x"])
    assert (args.bench_command, args.memories, args.out) == ("latency", [10_000, 100_000], Path("x"))
    args = parser.parse_args(["bench", "locomo", "--data", "f.json", "--limit", "2"])
    assert (args.bench_command, args.data, args.limit, args.max_questions) == (
        "locomo",
        Path("f.json"),
        2,
        None,
    )


def test_bench_without_its_extra_says_how_to_install_it(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    for module in (*NEEDED, PLOTS):
        monkeypatch.setitem(sys.modules, module, None)  # as if not installed
    assert main(["bench", "latency", "--memories", "10"]) == 2
    assert capsys.readouterr().err == 'memorybot bench: tqdm not installed: pip install -e ".[bench]"\n'


@pytest.mark.model
def test_bench_without_matplotlib_writes_its_json_and_says_the_plots_need_the_extra(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    monkeypatch.setitem(sys.modules, PLOTS, None)  # as if not installed
    out = tmp_path / "results"
    assert main(["bench", "latency", "--memories", "10", "--runs", "1", "--out", str(out)]) == 0
    err = capsys.readouterr().err
    assert 'matplotlib not installed, so no plots (JSON only): pip install -e ".[bench]"' in err
    assert list(out.glob("*.json")) and not list(out.glob("*.png"))


async def test_a_first_run_embeds_each_synthetic_text_once_across_chunks() -> None:
    counting = CountingEmbedder(HashEmbedder())
    known = KnownVectors(counting, [], None)

    first = await known.embed(["a cat", "a dog", "a cat"])
    second = await known.embed(["a dog", "a bird"])

    assert [t for call in counting.calls for t in call] == ["a cat", "a dog", "a bird"]
    assert np.array_equal(first[0], first[2]) and np.array_equal(second[0], first[1])
    stored = known.in_order(["a cat", "a dog", "a bird"])
    assert stored is not None and np.array_equal(stored[2], second[1])


def test_the_standalone_bench_entry_runs_blas_on_one_thread_as_the_bot_does(tmp_path: Path) -> None:
    # Timed with a second BLAS thread, the pre-hook's matrix products spun for a core: the
    # standalone entry measured another process than `memorybot bench` and the bot.
    with threadpool_limits(limits=2, user_api="blas"):
        assert bench_main(["dates", "--out", str(tmp_path)]) == 0
        threads = {pool["num_threads"] for pool in threadpool_info() if pool["user_api"] == "blas"}
    assert threads == {1}
