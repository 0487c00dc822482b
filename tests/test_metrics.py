"""/metrics after real turns: injection, batch sizes, caches, model calls and tokens, memory writes."""

from __future__ import annotations

from pathlib import Path

import pytest
from prometheus_client.parser import text_string_to_metric_families

from bot.app import App
from bot.llm import AnthropicProvider, LLMProvider, OpenAIProvider
from bot.llm.fake import ScriptedLLM, text
from bot.llm.usage import CountingProvider, LLMUsage, counted, current_purpose, llm_purpose
from bot.metrics import Metrics
from bot.pipeline import APOLOGY, TurnPipeline
from bot.runner import metered_turn
from memory.embedders import CachedEmbedder
from memory.engine import MemoryEngine
from memory.errors import LLMError
from memory.models import MemoryDraft, MemoryType, Scope
from memory.summarizer import ExtractiveSummarizer
from tests.fakes.llm_server import FakeLLMServer, anthropic_text, error, ok, openai_text
from tests.helpers import ana_says, settings

SCOPE = Scope("slack", "T1", "C1", "default")


def samples(body: str) -> dict[tuple[str, frozenset[tuple[str, str]]], float]:
    """Every sample of a scrape body, keyed by (sample name, labels)."""
    return {
        (s.name, frozenset(s.labels.items())): s.value
        for family in text_string_to_metric_families(body)
        for s in family.samples
    }


def value(body: str, name: str, **labels: str) -> float | None:
    return samples(body).get((name, frozenset(labels.items())))


def names(body: str) -> set[str]:
    return {name for name, _ in samples(body)}


async def test_turns_fill_injection_batch_cache_model_and_write_series(
    tmp_path: Path, embedder: CachedEmbedder
) -> None:
    # Each turn makes exactly one model call, its reply: its summaries cost none.
    llm = ScriptedLLM([text("Genmaicha, I believe.", input_tokens=120, output_tokens=7)])
    app = await App.start(settings(tmp_path, llm={"max_background_calls": 1}), embedder=embedder, llm=llm)
    try:
        seeded = await app.engine.remember(
            MemoryDraft(
                "Ana's favourite tea is genmaicha",
                SCOPE,
                memory_type=MemoryType.PREFERENCE,
                subjects=["ana", "tea"],
                user_id="U1",
                author_id="U1",
            )
        )
        metrics = Metrics()
        turn = metered_turn(app.pipeline, metrics)

        reply = await turn([ana_says("Hi, I work as a nurse"), ana_says("Which tea do I like again?")], True)
        assert reply == "Genmaicha, I believe."
        await app.pipeline.idle()
        # The seeded preference reached the model: the pre-hook injected it.
        assert any(seeded.memory.content in m.content for m in llm.calls[0].messages)
        first = metrics.render().decode()

        llm.add(text("Still genmaicha.", input_tokens=80, output_tokens=5))
        assert await turn([ana_says("Which tea do I like again?")], True) == "Still genmaicha."
        await app.pipeline.idle()
        body = metrics.render().decode()
    finally:
        await app.close()

    # Batches: one of two messages, one of one.
    assert value(body, "memorybot_coalesced_batch_messages_count", platform="slack") == 2
    assert value(body, "memorybot_coalesced_batch_messages_sum", platform="slack") == 3
    assert value(body, "memorybot_coalesced_batch_messages_bucket", platform="slack", le="1.0") == 1

    # Pre-hook: a run histogram of its own beside the stages, and what each turn injected.
    assert value(body, "memorybot_prehook_seconds_count") == 2
    assert value(body, "memorybot_prehook_stage_seconds_count", stage="embed") == 2
    assert value(body, "memorybot_prehook_stage_seconds_count", stage="total") is None
    assert value(first, "memorybot_injected_items_count") == 1
    assert (value(first, "memorybot_injected_items_sum") or 0) >= 1
    assert (value(first, "memorybot_injected_total", kind="memory") or 0) >= 1
    assert (value(first, "memorybot_injected_tokens_sum") or 0) > 0
    assert value(body, "memorybot_injected_items_count") == 2
    assert value(body, "memorybot_injected_tokens_count") == 2

    # Embedding cache: the repeated text is served from the cache; the series are the cache's own counts.
    assert value(body, "memorybot_cache_hits_total", cache="embedding") == embedder.hits
    assert value(body, "memorybot_cache_misses_total", cache="embedding") == embedder.misses
    hits_first = value(first, "memorybot_cache_hits_total", cache="embedding") or 0
    # The repeated message was embedded when first stored: storing it again is a cache hit.
    assert embedder.hits > hits_first
    # Preferences cache: loaded for Ana in the first turn, served from the cache in the second.
    assert value(first, "memorybot_cache_misses_total", cache="preferences") == 1
    assert value(first, "memorybot_cache_hits_total", cache="preferences") == 0
    assert value(body, "memorybot_cache_misses_total", cache="preferences") == 1
    assert value(body, "memorybot_cache_hits_total", cache="preferences") == 1

    # Model calls and tokens, by purpose, from the scripted usage.
    calls = "memorybot_llm_calls_total"
    assert value(body, calls, provider="fake", purpose="reply", outcome="ok") == 2
    assert value(body, calls, provider="fake", purpose="reply", outcome="error") == 0
    assert value(body, calls, provider="fake", purpose="turn_summary", outcome="ok") is None
    assert len(llm.calls) == 2
    tokens = "memorybot_llm_tokens_total"
    assert value(body, tokens, provider="fake", purpose="reply", direction="input") == 200
    assert value(body, tokens, provider="fake", purpose="reply", direction="output") == 12

    # Memory writes by kind and source: the seeded preference and what the turns learned.
    written = "memorybot_memories_written_total"
    assert value(body, written, kind="preference", source="conversation") == 1
    assert value(body, written, kind="identity", source="heuristic") == 1
    exported = {
        (dict(labels)["kind"], dict(labels)["source"]): v
        for (name, labels), v in samples(body).items()
        if name == written
    }
    assert exported == dict(app.engine.writes)


