"""What is shown rather than said: quotes, code, and the pictures a message points at."""

from __future__ import annotations

import pytest

from adapters.attachment_notes import attachment_note, with_notes
from memory.text.phrases import quotes_closed
from tests.extraction._support import (
    run,
)


def test_only_a_quote_left_open_is_closed() -> None:
    assert quotes_closed('rereading "The Alchemist') == 'rereading "The Alchemist"'
    assert quotes_closed('"Dune') == '"Dune"'
    assert quotes_closed('reading "Dune" now') == 'reading "Dune" now'
    assert quotes_closed("Bob grew to 6'2\"") == "Bob grew to 6'2\""


@pytest.mark.parametrize(
    ("text", "kept", "left"),
    [
        # code and quoted lines are someone's words shown, not the speaker's statements
        ("`my name is Bob` is the placeholder in the template", [], "Bob"),
        ("> I live in Paris\nso true", [], "Paris"),
        (">>> I live in Paris\nmy name is Bob", [], "Paris"),
        ("```\nmy name is Bob\n```\nI live in Lyon", ["Mickael lives in Lyon"], "Bob"),
        ("I never said I live in Paris", [], "Paris"),
        # a span that names a thing keeps its words
        ("I use `neovim` btw", ["Mickael uses neovim"], "`"),
    ],
)
def test_code_and_quotes_are_shown_not_said(text: str, kept: list[str], left: str) -> None:
    found = [item.content for item in run(text)]
    assert all(content in found for content in kept), found
    assert not any(left in content for content in found), found


def _with_pictures(text: str, *described: str) -> str:
    """A message as the adapters give it: its words, then a note for each described picture."""
    return with_notes(
        text, [note for d in described if (note := attachment_note("IMG.jpg", d, "image/jpeg"))]
    )


@pytest.mark.parametrize(
    ("text", "pictures", "said"),
    [
        ("I made this!", ["a chocolate cake with strawberries"], "made a chocolate cake with strawberries"),
        ("Look what I painted :)", ["a painting of a sunset over a lake"], "painted a sunset over a lake"),
        ("We just baked these for the party", ["chocolate chip cookies"], "baked chocolate chip cookies"),
        ("Got this yesterday", ["a photo of a new acoustic guitar"], "got a new acoustic guitar"),
        ("I made this", ["my first quilt"], "made their first quilt"),
    ],
)
def test_this_under_a_picture_is_what_the_picture_shows(text: str, pictures: list[str], said: str) -> None:
    found = [item.content for item in run(_with_pictures(text, *pictures))]
    assert any(said in content for content in found), found


@pytest.mark.parametrize(
    ("text", "pictures"),
    [
        ("I made this decision myself", ["a cake"]),  # "this" is no picture here
        ("I love this", ["a cat"]),  # nothing made or got
        ("I made this", ["a cake", "a pie"]),  # which one?
        ("I made this", ["a photo I took on my phone while we were out. It was fun and we all loved it"]),
    ],
)
def test_a_picture_names_nothing_the_words_do_not_point_at(text: str, pictures: list[str]) -> None:
    found = [item.content for item in run(_with_pictures(text, *pictures))]
    assert not any(word in content for content in found for word in ("cake", "cat", "pie", "phone")), found
