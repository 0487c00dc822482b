"""News of relatives and people named: what happened to them is remembered, no news where none was told."""

from __future__ import annotations

import pytest

from memory.models import MemoryType
from tests.extraction._support import (
    EVENT,
    FACT,
    contents,
    run,
)


# What happens to a relative is remembered of them, dated (said on Sunday 22 November 2026).
@pytest.mark.parametrize(
    ("text", "content"),
    [
        ("My mom passed away last year", "Mickael's mom passed away in 2025"),
        (
            "Last week, my grandma passed away and it's been really hard",
            "Mickael's grandma passed away in the week of Monday 9 November 2026",
        ),
        ("My son was born on 3 June 2019", "Mickael's son was born on Monday 3 June 2019"),
        ("My son was born last year in August", "Mickael's son was born in August 2025"),
        ("My sister got married in June", "Mickael's sister got married in June 2026"),
        ("Yesterday my dad retired", "Mickael's dad retired on Saturday 21 November 2026"),
        ("My brother just got engaged!", "Mickael's brother just got engaged"),
        ("Ma mère est décédée l'année dernière", "La mère de Mickael est décédée en 2025"),
        ("Mon fils est né le 3 juin 2019", "Le fils de Mickael est né le lundi 3 juin 2019"),
        # "our" / "notre": the speaker's relative too ("notre" does not say the gender: the noun does)
        ("Our daughter was born on 3 June 2019", "Mickael's daughter was born on Monday 3 June 2019"),
        ("Our dad retired last year", "Mickael's dad retired in 2025"),
        ("Notre fille est née le 3 juin 2019", "La fille de Mickael est née le lundi 3 juin 2019"),
        ("Notre fils est né l'année dernière", "Le fils de Mickael est né en 2025"),
        ("Nos enfants sont nés en 2019", "Les enfants de Mickael sont nés en 2019"),
        ("My kids graduated last June", "Mickael's kids graduated in June 2026"),
        ("My parents got divorced last year", "Mickael's parents got divorced in 2025"),
        ("Mes parents se sont mariés en 1990", "Les parents de Mickael se sont mariés en 1990"),
        (
            "Ma sœur s'est mariée en juin et c'était magnifique",
            "La sœur de Mickael s'est mariée en juin 2026",
        ),
        # injuries, a hospital, a baby on the way, school, a job, a move: what a friend asks after
        (
            "My brother broke his leg last week",
            "Mickael's brother broke his leg in the week of Monday 9 November 2026",
        ),
        ("my wife is pregnant", "Mickael's wife is pregnant"),
        ("my dad is in the hospital", "Mickael's dad is in the hospital"),
        ("My son started school on Monday", "Mickael's son started school on Monday 16 November 2026"),
        ("my sister got a new job at Google", "Mickael's sister got a new job at Google"),
        ("my brother got into Harvard", "Mickael's brother got into Harvard"),
        ("my husband lost his job", "Mickael's husband lost his job"),
        ("We were all freaked when my son got into an accident.", "Mickael's son got into an accident"),
        (
            "My daughter was in a bad car accident last week",
            "Mickael's daughter was in a bad car accident in the week of Monday 9 November 2026",
        ),
        ("mon frère s'est cassé la jambe", "Le frère de Mickael s'est cassé la jambe"),
        ("ma femme est enceinte", "La femme de Mickael est enceinte"),
        # told in the passé composé, "lundi" is the last one
        (
            "ma fille a commencé l'école lundi",
            "La fille de Mickael a commencé l'école lundi 16 novembre 2026",
        ),
        ("mes parents ont déménagé samedi", "Les parents de Mickael ont déménagé samedi 21 novembre 2026"),
        # what a child may not eat, said with the "'s" of "is" too
        ("my son is allergic to peanuts", "Mickael's son is allergic to peanuts"),
        ("my son's allergic to peanuts", "Mickael's son is allergic to peanuts"),
        ("my little brother's sick", "Mickael's little brother is sick"),
        ("my sister broke up with her boyfriend", "Mickael's sister broke up with her boyfriend"),
        # a new job, a retirement, a school play to come
        (
            "my wife starts her new job on Monday",
            "Mickael's wife starts her new job on Monday 23 November 2026",
        ),
        ("my dad retires in June", "Mickael's dad retires in June 2027"),
        (
            "my daughter's school play is next Thursday",
            "Mickael's daughter's school play is Thursday 26 November 2026",
        ),
        # what a relative lives with, without what the speaker does about it
        ("my dad has Parkinson's so I fly home every other month", "Mickael's dad has Parkinson's"),
        ("my mom has stage 2 breast cancer", "Mickael's mom has stage 2 breast cancer"),
        ("my son has ADHD", "Mickael's son has ADHD"),
        # a child's year at school, a job held before
        ("my daughter's in 3rd grade now", "Mickael's daughter is in 3rd grade now"),
        ("my son is in year 5", "Mickael's son is in year 5"),
        ("my grandpa was a coal miner in Wales", "Mickael's grandpa was a coal miner in Wales"),
        # what is had, without the next clause's subject ("the kids love him")
        ("we have a dog and the kids love him", "Mickael has a dog"),
    ],
)
def test_what_happens_to_a_relative_is_remembered(text: str, content: str) -> None:
    assert content in [item.content for item in run(text)], contents(text)


