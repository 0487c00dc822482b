"""Every note well formed (subjects, confidence, no duplicates); extraction never raises on any input."""

from __future__ import annotations

import dataclasses
import importlib
import logging
from collections.abc import Callable
from datetime import timedelta

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from memory.models import MemoryType
from memory.text import Extracted, extract, extraction
from tests.extraction._support import (
    EVENT,
    FACT,
    ID,
    NOW,
    PREF,
    contents,
    run,
)
from tests.helpers import ANY_CHAR


@pytest.mark.parametrize(
    ("text", "subjects"),
    [
        ("I like pizza", ["mickael", "pizza"]),
        ("I prefer tea over coffee", ["mickael", "tea", "coffee"]),
        ("call me Mick", ["mickael", "mick"]),
        ("my dog is called Rex", ["mickael", "rex", "dog"]),
        ("je déteste les réunions", ["mickael", "réunions"]),
        ("the deadline for the report is Friday", ["mickael", "report"]),
        ("I'm a software engineer at Google", ["mickael", "software", "engineer", "google"]),
        ("je suis développeuse web chez Acme", ["mickael", "développeuse", "web", "acme"]),
    ],
)
def test_subjects(text: str, subjects: list[str]) -> None:
    assert [item.subjects for item in run(text)] == [subjects]


def test_subjects_are_lowercase_bounded_and_start_with_the_speaker() -> None:
    text = (
        "remember that the quarterly budget review meeting with finance marketing sales and legal is annual. "
        "I love Pizza and I want to learn Japanese."
    )
    items = run(text, speaker="Ana María")
    assert len(items) == 3
    for item in items:
        assert item.subjects[0] == "ana maría"
        assert 1 <= len(item.subjects) <= 5
        assert all(s == s.lower() and s for s in item.subjects)
        assert len(set(item.subjects)) == len(item.subjects)


def test_confidence_levels() -> None:
    [request] = run("remember that the wifi password is hunter2")
    assert request.confidence == pytest.approx(0.9)
    [pref] = run("I like pizza")
    assert 0.6 <= pref.confidence <= 0.8
    [hedged] = run("maybe I prefer tea")
    assert hedged.confidence < pref.confidence
    for item in run("I'm Mickael. We decided to use Go. The deadline is Friday. I broke my arm."):
        assert 0.6 <= item.confidence <= 0.8


def test_duplicates_are_removed() -> None:
    assert contents("I like pizza. I like pizza!\nI like pizza") == [(PREF, "Mickael likes pizza")]
    assert contents("I'm French. je suis française") == [
        (ID, "Mickael is French"),
        (ID, "Mickael est française"),
    ]


def test_speaker_name_is_used_verbatim_and_safely() -> None:
    assert contents("I like pizza", speaker="a\\1b $0") == [(PREF, "a\\1b $0 likes pizza")]
    assert contents("I like pizza", speaker="  @Léa  ") == [(PREF, "Léa likes pizza")]
    # a sentence's capital leaves the name as given, in every kind of note alike
    assert contents("I broke my arm", speaker="root") == [(EVENT, "root broke their arm")]
    assert contents("I like pizza", speaker="root") == [(PREF, "root likes pizza")]
    assert (FACT, "root's pets include a dog: root adopted a dog") in contents(
        "I adopted a dog", speaker="root"
    )
    assert contents("I like pizza", speaker="") == [(PREF, "User likes pizza")]
    assert contents("I like pizza", speaker="\ud800") == [(PREF, "User likes pizza")]
    assert contents("j'adore le jazz", speaker="Ahmed") == [(PREF, "Ahmed adore le jazz")]
    assert contents("ma sœur s'appelle Léa", speaker="Ahmed") == [(FACT, "La sœur d'Ahmed s'appelle Léa")]


def test_curly_apostrophes_and_odd_spacing() -> None:
    assert contents("I\u2019m   a   nurse") == [(ID, "Mickael is a nurse")]
    assert contents("j\u2019adore\u00a0le jazz") == [(PREF, "Mickael adore le jazz")]


def test_extracted_is_frozen() -> None:
    [item] = run("I like pizza")
    with pytest.raises(dataclasses.FrozenInstanceError):
        item.content = "x"  # type: ignore[misc]


@pytest.mark.parametrize(
    "text",
    [
        "\ud800",
        "I like \udfff pizza \ud83d",
        "\x00\x01\x02 I like pizza \x00 1 \x00",
        "\u202eI like pizza\u202c",
        "אני אוהב פיצה",  # RTL text
        "أنا أحب البيتزا",
        "🍕🍕🍕 I ❤️ pizza 👨‍👩‍👧",
        "I like " * 20_000,
        "a" * 100_000,
        " " * 100_000 + "I like pizza",
        "\n" * 50_000,
        "remember that " * 10_000,
        "Friday " * 15_000,
        ", and I" * 15_000,
        "".join(f"I like pizza number {i}. " for i in range(5_000)),
    ],
)
def test_hostile_inputs_return_a_list(text: str) -> None:
    items = extraction.extract_unguarded(text, "Mickael", NOW)  # the unguarded core: bugs must surface here
    assert isinstance(items, list)
    assert len(items) <= 50
    for item in items:
        assert item.content and len(item.content) <= 500
        item.content.encode("utf-8")  # no lone surrogates leak into stored text


