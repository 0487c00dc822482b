"""Offline harness for the second stage over past turns (`rerank_turns`): dump each LoCoMo
question's turn pool with features and evidence labels, screen formulas on it, try them in the hook.

`dump --data FILE --dir DIR` ingests each conversation once (kept under DIR, reused), asks every
question through the real pre-hook with the shipped knobs, and pickles per question the pool's turn
ids, their FEATURES, which are evidence, and what the hook injected.
`screen --data FILE --dir DIR --weights NAME=cos:1,bm:0.3,...` scores formulas in numpy: each
question's turns taken best first (with the answer a question turn brings along) within the
characters the shipped block spent on turns, plus the evidence its memories covered. Fast, but on
LoCoMo dev it favoured speaker and neighbour weights that the real block does not reward.
`eval --data FILE --dir DIR --weights NAME=...` is the judge: the real hook again, with only the
pool's order replaced by the formula's (`remap:1` keeps the shipped scores' scale, `mmr:L` takes the
turns by maximal marginal relevance), reported leave one conversation out as `bench locomo --folds`.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import os
import pickle
import re
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

import memory.prehook.sources as sources_module
from memory.prehook.turn_rerank import rerank_turns

from .locomo import ASK_AFTER_SECONDS, BenchClock, Tally, ingest, prepare, question_request
from .locomo_data import Conversation
from .recall import turns_covered

if TYPE_CHECKING:
    from bot.config import Settings
    from bot.pipeline import TurnPipeline
    from memory.dedup import DedupPolicy
    from memory.embedders import Embedder
    from memory.engine import MemoryEngine
    from memory.prehook import PrehookRequest, PrehookResult

FEATURES = (
    "cos",  # cosine with the question
    "bm",  # BM25 / the list's best (0 when the full-text search missed it)
    "drank",  # 1 / (1 + rank in the dense list) (0: absent)
    "lrank",  # 1 / (1 + rank in the full-text list)
    "speaker",  # the question names the turn's author
    "nb_pool",  # best cosine of the turn before / after it among the pool (0: neither in the pool)
    "nb_all",  # best cosine of the turn before / after it (from every stored vector)
    "loglen",  # log(1 + characters)
    "idf",  # share of the question's IDF mass (rare words) the turn's text holds
    "in_dense",
    "in_lex",
    "when",  # the turn was said within a period the question names ("in May 2023", a day ±1)
)
_WORD = re.compile(r"[a-z0-9']+")


def _words(text: str) -> list[str]:
    return _WORD.findall(text.casefold())


_SPAN_DAYS = {"day": 1, "weekend": 2, "week": 7, "month": 31, "season": 92, "year": 366}


def _periods(text: str, now: float) -> list[tuple[float, float]]:
    """The periods `text` names, as [start, end) timestamps widened by a day on each side."""
    from datetime import UTC, datetime, time, timedelta

    from memory.text.dates import date_mentions

    spans = []
    for day, unit in date_mentions(text, datetime.fromtimestamp(now, UTC)):
        start = datetime.combine(day, time(), UTC)
        end = start + timedelta(days=_SPAN_DAYS.get(unit, 1))
        if unit == "month":
            end = (start + timedelta(days=32)).replace(day=1)
        spans.append((start.timestamp() - 86400, end.timestamp() + 86400))
    return spans


class Capture:
    """Replaces `rerank_turns` in the pre-hook's sources: records the pool, optionally rescoring it."""

    def __init__(self) -> None:
        self.last: tuple[np.ndarray, list[Any], list[Any]] | None = None
        self.scorer: Any = None

    def __call__(self, query, dense, lexical, lexical_weight, keep, *rest):  # type: ignore[no-untyped-def]
        self.last = (query, list(dense), list(lexical))
        if self.scorer is None:
            return rerank_turns(query, dense, lexical, lexical_weight, keep, *rest)
        return self.scorer(query, dense, lexical, keep)


