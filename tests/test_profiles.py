"""User profiles: reading memories into fields, the compact line, privacy, and updates on the real engine."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import AsyncIterator
from datetime import datetime
from pathlib import Path

import pytest

from memory.engine import MemoryEngine
from memory.models import Fact, Memory, MemoryDraft, MemoryType, Predicate, Scope, Source, Visibility
from memory.people import (
    COMPACT_MAX_CHARS,
    Profile,
    ProfileEntry,
    ProfileStore,
    ProfileUpdater,
    compact,
    fact_in_profile,
    profile_facts,
)
from memory.text import extract
from tests.helpers import GENERAL, WEDNESDAY_NOON, FakeClock

# Profiles are stored through the storage seam: both backends.
STORAGE_BACKENDS = ("embedded", "postgres")

ID = MemoryType.IDENTITY
PREF = MemoryType.PREFERENCE
FACT = MemoryType.FACT
DM = Scope("discord", "guild-1", "dm-mickael", "default")


def memory(content: str, memory_type: MemoryType, subjects: list[str] | None = None) -> Memory:
    return Memory(
        id="m1",
        content=content,
        memory_type=memory_type,
        importance=0.7,
        confidence=0.8,
        subjects=subjects if subjects is not None else ["mickael"],
        source=Source.HEURISTIC,
        scope=GENERAL,
        user_id="u1",
        author_id="u1",
        visibility=Visibility.WORKSPACE,
        created_at=1.0,
        updated_at=1.0,
    )


# --------------------------------------------------------------------------- reading memories


@pytest.mark.parametrize(
    ("content", "memory_type", "facts"),
    [
        ("Mickael's name is Camille", ID, [("field", "name", "Camille")]),
        ("Mickael s'appelle Léa", ID, [("field", "name", "Léa")]),
        ("Mickael wants to be called Mick", ID, [("field", "nickname", "Mick")]),
        ("Mickael's pronouns are he/him", ID, [("field", "pronouns", "he/him")]),
        ("Mickael uses they / them pronouns", ID, [("field", "pronouns", "they/them")]),
        ("Les pronoms de Mickael sont iel/iel", ID, [("field", "pronouns", "iel/iel")]),
        ("Mickael is married", ID, [("field", "relationship", "married")]),
        ("Mickael is not a morning person", ID, [("about", "", "is not a morning person")]),
        ("Mickael est célibataire", ID, [("field", "relationship", "célibataire")]),
        ("Mickael lives in Lyon", ID, [("field", "location", "lives in Lyon")]),
        ("Mickael habite à Paris", ID, [("field", "location", "habite à Paris")]),
        ("Mickael is from Montreal", ID, [("field", "origin", "from Montreal")]),
        ("Mickael works as a nurse", ID, [("field", "job", "nurse")]),
        ("Mickael is a software engineer", ID, [("field", "job", "software engineer")]),
        ("Mickael est développeur", ID, [("field", "job", "développeur")]),
        ("Mickael works at Acme", ID, [("field", "workplace", "works at Acme")]),
        ("Mickael no longer works at Acme", ID, [("field", "workplace", "no longer works at Acme")]),
        ("Mickael ne travaille plus chez Acme", ID, [("field", "workplace", "ne travaille plus chez Acme")]),
        ("Mickael n'habite plus à Paris", ID, [("field", "location", "n'habite plus à Paris")]),
        (
            "Mickael has lived in Berlin since 2019",
            ID,
            [("field", "location", "has lived in Berlin since 2019")],
        ),
        ("Mickael is 34 years old", ID, [("field", "age", "34 years old")]),
        ("Mickael a 34 ans", ID, [("field", "age", "34 ans")]),
        ("Mickael speaks French and Spanish", ID, [("field", "languages", "speaks French and Spanish")]),
        ("Mickael is French", ID, [("about", "", "is French")]),
        ("Mickael's dog is called Rex", FACT, [("family", "dog", "dog Rex")]),
        ("La fille de Mickael s'appelle Emma", FACT, [("family", "fille", "fille Emma")]),
        ("Mickael has two kids", FACT, [("family", "kids", "has two kids")]),
        ("Mickael likes tea", PREF, [("like", "", "tea")]),
        ("Mickael really loves climbing.", PREF, [("like", "", "climbing")]),
        ("Mickael is a big fan of jazz", PREF, [("like", "", "jazz")]),
        ("Mickael hates coffee", PREF, [("dislike", "", "coffee")]),
        ("Mickael doesn't like meetings", PREF, [("dislike", "", "meetings")]),
        ("Mickael is not a fan of meetings", PREF, [("dislike", "", "meetings")]),
        ("Mickael adore le jazz", PREF, [("like", "", "le jazz")]),
        ("Mickael n'aime pas les épinards", PREF, [("dislike", "", "les épinards")]),
        ("Mickael's favorite color is blue", PREF, [("like", "", "blue (favorite color)")]),
        ("Le plat préféré de Mickael est la raclette", PREF, [("like", "", "la raclette (plat préféré)")]),
        ("Mickael is vegetarian", PREF, [("field", "diet", "vegetarian")]),
        ("Mickael is a vegetarian", PREF, [("field", "diet", "vegetarian")]),
        ("Mickael is no longer vegan", PREF, [("field", "diet", "no longer vegan")]),
        ("Mickael n'est plus végétarienne", PREF, [("field", "diet", "n'est plus végétarienne")]),
        ("Mickael has always loved jazz", PREF, [("like", "", "jazz")]),
        ("Mickael has always been passionate about music", PREF, [("like", "", "music")]),
        ("Mickael is interested in machine learning", PREF, [("like", "", "machine learning")]),
        ("Mickael has always hated mornings", PREF, [("dislike", "", "mornings")]),
        # a taste that ended replaces the like ("no longer likes coffee" was a like of coffee)
        ("Mickael no longer likes coffee", PREF, [("dislike", "", "coffee")]),
        ("Mickael n'aime plus le café", PREF, [("dislike", "", "le café")]),
        ("Mickael is drawn to turtles", PREF, [("like", "", "turtles")]),
        ("Mickael is in the PST time zone", ID, [("field", "timezone", "PST")]),
        ("Mickael est dans le fuseau horaire CET", ID, [("field", "timezone", "CET")]),
        ("Mickael is on Berlin time (Europe/Berlin)", ID, [("field", "timezone", "Europe/Berlin")]),
        ("Mickael is no longer married", ID, [("field", "relationship", "no longer married")]),
        (
            "Mickael est à l'heure de Montréal (America/Toronto)",
            ID,
            [("field", "timezone", "America/Toronto")],
        ),
        ("Mickael a toujours adoré le jazz", PREF, [("like", "", "le jazz")]),
        ("Mickael s'intéresse à la photographie", PREF, [("like", "", "la photographie")]),
        ("Mickael a toujours détesté les lundis", PREF, [("dislike", "", "les lundis")]),
        ("Mickael ne mange pas de viande", PREF, [("field", "diet", "ne mange pas de viande")]),
        ("Enfant, Mickael avait un chien", FACT, []),
        ("Mickael can't have dairy", PREF, [("field", "diet", "can't have dairy")]),
        ("Mickael doesn't eat meat", PREF, [("field", "diet", "doesn't eat meat")]),
        ("Mickael no longer drinks coffee", PREF, [("field", "diet", "no longer drinks coffee")]),
        ("Mickael doesn't mind noise", PREF, []),
        ("Mickael's sister is called Léa", PREF, []),  # a preference memory never fills family
        ("The office is closed on Fridays", FACT, []),  # facts other than family are not a portrait
        # "has" / "a" after a clause, not after the name, says nothing of the family
        ("Mickael's pets include a dog: Mickael adopted a dog", FACT, []),
        ("Mickael went to a party with a sister", FACT, []),
        ("Mickael had two hamsters as a kid", FACT, []),
    ],
)
def test_profile_facts(content: str, memory_type: MemoryType, facts: list[tuple[str, str, str]]) -> None:
    assert profile_facts(memory(content, memory_type)) == facts


@pytest.mark.parametrize(
    "said",
    ["Dave lives in Leeds now", "Sarah works at Google", "Priya is from Lisbon", "Sarah is a designer"],
)
def test_news_of_someone_named_is_no_line_of_the_speakers_profile(said: str) -> None:
    (found,) = extract(said, "Mickael", now=WEDNESDAY_NOON)
    assert found.subject != "Mickael"
    assert profile_facts(memory(found.content, found.memory_type, found.subjects)) == []


# What chat says of its speaker, in every shape a profile shows: names, places, jobs, kin, pets, tastes.
SAID_OF_THE_SPEAKER = [
    "my name is Camille",
    "call me Cam",
    "I live in Lyon",
    "I'm based in Montreal",
    "I work at Shopify",
    "I'm a nurse",
    "I'm from Lisbon originally",
    "I'm 34",
    "I'm married",
    "I speak French and Spanish",
    "I'm vegetarian",
    "I'm in CET",
    "I'm the on-call lead for Q1",
    "my sister is called Léa",
    "I have a very loud cat called Miso",
    "j'ai un chat qui s'appelle Moustache",
    "I have two kids",
    "I love hiking",
    "I hate cilantro",
    "I don't mind the cold",
    "my favourite color is blue",
    "my go-to order is a flat white",
    "I'm allergic to penicillin",
    "j'habite à Nantes",
    "je suis infirmière",
    "j'adore le jazz",
    "ma boisson préférée c'est le thé",
    "I work 4 days a week, never on Fridays",
    "I'm off every Friday",
    "my hours are 8 to 4",
    "je suis à 80%",
    "text me if it's urgent",
    "the best way to reach me is Signal",
    "my 1:1 with Priya is every other Tuesday",
    "I'm Senior Engineer at Stripe",
    "I'm GMT+1 btw",
    "I moderate the art channel",
    "je suis CTO chez Doctolib",
    "I'm not a nurse anymore",
    "I'm Priya, joining the data team as a senior analyst. Based in Toronto, originally from Pune.",
    "I just joined Stripe as a PM",
    "je rejoins l'équipe produit comme PM",
    "I live in Brooklyn with my partner and our two cats, Mochi and Tofu.",
    "I'm in my second year of med school",
    "I used to live in Toronto but moved to Vancouver last year",
    "please don't @ me after 7pm, I have a toddler",
    "I'm Aiko, she/her, a teacher from Ohio",
    "Hello! Marco here, Italian living in Berlin. Dad of two, backend dev, amateur cyclist.",
    "hey all, Mia here, nurse from Leeds",
    "I'm Canadian, eh",
    "je suis française",
    "I'm half Japanese",
    "I'm not working at Google anymore, I'm at Meta now",
    "I'm no longer in Berlin, moved back to Paris in May",
    "I'm a lefty so these scissors are useless to me",
    "i work remote for a company in Austin",
    "I can't do dairy, lactose intolerant",
    "I'm vegetarian except for fish",
    "I'm vegan, but I still eat honey",
    "I'm on a keto diet",
    "I speak a little German",
    "I'm from Texas originally but live in Seattle now",
    "j'ai horreur des araignées",
    "I'm from Nigeria but grew up in London",
    "I just adopted two kittens, Salt and Pepper",
    "I work for the government, can't say more",
    "I got a new puppy, a golden retriever named Max",
    "I'm the only designer on a team of 12 engineers",
    "I'm the new designer",
    "I'm a stay at home dad",
    "we adopted a rescue greyhound called Rocket",
    "I'm fluent in Spanish and learning Portuguese",
    "I'm doing a PhD in neuroscience at UCL",
    "I live at 42 Baker Street, come by anytime",
    # how long a diet has lasted, a first language, how one works, when one was born, one's own things
    "I've been vegan since 2019",
    "je suis végétarienne depuis l'année dernière",
    "my first language is Tagalog",
    "je travaille à mi-temps depuis la naissance de ma fille",
    "I work from home on Fridays",
    "I was born in 1990",
    "I was born in 1990 in Naples",
    "I've been at Spotify for three years, before that Deezer",
    "my Steam username is nightowl_42",
    "I'm lactose intolerant but cheese is my weakness",
    "actually I don't work at Google anymore, I'm at Anthropic now",
    "je bosse de chez moi le vendredi",
    "I've been with Stripe since 2021",
    "Ana and I aren't together anymore",
    "turns out I'm not allergic to cats, it was the dust",
    "my doctor told me to avoid alcohol",
]


def _chat_dev_turns() -> list[tuple[str, str, datetime]]:
    data = json.loads((Path(__file__).parent.parent / "bench" / "data" / "chat-dev.json").read_text())
    turns = []
    for conversation in data:
        sessions = conversation["conversation"]
        for key, session in sessions.items():
            if not key.startswith("session_") or key.endswith("_date_time") or not isinstance(session, list):
                continue
            for turn in session:
                turns.append((turn["speaker"], turn["text"], WEDNESDAY_NOON))
    return turns


def test_the_profile_reads_from_a_memorys_words_the_fact_the_extractor_returned_with_it() -> None:
    # The extractor returns each memory with its fact (subject, predicate, object); a memory is
    # stored as words, which the profile reads (the model writes memories too). The two must agree,
    # or a profile would show what the extractor never meant.
    said = [("Mickael", text, WEDNESDAY_NOON) for text in SAID_OF_THE_SPEAKER]
    shown = 0
    for speaker, text, now in said + _chat_dev_turns():
        for found in extract(text, speaker, now=now):
            meant = fact_in_profile(found.fact)
            expected = [meant] if meant is not None and meant[2] else []
            read = profile_facts(memory(found.content, found.memory_type, found.subjects))
            assert read == expected, (text, found.content, found.fact)
            shown += len(read)
    assert shown >= len(SAID_OF_THE_SPEAKER) // 2  # the lines above do reach profiles


def test_a_stored_fact_is_read_directly_and_the_words_only_without_one() -> None:
    # Words no rule reads: the profile takes the extractor's fact as stored with the memory.
    said = memory("Lyon it is, for good", FACT)
    assert profile_facts(said) == []
    located = dataclasses.replace(said, fact=Fact("", Predicate.LOCATION, "lives in Lyon"))
    assert profile_facts(located) == [("field", "location", "lives in Lyon")]
    # A stored fact no profile shows leaves the profile alone, whatever the words say.
    dated = dataclasses.replace(memory("Mickael lives in Lyon", ID), fact=Fact("", Predicate.EVENT, "moved"))
    assert profile_facts(dated) == []


def test_long_values_are_cut() -> None:
    [(_, _, value)] = profile_facts(memory("Mickael likes " + "very long things " * 20, PREF))
    assert len(value) <= 80
    assert value.endswith("…")


# --------------------------------------------------------------------------- the compact line


def entry(value: str, at: float, memory_id: str = "m") -> ProfileEntry:
    return ProfileEntry(value, memory_id, at)


def test_compact_line_reads_like_a_portrait() -> None:
    profile = Profile("discord", "guild-1", "u1", "default")
    for kind, key, value in [
        ("field", "pronouns", "he/him"),
        ("field", "location", "lives in Lyon"),
        ("field", "job", "nurse"),
        ("like", "", "climbing"),
        ("like", "", "tea"),
        ("dislike", "", "coffee"),
    ]:
        profile.shared.apply(kind, key, entry(value, len(profile.shared.ops()) + 1.0))
    assert compact(profile, display_name="Mickael") == (
        "Mickael (he/him) — lives in Lyon; nurse; likes tea, climbing; dislikes coffee"
    )
    # A name from a memory wins over the display name; with neither, the id stands in.
    profile.shared.apply("field", "name", entry("Mickaël", 10.0))
    assert compact(profile, display_name="mick_42").startswith("Mickaël (he/him) — ")
    profile.shared.fields.pop("name")
    assert compact(profile).startswith("u1 (he/him) — ")
    # The time zone the user said they are in follows where they live.
    profile.shared.apply("field", "timezone", entry("CET", 11.0))
    assert compact(profile).startswith("u1 (he/him) — lives in Lyon; time zone CET; nurse; ")


def test_compact_is_empty_when_nothing_is_known() -> None:
    assert compact(None) == ""
    assert compact(Profile("discord", "guild-1", "u1", "default")) == ""


def test_compact_is_bounded_and_keeps_the_most_useful_parts() -> None:
    profile = Profile("discord", "guild-1", "u1", "default")
    profile.shared.apply("field", "location", entry("lives in Lyon", 1.0))
    profile.shared.apply("field", "job", entry("nurse", 1.0))
    profile.shared.apply("field", "studies", entry("studies " + "philosophy " * 6, 1.0))
    for n in range(12):
        profile.shared.apply("like", "", entry(f"hobby number {n} with a long name", 2.0 + n))
        profile.shared.apply("about", "", entry(f"is known for thing {n} in the village", 2.0 + n))
    line = compact(profile, display_name="Mickael")
    assert len(line) <= COMPACT_MAX_CHARS
    assert line.startswith("Mickael — lives in Lyon; nurse; ")
    assert "likes hobby number 11" in line  # newest likes first, before lower-priority parts
    for budget in (0, 1, 10, 40, 120):
        assert len(compact(profile, display_name="Mickael", max_chars=budget)) <= budget
    assert compact(profile, display_name="Mickael", max_chars=40) == "Mickael — lives in Lyon; nurse"


def test_newest_statement_wins_between_likes_and_dislikes() -> None:
    section = Profile("discord", "guild-1", "u1", "default").shared
    assert section.apply("like", "", entry("Coffee", 1.0, "a"))
    assert section.apply("dislike", "", entry("coffee", 2.0, "b"))
    assert [e.value for e in section.likes] == []
    assert [e.value for e in section.dislikes] == ["coffee"]
    # An older statement arriving late does not undo the newer one.
    assert not section.apply("like", "", entry("coffee", 1.5, "c"))
    assert [e.memory_id for e in section.dislikes] == ["b"]


def test_private_values_only_in_the_private_line() -> None:
    profile = Profile("discord", "guild-1", "u1", "default", display_name="Mickael")
    profile.shared.apply("like", "", entry("tea", 1.0))
    profile.shared.apply("field", "location", entry("lives in Paris", 1.0))
    profile.private.apply("field", "location", entry("lives in Lyon", 2.0))
    profile.private.apply("dislike", "", entry("tea", 3.0))
    assert compact(profile) == "Mickael — lives in Paris; likes tea"
    assert compact(profile, include_private=True) == "Mickael — lives in Lyon; dislikes tea"


def test_profile_json_round_trip_and_bad_rows() -> None:
    profile = Profile("discord", "guild-1", "u1", "default", display_name="Mickael")
    profile.shared.apply("like", "", entry("tea", 1.0, "a"))
    profile.shared.apply("family", "dog", entry("dog Rex", 1.0, "b"))
    profile.private.apply("field", "location", entry("lives in Lyon", 2.0, "c"))
    again = Profile.from_json("discord", "guild-1", "u1", "default", profile.to_json(), 5.0)
    assert again.shared == profile.shared and again.private == profile.private
    assert again.display_name == "Mickael" and again.memory_ids() == {"a", "b", "c"}
    broken = Profile.from_json(
        "discord", "guild-1", "u1", "default", {"likes": [{"value": 3}], "fields": 7}, 0
    )
    assert broken.is_empty()


# --------------------------------------------------------------------------- on the engine


@pytest.fixture
async def profiles(
    engine: MemoryEngine, clock: FakeClock
) -> AsyncIterator[tuple[ProfileStore, ProfileUpdater]]:
    store = ProfileStore(engine.storage, clock)
    updater = ProfileUpdater(engine, store)
    yield store, updater
    await updater.aclose()


async def remember(
    engine: MemoryEngine,
    content: str,
    memory_type: MemoryType,
    *,
    scope: Scope = GENERAL,
    user: str = "u1",
    author: str | None = None,
    visibility: Visibility = Visibility.WORKSPACE,
) -> Memory:
    result = await engine.remember(
        MemoryDraft(
            content,
            scope,
            memory_type,
            subjects=["mickael"],
            user_id=user,
            author_id=author or user,
            visibility=visibility,
        )
    )
    return result.memory


async def get(store: ProfileStore, workspace: str = "guild-1") -> Profile | None:
    return await store.get("discord", workspace, "u1", "default")


async def settled(
    profiles: tuple[ProfileStore, ProfileUpdater], workspace: str = "guild-1"
) -> Profile | None:
    """Mickael's profile once the updater has applied every memory change so far."""
    store, updater = profiles
    await updater.drain()
    return await get(store, workspace)


