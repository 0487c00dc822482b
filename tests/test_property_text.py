"""Arbitrary text (surrogates, controls, markup, long runs) through every text-handling function."""

from __future__ import annotations

import hashlib
import json
import logging
import re
from collections.abc import Iterator, Sequence
from datetime import UTC, datetime
from pathlib import Path

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from adapters.split import split_message
from bot.json_reply import MAX_JSON_MEMORIES, parse_reply
from bot.logs import JsonFormatter
from bot.memory_tools import MAX_CONTENT_CHARS
from bot.pipeline import valid_utf8
from bot.prompt import system_prompt
from memory.drafts import MAX_MEMORY_CHARS
from memory.engine import MemoryEngine
from memory.models import (
    Audience,
    MemoryDraft,
    MemoryType,
    StoredMessage,
    Summary,
    SummaryKind,
    content_hash,
    normalize_text,
)
from memory.prehook.context_block import (
    BLOCK_CLOSE,
    BLOCK_OPEN,
    BlockItem,
    Section,
    Timeline,
    estimate_tokens,
    format_context_block,
    quote_note,
)
from memory.text import extract
from memory.text.dates import DATE_PATTERN, may_hold_a_date
from memory.ttl import _UNITS, MAX_TTL_SECONDS, TTLError, expires_at, parse_duration
from tests.helpers import DAY, NOW, ExampleLoop, FakeClock, check_block, memory_row
from tests.helpers import GENERAL as SCOPE

AUDIENCE = Audience("discord", "guild-1", "default", viewer_id="alice", channel_id="general")

# Characters of every kind, with the troublesome ones drawn far more often than chance would.
CHARS = st.one_of(
    st.characters(exclude_categories=()),  # anything, unpaired surrogates included
    st.characters(categories=["Cs"]),  # unpaired surrogates
    st.characters(categories=["Cc", "Cf", "Zl", "Zp", "Zs", "Mn"]),  # controls, format, separators
    st.sampled_from("<>\"'\\`#-[]{}():*_~|@\n\r\t "),
)
FRAGMENTS = st.sampled_from(
    [
        BLOCK_OPEN,
        BLOCK_CLOSE,
        "## Identity",
        "\n\nHuman: ",
        "\n\nAssistant: ",
        "<|im_start|>system\n",
        "[system]",
        "```",
        "```python\n",
        "\u200d",
        "\U0001f1eb\U0001f1f7",
        "e\u0301",
        "my name is ",
        "I prefer ",
        "remember that ",
        "call me ",
        "I live in Paris. ",
        "on Friday ",
        '{"message": "',
        '"memories": [',
        "}",
        "7d",
        "\\ud800",
    ]
)
TEXT = st.lists(st.one_of(st.text(CHARS, max_size=30), FRAGMENTS), max_size=25).map("".join)
# Long inputs built by repetition: cheap to generate, and what pasted logs look like.
LONG_TEXT = st.builds(lambda part, times: part * times, TEXT, st.integers(1, 400))
ANY_TEXT = st.one_of(TEXT, TEXT, LONG_TEXT)

FAST = settings(max_examples=80, deadline=None)


def encodable(*texts: str) -> bool:
    """True when every text encodes as UTF-8 (as SQLite, LanceDB, logs and platform APIs need).

    Raises UnicodeEncodeError otherwise, so a failure names the character and its position.
    """
    for text in texts:
        text.encode("utf-8")
    return True


# --- extraction -----------------------------------------------------------------------------------


@FAST
@given(text=ANY_TEXT, speaker=TEXT)
@example(text="my name is \ud800", speaker="\udfff")
def test_extraction_never_raises_and_returns_well_formed_notes(text: str, speaker: str) -> None:
    now = datetime.fromtimestamp(NOW, UTC)
    for item in extract(text, speaker, now=now):
        assert isinstance(item.content, str) and item.content.strip()
        assert isinstance(item.memory_type, MemoryType)
        assert all(isinstance(s, str) for s in item.subjects)
        assert 0.0 <= item.confidence <= 1.0
    # The pipeline hands extraction valid text; what comes out is then valid text too.
    for item in extract(valid_utf8(text), valid_utf8(speaker), now=now):
        assert encodable(item.content, *item.subjects)


# Words date expressions are made of, and words around them, in both languages.
DATE_VOCABULARY = (
    "last next this past coming the week weekend week-end weeks fortnight month year ago back before after "
    "in on since until by a few couple of two 3 12 2027 today tonight tomorrow yesterday morning evening "
    "Friday monday March june 5th the 3rd end dans il y a jours semaine dernière prochain demain hier "
    "aujourd'hui ce soir lundi mars ans an mai may jun sept tmrw summer winter fall I went to pottery hey ok"
).split()


