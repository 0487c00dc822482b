"""French chat of work and family: its notes, a week of a month and a day said alone, working from home."""

from __future__ import annotations

import pytest

from memory.text.facts import Predicate
from tests.extraction._support import (
    assert_written_out,
    notes,
    run,
)
from tests.helpers import WEDNESDAY_NOON


# From a thirtieth batch of 25 fresh French lines of work and family (1 person lost from a couple, 1
# day alone and 1 week of a month not read, 5 lines missed).
@pytest.mark.parametrize(
    ("text", "content"),
    [
        # a week counted in a month
        (
            "on part au ski la deuxième semaine de février",
            "Mickael et d'autres partent au ski la semaine du lundi 8 février 2027",
        ),
        (
            "we're going skiing the second week of February",
            "Mickael's sports and activities include skiing: Mickael and others are going skiing in the"
            " week of Monday 8 February 2027",
        ),
        # a day of the month said alone, and an operation to come
        (
            "mon père se fait opérer du genou le 12",
            "Le père de Mickael se fait opérer du genou le samedi 12 décembre 2026",
        ),
        ("ma sœur accouche fin janvier", "La sœur de Mickael accouche fin janvier 2027"),
        ("j'ai été augmenté, enfin", "Mickael a été augmenté, enfin"),
        # who the speaker did it with, said first
        (
            "ma copine et moi on s'est séparés le mois dernier",
            "Mickael et sa copine se sont séparés en octobre 2026",
        ),
        ("Paul et moi on a emménagé ensemble en mars", "Mickael et Paul ont emménagé ensemble en mars 2026"),
        (
            "mon frère et moi, on a couru le marathon de Paris",
            "Mickael et son frère ont couru le marathon de Paris",
        ),
        # working from home, said as French says it
        ("je bosse de chez moi le vendredi", "Mickael travaille à domicile le vendredi"),
    ],
)
def test_what_french_chat_tells_of_work_and_family(text: str, content: str) -> None:
    found = notes(text)
    assert content in found, found


@pytest.mark.parametrize(
    ("said", "written"),
    [
        ("the last week of March works", "in the week of Monday 22 March 2027 works"),
        ("la dernière semaine d'août on est en Corse", "la semaine du lundi 23 août 2027 on est en Corse"),
        ("I was in Rome the first week of October", "I was in Rome in the week of Monday 28 September 2026"),
        ("the third week of January 2028", "in the week of Monday 17 January 2028"),
        ("rendez-vous le 12 à 14h", "rendez-vous le samedi 12 décembre 2026 à 14h"),
        ("on se voit le 1er", "on se voit le mardi 1er décembre 2026"),
        ("le 3 pièces est loué", "le 3 pièces est loué"),  # a flat of three rooms
        ("le 12 à la maison", "le 12 à la maison"),
    ],
)
def test_a_week_of_a_month_and_a_day_said_alone(said: str, written: str) -> None:
    assert_written_out(said, written)


def test_working_from_home_in_french_is_no_workplace() -> None:
    (note,) = run("je bosse de chez moi le vendredi", now=WEDNESDAY_NOON)
    assert note.predicate is Predicate.ABOUT, note