async def open_conversation(
    conv: Conversation, settings: Settings, embedder: Embedder, policy: DedupPolicy, root: Path
) -> tuple[MemoryEngine, TurnPipeline, BenchClock, dict[str, str]]:
    """The engine and pipeline of `conv` under `root`, ingested on first use and reused after (with
    the map of its dialogue ids to stored turns), its clock set to when questions are asked."""
    from bot.pipeline import TurnPipeline
    from memory.engine import MemoryEngine

    clock = BenchClock(conv.turns[0].timestamp)
    where = root / conv.sample_id
    fresh = not (where / "turn_of.json").exists()
    where.mkdir(parents=True, exist_ok=True)
    engine = await MemoryEngine.open(where / "db", embedder, policy=policy, clock=clock, reconcile=False)
    pipeline = TurnPipeline(engine, settings, llm=None)
    if fresh:
        turn_of = await ingest(pipeline, clock, conv)
        (where / "turn_of.json").write_text(json.dumps(turn_of))
    else:
        turn_of = json.loads((where / "turn_of.json").read_text())
    clock.now = max(t.timestamp for t in conv.turns) + ASK_AFTER_SECONDS
    return engine, pipeline, clock, turn_of


async def ask(
    pipeline: TurnPipeline, conv: Conversation, n: int, text: str, turn_of: dict[str, str]
) -> tuple[PrehookRequest, PrehookResult, set[str]]:
    """Question `n` of `conv` through the real pre-hook as the first of its conversation (fresh
    injection state, no access counts kept): its request, result and the evidence turns covered."""
    hook = pipeline.prehook
    request = question_request(conv, n, text, pipeline.agent_id)
    hook.states = hook.config.make_states()
    result = await hook.run(request)
    hook.access.discard()
    injected = [*result.injected, *result.injected_messages, *result.injected_summaries]
    return request, result, turns_covered(injected, turn_of)


