"""Dates in notes: each day resolved from when it was said, the tense deciding which one is meant."""

from __future__ import annotations

import re

import pytest

from memory.models import MemoryType
from memory.text.tense import told_in_past
from tests.extraction._support import (
    EVENT,
    TODO,
    contents,
    run,
)
from tests.helpers import WEDNESDAY_NOON
from tests.helpers import utc_timestamp as at


@pytest.mark.parametrize(
    ("text", "memory_type", "content", "event_at"),
    [
        ("the deadline is Friday", TODO, "Deadline: Friday 27 November 2026", at(2026, 11, 27)),
        (
            "the deadline for the report is Friday",
            TODO,
            "Deadline for the report: Friday 27 November 2026",
            at(2026, 11, 27),
        ),
        (
            "The deadline is next Friday for the grant application",
            TODO,
            "Deadline for the grant application: Friday 27 November 2026",
            at(2026, 11, 27),
        ),
        (
            "Our deadline for the MVP is December 15",
            TODO,
            "Deadline for the MVP: Tuesday 15 December 2026",
            at(2026, 12, 15),
        ),
        (
            "the report is due 2026-03-01",
            TODO,
            "Deadline for the report: Sunday 1 March 2026",
            at(2026, 3, 1),
        ),
        ("due on 12 March", TODO, "Deadline: Friday 12 March 2027", at(2027, 3, 12)),
        # a birthday comes back every year: its day is written without a weekday or a year
        ("my birthday is on 3 June", EVENT, "Mickael's birthday is on 3 June", at(2027, 6, 3)),
        (
            "mon anniversaire est le 1er mai",
            EVENT,
            "L'anniversaire de Mickael est le 1er mai",
            at(2027, 5, 1),
        ),
        (
            "The essay is due tomorrow",
            TODO,
            "Deadline for the essay: Monday 23 November 2026",
            at(2026, 11, 23),
        ),
        (
            "My essay is due on Friday",
            TODO,
            "Deadline for Mickael's essay: Friday 27 November 2026",
            at(2026, 11, 27),
        ),
        (
            "The report is due 31/12/2026",
            TODO,
            "Deadline for the report: Thursday 31 December 2026",
            at(2026, 12, 31),
        ),
        (
            "the deadline is Friday at 5pm",
            TODO,
            "Deadline: Friday 27 November 2026 at 17:00",
            at(2026, 11, 27, 17),
        ),
        (
            "I need to send the invoice by next Monday",
            TODO,
            "Mickael needs to send the invoice by Monday 23 November 2026",
            at(2026, 11, 23),
        ),
        (
            "We need to ship v2 by the end of the month",
            TODO,
            "Mickael and others need to ship v2 by Monday 30 November 2026",
            at(2026, 11, 30),
        ),
        (
            "I have to finish the slides in 3 days",
            TODO,
            "Mickael has to finish the slides on Wednesday 25 November 2026",
            at(2026, 11, 25),
        ),
        (
            "remind me to call mom tomorrow",
            TODO,
            "Reminder for Mickael: call mom on Monday 23 November 2026",
            at(2026, 11, 23),
        ),
        (
            "don't forget to call the bank on Monday",
            TODO,
            "Reminder for Mickael: call the bank on Monday 23 November 2026",
            at(2026, 11, 23),
        ),
        # what the speaker says they will do on a day is a dated to-do too
        (
            "I'll send the report tomorrow",
            TODO,
            "Mickael will send the report on Monday 23 November 2026",
            at(2026, 11, 23),
        ),
        (
            "we'll ship the release on Friday",
            TODO,
            "Mickael and others will ship the release on Friday 27 November 2026",
            at(2026, 11, 27),
        ),
        (
            "I'll call the plumber on Tuesday",
            TODO,
            "Mickael will call the plumber on Tuesday 24 November 2026",
            at(2026, 11, 24),
        ),
        (
            "je vais finir le rapport demain",
            TODO,
            "Mickael va finir le rapport le lundi 23 novembre 2026",
            at(2026, 11, 23),
        ),
        # "rappelle-moi" is a reminder, said as the other reminders are
        (
            "rappelle-moi le rendez-vous chez le dentiste demain",
            TODO,
            "Rappel pour Mickael : le rendez-vous chez le dentiste le lundi 23 novembre 2026",
            at(2026, 11, 23),
        ),
        (
            "Rappelez-moi l'appel avec Paul vendredi",
            TODO,
            "Rappel pour Mickael : l'appel avec Paul vendredi 27 novembre 2026",
            at(2026, 11, 27),
        ),
        # a "rendez-vous" is a meeting, not something said to the listener ("vous")
        (
            "je vais annuler le rendez-vous demain",
            TODO,
            "Mickael va annuler le rendez-vous le lundi 23 novembre 2026",
            at(2026, 11, 23),
        ),
        ("pour vendredi", TODO, "Pour vendredi 27 novembre 2026", at(2026, 11, 27)),
        (
            "je dois finir la présentation pour vendredi",
            TODO,
            "Mickael doit finir la présentation pour vendredi 27 novembre 2026",
            at(2026, 11, 27),
        ),
        (
            "avant le 10 janvier il faut rendre le dossier",
            TODO,
            "Avant le dimanche 10 janvier 2027 il faut rendre le dossier",
            at(2027, 1, 10),
        ),
        ("la date limite est le 3 mars", TODO, "Date limite : mercredi 3 mars 2027", at(2027, 3, 3)),
        (
            "la date limite pour le mémoire est le 1er février",
            TODO,
            "Date limite pour le mémoire : lundi 1er février 2027",
            at(2027, 2, 1),
        ),
        (
            "le rapport est à rendre pour vendredi prochain",
            TODO,
            "Date limite pour le rapport : vendredi 27 novembre 2026",
            at(2026, 11, 27),
        ),
        (
            "rappelle-moi de payer le loyer le 1er décembre",
            TODO,
            "Rappel pour Mickael : payer le loyer le mardi 1er décembre 2026",
            at(2026, 12, 1),
        ),
        ("my exam is on 3 June", EVENT, "Mickael's exam is on Thursday 3 June 2027", at(2027, 6, 3)),
        (
            "I have a meeting tomorrow at 3pm",
            EVENT,
            "Mickael has a meeting on Monday 23 November 2026 at 3pm",
            at(2026, 11, 23, 15),
        ),
        (
            "I'm flying to NYC on Thursday",
            EVENT,
            "Mickael is flying to NYC on Thursday 26 November 2026",
            at(2026, 11, 26),
        ),
        (
            "Meeting on 2026-12-01 at 14:30",
            EVENT,
            "Meeting on Tuesday 1 December 2026 at 14:30",
            at(2026, 12, 1, 14, 30),
        ),
        ("J'ai un examen demain", EVENT, "Mickael a un examen le lundi 23 novembre 2026", at(2026, 11, 23)),
        ("réunion demain à 15h", EVENT, "Réunion le lundi 23 novembre 2026 à 15h", at(2026, 11, 23, 15)),
        (
            "Rendez-vous le 5 décembre à 10h30",
            EVENT,
            "Rendez-vous le samedi 5 décembre 2026 à 10h30",
            at(2026, 12, 5, 10, 30),
        ),
        (
            "mon entretien est après-demain",
            EVENT,
            "L'entretien de Mickael est mardi 24 novembre 2026",
            at(2026, 11, 24),
        ),
        (
            "the demo is next week",
            EVENT,
            "The demo is in the week of Monday 23 November 2026",
            at(2026, 11, 23),
        ),
        # past tense: the last matching day, not the next one
        (
            "I broke my arm yesterday",
            EVENT,
            "Mickael broke their arm on Saturday 21 November 2026",
            at(2026, 11, 21),
        ),
        (
            "I got married last Saturday",
            EVENT,
            "Mickael got married on Saturday 21 November 2026",
            at(2026, 11, 21),
        ),
        (
            "I broke my arm on Friday",
            EVENT,
            "Mickael broke their arm on Friday 20 November 2026",
            at(2026, 11, 20),
        ),
        (
            "I graduated on 3 June",
            EVENT,
            "Mickael graduated on Wednesday 3 June 2026",
            at(2026, 6, 3),
        ),
    ],
)
def test_dates_are_resolved(text: str, memory_type: MemoryType, content: str, event_at: float) -> None:
    matches = [item for item in run(text) if item.content == content]
    assert matches, contents(text)
    assert matches[0].memory_type is memory_type
    assert matches[0].event_at == event_at


