"""LoCoMo retrieval benchmark: evidence recall of the real pre-hook beside turn-retrieval baselines.

Per conversation, a fresh engine in a temporary directory ingests every session's turns, in
order, through `TurnPipeline.handle(..., respond=False)` as the passive history of one channel
(platform "bench", one workspace per conversation, channel "locomo"): the speaker is the
author, the session's date the time (15 s more per turn keeps the order), the dia_id the
message's external id, and a shared photo is appended to the text as "[shares a photo: ...]".

Each question of categories 1-4 is then asked, just after the last session, by one of the two
speakers in turn, through the real `PreHook` with a fresh injection state. An evidence turn is
recalled when the block holds the turn itself (alone or as the follow-up shown with the turn
before it) or a memory (or summary) whose recorded sources include it; a turn shown with its
follow-up is one item. `answer_in_block` is the share of questions (whose gold answer has words
to look for) whose block text shows every word of the answer, analysed as full text is: evidence
recall counts a turn whatever its line shows of it, so this checks that a cut line kept the
answer. `recall_at` ranks the hook's candidates, each alone; the baselines rank
the stored turns' bare text, each embedded alone in a table of their own, with plain LanceDB
vector search (`vector_only`) and BM25 (`bm25_only`), scope-filtered, and inject their top 20.

After its questions, each conversation hears small talk (`SMALL_TALK`: "ok thanks", "lol", ...),
said by the speakers in turn the same way: `small_talk_tokens_mean` is what the pre-hook injects
for a message that asks for nothing, the cost of a block on most of a chat's turns.

Evidence ids are cleaned first ("D8:6; D9:17" is two ids, "D:11:26" is "D11:26"); ids that name
no turn of the conversation are dropped, and a question left without evidence is not scored.
`limit` caps the number of conversations; `max_questions` (default: all) caps questions per
conversation for quick runs.
"""

from __future__ import annotations

import asyncio
import dataclasses
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tqdm import tqdm

from adapters.base import IncomingMessage
from bot.config import Settings
from bot.pipeline import TurnPipeline
from memory.dedup import DedupPolicy, policy_for_model
from memory.embedders import Embedder, warm_up
from memory.engine import MemoryEngine
from memory.models import Audience, Scope, StoredMessage
from memory.prehook import PreHook, PrehookRequest
from memory.prehook.context_block import BlockItem, Section, format_context_block
from memory.scope import lance_audience_filter
from memory.storage.embedded.records import message_record
from memory.storage.embedded.vectors import VectorStore, VectorTable

from .backend import BenchBackend
from .extra import can_plot
from .locomo_data import (
    CATEGORIES,
    CATEGORY_NAMES,
    Conversation,
    Question,
    load_conversations,
)
from .recall import answer_shown, evidence_recall, mean, percentiles, recall_at, turns_covered
from .report import write_report

PLATFORM = "bench"
CHANNEL = "locomo"
KS = (5, 10, 20)
PLOT_KS = (1, 2, 3, 5, 10, 15, 20)
BASELINE_TOP = 20
ASK_AFTER_SECONDS = 60.0
# Messages that ask nothing of the conversation's past: a block for them is spent for nothing.
SMALL_TALK = (
    "ok thanks",
    "lol",
    "haha nice",
    "good morning everyone",
    "brb",
    "same",
    "what's up?",
    "that's hilarious",
    "ok sounds good",
    "anyone around?",
)
# Tokens of a baseline's injected turns are counted with the block formatter and no budget.
_UNBOUNDED = 1_000_000