def test_non_string_input_yields_nothing() -> None:
    assert extract(None, "Mickael") == []  # type: ignore[arg-type]
    assert extract(b"I like pizza", "Mickael") == []  # type: ignore[arg-type]


def _check(items: list[Extracted]) -> None:
    assert isinstance(items, list)
    for item in items:
        assert isinstance(item, Extracted)
        assert isinstance(item.memory_type, MemoryType)
        assert item.content.strip() and len(item.content) <= 500
        assert "\x00" not in item.content and "\x01" not in item.content
        assert 0.0 <= item.confidence <= 1.0
        assert item.subjects and all(s == s.lower() for s in item.subjects)
        assert item.event_at is None or isinstance(item.event_at, float)


_TRIGGERS = st.sampled_from(
    [
        "I", "I'm", "my", "we", "let's", "je", "j'", "j'aime", "suis", "mon", "ma", "mes", "on a", "like",
        "love", "don't", "prefer", "remember that", "n'oublie pas que", "decided to", "décidé de", "deadline",
        "due", "by", "pour", "avant le", "Friday", "vendredi", "12 March", "le 1er mars", "2026-02-29",
        "31/12/2026", "tomorrow", "demain", "next week", "in 3 days", "at 3pm", "à 15h", "Mickael", "Léa",
        "?", ".", ",", "!", "\n", '"', "'", ":", "if", "si", "he said", "broke", "got", "want to",
        "is called", "favorite", "préféré", "est", "goal", "\ud800", "\x00", "\x01", "0\x00", "🍕",
    ]
)  # fmt: skip


@settings(max_examples=300, deadline=None)
@given(text=st.text(alphabet=ANY_CHAR, max_size=300), speaker=st.text(alphabet=ANY_CHAR, max_size=20))
@example(text="\ud800", speaker="Mickael")
@example(text="", speaker="")
def test_never_raises_on_arbitrary_text(text: str, speaker: str) -> None:
    _check(extraction.extract_unguarded(text, speaker, NOW))
    _check(extract(text, speaker, now=NOW))


@settings(max_examples=300, deadline=None)
@given(
    parts=st.lists(st.one_of(_TRIGGERS, st.text(alphabet=ANY_CHAR, max_size=8)), max_size=40),
    seps=st.sampled_from([" ", "", "  ", ", "]),
    days=st.integers(min_value=-4000, max_value=4000),
)
def test_never_raises_on_trigger_soup(parts: list[str], seps: str, days: int) -> None:
    now = NOW + timedelta(days=days, hours=days % 24)
    _check(extraction.extract_unguarded(seps.join(parts), "Mickael", now))


@pytest.mark.parametrize(
    ("module", "inner", "call", "fallback"),
    [
        ("memory.text.extraction", "extract_unguarded", lambda m: m.extract("I live in Lyon", "Mickael"), []),
        (
            "memory.text.episodes",
            "_detect",
            lambda m: m.detect_episodes("I live in Lyon", "Noted!", "Mickael", NOW),
            [],
        ),
        ("memory.people.aliases", "_learn", lambda m: m.learn_aliases("I live in Lyon", "Mickael"), []),
        (
            "memory.text.dates",
            "_resolve_sentence",
            lambda m: m.resolve_relative_dates("I live in Lyon", NOW),
            "I live in Lyon",
        ),
    ],
)
def test_a_heuristic_that_raises_is_logged_without_the_text_and_costs_the_turn_nothing(
    module: str,
    inner: str,
    call: Callable[[object], object],
    fallback: object,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    imported = importlib.import_module(module)

    def broken(*args: object, **kwargs: object) -> object:
        raise KeyError("I live in Lyon")  # a rule's error may quote what it read

    monkeypatch.setattr(imported, inner, broken)
    with caplog.at_level(logging.WARNING, logger="memory.text"):
        assert call(imported) == fallback
    (record,) = caplog.records
    heuristic = module.rsplit(".", 1)[-1]  # "extraction", "episodes", "aliases", "dates"
    assert (record.heuristic, record.error) == (heuristic, "KeyError")  # type: ignore[attr-defined]
    assert record.where.startswith("test_robustness.py:")  # type: ignore[attr-defined]
    assert "Lyon" not in caplog.text and "Lyon" not in str(record.__dict__)
