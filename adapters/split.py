"""Splits a long reply into chunks under a platform's length limit, keeping code fences intact."""

from __future__ import annotations

import re
import unicodedata

FENCE = "```"
# Appended to a chunk that ends inside a code block; the newline keeps the fence on a line of its own.
_CLOSER = "\n" + FENCE
# A language tag counts only when it is the whole rest of the opening line (Discord and Slack agree).
_LANG = re.compile(r"([^\s`]*)(?=\n|$)")

# Break points, best first, with the least share of the room a chunk must fill to use them: a
# paragraph or line break near the start of the window would leave a needlessly short chunk.
_BREAKS: tuple[tuple[str, float], ...] = (("\n\n", 0.5), ("\n", 0.5), (" ", 0.0), ("\n", 0.0))

_ZWJ = "\u200d"


def split_message(text: str, limit: int) -> list[str]:
    """Split `text` into chunks of at most `limit` characters, none of them empty.

    Breaks at paragraph, then line, then word boundaries; a word longer than a whole chunk is cut,
    but never inside a grapheme (combining marks, emoji sequences and flags stay whole when they
    fit). A chunk that would end inside a ``` code block gets a closing fence, and the next chunk
    reopens it with the same language tag. Text that already fits is returned unchanged.
    """
    if limit < 1:
        raise ValueError("limit must be at least 1")
    if not text.strip():
        return []
    if len(text) <= limit:
        return [text]
    chunks: list[str] = []
    rest = text.lstrip("\n")
    prefix = ""
    while rest.strip():
        # A reopened fence needs room for itself, its closer and some content; with a limit that
        # small the code block is given up rather than the limit.
        if prefix and len(prefix) + len(_CLOSER) + 1 > limit:
            prefix = ""
        if len(prefix) + len(rest) <= limit:
            chunks.append((prefix + rest).rstrip())
            break
        budget = limit - len(prefix)
        if not rest[:budget].strip():
            # A window of nothing but whitespace would make an empty chunk.
            rest = rest.lstrip()
            continue
        cut, skip = _find_cut(prefix, rest, limit)
        if not rest[:cut].strip():
            # Only whitespace before the cut (a fence that leaves no room): drop it, emit nothing.
            rest = rest[cut + skip :]
            continue
        body = (prefix + rest[:cut]).rstrip()
        lang = _open_fence(body)
        if lang is not None and len(body) + len(_CLOSER) <= limit:
            chunks.append(body + _CLOSER)
        else:
            chunks.append(body)
            lang = None
        rest = rest[cut + skip :]
        if lang is not None and rest.lstrip("\n").startswith(FENCE):
            # The block closes right where we cut: the closer just added stands in for its own.
            rest = rest.lstrip("\n")[len(FENCE) :].lstrip()
            lang = None
        else:
            rest = rest.lstrip("\n")
        prefix = "" if lang is None else f"{FENCE}{lang}\n"
    return chunks


def _open_fence(text: str) -> str | None:
    """The language tag ("" when none) of a code block still open at the end of `text`, else None."""
    lang: str | None = None
    pos = 0
    while (found := text.find(FENCE, pos)) != -1:
        pos = found + len(FENCE)
        if lang is None:
            tag = _LANG.match(text, pos)
            lang = tag.group(1) if tag else ""
        else:
            lang = None
    return lang


def _fits(body: str, limit: int) -> bool:
    """Whether `body` (with the closing fence it would need) stays within `limit`."""
    body = body.rstrip()
    extra = len(_CLOSER) if _open_fence(body) is not None else 0
    return len(body) + extra <= limit


def _find_cut(prefix: str, rest: str, limit: int) -> tuple[int, int]:
    """Where to end the next chunk in `rest`: (end of its text, length of the separator dropped)."""
    budget = limit - len(prefix)
    for sep, min_fill in _BREAKS:
        end = budget + len(sep)
        while (pos := rest.rfind(sep, 0, end)) > 0 and pos >= min_fill * budget:
            if rest[:pos].strip() and _fits(prefix + rest[:pos], limit):
                return pos, len(sep)
            end = pos + len(sep) - 1
    return _hard_cut(prefix, rest, limit), 0


def _hard_cut(prefix: str, rest: str, limit: int) -> int:
    """A cut inside a word: as far as the limit allows, backed off to a grapheme boundary."""
    pos = limit - len(prefix)
    while pos > 1 and not _fits(prefix + rest[:pos], limit):
        pos -= 1
    safe = _grapheme_boundary(rest, pos)
    # A cluster longer than the whole chunk cannot stay whole; the limit wins.
    return safe if safe > 0 else max(1, pos)


def _grapheme_boundary(text: str, pos: int) -> int:
    """The nearest position at or before `pos` that does not split a character cluster or a fence."""
    while 0 < pos < len(text) and (_extends(text[pos]) or text[pos - 1] == _ZWJ):
        pos -= 1
    if 0 < pos < len(text) and _regional(text[pos]) and _regional(text[pos - 1]):
        # Flags are pairs of regional indicators: count back to see whether pos is mid-pair.
        run = 0
        while pos - run - 1 >= 0 and _regional(text[pos - run - 1]):
            run += 1
        if run % 2:
            pos -= 1
    while 0 < pos < len(text) and text[pos] == "`" and text[pos - 1] == "`":
        pos -= 1
    return pos


def _extends(char: str) -> bool:
    """Whether `char` attaches to the character before it (so a cut must not fall before it)."""
    code = ord(char)
    return (
        unicodedata.combining(char) != 0
        or unicodedata.category(char) in ("Mn", "Me", "Mc")
        or char == _ZWJ
        or 0xFE00 <= code <= 0xFE0F  # variation selectors (emoji vs text presentation)
        or 0x1F3FB <= code <= 0x1F3FF  # skin tone modifiers
        or 0xE0020 <= code <= 0xE007F  # tag characters (subdivision flags)
    )


def _regional(char: str) -> bool:
    return 0x1F1E6 <= ord(char) <= 0x1F1FF