async def test_profile_updates_from_a_new_preference_and_drops_it_when_forgotten(
    engine: MemoryEngine, profiles: tuple[ProfileStore, ProfileUpdater], clock: FakeClock
) -> None:
    _, updater = profiles
    tea = await remember(engine, "Mickael likes tea", PREF)
    # The listener only scheduled the update: the write path did not wait for it. (Reading the
    # profile here would race the scheduled update across the reader threads: `pending` says it.)
    assert updater.pending == 1
    profile = await settled(profiles)
    assert profile is not None
    assert [(e.value, e.memory_id) for e in profile.shared.likes] == [("tea", tea.id)]
    assert compact(profile) == "Mickael — likes tea"

    clock.advance(60)
    await remember(engine, "Mickael loves climbing", PREF)
    assert compact(await settled(profiles)) == "Mickael — likes climbing, tea"

    assert await engine.forget_unscoped(tea.id) is not None
    profile = await settled(profiles)
    assert profile is not None
    assert [e.value for e in profile.shared.likes] == ["climbing"]
    assert tea.id not in profile.memory_ids()


async def test_superseded_preference_is_replaced(
    engine: MemoryEngine, profiles: tuple[ProfileStore, ProfileUpdater], clock: FakeClock
) -> None:
    old = await remember(engine, "Mickael likes tea", PREF)
    clock.advance(60)
    result = await engine.remember(
        MemoryDraft(
            "Mickael likes green tea in the morning",
            GENERAL,
            PREF,
            subjects=["mickael"],
            user_id="u1",
            author_id="u1",
        )
    )
    assert result.action == "superseded" and result.replaced is not None and result.replaced.id == old.id
    profile = await settled(profiles)
    assert profile is not None
    assert [(e.value, e.memory_id) for e in profile.shared.likes] == [
        ("green tea in the morning", result.memory.id)
    ]


