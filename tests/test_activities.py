"""The pastime and pet rules: what the speaker does and keeps, with its kind; and what they must not read."""

from __future__ import annotations

import pytest

from memory.models import MemoryType
from memory.text import extract
from tests.helpers import FRIDAY_NOON as NOW
from tests.helpers import kind_contents


def _kinds(text: str) -> list[str]:
    """The contents of the activity, pet and place memories `text` gives, said by Léa."""
    return kind_contents(text, "kind:activity", "kind:pet", "kind:place")


@pytest.mark.parametrize(
    ("text", "content"),
    [
        (
            "I'm off to go swimming with the kids.",
            "Léa's sports and activities include swimming: Léa is off to go swimming with the kids",
        ),
        (
            "I've been painting a lot lately.",
            "Léa's art and hobbies include painting: Léa has been painting a lot lately",
        ),
        (
            "I went on a hike yesterday.",
            "Léa's outdoor activities include hiking: Léa went on a hike on Thursday 7 May 2026",
        ),
        (
            "I started a weekend yoga class with a colleague",
            "Léa's sports and activities include yoga: Léa started a weekend yoga class with a colleague",
        ),
        (
            "We went on a road trip to Oregon.",
            "Léa's travels and places visited include Oregon: Léa and others went on a road trip to Oregon",
        ),
        (
            "I've been to Paris twice",
            "Léa's travels and places visited include Paris: Léa has been to Paris twice",
        ),
        # A recurring day is no dated event; the pastime is still the speaker's.
        ("every Monday I go swimming", "Léa's sports and activities include swimming: Léa goes swimming"),
        (
            "We love playing the guitar",
            "Léa's music and hobbies include guitar: Léa and others love playing the guitar",
        ),
        (
            "Our new puppy is chewing everything.",
            "Léa's pets include a puppy: Léa's new puppy is chewing everything",
        ),
        ("We adopted two kittens", "Léa's pets include kittens: Léa and others adopted two kittens"),
        # in French, the kind said in French
        (
            "J'ai adopté un chien la semaine dernière",
            "Les animaux de Léa incluent un chien : Léa a adopté un chien la semaine du lundi 27 avril 2026",
        ),
        ("On a deux chats", "Les animaux de Léa incluent des chats : Léa et d'autres ont deux chats"),
        (
            "Mon chiot dort toute la journée",
            "Les animaux de Léa incluent un chiot : Le chiot de Léa dort toute la journée",
        ),
        (
            "Nous avons recueilli une chatte",
            "Les animaux de Léa incluent une chatte : Léa et d'autres ont recueilli une chatte",
        ),
        # Said with no verb of doing: the pastime is the speaker's own ("my", "our").
        (
            "We always look forward to our family camping trip.",
            "Léa's outdoor activities include camping: Léa and others always look forward to their "
            "family camping trip",
        ),
        (
            "Our weekend hikes are the best part of the week.",
            "Léa's outdoor activities include hiking: Léa's weekend hikes are the best part of the week",
        ),
        (
            "I'm also trying out yoga to get stronger.",
            "Léa's sports and activities include yoga: Léa is also trying out yoga to get stronger",
        ),
        # Said by the pastime's own verb, or by signing up for it.
        ("I hike every weekend", "Léa's outdoor activities include hiking: Léa hikes every weekend"),
        (
            "I volunteer at a homeless shelter",
            "Léa's hobbies and activities include volunteering: Léa volunteers at a homeless shelter",
        ),
        (
            "I just signed up for a pottery class.",
            "Léa's art and hobbies include pottery: Léa just signed up for a pottery class",
        ),
        ("I joined a gym!", "Léa's sports and activities include gym: Léa joined a gym"),
        # An outing or an event, said by the place gone to, by the speaker or their own family.
        (
            "We went to a pride parade",
            "Léa's events attended include the parade: Léa and others went to a pride parade",
        ),
        (
            "My kids love the zoo.",
            "Léa's outings and family activities include the zoo: Léa's kids love the zoo",
        ),
        (
            "Yesterday I took the kids to the museum.",
            "Léa's outings and family activities include the museum: on Thursday 7 May 2026 Léa took the "
            "kids to the museum",
        ),
        (
            "We went to the beach",
            "Léa's outings and family activities include the beach: Léa and others went to the beach",
        ),
        # What is said to the listener is left out of the quote, and the quote with it when the
        # pastime itself was shared with them: "you" is someone else wherever the note is read.
        ("I adopted a dog, you would love him", "Léa's pets include a dog: Léa adopted a dog"),
        ("I went hiking with you last week", "Léa's outdoor activities include hiking"),
        # a place visited, named as the verb's object, or after a date said on the way
        (
            "We visited Chicago last summer",
            "Léa's travels and places visited include Chicago: Léa and others visited Chicago in summer 2025",
        ),
        (
            "I took a short trip last week to Rome",
            "Léa's travels and places visited include Rome: Léa took a short trip in the week of Monday "
            "27 April 2026 to Rome",
        ),
        (
            "I'm so excited to tell you I started a weekend yoga class",
            "Léa's sports and activities include yoga: Léa started a weekend yoga class",
        ),
        (
            "I took a road trip for my next movie while you were at work",
            "Léa's outdoor activities include road trip: Léa took a road trip for their next movie",
        ),
        (
            "Last week, I went to the cinema with you",
            "Léa's outings and family activities include the cinema",
        ),
        (
            "I went to Rome last year, you would love it",
            "Léa's travels and places visited include Rome: Léa went to Rome in 2025",
        ),
        (
            "J'ai adopté un chien, tu vas l'adorer",
            "Les animaux de Léa incluent un chien : Léa a adopté un chien",
        ),
        # In French, said with "faire", "jouer" or "pratiquer": the kind named in French.
        (
            "je fais de l'escalade tous les samedis",
            "Les sports et activités de Léa incluent l'escalade : Léa fait de l'escalade tous les samedis",
        ),
        (
            "je joue de la guitare",
            "La musique et les loisirs de Léa incluent la guitare : Léa joue de la guitare",
        ),
        (
            "On a fait du camping dans les Alpes",
            "Les activités de plein air de Léa incluent le camping : Léa et d'autres ont fait du camping "
            "dans les Alpes",
        ),
        (
            "je pratique le yoga",
            "Les sports et activités de Léa incluent le yoga : Léa pratique le yoga",
        ),
        (
            "We explored the coast up in the Pacific Northwest",
            "Léa's travels and places visited include the Pacific Northwest: Léa and others explored the "
            "coast up in the Pacific Northwest",
        ),
        (
            "I explored Tokyo for a week",
            "Léa's travels and places visited include Tokyo: Léa explored Tokyo for a week",
        ),
        # Less common pastimes, each of a kind a question may ask by.
        (
            "I went on a mountaineering trip with some workmates",
            "Léa's outdoor activities include mountaineering: Léa went on a mountaineering trip with some "
            "workmates",
        ),
        (
            "We went scuba diving in Malta",
            "Léa's outdoor activities include scuba diving: Léa and others went scuba diving in Malta",
        ),
        ("I took up archery", "Léa's sports and activities include archery: Léa took up archery"),
        (
            "I've been playing the trumpet since school",
            "Léa's music and hobbies include trumpet: Léa has been playing the trumpet since school",
        ),
        (
            "I've been journaling every night",
            "Léa's art and hobbies include journaling: Léa has been journaling every night",
        ),
        (
            "J'ai fait de l'alpinisme cet été",
            # "cet été" told in the past is this year's summer, written out
            "Les activités de plein air de Léa incluent l'alpinisme : Léa a fait de l'alpinisme l'été 2026",
        ),
        (
            "je joue de la trompette",
            "La musique et les loisirs de Léa incluent la trompette : Léa joue de la trompette",
        ),
    ],
)
def test_a_pastime_or_pet_is_remembered_with_its_kind(text: str, content: str) -> None:
    assert content in _kinds(text)


