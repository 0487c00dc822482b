"""Work and teams: who is given what, team rules, how to reach people, when and where the speaker works."""

from __future__ import annotations

import pytest

from memory.models import MemoryType
from tests.extraction._support import (
    DEC,
    EVENT,
    PREF,
    contents,
    run,
)
from tests.helpers import WEDNESDAY_NOON


def test_working_from_home_is_how_one_works_and_one_day_of_it_an_event() -> None:
    def facts(text: str) -> list[tuple[str, str]]:
        return [(item.predicate.value, item.content) for item in run(text, now=WEDNESDAY_NOON)]

    # no employer: the workplace stays whoever the speaker works for
    assert facts("I work from home on Fridays") == [("about", "Mickael works from home on Fridays")]
    assert facts("I work remotely on Mondays and Fridays") == [
        ("about", "Mickael works remotely on Mondays and Fridays")
    ]
    assert facts("I work from home tomorrow") == [
        ("event", "Mickael works from home on Thursday 26 November 2026")
    ]
    assert facts("I work remotely this week") == [
        ("event", "Mickael works remotely in the week of Monday 23 November 2026")
    ]


def test_working_from_home_one_week_is_no_way_of_working() -> None:
    found = [content for _, content in contents("je suis en télétravail cette semaine")]
    assert "Mickael est en télétravail" not in found, found
    weekly = [content for _, content in contents("je suis en télétravail le vendredi")]
    assert "Mickael est en télétravail le vendredi" in weekly, weekly


def test_who_does_what_is_a_decision_of_the_one_named() -> None:
    # Said of others, with no word of the speaker's: each one named gets the work given to them.
    said = "agreed, Maria owns the migration and Ken does the rollback plan"
    assert contents(said) == [
        (MemoryType.DECISION, "Maria owns the migration"),
        (MemoryType.DECISION, "Ken does the rollback plan"),
    ]
    found = run("sounds good, Priya will handle our onboarding docs")
    assert [(item.content, item.subject) for item in found] == [
        ("Priya will handle the team's onboarding docs", "Priya")
    ]


@pytest.mark.parametrize(
    "text",
    [
        "Ken does the dishes",  # a habit: nothing settled
        "Apple owns the patent",  # a company
        "If Maria owns the migration we're fine",  # no one named "If Maria"
        "Mom is handling the party",  # the speaker's mom: her news, not the team's work
    ],
)
def test_no_one_is_given_work_where_none_was_given(text: str) -> None:
    assert not [c for t, c in contents(text) if t is MemoryType.DECISION], contents(text)


@pytest.mark.parametrize(
    "text",
    [
        "starting tomorrow, can't wait",
        "starting Monday, I'm on nights",
        "we're not running today",
        # how the team works, no change said; a question
        "we don't use Jira",
        "why don't we do standups anymore?",
    ],
)
def test_a_day_said_first_or_a_we_are_not_is_no_rule_of_the_team(text: str) -> None:
    assert [content for kind, content in contents(text) if kind is DEC] == []


@pytest.mark.parametrize(
    ("text", "memory_type", "content"),
    [
        # what the team stops, drops or will not do
        ("let's not use Redis", DEC, "Mickael and the team decided not to use Redis"),
        ("we won't use Mongo", DEC, "Mickael and the team decided not to use Mongo"),
        (
            "we're not going to support IE11 anymore",
            DEC,
            "Mickael and the team decided to no longer support IE11",
        ),
        ("we no longer ship on Fridays", DEC, "Mickael and the team decided to no longer ship on Fridays"),
        ("we dropped the Kafka idea", DEC, "Mickael and the team dropped the Kafka idea"),
        # ... until a month to come ("won't" is no past "won": the March after this one)
        ("we won't be hiring until March", DEC, "Mickael and the team decided not to hire until March 2027"),
        ("we're not hiring until March", DEC, "Mickael and the team decided not to hire until March 2027"),
        ("we won't hire until March", DEC, "Mickael and the team decided not to hire until March 2027"),
        (
            "we are not doing standups this week",
            DEC,
            "Mickael and the team decided not to do standups in the week of Monday 23 November 2026",
        ),
        # ... a practice stopped, said of what the team does
        ("we're no longer doing standups", DEC, "Mickael and the team decided to no longer do standups"),
        ("we no longer do standups", DEC, "Mickael and the team decided to no longer do standups"),
        ("we don't do standups anymore", DEC, "Mickael and the team decided to no longer do standups"),
        (
            "we do not deploy on Fridays any more",
            DEC,
            "Mickael and the team decided to no longer deploy on Fridays",
        ),
        # a rule for what comes, and a decision said before who took it
        ("going forward, all PRs need a ticket number", DEC, "Going forward, all PRs need a ticket number"),
        ("from now on standup is at 9:30", DEC, "From now on, standup is at 9:30"),
        # ... from a day said
        (
            "starting next week, no more meetings on Wednesdays",
            DEC,
            "Starting in the week of Monday 30 November 2026, no more meetings on Wednesdays",
        ),
        ("as of Monday, standup is at 9:30", DEC, "As of Monday 30 November 2026, standup is at 9:30"),
        (
            "moving forward, we'll do biweekly releases",
            DEC,
            "Moving forward, Mickael and others will do biweekly releases",
        ),
        (
            "no more meetings on Fridays, the team decided",
            DEC,
            "Mickael and the team decided: no more meetings on Fridays",
        ),
        # a labelled decision said in the first person names the speaker's team
        ("final decision: we're using Terraform", DEC, "Decision: Mickael and others are using Terraform"),
        # how the speaker wants to be reached
        ("please don't ping me before 10am", PREF, "Mickael asked not to be pinged before 10am"),
        (
            "don't DM me about prod issues, use #oncall",
            PREF,
            "Mickael asked not to be DMed about prod issues",
        ),
        ("I'd rather not be tagged in #random", PREF, "Mickael would rather not be tagged in #random"),
        # ... and how they do: a way, or a standing condition
        ("text me if it's urgent", PREF, "Mickael wants to be texted if it's urgent"),
        (
            "please use my personal email for anything urgent",
            PREF,
            "Mickael wants to be reached on their personal email for anything urgent",
        ),
        ("ping me on Slack rather than email", PREF, "Mickael wants to be pinged on Slack rather than email"),
        (
            "call me on my cell if prod is down",
            PREF,
            "Mickael wants to be called on their cell if prod is down",
        ),
        (
            "for anything urgent, call my cell",
            PREF,
            "Mickael wants to be called on their cell for anything urgent",
        ),
        ("please page me only for sev1", PREF, "Mickael wants to be paged only for sev1"),
        ("email me at mick@example.com", PREF, "Mickael wants to be emailed at mick@example.com"),
        ("the best way to reach me is Signal", PREF, "The best way to reach Mickael is Signal"),
        # a name refused is no name given: no alias, only the wish
        ("don't call me Mick", PREF, "Mickael asked not to be called Mick"),
        # a switch of tools, dated; a month after "until"
        (
            "we switched from Jenkins to GitHub Actions last month",
            EVENT,
            "Mickael and others switched from Jenkins to GitHub Actions in October 2026",
        ),
        (
            "we agreed to freeze the API until March",
            DEC,
            "Mickael and the team agreed to freeze the API until March 2027",
        ),
    ],
)
def test_what_teams_decide_and_how_people_want_to_be_reached(
    text: str, memory_type: MemoryType, content: str
) -> None:
    found = [(item.memory_type, item.content) for item in run(text, now=WEDNESDAY_NOON)]
    assert (memory_type, content) in found, found


