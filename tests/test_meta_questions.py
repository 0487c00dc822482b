"""Meta questions about past conversations, English and French, and the time frames they name."""

from __future__ import annotations

from datetime import UTC, datetime
from zoneinfo import ZoneInfo

import pytest

from memory.prehook.meta_questions import DEFAULT_DAYS, asks_about_self, detect_meta_question, time_frame

# Monday 21 September 2026, 14:13:20 UTC (the FakeClock's start).
NOW = 1_790_000_000.0
DAY = 86400.0


def ts(*args: int, tz: object = UTC) -> float:
    return datetime(*args, tzinfo=tz).timestamp()  # type: ignore[arg-type, misc]


@pytest.mark.parametrize(
    "question",
    [
        "what did we talk about?",
        "What did we discuss last week?",
        "de quoi on a parlé cette semaine ?",
        "summarize our previous conversations",
        "Résume nos conversations",
        "what have I told you?",
        "qu'est-ce que je t'ai dit ?",
        "remind me what we said yesterday",
        "what did we talk about last time",
        "What were we talking about?",
        "Can you give me a recap of our recent chats?",
        "qu’est-ce qu’on s’est dit hier ?",
        "De quoi avons-nous discuté la semaine dernière ?",
        "fais-moi un résumé de nos dernières conversations",
        "rappelle-moi de quoi on a parlé",
        "quels sujets avons-nous abordés ?",
        "ok thanks. btw what topics did we cover this month?",
        "resume nos echanges",  # typed without accents
        # Phrasings people use that were missed.
        "what have we been talking about?",
        "do you remember what we talked about last week?",
        "what have we been discussing lately?",
        "catch me up on what we discussed",
        "any recap of what we said?",
        "what was said here today?",
        "what do you know about our previous chats",
        "tu te souviens de ce dont on a parlé ?",
        "te souviens-tu de notre conversation ?",
        "de quoi on parlait ?",
        "qu'est-ce qu'on s'est raconté cette semaine ?",
        "rappelle-moi nos échanges",
    ],
)
def test_meta_questions_are_detected(question: str) -> None:
    assert detect_meta_question(question, NOW) is not None


@pytest.mark.parametrize(
    "text",
    [
        "what did we say about the database?",  # a topic: the search answers it
        "what have I told you about my sister?",
        "qu'est-ce qu'on a dit sur le budget ?",
        "what did we talk about regarding the kubernetes migration plan",
        "what did we decide for lunch?",
        "let's talk about the weather",
        "I summarize reports for a living",
        "what is the capital of France?",
        "do you remember what we talked about regarding the budget?",
        "tu te souviens de Paul ?",
        "tu te souviens de moi ?",  # about the asker: their memories answer it, not a timeline
        "",
    ],
)
def test_ordinary_messages_are_not_meta_questions(text: str) -> None:
    assert detect_meta_question(text, NOW) is None


@pytest.mark.parametrize(
    ("question", "since", "until", "label"),
    [
        ("what did we talk about today?", ts(2026, 9, 21), NOW, "today"),
        ("what did we talk about yesterday?", ts(2026, 9, 20), ts(2026, 9, 21), "yesterday"),
        ("qu'est-ce qu'on s'est dit hier ?", ts(2026, 9, 20), ts(2026, 9, 21), "yesterday"),
        ("what did we discuss this week?", ts(2026, 9, 21), NOW, "this week"),
        ("de quoi on a parlé cette semaine ?", ts(2026, 9, 21), NOW, "this week"),
        ("what did we discuss last week?", ts(2026, 9, 14), ts(2026, 9, 21), "last week"),
        ("de quoi avons-nous parlé la semaine dernière ?", ts(2026, 9, 14), ts(2026, 9, 21), "last week"),
        ("summarize our conversations this month", ts(2026, 9, 1), NOW, "this month"),
        ("résume nos conversations de ce mois-ci", ts(2026, 9, 1), NOW, "this month"),
        ("what did we talk about in the last 3 days?", NOW - 3 * DAY, NOW, "the last 3 days"),
        ("what did we talk about over the past two weeks?", NOW - 14 * DAY, NOW, "the last 2 weeks"),
        ("de quoi on a parlé ces 5 derniers jours ?", NOW - 5 * DAY, NOW, "the last 5 days"),
        ("what did we talk about last month?", ts(2026, 8, 1), ts(2026, 9, 1), "last month"),
        ("what have I told you?", NOW - DEFAULT_DAYS * DAY, NOW, "the last 30 days"),
    ],
)
def test_time_frames(question: str, since: float, until: float, label: str) -> None:
    meta = detect_meta_question(question, NOW)
    assert meta is not None
    assert (meta.since, meta.until, meta.label) == (since, until, label)


def test_last_time_uses_the_default_window() -> None:
    meta = detect_meta_question("what did we talk about last time?", NOW)
    assert meta is not None and meta.since == NOW - DEFAULT_DAYS * DAY and "last time" in meta.label


def test_calendar_periods_follow_the_given_time_zone() -> None:
    paris = ZoneInfo("Europe/Paris")
    since, until, label = time_frame("yesterday", NOW, paris)
    assert (since, until, label) == (ts(2026, 9, 20, tz=paris), ts(2026, 9, 21, tz=paris), "yesterday")


def test_the_period_comes_from_the_question_sentence() -> None:
    # "yesterday" belongs to another sentence of the batch, not to the question.
    meta = detect_meta_question("I was ill yesterday. What did we talk about?", NOW)
    assert meta is not None and meta.label == "the last 30 days"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("What do you remember about me?", True),
        ("what do you know about me", True),
        ("tell me what you know about me", True),
        ("do you remember me?", True),
        ("que sais-tu de moi ?", True),
        ("Qu'est-ce que tu sais sur moi", True),
        ("tu te souviens de moi ?", True),
        ("what do you know about Paul?", False),
        ("I remember about me", False),
        ("what did we talk about?", False),
    ],
)
def test_questions_about_the_asker_are_detected(text: str, expected: bool) -> None:
    assert asks_about_self(text) is expected