async def test_forgetting_the_newer_value_brings_the_older_back(
    engine: MemoryEngine, profiles: tuple[ProfileStore, ProfileUpdater], clock: FakeClock
) -> None:
    await remember(engine, "Mickael works as a nurse", ID)
    clock.advance(60)
    newer = await remember(engine, "Mickael is a software engineer", ID)
    profile = await settled(profiles)
    assert profile is not None and profile.shared.fields["job"].value == "software engineer"
    await engine.forget_unscoped(newer.id)
    profile = await settled(profiles)
    assert profile is not None and profile.shared.fields["job"].value == "nurse"


@pytest.mark.parametrize(
    ("older", "newer", "field", "value"),
    [
        # a workplace no longer held, a relationship status changed: one value, the newest word on it
        ("Mickael works at Acme", "Mickael no longer works at Acme", "workplace", "no longer works at Acme"),
        ("Mickael is married", "Mickael is divorced", "relationship", "divorced"),
        ("Mickael is a nurse", "Mickael is no longer a nurse", "job", "no longer a nurse"),
    ],
)
async def test_a_single_valued_field_is_the_newest_word_on_it(
    engine: MemoryEngine,
    profiles: tuple[ProfileStore, ProfileUpdater],
    clock: FakeClock,
    older: str,
    newer: str,
    field: str,
    value: str,
) -> None:
    await remember(engine, older, ID)
    clock.advance(60)
    await remember(engine, newer, ID)
    profile = await settled(profiles)
    assert profile is not None and profile.shared.fields[field].value == value
    assert value in compact(profile)


