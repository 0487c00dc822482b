"""Summaries: level-1 coverage and privacy, condensation thresholds, model budget, thread summary."""

from __future__ import annotations

import asyncio
import logging

import pytest

from bot.llm.fake import ScriptedLLM, text
from bot.llm_summarizer import LLMSummarizer, ModelCallBudget
from memory.engine import MemoryEngine
from memory.errors import LLMError
from memory.models import Audience, Scope, StoredMessage, SummaryKind, Visibility
from memory.summaries import MixedAudienceError, SummaryManager, audience_of
from memory.summarizer import THREAD_LEVEL, ExtractiveSummarizer
from tests.helpers import FakeClock, past_turn

# Summaries are stored through the storage seam: both backends.
STORAGE_BACKENDS = ("embedded", "postgres")

SHARED = Scope("discord", "g1", "general")
DM = Scope("discord", "g1", "dm-alice")
OTHER_GUILD = Scope("discord", "g2", "general")

_ids = iter(range(1_000_000))


def message(
    scope: Scope,
    content: str,
    at: float,
    *,
    role: str = "user",
    author_id: str = "u-alice",
    author_name: str = "Alice",
    visibility: Visibility = Visibility.WORKSPACE,
) -> StoredMessage:
    if role == "assistant":
        author_id = author_name = "memorybot"
    return past_turn(
        content,
        at,
        author_id,
        name=author_name,
        scope=scope,
        id=f"m{next(_ids)}",
        role=role,
        visibility=visibility,
    )


async def store_turn(
    engine: MemoryEngine,
    clock: FakeClock,
    scope: Scope,
    user_text: str,
    reply_text: str,
    *,
    visibility: Visibility = Visibility.WORKSPACE,
    author_id: str = "u-alice",
    author_name: str = "Alice",
) -> list[StoredMessage]:
    """One completed turn, a minute after the previous one: the user's message and the reply."""
    clock.advance(60)
    user = message(
        scope, user_text, clock.now, author_id=author_id, author_name=author_name, visibility=visibility
    )
    reply = message(scope, reply_text, clock.now + 2, role="assistant", visibility=visibility)
    assert await engine.store_messages([user, reply]) == [user.id, reply.id]
    return [user, reply]


@pytest.fixture
def manager(engine: MemoryEngine) -> SummaryManager:
    """Summaries of `engine` by the extractive summarizer, with the default thresholds."""
    return SummaryManager(engine, ExtractiveSummarizer())


def ids(messages: list[StoredMessage]) -> list[str]:
    return [m.id for m in messages]


def filler(seed: int, length: int) -> str:
    """Distinct, fact-like text of exactly `length` characters."""
    words = []
    k = 0
    while len(" ".join(words)) < length:
        words.append(f"Alice logged item {seed}-{k} for the Lyon launch on {1 + k % 28} March.")
        k += 1
    return " ".join(words)[:length]


async def vector_of(engine: MemoryEngine, query: str):  # type: ignore[no-untyped-def]
    return (await engine.embedder.embed([query]))[0]


# --- level 1: coverage, search, privacy ---------------------------------------------------------------


