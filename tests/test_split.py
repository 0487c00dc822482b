"""Splitting long replies: limits, paragraph/line/word boundaries, code fences, unicode, edge sizes."""

from __future__ import annotations

import re
import unicodedata

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from adapters.split import split_message

FENCE_TAG = re.compile(r"```[^\s`]*")


def fences(chunk: str) -> int:
    return chunk.count("```")


def visible(text: str) -> str:
    """The text without fences, language tags and whitespace: what splitting must not lose."""
    return "".join(FENCE_TAG.sub("", text).split())


def check_invariants(text: str, chunks: list[str], limit: int) -> None:
    assert all(chunk.strip() for chunk in chunks), chunks
    assert all(len(chunk) <= limit for chunk in chunks), [len(c) for c in chunks]
    assert visible("\n".join(chunks)) == visible(text)


# --- sizes -----------------------------------------------------------------------------------------


def test_empty_and_blank_input_give_no_chunks() -> None:
    assert split_message("", 2000) == []
    assert split_message("   \n\n \t", 2000) == []


def test_text_that_fits_is_returned_unchanged() -> None:
    text = "hello\n\n  world  "
    assert split_message(text, 2000) == [text]


def test_exact_limit_is_one_chunk_and_one_more_is_two() -> None:
    exact = "a" * 1999 + "b"
    assert split_message(exact, 2000) == [exact]
    over = "word " * 400 + "x"  # 2001 characters
    assert len(over) == 2001
    chunks = split_message(over, 2000)
    assert len(chunks) == 2
    check_invariants(over, chunks, 2000)


def test_invalid_limit_is_refused() -> None:
    with pytest.raises(ValueError):
        split_message("text", 0)


# --- boundaries ------------------------------------------------------------------------------------


def test_paragraph_boundary_is_preferred_over_line_and_word() -> None:
    first = "First paragraph line one.\nFirst paragraph line two, a little longer."
    second = "Second paragraph starts here and goes on for a while."
    text = f"{first}\n\n{second}"
    chunks = split_message(text, len(first) + 10)
    assert chunks == [first, second]


def test_line_boundary_is_used_when_no_paragraph_fits() -> None:
    lines = [f"line number {i} of the reply" for i in range(12)]
    text = "\n".join(lines)
    chunks = split_message(text, 100)
    check_invariants(text, chunks, 100)
    for chunk in chunks:
        # Every chunk is a run of whole lines.
        assert all(line in lines for line in chunk.split("\n")), chunk


def test_words_are_never_cut_when_a_space_allows_a_break() -> None:
    words = [f"w{i:03d}" + "x" * (i % 7) for i in range(300)]
    text = " ".join(words)
    chunks = split_message(text, 57)
    check_invariants(text, chunks, 57)
    assert [w for chunk in chunks for w in chunk.split()] == words


def test_a_single_overlong_word_is_hard_split() -> None:
    word = "abcdefghij" * 25
    text = f"see {word} here"
    chunks = split_message(text, 40)
    check_invariants(text, chunks, 40)
    # The short words stay whole; only the word that cannot fit anywhere is cut, in full chunks.
    assert chunks[0] == "see"
    assert chunks[-1].endswith(" here")
    pieces = [c.removesuffix(" here") for c in chunks[1:]]
    assert "".join(pieces) == word
    assert all(len(p) == 40 for p in pieces[:-1])


def test_no_chunk_is_only_whitespace_even_with_long_blank_runs() -> None:
    text = "start" + " " * 50 + "\n" * 30 + "end " * 20
    chunks = split_message(text, 25)
    check_invariants(text, chunks, 25)


# --- code fences -----------------------------------------------------------------------------------


def code_reply(lang: str = "python", lines: int = 60) -> str:
    body = "\n".join(f"    value_{i} = compute({i})  # step {i}" for i in range(lines))
    return f"Here is the code:\n\n```{lang}\n{body}\n```\n\nThat is all, thanks for asking."


def test_fences_are_balanced_in_every_chunk_and_the_language_is_reopened() -> None:
    text = code_reply("python")
    chunks = split_message(text, 400)
    assert len(chunks) > 3
    check_invariants(text, chunks, 400)
    for chunk in chunks:
        assert fences(chunk) % 2 == 0, chunk
    for chunk in chunks[1:-1]:
        assert chunk.startswith("```python\n")
        assert chunk.endswith("\n```")
    assert chunks[0].startswith("Here is the code:")
    assert chunks[0].endswith("\n```")
    assert chunks[-1].endswith("That is all, thanks for asking.")