@pytest.mark.parametrize(
    "text",
    [
        "If my mom died I would be lost",  # not asserted
        "My brother passed the salt",
        "my brother broke the vase",  # no injury
        "my sister got into an argument",  # no school
        "my dad is in the garden",
    ],
)
def test_no_life_event_of_a_relative_where_none_was_told(text: str) -> None:
    assert not [c for _, c in contents(text) if "passed" in c or "died" in c], contents(text)


def test_a_relative_s_relative_is_named_as_theirs() -> None:
    # a friend's mom is no mom of the speaker's; her news is the friend's
    assert contents("My friend's mom passed away") == [(FACT, "Mickael's friend's mom passed away")]
    assert contents("my wife's grandmother passed away last week") == [
        (EVENT, "Mickael's wife's grandmother passed away in the week of Monday 9 November 2026")
    ]


def test_what_a_relative_has_is_news_only_when_it_is_a_condition() -> None:
    assert contents("my dad has a lot of opinions") == []


def test_a_pet_in_the_next_clause_is_not_what_was_had() -> None:
    said = "we got a Roomba and the cat is terrified of it"
    assert not [c for _, c in contents(said) if c.startswith("Mickael has")], contents(said)


@pytest.mark.parametrize(
    ("text", "content", "name"),
    [
        (
            "Sam got promoted to team lead yesterday",
            "Sam got promoted to team lead on Saturday 21 November 2026",
            "sam",
        ),
        ("Sam just got promoted", "Sam just got promoted", "sam"),
        ("omg Priya and Tom got engaged!!", "Priya and Tom got engaged", "priya"),
        ("Priya is moving to Lisbon next month", "Priya is moving to Lisbon in December 2026", "priya"),
        ("Dave lives in Leeds now", "Dave lives in Leeds now", "dave"),
        ("Dave is in Leeds now", "Dave is in Leeds now", "dave"),
        ("Sam and Ana are in New York these days", "Sam and Ana are in New York", "sam"),
        ("Jake broke his leg skiing", "Jake broke his leg skiing", "jake"),
        ("Sarah got a new job at Google and she loves it", "Sarah got a new job at Google", "sarah"),
        ("Ana had her baby last night", "Ana had her baby on Saturday 21 November 2026", "ana"),
        ("Jean Paul moved to Lyon", "Jean Paul moved to Lyon", "jean paul"),
        # kin said as a name is the speaker's
        ("Mom got promoted", "Mickael's mom got promoted", "mom"),
        # the "'s" of "is", and what someone may not eat
        ("Tom's allergic to peanuts btw", "Tom is allergic to peanuts", "tom"),
        ("Priya's pregnant!!", "Priya is pregnant", "priya"),
        ("Alex is vegan so no bbq", "Alex is vegan", "alex"),
        ("Jess and Mike broke up", "Jess and Mike broke up", "jess"),
        ("Marco quit his job", "Marco quit his job", "marco"),
        # days at work, with the day said (were nothing)
        ("Sarah starts Monday", "Sarah starts Monday 23 November 2026", "sarah"),
        ("Tom is out Friday", "Tom is out Friday 27 November 2026", "tom"),
        ("Priya will be back on the 6th", "Priya will be back on Sunday 6 December 2026", "priya"),
        # ... and said as "she" or "he" of the one person the sentence opened with
        ("Sarah is our new designer, she starts Monday", "Sarah starts Monday 23 November 2026", "sarah"),
        ("Tom is sick, he is out Friday", "Tom is out Friday 27 November 2026", "tom"),
        # ... and told of them as they told it: "she" is the one who said it
        ("Caroline told me she's moving to Sweden", "Caroline is moving to Sweden", "caroline"),
        ("Melanie mentioned she got engaged", "Melanie got engaged", "melanie"),
        ("Priya said she had her baby on Monday", "Priya had her baby on Monday 16 November 2026", "priya"),
        # "the baby" had is theirs too (was the speaker's, as a dated event)
        ("Ana had the baby on Monday", "Ana had the baby on Monday 16 November 2026", "ana"),
        (
            "Nadia is leaving the company end of month",
            "Nadia is leaving the company on Monday 30 November 2026",
            "nadia",
        ),
    ],
)
def test_what_happens_to_someone_named_is_remembered(text: str, content: str, name: str) -> None:
    found = [item for item in run(text) if item.content == content]
    assert found, contents(text)
    assert name in found[0].subjects and found[0].subject != "Mickael"


