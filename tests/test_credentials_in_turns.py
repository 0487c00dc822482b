"""A credential typed in chat is never kept: stored turns hold "[redacted]", on both backends, so no
later prompt, search or summary reads it back."""

from __future__ import annotations

import json

import pytest

from bot.llm.fake import ScriptedLLM, text, tool
from bot.pipeline import TurnPipeline
from memory.engine import MemoryEngine
from memory.models import StoredMessage, Summary, SummaryKind, Visibility
from memory.storage import MemoryQuery
from memory.text import REDACTED, without_credentials
from memory.turn_text import message_embed_text, message_search_text
from tests.helpers import GENERAL, FakeClock, audience, message, past_turn

STORAGE_BACKENDS = ("embedded", "postgres")

SECRET_TURNS = [
    ("my password is hunter2", "my password is [redacted]", "hunter2"),
    (
        "The wifi password: coffee123. Ask me if you forget",
        "The wifi password: [redacted]. Ask me if you forget",
        "coffee123",
    ),
    (
        "here's my api key sk-abc123def456ghi789jkl, keep it safe",
        "here's my api key [redacted], keep it safe",
        "sk-abc123def456ghi789jkl",
    ),
    ("card is 4111 1111 1111 1111 exp 09/27", "card is [redacted] exp 09/27", "4111 1111 1111 1111"),
    ("my SSN is 123-45-6789", "my SSN is [redacted]", "123-45-6789"),
    ("mon mot de passe c'est soleil42 !", "mon mot de passe c'est [redacted] !", "soleil42"),
    ("my pin is 4821 lol", "my pin is [redacted] lol", "4821"),
    ('the token is "abc"', 'the token is "[redacted]"', "abc"),
    (
        "key: -----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA\n-----END RSA PRIVATE KEY----- there",
        "key: [redacted] there",
        "MIIEowIBAAKCAQEA",
    ),
    # a key block cut short (a pasted part) is masked to the end
    ("oops -----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBg", "oops [redacted]", "MIIEvQIBADANBg"),
]
# What is said of a secret, or words that only look like one, is chat and stays as it was.
PLAIN_TURNS = [
    "my password is too long",
    "I forgot my password again",
    "the secret is out",
    "the secret is to use less salt",
    "the pin is up in #general",
    "order 1234567890123 shipped",
    "call me at 555-0134",
]


@pytest.mark.parametrize(("said", "kept", "secret"), SECRET_TURNS)
def test_a_credential_is_masked_and_the_words_around_it_stay(said: str, kept: str, secret: str) -> None:
    assert without_credentials(said) == kept
    assert secret not in without_credentials(said)
    # Masking again changes nothing: "[redacted]" is its own mask.
    assert without_credentials(kept) == kept


@pytest.mark.parametrize("said", PLAIN_TURNS)
def test_chat_about_a_secret_is_kept_as_said(said: str) -> None:
    assert without_credentials(said) == said


async def test_a_stored_turn_holds_no_credential_and_no_search_finds_it(
    engine: MemoryEngine, clock: FakeClock
) -> None:
    turns = [past_turn(said, clock.advance(30) or clock(), author="alice") for said, _, _ in SECRET_TURNS]
    plain = [past_turn(said, clock.advance(30) or clock(), author="alice") for said in PLAIN_TURNS]
    ids = await engine.store_messages([*turns, *plain])
    assert len(ids) == len(turns) + len(plain)
    stored = {m.id: m.content for m in await engine.storage.turns.get_unscoped(ids)}
    assert [stored[t.id] for t in turns] == [kept for _, kept, _ in SECRET_TURNS]
    assert [stored[t.id] for t in plain] == PLAIN_TURNS
    for _, _, secret in SECRET_TURNS:
        found = await engine.search_messages(secret, audience(), limit=50, threshold=-1.0)
        assert not any(secret in m.content for m, _ in found), secret
        dense, lexical = await engine.storage.turns.hybrid_search(
            audience(), (await engine.embedder.embed([secret]))[0], secret, 50
        )
        hits = await engine.storage.turns.get_unscoped([h.id for h in [*dense, *lexical]])
        assert not any(secret in m.content for m in hits), secret