class BenchClock:
    """The engine's clock, set by the benchmark: turn times while ingesting, then question time."""

    def __init__(self, now: float = 0.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


@dataclass(slots=True)
class _Scored:
    category: int
    injected_recall: float
    recall_at: dict[int, float]
    curve: dict[int, float]
    items: int
    tokens: int
    ms: float
    # Whether the block's text shows every word of the gold answer (None: no answer to check).
    answer_shown: bool | None = None


@dataclass(slots=True)
class Tally:
    """Per-question scores of one system; `summary()` is its JSON."""

    rows: list[_Scored] = field(default_factory=list)
    # Tokens injected for each message of `SMALL_TALK` (the system only).
    small_talk: list[int] = field(default_factory=list)

    def add(
        self,
        category: int,
        evidence: Sequence[str],
        injected: set[str],
        ranked: Sequence[set[str]],
        items: int,
        tokens: int,
        ms: float,
        answer_shown: bool | None = None,
    ) -> None:
        self.rows.append(
            _Scored(
                category,
                evidence_recall(evidence, injected),
                recall_at(evidence, ranked, KS),
                recall_at(evidence, ranked, PLOT_KS),
                items,
                tokens,
                ms,
                answer_shown,
            )
        )

    @staticmethod
    def _recall(rows: Sequence[_Scored]) -> dict[str, Any]:
        out: dict[str, Any] = {
            "questions": len(rows),
            "injected_recall": round(mean([r.injected_recall for r in rows]), 4),
            "recall_at": {str(k): round(mean([r.recall_at[k] for r in rows]), 4) for k in KS},
        }
        # Over the questions whose gold answer has words to look for; absent when none has.
        answers = [float(r.answer_shown) for r in rows if r.answer_shown is not None]
        if answers:
            out["answer_in_block"] = round(mean(answers), 4)
        return out

    def summary(self) -> dict[str, Any]:
        rows = self.rows
        out = self._recall(rows)
        del out["questions"]
        out["injected_items_mean"] = round(mean([r.items for r in rows]), 2)
        out["injected_tokens_mean"] = round(mean([r.tokens for r in rows]), 1)
        out["prehook_ms"] = percentiles([r.ms for r in rows], (50, 95), 2) if rows else {"p50": 0, "p95": 0}
        if self.small_talk:
            out["small_talk_tokens_mean"] = round(mean(self.small_talk), 1)
        out["by_category"] = {
            str(c): self._recall([r for r in rows if r.category == c])
            for c in CATEGORIES
            if any(r.category == c for r in rows)
        }
        return out

    def curve(self, category: int | None = None) -> list[float]:
        """Mean recall at each of PLOT_KS (for the plot), over one category or all."""
        rows = [r for r in self.rows if category is None or r.category == category]
        return [mean([r.curve[k] for r in rows]) for k in PLOT_KS]


def _message_block(messages: Sequence[StoredMessage], now: float) -> tuple[str, int]:
    """The text and tokens of a block of `messages`, as the baselines would inject them."""
    items = [BlockItem(Section.MESSAGES, float(-n), message=m) for n, m in enumerate(messages)]
    if not items:
        return "", 0
    block = format_context_block(items, now, _UNBOUNDED)
    return block.text or "", block.tokens


def question_request(conv: Conversation, n: int, text: str, agent: str) -> PrehookRequest:
    """Question `n` of `conv` as the pre-hook gets it: asked by one speaker in turn, in the
    conversation's one channel."""
    workspace = f"locomo-{conv.sample_id}"
    speaker = conv.speakers[n % 2]
    viewer = Audience(PLATFORM, workspace, agent, viewer_id=speaker.casefold(), channel_id=CHANNEL)
    return PrehookRequest(
        text=text,
        scope=Scope(PLATFORM, workspace, CHANNEL, agent),
        viewer=viewer,
        participants=[speaker.casefold()],
    )


async def ingest(pipeline: TurnPipeline, clock: BenchClock, conv: Conversation) -> dict[str, str]:
    """Every turn through the bot's own ingestion path, then the background work (compaction,
    indexing) a running bot would have done before being asked; returns stored message id -> dia_id."""
    workspace = f"locomo-{conv.sample_id}"
    turn_of: dict[str, str] = {}
    with tqdm(total=len(conv.turns), desc=f"{conv.sample_id} ingest", unit="turn", file=sys.stderr) as bar:
        for turn in conv.turns:
            clock.now = turn.timestamp
            message = IncomingMessage(
                platform=PLATFORM,
                workspace_id=workspace,
                channel_id=CHANNEL,
                author_id=turn.speaker.casefold(),
                author_name=turn.speaker,
                text=turn.text,
                timestamp=turn.timestamp,
                external_id=turn.dia_id,
            )
            result = await pipeline.handle([message], respond=False)
            for stored_id in result.stored_message_ids:
                turn_of[stored_id] = turn.dia_id
            bar.update(1)
    await pipeline.aclose()
    await pipeline.engine.maintain()
    return turn_of


async def prepare(
    data: Path, embedder: Embedder, limit: int | None, settings: Settings | None
) -> tuple[list[Conversation], Settings, DedupPolicy]:
    """The first `limit` conversations of a LoCoMo-format file, the settings (from the environment
    unless given) and the dedup policy of `embedder`, warmed up so its load is not timed."""
    conversations = await asyncio.to_thread(load_conversations, data)
    if limit is not None:
        conversations = conversations[:limit]
    settings = settings or Settings.load(env_file=None)
    await warm_up(embedder)
    return conversations, settings, policy_for_model(embedder.name, settings.memory.dedup_threshold)


async def _baseline_table(
    engine: MemoryEngine, turn_of: dict[str, str], raw_embedder: Embedder, baselines: VectorStore
) -> VectorTable:
    """The stored turns as the naive baselines see them: each turn's bare text, embedded alone
    (the bot's own index adds speaker, date and the turn answered)."""
    # The naive baselines are LanceDB's own searches, in a store of their own whatever the
    # backend under test.
    table = await baselines.table("baseline_turns")
    rows = await engine.storage.turns.get_unscoped(list(turn_of))
    for start in range(0, len(rows), 256):
        chunk = rows[start : start + 256]
        vectors = await raw_embedder.embed([m.content for m in chunk])
        await table.add(
            [
                dataclasses.replace(message_record(m, v), text=m.content)
                for m, v in zip(chunk, vectors, strict=True)
            ]
        )
    return table


async def ask_prehook(
    conv: Conversation,
    n: int,
    question: Question,
    hook: PreHook,
    agent: str,
    turn_of: dict[str, str],
    tally: Tally,
) -> Audience:
    """Question `n` of `conv` through the real pre-hook, asked by one speaker in turn with a fresh
    injection state, scored into `tally`; returns who asked."""
    request = question_request(conv, n, question.text, agent)
    viewer = request.viewer
    # A fresh injection state: every question is the first turn of its conversation.
    hook.states = hook.config.make_states()
    t = time.perf_counter()
    result = await hook.run(request)
    ms = (time.perf_counter() - t) * 1000
    # Each question is asked as the first of its conversation: the accesses it counted would
    # rank the next questions' memories, and the bot writes them on a wall-clock timer, so
    # the results would hang on how fast the run goes. They are dropped instead.
    hook.access.discard()
    injected = [*result.injected, *result.injected_messages, *result.injected_summaries]
    tally.add(
        question.category,
        question.evidence,
        turns_covered(injected, turn_of),
        [turns_covered([c], turn_of) for c in result.candidates_ranked],
        # Lines of the block: a recalled turn shown with the turn after it is one item.
        result.items,
        result.tokens,
        ms,
        answer_shown(question.answer, result.block or ""),
    )
    return viewer


async def _evaluate(
    conv: Conversation,
    engine: MemoryEngine,
    pipeline: TurnPipeline,
    clock: BenchClock,
    turn_of: dict[str, str],
    raw_embedder: Embedder,
    tallies: dict[str, Tally],
    bar: tqdm,
    max_questions: int | None,
    baselines: VectorStore,
) -> None:
    agent = pipeline.agent_id
    hook = pipeline.prehook
    clock.now = max(t.timestamp for t in conv.turns) + ASK_AFTER_SECONDS
    now = clock.now
    messages = await _baseline_table(engine, turn_of, raw_embedder, baselines)
    questions = conv.questions if max_questions is None else conv.questions[:max_questions]
    for n, question in enumerate(questions):
        viewer = await ask_prehook(conv, n, question, hook, agent, turn_of, tallies["system"])

        where = lance_audience_filter(viewer)
        # The baseline embeds without the cache: the system's run just cached this very text.
        t = time.perf_counter()
        vector = (await raw_embedder.embed([question.text]))[0]
        dense = await messages.search(vector, where, BASELINE_TOP)
        dense_ms = (time.perf_counter() - t) * 1000
        t = time.perf_counter()
        lexical = await messages.text_search(question.text, where, BASELINE_TOP)
        lexical_ms = (time.perf_counter() - t) * 1000
        for name, hits, took in (("vector_only", dense, dense_ms), ("bm25_only", lexical, lexical_ms)):
            ranked = [{turn_of[h.id]} if h.id in turn_of else set() for h in hits]
            rows = await engine.storage.turns.get_unscoped([h.id for h in hits])
            shown, tokens = _message_block(rows, now)
            tallies[name].add(
                question.category,
                question.evidence,
                set().union(*ranked) if ranked else set(),
                ranked,
                len(hits),
                tokens,
                took,
                answer_shown(question.answer, shown),
            )
        bar.update(1)
    for n, text in enumerate(SMALL_TALK):
        hook.states = hook.config.make_states()
        result = await hook.run(question_request(conv, n, text, agent))
        hook.access.discard()
        tallies["system"].small_talk.append(result.tokens)


async def run_locomo(
    data: Path,
    embedder: Embedder,
    out: Path | None = None,
    limit: int | None = None,
    max_questions: int | None = None,
    settings: Settings | None = None,
    backend: BenchBackend | None = None,
) -> dict[str, Any]:
    """Run the benchmark on a LoCoMo-format file; writes <stem>.json and <stem>.png under `out`
    (the plot only where matplotlib is installed). Each conversation gets fresh storage: a
    temporary directory, or `backend`'s PostgreSQL database claimed and emptied after it."""
    backend = backend or BenchBackend()
    conversations, settings, policy = await prepare(data, embedder, limit, settings)
    raw_embedder: Embedder = getattr(embedder, "inner", embedder)
    tallies = {name: Tally() for name in ("system", "vector_only", "bm25_only")}
    skipped = 0
    for conv in conversations:
        questions = conv.questions if max_questions is None else conv.questions[:max_questions]
        skipped += conv.skipped_questions
        clock = BenchClock(conv.turns[0].timestamp if conv.turns else 0.0)
        started = time.perf_counter()
        with tempfile.TemporaryDirectory(prefix="memorybot-locomo-") as tmp:
            claim = await backend.claim(embedder.dim)
            location = backend.location(Path(tmp))
            engine = await MemoryEngine.open(location, embedder, policy=policy, clock=clock, reconcile=False)
            pipeline = TurnPipeline(engine, settings, llm=None)
            baselines = await VectorStore.open(Path(tmp) / "baselines", dim=embedder.dim)
            try:
                turn_of = await ingest(pipeline, clock, conv)
                memories = await engine.storage.memories.indexed_count()
                with tqdm(
                    total=len(questions), desc=f"{conv.sample_id} questions", unit="q", file=sys.stderr
                ) as bar:
                    await _evaluate(
                        conv,
                        engine,
                        pipeline,
                        clock,
                        turn_of,
                        raw_embedder,
                        tallies,
                        bar,
                        max_questions,
                        baselines,
                    )
                await pipeline.aclose()
            finally:
                await baselines.close()
                await engine.close()
                await claim.release()
        tqdm.write(
            f"{conv.sample_id}: {len(conv.turns)} turns, {memories} memories, {len(questions)} questions "
            f"in {time.perf_counter() - started:.0f} s",
            file=sys.stderr,
        )
    if skipped:
        tqdm.write(f"{skipped} questions without usable evidence were not scored", file=sys.stderr)
    report = {
        "backend": await backend.describe(embedder.dim),
        "dataset": data.name,
        "conversations": len(conversations),
        "questions": len(tallies["system"].rows),
        "system": tallies["system"].summary(),
        "baselines": {name: tallies[name].summary() for name in ("vector_only", "bm25_only")},
    }
    if out is not None:
        await write_report(out, f"{data.stem}.json", report)
        if can_plot():
            await asyncio.to_thread(plot_locomo, tallies, report, out / f"{data.stem}.png")
    return report


def plot_locomo(tallies: dict[str, Tally], report: dict[str, Any], path: Path) -> None:
    """Recall vs k over the ranked candidates, one panel per category and one for all questions."""
    import matplotlib

    matplotlib.use("Agg")  # files only, no display
    import matplotlib.pyplot as plt

    panels: list[tuple[str, int | None]] = [("all categories", None)]
    panels += [(f"{c}: {CATEGORY_NAMES[c]}", c) for c in CATEGORIES]
    fig, axes = plt.subplots(1, len(panels), figsize=(4 * len(panels), 4), sharey=True)
    styles = {"system": "-o", "vector_only": "--s", "bm25_only": ":^"}
    for ax, (title, category) in zip(axes, panels, strict=True):
        rows = [r for r in tallies["system"].rows if category is None or r.category == category]
        if not rows:
            ax.set_title(f"{title} (no questions)")
            continue
        for name, tally in tallies.items():
            ax.plot(PLOT_KS, tally.curve(category), styles[name], label=name, markersize=4)
        injected = mean([r.injected_recall for r in rows])
        ax.axhline(injected, color="black", linewidth=0.8, alpha=0.6, label="system injected block")
        ax.set_title(f"{title} (n={len(rows)})")
        ax.set_xlabel("k")
        ax.set_ylim(0, 1)
        ax.grid(alpha=0.3)
    axes[0].set_ylabel("evidence recall@k")
    axes[0].legend(fontsize=8, loc="upper left")
    counts = f"{report['questions']} questions, {report['conversations']} conversations"
    fig.suptitle(f"LoCoMo {report['dataset']}: {counts}")
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