@pytest.mark.parametrize(
    ("said", "named", "event"),
    [
        (
            "Moi je pars en Corse le 9 août avec ma copine Françoise",
            "La copine de Mickael s'appelle Françoise",
            "Mickael part en Corse le lundi 9 août 2027 avec sa copine Françoise",
        ),
        (
            "I'm going to Corsica on 9 August with my friend Françoise",
            "Mickael's friend is called Françoise",
            "Mickael is going to Corsica on Monday 9 August 2027 with their friend Françoise",
        ),
    ],
)
def test_a_name_said_in_passing_leaves_the_dated_event(said: str, named: str, event: str) -> None:
    # The friend's name was the clause's only memory: the trip on the 9th was lost.
    assert contents(said) == [(MemoryType.FACT, named), (MemoryType.EVENT, event)]


@pytest.mark.parametrize(
    "text",
    [
        "Paris is in France",
        "Python is in Beta",
        "Docs are in Confluence",
        "my brother is in a Discord call",
        # a name's thing, not a place: a class, a club
        "my brother is in Chemistry class",
        "my sister is in Spanish club",
    ],
)
def test_a_name_in_a_place_is_news_only_when_said_to_be_there_now(text: str) -> None:
    assert contents(text) == []


@pytest.mark.parametrize(
    "text",
    [
        "Work got crazy",  # capitalised words that name no one
        "Everybody moved to Slack",
        "He got promoted",
        "Networking plays a big role in getting endorsements",
        "Grateful lives here",
        "Sam got promoted?",  # asked, not told
        "if Sam got promoted we'd celebrate",  # not asserted
        "Sam, you got promoted",  # said to Sam
        "sam got promoted",  # no name as written
        "Monday said he got promoted",  # a day, not someone
        "I told Sam he got promoted",  # the speaker told it: whose "he" is open
    ],
)
def test_no_news_of_someone_named_where_none_was_told(text: str) -> None:
    assert not [c for _, c in contents(text) if "promoted" in c or "moved" in c or "lives" in c], contents(
        text
    )