def test_a_short_name_inside_another_word_is_not_the_speaker() -> None:
    # "Al" is in "Dallas": what follows it there is no clause of Al's
    notes = [m.content for m in extract("I went hiking with you in Dallas", "Al", NOW)]
    assert notes == ["Al's outdoor activities include hiking"]


def test_the_memory_is_a_fact_about_the_speaker_tagged_with_its_kind_and_thing() -> None:
    (item,) = [
        i for i in extract("We went camping last weekend.", "Léa", NOW) if "kind:activity" in i.subjects
    ]
    assert item.memory_type is MemoryType.FACT
    assert item.subjects[:3] == ["léa", "kind:activity", "camping"]
    assert item.subject == "Léa"
    (pet,) = [i for i in extract("My dog loves the beach.", "Léa", NOW) if "kind:pet" in i.subjects]
    assert pet.subjects[:3] == ["léa", "kind:pet", "dog"]


def test_a_long_clause_is_cut_to_a_bounded_memory() -> None:
    text = "I went hiking " + " ".join(f"past the hill number {n}" for n in range(30))
    (content,) = _kinds(text)
    assert content.endswith("…")
    assert len(content.split()) < 35


@pytest.mark.parametrize(
    "text",
    [
        "Do you like hiking?",  # a question
        "If I go hiking this weekend I'll send pics.",  # a hypothetical
        "I'd love to try surfing someday.",  # a wish
        "I want to start yoga.",
        "I don't swim.",  # negations
        "I never go camping.",
        "I'm not into football.",
        "I hate running.",
        "I used to play tennis.",  # no longer
        "I stopped running after the injury.",
        "We're planning a camping trip.",  # a plan
        "I'm going to go hiking next week.",
        "I'll go swimming tomorrow.",
        "My sister loves hiking.",  # someone else's
        "I think you should try yoga.",
        "I took my son to his tennis lesson.",
        "She said I love hiking.",  # reported speech
        "I'm running late, sorry.",  # the word, not the pastime
        "I'm drawing a blank.",
        "I'm running a business now.",
        "I read an article about hiking.",  # no verb of doing it
        "We love having movie marathons.",  # another thing of the same name
        "my horse painting is done",
        "My friend's dog is cute.",  # not the speaker's pet
        "We're going to Italy in June.",  # a plan, not a place been to
        "I'd love to travel to Japan.",
        "My sister went to Paris.",
        "I went to Caroline's place.",  # a person's, not a named place
        "I talked to Sarah yesterday.",  # no travel
        "I went there in May.",  # a month, not a place
        "We went through Slack to find it.",  # the apps a chat works in are no places
        "I was in Jira all morning.",
        "We went to GitHub to check.",
        "We went to the Apple store yesterday.",  # a thing named after a name
        "I was in the Design channel.",
        "I haven't been to Edinburgh yet.",
        "Have you ever been to Paris?",
        "If we go to Rome next year, we'll call you.",
        "I visited my aunt last week.",  # a visit to someone, not a place
        "I'm going to visit Paris.",
        "We haven't been camping in years.",
        "I haven't had a pet since my cat died.",
        "I never had a dog.",
        "We don't have cats.",
        "I wish I had a puppy.",
        "I've been fishing for compliments all day.",  # figures of speech
        "I've been running around all day.",
        "I've been swimming in paperwork.",
        "I've been running on fumes.",
        "I miss our camping trips.",  # no longer, or not had
        "We had to cancel our camping trip.",
        "My son's soccer game was fun.",  # someone else's, with "my" before it
        "My sister's yoga class is hard.",
        "Did you enjoy our hike?",
        "They went to the beach.",  # outings: someone else's, planned, wished, refused
        "My friend took her kids to the museum.",
        "We're going to the zoo tomorrow.",
        "I want to take the kids to the aquarium.",
        "I never go to the beach.",
        "I bought zoo tickets.",
        "I'd hike more if I had time.",  # pastimes said by their verb: wished, refused, someone else's
        "I never ski.",
        "If I ski again I'll break a leg.",
        "They volunteer at the shelter.",
        "I used to volunteer there.",
        "I swam to the shore.",  # moving, not the pastime
        "Je n'ai jamais eu de chien",
        "Je voudrais un chat",
        "Mon chien en peluche est sur le lit",
        "Le chien de ma voisine aboie",
        "Je ne fais plus de vélo",
        "Si je fais du ski je vais me casser une jambe",
        "Mon frère fait du judo",
        "Je voudrais faire du surf",
        "Je fais du sport",  # no pastime named
    ],
)
def test_no_pastime_or_pet_where_the_speaker_does_not_say_they_do_or_keep_it(text: str) -> None:
    assert _kinds(text) == []