async def dump(data: Path, root: Path) -> None:
    from bot.app import build_embedder
    from bot.config import Settings

    settings = Settings.load(env_file=None)
    embedder = build_embedder(settings)
    conversations, settings, policy = await prepare(data, embedder, None, settings)
    capture = Capture()
    sources_module.rerank_turns = capture  # type: ignore[assignment]
    out: dict[str, Any] = {}
    for conv in conversations:
        engine, pipeline, clock, turn_of = await open_conversation(conv, settings, embedder, policy, root)
        store = engine.storage.turns
        rows = await store.get_unscoped(list(turn_of))
        rows.sort(key=lambda m: m.created_at)
        order = [m.id for m in rows]
        position = {i: n for n, i in enumerate(order)}
        # Every stored turn vector: one dense search deep enough to return them all.
        viewer = question_request(conv, 0, "x", pipeline.agent_id).viewer
        probe = np.zeros(embedder.dim, dtype=np.float32)
        probe[0] = 1.0
        every = await store.search(viewer, probe, len(order) + 50)
        vec = {h.id: h.vector for h in every if h.vector is not None}
        by_id = {m.id: m for m in rows}
        # Document frequencies over the conversation's turns, for the IDF feature.
        df: dict[str, int] = {}
        for m in rows:
            for w in set(_words(m.content)):
                df[w] = df.get(w, 0) + 1
        n_docs = len(rows)
        questions = []
        for n, q in enumerate(conv.questions):
            _, result, covered = await ask(pipeline, conv, n, q.text, turn_of)
            query, dense, lexical = capture.last  # type: ignore[misc]
            ids = list(dict.fromkeys([h.id for h in dense] + [h.id for h in lexical]))
            drank = {h.id: r for r, h in enumerate(dense)}
            lrank: dict[str, int] = {}
            for r, h in enumerate(lexical):
                lrank.setdefault(h.id, r)
            best = max((float(h.score) for h in lexical), default=0.0)
            bm = {}
            for h in lexical:
                bm.setdefault(h.id, float(h.score) / best if best > 0 else 0.0)
            periods = _periods(q.text, clock.now)
            qwords = set(_words(q.text))
            qidf = {w: math.log((n_docs + 1) / (df.get(w, 0) + 0.5)) for w in qwords if w in df}
            total_idf = sum(qidf.values()) or 1.0
            cos_all = {i: float(v @ query) for i, v in vec.items()}
            pool_cos = {i: cos_all.get(i, 0.0) for i in ids}
            feats = np.zeros((len(ids), len(FEATURES)), dtype=np.float32)
            labels = np.zeros(len(ids), dtype=bool)
            dia = []
            for k, i in enumerate(ids):
                m = by_id.get(i)
                p = position.get(i)
                neighbours = [order[j] for j in (p - 1, p + 1) if p is not None and 0 <= j < len(order)]
                nb_pool = max((pool_cos[j] for j in neighbours if j in pool_cos), default=0.0)
                nb_all = max((cos_all.get(j, 0.0) for j in neighbours), default=0.0)
                name = (m.author_name if m else "").casefold()
                speaker = bool(name) and bool(re.search(rf"\b{re.escape(name)}\b", q.text.casefold()))
                twords = set(_words(m.content)) if m else set()
                idf = sum(v for w, v in qidf.items() if w in twords) / total_idf
                feats[k] = [
                    pool_cos[i],
                    bm.get(i, 0.0),
                    1.0 / (1 + drank[i]) if i in drank else 0.0,
                    1.0 / (1 + lrank[i]) if i in lrank else 0.0,
                    float(speaker),
                    nb_pool,
                    nb_all,
                    math.log1p(len(m.content)) if m else 0.0,
                    idf,
                    float(i in drank),
                    float(i in lrank),
                    float(m is not None and any(a <= m.created_at < b for a, b in periods)),
                ]
                d = turn_of.get(i)
                dia.append(d)
                labels[k] = d in q.evidence
            questions.append(
                {
                    "text": q.text,
                    "category": q.category,
                    "evidence": list(q.evidence),
                    "ids": ids,
                    "dia": dia,
                    "features": feats,
                    "labels": labels,
                    "covered": sorted(covered),
                    "recall": len(set(q.evidence) & covered) / len(q.evidence),
                    "tokens": result.tokens,
                    "items": result.items,
                    "turn_items": len(result.injected_messages),
                    "kept_in_block": [turn_of.get(m.id) for m in result.injected_messages],
                }
            )
        out[conv.sample_id] = questions
        await pipeline.aclose()
        await engine.close()
        print(conv.sample_id, len(questions), file=sys.stderr)
    (root / "pool.pkl").write_bytes(pickle.dumps(out))


def _scorer(weights: dict[str, float], features: dict[str, dict[str, np.ndarray]], current: list[str]):  # type: ignore[no-untyped-def]
    """A `rerank_turns` stand-in: the pool scored by `weights` · the dumped features of the question."""
    w = np.array([weights.get(f, 0.0) for f in FEATURES], dtype=np.float32)
    main = np.array([{"cos": 1.0, "bm": 0.3}.get(f, 0.0) for f in FEATURES], dtype=np.float32)
    remap = bool(weights.get("remap"))
    mmr = weights.get("mmr", 0.0)

    def score(query, dense, lexical, keep):  # type: ignore[no-untyped-def]
        table = features[current[0]]
        hits: dict[str, Any] = {}
        for hit in [*dense, *lexical]:
            if hit.id not in hits or (hits[hit.id].vector is None and hit.vector is not None):
                hits[hit.id] = hit
        scored = [(h, float(table[i] @ w)) for i, h in hits.items() if i in table]
        scored.sort(key=lambda p: p[1], reverse=True)
        if mmr and scored:
            # Greedy maximal marginal relevance: each next turn by its score less `mmr` x its best
            # cosine with the turns already taken (a pool of one topic's near repeats gives way).
            rest = [(h, sc) for h, sc in scored if h.vector is not None]
            bare = [(h, sc) for h, sc in scored if h.vector is None]
            vecs = np.stack([h.vector for h, _ in rest]) if rest else np.zeros((0, 1))
            base_s = np.array([sc for _, sc in rest])
            sims = vecs @ vecs.T if rest else None
            taken: list[int] = []
            best_sim = np.full(len(rest), -np.inf)
            left = list(range(len(rest)))
            while left and len(taken) < keep:
                adj = base_s[left] - mmr * np.maximum(best_sim[left], 0.0)
                pick = left[int(np.argmax(adj))]
                taken.append(pick)
                left.remove(pick)
                best_sim = np.maximum(best_sim, sims[pick])
            scored = [rest[k] for k in taken] + bare
        if remap:
            # The new order, on the shipped stage's scale: the n-th turn gets the n-th best score.
            base = sorted((float(table[i] @ main) for i in hits if i in table), reverse=True)
            scored = [(h, b) for (h, _), b in zip(scored, base, strict=False)]
        return scored[:keep]

    return score


