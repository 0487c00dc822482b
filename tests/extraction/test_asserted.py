"""Only what the speaker asserts is noted: what is taken back, denied, joked or turned out otherwise."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from memory.text.facts import Predicate
from tests.extraction._support import (
    notes,
    run,
)
from tests.helpers import WEDNESDAY_NOON


@pytest.mark.parametrize(
    ("text", "learned"),
    [
        # taken back as it ends, or by the next sentence
        ("I'm moving to Berlin jk", []),
        ("I love Mondays /s", []),
        ("I'm moving to Berlin. jk I'm staying", []),
        ("j'habite à Paris, je rigole", []),
        # what others believe or say of the speaker
        ("my mom thinks I'm lazy", []),
        ("people say I'm a genius", []),
        ("everyone assumes I'm from Canada", []),
        # after "but" the speaker speaks for themself again
        ("people think I'm a doctor but I'm a nurse", ["Mickael is a nurse"]),
        # what a doctor said is told as fact
        ("the doctor said I'm allergic to penicillin", ["Mickael is allergic to penicillin"]),
    ],
)
def test_only_what_the_speaker_asserts_is_learned(text: str, learned: list[str]) -> None:
    assert [item.content for item in run(text)] == learned


@pytest.mark.parametrize("text", ["I'm not married", "I went out of my way"])
def test_a_bare_not_or_an_idiom_is_no_news(text: str) -> None:
    assert run(text) == []


# From a twenty-ninth batch of 25 fresh lines that take back, deny or report (1 wrong date, 1 date
# of the wrong year, 1 allergy filed that was denied, 7 lines missed).
@pytest.mark.parametrize(
    ("text", "content"),
    [
        # the day after another, and the day a thing moved to
        (
            "my interview with Stripe got moved from Tuesday to the following Monday",
            "Mickael's interview with Stripe got moved from Tuesday 1 December 2026 to the following Monday 7"
            " December 2026",
        ),
        (
            "I fly out on the 3rd and back the following Sunday",
            "Mickael flies out on Thursday 3 December 2026 and back the following Sunday 6 December 2026",
        ),
        # what someone said of the speaker is in its own tense
        ("my manager said I'm up for promotion in January", "Mickael is up for promotion in January 2027"),
        # a plan called off, a couple apart, what one did not get
        ("I'm not moving to Berlin after all", "Mickael is not moving to Berlin after all"),
        (
            "we're not doing the secret santa this year",
            "Mickael and others are not doing the secret santa in 2026",
        ),
        ("Ana and I aren't together anymore", "Mickael and Ana aren't together anymore"),
        ("I'm not with Tom anymore", "Mickael and Tom aren't together anymore"),
        ("I didn't get the promotion, maybe next cycle", "Mickael didn't get the promotion"),
        ("we didn't get the flat", "Mickael and others didn't get the flat"),
        # years at one company
        ("I've worked here for 10 years", "Mickael has worked here for 10 years (since about 2016)"),
        ("I've been with Stripe since 2021", "Mickael has been with Stripe since 2021"),
        (
            "can't believe I've been at this company for 10 years today",
            "Mickael has been at this company for 10 years (since Friday 25 November 2016)",
        ),
    ],
)
def test_what_turned_out_otherwise(text: str, content: str) -> None:
    found = notes(text)
    assert content in found, found


def test_a_day_moved_happens_on_the_day_it_moved_to() -> None:
    now = WEDNESDAY_NOON
    (moved,) = run("my interview got moved from Tuesday to Thursday", now=now)
    assert moved.event_at == datetime(2026, 12, 3, tzinfo=UTC).timestamp(), moved
    # ... however the move is told
    (moving,) = run("we're moving the interview from Tuesday to Thursday", now=now)
    assert moving.event_at == datetime(2026, 12, 3, tzinfo=UTC).timestamp(), moving


def test_an_allergy_denied_is_no_allergy() -> None:
    now = WEDNESDAY_NOON
    (denied,) = run("turns out I'm not allergic to cats, it was the dust", now=now)
    assert denied.predicate is not Predicate.ALLERGY and denied.fact_about("Mickael") is None, denied
    (allergy,) = run("I'm allergic to cats", now=now)
    assert allergy.predicate is Predicate.ALLERGY and allergy.object == "cats", allergy


@pytest.mark.parametrize(
    "text",
    [
        "I'm not going to lie, it was rough",
        "I'm not doing great this year",
        "I'm not working at Google today",  # one day's news
        "I'm not going to the gym this week",
    ],
)
def test_a_denial_that_calls_nothing_off_is_no_note(text: str) -> None:
    assert run(text, now=WEDNESDAY_NOON) == []
