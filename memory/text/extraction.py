"""Extracts memories from one chat message: rules read each clause, the result is third person, dated."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import UTC, datetime

from memory.models import MemoryType

from .corrections import with_beliefs_corrected
from .dates import PLACEHOLDER, expand_dates, find_dates
from .dropped_subject import with_dropped_subject
from .facts import Fact, Predicate
from .failures import log_heuristic_failure
from .introductions import with_introduction_said
from .normalize import clean_speaker, clean_text, looks_french
from .phrases import quotes_closed
from .quoted import without_shown
from .rewrite import capitalize_first, named_as_given
from .rules import Clause, Item, asks_to_forget, read_clause
from .sentences import MAX_CLAUSE_CHARS, is_polite_request, kept_sentences, split_clauses
from .shorthand import spelled_out
from .shown import with_what_was_shown
from .subjects import pick_subjects
from .tense import told_in_past

__all__ = ["Extracted", "extract", "extract_unguarded", "is_forget_request"]

# Bounds keep the worst case linear and small: chat messages are short, pasted documents are not statements.
_MAX_CLAUSES = 2_000
_MAX_RESULTS = 50
_MAX_CONTENT = 500
_MAX_SENTENCE_CHARS = MAX_CLAUSE_CHARS * 4
_TODO_GRACE = 7 * 86_400.0  # a deadline stays worth recalling for a week after it passes


@dataclass(frozen=True, slots=True)
class Extracted:
    """One memory guessed from a message, already rewritten in the third person."""

    content: str
    memory_type: MemoryType
    subjects: list[str]
    confidence: float
    expires_at: float | None = None
    event_at: float | None = None
    # Set on the memory that says what the speaker is called ("my name is Mickael"): that name.
    given_name: str | None = None
    # The memory as fields: `subject` `predicate` `object` ("Mickael", LOCATION, "lives in Lyon"),
    # with `relation` for relatives and favourites; dates written out as in `content`.
    subject: str = ""
    predicate: Predicate = Predicate.STATED
    object: str = ""
    relation: str = ""

    @property
    def fact(self) -> Fact:
        return Fact(self.subject, self.predicate, self.object, self.relation)

    def fact_about(self, speaker: str) -> Fact | None:
        """The fact to store with the memory (`Memory.fact`): what it says of `speaker` as fields,
        without their name (they may be called otherwise later); None when it is about someone
        else, or says nothing its words do not ("remember that the code is 1234")."""
        if self.predicate is Predicate.STATED or self.subject.casefold() != speaker.casefold():
            return None
        return Fact("", self.predicate, self.object, self.relation)


# Emoji a note ends on ("I'm getting married next August 💍🎉"): how it was said, not what.
_TRAILING_EMOJI = re.compile("(?:\\s*[\U0001f000-\U0001faff\u2600-\u27bf\u2b00-\u2bff\ufe0f\u200d])+$")


def _finished(item: Item, clause: Clause, speaker: str) -> Extracted | None:
    """The item with its dates written out, bounded, its subjects picked; None when nothing is left."""
    content, event_at = expand_dates(item.content, clause.dates)
    content = _TRAILING_EMOJI.sub("", " ".join(content.split())).strip(" ,;:-")
    if PLACEHOLDER.match(item.content.lstrip()):
        # "Last week I ..." begins with its date, written out in lower case: "In the week of ...".
        content = capitalize_first(content)
    content = named_as_given(content, speaker)
    if not content or not any(ch.isalnum() for ch in content):
        return None
    if len(content) > _MAX_CONTENT:
        content = content[: _MAX_CONTENT - 1].rsplit(" ", 1)[0].rstrip(" ,;:-") + "…"
    content = quotes_closed(content)
    expires_at = event_at + _TODO_GRACE if item.memory_type is MemoryType.TODO and event_at else None
    subject = item.subject or speaker
    return Extracted(
        content,
        item.memory_type,
        pick_subjects(speaker, item.tags, item.keys),
        min(1.0, max(0.0, item.confidence)),
        expires_at=expires_at,
        event_at=event_at,
        given_name=item.given_name,
        subject=subject,
        predicate=item.predicate,
        object=_object(item, clause, subject, content),
        relation=item.relation,
    )


def _object(item: Item, clause: Clause, subject: str, content: str) -> str:
    """The item's object with its dates written out; by default, what the content says after its subject."""
    if item.object:
        return _TRAILING_EMOJI.sub("", " ".join(expand_dates(item.object, clause.dates)[0].split()))
    if content[: len(subject) + 1].casefold() == f"{subject.casefold()} ":
        return content[len(subject) + 1 :]
    return content


