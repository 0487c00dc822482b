"""Episodes from one exchange: confirmed decisions, dates asked and answered, reminders, restatements."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from memory.models import MemoryType
from memory.text import episodes, extract
from memory.text.episodes import Episode, detect_episodes
from tests.helpers import ANY_CHAR
from tests.helpers import SUNDAY_NOON as NOW  # a Sunday
from tests.helpers import utc_timestamp as at

DEC = MemoryType.DECISION
TODO = MemoryType.TODO
EVENT = MemoryType.EVENT
PREF = MemoryType.PREFERENCE


def run(user: str, reply: str, now: datetime = NOW) -> list[tuple[MemoryType, str, float | None]]:
    return [(e.memory_type, e.content, e.event_at) for e in detect_episodes(user, reply, "Mickael", now)]


DECIDED = NOW.timestamp()


@pytest.mark.parametrize(
    ("user", "reply", "expected"),
    [
        (
            "let's go with Postgres for the billing service",
            "Sounds good — Postgres it is.",
            (
                DEC,
                "Mickael and the team decided to go with Postgres for the billing service (22 Nov 2026)",
                DECIDED,
            ),
        ),
        (
            "should we go with Redis for the cache?",
            "Yes, Redis is a solid choice.",
            (DEC, "Mickael and the team decided to go with Redis for the cache (22 Nov 2026)", DECIDED),
        ),
        (
            "we decided to use Postgres",
            "Nice, good luck with the migration!",
            (DEC, "Mickael and the team decided to use Postgres (22 Nov 2026)", DECIDED),
        ),
        (
            "when is the report due?",
            "The report is due Friday.",
            (TODO, "Deadline for the report: Friday 27 November 2026", at(2026, 11, 27)),
        ),
        (
            "when's my dentist appointment?",
            "It is on Tuesday at 3pm.",
            (
                EVENT,
                "Mickael's dentist appointment is on Tuesday 24 November 2026 at 3pm",
                at(2026, 11, 24, 15),
            ),
        ),
        (
            "remind me to call the bank",
            "Sure, I'll remind you on Monday.",
            (TODO, "Reminder for Mickael on Monday 23 November 2026: call the bank", at(2026, 11, 23)),
        ),
        (
            "I need to renew my passport",
            "I'll remind you tomorrow at 9am to renew your passport.",
            (
                TODO,
                "Reminder for Mickael on Monday 23 November 2026 at 09:00: renew their passport",
                at(2026, 11, 23, 9),
            ),
        ),
        (
            "tea for me, no coffee please",
            "Noted, you prefer tea.",
            (PREF, "Mickael prefers tea", None),
        ),
        (
            "I need to finish the slides",
            "Your slides are due Thursday, so you have four days.",
            (TODO, "Deadline for Mickael's slides: Thursday 26 November 2026", at(2026, 11, 26)),
        ),
        # The same episodes in French.
        (
            "on part sur Postgres",
            "D'accord, va pour Postgres.",
            (DEC, "Mickael et l'équipe ont décidé de partir sur Postgres (22 nov. 2026)", DECIDED),
        ),
        (
            "et si on prenait Vue pour le front ?",
            "Bonne idée, Vue est très adapté.",
            (DEC, "Mickael et l'équipe ont décidé de prendre Vue pour le front (22 nov. 2026)", DECIDED),
        ),
        (
            "c'est décidé : on migre vers Kubernetes",
            "Très bien.",
            (DEC, "Décision : on migre vers Kubernetes (22 nov. 2026)", DECIDED),
        ),
        (
            "c'est pour quand le rapport ?",
            "Tu dois rendre le rapport avant vendredi.",
            (TODO, "Date limite pour le rapport : vendredi 27 novembre 2026", at(2026, 11, 27)),
        ),
        (
            "c'est quand la réunion ?",
            "La réunion est jeudi à 14h.",
            (EVENT, "La réunion est jeudi 26 novembre 2026 à 14h", at(2026, 11, 26, 14)),
        ),
        (
            "quelle est la date limite pour le dossier ?",
            "C'est le 3 décembre.",
            (TODO, "Date limite pour le dossier : jeudi 3 décembre 2026", at(2026, 12, 3)),
        ),
        (
            "rappelle-moi d'appeler la banque",
            "D'accord, je te le rappellerai lundi.",
            (TODO, "Rappel pour Mickael le lundi 23 novembre 2026 : appeler la banque", at(2026, 11, 23)),
        ),
        (
            "je dois appeler ma mère",
            "Je te rappellerai demain d'appeler ta mère.",
            (TODO, "Rappel pour Mickael le lundi 23 novembre 2026 : appeler sa mère", at(2026, 11, 23)),
        ),
        (
            "plutôt du thé pour moi",
            "C'est noté, tu préfères le thé.",
            (PREF, "Mickael préfère le thé", None),
        ),
        (
            "je bosse sur le rapport",
            "N'oublie pas : le rapport est à rendre pour vendredi.",
            (TODO, "Date limite pour le rapport : vendredi 27 novembre 2026", at(2026, 11, 27)),
        ),
    ],
)
def test_english_and_french_episodes(
    user: str, reply: str, expected: tuple[MemoryType, str, float | None]
) -> None:
    assert run(user, reply) == [expected]


def test_one_exchange_can_hold_several_episodes() -> None:
    found = run("let's use Go for the API", "Great choice! I'll remind you on Friday to set up the repo.")
    assert found == [
        (DEC, "Mickael and the team decided to use Go for the API (22 Nov 2026)", DECIDED),
        (TODO, "Reminder for Mickael on Friday 27 November 2026: set up the repo", at(2026, 11, 27)),
    ]


def test_dates_are_resolved_against_now() -> None:
    later = NOW + timedelta(days=10)  # Wednesday 2 December 2026
    assert run("when is the report due?", "The report is due Friday.", now=later) == [
        (TODO, "Deadline for the report: Friday 4 December 2026", at(2026, 12, 4))
    ]
    assert run("on part sur Postgres", "Parfait.", now=later) == [
        (DEC, "Mickael et l'équipe ont décidé de partir sur Postgres (2 déc. 2026)", later.timestamp())
    ]


def test_episode_fields() -> None:
    [episode] = detect_episodes("remind me to call the bank", "I'll remind you on Monday.", "Mickael", NOW)
    assert isinstance(episode, Episode)
    assert episode.subjects[0] == "mickael" and "bank" in episode.subjects
    assert 0.0 < episode.confidence <= 1.0


# --------------------------------------------------------------------------- what is not an episode


def test_what_the_message_alone_says_is_left_to_extract() -> None:
    # extract() already stores the preference; the reply agreeing adds nothing new.
    assert [(i.memory_type, i.content) for i in extract("I prefer tea", "Mickael", NOW)] == [
        (PREF, "Mickael prefers tea")
    ]
    assert run("I prefer tea", "Noted, you prefer tea.") == []
    assert run("I prefer tea", "Great!") == []
    assert run("je préfère le thé", "C'est noté, tu préfères le thé.") == []
    # A deadline the message states is extracted from it; the reply restating it is no new episode.
    assert run("the report is due Friday", "Got it: the report is due Friday.") == []
    assert run("je dois rendre le rapport avant vendredi", "D'accord, bon courage !") == []


@pytest.mark.parametrize(
    ("user", "reply"),
    [
        # small talk
        ("hi, how are you?", "I'm doing great, thanks! How about you?"),
        ("thanks!", "You're welcome!"),
        ("how was your day?", "Great, thanks for asking! Mine was busy."),
        ("nice weather today", "Yes, it is lovely!"),
        ("ok cool", "Glad to help!"),
        ("lol", "Haha!"),
        ("what about now?", "Sure!"),
        ("how about tomorrow?", "Sure, tomorrow works."),
        ("salut ça va ?", "Ça va bien, merci ! Et toi ?"),
        ("bonjour", "Bonjour ! Comment puis-je t'aider ?"),
        ("merci beaucoup", "Avec plaisir !"),
        ("bonne nuit", "Bonne nuit, à demain !"),
        # no agreement, no date or no topic of the user's
        ("let's go with Postgres", "Hmm, I'd advise against it: MySQL fits better here."),
        ("let's use Go", "Sure, but have you considered Rust?"),
        ("should we use Kafka?", "Do you really need it?"),
        ("on part sur Postgres ?", "Non, je te déconseille ce choix."),
        ("when is the report due?", "I don't know, Friday maybe?"),
        ("remind me to call the bank", "Do you want me to remind you on Monday?"),
        ("remind me to call the bank", "If you like, I'll remind you on Monday."),
        ("remind me on Monday", "I'll remind you on Monday."),  # nothing to remind of
        ("I'm working on the slides", "I'll remind you to finish them."),  # never dated
        ("nice", "Noted: you prefer jazz."),  # the reply's own topic, not the user's
    ],
)
def test_no_episode_from_small_talk_or_without_agreement_date_or_topic(user: str, reply: str) -> None:
    assert run(user, reply) == []


# --------------------------------------------------------------------------- robustness

_TRIGGERS = st.sampled_from(
    [
        "let's go with", "should we use", "what about", "on part sur", "et si on prenait", "c'est décidé :",
        "we decided to", "when is", "due", "c'est pour quand", "quand", "Friday", "vendredi", "tomorrow",
        "demain", "at 3pm", "à 14h", "I'll remind you", "je te rappellerai", "remind me", "rappelle-moi",
        "Noted,", "you prefer", "tu préfères", "your", "ton", "Sounds good", "Yes", "Oui", "but", "mais",
        "?", ".", "!", ",", "\n", '"', "'", "if", "si", "\x00", "\x01", "\ud800", "🍕", "Postgres",
    ]
)  # fmt: skip
_TRIGGER_SOUP = st.lists(st.one_of(_TRIGGERS, st.text(alphabet=ANY_CHAR, max_size=6)), max_size=30)


def _check(found: list[Episode]) -> None:
    assert isinstance(found, list) and len(found) <= 10
    for e in found:
        assert e.content and isinstance(e.content, str)
        assert e.memory_type in (DEC, TODO, EVENT, PREF)
        assert e.event_at is None or isinstance(e.event_at, float)
        assert 0.0 <= e.confidence <= 1.0


@settings(max_examples=200, deadline=None)
@given(
    user=st.text(alphabet=ANY_CHAR, max_size=200),
    reply=st.text(alphabet=ANY_CHAR, max_size=200),
    speaker=st.text(alphabet=ANY_CHAR, max_size=20),
)
@example(user="\ud800", reply="\x00", speaker="")
def test_never_raises_on_arbitrary_text(user: str, reply: str, speaker: str) -> None:
    # The inner function has no safety net, so an exception here is a real bug.
    _check(episodes._detect(user, reply, speaker, NOW))
    _check(detect_episodes(user, reply, speaker, NOW))


@settings(max_examples=200, deadline=None)
@given(
    user=_TRIGGER_SOUP,
    reply=_TRIGGER_SOUP,
    days=st.integers(min_value=-4000, max_value=4000),
)
def test_never_raises_on_trigger_soup(user: list[str], reply: list[str], days: int) -> None:
    now = NOW + timedelta(days=days, hours=days % 24)
    _check(episodes._detect(" ".join(user), " ".join(reply), "Mickael", now))


def test_wrong_types_and_huge_input_give_nothing_or_bounded_results() -> None:
    assert detect_episodes(None, "yes", "Mickael", NOW) == []  # type: ignore[arg-type]
    assert detect_episodes("let's use Go", 3, "Mickael", NOW) == []  # type: ignore[arg-type]
    naive = datetime(2026, 11, 22, 12)
    assert run("on part sur Postgres", "Parfait.", now=naive) == run("on part sur Postgres", "Parfait.")
    huge = "let's use Go. " * 5_000
    assert len(detect_episodes(huge, "Sounds good! " * 5_000, "Mickael", NOW)) <= 10
