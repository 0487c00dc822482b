"""Who the speaker is: names, introductions, what sets them apart, and what is no name."""

from __future__ import annotations

import pytest

from memory.models import MemoryType
from memory.text.facts import Predicate
from tests.extraction._support import (
    EVENT,
    ID,
    PREF,
    contents,
    run,
)


@pytest.mark.parametrize("text", ["I'm Mickael", "my name is mickael", "je suis Mickael"])
def test_introducing_yourself_by_your_display_name_teaches_nothing(text: str) -> None:
    assert [c for c in contents(text) if c[0] is ID] == []


@pytest.mark.parametrize(
    ("text", "predicate", "value"),
    [
        # "I'm studying law" is what one studies, not where one lives
        ("I'm studying law", Predicate.STUDIES, "studying law"),
        ("I live in Lyon", Predicate.LOCATION, "lives in Lyon"),
        ("je suis originaire du Sud", Predicate.ORIGIN, "est originaire du Sud"),
        ("je suis originaire de Lyon", Predicate.ORIGIN, "est originaire de Lyon"),
        ("je viens du Québec", Predicate.ORIGIN, "vient du Québec"),
        ("J'ai déménagé à Lyon", Predicate.LOCATION, "habite à Lyon"),
    ],
)
def test_identity_facts_say_what_they_are_about(text: str, predicate: Predicate, value: str) -> None:
    facts = [item.fact for item in run(text) if item.memory_type is ID]
    assert [(f.predicate, f.object) for f in facts] == [(predicate, value)]


@pytest.mark.parametrize(
    "text",
    [
        "I'm OOO Thursday and Friday",
        "I'm AFK for an hour",
        "I'm WFH today",
        "I'm BRB",
        # what one is, capitalised as chat often does, is no name either
        "I'm Catholic",
        "I'm Gen Z lol",
        "I'm ADHD",
        "I'm Vegan",
        "I'm Scorpio",
        "I'm Google certified now",
        "I'm AWS certified",
        "I'm Dead lol",
        "I'm Jealous",
        "I'm Grateful",
        "I'm Nobody",
        "I'm Unsure",
        "I'm Dr",
        "my name is spelled with two n's",
    ],
)
def test_a_status_said_in_capitals_is_no_name(text: str) -> None:
    assert not [item for item in run(text) if item.given_name], contents(text)


def test_a_song_sung_is_no_nickname() -> None:
    assert not [c for c in (item.content for item in run("call me Maybe lol")) if "called" in c]


def test_initials_stay_capitals() -> None:
    assert "Mickael's name is TJ" in [item.content for item in run("I'm TJ")]


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("hi I'm Leo", "Leo"),
        ("I'm Maria from accounting", "Maria"),
        ("I'm Maria, nice to meet you", "Maria"),
        ("I'm Douglas", "Douglas"),
        ("I'm Una", "Una"),
        ("I'm Dr. Smith", "Dr. Smith"),  # a title's full stop ends no sentence
    ],
)
def test_a_name_said_with_im_is_still_a_name(text: str, name: str) -> None:
    assert [item.given_name for item in run(text) if item.given_name] == [name], contents(text)


def test_a_star_sign_is_no_survivor_of_cancer() -> None:
    assert "Mickael is a Leo" in [item.content for item in run("I'm a Leo btw")]
    assert "Mickael is a Cancer" not in [item.content for item in run("I'm a Cancer survivor")]


@pytest.mark.parametrize(
    ("text", "content"),
    [
        # what sets the speaker apart
        ("My first job was at a bookstore.", "Mickael's first job was at a bookstore"),
        ("I have a degree in biology.", "Mickael has a degree in biology"),
        ("I got my master's in economics last year", "Mickael has their master's in economics"),
        ("I've never been to Europe.", "Mickael has never been to Europe"),
        ("I can't swim.", "Mickael can't swim"),
        ("I'm scared of heights.", "Mickael is scared of heights"),
        ("I'm the oldest of four kids.", "Mickael is the oldest of four kids"),
        ("I'm an only child", "Mickael is an only child"),
    ],
)
def test_what_sets_the_speaker_apart(text: str, content: str) -> None:
    assert content in [item.content for item in run(text)]


