"""Dedup decisions on store: exact duplicates, refinements that supersede, distinct facts kept apart."""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from enum import StrEnum

_WORD_RE = re.compile(r"[\w]+", re.UNICODE)
# Function words carry no content: a refinement must keep the *meaningful* words of the old text.
# "son" and "mon" are left out: they are English words too. Negations are kept on purpose:
# "likes" and "does not like" must never look the same.
_STOPWORDS = frozenset(
    """
    a an the and or but of to in on at by for with from into onto over under as is are was were be been being
    am do does did has have had having it its this that these those there here he she they them his her their
    him we us our you your i me my mine s t d ll re ve so very too just also then than
    le la les l un une des du de d et ou mais à au aux en dans sur sous par pour avec sans ce cet cette ces
    il elle ils elles on nous vous je j me m te t se s sa ses leur leurs ma mes ton ta tes est sont
    était été être a ai as avons avez ont qui que qu plus y
    """.split()
)


def _fold(word: str) -> str:
    decomposed = unicodedata.normalize("NFKD", word.casefold())
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def content_words(text: str) -> frozenset[str]:
    """Meaningful words of a text: casefolded, accents folded, stopwords and 1-letter words dropped."""
    words = (_fold(w) for w in _WORD_RE.findall(text))
    return frozenset(w for w in words if (len(w) > 1 or w.isdigit()) and w not in _STOPWORDS)


@dataclass(frozen=True, slots=True)
class DedupPolicy:
    """Thresholds calibrated for one embedding model.

    `supersede_at`: cosine at which a newer memory replaces an older one outright (an update
    of the same fact). `refine_floor`: lower cosine at which a newer memory still replaces the
    older one when it carries every content word of the older (a more precise version) —
    or is dropped when the older already carries every word of the newer.
    """

    supersede_at: float
    refine_floor: float


# Measured pairs with all-MiniLM-L6-v2: "broke his shoulder" vs "+ on 10 January 2026" 0.84,
# the French pair 0.76, "Postgres" vs "+ for billing" 0.71 (refinements, all caught by
# containment above 0.6); "lives in Paris" vs "has a son" 0.66 and "likes pizza" vs "likes
# sushi" 0.71 (distinct, no containment, kept apart); "prefers dark mode" vs "light mode" 0.90
# and "deadline Friday" vs "Monday" 0.92 (updates, superseded by the 0.85 seed rule).
_POLICIES: dict[str, DedupPolicy] = {
    "all-MiniLM-L6-v2": DedupPolicy(supersede_at=0.85, refine_floor=0.60),
    # text-embedding-3-* spreads similarities lower than MiniLM: same structure, shifted down.
    "text-embedding-3-small": DedupPolicy(supersede_at=0.80, refine_floor=0.55),
    "text-embedding-3-large": DedupPolicy(supersede_at=0.80, refine_floor=0.55),
}
SEED_POLICY = DedupPolicy(supersede_at=0.85, refine_floor=0.65)


def policy_for_model(model_name: str, override: float | None = None) -> DedupPolicy:
    """The calibrated policy of an embedding model; `override` replaces its supersede threshold."""
    policy = _POLICIES.get(model_name.split("/")[-1], SEED_POLICY)
    if override is not None:
        policy = DedupPolicy(supersede_at=override, refine_floor=min(policy.refine_floor, override))
    return policy


class DedupAction(StrEnum):
    INSERT = "insert"  # a new, distinct memory
    SUPERSEDE = "supersede"  # the new memory replaces an existing one
    COVERED = "covered"  # an existing memory already says all of it: nothing to write


@dataclass(frozen=True, slots=True)
class DedupDecision:
    action: DedupAction
    existing_id: str | None = None
    similarity: float = 0.0


# The subjects' prefix of a memory that records one instance of a kind ("kind:activity": a camping
# trip, a book read, a place visited; memory/text/rules/activities.py and works.py).
KIND_SUBJECT_PREFIX = "kind:"


def records_an_instance(subjects: list[str]) -> bool:
    """Whether a memory with these subjects records one instance of a kind (an occasion, a title)."""
    return any(subject.startswith(KIND_SUBJECT_PREFIX) for subject in subjects)