async def test_the_model_never_reads_a_credential_back_and_its_reply_is_stored_masked(
    pipeline: TurnPipeline, llm: ScriptedLLM, engine: MemoryEngine, clock: FakeClock
) -> None:
    """The turn itself is read from the store into the prompt, so the model gets it masked at once;
    the reply that repeats the secret is stored masked too; the next turn's history holds neither."""
    llm.add(text("Got it: coffee123. I won't keep it though."))
    first = await pipeline.handle([message("the wifi password: coffee123, tell the others", clock)])
    assert first.error is None and first.reply == "Got it: coffee123. I won't keep it though."
    llm.add(text("It's in the pinned message."))
    await pipeline.handle([message("what was the wifi password again?", clock)])
    for call in llm.calls:
        said = "\n".join([call.system, *(m.content or "" for m in call.messages)])
        assert "coffee123" not in said
    assert f"the wifi password: {REDACTED}, tell the others" in "\n".join(
        m.content or "" for m in llm.calls[0].messages
    )
    rows: list[StoredMessage] = await engine.storage.turns.recent(GENERAL, limit=10)
    assert [m.content for m in rows] == [
        f"the wifi password: {REDACTED}, tell the others",
        f"Got it: {REDACTED}. I won't keep it though.",
        "what was the wifi password again?",
        "It's in the pinned message.",
    ]
    assert not any(
        "coffee123" in m.content for m in await engine.list_memories(audience(), MemoryQuery(limit=50))
    )


async def test_the_tool_calls_kept_with_a_reply_hold_no_credential(
    pipeline: TurnPipeline, llm: ScriptedLLM, engine: MemoryEngine, clock: FakeClock
) -> None:
    """The model's `remember` call is refused; its logged arguments, stored with the reply, are masked."""
    llm.add(tool("remember", content="Alice's password is hunter2"), text("I won't keep passwords."))
    result = await pipeline.handle([message("remember that my password is hunter2", clock)])
    assert result.reply == "I won't keep passwords."
    rows = await engine.storage.turns.recent(GENERAL, limit=10)
    assert [m.content for m in rows] == [
        f"remember that my password is {REDACTED}",
        "I won't keep passwords.",
    ]
    logged = rows[-1].tool_calls
    assert [call["name"] for call in logged] == ["remember"]
    assert logged[0]["arguments"] == {"content": f"Alice's password is {REDACTED}"}
    assert "hunter2" not in json.dumps(logged)


async def _stored_as_older_versions_did(engine: MemoryEngine, clock: FakeClock) -> list[StoredMessage]:
    """Turns and summaries written straight to the storage, unmasked, as before turns were masked."""
    said = [
        past_turn("my password is hunter2", clock.advance(30) or clock(), author="alice"),
        # a reply within the hour: indexed under the turn before it too
        past_turn("ok, got it", clock.advance(30) or clock(), author="bob"),
        past_turn("the secret is out", clock.advance(30) or clock(), author="alice"),
    ]
    vectors = await engine.embedder.embed([message_embed_text(m) for m in said])
    texts = [message_search_text(m, said[n - 1] if n else None) for n, m in enumerate(said)]
    await engine.storage.turns.add(said, list(vectors), texts)
    first = said[0]
    for kind, level in ((SummaryKind.TURNS, 1), (SummaryKind.THREAD, 99)):
        summary = Summary(
            id=f"summary-{kind.value}",
            scope=first.scope,
            level=level,
            kind=kind,
            content="Alice: my password is hunter2",
            covers_from=first.created_at,
            covers_to=first.created_at,
            source_ids=[first.id],
            created_at=first.created_at,
        )
        if kind is SummaryKind.THREAD:
            await engine.storage.summaries.replace_thread(summary, None)
        else:
            await engine.storage.summaries.add(summary, (await engine.embedder.embed([summary.content]))[0])
    await engine.maintain()  # full-text indexes built, as a running bot's maintenance does
    return said


