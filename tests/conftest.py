"""Fixtures any test may ask for: a clock, an embedder, an engine on a tmp dir, a scripted pipeline, fakes.

The embedder is the deterministic `HashEmbedder` (hashed words: texts that share words are close),
so most tests start in no time. A test whose assertions need the real model's sense of meaning
(all-MiniLM-L6-v2: paraphrases found, near-duplicates merged) is marked `@pytest.mark.model`:
`embedder` and `engine` then give it the real model, loaded once per session. `pytest -m "not model"`
runs everything else.

The engine writes through SQLite (`synchronous=FULL`) and LanceDB, which sync every commit to disk;
on a RAM-backed file system that costs nothing, which halves the suite's time. So where /dev/shm
exists and TMPDIR is not set, `tmp_path` (and every child process's temporary files) live there.
"""

from __future__ import annotations

import asyncio
import gc
import os
import shutil
import tempfile
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from hypothesis import settings

if TYPE_CHECKING:
    from bot.llm.fake import ScriptedLLM
    from bot.pipeline import TurnPipeline
    from memory.embedders import CachedEmbedder, LocalEmbedder
    from memory.engine import MemoryEngine
    from memory.prehook import PreHook
    from tests.fakes.llm_server import FakeLLMServer
    from tests.fakes.postgres import PostgresTestServer
    from tests.helpers import FakeClock

# The project is imported by the processes that run tests, not here: under pytest-xdist the
# controller only hands tests out, and importing the bot (LanceDB, the model SDKs) would cost it
# seconds before its workers start. Each fixture imports what it needs.
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
# Property tests draw new examples on every run, so a developer's runs keep exploring. CI sets
# HYPOTHESIS_PROFILE=ci: the same examples every run, so that a landing is not decided by the
# luck of the draw (an example that fails is then found by a developer's run, and kept as a test).
settings.register_profile("ci", derandomize=True)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))
if "TMPDIR" not in os.environ and os.path.isdir("/dev/shm") and os.access("/dev/shm", os.W_OK):
    os.environ["TMPDIR"] = "/dev/shm"
    tempfile.tempdir = None  # gettempdir() reads TMPDIR again


def _runs_tests(config: pytest.Config) -> bool:
    """False for the pytest-xdist controller, which runs no test itself."""
    return hasattr(config, "workerinput") or getattr(config.option, "dist", "no") == "no"


def pytest_configure(config: pytest.Config) -> None:
    """The tests build their settings from an empty environment: a developer's shell that points
    the bot at a database (MEMORYBOT_DATABASE_URL), a platform or a model must not reach them."""
    if not _runs_tests(config):
        return
    # Collection imports the bot, LanceDB and the SDKs and rewrites the asserts of every test
    # module: with the collector on, each full collection walks that growing heap again, a third
    # of what collecting costs. Nearly all of it lives as long as the process, so the collector
    # waits until it is frozen (`pytest_collection_finish`).
    gc.disable()
    from bot.config import environment_variables

    for name in environment_variables():
        os.environ.pop(name, None)


def pytest_collection_finish(session: pytest.Session) -> None:
    """What collection imported (the bot, LanceDB, the SDKs: most of the heap) lives as long as
    the process: frozen, the collector stops walking it on every full collection."""
    gc.freeze()
    gc.enable()


# Fixtures that start or hand out the session's PostgreSQL test server.
_POSTGRES_FIXTURES = frozenset({"postgres_server", "postgres_url"})