@pytest.mark.parametrize("api", ["anthropic", "openai"])
async def test_sdk_usage_is_counted_by_provider(
    api: str, llm_server: FakeLLMServer, engine: MemoryEngine, tmp_path: Path
) -> None:
    provider: LLMProvider
    if api == "anthropic":
        reply = anthropic_text("Hello Ana!", input_tokens=25, output_tokens=9)
        # Prompt caching reports the cached part apart from `input_tokens`; all of it was read.
        reply["usage"]["cache_creation_input_tokens"] = 3
        reply["usage"]["cache_read_input_tokens"] = 100
        llm_server.queue_anthropic(ok(reply), error(500))
        provider = AnthropicProvider("sk-ant-test", base_url=llm_server.anthropic_base_url, max_retries=0)
        expected_input, expected_output = 128, 9
    else:
        llm_server.queue_openai(
            ok(openai_text("Hello Ana!", prompt_tokens=21, completion_tokens=7)), error(500, "openai")
        )
        provider = OpenAIProvider("sk-test", base_url=llm_server.openai_base_url, max_retries=0)
        expected_input, expected_output = 21, 7
    pipeline = TurnPipeline(engine, settings(tmp_path), llm=provider, summarizer=ExtractiveSummarizer())
    metrics = Metrics()
    turn = metered_turn(pipeline, metrics)
    try:
        assert await turn([ana_says("hello there")], True) == "Hello Ana!"
        assert await turn([ana_says("are you still there?")], True) == APOLOGY
        await pipeline.idle()
    finally:
        await pipeline.aclose()
        await provider.aclose()
    body = metrics.render().decode()
    tokens = "memorybot_llm_tokens_total"
    assert value(body, tokens, provider=api, purpose="reply", direction="input") == expected_input
    assert value(body, tokens, provider=api, purpose="reply", direction="output") == expected_output
    calls = "memorybot_llm_calls_total"
    assert value(body, calls, provider=api, purpose="reply", outcome="ok") == 1
    assert value(body, calls, provider=api, purpose="reply", outcome="error") == 1
    assert value(body, "memorybot_llm_errors_total", provider=api) == 1
    assert value(body, "memorybot_turns_total", platform="slack", outcome="model_error") == 1


async def test_offline_turns_report_no_model_usage(tmp_path: Path, embedder: CachedEmbedder) -> None:
    app = await App.start(settings(tmp_path), embedder=embedder, with_llm=False)
    try:
        metrics = Metrics()
        reply = await metered_turn(app.pipeline, metrics)([ana_says("I'm Ana and I love genmaicha")], True)
        assert reply
        await app.pipeline.idle()
        body = metrics.render().decode()
    finally:
        await app.close()
    assert app.pipeline.llm_usage.snapshot() == {}
    assert "memorybot_llm_calls_total" not in names(body)
    assert "memorybot_llm_tokens_total" not in names(body)
    assert value(body, "memorybot_turns_total", platform="slack", outcome="replied") == 1
    assert (value(body, "memorybot_memories_written_total", kind="preference", source="heuristic") or 0) >= 1


async def test_counting_provider_passes_through_and_labels_by_purpose() -> None:
    scripted = ScriptedLLM(
        [text("a", input_tokens=3, output_tokens=1), text("b", output_tokens=2), LLMError("down")]
    )
    usage = LLMUsage()
    wrapped = counted(scripted, usage)
    assert (wrapped.name, wrapped.model) == ("fake", "scripted")
    assert counted(wrapped, usage).inner is scripted  # never wrapped twice
    assert current_purpose() == "other"
    assert (await wrapped.complete("", [])).text == "a"
    with llm_purpose("turn_summary"):
        assert current_purpose() == "turn_summary"
        assert (await wrapped.complete("", [])).text == "b"
        with pytest.raises(LLMError):
            await wrapped.complete("", [])
    assert current_purpose() == "other"
    # Attributes of the wrapped provider stay reachable (the scripted queue, for instance).
    assert isinstance(wrapped, CountingProvider) and wrapped.remaining == 0
    counts = usage.snapshot()
    assert (counts[("fake", "other")].calls, counts[("fake", "other")].input_tokens) == (1, 3)
    summary = counts[("fake", "turn_summary")]
    assert (summary.calls, summary.errors, summary.output_tokens) == (2, 1, 2)
    await wrapped.aclose()
    assert scripted.closed


def test_tracked_sources_are_summed_and_not_doubled() -> None:
    metrics = Metrics()
    usage = LLMUsage()
    usage.record_error("anthropic", "reply")
    metrics.track_llm_usage(usage)
    metrics.track_llm_usage(usage)  # a second metered_turn on the same pipeline
    writes = {("fact", "chat"): 2}
    metrics.track_memory_writes(writes)
    metrics.track_memory_writes(writes)
    metrics.track_memory_writes({("fact", "chat"): 1})  # another engine
    body = metrics.render().decode()
    assert (
        value(body, "memorybot_llm_calls_total", provider="anthropic", purpose="reply", outcome="error") == 1
    )
    assert value(body, "memorybot_memories_written_total", kind="fact", source="chat") == 3