@FAST
@given(
    text=st.one_of(
        ANY_TEXT,
        st.lists(st.sampled_from(DATE_VOCABULARY), max_size=8).map(" ".join),
    )
)
def test_the_quick_look_for_a_date_never_misses_one(text: str) -> None:
    # `may_hold_a_date` spares the date pattern most chat: it may say yes for nothing, never no
    # for a date.
    assert DATE_PATTERN.search(text) is None or may_hold_a_date(text)


@FAST
@given(text=ANY_TEXT)
def test_hashing_and_normalising_accept_any_text(text: str) -> None:
    assert isinstance(normalize_text(text), str)
    assert re.fullmatch(r"[0-9a-f]{64}", content_hash(text))
    # Whitespace around and between words is not part of what a memory means.
    assert content_hash(f" \n{text}\t ") == content_hash(text)
    assert encodable(valid_utf8(text)) and valid_utf8(valid_utf8(text)) == valid_utf8(text)


# --- the write path: SQLite and LanceDB -----------------------------------------------------------


class WordHashEmbedder:
    """Deterministic bag of hashed words: no model to load, so many examples run quickly."""

    name = "word-hash"
    dim = 384

    async def embed(self, texts: Sequence[str]) -> np.ndarray:
        vectors = np.zeros((len(texts), self.dim), dtype=np.float32)
        for row, text in enumerate(texts):
            for word in re.findall(r"\w+", text.casefold()):
                digest = hashlib.blake2b(word.encode("utf-8", "replace"), digest_size=4).digest()
                vectors[row, int.from_bytes(digest, "little") % self.dim] += 1.0
            vectors[row, 0] += 1e-3  # never the zero vector
        return vectors / np.linalg.norm(vectors, axis=1, keepdims=True)


class Runner(ExampleLoop):
    """One engine and one event loop for every example (an engine per example would be slow)."""

    def __init__(self, path: Path) -> None:
        super().__init__()
        self.clock = FakeClock()
        self.engine: MemoryEngine = self.run(MemoryEngine.open(path, WordHashEmbedder(), clock=self.clock))
        self.on_close(self.engine.close)


@pytest.fixture(scope="module")
def runner(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Runner]:
    with Runner(tmp_path_factory.mktemp("property") / "data") as r:
        yield r


_REFUSALS = (
    "memory content is empty",
    "memory content has no visible characters",
    "memory content is too long",
)


@settings(max_examples=60, deadline=None)
@given(text=ANY_TEXT, subjects=st.lists(TEXT, max_size=4), name=TEXT)
@example(text="Alice \ud800 likes tea", subjects=["\udc00", "tea"], name="Al\ud800ice")
def test_any_text_is_stored_in_both_stores_or_refused_with_a_reason(
    runner: Runner, text: str, subjects: list[str], name: str
) -> None:
    engine = runner.engine
    runner.clock.advance(60)
    draft = MemoryDraft(
        text[: MAX_MEMORY_CHARS + 50], SCOPE, subjects=subjects, user_id="alice", author_id="alice"
    )
    try:
        result = runner.run(engine.remember(draft))
    except ValueError as exc:
        assert str(exc).startswith(_REFUSALS)
    else:
        memory = result.memory
        assert encodable(memory.content, *memory.subjects)
        (row,) = runner.run(engine.storage.memories.visible([memory.id], AUDIENCE, runner.clock()))
        assert (row.content, row.subjects) == (memory.content, memory.subjects)
        if result.action in ("inserted", "superseded"):
            assert memory.id in runner.run(engine.storage.vectors.memories.get_vectors([memory.id]))

    message = StoredMessage(
        id=hashlib.sha1(f"{runner.clock()}".encode()).hexdigest(),
        scope=SCOPE,
        author_id="alice",
        author_name=name,
        role="user",
        content=text,
        created_at=runner.clock(),
    )
    assert runner.run(engine.store_messages([message])) == [message.id]
    assert runner.run(engine.storage.turns.unindexed()) == []  # the vector landed too
    # Searching with the same text never trips the full-text query parser or the scope filter.
    for hit in runner.run(engine.search(text, AUDIENCE, limit=5, threshold=0.0)):
        assert encodable(hit.memory.content)
    runner.run(engine.search_messages(text, AUDIENCE, limit=5, threshold=0.0))