async def _found_by_word(engine: MemoryEngine, word: str) -> set[str]:
    vector = (await engine.embedder.embed([word]))[0]
    _, lexical = await engine.storage.turns.hybrid_search(audience(), vector, word, 50)
    return {hit.id for hit in lexical}


async def test_what_older_versions_stored_is_masked_once_and_indexed_again(
    engine: MemoryEngine, clock: FakeClock
) -> None:
    said = await _stored_as_older_versions_did(engine, clock)
    # The setup holds the leak: the secret is found in the turn and in the reply indexed after it.
    assert await _found_by_word(engine, "hunter2") == {said[0].id, said[1].id}

    counted = await engine.mask_stored_credentials(dry_run=True)
    assert counted.to_dict() == {"turns": 1, "summaries": 2}
    assert (await engine.storage.turns.get_unscoped([said[0].id]))[0].content == "my password is hunter2"

    masked = await engine.mask_stored_credentials()
    assert masked == counted
    stored = {m.id: m.content for m in await engine.storage.turns.get_unscoped([m.id for m in said])}
    assert stored == {
        said[0].id: f"my password is {REDACTED}",
        said[1].id: "ok, got it",
        said[2].id: "the secret is out",
    }
    summaries = await engine.storage.summaries.get_unscoped(["summary-turns", "summary-thread"])
    assert [s.content for s in summaries] == [f"Alice: my password is {REDACTED}"] * 2
    await engine.maintain()
    assert await _found_by_word(engine, "hunter2") == set()
    # Both turns are searchable again, each under its own words, with a vector.
    assert said[0].id in await _found_by_word(engine, "password")
    assert said[1].id in await _found_by_word(engine, "got")
    assert await engine.repair_messages() == 0
    found = await engine.search_messages("my password is", audience(), limit=5, threshold=-1.0)
    assert said[0].id in [m.id for m, _ in found]
    found_summaries = await engine.storage.summaries.search(
        audience(), (await engine.embedder.embed([f"Alice: my password is {REDACTED}"]))[0], 5, clock()
    )
    assert [s.id for s, _ in found_summaries][:1] == ["summary-turns"]
    # Nothing is left to mask.
    assert (await engine.mask_stored_credentials()).to_dict() == {"turns": 0, "summaries": 0}


async def test_a_masked_turn_keeps_its_audience(engine: MemoryEngine, clock: FakeClock) -> None:
    """The pass rewrites and indexes a private channel's turn again: still found in that channel,
    never in another one, by vector or by word."""
    secret = past_turn(
        "the vault pin is 4821, keep it quiet",
        clock.advance(30) or clock(),
        author="alice",
        channel="secret",
        visibility=Visibility.CHANNEL,
    )
    vectors = await engine.embedder.embed([message_embed_text(secret)])
    await engine.storage.turns.add([secret], list(vectors), [secret.content])
    assert (await engine.mask_stored_credentials()).turns == 1
    await engine.maintain()
    inside, outside = audience(channel="secret"), audience(viewer="bob", channel="general")
    found = await engine.search_messages("the vault pin keep it quiet", inside, limit=5, threshold=-1.0)
    assert [(m.id, m.content) for m, _ in found] == [
        (secret.id, f"the vault pin is {REDACTED}, keep it quiet")
    ]
    assert await engine.search_messages("the vault pin keep it quiet", outside, limit=5, threshold=-1.0) == []
    vector = (await engine.embedder.embed(["vault"]))[0]
    _, lexical = await engine.storage.turns.hybrid_search(outside, vector, "vault", 5)
    assert lexical == []
    _, lexical = await engine.storage.turns.hybrid_search(inside, vector, "vault", 5)
    assert [hit.id for hit in lexical] == [secret.id]
