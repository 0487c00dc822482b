"""The benchmark metrics on hand-made inputs whose recall is known by hand."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime

import pytest

from bench.locomo import Tally
from bench.locomo_data import normalize_evidence, parse_conversation, parse_session_date
from bench.recall import (
    answer_shown,
    evidence_recall,
    item_sources,
    mean,
    percentile,
    percentiles,
    recall_at,
    recall_at_k,
    turns_covered,
)
from memory.models import Memory, MemoryType, Scope, Source, StoredMessage, Visibility

# Stored message id -> dia_id, as the LoCoMo benchmark keeps it while ingesting.
TURN_OF = {"msg-a": "D1:1", "msg-b": "D1:2", "msg-c": "D1:3", "msg-d": "D2:1"}


def memory(mid: str, sources: list[str]) -> Memory:
    return Memory(
        id=mid,
        content=f"memory {mid}",
        memory_type=MemoryType.FACT,
        importance=0.6,
        confidence=0.8,
        subjects=[],
        source=Source.HEURISTIC,
        scope=Scope(
            platform="bench", workspace_id="w", channel_id="locomo", agent_id="default", thread_id=None
        ),
        user_id=None,
        author_id=None,
        visibility=Visibility.WORKSPACE,
        created_at=0.0,
        updated_at=0.0,
        sources=sources,
    )


def turn(mid: str) -> StoredMessage:
    return StoredMessage(mid, Scope("bench", "w", "locomo", "default"), "a", "A", "user", "hi", 0.0)


@dataclass
class Summary:
    id: str
    source_ids: list[str] = field(default_factory=list)


def test_a_memory_covers_the_turns_in_its_sources() -> None:
    block = [memory("m1", ["msg-a"]), memory("m2", ["unknown-message"])]
    covered = turns_covered(block, TURN_OF)
    assert covered == {"D1:1"}
    assert evidence_recall(["D1:1", "D1:3"], covered) == 0.5


def test_a_stored_turn_covers_itself_and_a_summary_its_source_ids() -> None:
    covered = turns_covered([turn("msg-c"), Summary("s1", ["msg-a", "msg-d"])], TURN_OF)
    assert covered == {"D1:1", "D1:3", "D2:1"}
    assert evidence_recall(["D1:1", "D1:3"], covered) == 1.0
    assert item_sources(memory("m9", ["msg-b", "msg-c"])) == ["m9", "msg-b", "msg-c"]


def test_ranked_pairs_are_unwrapped() -> None:
    ranked = [(memory("m1", ["msg-b"]), 0.9), (turn("msg-d"), 0.5)]
    assert [turns_covered([c], TURN_OF) for c in ranked] == [{"D1:2"}, {"D2:1"}]


def test_nothing_covered_is_zero_and_empty_evidence_is_an_error() -> None:
    assert evidence_recall(["D1:1"], set()) == 0.0
    with pytest.raises(ValueError, match="empty"):
        evidence_recall([], {"D1:1"})


def test_recall_at_k_counts_only_the_first_k_candidates() -> None:
    evidence = ["D1:1", "D1:3", "D2:1"]
    # Rank 1 covers nothing, rank 2 covers D1:1, rank 4 covers D1:3 and D2:1 (a memory with two sources).
    ranked = [set(), {"D1:1"}, {"D1:2"}, {"D1:3", "D2:1"}]
    assert recall_at_k(evidence, ranked, 0) == 0.0
    assert recall_at_k(evidence, ranked, 1) == 0.0
    assert recall_at_k(evidence, ranked, 2) == pytest.approx(1 / 3)
    assert recall_at_k(evidence, ranked, 3) == pytest.approx(1 / 3)
    assert recall_at_k(evidence, ranked, 4) == 1.0
    assert recall_at(evidence, ranked, (1, 2, 20)) == {1: 0.0, 2: pytest.approx(1 / 3), 20: 1.0}


def test_percentiles_interpolate_between_ranks() -> None:
    values = [10.0, 1.0, 4.0, 2.0, 3.0]  # sorted: 1 2 3 4 10
    assert percentile(values, 50) == 3.0
    assert percentile(values, 0) == 1.0
    assert percentile(values, 100) == 10.0
    assert percentile(values, 95) == pytest.approx(4 + 0.8 * 6)  # position 3.8 of 0..4
    assert percentile(list(range(1, 101)), 99) == pytest.approx(99.01)
    assert percentiles([5.0], (50, 95)) == {"p50": 5.0, "p95": 5.0}
    assert percentiles(values, (50, 99)) == {"p50": 3.0, "p99": 9.76}
    with pytest.raises(ValueError):
        percentile([], 50)
    assert mean([]) == 0.0
    assert mean([1.0, 2.0, 6.0]) == 3.0


def test_session_dates_parse_to_utc() -> None:
    assert parse_session_date("1:47 pm on 18 May, 2023") == datetime(2023, 5, 18, 13, 47, tzinfo=UTC)
    assert parse_session_date("12:09 am on 2 Jan, 2024") == datetime(2024, 1, 2, 0, 9, tzinfo=UTC)
    assert parse_session_date("12:30 pm on 9 August, 2023") == datetime(2023, 8, 9, 12, 30, tzinfo=UTC)
    with pytest.raises(ValueError):
        parse_session_date("yesterday")


def test_evidence_ids_are_split_repaired_and_checked() -> None:
    known = {"D8:6", "D9:17", "D11:26", "D1:3"}
    assert normalize_evidence(["D8:6; D9:17"], known) == ["D8:6", "D9:17"]
    assert normalize_evidence(["D:11:26", "D1:3", "D1:3"], known) == ["D11:26", "D1:3"]
    assert normalize_evidence(["D", "D10:19"], known) == []


SAMPLE = {
    "sample_id": "tiny",
    "conversation": {
        "speaker_a": "Ana",
        "speaker_b": "Ben",
        "session_2_date_time": "9:00 am on 3 June, 2023",
        "session_2": [{"speaker": "Ben", "dia_id": "D2:1", "text": "Back from Oslo."}],
        "session_1_date_time": "8:00 pm on 1 June, 2023",
        "session_1": [
            {"speaker": "Ana", "dia_id": "D1:1", "text": "I adopted a cat."},
            {"speaker": "Ben", "dia_id": "D1:2", "text": "Look!", "blip_caption": "a photo of a fjord"},
        ],
        "session_3_date_time": "9:00 am on 9 June, 2023",
    },
    "qa": [
        {"question": "What did Ana adopt?", "answer": "a cat", "evidence": ["D1:1"], "category": 4},
        {"question": "Trick?", "adversarial_answer": "x", "evidence": ["D1:2"], "category": 5},
        {"question": "Broken?", "answer": "?", "evidence": ["D7:7"], "category": 1},
    ],
}


def test_a_conversation_parses_in_session_order_with_captions_and_times() -> None:
    conv = parse_conversation(SAMPLE)
    assert conv.speakers == ("Ana", "Ben")
    assert [t.dia_id for t in conv.turns] == ["D1:1", "D1:2", "D2:1"]
    assert conv.turns[1].text == "Look! [shares a photo: a photo of a fjord]"
    start = datetime(2023, 6, 1, 20, 0, tzinfo=UTC).timestamp()
    assert conv.turns[0].timestamp == start
    assert conv.turns[1].timestamp > start  # a few seconds later keeps the order
    # Category 5 is never scored; a question whose evidence names no turn is skipped and counted.
    assert [q.text for q in conv.questions] == ["What did Ana adopt?"]
    assert [q.answer for q in conv.questions] == ["a cat"]
    assert conv.skipped_questions == 1


def test_an_answer_is_shown_when_every_word_of_it_is_in_the_text() -> None:
    block = 'From past conversations:\n- 7 May 2023, "Ana": "We adopted two cats; Pixel loves the fjords"'
    # Words in any order, under the full-text analysis: "cat" is "cats", "Fjord" is "fjords".
    assert answer_shown("Pixel the cat", block) is True
    assert answer_shown("Fjord, 7 May 2023", block) is True
    # One word missing is not shown: a line cut before the answer counts for nothing here.
    assert answer_shown("Pixel and Luna", block) is False
    assert answer_shown("Norway", "") is False
    # Nothing to look for (stop words, punctuation, nothing): no verdict.
    assert answer_shown("the", block) is None
    assert answer_shown("?", block) is None
    assert answer_shown("", block) is None


def test_tally_summarises_per_category() -> None:
    tally = Tally()
    tally.add(1, ["D1:1", "D1:3"], {"D1:1"}, [{"D1:1"}, set(), {"D1:3"}], items=2, tokens=100, ms=10.0)
    tally.add(4, ["D2:1"], set(), [set()] * 25, items=0, tokens=0, ms=30.0)
    summary = tally.summary()
    assert summary["injected_recall"] == 0.25
    assert summary["recall_at"] == {"5": 0.5, "10": 0.5, "20": 0.5}
    assert summary["injected_items_mean"] == 1.0
    assert summary["injected_tokens_mean"] == 50.0
    assert summary["prehook_ms"] == {"p50": 20.0, "p95": 29.0}
    assert summary["by_category"]["1"] == {
        "questions": 1,
        "injected_recall": 0.5,
        "recall_at": {"5": 1.0, "10": 1.0, "20": 1.0},
    }
    assert summary["by_category"]["4"]["injected_recall"] == 0.0
    assert set(summary["by_category"]) == {"1", "4"}
    # Without answers to check, no `answer_in_block` is reported.
    assert "answer_in_block" not in summary


def test_tally_reports_the_share_of_answers_shown_over_the_questions_that_have_one() -> None:
    tally = Tally()
    for category, shown in ((1, True), (1, False), (1, None), (2, None), (4, True)):
        tally.add(category, ["D1:1"], {"D1:1"}, [{"D1:1"}], items=1, tokens=10, ms=1.0, answer_shown=shown)
    summary = tally.summary()
    # None (no words in the answer) is left out of the share, not counted as a miss.
    assert summary["answer_in_block"] == round(2 / 3, 4)
    assert summary["by_category"]["1"]["answer_in_block"] == 0.5
    assert summary["by_category"]["4"]["answer_in_block"] == 1.0
    assert "answer_in_block" not in summary["by_category"]["2"]
