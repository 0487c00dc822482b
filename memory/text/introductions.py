"""An introduction told in fragments ("Marco here, Italian living in Berlin. Dad of two, backend dev")
said again with each fragment's "I'm", so that the rules read who the speaker is."""

from __future__ import annotations

import re

from .dropped_subject import mid_sentence
from .lexicons import FINITE_VERBS_EN, NATIONALITIES, NOT_A_NAME_HERE, is_occupation_en
from .normalize import regex

__all__ = ["with_introduction_said"]

# How an introduction opens: a greeting (maybe), then "Marco here", "I'm Kenji", "name's Priya".
_OPENING_EN = regex(
    r"^[\W_]*(?:(?:hi|hey|hello|hiya|heya|yo|howdy)(?:\s+(?:all|everyone|everybody|folks|team|y'all|there))?"
    r"\b[\W_]*)?"
    r"(?:(?-i:(?P<here>[A-Z][\w'-]+))\s+here\b"
    r"|(?:i'm|i\s+am|name's|my\s+name\s+is)\s+(?-i:[A-Z][\w'-]+))"
)
# Where a sentence ends, and where a fragment of one ends.
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+")
_FRAGMENT_END = re.compile(r"\s*[,;]\s*")
_FIRST_PERSON_EN = frozenset("i i'm i've i'd i'll me my mine we we're our us".split())
_AGE_EN = regex(r"^(?P<age>\d{2})(?:\s*(?:y/?o|yrs?(?:\s+old)?|years?\s+old))?$")
_WHERE_EN = regex(r"^(?:originally\s+from|from|(?:currently\s+|now\s+)?(?:living|based|located)\s+in)\s+\S")
_LIVING_AFTER_EN = regex(r"\s+(?=(?:(?:currently|now)\s+)?(?:living|based|located)\s+in\s)")
_PARENT_EN = regex(r"^(?:an?\s+)?(?:proud\s+)?(?:dad|father|mom|mum|mother|parent)\s+(?:of|to)\s+\S")
_ARTICLE_EN = regex(r"^(?:a|an)\s+")
# Where one is from, said after the job: "nurse from Leeds", "designer based in Lyon".
_WHERE_AFTER_A_JOB_EN = regex(r"\s+(?=(?:originally\s+)?from\s|(?:based|living)\s+in\s)")
_MAX_FRAGMENT_WORDS = 8


def _as_said_of_oneself(fragment: str) -> list[str] | None:
    """The fragment said with "I'm" ("Italian living in Berlin" -> "I'm Italian", "I'm living in
    Berlin"; "backend dev" -> "I'm a backend dev"), or None when it is no such fragment."""
    words = fragment.split()
    lowered = [word.lower().strip("()") for word in words]
    if not words or len(words) > _MAX_FRAGMENT_WORDS:
        return None
    if _FIRST_PERSON_EN.intersection(lowered) or FINITE_VERBS_EN.intersection(lowered):
        return None  # a clause of its own: the rules read it as it is
    age = _AGE_EN.match(fragment)
    if age:
        return [f"I'm {age.group('age')}"]
    if lowered[0] in NATIONALITIES:
        return [f"I'm {part}" for part in _LIVING_AFTER_EN.split(fragment, maxsplit=1)]
    if _WHERE_EN.match(fragment):
        return [f"I'm {fragment}"]
    if _PARENT_EN.match(fragment):
        return [f"I'm a {mid_sentence(_ARTICLE_EN.sub('', fragment))}"]
    job, *where = _WHERE_AFTER_A_JOB_EN.split(mid_sentence(_ARTICLE_EN.sub("", fragment)), maxsplit=1)
    if is_occupation_en(job):
        article = "an" if job[:1].lower() in "aeiou" else "a"
        # "nurse from Leeds": the job, and where from (as "I'm Mia, nurse from Leeds" is read)
        return [f"I'm {article} {job}", *(f"I'm {place}" for place in where)]
    return None


def _fragments_said(sentence: str) -> list[str]:
    """The sentence's fragments, each said as a sentence of its own where it tells who the speaker
    is; the others as they were, joined again. [sentence] when none does."""
    body = sentence.strip().rstrip(".!?").strip(" ,;")
    out: list[str] = []
    kept: list[str] = []
    changed = False
    for fragment in _FRAGMENT_END.split(body):
        again = _as_said_of_oneself(fragment.strip()) if fragment.strip() else None
        if again is None:
            kept.append(fragment.strip())
            continue
        changed = True
        if any(kept):
            out.append(", ".join(part for part in kept if part))
        kept = []
        out.extend(again)
    if not changed:
        return [sentence.strip()]
    if any(kept):
        out.append(", ".join(part for part in kept if part))
    return [f"{part}." for part in out]


def with_introduction_said(message: str) -> str:
    """`message` with the fragments of an introduction said as sentences of their own: "Hello! Marco
    here, Italian living in Berlin. Dad of two" -> "Hello! I'm Marco. I'm Italian. I'm living in
    Berlin. I'm a dad of two."; any other message as it is. After "I'm Priya, 27, ..." the first
    sentence stays as said (the introduction rules read it whole)."""
    opening = _OPENING_EN.match(message)
    if opening is None:
        return message
    here = opening.group("here")
    if here is not None and here in NOT_A_NAME_HERE:
        return message
    head = f"{message[: opening.start('here')]}I'm {here}." if here is not None else opening.group(0)
    sentences = _SENTENCE_END.split(message[opening.end() :])
    if here is None:
        head += sentences.pop(0) if sentences else ""
    said: list[str] = []
    changed = False
    for sentence in filter(str.strip, sentences):
        parts = _fragments_said(sentence)
        changed = changed or parts != [sentence.strip()]
        said.extend(parts)
    return " ".join([head, *said]) if changed else message