async def test_after_a_turn_its_messages_are_read_once_for_both_summaries(
    engine: MemoryEngine, clock: FakeClock, manager: SummaryManager, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The turn's level-1 summary and the thread summary come from one read of its messages,
    whether the turn was summarized already is asked once, and with nothing to condense the level
    above is not read (a read less each, every turn)."""
    turn = await store_turn(engine, clock, SHARED, "I adopted a puppy named Rex today.", "Congrats on Rex!")
    reads: list[str] = []
    turns, store = engine.storage.turns, manager.store
    get_unscoped, find_turn, query = turns.get_unscoped, store.find_turn, store.query

    async def counted_get_unscoped(ids_: list[str]) -> list[StoredMessage]:
        reads.append("messages")
        return await get_unscoped(ids_)

    async def counted_find_turn(scope: Scope, source_ids: list[str]):  # type: ignore[no-untyped-def]
        reads.append("find_turn")
        return await find_turn(scope, source_ids)

    async def counted_query(*args, **kwargs):  # type: ignore[no-untyped-def]
        reads.append(f"level {kwargs.get('level')}")
        return await query(*args, **kwargs)

    monkeypatch.setattr(turns, "get_unscoped", counted_get_unscoped)
    monkeypatch.setattr(store, "find_turn", counted_find_turn)
    monkeypatch.setattr(store, "query", counted_query)
    await manager.after_turn(SHARED, ids(turn))
    assert sorted(reads) == ["find_turn", "level 1", "messages"]
    level1 = await manager.summaries(SHARED, level=1)
    assert [s.source_ids for s in level1] == [ids(turn)]
    thread = await manager.thread_summary(SHARED)
    assert thread is not None and "Rex" in thread.content

    # Asked again (a retried task), nothing new is written.
    await manager.after_turn(SHARED, ids(turn))
    assert [s.id for s in await manager.summaries(SHARED, level=1)] == [level1[0].id]


async def test_level1_summary_records_coverage_and_is_searchable_only_within_scope(
    engine: MemoryEngine, clock: FakeClock, manager: SummaryManager
) -> None:
    turn = await store_turn(
        engine,
        clock,
        SHARED,
        "Hi! My sister's wedding is on 12 June in Lyon, and we booked the Chateau Margaux venue.",
        "Congratulations! A June wedding in Lyon sounds lovely.",
    )
    summary = await manager.summarize_turn(SHARED, ids(turn))
    assert summary is not None
    assert summary.level == 1 and summary.kind is SummaryKind.TURNS
    assert summary.source_ids == ids(turn)
    assert (summary.covers_from, summary.covers_to) == (turn[0].created_at, turn[1].created_at)
    assert summary.raw_chars == len(turn[0].content) + len(turn[1].content)
    assert summary.visibility is Visibility.WORKSPACE and summary.author_id is None
    assert "Alice:" in summary.content and "12 June" in summary.content
    assert (await manager.store.get_unscoped([summary.id]))[0].source_ids == ids(turn)

    # The same turn summarized again (a retried task) is not written twice.
    again = await manager.summarize_turn(SHARED, ids(turn))
    assert again is not None and again.id == summary.id
    assert [s.id for s in await manager.summaries(SHARED)] == [summary.id]

    other = await store_turn(engine, clock, OTHER_GUILD, "Our wedding in Lyon is on 3 May.", "Noted.")
    other_summary = await manager.summarize_turn(OTHER_GUILD, ids(other))
    assert other_summary is not None

    query = await vector_of(engine, "When is the wedding in Lyon?")
    same_workspace = Audience("discord", "g1", viewer_id="u-bob", channel_id="random")
    found = [s.id for s, _ in await manager.search(query, same_workspace, limit=5)]
    assert found == [summary.id]
    elsewhere = [s.id for s, _ in await manager.search(query, Audience("discord", "g2"), limit=5)]
    assert elsewhere == [other_summary.id]

    # Search re-checks SQLite: a row gone from the source of truth is not shown from its vector.
    await manager.store.delete([summary.id])
    assert await manager.search(query, same_workspace, limit=5) == []


async def test_private_summary_is_shown_only_to_its_author_in_private(
    engine: MemoryEngine, clock: FakeClock, manager: SummaryManager
) -> None:
    turn = await store_turn(
        engine,
        clock,
        DM,
        "Between us: my surgery is scheduled for 4 February at Lyon hospital.",
        "Thanks for telling me, I will keep it private.",
        visibility=Visibility.PRIVATE,
    )
    summary = await manager.summarize_turn(DM, ids(turn))
    assert summary is not None
    # The reply is the bot's, but the summary belongs to the user it answered.
    assert summary.visibility is Visibility.PRIVATE and summary.author_id == "u-alice"

    query = await vector_of(engine, "When is Alice's surgery?")
    in_dm = Audience("discord", "g1", viewer_id="u-alice", channel_id="dm-alice", private_ok=True)
    shared_channel = Audience("discord", "g1", viewer_id="u-alice", channel_id="general")
    someone_else = Audience("discord", "g1", viewer_id="u-bob", channel_id="dm-bob", private_ok=True)
    assert [s.id for s, _ in await manager.search(query, in_dm)] == [summary.id]
    assert await manager.search(query, shared_channel) == []
    assert await manager.search(query, someone_else) == []
    assert [s.id for s in await manager.pending_level1(DM, in_dm)] == [summary.id]
    assert await manager.pending_level1(DM, shared_channel) == []


async def test_private_messages_of_two_users_never_share_a_summary(
    engine: MemoryEngine, clock: FakeClock, manager: SummaryManager
) -> None:
    alice = message(DM, "My PIN is 4321.", clock.now, visibility=Visibility.PRIVATE)
    bob = message(
        DM,
        "Mine is 9876.",
        clock.now + 1,
        author_id="u-bob",
        author_name="Bob",
        visibility=Visibility.PRIVATE,
    )
    with pytest.raises(MixedAudienceError):
        audience_of([alice, bob])
    await engine.store_messages([alice, bob])
    assert await manager.summarize_turn(DM, [alice.id, bob.id]) is None
    assert await manager.summaries(DM) == []
    with pytest.raises(ValueError, match="not in the scope"):
        await manager.summarize_turn(SHARED, [alice.id])


@pytest.mark.embedded_only("breaks the LanceDB write; PostgreSQL writes row and vector in one statement")
async def test_failed_vector_write_keeps_the_row_for_reconcile(
    engine: MemoryEngine, clock: FakeClock, manager: SummaryManager, monkeypatch: pytest.MonkeyPatch
) -> None:
    table = await manager.store.table()

    async def broken(records: object) -> None:
        raise OSError("disk full")

    turn = await store_turn(engine, clock, SHARED, "The release is on 9 October.", "Noted.")
    with monkeypatch.context() as patch:
        patch.setattr(table, "insert", broken)
        summary = await manager.summarize_turn(SHARED, ids(turn))
    assert summary is not None
    query = await vector_of(engine, "When is the release?")
    audience = Audience("discord", "g1")
    assert await manager.search(query, audience) == []
    assert [s.id for s, _ in await manager.store.unindexed()] == [summary.id]

    assert await manager.reconcile() == (1, 0)
    assert [s.id for s, _ in await manager.search(query, audience)] == [summary.id]
    assert await manager.store.unindexed() == []


# --- condensation ------------------------------------------------------------------------------------


async def test_level2_condensation_triggers_when_raw_chars_pass_the_threshold(
    engine: MemoryEngine, clock: FakeClock
) -> None:
    manager = SummaryManager(engine, ExtractiveSummarizer(), condense_threshold_chars=5000)
    level1 = []
    for n in range(4):
        turn = await store_turn(engine, clock, SHARED, filler(n, 900), filler(100 + n, 300))
        summary = await manager.summarize_turn(SHARED, ids(turn))
        assert summary is not None and summary.raw_chars == 1200
        level1.append(summary)
    # 4 x 1,200 = 4,800 raw characters: not past 5,000 yet.
    assert await manager.summaries(SHARED, level=2) == []
    assert [s.id for s in await manager.pending_level1(SHARED)] == [s.id for s in level1]

    turn = await store_turn(engine, clock, SHARED, filler(4, 900), filler(104, 300))
    fifth = await manager.summarize_turn(SHARED, ids(turn))
    assert fifth is not None
    level1.append(fifth)
    level2 = await manager.summaries(SHARED, level=2)
    assert len(level2) == 1
    condensed = level2[0]
    assert condensed.kind is SummaryKind.CONDENSED
    assert condensed.source_ids == [s.id for s in level1]
    assert condensed.covers_from == level1[0].covers_from
    assert condensed.covers_to == level1[-1].covers_to
    assert condensed.raw_chars == 6000
    assert len(condensed.content) <= manager.condensed_budget_chars
    assert all(s.condensed_into == condensed.id for s in await manager.summaries(SHARED, level=1))
    assert await manager.pending_level1(SHARED) == []

    turn = await store_turn(engine, clock, SHARED, "We moved the launch to 2 April.", "Got it.")
    sixth = await manager.summarize_turn(SHARED, ids(turn))
    assert sixth is not None
    assert [s.id for s in await manager.pending_level1(SHARED)] == [sixth.id]
    assert len(await manager.summaries(SHARED, level=2)) == 1
    # The condensation is searchable like any summary.
    query = await vector_of(engine, condensed.content[:200])
    hits = await manager.search(query, Audience("discord", "g1"), limit=10)
    assert condensed.id in [s.id for s, _ in hits]


async def test_condensation_climbs_to_level3_with_a_small_threshold(
    engine: MemoryEngine, clock: FakeClock
) -> None:
    manager = SummaryManager(engine, ExtractiveSummarizer(), condense_threshold_chars=1000, level_factor=2)
    assert (manager.threshold_for(1), manager.threshold_for(2)) == (1000, 2000)
    written = []
    for n in range(4):
        turn = await store_turn(engine, clock, SHARED, filler(n, 400), filler(50 + n, 200))
        summary = await manager.summarize_turn(SHARED, ids(turn))
        assert summary is not None
        written.append(summary)
        if n == 2:
            # Two level-2 summaries would be needed: one holds 1,200 raw characters, under 2,000.
            assert len(await manager.summaries(SHARED, level=2)) == 1
            assert await manager.summaries(SHARED, level=3) == []
    level2 = await manager.summaries(SHARED, level=2)
    assert len(level2) == 2
    assert level2[0].source_ids == [written[0].id, written[1].id]
    assert level2[1].source_ids == [written[2].id, written[3].id]
    level3 = await manager.summaries(SHARED, level=3)
    assert len(level3) == 1
    top = level3[0]
    assert top.source_ids == [s.id for s in level2]
    assert (top.covers_from, top.covers_to) == (written[0].covers_from, written[3].covers_to)
    assert top.raw_chars == 2400
    assert all(s.condensed_into == top.id for s in level2)
    assert top.condensed_into is None


# --- the model summarizer and its budget -------------------------------------------------------------


async def test_turns_cost_no_model_call_and_condensing_uses_the_model_without_logging_text(
    engine: MemoryEngine, clock: FakeClock, caplog: pytest.LogCaptureFixture
) -> None:
    llm = ScriptedLLM([text("Alice's sister marries on 12 June in Lyon; Bob turns 40 on 21 August.")])
    budget = ModelCallBudget(max_calls_per_message=2)
    manager = SummaryManager(engine, LLMSummarizer(llm, budget), condense_threshold_chars=100)
    first = await store_turn(
        engine, clock, SHARED, "My sister's wedding is on 12 June in Lyon.", "How lovely, congratulations!"
    )
    caplog.set_level(logging.INFO)
    with budget.message(first[0].id):
        level1 = await manager.summarize_turn(SHARED, ids(first))
    # A turn's own summary is extractive: no model call per reply.
    assert level1 is not None and "12 June in Lyon" in level1.content
    assert llm.calls == []
    second = await store_turn(engine, clock, SHARED, "Bob turns 40 on 21 August.", "Noted!")
    with budget.message(second[0].id):
        await manager.summarize_turn(SHARED, ids(second))
    # The raw history passed the threshold: the model condenses, once.
    [condensed] = await manager.summaries(SHARED, level=2)
    assert condensed.content == "Alice's sister marries on 12 June in Lyon; Bob turns 40 on 21 August."
    assert len(llm.calls) == 1
    sent = llm.calls[0].messages[0].content
    assert "12 June in Lyon" in sent and "21 August" in sent
    assert "1200 characters" in llm.calls[0].system
    assert budget.calls_total == 1 and budget.used(second[0].id) == 1

    calls = [r for r in caplog.records if r.getMessage() == "background model call"]
    assert [(r.purpose, r.level) for r in calls] == [("condense_summary", 2)]  # type: ignore[attr-defined]
    for record in caplog.records:
        assert "wedding" not in record.getMessage()
        assert all("wedding" not in str(v) for v in record.__dict__.values() if isinstance(v, str))


async def test_llm_summarizer_falls_back_to_extractive_on_llm_error() -> None:
    llm = ScriptedLLM([LLMError("provider unavailable")])
    budget = ModelCallBudget(max_calls_per_message=3)
    summarizer = LLMSummarizer(llm, budget)
    texts = ["Alice: The demo is on 14 May in Paris.", "memorybot: Noted, the demo is on 14 May."]
    with budget.message("m1"):
        got = await summarizer.summarize(texts, level=1, budget_chars=200)
    expected = await ExtractiveSummarizer().summarize(texts, level=1, budget_chars=200)
    assert got == expected and "14 May" in got
    assert len(llm.calls) == 1
    assert (budget.calls_total, budget.failures_total) == (1, 1)
    assert (summarizer.model_summaries, summarizer.fallback_summaries) == (0, 1)


async def test_model_call_budget_is_per_message_and_calls_beyond_it_are_extractive() -> None:
    llm = ScriptedLLM([text("model one"), text("model two"), text("model three")])
    purposes: list[str] = []
    budget = ModelCallBudget(max_calls_per_message=1, on_call=purposes.append)
    summarizer = LLMSummarizer(llm, budget)
    texts = ["Alice: We decided to ship on 3 March.", "Bob: I will write the notes by Friday."]
    extractive = await ExtractiveSummarizer().summarize(texts, level=2, budget_chars=300)

    with budget.message("m1"):
        first = await summarizer.summarize(texts, level=1, budget_chars=300)
        # A task created for the same message is charged to it too.
        second = await asyncio.create_task(summarizer.summarize(texts, level=2, budget_chars=300))
    assert (first, second) == ("model one", extractive)
    assert (budget.calls_total, budget.over_budget_total, len(llm.calls)) == (1, 1, 1)

    with budget.message("m2"):
        third = await summarizer.summarize(texts, level=THREAD_LEVEL, budget_chars=300)
    assert third == "model two"

    # Outside any message (an idle timer, say) no model call is made at all.
    outside = await summarizer.summarize(texts, level=2, budget_chars=300)
    assert outside == extractive
    assert (budget.calls_total, budget.over_budget_total, len(llm.calls)) == (2, 2, 2)
    assert purposes == ["turn_summary", "thread_summary"]
    assert llm.remaining == 1


# --- thread summary ----------------------------------------------------------------------------------

FACTS = [
    "the office moved to Rue Garibaldi in Lyon",
    "Bob's birthday is on 21 August",
    "the budget for the trip is 4500 euros",
    "we picked Postgres 16 for the new service",
    "the standup now starts at 9:30",
    "Chloe joins the team on 2 September",
    "the client demo is on Thursday 12 June",
    "Marc prefers tea over coffee",
    "the release train leaves every 14 days",
    "the Grenoble offsite is booked for 8 October",
    "Alice runs the Berlin marathon on 29 September",
    "we agreed to freeze features on 1 November",
]


async def test_thread_summary_stays_within_budget_and_keeps_recent_facts(
    engine: MemoryEngine, clock: FakeClock
) -> None:
    # Refreshed at every turn here (no threshold), to see the budget and recency hold each time.
    manager = SummaryManager(engine, ExtractiveSummarizer(), thread_budget_tokens=50, thread_refresh_chars=0)
    budget_chars = 200
    assert manager.thread_budget_chars == budget_chars
    first_at = None
    raw = 0
    for n, fact in enumerate(FACTS):
        turn = await store_turn(engine, clock, SHARED, f"Quick update: {fact}.", "Thanks, noted.")
        first_at = first_at or turn[0].created_at
        raw += len(turn[0].content) + len(turn[1].content)
        summary = await manager.update_thread_summary(SHARED, ids(turn))
        assert len(summary.content) <= budget_chars, (n, summary.content)
        assert fact in summary.content, (n, summary.content)
        assert summary.source_ids == ids(turn)
    current = await manager.thread_summary(SHARED)
    assert current is not None and current.id == summary.id
    assert current.kind is SummaryKind.THREAD and current.level == THREAD_LEVEL
    assert (current.covers_from, current.covers_to) == (first_at, turn[1].created_at)
    assert current.raw_chars == raw
    assert "Alice:" in current.content
    # One rolling row per channel, never searchable as a summary of its own.
    assert [s.kind for s in await manager.store.query(SHARED, kinds=[SummaryKind.THREAD])] == [
        SummaryKind.THREAD
    ]
    assert await manager.thread_summary(DM) is None


async def test_thread_summary_with_the_model_folds_the_previous_one_in_and_is_trimmed(
    engine: MemoryEngine, clock: FakeClock
) -> None:
    llm = ScriptedLLM([text("Office in Lyon; demo on 12 June. " * 20)])
    budget = ModelCallBudget(max_calls_per_message=1)
    manager = SummaryManager(
        engine, LLMSummarizer(llm, budget), thread_budget_tokens=25, thread_refresh_chars=10
    )
    first = await store_turn(engine, clock, SHARED, "Our office moved to Lyon.", "Noted.")
    with budget.message(first[0].id):
        opening = await manager.update_thread_summary(SHARED, ids(first))
    assert llm.calls == [] and "office moved to Lyon" in opening.content  # the first one is extractive
    second = await store_turn(engine, clock, SHARED, "The client demo is on 12 June.", "Good luck!")
    with budget.message(second[0].id):
        summary = await manager.update_thread_summary(SHARED, ids(second))
    assert opening.content in llm.calls[0].messages[0].content
    assert "Alice: The client demo is on 12 June." in llm.calls[0].messages[0].content
    assert len(summary.content) <= 100 and summary.content.startswith("Office in Lyon; demo on 12 June.")


async def test_the_thread_summary_waits_for_enough_new_text_then_folds_it_all_in_one_call(
    engine: MemoryEngine, clock: FakeClock
) -> None:
    llm = ScriptedLLM([text("Office in Lyon, demo on 12 June, Bob turns 40 in August.")])
    budget = ModelCallBudget(max_calls_per_message=1)
    manager = SummaryManager(engine, LLMSummarizer(llm, budget), thread_refresh_chars=150)
    turns = []
    summaries = []
    for said in (
        "Our office moved to Lyon last spring.",
        "The client demo is on 12 June at their office.",
        "Bob turns 40 on 21 August, we should plan something.",
        "The offsite budget is 5k euros for the whole team.",
    ):
        turn = await store_turn(engine, clock, SHARED, said, "Noted.")
        turns.append(turn)
        with budget.message(turn[0].id):
            summaries.append(await manager.update_thread_summary(SHARED, ids(turn)))
    # The first is extractive; the next turns wait until 150 characters came in (52, then 110,
    # then 166 with the fourth turn), then one call folds all three.
    assert len(llm.calls) == 1
    assert summaries[0].id == summaries[1].id == summaries[2].id != summaries[3].id
    sent = llm.calls[0].messages[0].content
    assert "12 June" in sent and "21 August" in sent and "5k euros" in sent
    assert summaries[3].content == "Office in Lyon, demo on 12 June, Bob turns 40 in August."
    assert summaries[3].source_ids == [*ids(turns[1]), *ids(turns[2]), *ids(turns[3])]
    assert summaries[3].covers_from == turns[0][0].created_at


# --- extractive summarizer ---------------------------------------------------------------------------

TURN_TEXTS = [
    "Alice: Hi there! How are you? My sister's wedding is on 12 June in Lyon. I will bring my dog Rex.",
    "memorybot: Congratulations! That sounds lovely.",
    "Bob: ok thanks",
    "Alice: We decided to book the venue at Chateau Margaux for 120 guests. The budget is 15000 euros.",
    "Marie: On a décidé de partir à Grenoble le 3 mars.",
]


async def test_extractive_summarizer_is_deterministic_within_budget_and_keeps_names_and_dates() -> None:
    summarizer = ExtractiveSummarizer()
    full = await summarizer.summarize(TURN_TEXTS, level=1, budget_chars=600)
    assert full == await ExtractiveSummarizer().summarize(TURN_TEXTS, level=1, budget_chars=600)
    assert "Alice: My sister's wedding is on 12 June in Lyon." in full
    assert "Marie: On a décidé de partir à Grenoble le 3 mars." in full
    assert "120 guests" in full
    # Small talk is what goes.
    assert "ok thanks" not in full and "How are you?" not in full and "Hi there" not in full

    for budget in (10, 40, 90, 150, 250):
        out = await summarizer.summarize(TURN_TEXTS, level=1, budget_chars=budget)
        assert 0 < len(out) <= budget, (budget, out)
    short = await summarizer.summarize(TURN_TEXTS, level=1, budget_chars=90)
    assert short.startswith(("Alice: ", "Marie: ")) and any(ch.isdigit() for ch in short)
    assert await summarizer.summarize([], level=1, budget_chars=100) == ""


async def test_extractive_summary_can_be_summarized_again_keeping_speakers() -> None:
    summarizer = ExtractiveSummarizer()
    first = await summarizer.summarize(TURN_TEXTS[:3], level=1, budget_chars=300)
    second = await summarizer.summarize(TURN_TEXTS[3:], level=1, budget_chars=300)
    condensed = await summarizer.summarize([first, second], level=2, budget_chars=300)
    assert condensed.splitlines()[0].startswith("Alice: ")
    assert "Marie: " in condensed and "12 June" in condensed
    # Near-duplicate sentences are said once.
    repeated = await summarizer.summarize(
        ["Alice: The demo is on 14 May in Paris.", "Alice: The demo is on 14 May in Paris!"],
        level=1,
        budget_chars=300,
    )
    assert repeated.count("14 May") == 1
