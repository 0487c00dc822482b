"""Aliases: names learned from chat (English and French), stored per workspace, widening searches."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memory.engine import MemoryEngine
from memory.models import Audience, MemoryDraft, MemoryType
from memory.people import MAX_ALIASES_PER_USER, AliasStore, learn_aliases, normalize_alias
from tests.helpers import GENERAL

NOW = 1_790_000_000.0
# Aliases are stored through the storage seam: both backends.
STORAGE_BACKENDS = ("embedded", "postgres")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("call me dev", ["dev"]),
        ("you can call me dev", ["dev"]),
        ("Just call me Dev, everyone does", ["dev"]),
        ("I go by dev", ["dev"]),
        ("I usually go by dev at work", ["dev"]),
        ("everyone calls me dev", ["dev"]),
        ("my nickname is dev", ["dev"]),
        ("my nickname's dev", ["dev"]),
        ("I'm known as dev around here", ["dev"]),
        ('call me "dev" please', ["dev"]),
        ("Call me Big Mike.", ["big mike"]),
        ("call me dev_42!", ["dev_42"]),
        ("my name is Camille but you can call me Cam", ["camille", "cam"]),
        ("appelle-moi dev", ["dev"]),
        ("appelez-moi dev", ["dev"]),
        ("appelle moi Mika stp", ["mika"]),
        ("tu peux m'appeler dev", ["dev"]),
        ("on m'appelle dev", ["dev"]),
        ("tout le monde m'appelle Mika", ["mika"]),
        ("mon surnom c'est dev", ["dev"]),
        ("mon pseudo est Zorro", ["zorro"]),
        ("je m'appelle Mickael mais tout le monde dit dev", ["dev"]),  # the display name is known already
        ("hey! name's Marco, he/him.", ["marco"]),  # "my" dropped, as chat does
        ("u can call me Fox", ["fox"]),  # shorthand spelled out
    ],
)
def test_learns_aliases(text: str, expected: list[str]) -> None:
    assert learn_aliases(text, "Mickael") == expected


def test_a_stated_name_is_an_alias_unless_it_is_the_display_name() -> None:
    text = "je m'appelle Mickael mais tout le monde dit dev"
    assert learn_aliases(text, "mick_42") == ["mickael", "dev"]
    assert learn_aliases("my name is Camille", "Camille") == []


@pytest.mark.parametrize(
    "text",
    [
        "",
        "hello there",
        "call me later",
        "call me back when you can",
        "call me tomorrow",
        "call me when you're free",
        "call me at 5",
        "call me maybe",
        "call me a taxi",
        "call me crazy, but I like it",
        "call me " + "x" * 60,
        "call me 🚀",
        "call me 42",
        "don't call me dev",
        "please don't call me dev",
        "never call me dev again",
        "if you call me dev I'll be mad",
        "why do they call me dev?",
        "can you call me dev?",
        "appelle-moi demain",
        "appelle-moi plus tard",
        "on m'appelle demain pour l'entretien",
        "on m'appelle pour un devis",
        "ne m'appelle pas dev",
        "tout le monde dit que c'est bien",
        "I'm tired",
        # someone's words shown: a quoted line, a template in code
        "> call me dev",
        "`call me dev` is the placeholder",
        # a name taken back as it is said, or by the next sentence
        "call me dev jk",
        "call me dev. just kidding",
    ],
)
def test_rejects_garbage(text: str) -> None:
    assert learn_aliases(text, "Mickael") == []


@pytest.mark.parametrize(
    ("raw", "normalized"),
    [
        ("Mickael", "mickael"),
        ("  @Dev  ", "dev"),
        ("Mickael 🚀", "mickael"),
        ("Jean  Luc", "jean luc"),
        ("ÉLODIE", "élodie"),
        ("", None),
        ("🚀🚀", None),
        ("1234", None),
        ("x" * 33, None),
    ],
)
def test_normalize_alias(raw: str, normalized: str | None) -> None:
    assert normalize_alias(raw) == normalized


@settings(max_examples=200, deadline=None)
@given(text=st.text(max_size=200), speaker=st.text(max_size=20))
def test_learning_never_raises(text: str, speaker: str) -> None:
    for alias in learn_aliases(text, speaker):
        assert alias == normalize_alias(alias)


# --------------------------------------------------------------------------- the store


@pytest.fixture
def aliases(engine: MemoryEngine) -> AliasStore:
    return AliasStore(engine.storage.people)


async def test_expand_finds_the_id_and_the_other_names(aliases: AliasStore) -> None:
    # What the pipeline does: the display name with every message, then what the text teaches.
    assert await aliases.add("discord", "guild-1", "u123", "Mickael", NOW)
    for alias in learn_aliases("call me dev", "Mickael"):
        assert await aliases.add("discord", "guild-1", "u123", alias, NOW + 1)
    assert await aliases.expand("discord", "guild-1", ["dev"]) == ["dev", "mickael", "u123"]
    assert await aliases.expand("discord", "guild-1", ["Mickael"]) == ["mickael", "dev", "u123"]
    assert await aliases.expand("discord", "guild-1", ["u123"]) == ["u123", "mickael", "dev"]
    assert await aliases.expand("discord", "guild-1", ["DEV", "dev", " "]) == ["dev", "mickael", "u123"]
    assert await aliases.expand("discord", "guild-1", ["stranger"]) == ["stranger"]
    assert await aliases.expand("discord", "guild-1", []) == []


async def test_aliases_are_scoped_per_workspace(aliases: AliasStore) -> None:
    await aliases.add("discord", "guild-1", "u123", "dev", NOW)
    assert await aliases.users_for("discord", "guild-1", "dev") == ["u123"]
    assert await aliases.users_for("discord", "guild-2", "dev") == []
    assert await aliases.users_for("slack", "guild-1", "dev") == []
    assert await aliases.expand("discord", "guild-2", ["dev"]) == ["dev"]
    assert await aliases.names_for("discord", "guild-2", "u123") == []


async def test_names_users_and_case_of_ids(aliases: AliasStore) -> None:
    assert await aliases.add_many("slack", "T1", "U123ABC", ["Mickael", "dev", "@Dev", "🚀"], NOW) == [
        "mickael",
        "dev",
    ]
    assert not await aliases.add("slack", "T1", "U123ABC", "DEV", NOW)  # already known
    assert not await aliases.add("slack", "T1", "U123ABC", "!!", NOW)  # not a name
    await aliases.add("slack", "T1", "U999", "dev", NOW + 5)  # two people may share a name
    assert await aliases.names_for("slack", "T1", "U123ABC") == ["dev", "mickael"]
    assert await aliases.users_for("slack", "T1", "Dev") == ["U123ABC", "U999"]
    assert await aliases.resolve_users("slack", "T1", ["mickael"]) == ["U123ABC"]
    assert await aliases.expand("slack", "T1", ["mickael"]) == ["mickael", "dev", "u123abc"]
    assert await aliases.remove("slack", "T1", "U999", "dev") == 1
    assert await aliases.users_for("slack", "T1", "dev") == ["U123ABC"]


async def test_a_name_and_a_profile_with_a_lone_surrogate_are_stored_as_valid_text(
    engine: MemoryEngine, aliases: AliasStore
) -> None:
    # A caller of the store may hand over text a platform's JSON decoded ("\ud800"): both stores
    # keep UTF-8, so the write replaces it rather than failing.
    assert await aliases.add("discord", "guild-1", "u1", "Al\ud800ice", NOW)
    assert await aliases.names_for("discord", "guild-1", "u1") == ["al?ice"]
    assert await aliases.remove("discord", "guild-1", "u1", "al\ud800ice") == 1
    assert await aliases.names_for("discord", "guild-1", "u1") == []
    people = engine.storage.people
    await people.save_profile("discord", "guild-1", "u1", "default", '{"name": "Al\ud800ice"}', NOW)
    assert await people.profiles("discord", "guild-1", "default", ["u1"]) == [
        ("u1", '{"name": "Al?ice"}', NOW)
    ]


async def test_display_name_changes_keep_old_names_but_stay_bounded(aliases: AliasStore) -> None:
    for n in range(MAX_ALIASES_PER_USER + 5):
        await aliases.add("discord", "guild-1", "u1", f"name{n:02d}", NOW + n)
    names = await aliases.names_for("discord", "guild-1", "u1")
    assert len(names) == MAX_ALIASES_PER_USER
    assert "name00" not in names and f"name{MAX_ALIASES_PER_USER + 4:02d}" in names
    # An evicted name can come back (the store does not remember it as still present).
    assert await aliases.add("discord", "guild-1", "u1", "name00", NOW + 100)


async def test_aliases_widen_a_search(engine: MemoryEngine, aliases: AliasStore) -> None:
    scope = GENERAL
    await engine.remember(
        MemoryDraft(
            "Mickael broke his shoulder climbing",
            scope,
            MemoryType.EVENT,
            subjects=["mickael", "shoulder"],
            user_id="u123",
            author_id="u123",
        )
    )
    await aliases.add("discord", "guild-1", "u123", "Mickael", NOW)
    await aliases.add("discord", "guild-1", "u123", "dev", NOW)
    audience = Audience("discord", "guild-1", "default", viewer_id="u123", channel_id="general")
    assert await engine.by_subject(audience, ["dev"]) == []
    widened = await engine.by_subject(audience, await aliases.expand("discord", "guild-1", ["dev"]))
    assert [m.content for m in widened] == ["Mickael broke his shoulder climbing"]
