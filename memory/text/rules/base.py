"""What every extraction rule shares: a clause goes search -> blocked -> object -> item."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from memory.models import MemoryType

from ..dates import ResolvedDate
from ..dropped_subject import as_suggestion
from ..facts import Predicate
from ..lexicons import is_past_form_en
from ..normalize import regex
from ..phrases import is_object, noun_phrase, trim_phrase
from ..rewrite import capitalize_first, third_person
from ..sentences import is_hedged, is_unasserted, opens_relative_clause, strip_filler

__all__ = [
    "OBJECT",
    "Clause",
    "Entry",
    "Hit",
    "Item",
    "OneOf",
    "Rule",
    "asserted_in_clause",
    "asserted_where_matched",
    "run_rules",
]

OBJECT = r"(?P<object>.+)"  # the object phrase a pattern captures, read by the shared pipeline
_HEDGE_PENALTY = 0.15
_MIN_HEDGED_CONFIDENCE = 0.3


@dataclass(slots=True)
class Clause:
    """One clause of a message, ready for the rules."""

    text: str  # whitespace collapsed, dates replaced by \x00n\x00 placeholders
    raw: str  # the same clause before date substitution
    before: str  # the sentence text before this clause (for hypothetical / reported-speech checks)
    french: bool
    past: bool  # told in the past tense
    dates: list[ResolvedDate] = field(default_factory=list)
    # The sentence's clauses after this one: a reason given next ("..., I do school drop-off").
    after: str = ""


@dataclass(slots=True)
class Item:
    """One memory a rule found, before its dates are written out."""

    content: str  # may still hold date placeholders
    memory_type: MemoryType
    confidence: float
    keys: list[str]  # phrases the subjects are drawn from
    tags: list[str] = field(default_factory=list)  # subjects to put first (names)
    given_name: str | None = None  # the speaker's own name, when this item states it
    # The same memory as a fact (see facts.Fact); may hold date placeholders too.
    predicate: Predicate = Predicate.STATED
    object: str = ""  # "": what the content says after its subject
    relation: str = ""
    subject: str = ""  # "": the speaker


def asserted_where_matched(clause: Clause, start: int) -> bool:
    """Whether the statement found at `start` is the speaker's own: not in a hypothetical,
    reported speech or an open quote."""
    return not is_unasserted(f"{clause.before} {clause.text[:start]}")


def asserted_in_clause(clause: Clause, start: int) -> bool:
    """Whether the whole clause is asserted (for rules that read all of it, wherever they matched)."""
    return asserted_where_matched(clause, len(clause.text))


Guard = Callable[[Clause, int], bool]
Reread = Callable[[Clause], list[Item]]


@dataclass(slots=True)
class Hit:
    """A rule's pattern found in a clause, with the object phrase the pipeline trimmed."""

    match: re.Match[str]
    phrase: str  # the trimmed object phrase ("" for rules that read no object)
    clause: Clause
    speaker: str
    french: bool
    reread: Reread  # the statement rules, for a request's inner text

    def group(self, name: str) -> str:
        """A named group of the match, "" when it did not take part."""
        return self.match.group(name) or ""

    def words(self, name: str) -> str:
        """A named group with its whitespace collapsed ("going  with" -> "going with")."""
        return " ".join(self.group(name).split())

    def third(self, text: str, named: bool = True) -> str:
        """`text` in the third person about the speaker (by default, as a sentence that named them)."""
        return third_person(text, self.speaker, self.french, named)

    def confidence(self, base: float) -> float:
        """`base`, lowered when the clause hedges ("maybe", "je pense")."""
        hedged = is_hedged(self.clause.raw)
        return round(max(_MIN_HEDGED_CONFIDENCE, base - _HEDGE_PENALTY) if hedged else base, 2)

    def whole_clause(self) -> str:
        """The clause rewritten in the third person, starting at its subject when no date is lost."""
        return _whole_clause(self.clause, self.speaker, self.french)

    def as_said(self) -> str:
        """The words the pattern matched, in the third person: "I bike to work every day" -> "Leo
        bikes to work every day"."""
        said = self.clause.text[self.match.start() : self.match.end()]
        return capitalize_first(self.third(said, named=False))


Made = Item | Sequence[Item] | None
Maker = Callable[[Hit], Made]


