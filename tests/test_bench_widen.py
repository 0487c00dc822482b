"""The widening probe: where missed evidence turns lie, and what each widening search reaches."""

from __future__ import annotations

from bench.widen import WIDENINGS, rank_bucket, seed_terms, summarise


def test_seed_terms_are_the_seed_words_the_question_does_not_say() -> None:
    terms = seed_terms(
        "What animal does Nate like?",
        ["I'm drawn to turtles, Nate!", "Turtles are calm; an animal like no other."],
    )
    # Question words, stop words and two-letter fillers are left out; each word once, in order.
    assert terms.split() == ["drawn", "turtles", "calm"]
    assert seed_terms("What about it?", ["about it"]) == ""


def test_rank_buckets() -> None:
    assert [rank_bucket(r) for r in (None, 0, 59, 60, 249, 499, 500)] == [
        "none",
        "<60",
        "<60",
        "<120",
        "<250",
        "<500",
        ">=500",
    ]


def test_summary_counts_missed_turns_outside_the_pool_and_what_each_widening_reaches() -> None:
    lists: dict[str, list[str]] = {name: [] for name in WIDENINGS}
    records = [
        {
            "category": 1,
            "missed": ["D1:1", "D2:2", "D3:3"],
            "pool": ["D1:1", "D9:9"],
            "dense_rank": {"D1:1": 3, "D2:2": 70, "D3:3": 600},
            "text_rank": {"D1:1": 0, "D2:2": 5},
            "lists": {**lists, "seed_words_1": ["D2:2", "D1:1", "D8:8", "D3:3"]},
        },
        {
            "category": 4,
            "missed": [],
            "pool": ["D5:5"],
            "dense_rank": {},
            "text_rank": {},
            "lists": {**lists, "moved_vector": ["D5:5", "D6:6"]},
        },
    ]
    report = summarise(records, top=3)
    assert report["missed"] == 3
    assert report["outside_pool"] == 2
    assert report["outside_by_dense_rank"] == {"<120": 1, ">=500": 1}
    assert report["outside_without_question_word"] == 1  # D3:3: no full-text rank
    assert report["by_category"] == {
        "multi-hop": {"missed": 3, "outside_pool": 2},
        "single-hop": {"missed": 0, "outside_pool": 0},
    }
    # Only the best 3 of a list count: D3:3 (4th) is not reached.
    assert report["widening"]["seed_words_1"] == {
        "missed_reached": 2,
        "outside_reached": 1,
        "new_turns_per_question": 1.0,  # D2:2 and D8:8 over two questions
    }
    assert report["widening"]["moved_vector"] == {
        "missed_reached": 0,
        "outside_reached": 0,
        "new_turns_per_question": 0.5,
    }
