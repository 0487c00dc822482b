"""TTL parsing and the pure dedup rules (content words, decisions)."""

from __future__ import annotations

import pytest

from memory.dedup import DedupAction, content_words, decide, policy_for_model, records_an_instance
from memory.ttl import TTLError, expires_at, parse_duration

HOUR = 3600
DAY = 24 * HOUR

# Each duration and the ways it is written: compact ("7d"), and as a model writes them ("a week").
SPELLINGS = {
    1800: ["30m"],
    HOUR: ["1h"],
    6 * HOUR: ["6 hours"],
    DAY: ["1d"],
    3 * DAY: ["3 days", "3 jours"],
    7 * DAY: ["7d", "7 days", "1 week", "a week"],
    14 * DAY: [" 2W ", "2 weeks", "2 semaines", "two weeks"],
    30 * DAY: ["30d", "1 month"],
    365 * DAY: ["1 year"],
}


@pytest.mark.parametrize(
    ("text", "seconds"), [(text, seconds) for seconds, spellings in SPELLINGS.items() for text in spellings]
)
def test_parse_duration(text: str, seconds: int) -> None:
    assert parse_duration(text) == seconds


@pytest.mark.parametrize(
    "bad", ["", "abc", "7", "d7", "-1d", "0d", "1.5h", "99999y", "1h30m", "week", "soon", "1x", "many weeks"]
)
def test_bad_ttl_is_rejected_with_a_clear_error(bad: str) -> None:
    with pytest.raises(TTLError, match="TTL"):
        parse_duration(bad)


def test_expires_at_permanent_and_relative() -> None:
    assert expires_at(None, 100.0) is None
    for permanent in ("permanent", "", "  ", "never", "forever", "null", "Permanent", "no expiry"):
        assert expires_at(permanent, 100.0) is None, permanent
    assert expires_at("1h", 100.0) == 3700.0
    with pytest.raises(TTLError):
        expires_at("soon", 100.0)


def test_content_words_fold_case_accents_and_stopwords() -> None:
    assert content_words("Mickael broke his shoulder") == {"mickael", "broke", "shoulder"}
    assert content_words("Mickael s'est cassé l'épaule") == {"mickael", "casse", "epaule"}
    # Negation is content: "likes" and "does not like" never look the same.
    assert "not" in content_words("Mickael does not like pizza")


def test_minilm_policy_is_calibrated_not_the_seed() -> None:
    policy = policy_for_model("sentence-transformers/all-MiniLM-L6-v2")
    assert policy.refine_floor < 0.76 < policy.supersede_at
    assert policy_for_model("all-MiniLM-L6-v2", override=0.9).supersede_at == 0.9


def test_decide_refinement_covered_and_distinct() -> None:
    policy = policy_for_model("all-MiniLM-L6-v2")
    refine = decide(
        "Mickael broke his shoulder on 10 January 2026", [("a", "Mickael broke his shoulder", 0.84)], policy
    )
    assert (refine.action, refine.existing_id) == (DedupAction.SUPERSEDE, "a")
    covered = decide(
        "Mickael broke his shoulder", [("b", "Mickael broke his shoulder on 10 January 2026", 0.84)], policy
    )
    assert covered.action is DedupAction.COVERED
    distinct = decide("David has a son", [("c", "David lives in Paris", 0.66)], policy)
    assert distinct.action is DedupAction.INSERT
    update = decide("Mickael prefers light mode", [("d", "Mickael prefers dark mode", 0.90)], policy)
    assert update.action is DedupAction.SUPERSEDE
    too_far = decide("Mickael likes pizza a lot", [("e", "Mickael likes pizza", 0.3)], policy)
    assert too_far.action is DedupAction.INSERT


def test_a_note_of_the_same_message_is_never_taken_for_an_update() -> None:
    """Close as they are, two notes of one message are two facts; words still cover or refine."""
    policy = policy_for_model("all-MiniLM-L6-v2")
    # ("I prefer dark mode, and light mode when I present": close, and both true)
    dark = [("a", "Mickael prefers dark mode", 0.897)]
    assert decide("Mickael prefers light mode", dark, policy).action is DedupAction.SUPERSEDE
    sibling = decide("Mickael prefers light mode", dark, policy, siblings=frozenset({"a"}))
    assert sibling.action is DedupAction.INSERT
    shoulder = [("b", "Mickael broke his shoulder", 0.84)]
    refined = decide("Mickael broke his shoulder on 10 January 2026", shoulder, policy, frozenset({"b"}))
    assert (refined.action, refined.existing_id) == (DedupAction.SUPERSEDE, "b")
    covered = decide(
        "Mickael lives in Lyon", [("c", "Mickael lives in Lyon now", 0.97)], policy, frozenset({"c"})
    )
    assert covered.action is DedupAction.COVERED


# (old note, new note, cosine with MiniLM, whether the new one replaces the old)
TENSES = [
    # the past of a state beside its present: history, both true
    ("Mickael lives in Lyon", "Mickael lived in Lyon as a student", 0.894, False),
    ("Mickael lives in Lyon", "Mickael lived in Lyon for two years", 0.921, False),
    ("Mickael habite à Lyon", "Mickael a habité à Lyon quand il était étudiant", 0.819, False),
    # a past that says it ended replaces the present
    ("Mickael lives in Lyon", "Mickael lived in Lyon until 2025", 0.878, True),
    ("Mickael works at Acme", "Mickael used to work at Acme", 0.969, True),
    # the present never replaces the past: after moving back, both are true
    ("Mickael used to live in Madrid", "Mickael lives in Madrid", 0.949, False),
    ("Mickael lived in Lyon until 2025", "Mickael lives in Lyon", 0.878, False),
    # folded, "a habité à Lyon" has every word of "habite à Lyon": words alone would drop the home now
    ("Mickael a habité à Lyon", "Mickael habite à Lyon", 0.978, False),
    # a move is not an update of the home it led to, nor of a past one
    ("Mickael lives in Lyon", "Mickael moved to Lyon in 2019", 0.857, False),
    ("Mickael used to live in Madrid", "Mickael moved back to Madrid", 0.877, False),
    # one tense on both sides, or no lasting state: closeness decides as before
    ("Mickael moved to Lyon in 2019", "Mickael moved to Lyon in June 2019", 0.99, True),
    ("Mickael lives in Lyon", "Mickael lives in Paris", 0.859, True),
    ("Mickael lives in Lyon", "Mickael has lived in Lyon since 2019", 0.949, True),
    ("Mickael used to live in Madrid", "Mickael lived in Madrid as a child", 0.949, True),
    ("Mickael prefers dark mode", "Mickael prefers light mode", 0.897, True),
    ("Mickael's deadline is Friday", "Mickael's deadline was moved to Monday", 0.888, True),
]


@pytest.mark.parametrize(("old", "new", "similarity", "replaces"), TENSES)
def test_how_a_state_was_updates_how_it_is_only_when_it_says_it_ended(
    old: str, new: str, similarity: float, replaces: bool
) -> None:
    policy = policy_for_model("all-MiniLM-L6-v2")
    decision = decide(new, [("a", old, similarity)], policy)
    assert decision.action is (DedupAction.SUPERSEDE if replaces else DedupAction.INSERT), decision


def test_a_memory_of_one_instance_of_a_kind_is_told_by_its_subjects() -> None:
    assert records_an_instance(["léa", "kind:activity", "camping"])
    assert not records_an_instance(["léa", "kindness", "camping"])
