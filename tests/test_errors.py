"""The one error tree: every deliberate error is a MemorybotError, refused input is told apart from
a bug by type, and the tree drawn in memory/errors.py is the tree in the code."""

from __future__ import annotations

import inspect
import logging
import re
from pathlib import Path

import pytest

from adapters.base import IncomingMessage
from bot.config import Settings
from bot.llm.fake import ScriptedLLM, text
from bot.pipeline import TurnPipeline
from memory import errors
from memory.engine import MemoryEngine
from memory.errors import InvalidInput, InvalidMemory, MemorybotError
from memory.models import MemoryDraft, Scope
from memory.summarizer import ExtractiveSummarizer

CLASSES = [cls for _, cls in inspect.getmembers(errors, inspect.isclass) if cls.__module__ == errors.__name__]


def test_every_error_is_a_memorybot_error_and_the_docstring_draws_each_one_under_its_parent() -> None:
    assert len(CLASSES) >= 14
    drawing = errors.__doc__ or ""
    depth: dict[str, int] = {}
    for line in drawing.splitlines():
        match = re.match(r"^(\s*(?:[│├└]\S*\s*)*)(\w+)\b", line)
        if (
            match
            and match.group(2)[0].isupper()
            and match.group(2).endswith(("Error", "Input", "Memory", "Closed", "Conflict"))
        ):
            depth[match.group(2)] = len(match.group(1))
    for cls in CLASSES:
        assert issubclass(cls, MemorybotError), cls
        assert cls.__name__ in depth, f"{cls.__name__} is not drawn in memory/errors.py"
        parent = (
            next(base for base in cls.__mro__[1:] if base.__module__ == errors.__name__)
            if cls is not MemorybotError
            else None
        )
        if parent is not None:
            assert depth[cls.__name__] > depth[parent.__name__], (
                f"{cls.__name__} not drawn under {parent.__name__}"
            )


def test_refused_input_is_a_value_error_and_failures_are_not() -> None:
    for cls in CLASSES:
        if issubclass(cls, InvalidInput):
            assert issubclass(cls, ValueError), cls
        elif cls is not MemorybotError:
            assert issubclass(cls, RuntimeError) and not issubclass(cls, ValueError), cls


async def test_an_invalid_memory_is_refused_with_its_own_type(engine: MemoryEngine) -> None:
    scope = Scope("discord", "g", "c")
    for draft in (
        MemoryDraft("   ", scope),
        MemoryDraft("\u200b\u200b", scope),
        MemoryDraft("x" * 5000, scope),
        MemoryDraft("fine", scope, importance=3.0),
        MemoryDraft("fine", scope, memory_type="gossip"),  # type: ignore[arg-type]
    ):
        with pytest.raises(InvalidMemory):
            await engine.remember(draft)


def _message(text_: str) -> IncomingMessage:
    return IncomingMessage("discord", "g", "c", "alice", "Alice", text_, timestamp=1_700_000_000.0)


async def _turn_with_remember_raising(
    engine: MemoryEngine, tmp_path: Path, error: Exception, caplog: pytest.LogCaptureFixture
) -> list[logging.LogRecord]:
    async def remember(draft: MemoryDraft) -> None:
        raise error

    settings = Settings.load(env_file=None, storage={"data_dir": tmp_path / "data"})
    pipeline = TurnPipeline(
        engine, settings, llm=ScriptedLLM([text("ok")]), summarizer=ExtractiveSummarizer()
    )
    engine.remember = remember  # type: ignore[method-assign]
    caplog.set_level(logging.DEBUG, logger="bot.pipeline")
    try:
        await pipeline.handle([_message("I live in Lisbon and I work as a nurse.")], True)
        await pipeline.idle()
    finally:
        await pipeline.aclose()
    return [r for r in caplog.records if r.name == "bot.pipeline" and "heuristic memory" in r.getMessage()]


async def test_the_pipeline_refuses_invalid_memories_quietly_but_shows_a_bug(
    engine: MemoryEngine, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    refused = await _turn_with_remember_raising(
        engine, tmp_path, InvalidMemory("memory content is empty"), caplog
    )
    assert refused and all(r.levelno == logging.DEBUG for r in refused)
    caplog.clear()
    # A bare ValueError is a bug in the write path, not bad input: it must not be hidden at DEBUG.
    broken = await _turn_with_remember_raising(engine, tmp_path, ValueError("a bug"), caplog)
    assert broken and all(r.levelno == logging.WARNING for r in broken)
