"""The works rules: what the speaker reads, watches, plays and makes, by kind; and what they must not."""

from __future__ import annotations

import pytest

from memory.models import MemoryType
from memory.text import extract
from tests.helpers import FRIDAY_NOON as NOW
from tests.helpers import kind_contents


def _works(text: str) -> list[str]:
    """The contents of the media and made-thing memories `text` gives, said by Léa."""
    return kind_contents(text, "kind:media", "kind:made")


@pytest.mark.parametrize(
    ("text", "content"),
    [
        (
            'I watched "Little Women" and it was great!',
            'Léa\'s movies and TV shows include "Little Women": Léa watched "Little Women" and it was great',
        ),
        # "your advice" is said to the listener: the quote keeps what the speaker did next
        (
            'I took your advice and watched "The Lord of the Rings" last night',
            'Léa\'s movies and TV shows include "The Lord of the Rings": Léa watched "The Lord of the Rings" '
            "on Thursday 7 May 2026",
        ),
        (
            "I was reading Harry Potter again",
            "Léa's books and reading include Harry Potter: Léa was reading Harry Potter again",
        ),
        (
            'I\'m playing an RPG called "Xenoblade Chronicles"',
            'Léa\'s video games and games include "Xenoblade Chronicles": Léa is playing an RPG called '
            '"Xenoblade Chronicles"',
        ),
        (
            "I'm playing Valorant again",
            "Léa's video games and games include Valorant: Léa is playing Valorant again",
        ),
        (
            "I finished my first full screenplay",
            "Léa's written works include screenplay: Léa finished their first full screenplay",
        ),
        (
            "I baked a chocolate cake for my mom",
            "Léa's recipes and baking include cake: Léa baked a chocolate cake for their mom",
        ),
        (
            "Here's a cake I made recently!",
            "Léa's recipes and baking include cake: a cake Léa made recently!",
        ),
        # whipped up, and dishes beyond cakes
        (
            "I whipped up some chocolate and vanilla swirl.",
            "Léa's recipes and baking include swirl: Léa whipped up some chocolate and vanilla swirl",
        ),
        # how it turned out ("it was great") is how the speaker felt, not what was made
        (
            "I made some peach cobbler recently, it was great.",
            "Léa's recipes and baking include cobbler: Léa made some peach cobbler recently",
        ),
        ("We made pizza!", "Léa's recipes and baking include pizza: Léa and others made pizza"),
        (
            "I tried my newest dairy-free recipe",
            "Léa's recipes and baking include recipe: Léa tried their newest dairy-free recipe",
        ),
        (
            "I wrote a poem about my grandma",
            "Léa's written works include poem: Léa wrote a poem about their grandma",
        ),
        # what a picture is of, and a work the speaker "did"
        (
            "I painted a sunset over the lake yesterday",
            "Léa's art and crafts include a painting of a sunset over the lake: Léa painted a sunset over "
            "the lake on Thursday 7 May 2026",
        ),
        (
            "We drew a map of the island for the kids",
            "Léa's art and crafts include a drawing of a map of the island: Léa and others drew a map of the "
            "island for the kids",
        ),
        (
            "Here's a photo of my horse painting I did recently.",
            "Léa's art and crafts include painting: Léa's horse painting Léa did recently.",
        ),
        # what is said to the listener is left out of the quote
        (
            "J'ai suivi ton conseil et j'ai regardé \"Dune\" hier",
            'Les films et séries de Léa incluent "Dune" : Léa a regardé "Dune" le jeudi 7 mai 2026',
        ),
        ("I baked a cake, you should try it", "Léa's recipes and baking include cake: Léa baked a cake"),
        # in French, a quoted title, its kind said in French
        (
            'J\'ai regardé "Inception" hier soir',
            'Les films et séries de Léa incluent "Inception" : Léa a regardé "Inception" le jeudi 7 mai 2026',
        ),
        (
            "Je lis le roman « Dune » en ce moment",
            "Les lectures de Léa incluent « Dune » : Léa lit le roman « Dune » en ce moment",
        ),
        (
            'On a vu "Barbie" au cinéma',
            'Les films et séries de Léa incluent "Barbie" : Léa et d\'autres ont vu "Barbie" au cinéma',
        ),
        (
            'J\'ai enfin fini de lire "Les Misérables"',
            'Les lectures de Léa incluent "Les Misérables" : Léa a enfin fini de lire "Les Misérables"',
        ),
        (
            "J'ai écouté l'album \"Renaissance\" en boucle",
            'La musique et les podcasts de Léa incluent "Renaissance" : Léa a écouté l\'album '
            '"Renaissance" en boucle',
        ),
        # Things made, said in French: the thing with the determiner said.
        (
            "J'ai fait un gâteau au chocolat",
            "Les recettes et pâtisseries de Léa incluent un gâteau : Léa a fait un gâteau au chocolat",
        ),
        (
            "On a préparé des crêpes",
            "Les recettes et pâtisseries de Léa incluent des crêpes : Léa et d'autres ont préparé des crêpes",
        ),
        (
            "J'ai fini d'écrire mon roman",
            "Les écrits de Léa incluent son roman : Léa a fini d'écrire son roman",
        ),
        (
            "J'ai tricoté une écharpe pour Noël",
            # told in the past, the last Christmas, as "I knitted a scarf for Christmas" is
            "L'art et l'artisanat de Léa incluent une écharpe : Léa a tricoté une écharpe pour Noël 2025",
        ),
    ],
)
def test_a_work_read_watched_played_or_made_is_remembered_with_its_kind(text: str, content: str) -> None:
    assert content in _works(text)


