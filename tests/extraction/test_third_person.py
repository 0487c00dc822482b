"""The speaker's words in the third person: "we" and "nous", French "me", the verb after "I", pronouns."""

from __future__ import annotations

import pytest

from memory.text.normalize import looks_french
from memory.text.rewrite import third_person
from memory.text.sentences import split_clauses


# "we" is the speaker and others (a family, friends, a team), not "the team" whoever they are; in
# French "nous", and "on" where it says "nous", with the verb in the third person plural.
@pytest.mark.parametrize(
    ("said", "rewritten"),
    [
        ("We adopted a puppy", "Mickael and others adopted a puppy"),
        ("We went on our weekend hike", "Mickael and others went on their weekend hike"),
        ("Our puppy chews everything", "Mickael's puppy chews everything"),
        ("He invited us to dinner", "He invited Mickael and others to dinner"),
        ("We moved to the US", "Mickael and others moved to the US"),
        ("We're proud of ourselves", "Mickael and others are proud of themselves"),
        ("Nous avons adopté un chiot", "Mickael et d'autres ont adopté un chiot"),
        ("On a adopté un chiot", "Mickael et d'autres ont adopté un chiot"),
        (
            "Nous sommes allés à Lisbonne avec nos enfants",
            "Mickael et d'autres sont allés à Lisbonne avec leurs enfants",
        ),
        ("Nous nous sommes mariés en juin", "Mickael et d'autres se sont mariés en juin"),
        ("On s'est inscrits au marathon", "Mickael et d'autres se sont inscrits au marathon"),
        ("Nous habitions à Lyon", "Mickael et d'autres habitaient à Lyon"),
        ("Nous étudions le droit", "Mickael et d'autres étudient le droit"),
        ("Nous mangeons ensemble", "Mickael et d'autres mangent ensemble"),
        ("Nous commençons lundi", "Mickael et d'autres commencent lundi"),
        ("Nous allons à Rome", "Mickael et d'autres vont à Rome"),
        ("Nous lancerons la version lundi", "Mickael et d'autres lanceront la version lundi"),
        (
            "Nous prendrons le train et nous verrons",
            "Mickael et d'autres prendront le train et Mickael et d'autres verront",
        ),
        (
            "Nous serons là, nous finirons tôt",
            "Mickael et d'autres seront là, Mickael et d'autres finiront tôt",
        ),
        ("Je sais qu'on a gagné", "Mickael sait que Mickael et d'autres ont gagné"),
        ("Lorsqu'on est arrivés", "Lorsque Mickael et d'autres sont arrivés"),
        # "nous" as an object, "l'on", and "notre" before anyone is named stay as said, but before a
        # relative or a pet, whose noun says its article, as "mon" does
        ("Elle nous a invités", "Elle nous a invités"),
        ("Si l'on a le temps", "Si l'on a le temps"),
        ("Notre maison est grande", "Notre maison est grande"),
        ("Notre chien est malade", "le chien de Mickael est malade"),
        ("Nos enfants sont à l'école", "les enfants de Mickael sont à l'école"),
    ],
)
def test_we_is_the_speaker_and_others(said: str, rewritten: str) -> None:
    assert third_person(said, "Mickael", french=looks_french(said)) == rewritten


@pytest.mark.parametrize(
    ("said", "rewritten"),
    [
        # "me" as someone else's object: "lui" (écrire à, offrir à), "l'" before a vowel, else the name
        ("Je préfère qu'on m'écrive par mail", "Mickael préfère qu'on lui écrive par mail"),
        ("Ma mère m'a offert un vélo", "la mère de Mickael lui a offert un vélo"),
        ("Mon mari m'a demandé en mariage", "le mari de Mickael l'a demandé en mariage"),
        ("Elle m'a demandé de venir", "Elle a demandé à Mickael de venir"),  # no one named before
        ("Il me contacte par mail", "Il contacte Mickael par mail"),
        ("On m'appelle Mick", "On appelle Mickael Mick"),
        ("Tu me manques", "Tu manques à Mickael"),
        ("Mon chef me met la pression", "le chef de Mickael lui met la pression"),
        # a verb of unknown construction keeps its "me" rather than a wrong sentence
        ("Il me regarde", "Il me regarde"),
        # the speaker's own "me" stays theirs
        ("Je me lève tôt", "Mickael se lève tôt"),
    ],
)
def test_the_speaker_as_someone_elses_object_in_french(said: str, rewritten: str) -> None:
    assert third_person(said, "Mickael", french=True) == rewritten


@pytest.mark.parametrize(
    ("said", "rewritten"),
    [
        # after a question's auxiliary the verb is not conjugated
        ("what did I miss", "what did Mickael miss"),
        ("can I bring a friend", "can Mickael bring a friend"),
        ("should I go", "should Mickael go"),
        # the present of "run" and "become" (their participles only are also past)
        ("I run every day", "Mickael runs every day"),
        ("I become someone else on stage", "Mickael becomes someone else on stage"),
        ("I read it", "Mickael read it"),
        # a second verb joined by "and" is in the first one's tense
        ("I climb and make terrible pottery", "Mickael climbs and makes terrible pottery"),
        ("I play guitar and sing", "Mickael plays guitar and sings"),
        ("I love it and hate it", "Mickael loves it and hates it"),
        ("I climbed and made pottery", "Mickael climbed and made pottery"),
        ("I hate when people talk and make noise", "Mickael hates when people talk and make noise"),
    ],
)
def test_the_verb_after_i_as_he_would_say_it(said: str, rewritten: str) -> None:
    assert third_person(said, "Mickael", french=False) == rewritten


@pytest.mark.parametrize(
    ("sentence", "clauses"),
    [
        # "she" goes on about the one person the sentence opened with...
        (
            "Sarah is our new designer, she starts Monday",
            ["Sarah is our new designer", "Sarah starts Monday"],
        ),
        # ... and about nobody when it opened with a day, a month, or two names
        ("March is busy, she starts Monday", ["March is busy, she starts Monday"]),
        ("Monday is busy, he is out", ["Monday is busy, he is out"]),
        ("Sarah told Tom, she starts Monday", ["Sarah told Tom, she starts Monday"]),
    ],
)
def test_a_pronoun_is_named_only_after_one_person(sentence: str, clauses: list[str]) -> None:
    assert [clause for clause, _ in split_clauses(sentence)] == clauses