# --- TTLs -----------------------------------------------------------------------------------------


@FAST
@given(ttl=st.one_of(ANY_TEXT, st.none(), st.integers(), st.floats(), st.lists(st.text(max_size=3))))
@example(ttl="-1d")
@example(ttl="0h")
@example(ttl="99999999d")
@example(ttl="1x")
def test_ttl_parsing_returns_a_sane_expiry_or_raises_ttl_error(ttl: object) -> None:
    try:
        when = expires_at(ttl, NOW)  # type: ignore[arg-type]
    except TTLError as exc:
        assert encodable(str(exc))
    else:
        assert when is None or NOW < when <= NOW + MAX_TTL_SECONDS


@FAST
@given(
    number=st.integers(0, 10**8),
    unit=st.sampled_from(sorted(_UNITS) + [u.upper() for u in _UNITS] + ["x", "ms", ""]),
    pad=st.sampled_from(["", " ", "\t", "\u00a0"]),
)
def test_well_formed_durations_parse_exactly(number: int, unit: str, pad: str) -> None:
    text = f"{pad}{number}{pad}{unit}{pad}"
    seconds = number * _UNITS.get(unit.lower(), 0)
    if unit.lower() in _UNITS and len(str(number)) <= 6 and 0 < seconds <= MAX_TTL_SECONDS:
        assert parse_duration(text) == seconds
    else:
        with pytest.raises(TTLError):
            parse_duration(text)


# --- the JSON reply form --------------------------------------------------------------------------

JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=20,
)
MEMORY_ENTRIES = st.lists(
    st.one_of(
        JSON_VALUES,
        st.fixed_dictionaries(
            {"content": st.one_of(st.text(max_size=60), JSON_VALUES)},
            optional={
                "subjects": st.one_of(st.lists(st.text(max_size=10), max_size=3), JSON_VALUES),
                "ttl": st.one_of(
                    st.sampled_from(["1h", "7d", "-1d", "0h", "99999999d", "1x", ""]), JSON_VALUES
                ),
                "type": st.one_of(st.sampled_from([t.value for t in MemoryType] + ["feeling"]), JSON_VALUES),
                "about": JSON_VALUES,
            },
        ),
    ),
    max_size=25,
)


@FAST
@given(text=ANY_TEXT)
@example(text='{"message": "hi", "memories": ' + "[" * 50_000 + "]" * 50_000 + "}")
def test_any_model_text_parses_to_a_message(text: str) -> None:
    parsed = parse_reply(text)
    assert isinstance(parsed.message, str)
    assert len(parsed.memories) <= MAX_JSON_MEMORIES
    if not parsed.structured:
        assert parsed.message == text.strip() and parsed.memories == []


@FAST
@given(
    message=st.one_of(st.text(CHARS, max_size=80), JSON_VALUES), memories=MEMORY_ENTRIES, fenced=st.booleans()
)
def test_reply_form_objects_give_the_message_and_only_valid_memories(
    message: object, memories: list[object], fenced: bool
) -> None:
    body = json.dumps({"message": message, "memories": memories})
    parsed = parse_reply(f"```json\n{body}\n```" if fenced else body)
    assert parsed.structured
    assert parsed.message == (message.strip() if isinstance(message, str) else "")
    assert len(parsed.memories) + len(parsed.errors) >= min(len(memories), MAX_JSON_MEMORIES)
    for request, about in parsed.memories:
        assert request.content.strip() and len(request.content) <= MAX_CONTENT_CHARS
        assert request.ttl is None or parse_duration(request.ttl) > 0
        assert about is None or isinstance(about, str)
    assert all(isinstance(e, str) for e in parsed.errors)


# --- the splitter ---------------------------------------------------------------------------------


@settings(max_examples=150, deadline=None)
@given(text=ANY_TEXT, limit=st.integers(1, 120))
@example(text="```py\n" + "x = 1\n" * 40 + "```", limit=12)
@example(text="\U0001f468\u200d\U0001f469\u200d\U0001f467" * 30, limit=4)
def test_split_pieces_fit_the_limit_and_keep_every_visible_character(text: str, limit: int) -> None:
    chunks = split_message(text, limit)
    assert all(0 < len(c) <= limit and c.strip() for c in chunks)
    if not text.strip():
        assert chunks == []
    elif len(text) <= limit:
        assert chunks == [text]
    elif "`" not in text:
        # Documented: only whitespace at the breaks is dropped (no fences are added without "`").
        assert "".join("".join(chunks).split()) == "".join(text.split())
    if encodable_or_false(text):
        assert encodable(*chunks)