@pytest.mark.parametrize(
    ("text", "named"),
    [
        ("My dog Rex loves the beach", "Léa's dog is called Rex"),
        ("my cat's name is Luna", "Léa's cat is called Luna"),
    ],
)
def test_a_named_pet_is_left_to_the_relatives_rule(text: str, named: str) -> None:
    items = extract(text, "Léa", NOW)
    assert named in [item.content for item in items]
    assert not [item for item in items if "kind:pet" in item.subjects]


def test_a_pastime_the_speaker_says_they_like_is_left_to_the_preference_rule() -> None:
    # A second note of the same clause would refine the preference into a fact once stored, and
    # the speaker's tastes would lose it.
    items = extract("I love volunteering at the shelter", "Léa", NOW)
    assert [(i.memory_type, i.content) for i in items] == [
        (MemoryType.PREFERENCE, "Léa loves volunteering at the shelter")
    ]
    (fact,) = [i for i in extract("We went camping", "Léa", NOW) if "kind:activity" in i.subjects]
    assert fact.memory_type is MemoryType.FACT


def test_a_pastime_said_with_a_verb_and_a_possessive_is_one_memory() -> None:
    assert _kinds("We went on our weekend hike.") == [
        "Léa's outdoor activities include hiking: Léa and others went on their weekend hike"
    ]


def test_a_possessed_pastime_the_speaker_says_they_like_is_left_to_the_preference_rule() -> None:
    items = extract("I love our weekend hikes", "Léa", NOW)
    assert [i.memory_type for i in items] == [MemoryType.PREFERENCE]


def test_an_outing_the_speaker_says_they_like_is_left_to_the_preference_rule() -> None:
    items = extract("I love taking the kids to the zoo", "Léa", NOW)
    assert [(i.memory_type, i.content) for i in items] == [
        (MemoryType.PREFERENCE, "Léa loves taking the kids to the zoo")
    ]
