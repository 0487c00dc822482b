"""What the speaker says of their health is remembered of them, in English and French; hypotheses,
negations, questions and someone else's health are not."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from memory.models import MemoryType
from memory.text import extract

# Sunday 22 November 2026
NOW = datetime(2026, 11, 22, 12, tzinfo=UTC)
FACT, EVENT, PREF = MemoryType.FACT, MemoryType.EVENT, MemoryType.PREFERENCE


def contents(text: str) -> list[tuple[MemoryType, str]]:
    return [(item.memory_type, item.content) for item in extract(text, "Ana", now=NOW)]


@pytest.mark.parametrize(
    ("text", "memory"),
    [
        ("I have asthma.", (FACT, "Ana has asthma")),
        ("I also have type 2 diabetes", (FACT, "Ana also has type 2 diabetes")),
        ("I suffer from migraines", (FACT, "Ana suffers from migraines")),
        ("I have a bad back", (FACT, "Ana has a bad back")),
        ("I have a peanut allergy", (FACT, "Ana has a peanut allergy")),
        ("I'm diabetic so I can't eat sweets", (FACT, "Ana is diabetic")),
        ("I'm pregnant and so happy!", (FACT, "Ana is pregnant")),
        ("I'm deaf, so text me", (FACT, "Ana is deaf")),
        # what one takes, a blood type, how far along a pregnancy is
        ("I take metformin every morning", (FACT, "Ana takes metformin every morning")),
        ("I'm on antidepressants", (FACT, "Ana is on antidepressants")),
        ("my blood type is O negative", (FACT, "Ana's blood type is O negative")),
        ("I'm 12 weeks pregnant", (FACT, "Ana is 12 weeks pregnant")),
        ("I have an MRI on Monday", (EVENT, "Ana has an MRI on Monday 23 November 2026")),
        # all of what was said: deaf in one ear is not deaf
        ("I'm deaf in one ear", (FACT, "Ana is deaf in one ear")),
        # when it was diagnosed is an event with its date
        ("I was diagnosed with ADHD last year.", (EVENT, "Ana was diagnosed with ADHD in 2025")),
        (
            "I was diagnosed with ADHD last year and it explains a lot",
            (EVENT, "Ana was diagnosed with ADHD in 2025"),
        ),
        ("I'm still recovering from knee surgery.", (FACT, "Ana is still recovering from knee surgery")),
        ("J'ai de l'asthme.", (FACT, "Ana a de l'asthme")),
        ("Je suis diabétique depuis 2010", (FACT, "Ana est diabétique")),
        ("On m'a diagnostiqué un TDAH l'an dernier.", (EVENT, "Ana a reçu le diagnostic : un TDAH en 2025")),
        (
            "J'ai été diagnostiquée avec un TDAH en 2020",
            (EVENT, "Ana a été diagnostiquée avec un TDAH en 2020"),
        ),
        ("Je me remets d'une opération du genou.", (FACT, "Ana se remet d'une opération du genou")),
    ],
)
def test_what_the_speaker_says_of_their_health_is_remembered(
    text: str, memory: tuple[MemoryType, str]
) -> None:
    assert memory in contents(text), contents(text)


def test_deaf_in_one_ear_is_kept_whole() -> None:
    assert contents("I'm deaf in one ear") == [(FACT, "Ana is deaf in one ear")]


@pytest.mark.parametrize(
    "text",
    [
        "I don't have asthma",
        "If I had cancer I would tell you",
        "Do you have asthma?",
        "My son has asthma",  # not the speaker's
        "I have anxiety about Monday",  # a worry, not a condition
        "I'm deaf to your complaints lol",  # not of hearing
        "I take the bus every morning",  # no medicine
        "I'm on it",
        "I have a new job",
        "Je n'ai pas d'asthme",
    ],
)
def test_no_health_memory_where_none_was_said(text: str) -> None:
    # Of the speaker herself: "Ana's son has asthma" is her son's news, kept as such.
    health = ("asthma", "cancer", "anxiety", "deaf", "asthme", "job", "takes", "is on")
    assert not [c for _, c in contents(text) if c.split()[0] == "Ana" and any(w in c for w in health)], (
        contents(text)
    )


def test_a_relatives_condition_is_theirs() -> None:
    assert (FACT, "Ana's son has asthma") in contents("My son has asthma")


def test_a_diet_said_as_an_intolerance_stays_a_preference() -> None:
    # The diet rule's preference is read before the health rules, and the same words are kept once.
    assert contents("I'm lactose intolerant, so no cheese.") == [(PREF, "Ana is lactose intolerant")]