async def evaluate(
    data: Path, root: Path, variants: dict[str, dict[str, float]], cap: float
) -> dict[str, Any]:
    from bot.app import build_embedder
    from bot.config import Settings

    from .folds import fold_report

    pool = pickle.loads((root / "pool.pkl").read_bytes())
    settings = Settings.load(env_file=None)
    embedder = build_embedder(settings)
    conversations, settings, policy = await prepare(data, embedder, None, settings)
    capture = Capture()
    sources_module.rerank_turns = capture  # type: ignore[assignment]
    tallies: dict[str, dict[str, Tally]] = {name: {} for name in variants}
    detail: dict[str, dict[str, list[dict[str, Any]]]] = {}
    for conv in conversations:
        engine, pipeline, _clock, turn_of = await open_conversation(conv, settings, embedder, policy, root)
        features = {
            q["text"] + f"#{n}": dict(zip(q["ids"], q["features"], strict=True))
            for n, q in enumerate(pool[conv.sample_id])
        }
        current = [""]
        for name, weights in variants.items():
            capture.scorer = _scorer(weights, features, current) if weights else None
            tally = Tally()
            for n, q in enumerate(conv.questions):
                current[0] = q.text + f"#{n}"
                _, result, covered = await ask(pipeline, conv, n, q.text, turn_of)
                tally.add(q.category, q.evidence, covered, [], result.items, result.tokens, 0.0)
                detail.setdefault(name, {}).setdefault(conv.sample_id, []).append(
                    {
                        "covered": sorted(covered),
                        "messages": [turn_of.get(m.id) for m in result.injected_messages],
                        "memories": len(result.injected),
                        "summaries": len(result.injected_summaries),
                        "tokens": result.tokens,
                    }
                )
            tallies[name][conv.sample_id] = tally
        await pipeline.aclose()
        await engine.close()
        print(conv.sample_id, file=sys.stderr)
    (root / "detail.pkl").write_bytes(pickle.dumps(detail))
    return fold_report(tallies, cap)


