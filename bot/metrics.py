"""Prometheus metrics of the bot, in a registry of its own (never the process-global one)."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from functools import partial
from typing import TYPE_CHECKING, Protocol

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest
from prometheus_client.core import CounterMetricFamily, Metric
from prometheus_client.exposition import CONTENT_TYPE_LATEST
from prometheus_client.registry import Collector

from adapters.base import Adapter

if TYPE_CHECKING:
    # Typing only: importing the providers' package would load both model SDKs.
    from .llm.usage import LLMUsage

CONTENT_TYPE = CONTENT_TYPE_LATEST

# Turns include a model call: seconds to a minute. Pre-hook stages are milliseconds.
_TURN_BUCKETS = (0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 20.0, 30.0, 60.0, 120.0)
_STAGE_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)
# At most `max_injection_count` (40 by default) items and a 1,200-token budget per block.
_ITEM_BUCKETS = (0, 1, 2, 3, 5, 8, 12, 16, 20, 30, 50)
_TOKEN_BUCKETS = (0, 50, 100, 250, 500, 750, 1000, 1500, 2000, 3000, 5000)
# Coalesced bursts: one message usually, a handful when people type fast.
_BATCH_BUCKETS = (1, 2, 3, 4, 5, 8, 12, 20, 50)


class HitCounts(Protocol):
    """A cache that counts its own lookups (the embedding and preferences caches do)."""

    hits: int
    misses: int


class _Tracked(Collector):
    """Counters kept by plain objects (caches, model usage, the write path), read at scrape time.

    Those objects know nothing of Prometheus; reading them here, instead of copying deltas after
    each turn, also catches what happens off the reply path (background summaries, episodes).
    """

    def __init__(self, namespace: str) -> None:
        self.ns = namespace
        self.caches: dict[str, HitCounts] = {}
        self.usages: list[LLMUsage] = []
        self.writes: list[Mapping[tuple[str, str], int]] = []

    def _families(self) -> dict[str, CounterMetricFamily]:
        ns = self.ns
        return {
            "hits": CounterMetricFamily(f"{ns}_cache_hits_total", "Cache lookups answered", labels=["cache"]),
            "misses": CounterMetricFamily(
                f"{ns}_cache_misses_total", "Cache lookups that had to compute or load", labels=["cache"]
            ),
            "calls": CounterMetricFamily(
                f"{ns}_llm_calls_total",
                "Language model calls, by purpose (reply, turn_summary, ...) and outcome (ok, error)",
                labels=["provider", "purpose", "outcome"],
            ),
            "tokens": CounterMetricFamily(
                f"{ns}_llm_tokens_total",
                "Tokens the provider reported, by direction (input, output)",
                labels=["provider", "purpose", "direction"],
            ),
            "writes": CounterMetricFamily(
                f"{ns}_memories_written_total",
                "Memories stored (inserted, superseding an older one, or imported), by type and source",
                labels=["kind", "source"],
            ),
        }

    def describe(self) -> Iterator[Metric]:
        # Names only, so registering does not read the tracked objects.
        return iter(self._families().values())

    def collect(self) -> Iterator[Metric]:
        families = self._families()
        for name, cache in sorted(self.caches.items()):
            families["hits"].add_metric([name], cache.hits)
            families["misses"].add_metric([name], cache.misses)
        calls: dict[tuple[str, str, str], int] = {}
        tokens: dict[tuple[str, str, str], int] = {}
        for usage in self.usages:
            for (provider, purpose), counts in usage.snapshot().items():
                for key, value in (
                    ((provider, purpose, "ok"), counts.calls - counts.errors),
                    ((provider, purpose, "error"), counts.errors),
                ):
                    calls[key] = calls.get(key, 0) + value
                for key, value in (
                    ((provider, purpose, "input"), counts.input_tokens),
                    ((provider, purpose, "output"), counts.output_tokens),
                ):
                    tokens[key] = tokens.get(key, 0) + value
        for key, value in sorted(calls.items()):
            families["calls"].add_metric(list(key), value)
        for key, value in sorted(tokens.items()):
            families["tokens"].add_metric(list(key), value)
        written: dict[tuple[str, str], int] = {}
        for writes in self.writes:
            for key, value in list(writes.items()):
                written[key] = written.get(key, 0) + value
        for key, value in sorted(written.items()):
            families["writes"].add_metric(list(key), value)
        return iter(families.values())


class Metrics:
    """Every counter, histogram and gauge the bot exports; `render()` gives the scrape body.

    Its own `CollectorRegistry` keeps tests independent (each builds a fresh `Metrics`) and keeps
    library metrics of the default registry out of the output.
    """

    def __init__(self, namespace: str = "memorybot") -> None:
        self.registry = CollectorRegistry(auto_describe=True)
        ns, reg = namespace, self.registry
        # Every metric is named under `namespace` and registered in this registry only.
        counter = partial(Counter, namespace=ns, registry=reg)
        histogram = partial(Histogram, namespace=ns, registry=reg)
        gauge = partial(Gauge, namespace=ns, registry=reg)
        self.messages_received = counter(
            "messages_received_total", "Platform messages accepted for a turn", ["platform"]
        )
        self.replies_sent = counter("replies_sent_total", "Replies posted back to a platform", ["platform"])
        self.turns = counter(
            "turns_total",
            "Batches handled by the turn pipeline, by outcome (replied, silent, learned, error)",
            ["platform", "outcome"],
        )
        self.turn_seconds = histogram(
            "turn_seconds",
            "Wall time of one turn, from batch hand-off to reply posted",
            ["platform"],
            buckets=_TURN_BUCKETS,
        )
        self.prehook_seconds = histogram(
            "prehook_seconds",
            "Wall time of one pre-hook run, from embedding the batch to the formatted block",
            buckets=_STAGE_BUCKETS,
        )
        self.prehook_stage_seconds = histogram(
            "prehook_stage_seconds",
            "Wall time of one pre-hook stage (sql and vector run side by side)",
            ["stage"],
            buckets=_STAGE_BUCKETS,
        )
        self.injected_items = histogram(
            "injected_items",
            "Items (memories, past turns, summaries) in the context block of one turn",
            buckets=_ITEM_BUCKETS,
        )
        self.injected_tokens = histogram(
            "injected_tokens", "Estimated tokens of the context block of one turn", buckets=_TOKEN_BUCKETS
        )
        self.injected = counter(
            "injected_total",
            "Items injected into context blocks, by kind (memory, message, summary)",
            ["kind"],
        )
        self.batch_messages = histogram(
            "coalesced_batch_messages",
            "Messages in one batch handed to the turn pipeline",
            ["platform"],
            buckets=_BATCH_BUCKETS,
        )
        self.llm_errors = counter(
            "llm_errors_total",
            "Turns whose reply failed because the language model call failed",
            ["provider"],
        )
        # Cache hits, model calls and tokens, memory writes: read from the objects that count them.
        self._tracked = _Tracked(ns)
        reg.register(self._tracked)
        self.background_model_calls = counter(
            "background_model_calls_total",
            "Model calls made off the reply path (summaries), each charged to a message",
            ["purpose"],
        )
        self.commands = counter("commands_total", "/memory subcommands run", ["platform", "command"])
        self.events_deduplicated = counter(
            "events_deduplicated_total",
            "Platform events dropped as redeliveries or double deliveries",
            ["platform"],
        )
        # Labelled by platform so the Discord and Slack coalescers do not overwrite each other.
        self.coalescer_pending = gauge(
            "coalescer_pending", "Messages waiting in a coalescer for their batch", ["platform"]
        )
        self.adapter_ready = gauge(
            "adapter_ready", "1 while the adapter is connected and able to answer", ["adapter"]
        )

    # --- helpers the adapters and the pipeline call ----------------------------------------------

    def observe_turn(self, platform: str, outcome: str, seconds: float) -> None:
        """Count one turn and record how long it took."""
        self.turns.labels(platform, outcome).inc()
        self.turn_seconds.labels(platform).observe(max(0.0, seconds))

    def track_pending(self, platform: str, pending: Callable[[], int | float]) -> None:
        """Read a coalescer's pending count at scrape time instead of updating it on every message."""
        self.coalescer_pending.labels(platform).set_function(lambda: float(pending()))

    def track_cache(self, cache: str, counts: HitCounts) -> None:
        """Export `counts.hits` / `counts.misses` under `cache=<cache>`; a later call replaces it."""
        self._tracked.caches[cache] = counts

    def track_llm_usage(self, usage: LLMUsage) -> None:
        """Export model calls and tokens tallied in `usage` (several usages are summed)."""
        if not any(u is usage for u in self._tracked.usages):
            self._tracked.usages.append(usage)

    def track_memory_writes(self, writes: Mapping[tuple[str, str], int]) -> None:
        """Export memory writes counted by (memory_type, source), e.g. `MemoryEngine.writes`."""
        if not any(w is writes for w in self._tracked.writes):
            self._tracked.writes.append(writes)

    def track_adapter(self, adapter: Adapter) -> None:
        """Export `adapter.ready` as 0/1, read at scrape time."""
        self.adapter_ready.labels(adapter.name).set_function(lambda: 1.0 if adapter.ready else 0.0)

    def render(self) -> bytes:
        """The registry in the Prometheus text exposition format (`CONTENT_TYPE`)."""
        return generate_latest(self.registry)
