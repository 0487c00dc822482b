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
    refined by it word for word.
    """
    new_words = content_words(new_text)
    for existing_id, old_text, similarity in candidates:
        if similarity < policy.refine_floor:
            continue
        old_words = content_words(old_text)
        if new_words <= old_words:
            return DedupDecision(DedupAction.COVERED, existing_id, similarity)
        if old_words <= new_words or (similarity >= policy.supersede_at and existing_id not in siblings):
            return DedupDecision(DedupAction.SUPERSEDE, existing_id, similarity)
    return DedupDecision(DedupAction.INSERT)