def test_the_memory_is_a_fact_about_the_speaker_tagged_with_its_kind_and_title() -> None:
    (item,) = [i for i in extract('I just watched "Dune"', "Léa", NOW) if "kind:media" in i.subjects]
    assert item.memory_type is MemoryType.FACT
    assert item.subjects[:3] == ["léa", "kind:media", "dune"]


@pytest.mark.parametrize(
    "text",
    [
        'I haven\'t read "Dune" yet.',  # not done
        'I want to watch "Dune".',  # a wish
        'You should watch "Dune".',  # someone else's
        'She watched "Dune" twice.',
        "I love reading fantasy novels.",  # a taste: the preference rule's
        "I saw Tom yesterday.",  # a person, not a title
        "I watched Sarah's kids.",
        "We watched the game on Sunday.",  # no title
        "I read an article about it.",
        "I played Monday night.",
        "I finished the book last night.",  # a book read, not written
        "I tried the cake at the cafe.",  # eaten, not made
        "I made a mistake.",  # no work
        "I wrote an email to my boss.",
        # painted, drawn and sketched that are no art
        "I painted my nails yesterday.",
        "We painted the fence last weekend.",
        "I drew a blank.",
        "I drew inspiration from her story.",
        "We sketched a plan for the app.",
        "I painted this last week.",  # what was just shown
        "She painted a sunset.",
        "I'd love to bake a cake.",
        "I want to write a novel.",
        'Je n\'ai pas encore vu "Oppenheimer".',
        'Je veux regarder "Dune".',
        'Il a vu "Barbie" hier.',
        'Tu devrais lire "Dune".',
        "J'ai vu Marie hier.",  # no quoted title
        "J'ai terminé le livre hier soir.",  # a book read, not written
        "Je vais faire un gâteau demain.",  # to come
        "Je n'ai jamais fait de gâteau.",
        "Ma sœur a fait un gâteau.",  # someone else's
        "J'ai fait une erreur.",  # no work
    ],
)
def test_no_work_where_the_speaker_did_not_read_watch_play_or_make_it(text: str) -> None:
    assert _works(text) == []


def test_a_work_from_the_list_painted_is_one_note_not_also_a_painting_of_it() -> None:
    assert _works("I painted a portrait of my mom") == [
        "Léa's art and crafts include portrait: Léa painted a portrait of their mom"
    ]