# The verbs of a lasting state (a home, a job, a school) in each tense, as notes word them: "lives in
# Lyon" and "has lived in Berlin since 2019" say how things are; "lived in Lyon as a student", "used to
# work at Acme" and "a habité à Lyon" say how they were; "moved to Lyon in 2019" says that they
# changed. Words are casefolded, accents kept ("habite", present, is not "habité", past).
_STATE_NOW = frozenset(
    "live lives living work works working study studies studying habite habitent vit vivent travaille "
    "travaillent étudie étudient".split()
)
_STATE_BEFORE = frozenset(
    "lived worked studied habitait habitaient vivait vivaient travaillait travaillaient étudiait étudiaient "
    "habité vécu travaillé étudié".split()
)
_STATE_CHANGED = frozenset("move moves moved moving relocated déménage déménagé déménagent emménagé".split())
_PERFECT_EN = frozenset({"has", "have"})  # "has lived in Berlin since 2019": still so
# How a note in the past says the state is over, not merely that it was: "until 2025", "used to".
_ENDED = re.compile(r"\b(?:until|till|used\s+to|no\s+longer|any\s*more|jusqu)\b", re.IGNORECASE)


class _StateTold(StrEnum):
    NOW = "how it is"
    BEFORE = "how it was"
    CHANGED = "that it changed"


def _state_told(text: str) -> _StateTold | None:
    """What a note tells of a lasting state, or None when it tells of none or of more than one thing."""
    words = _WORD_RE.findall(text.casefold())
    told: set[_StateTold] = set()
    for i, word in enumerate(words):
        if word in _STATE_CHANGED:
            told.add(_StateTold.CHANGED)
        elif word in _STATE_BEFORE and not (i and words[i - 1] in _PERFECT_EN):
            told.add(_StateTold.BEFORE)
        elif word in _STATE_NOW and words[max(0, i - 2) : i] == ["used", "to"]:
            told.add(_StateTold.BEFORE)
        elif word in _STATE_NOW or word in _STATE_BEFORE:
            told.add(_StateTold.NOW)
    return told.pop() if len(told) == 1 else None


def _same_telling(old_text: str, new_text: str) -> bool:
    """Whether two notes do not tell two different things of a lasting state (one may tell of none)."""
    old, new = _state_told(old_text), _state_told(new_text)
    return old is None or new is None or old == new


def _may_update(old_text: str, new_text: str) -> bool:
    """Whether, as far as a lasting state goes, a close new note may be an update of the old one.

    How a state was never updates how it is: "lived in Lyon as a student" after "lives in Lyon"
    (0.89 with MiniLM) is history, and both are true; only a past that says it ended ("lived in
    Lyon until 2025", "used to work at Acme") replaces the present. Nor does the present or a move
    update the past: after moving back, "used to live in Madrid" is still true beside "lives in
    Madrid" (0.95) and "moved back to Madrid" (0.88). Nor does a move update the home it led to:
    "moved to Lyon in 2019" beside "lives in Lyon" (0.86).
    """
    if _same_telling(old_text, new_text):
        return True
    return (
        _state_told(old_text) is _StateTold.NOW
        and _state_told(new_text) is _StateTold.BEFORE
        and _ENDED.search(new_text) is not None
    )


def decide(
    new_text: str,
    candidates: list[tuple[str, str, float]],
    policy: DedupPolicy,
    siblings: frozenset[str] = frozenset(),
) -> DedupDecision:
    """Pick what to do with `new_text` given same-scope neighbours (id, text, cosine), best first.

    `siblings`: the neighbours learned from the same message. Their closeness alone never makes the
    new memory an update of them: one message does not correct itself, so "lives in Lyon" and
    "moved to Lyon in 2019" (0.86 with MiniLM) are two facts. A sibling may still cover it, or be
    refined by it word for word. A note of how a state was is neither covered by one of how it is nor
    an update of it, unless it says the state ended; nor the reverse, nor a move (`_may_update`).
    Words alone cannot tell them apart once accents are folded: "a habité à Lyon" has every word of
    "habite à Lyon".
    """
    new_words = content_words(new_text)
    for existing_id, old_text, similarity in candidates:
        if similarity < policy.refine_floor:
            continue
        old_words = content_words(old_text)
        if new_words <= old_words and _same_telling(old_text, new_text):
            return DedupDecision(DedupAction.COVERED, existing_id, similarity)
        if (
            old_words <= new_words or (similarity >= policy.supersede_at and existing_id not in siblings)
        ) and _may_update(old_text, new_text):
            return DedupDecision(DedupAction.SUPERSEDE, existing_id, similarity)
    return DedupDecision(DedupAction.INSERT)