@pytest.mark.parametrize(
    "text",
    [
        "I can't wait",
        "I can't believe it",
        "I've never said that",
        "I'm afraid of that",
        "I'm afraid I can't make it",
    ],
)
def test_chat_that_sounds_like_it_sets_nothing_apart(text: str) -> None:
    assert run(text) == []


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # an #introductions message: a name, then its age and home town
        (
            "Hi everyone! I'm Dana, 28, from Portland.",
            ["Mickael's name is Dana", "Dana is 28 years old", "Dana is from Portland"],
        ),
        ("hey! name's Marco, he/him.", ["Mickael's name is Marco", "Marco's pronouns are he/him"]),
        (
            "Moi c'est Claire, 35 ans, je vis à Nantes",
            ["Mickael s'appelle Claire", "Claire a 35 ans", "Claire vit à Nantes"],
        ),
        (
            "I'm Sam (they/them), 31, originally from Leeds",
            [
                "Mickael's name is Sam",
                "Sam's pronouns are they/them",
                "Sam is 31 years old",
                "Sam is originally from Leeds",
            ],
        ),
        ("she/they btw", ["Mickael's pronouns are she/they"]),
        # no pronouns given, no name, no age
        ("he/she will decide", []),
        ("the name is Bond", []),
        ("I'm Tom, 5 minutes late sorry", ["Mickael's name is Tom"]),
        # a job said after the name, with where it is or the home town
        (
            "I'm Priya, 27, software engineer from Pune",
            [
                "Mickael's name is Priya",
                "Priya is 27 years old",
                "Priya is from Pune",
                "Priya is a software engineer",
            ],
        ),
        ("I'm Raj, a nurse at St Mary's", ["Mickael's name is Raj", "Raj is a nurse at St Mary's"]),
        ("I'm Dana, just back from Lisbon", ["Mickael's name is Dana"]),
        ("I'm Tom, big fan of jazz", ["Mickael's name is Tom"]),
    ],
)
def test_an_introduction_says_name_pronouns_age_and_home_town(text: str, expected: list[str]) -> None:
    assert [item.content for item in run(text)] == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "Hello! Marco here, Italian living in Berlin. Dad of two, backend dev, amateur cyclist.",
            [
                "Mickael's name is Marco",
                "Marco is Italian",
                "Marco is living in Berlin",
                "Marco is a dad of two",
                "Marco is a backend dev",
                "Marco is an amateur cyclist",
            ],
        ),
        (
            "hey all, Mia here, nurse from Leeds",
            ["Mickael's name is Mia", "Mia is a nurse", "Mia is from Leeds"],
        ),
        (
            "yo, I'm Kenji. 19, college student in Osaka",
            ["Mickael's name is Kenji", "Kenji is 19 years old", "Kenji is a college student in Osaka"],
        ),
        # no introduction: fragments stay as said
        ("Same here, backend dev", []),
        ("I'm tired. Long day, lots of meetings.", []),
    ],
)
def test_an_introduction_told_in_fragments_says_who_one_is(text: str, expected: list[str]) -> None:
    assert [item.content for item in run(text)] == expected


def test_where_one_lives_said_after_where_one_is_from_and_a_move_here_are_notes_of_their_own() -> None:
    # never "Mickael is from Texas originally but live in Seattle now", one note of two facts
    assert contents("I'm from Texas originally but live in Seattle now") == [
        (ID, "Mickael is from Texas originally"),
        (ID, "Mickael lives in Seattle now"),
    ]
    # "here" is the place of the clause before: never "Mickael lives in Seattle, moved here in 2025"
    assert contents("I live in Seattle, moved here last year") == [
        (ID, "Mickael lives in Seattle"),
        (EVENT, "Mickael moved to Seattle in 2025"),
    ]
    assert contents("live in the moment") == []  # advice, no home


def test_what_a_diet_leaves_in_said_after_but_is_part_of_it() -> None:
    # never "Mickael is vegetarian" alone when the same breath says fish is eaten
    assert contents("I'm vegetarian but I eat fish sometimes") == [
        (PREF, "Mickael is vegetarian but eats fish sometimes")
    ]
    assert contents("I'm vegan, but I still eat honey") == [(PREF, "Mickael is vegan but still eats honey")]
    # ... not something else said after "but"
    assert contents("I'm vegetarian but I love cooking steak for my kids") == [
        (PREF, "Mickael is vegetarian"),
        (PREF, "Mickael loves cooking steak for their kids"),
    ]


@pytest.mark.parametrize(
    ("text", "memory_type", "predicate", "content"),
    [
        # a diet one is on (was nothing)
        ("I'm on a keto diet", PREF, Predicate.DIET, "Mickael is on a keto diet"),
        ("I am currently on a low-carb diet", PREF, Predicate.DIET, "Mickael is on a low-carb diet"),
        ("I'm no longer on the paleo diet", PREF, Predicate.DIET, "Mickael is no longer on a paleo diet"),
        # how well a language is spoken, said before it (was nothing: "a" is no language)
        ("I speak a little German", ID, Predicate.LANGUAGES, "Mickael speaks a little German"),
        ("I speak fluent Spanish", ID, Predicate.LANGUAGES, "Mickael speaks fluent Spanish"),
        (
            "I speak some French and a bit of Italian",
            ID,
            Predicate.LANGUAGES,
            "Mickael speaks some French and a bit of Italian",
        ),
    ],
)
def test_a_diet_one_is_on_and_a_language_spoken_as_well_as_it_is_said(
    text: str, memory_type: MemoryType, predicate: Predicate, content: str
) -> None:
    [item] = run(text)
    said = content.removeprefix("Mickael ").removeprefix("is ")
    assert (item.memory_type, item.content, item.predicate, item.object) == (
        memory_type,
        content,
        predicate,
        said,
    )


def test_a_diet_asked_about_or_named_for_a_thing_and_some_of_what_is_no_language_are_none() -> None:
    assert contents("if I'm on a keto diet can I eat this?") == []
    assert contents("I'm on a keto diet plan app") == []
    assert contents("I speak some sense") == []