async def test_forgetting_the_last_memory_removes_the_profile(
    engine: MemoryEngine, profiles: tuple[ProfileStore, ProfileUpdater]
) -> None:
    only = await remember(engine, "Mickael lives in Lyon", ID)
    assert await settled(profiles) is not None
    await engine.forget_unscoped(only.id)
    assert await settled(profiles) is None


async def test_private_memories_stay_out_of_the_shared_line(
    engine: MemoryEngine, profiles: tuple[ProfileStore, ProfileUpdater], clock: FakeClock
) -> None:
    await remember(engine, "Mickael likes tea", PREF)
    clock.advance(60)
    await remember(engine, "Mickael lives in Lyon", ID, scope=DM, visibility=Visibility.PRIVATE)
    # Someone else's DM about Mickael, and a channel-only memory: neither may reach his profile.
    await remember(engine, "Mickael hates jazz", PREF, scope=DM, author="u2", visibility=Visibility.PRIVATE)
    await remember(engine, "Mickael works as a nurse", ID, visibility=Visibility.CHANNEL)
    profile = await settled(profiles)
    assert profile is not None
    assert compact(profile) == "Mickael — likes tea"
    assert compact(profile, include_private=True) == "Mickael — lives in Lyon; likes tea"
    assert "location" not in profile.shared.fields and "location" in profile.private.fields
    line = compact(profile, include_private=True)
    assert "jazz" not in line and "nurse" not in line