def needs_postgres(item: pytest.Item) -> bool:
    """Whether a test runs on the PostgreSQL test server: its `backend` is "postgres", or it asks
    for the server's fixtures (directly, or through its own fixtures)."""
    callspec = getattr(item, "callspec", None)
    if callspec is not None and callspec.params.get("backend") == "postgres":
        return True
    return bool(_POSTGRES_FIXTURES & set(getattr(item, "fixturenames", ())))


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Tests on the PostgreSQL test server get the `postgres` marker. A test that asks for the real
    model, directly or through its fixtures, must say so."""
    for item in items:
        if needs_postgres(item):
            item.add_marker(pytest.mark.postgres)
    unmarked = [
        item.nodeid
        for item in items
        if "local_embedder" in getattr(item, "fixturenames", ()) and item.get_closest_marker("model") is None
    ]
    if unmarked:
        raise pytest.UsageError(
            "these tests load the real model (local_embedder) without @pytest.mark.model:\n  "
            + "\n  ".join(unmarked)
        )


@pytest.fixture(scope="session")
def local_embedder() -> LocalEmbedder:
    """The real all-MiniLM-L6-v2, shared by every test that carries the `model` marker."""
    from memory.embedders import LocalEmbedder

    return LocalEmbedder()


@pytest.fixture
def embedder(request: pytest.FixtureRequest) -> CachedEmbedder:
    """The hash embedder, or the real model for a test marked `model`; cached as the bot caches it."""
    from memory.embedders import CachedEmbedder
    from tests.fakes.embedders import HashEmbedder

    if request.node.get_closest_marker("model") is not None:
        return CachedEmbedder(request.getfixturevalue("local_embedder"))
    return CachedEmbedder(HashEmbedder())


@pytest.fixture
def clock() -> FakeClock:
    from tests.helpers import FakeClock

    return FakeClock()


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """A module naming `STORAGE_BACKENDS` runs each of its tests that uses `backend` (through
    `engine` or `storage_location`) once per backend listed; a test marked `embedded_only` (it
    reads the SQLite file or the LanceDB tables itself) runs on the embedded backend alone."""
    backends = list(getattr(metafunc.module, "STORAGE_BACKENDS", ()))
    if backends and "backend" in metafunc.fixturenames:
        if metafunc.definition.get_closest_marker("embedded_only") is not None:
            backends = [b for b in backends if b == "embedded"]
        metafunc.parametrize("backend", backends, indirect=True)


@pytest.fixture
def backend(request: pytest.FixtureRequest) -> str:
    """The storage backend under test: "embedded" unless the module asks for more (`STORAGE_BACKENDS`)."""
    return str(getattr(request, "param", "embedded"))


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[PostgresTestServer]:
    """One embedded PostgreSQL with pgvector for the session (each pytest-xdist worker starts its
    own, in its own directory, on its own socket); fails (never skips) if it cannot start."""
    from tests.fakes.postgres import PostgresTestServer

    server = PostgresTestServer()
    yield server
    server.stop()


@pytest.fixture
def postgres_url(postgres_server: PostgresTestServer) -> str:
    """The URL of an empty database of `postgres_server`, migrated for 384 dimensions: the session's
    one test database, emptied for this test (see tests/fakes/postgres.py)."""
    return postgres_server.url(postgres_server.reset())


@pytest.fixture(scope="session")
def empty_data_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An embedded data directory as the first open leaves it (SQLite schema, LanceDB tables and
    their full-text indexes, for 384 dimensions): a copy opens faster than a new one is made."""
    from memory.engine import MemoryEngine
    from tests.fakes.embedders import HashEmbedder
    from tests.fakes.postgres import TEMPLATE_DIM

    path = tmp_path_factory.mktemp("empty-store") / "data"

    async def make() -> None:
        engine = await MemoryEngine.open(path, HashEmbedder(TEMPLATE_DIM))
        await engine.close()

    asyncio.run(make())
    return path


@pytest.fixture
def storage_location(backend: str, tmp_path: Path, request: pytest.FixtureRequest) -> str | Path:
    """Where `engine` keeps its data: tmp_path/data (embedded: a copy of `empty_data_dir`) or the
    emptied PostgreSQL test database."""
    if backend == "postgres":
        return str(request.getfixturevalue("postgres_url"))
    return shutil.copytree(request.getfixturevalue("empty_data_dir"), tmp_path / "data")


@pytest.fixture
async def engine(
    storage_location: str | Path, embedder: CachedEmbedder, clock: FakeClock
) -> AsyncIterator[MemoryEngine]:
    """A memory engine on the fake clock: real SQLite and LanceDB files under tmp_path/data, or
    (`backend` "postgres") a fresh database of the session's PostgreSQL."""
    from memory.engine import MemoryEngine

    eng = await MemoryEngine.open(storage_location, embedder, clock=clock)
    yield eng
    await eng.close()


@pytest.fixture
async def hook(engine: MemoryEngine, clock: FakeClock) -> AsyncIterator[PreHook]:
    """The pre-hook on `engine` with the default configuration, closed after the test."""
    from memory.prehook import PreHook, PrehookConfig

    prehook = PreHook(engine, PrehookConfig(), clock=clock)
    yield prehook
    await prehook.aclose()


@pytest.fixture
def llm() -> ScriptedLLM:
    """A model that answers what the test queues with `llm.add(...)`, and records every call."""
    from bot.llm.fake import ScriptedLLM

    return ScriptedLLM()


@pytest.fixture
async def pipeline(engine: MemoryEngine, llm: ScriptedLLM, tmp_path: Path) -> AsyncIterator[TurnPipeline]:
    """The turn pipeline on `engine` and the scripted `llm`. Summaries stay extractive, so the
    scripted queue only answers the turns themselves."""
    from bot.pipeline import TurnPipeline
    from memory.summarizer import ExtractiveSummarizer
    from tests.helpers import settings

    p = TurnPipeline(engine, settings(tmp_path), llm=llm, summarizer=ExtractiveSummarizer())
    yield p
    await p.aclose()


@pytest.fixture
async def llm_server() -> AsyncIterator[FakeLLMServer]:
    """A local fake of the Anthropic and OpenAI APIs for the real SDKs."""
    from tests.fakes.llm_server import FakeLLMServer

    async with FakeLLMServer() as server:
        yield server
