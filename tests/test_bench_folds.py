"""Leave-one-conversation-out LoCoMo: knobs chosen on the other conversations, figures of the one left out."""

from __future__ import annotations

import argparse
import copy
import json
from pathlib import Path

import pytest

from bench.cli import add_bench_parser
from bench.folds import choose, fold_report, parse_variants, run_folds
from bench.locomo import Tally
from memory.embedders import CachedEmbedder
from tests.helpers import TINY_LOCOMO as CONVERSATION


def tally(recalls: list[float], tokens: int) -> Tally:
    """Single-hop questions with one evidence turn each: recall 1.0 finds it, 0.0 misses it."""
    out = Tally()
    for recall in recalls:
        out.add(4, ["D1:1"], {"D1:1"} if recall else set(), [], 3, tokens, 1.0)
    return out


def test_variants_are_every_combination_of_the_values_given() -> None:
    variants = parse_variants(["token_budget=1000,1500", "turn_follow_ups=false,true"])
    assert variants["token_budget=1000 turn_follow_ups=False"] == {
        "token_budget": 1000,
        "turn_follow_ups": False,
    }
    assert len(variants) == 4
    assert parse_variants([]) == {"default": {}}
    with pytest.raises(ValueError, match="pre-hook knob"):
        parse_variants(["no_such_knob=1"])


def test_the_best_recall_within_the_token_cap_is_chosen_else_the_cheapest() -> None:
    scores = {"lean": tally([1, 0], 900), "rich": tally([1, 1], 1300)}
    assert choose(scores, token_cap=1200) == "lean"
    assert choose(scores, token_cap=1500) == "rich"
    assert choose(scores, token_cap=500) == "lean"


def test_each_conversation_is_scored_under_the_variant_chosen_on_the_others() -> None:
    # Left out, each conversation is scored under the variant that did best on the other two:
    # c1 under "b" (3/4 against 2/4 on c2+c3), c2 under "a" (a tie, the first named), c3 under "a".
    tallies = {
        "a": {"c1": tally([1, 1], 100), "c2": tally([1, 1], 100), "c3": tally([0, 0], 100)},
        "b": {"c1": tally([0, 0], 100), "c2": tally([1, 0], 100), "c3": tally([1, 1], 100)},
    }
    report = fold_report(tallies, token_cap=1200)

    assert [(f["held_out"], f["chosen"]) for f in report["folds"]] == [("c1", "b"), ("c2", "a"), ("c3", "a")]
    assert [f["figures"]["injected_recall"] for f in report["folds"]] == [0.0, 1.0, 0.0]
    # Below either variant tuned on everything (a 4/6, b 3/6): what tuning cannot carry over.
    assert report["leave_one_out"]["injected_recall"] == round(2 / 6, 4)
    assert report["full"]["a"]["injected_recall"] == round(4 / 6, 4)
    assert report["full"]["b"]["by_conversation"]["c3"]["injected_recall"] == 1.0
    assert report["full"]["a"]["injected_tokens_mean"] == 100.0
    assert set(report["leave_one_out"]["by_category"]) == {"4"}


async def test_folds_end_to_end_on_two_tiny_conversations(tmp_path: Path, embedder: CachedEmbedder) -> None:
    second = copy.deepcopy(CONVERSATION[0])
    second["sample_id"] = "tiny-2"
    data = tmp_path / "tiny.json"
    data.write_text(json.dumps([CONVERSATION[0], second]), encoding="utf-8")
    variants = parse_variants(["max_injection_count=0,20"])

    report = await run_folds(data, embedder, variants, tmp_path / "out", token_cap=5000)

    assert (report["conversations"], report["questions"]) == (2, 4)
    assert set(report["full"]) == {"max_injection_count=0", "max_injection_count=20"}
    assert set(report["full"]["max_injection_count=20"]["by_conversation"]) == {"tiny-1", "tiny-2"}
    # With no line allowed the block is empty.
    assert report["full"]["max_injection_count=0"]["injected_recall"] == 0.0
    assert report["full"]["max_injection_count=20"]["injected_recall"] == 1.0
    assert [f["chosen"] for f in report["folds"]] == ["max_injection_count=20"] * 2
    assert report["leave_one_out"]["injected_recall"] == 1.0
    assert json.loads((tmp_path / "out" / "tiny-folds.json").read_text(encoding="utf-8")) == report


def test_the_parser_reads_folds_and_variants() -> None:
    parser = argparse.ArgumentParser()
    add_bench_parser(parser.add_subparsers(dest="command"))
    args = parser.parse_args(
        [
            "bench",
            "locomo",
            "--data",
            "f.json",
            "--folds",
            "--vary",
            "token_budget=1000,1200",
            "--token-cap",
            "900",
        ]
    )
    assert (args.folds, args.vary, args.token_cap) == (True, ["token_budget=1000,1200"], 900)