def screen(data: Path, root: Path, variants: dict[str, dict[str, float]]) -> dict[str, Any]:
    """Every variant's numpy estimate of injected recall, overall, per category and per conversation."""
    from memory.models import StoredMessage
    from memory.turn_text import ends_on_a_question

    from .locomo_data import CATEGORY_NAMES, load_conversations

    pool = pickle.loads((root / "pool.pkl").read_bytes())
    index = {f: n for n, f in enumerate(FEATURES)}
    after: dict[tuple[str, str], str | None] = {}
    chars: dict[tuple[str, str], int] = {}
    asks: dict[tuple[str, str], bool] = {}
    for conv in load_conversations(data):
        for turn, nxt in zip(conv.turns, [*conv.turns[1:], None], strict=True):
            key = (conv.sample_id, turn.dia_id)
            near = nxt is not None and nxt.timestamp - turn.timestamp <= 3600
            after[key] = nxt.dia_id if near and nxt is not None else None
            chars[key] = len(turn.text)
            asks[key] = ends_on_a_question(StoredMessage(id="", scope=None, content=turn.text))  # type: ignore[arg-type]

    def taken(conv: str, q: dict[str, Any], order: np.ndarray, budget: int) -> set[str]:
        got: set[str] = set()
        used = 0
        for k in order[:40]:
            dia = q["dia"][k]
            if dia is None or dia in got:
                continue
            line = [dia]
            nxt = after[(conv, dia)]
            if asks[(conv, dia)] and nxt is not None and nxt not in got:
                line.append(nxt)
            cost = sum(chars[(conv, d)] for d in line)
            if used + cost <= budget:
                used += cost
                got.update(line)
        return got

    report: dict[str, Any] = {}
    for name, weights in variants.items():
        w = np.zeros(len(FEATURES), dtype=np.float32)
        for key, value in weights.items():
            if key in index:
                w[index[key]] = value
        rows = []
        for conv, questions in pool.items():
            for q in questions:
                evidence = set(q["evidence"])
                kept = {d for d in q["kept_in_block"] if d}
                elsewhere = (set(q["covered"]) - kept) & evidence
                budget = sum(chars[(conv, d)] for d in kept)
                order = np.argsort(-(q["features"] @ w), kind="stable")
                got = elsewhere | (taken(conv, q, order, budget) & evidence)
                rows.append((conv, q["category"], len(got) / len(evidence)))
        report[name] = {
            "recall": round(float(np.mean([r for _, _, r in rows])), 4),
            "by_category": {
                CATEGORY_NAMES[c]: round(float(np.mean([r for _, k, r in rows if k == c])), 4)
                for c in sorted({k for _, k, _ in rows})
            },
            "by_conversation": {
                conv: round(float(np.mean([r for v, _, r in rows if v == conv])), 4) for conv in pool
            },
        }
    return report


def _parse_weights(specs: Sequence[str]) -> dict[str, dict[str, float]]:
    """`name=cos:1,bm:0.3` (or `main=` for the shipped stage) -> variants."""
    variants = {}
    for spec in specs:
        name, _, body = spec.partition("=")
        weights = {}
        for part in filter(None, body.split(",")):
            key, _, value = part.partition(":")
            if key not in (*FEATURES, "remap", "mmr"):
                raise SystemExit(f"unknown feature {key}")
            weights[key] = float(value)
        variants[name] = weights
    return variants


def main() -> None:
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    parser = argparse.ArgumentParser()
    parser.add_argument("command", choices=("dump", "screen", "eval"))
    parser.add_argument("--data", type=Path, required=True)
    parser.add_argument("--dir", type=Path, required=True)
    parser.add_argument("--weights", nargs="*", default=[])
    parser.add_argument("--cap", type=float, default=1200.0)
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    args.dir.mkdir(parents=True, exist_ok=True)
    if args.command == "dump":
        asyncio.run(dump(args.data, args.dir))
        return
    if args.command == "screen":
        print(json.dumps(screen(args.data, args.dir, _parse_weights(args.weights)), indent=1))
        return
    report = asyncio.run(evaluate(args.data, args.dir, _parse_weights(args.weights), args.cap))
    text = json.dumps(report, indent=1)
    if args.out:
        args.out.write_text(text)
    summary = {
        "leave_one_out": report["leave_one_out"],
        "chosen": [f["chosen"] for f in report["folds"]],
        "full": {
            name: {key: figures[key] for key in ("injected_recall", "injected_tokens_mean", "by_category")}
            for name, figures in report["full"].items()
        },
    }
    print(json.dumps(summary, indent=1))


if __name__ == "__main__":
    main()