async def test_profiles_are_per_workspace(
    engine: MemoryEngine, profiles: tuple[ProfileStore, ProfileUpdater]
) -> None:
    store, _ = profiles
    await remember(engine, "Mickael likes tea", PREF)
    await remember(
        engine, "Mickael likes rugby", PREF, scope=Scope("discord", "guild-2", "general", "default")
    )
    assert compact(await settled(profiles, "guild-1")) == "Mickael — likes tea"
    assert compact(await get(store, "guild-2")) == "Mickael — likes rugby"
    many = await store.get_many("discord", "guild-1", ["u1", "nobody"], "default")
    assert list(many) == ["u1"]


async def test_rebuild_reads_what_was_stored_before_the_updater(
    engine: MemoryEngine, clock: FakeClock
) -> None:
    await remember(engine, "Mickael lives in Lyon", ID)
    clock.advance(60)
    await remember(engine, "Mickael hates coffee", PREF)
    store = ProfileStore(engine.storage, clock)
    assert await get(store) is None
    rebuilt = await store.rebuild("discord", "guild-1", "u1", "default")
    assert compact(rebuilt) == "Mickael — lives in Lyon; dislikes coffee"
    assert compact(await get(store)) == compact(rebuilt)


async def test_of_two_statements_in_one_instant_the_later_one_wins_on_rebuild(
    engine: MemoryEngine, clock: FakeClock
) -> None:
    # One turn said both: the second arrival is the newer statement, whatever the ids say.
    first = dataclasses.replace(memory("Mickael works as a nurse", ID), id="m2", created_at=clock())
    second = dataclasses.replace(memory("Mickael is a software engineer", ID), id="m1", created_at=clock())
    for row in (first, second):
        await engine.storage.memories.add_many([row], await engine.embedder.embed([row.content]))
    store = ProfileStore(engine.storage, clock)
    rebuilt = await store.rebuild("discord", "guild-1", "u1", "default")
    assert rebuilt is not None and rebuilt.shared.fields["job"].value == "software engineer"


async def test_updater_ignores_writes_after_close_and_irrelevant_memories(
    engine: MemoryEngine, profiles: tuple[ProfileStore, ProfileUpdater]
) -> None:
    store, updater = profiles
    await remember(engine, "Mickael decided to use Postgres", MemoryType.DECISION)
    assert updater.pending == 0
    await updater.aclose()
    await remember(engine, "Mickael likes tea", PREF)
    assert updater.pending == 0
    assert await get(store) is None