def encodable_or_false(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def test_split_refuses_a_limit_below_one() -> None:
    with pytest.raises(ValueError, match="limit must be at least 1"):
        split_message("hello", 0)


# --- context formatting ---------------------------------------------------------------------------


@st.composite
def block_items(draw: st.DrawFn) -> list[BlockItem]:
    items: list[BlockItem] = []
    for n in range(draw(st.integers(0, 6))):
        text = draw(ANY_TEXT)
        age = draw(st.floats(0, 800 * DAY))
        score = draw(st.floats(0, 10))
        kind = draw(st.sampled_from(list(MemoryType)))
        section = draw(st.sampled_from([s for s in Section if s is not Section.TIMELINE]))
        shape = (
            draw(st.sampled_from(["memory", "message", "summary"]))
            if section is Section.MESSAGES
            else "memory"
        )
        if shape == "memory":
            memory = memory_row(
                text,
                n,
                memory_type=kind,
                importance=0.5,
                user_id="alice",
                created_at=NOW - age,
                updated_at=NOW - age / 2,
                access_count=draw(st.integers(0, 9)),
            )
            items.append(BlockItem(section, score, memory))
        elif shape == "message":
            message = StoredMessage(
                f"msg{n}", SCOPE, "alice",
                draw(TEXT), "user", text, NOW - age,
            )  # fmt: skip
            items.append(BlockItem(section, score, message=message))
        else:
            summary = Summary(
                f"s{n}", SCOPE, 1, SummaryKind.TURNS, text,
                NOW - age, NOW - age / 2,
            )  # fmt: skip
            items.append(BlockItem(section, score, summary=summary))
    return items


@FAST
@given(items=block_items(), budget=st.integers(0, 3000), with_timeline=st.booleans(), entries=block_items())
def test_any_notes_format_into_a_well_formed_block(
    items: list[BlockItem], budget: int, with_timeline: bool, entries: list[BlockItem]
) -> None:
    timeline = None
    if with_timeline:
        timeline = Timeline("last week", NOW - 14 * DAY, NOW - 7 * DAY)
        timeline.items = [
            BlockItem(Section.TIMELINE, e.score, memory=e.memory, message=e.message)
            for e in entries
            if e.summary is None
        ]
    block = format_context_block(items, NOW, token_budget=budget, timeline=timeline)
    if block.text is None:
        # Nothing to say, or nothing that fits: no block at all rather than an empty frame.
        assert not block.included and timeline is None
        return
    assert encodable(block.text)
    check_block(block.text)
    assert block.tokens == estimate_tokens(block.text)
    assert block.tokens <= budget or not block.included  # only the frame may exceed the budget


@FAST
@given(text=ANY_TEXT)
@example(text="\ud800</memory_context>\u2028")
def test_quote_note_is_one_valid_json_string_on_one_line(text: str) -> None:
    quoted = quote_note(text)
    assert encodable(quoted)
    assert quoted.splitlines() == [quoted] and "<" not in quoted and ">" not in quoted
    assert json.loads(quoted) == valid_utf8(text)


@FAST
@given(profiles=st.lists(ANY_TEXT, max_size=3), thread=st.one_of(st.none(), ANY_TEXT), dm=st.booleans())
def test_the_system_prompt_is_valid_text_for_any_profiles_and_summary(
    profiles: list[str], thread: str | None, dm: bool
) -> None:
    prompt = system_prompt(platform="slack", is_dm=dm, now=NOW, profiles=profiles, thread_summary=thread)
    assert encodable(prompt)
    base = system_prompt(platform="slack", is_dm=dm, now=NOW)
    assert prompt.startswith(base)
    assert BLOCK_CLOSE not in prompt[len(base) :]


# --- logs -----------------------------------------------------------------------------------------


@FAST
@given(event=ANY_TEXT, reason=ANY_TEXT)
@example(event="memory refused \ud800", reason="\udfff")
def test_json_log_lines_stay_valid_utf8_json(event: str, reason: str) -> None:
    record = logging.makeLogRecord(
        {"msg": event, "levelno": logging.INFO, "levelname": "INFO", "reason": reason}
    )
    line = JsonFormatter().format(record)
    assert encodable(line) and "\n" not in line and "\r" not in line  # one JSON object per line
    parsed = json.loads(line)
    assert parsed["event"] == valid_utf8(event) and parsed["reason"] == valid_utf8(reason)
