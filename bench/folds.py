"""Leave-one-conversation-out LoCoMo: each conversation's figures, and every tuned knob judged on a
conversation it was not chosen on.

Each conversation is ingested once, as `bench locomo` ingests it; then every question is asked
through a fresh `PreHook` per variant of the pre-hook's knobs (`--vary NAME=V1,V2`, the product of
all of them; the shipped defaults alone when nothing varies). For each conversation in turn, the
variant with the best injected recall on the OTHER conversations, among those within the token cap
on average there (else the cheapest), is chosen, and the held-out conversation's figures under it
are reported. `leave_one_out` pools those held-out questions: the figure a change must improve.
"""

from __future__ import annotations

import dataclasses
import itertools
import sys
import tempfile
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from tqdm import tqdm

from bot.config import Settings
from bot.pipeline import TurnPipeline
from memory.embedders import Embedder
from memory.engine import MemoryEngine
from memory.prehook.config import PrehookConfig
from memory.prehook.hook import PreHook

from .locomo import (
    ASK_AFTER_SECONDS,
    BenchClock,
    Tally,
    ask_prehook,
    ingest,
    prepare,
)
from .locomo_data import Conversation
from .recall import mean
from .report import write_report

DEFAULT_TOKEN_CAP = 1200
DEFAULT_VARIANT = "default"

Variants = dict[str, dict[str, Any]]


def _parse_value(name: str, raw: str, default: object) -> Any:
    if isinstance(default, bool):
        if raw.casefold() not in ("true", "false", "1", "0"):
            raise ValueError(f"{name}: expected true or false, got {raw!r}")
        return raw.casefold() in ("true", "1")
    return type(default)(raw)


def parse_variants(specs: Sequence[str], base: PrehookConfig | None = None) -> Variants:
    """`["token_budget=1200,1500", "message_top_k=20,40"]` -> every combination, named by its values.

    Nothing to vary gives the base config alone ("default").
    """
    base = base or PrehookConfig()
    fields = {f.name for f in dataclasses.fields(PrehookConfig)}
    axes: list[list[tuple[str, Any]]] = []
    for spec in specs:
        name, sep, values = spec.partition("=")
        name = name.strip()
        if not sep or name not in fields:
            raise ValueError(f"--vary expects NAME=V1,V2 with NAME a pre-hook knob, got {spec!r}")
        default = getattr(base, name)
        axes.append([(name, _parse_value(name, v.strip(), default)) for v in values.split(",") if v.strip()])
    if not axes:
        return {DEFAULT_VARIANT: {}}
    return {" ".join(f"{k}={v}" for k, v in combo): dict(combo) for combo in itertools.product(*axes)}


def _pooled(tallies: Sequence[Tally]) -> Tally:
    return Tally([row for tally in tallies for row in tally.rows])


def choose(scores: Mapping[str, Tally], token_cap: float) -> str:
    """The variant with the best injected recall among those within `token_cap` tokens on average;
    the one with the fewest tokens when none is (ties: the first named)."""

    def tokens(name: str) -> float:
        return mean([r.tokens for r in scores[name].rows])

    def recall(name: str) -> float:
        return mean([r.injected_recall for r in scores[name].rows])

    within = [name for name in scores if tokens(name) <= token_cap]
    if within:
        return max(within, key=recall)
    return min(scores, key=tokens)


def _brief(tally: Tally) -> dict[str, Any]:
    summary = tally.summary()
    del summary["prehook_ms"]  # other runs share the machine: per-fold timings mean nothing
    return summary


def fold_report(tallies: Mapping[str, Mapping[str, Tally]], token_cap: float) -> dict[str, Any]:
    """The JSON of a leave-one-out run from variant -> conversation -> tally: every variant's figures
    (all conversations, and each alone), each fold's choice and held-out figures, and the pooled
    held-out figures."""
    names = list(tallies)
    conversations = list(next(iter(tallies.values()))) if tallies else []
    full = {
        name: {
            **_brief(_pooled(list(by_conv.values()))),
            "by_conversation": {conv: _brief(t) for conv, t in by_conv.items()},
        }
        for name, by_conv in tallies.items()
    }
    folds = []
    held_out: list[Tally] = []
    for conv in conversations:
        others = {name: _pooled([t for c, t in tallies[name].items() if c != conv]) for name in names}
        chosen = choose(others, token_cap) if len(conversations) > 1 else names[0]
        held_out.append(tallies[chosen][conv])
        folds.append({"held_out": conv, "chosen": chosen, "figures": _brief(tallies[chosen][conv])})
    return {
        "token_cap": token_cap,
        "variants": list(names),
        "full": full,
        "folds": folds,
        "leave_one_out": _brief(_pooled(held_out)),
    }


async def _ask_all(
    conv: Conversation, hook: PreHook, agent: str, turn_of: dict[str, str], max_questions: int | None
) -> Tally:
    """Every scored question of `conv` through `hook`, as `bench locomo` asks them."""
    tally = Tally()
    questions = conv.questions if max_questions is None else conv.questions[:max_questions]
    for n, question in enumerate(questions):
        await ask_prehook(conv, n, question, hook, agent, turn_of, tally)
    return tally


async def run_folds(
    data: Path,
    embedder: Embedder,
    variants: Variants,
    out: Path | None = None,
    limit: int | None = None,
    max_questions: int | None = None,
    settings: Settings | None = None,
    token_cap: float = DEFAULT_TOKEN_CAP,
) -> dict[str, Any]:
    """Leave-one-conversation-out on a LoCoMo-format file; writes <stem>-folds.json under `out`."""
    conversations, settings, policy = await prepare(data, embedder, limit, settings)
    base = settings.prehook.prehook_config()
    tallies: dict[str, dict[str, Tally]] = {name: {} for name in variants}
    for conv in conversations:
        clock = BenchClock(conv.turns[0].timestamp if conv.turns else 0.0)
        with tempfile.TemporaryDirectory(prefix="memorybot-folds-") as tmp:
            engine = await MemoryEngine.open(Path(tmp), embedder, policy=policy, clock=clock, reconcile=False)
            pipeline = TurnPipeline(engine, settings, llm=None)
            try:
                turn_of = await ingest(pipeline, clock, conv)
                clock.now = max(t.timestamp for t in conv.turns) + ASK_AFTER_SECONDS
                for name, overrides in tqdm(
                    variants.items(), desc=f"{conv.sample_id} variants", file=sys.stderr
                ):
                    own = pipeline.prehook
                    hook = PreHook(
                        engine,
                        dataclasses.replace(base, **overrides),
                        clock=clock,
                        tz=own.tz,
                        summaries=own.summaries,
                    )
                    tallies[name][conv.sample_id] = await _ask_all(
                        conv, hook, pipeline.agent_id, turn_of, max_questions
                    )
                    await hook.aclose()
            finally:
                await engine.close()
    report = {
        "dataset": data.name,
        "conversations": len(conversations),
        "questions": sum(len(t.rows) for t in next(iter(tallies.values())).values()) if tallies else 0,
        "varied": {name: overrides for name, overrides in variants.items()},
        **fold_report(tallies, token_cap),
    }
    del report["variants"]
    if out is not None:
        await write_report(out, f"{data.stem}-folds.json", report)
    return report