@dataclass(frozen=True, slots=True)
class Rule:
    """One pattern and what it means. The pipeline is the same for all: search the clause, skip
    it where the speaker does not assert it, trim the object phrase and refuse a bad one, then
    let `make` build the items. `apply` returns None when the rule does not apply, and a list
    (maybe empty) when it does: inside a `OneOf`, the first rule that applies ends the choice."""

    pattern: re.Pattern[str]
    make: Maker
    french: bool | None = None  # the pattern's language; None: the clause's
    guard: Guard | None = asserted_where_matched
    needs_date: bool = False  # only for clauses that hold a date
    object_groups: tuple[str, ...] = ("object",)  # the first that matched is the object; () for none
    max_words: int | None = None  # cut the object at the end of its noun phrase
    lists: bool = False  # ... keeping "X, Y and Z" together
    check_object: bool = True  # refuse objects like "it", "you" (see phrases.is_object)
    not_objects: frozenset[str] = frozenset()  # more first words this rule refuses

    def apply(self, clause: Clause, speaker: str, reread: Reread) -> list[Item] | None:
        if self.needs_date and not clause.dates:
            return None
        match = self.pattern.search(clause.text)
        if match is None or (self.guard is not None and not self.guard(clause, match.start())):
            return None
        french = clause.french if self.french is None else self.french
        phrase = ""
        if self.object_groups:
            phrase = trim_phrase(
                next((match.group(name) for name in self.object_groups if match.group(name)), None)
            )
            if self.max_words is not None:
                phrase = noun_phrase(phrase, self.max_words, lists=self.lists)
            if not phrase or (self.check_object and not is_object(phrase, french, self.not_objects)):
                return None
        made = self.make(Hit(match, phrase, clause, speaker, french, reread))
        if made is None:
            return None
        return [made] if isinstance(made, Item) else list(made)


@dataclass(frozen=True, slots=True)
class OneOf:
    """Rules tried in order until one applies: alternative wordings of one statement."""

    rules: tuple[Rule, ...]

    def apply(self, clause: Clause, speaker: str, reread: Reread) -> list[Item] | None:
        for rule in self.rules:
            items = rule.apply(clause, speaker, reread)
            if items is not None:
                return items
        return None


Entry = Rule | OneOf


def run_rules(table: Sequence[Entry], clause: Clause, speaker: str, reread: Reread) -> list[Item]:
    """Every item the table's entries find in the clause, in table order."""
    return [item for entry in table for item in (entry.apply(clause, speaker, reread) or [])]


_SUBJECT_START_EN = regex(r"\b(?:i|we|my|our|let's)\b")
_SUBJECT_START_FR = regex(r"\b(?:je|j'|nous|on|mon|ma|mes)\b")


_LAST_WORD = re.compile(r"[a-z]+(?=\s+$)", re.IGNORECASE)


def _object_after_a_past_verb(text: str, at: int) -> bool:
    """Whether the word right before `at` is a verb in the past other than "was" and "were"."""
    found = _LAST_WORD.search(text, 0, at)
    word = found.group(0) if found is not None else ""
    return word.lower() not in ("", "was", "were") and is_past_form_en(word)


_IT_IS_BEFORE = regex(r"^\W*(?:it(?:'s|\s+is|\s+was)|today(?:'s|\s+is)|c'est)\s+$")
# A time clause said first keeps its word: "When I was in Paris I ate croissants" is no "I was in
# Paris I ate croissants" (not the "when" of "a shot I got when I volunteered", said inside).
_TIME_CLAUSE_BEFORE = regex(
    r"^\W*(?:(?:so|and|but|back|even)\s+)?(?:when|whenever|while|whilst|once|after|before|as\s+soon\s+as)\s+$"
)


def _main_subject(text: str, french: bool) -> int | None:
    """Where the clause's own subject starts: the first, unless it opens a relative clause ("a shot
    I got when I volunteered" is about volunteering, not what was got)."""
    starts = [m.start() for m in (_SUBJECT_START_FR if french else _SUBJECT_START_EN).finditer(text)]
    if french:
        return starts[0] if starts else None
    # "airline cancelled my flight": "my" after a verb in the past is its object, not the subject
    # ("this was my trip" names its subject after the verb).
    starts = [n for n in starts if not _object_after_a_past_verb(text, n)]
    # When each one opens a relative clause, the subject is the noun phrase they hang on ("the
    # last thing I want is a party"): the clause is kept from its start.
    return next((n for n in starts if not opens_relative_clause(text[:n])), None)


def _whole_clause(clause: Clause, speaker: str, french: bool) -> str:
    """The clause rewritten in the third person, starting at its subject when no date is lost; in
    the language of the rule that read it ("On a deux chats" has as many English words as French)."""
    text = strip_filler(clause.text).strip()
    if not french:
        text = as_suggestion(text)  # "Let's do the demo tomorrow": whose suggestion it was
    subject = _main_subject(text, french)
    # "it's my birthday today": "it's" holds the clause's verb, so it stays.
    before = text[:subject] if subject is not None else ""
    if (
        subject is not None
        and "\x00" not in before
        and not _IT_IS_BEFORE.search(before)
        and not _TIME_CLAUSE_BEFORE.search(before)
    ):
        text = text[subject:]
    return capitalize_first(third_person(trim_phrase(text) or text, speaker, french))