# Told in the past (an irregular or prefixed past form too), "Friday" is the one before, not the next.
@pytest.mark.parametrize(
    "text", ["I'm gonna start at Stripe on Monday", "gonna start my new job at Stripe on Monday"]
)
def test_a_job_begun_on_a_day_is_no_to_do_gone_once_the_day_is(text: str) -> None:
    found = run(text)
    assert found and all(item.memory_type is not TODO and item.expires_at is None for item in found), found
    assert any("Stripe on Monday 23 November 2026" in item.content for item in found), found


@pytest.mark.parametrize(
    ("text", "content"),
    [
        (
            "I'm going to Paris for a conference next week",
            "Mickael is going to Paris for a conference in the week of Monday 23 November 2026",
        ),
        ("I'm going to London on Friday", "Mickael is going to London on Friday 27 November 2026"),
    ],
)
def test_a_trip_to_a_place_named_is_an_event_not_a_to_do(text: str, content: str) -> None:
    # "going to Paris" is where one goes: no "going to <verb>" task gone once the week is
    assert [(i.memory_type, i.content, i.expires_at) for i in run(text)] == [(EVENT, content, None)]


def test_work_begun_on_a_day_is_still_a_to_do() -> None:
    assert [(i.memory_type, i.content) for i in run("I will start the report on Monday")] == [
        (TODO, "Mickael will start the report on Monday 23 November 2026")
    ]