def extract_unguarded(text: str, speaker: str, now: datetime | None) -> list[Extracted]:
    """What `extract` finds, calling the speaker `speaker` throughout, and raising on a bug
    (`extract` never raises); for tests that must see such bugs."""
    if not isinstance(text, str) or not text.strip():
        return []
    now = now or datetime.now(UTC)
    if now.tzinfo is None:
        now = now.replace(tzinfo=UTC)
    speaker = clean_speaker(speaker)
    results: list[Extracted] = []
    seen: set[str] = set()
    read: set[str] = set()
    budget = _MAX_CLAUSES
    # "I made this!" under a picture of a cake made a cake; code and quoted lines say nothing of the speaker.
    message = with_introduction_said(
        with_beliefs_corrected(spelled_out(clean_text(without_shown(with_what_was_shown(text)))))
    )
    for sentence, question in kept_sentences(message):
        if question and not is_polite_request(sentence):
            continue
        clauses = list(split_clauses(sentence[:_MAX_SENTENCE_CHARS]))
        for n, (raw, before) in enumerate(clauses):
            budget -= 1
            if budget < 0 or len(results) >= _MAX_RESULTS:
                return results
            raw = raw[:MAX_CLAUSE_CHARS]
            if raw in read:
                continue  # identical clauses give identical memories
            read.add(raw)
            # Before the language is guessed: "Got a new puppy" has none of English's little words.
            raw = with_dropped_subject(raw, message)
            french, past = looks_french(raw), told_in_past(raw)
            work, dates = find_dates(raw, now, french, past)
            clause = Clause(work, raw, before, french, past, dates, " ".join(r for r, _ in clauses[n + 1 :]))
            for item in read_clause(clause, speaker):
                found = _finished(item, clause, speaker)
                if found is None:
                    continue
                key = found.content.casefold()
                if key not in seen:
                    seen.add(key)
                    results.append(found)
    return results[:_MAX_RESULTS]


def extract(text: str, speaker: str, now: datetime | None = None) -> list[Extracted]:
    """Memories stated in one chat message by `speaker`, rewritten in the third person.

    Pure and offline: English and French regex heuristics for identity, preferences, decisions,
    deadlines and dated events, explicit "remember that ..." requests, goals and personal events,
    and the speaker's pastimes, pets and places been to, each named with its kind.
    Relative dates ("Friday", "demain", "12 March") are resolved against `now` (default: now, UTC).
    Never raises: on unexpected input it returns what it could extract, or nothing.
    """
    try:
        found = extract_unguarded(text, speaker, now)
        # "My name is Mickael and I broke my shoulder": the rest already says "Mickael".
        named = next((item.given_name for item in found if item.given_name), None)
        if named is None or named.casefold() == clean_speaker(speaker).casefold():
            return found
        # Not the name read again as what they are ("je suis Julien" is no "Julien est Julien").
        again = [
            item
            for item in extract_unguarded(text, named, now)
            if item.given_name is None and item.object.casefold() != named.casefold()
        ]
        return [item for item in found if item.given_name is not None] + again
    except Exception:  # a heuristic must never break the write path; the LLM path still runs
        log_heuristic_failure("extraction")
        return []


def is_forget_request(text: str) -> bool:
    """Whether a chat message asks the bot to forget something ("please forget that I live in
    Paris", "oublie que ma sœur habite à Lyon"): such words teach nothing, and whoever answers should
    say how a note is removed."""
    # Asked as a question too: "can you forget that I live in Paris?"
    for sentence, _ in kept_sentences(clean_text(text)):
        for raw, before in split_clauses(sentence[:_MAX_SENTENCE_CHARS])[:_MAX_CLAUSES]:
            if asks_to_forget(Clause(raw, raw, before, looks_french(raw), False)):
                return True
    return False
