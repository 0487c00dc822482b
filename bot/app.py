"""Builds the running bot from settings in one place: embedder, memory engine, model clients,
turn pipeline, metrics, each closed again by the one exit stack that opened it."""

from __future__ import annotations

import asyncio
import logging
from contextlib import AsyncExitStack
from dataclasses import dataclass, field

from memory.dedup import policy_for_model
from memory.embedders import CachedEmbedder, Embedder, LocalEmbedder, OpenAIEmbedder, warm_up
from memory.engine import MemoryEngine
from memory.errors import ConfigError

from .config import EmbeddingSettings, Settings
from .llm.factory import build_provider, build_summary_provider
from .llm.types import LLMProvider
from .metrics import Metrics
from .pipeline import TurnPipeline
from .process import freeze_startup_heap

log = logging.getLogger(__name__)


def build_embedder(settings: Settings) -> CachedEmbedder:
    """The configured embedder behind a content-hash cache."""
    config: EmbeddingSettings = settings.embedding
    inner: Embedder
    if config.provider == "openai":
        from openai import AsyncOpenAI

        key = settings.llm.openai_api_key
        if key is None and not settings.llm.openai_base_url:
            raise ConfigError("EMBEDDING_PROVIDER=openai needs OPENAI_API_KEY (or OPENAI_BASE_URL)")
        client = AsyncOpenAI(
            api_key=key.get_secret_value() if key else "not-needed",
            base_url=settings.llm.openai_base_url,
        )
        inner = OpenAIEmbedder(client, config.model or "text-embedding-3-small")
    else:
        inner = LocalEmbedder(config.model or "all-MiniLM-L6-v2")
    return CachedEmbedder(inner, max_entries=config.cache_size)


@dataclass(slots=True)
class App:
    """Everything a running bot holds, built in one place; `close()` releases it in reverse order."""

    settings: Settings
    engine: MemoryEngine
    pipeline: TurnPipeline
    llm: LLMProvider | None = None
    warming: asyncio.Task[None] | None = field(default=None, repr=False)
    summary_llm: LLMProvider | None = None
    metrics: Metrics = field(default_factory=Metrics)
    # Owns the lifetime of every resource opened by `start`: closing it closes them, last first.
    resources: AsyncExitStack = field(default_factory=AsyncExitStack, repr=False)

    @classmethod
    async def start(
        cls,
        settings: Settings,
        embedder: Embedder | None = None,
        llm: LLMProvider | None = None,
        with_llm: bool = True,
        warm: bool = True,
    ) -> App:
        """Open the stores and build the pipeline; `llm` overrides the configured provider.

        `with_llm=False` skips the model entirely (memory management commands need none);
        `warm=False` skips the background warm-up (model, search index) a long-running bot wants.
        Raises ConfigError when a provider is chosen without its key, before anything opens; if
        anything fails later, what was opened is closed again.
        """
        if llm is None and with_llm:
            llm = build_provider(settings.llm)
        summary_llm = build_summary_provider(settings.llm) if with_llm and llm is not None else None
        embedder = embedder or build_embedder(settings)
        metrics = Metrics()
        async with AsyncExitStack() as stack:
            for provider in (llm, summary_llm):
                if provider is not None:
                    stack.push_async_callback(provider.aclose)
            engine = await MemoryEngine.open(
                settings.storage.location,
                embedder,
                policy=policy_for_model(embedder.name, settings.memory.dedup_threshold),
                search_index_rows=settings.storage.search_index_rows,
            )
            stack.push_async_callback(engine.close)
            swept = await engine.sweep_expired()
            if swept:
                log.info("expired memories removed at start-up", extra={"count": swept})
            pipeline = TurnPipeline(
                engine,
                settings,
                llm=llm,
                tz=settings.memory.zone,
                summary_llm=summary_llm,
                # Every background model call shows in /metrics as well as in its log line.
                on_background_call=lambda purpose: metrics.background_model_calls.labels(purpose).inc(),
            )
            stack.push_async_callback(pipeline.aclose)
            # Several processes may share one database: what the others write or forget reaches
            # this one's RAM copies (nothing to hear with the embedded backend).
            await engine.handover.watch(pipeline.on_change)
            # Summaries keep a row unindexed when their vector write fails (or the process died
            # between the two); the engine's own reconcile does not cover their table.
            await pipeline.summaries.reconcile()
            app = cls(settings, engine, pipeline, llm, summary_llm=summary_llm, metrics=metrics)
            app.resources = stack.pop_all()
        if llm is not None:
            log.info("language model ready", extra={"provider": llm.name, "model": llm.model})
        else:
            log.info("no language model configured: offline responder")
        if warm:
            app.warming = asyncio.get_running_loop().create_task(app._warm())
        return app

    async def _warm(self) -> None:
        """In the background: load the embedding model and the search index, then freeze the heap.

        Turns are served meanwhile; they load what they need themselves, only slower.
        """
        try:
            await warm_up(self.engine.embedder)
            rows = await self.engine.warm_search()
            log.info("search index loaded", extra={"rows": rows})
        except Exception:
            log.warning("warm-up failed; the first turns load what they need", exc_info=True)
        freeze_startup_heap()

    async def close(self) -> None:
        """Stop the warm-up, then close the pipeline, the stores and the model clients."""
        if self.warming is not None and not self.warming.done():
            self.warming.cancel()
            await asyncio.gather(self.warming, return_exceptions=True)
        await self.resources.aclose()