def test_code_lines_keep_their_indentation_across_chunks() -> None:
    text = code_reply("py", lines=40)
    chunks = split_message(text, 300)
    code_lines = [line for chunk in chunks for line in chunk.split("\n") if "compute(" in line]
    assert len(code_lines) == 40
    assert all(line.startswith("    value_") for line in code_lines)


def test_fence_without_language_is_reopened_plain() -> None:
    text = "```\n" + "\n".join(f"row {i}" for i in range(80)) + "\n```"
    chunks = split_message(text, 120)
    for chunk in chunks:
        assert fences(chunk) == 2
        assert chunk.startswith("```\n")


def test_two_blocks_with_different_languages_each_keep_their_tag() -> None:
    js = "\n".join(f"let v{i} = {i};" for i in range(30))
    sh = "\n".join(f"echo step-{i}" for i in range(30))
    text = f"```js\n{js}\n```\nand then\n```bash\n{sh}\n```"
    chunks = split_message(text, 150)
    check_invariants(text, chunks, 150)
    for chunk in chunks:
        assert fences(chunk) % 2 == 0
        if "let v" in chunk:
            assert "```js" in chunk
        if "echo step" in chunk:
            assert "```bash" in chunk
        assert not ("let v" in chunk and chunk.startswith("```bash"))


def test_a_cut_at_the_closing_fence_does_not_leave_an_empty_block() -> None:
    # The blank line before the closing fence is the preferred (paragraph) break, so the cut
    # lands right before the fence: the next chunk must not reopen a block only to close it.
    body = "x = 1\n" * 10 + "\n"
    text = f"```python\n{body}```\n" + "after " * 30
    limit = len(f"```python\n{body}") + 3
    chunks = split_message(text, limit)
    check_invariants(text, chunks, limit)
    assert chunks[0] == "```python\n" + ("x = 1\n" * 10).rstrip() + "\n```"
    assert chunks[1].startswith("after after")
    assert not any(re.match(r"```\w*\n```", c) for c in chunks)


# --- unicode ---------------------------------------------------------------------------------------


def test_combining_marks_stay_with_their_letter() -> None:
    word = "e\u0301" * 50  # é as e + combining acute accent
    chunks = split_message(word, 7)
    check_invariants(word, chunks, 7)
    for chunk in chunks:
        assert not unicodedata.combining(chunk[0])
    assert unicodedata.normalize("NFC", "".join(chunks)) == "é" * 50


def test_emoji_sequences_and_flags_are_not_broken() -> None:
    family = "👨\u200d👩\u200d👧"  # five code points joined by zero-width joiners
    thumbs = "👍🏽"  # with a skin tone modifier
    flags = "🇫🇷🇩🇪🇯🇵"
    for text, limit in ((family * 12, 8), (thumbs * 20, 5), (flags * 5, 3)):
        chunks = split_message(text, limit)
        check_invariants(text, chunks, limit)
        assert "".join(chunks) == text
        for chunk in chunks:
            assert not chunk.startswith(("\u200d", "\U0001f3fd"))
            assert not chunk.endswith("\u200d")
    flag_chunks = split_message(flags * 5, 3)
    assert all(len(chunk) % 2 == 0 for chunk in flag_chunks)


def test_emoji_words_split_on_spaces() -> None:
    text = " ".join(["🎉✨🎂"] * 200)
    chunks = split_message(text, 50)
    check_invariants(text, chunks, 50)
    assert all(set(chunk.split()) == {"🎉✨🎂"} for chunk in chunks)


# --- properties ------------------------------------------------------------------------------------

_words = st.text(alphabet=st.characters(codec="utf-8", exclude_characters="`\r"), min_size=1, max_size=30)
_para = st.lists(_words, min_size=1, max_size=25).map(" ".join)
_block = st.tuples(st.sampled_from(["", "python", "js"]), st.lists(_words, min_size=1, max_size=15)).map(
    lambda t: f"```{t[0]}\n" + "\n".join(t[1]) + "\n```"
)


@settings(max_examples=150, deadline=None)
@given(parts=st.lists(st.one_of(_para, _block), min_size=1, max_size=8), limit=st.integers(30, 300))
def test_property_limits_content_and_balanced_fences(parts: list[str], limit: int) -> None:
    text = "\n\n".join(parts)
    chunks = split_message(text, limit)
    if not text.strip():
        assert chunks == []
        return
    check_invariants(text, chunks, limit)
    for chunk in chunks:
        assert fences(chunk) % 2 == 0, (chunk, chunks)