@pytest.mark.parametrize(
    ("text", "content"),
    [
        ("I flew to Ulm on Friday", "Mickael flew to Ulm on Friday 20 November 2026"),
        ("I wrote a poem on Friday", "Mickael wrote a poem on Friday 20 November 2026"),
        ("I fly to Ulm on Friday", "Mickael flies to Ulm on Friday 27 November 2026"),
        # chat's short days, after "last" or "next"
        (
            "I went to a poetry reading last Fri",
            "Mickael went to a poetry reading on Friday 20 November 2026",
        ),
        ("I joined a choir last Tues.", "Mickael joined a choir on Tuesday 17 November 2026"),
        # a clause that opens on its date reads as a sentence, and "retook" stays a past form
        ("Last week I retook the test", "In the week of Monday 9 November 2026 Mickael retook the test"),
        # a plan told in the past is of a day to come; the day of agreeing is the one before
        ("We agreed to meet on Friday", "Mickael and the team agreed to meet on Friday 27 November 2026"),
        ("I promised to call her on Friday", "Mickael promised to call her on Friday 27 November 2026"),
        (
            "we pushed the demo back to Friday",
            "Mickael and others pushed the demo back to Friday 27 November 2026",
        ),
        (
            "On a décidé de partir vendredi",
            "Mickael et l'équipe ont décidé de partir vendredi 27 novembre 2026",
        ),
        ("We agreed on Friday to ship", "Mickael and the team agreed on Friday 20 November 2026 to ship"),
        # what was forgotten or found out has its own tense
        (
            "I forgot that my passport expires in February",
            "Mickael forgot that their passport expires in February 2027",
        ),
        ("I found out my sister moved to Lyon in March", "Mickael's sister moved to Lyon in March 2026"),
    ],
)
def test_the_tense_decides_which_day_is_meant(text: str, content: str) -> None:
    assert content in [item.content for item in run(text)]


# Who the clause is about need not be the speaker: the tense is theirs too; a future said in it wins.
@pytest.mark.parametrize(
    ("said", "past"),
    [
        ("My kids went to the park on Friday", True),
        ("She left on Friday", True),
        ("My sister got married in June", True),
        ("My friend Ted is coming on Friday", False),  # a name is no verb
        ("She said it will rain on Friday", False),
        ("I said I'll come on Friday", False),
        ("Ma sœur s'est mariée en juin", True),
        ("Nous avons eu des jumeaux en mars", True),
        ("On a gagné le match samedi", True),
        ("On a une réunion vendredi", False),
        ("Nous partons vendredi", False),
        ("Mon père a pris sa retraite en mars", True),
        ("Le concert est vendredi", False),
        # a subject and verb after a name read as a pair ("January to") are read all the same
        ("from January to March we lived in Lyon", True),
    ],
)
def test_the_tense_of_a_clause_about_someone_else(said: str, past: bool) -> None:
    assert told_in_past(said) is past


def test_two_days_said_in_one_sentence_are_two_clauses() -> None:
    # A stand-up's "yesterday I …, today I'm …": each day with its own clause (the second day was
    # written inside the first clause's note, before its subject).
    said = "standup: yesterday I fixed the flaky auth tests, today I'm on the CSV export"
    assert contents(said) == [(EVENT, "Mickael fixed the flaky auth tests on Saturday 21 November 2026")]


@pytest.mark.parametrize(
    ("said", "starts"),
    [
        # "Morning all, happy new year" was an event, then none: the dates went with what followed
        # the bracket. The event is read from where its dated part starts.
        (
            "morning all, happy new year (again) :wave: plan: 2.4 is locked for Friday 14 Feb, freeze 7 Feb",
            "2.4 is locked for",
        ),
        ("happy new year! 2.4 is locked for Friday 14 Feb, so code freeze is 7 Feb", "2.4 is locked for"),
        ("big news (finally): my surgery is on 3 March", "Mickael's surgery is on"),
    ],
)
def test_a_dated_event_keeps_its_date(said: str, starts: str) -> None:
    events = [c for t, c in contents(said) if t is MemoryType.EVENT]
    assert events and all(re.search(r"\d{4}", c) for c in events), events
    assert any(c.startswith(starts) for c in events), events


def test_a_score_is_no_span_of_days() -> None:
    assert run("the score was 3-5 in May", now=WEDNESDAY_NOON) == []


def test_the_return_after_an_absence_is_after_it() -> None:
    # Said on 25 November: "the 3rd" alone would be 3 December, before the absence ends.
    said = "I'm out from the 22nd to the 2nd, back on the 3rd"
    found = [item.content for item in run(said, now=WEDNESDAY_NOON)]
    assert found == [
        "Mickael is out from Tuesday 22 December 2026 to Saturday 2 January 2027, "
        "back on Sunday 3 January 2027"
    ]
