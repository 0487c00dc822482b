"""Prometheus metrics of the bot, in a registry of its own (never the process-global one)."""

from __future__ import annotations

from collections.abc import Callable

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest
from prometheus_client.exposition import CONTENT_TYPE_LATEST

from adapters.base import Adapter

CONTENT_TYPE = CONTENT_TYPE_LATEST

# Turns include a model call: seconds to a minute. Pre-hook stages are milliseconds.
_TURN_BUCKETS = (0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 20.0, 30.0, 60.0, 120.0)
_STAGE_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)


class Metrics:
    """Every counter, histogram and gauge the bot exports; `render()` gives the scrape body.

    Its own `CollectorRegistry` keeps tests independent (each builds a fresh `Metrics`) and keeps
    library metrics of the default registry out of the output.
    """

    def __init__(self, namespace: str = "memorybot") -> None:
        self.registry = CollectorRegistry(auto_describe=True)
        ns, reg = namespace, self.registry
        self.messages_received = Counter(
            "messages_received_total",
            "Platform messages accepted for a turn",
            ["platform"],
            namespace=ns,
            registry=reg,
        )
        self.replies_sent = Counter(
            "replies_sent_total",
            "Replies posted back to a platform",
            ["platform"],
            namespace=ns,
            registry=reg,
        )
        self.turns = Counter(
            "turns_total",
            "Batches handled by the turn pipeline, by outcome (replied, silent, learned, error)",
            ["platform", "outcome"],
            namespace=ns,
            registry=reg,
        )
        self.turn_seconds = Histogram(
            "turn_seconds",
            "Wall time of one turn, from batch hand-off to reply posted",
            ["platform"],
            buckets=_TURN_BUCKETS,
            namespace=ns,
            registry=reg,
        )
        self.prehook_stage_seconds = Histogram(
            "prehook_stage_seconds",
            "Wall time of one pre-hook stage",
            ["stage"],
            buckets=_STAGE_BUCKETS,
            namespace=ns,
            registry=reg,
        )
        self.llm_errors = Counter(
            "llm_errors_total", "Language model calls that failed", ["provider"], namespace=ns, registry=reg
        )
        self.memories_written = Counter(
            "memories_written_total",
            "Memories stored, by source (conversation, chat, heuristic, ...)",
            ["source"],
            namespace=ns,
            registry=reg,
        )
        self.background_model_calls = Counter(
            "background_model_calls_total",
            "Model calls made off the reply path (summaries), each charged to a message",
            ["purpose"],
            namespace=ns,
            registry=reg,
        )
        self.commands = Counter(
            "commands_total", "/memory subcommands run", ["platform", "command"], namespace=ns, registry=reg
        )
        self.events_deduplicated = Counter(
            "events_deduplicated_total",
            "Platform events dropped as redeliveries or double deliveries",
            ["platform"],
            namespace=ns,
            registry=reg,
        )
        # Labelled by platform so the Discord and Slack coalescers do not overwrite each other.
        self.coalescer_pending = Gauge(
            "coalescer_pending",
            "Messages waiting in a coalescer for their batch",
            ["platform"],
            namespace=ns,
            registry=reg,
        )
        self.adapter_ready = Gauge(
            "adapter_ready",
            "1 while the adapter is connected and able to answer",
            ["adapter"],
            namespace=ns,
            registry=reg,
        )

    # --- helpers the adapters and the pipeline call ----------------------------------------------

    def observe_turn(self, platform: str, outcome: str, seconds: float) -> None:
        """Count one turn and record how long it took."""
        self.turns.labels(platform, outcome).inc()
        self.turn_seconds.labels(platform).observe(max(0.0, seconds))

    def track_pending(self, platform: str, pending: Callable[[], int | float]) -> None:
        """Read a coalescer's pending count at scrape time instead of updating it on every message."""
        self.coalescer_pending.labels(platform).set_function(lambda: float(pending()))

    def track_adapter(self, adapter: Adapter) -> None:
        """Export `adapter.ready` as 0/1, read at scrape time."""
        self.adapter_ready.labels(adapter.name).set_function(lambda: 1.0 if adapter.ready else 0.0)

    def render(self) -> bytes:
        """The registry in the Prometheus text exposition format (`CONTENT_TYPE`)."""
        return generate_latest(self.registry)