@pytest.mark.parametrize(
    "text",
    [
        "DM me if you need anything",  # an offer
        "text me when you get there",  # once
        "call me at 5",
        "ping me on Monday",
        "call me tomorrow",
        "dm me for the link",
        "message me on here",
        "email me the report",  # what to send, not how
        "feel free to DM me anytime",
        "call me Zed",  # a name
    ],
)
def test_a_one_off_request_to_be_reached_is_no_standing_wish(text: str) -> None:
    found = run(text, now=WEDNESDAY_NOON)
    assert not [item for item in found if " to be " in item.content or "reach" in item.content], found


@pytest.mark.parametrize(
    "text",
    [
        "we dropped the ball on this one",  # an idiom, no idea let go
        "going forward with the plan",  # no rule, a plan going ahead
        "don't call me that",  # what "that" was is not in the message
        "we're not going to make it on time",
        "I'm off to bed tomorrow",
    ],
)
def test_idioms_of_teams_and_reaching_decide_nothing(text: str) -> None:
    assert run(text, now=WEDNESDAY_NOON) == []


@pytest.mark.parametrize(
    ("text", "content"),
    [
        ("I work 4 days a week, never on Fridays", "Mickael works 4 days a week, never on Fridays"),
        ("I don't work Mondays and Fridays", "Mickael doesn't work Mondays and Fridays"),
        ("I never work on weekends", "Mickael never works on weekends"),
        ("I'm off every Friday", "Mickael is off every Friday"),
        ("I'm off on Fridays", "Mickael is off on Fridays"),
        ("my hours are 8 to 4", "Mickael works 8 to 4"),
        ("I usually log off at 5", "Mickael usually logs off at 5"),
        ("I start at 7 every morning", "Mickael starts at 7 every morning"),
        ("je travaille 4 jours par semaine", "Mickael travaille 4 jours par semaine"),
        ("je ne travaille pas le vendredi", "Mickael ne travaille pas le vendredi"),
        ("je suis à 80%", "Mickael est à 80%"),
    ],
)
def test_when_the_speaker_works(text: str, content: str) -> None:
    found = [(item.memory_type, item.content) for item in run(text)]
    assert (MemoryType.IDENTITY, content) in found, found


@pytest.mark.parametrize(
    "text",
    [
        "my hours are crazy",  # no hours said
        "I start at 7",  # maybe tomorrow's
        "I don't work on Friday",  # one Friday
        "I'm off next Friday",
    ],
)
def test_one_day_or_no_hours_is_no_working_time(text: str) -> None:
    assert not [item for item in run(text) if item.memory_type is MemoryType.IDENTITY], run(text)


@pytest.mark.parametrize(
    ("text", "content"),
    [
        ("my 1:1 with Priya is every other Tuesday", "Mickael's 1:1 with Priya is every other Tuesday"),
        ("my standup is at 9:15 every day", "Mickael's standup is at 9:15 every day"),
        ("my therapy is on Tuesdays", "Mickael's therapy is on Tuesdays"),
        ("my shift is from 7 to 3 every day", "Mickael's shift is from 7 to 3 every day"),
        (
            "my sync with the design team is on Thursdays",
            "Mickael's sync with the design team is on Thursdays",
        ),
    ],
)
def test_what_comes_back_on_its_day(text: str, content: str) -> None:
    found = [(item.memory_type, item.content) for item in run(text)]
    assert (MemoryType.FACT, content) in found, found
