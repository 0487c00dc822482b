"""A person's profile: its values (fields, likes, family, about) and how the facts of a memory fill them."""

from __future__ import annotations

import logging
from collections.abc import Iterable
from dataclasses import dataclass, field

from ..models import Memory, MemoryType, Visibility
from ..text import Fact, Predicate, clean_value, read_facts

log = logging.getLogger(__name__)

_MAX_LIKES = 12
_MAX_FAMILY = 8
_MAX_ABOUT = 6
PROFILE_TYPES = (MemoryType.IDENTITY, MemoryType.PREFERENCE, MemoryType.FACT)

# Single-valued fields, in the order the compact line shows them.
FIELDS = ("name", "nickname", "pronouns", "location", "job", "workplace", "origin", "age", "relationship",
          "languages", "studies", "diet", "timezone")  # fmt: skip


# --------------------------------------------------------------------------- values


@dataclass(slots=True)
class ProfileEntry:
    """One profile value and the memory it came from (so forgetting the memory removes it)."""

    value: str
    memory_id: str
    at: float  # the memory's created_at: the newest statement wins

    def to_json(self) -> dict[str, object]:
        return {"value": self.value, "memory_id": self.memory_id, "at": self.at}

    @classmethod
    def from_json(cls, data: object) -> ProfileEntry | None:
        if not isinstance(data, dict):
            return None
        value, memory_id, at = data.get("value"), data.get("memory_id"), data.get("at")
        if not isinstance(value, str) or not isinstance(memory_id, str) or not isinstance(at, int | float):
            return None
        return cls(value, memory_id, float(at))


def value_key(value: str) -> str:
    return " ".join(value.split()).casefold()


@dataclass(slots=True)
class ProfileSection:
    """Profile values from memories of one visibility (workspace-visible, or private to the user)."""

    fields: dict[str, ProfileEntry] = field(default_factory=dict)
    likes: list[ProfileEntry] = field(default_factory=list)  # newest first
    dislikes: list[ProfileEntry] = field(default_factory=list)  # newest first
    family: dict[str, ProfileEntry] = field(default_factory=dict)  # relation -> "dog Rex"
    about: list[ProfileEntry] = field(default_factory=list)  # other identity statements, newest first

    def is_empty(self) -> bool:
        return not (self.fields or self.likes or self.dislikes or self.family or self.about)

    def memory_ids(self) -> set[str]:
        entries = [*self.fields.values(), *self.likes, *self.dislikes, *self.family.values(), *self.about]
        return {e.memory_id for e in entries}

    def remove_memory(self, memory_id: str) -> bool:
        before = self.memory_ids()
        self.fields = {k: e for k, e in self.fields.items() if e.memory_id != memory_id}
        self.family = {k: e for k, e in self.family.items() if e.memory_id != memory_id}
        self.likes = [e for e in self.likes if e.memory_id != memory_id]
        self.dislikes = [e for e in self.dislikes if e.memory_id != memory_id]
        self.about = [e for e in self.about if e.memory_id != memory_id]
        return memory_id in before

    def apply(self, kind: str, key: str, entry: ProfileEntry) -> bool:
        """Add one fact; an older statement never overwrites a newer one. True if anything changed."""
        if kind == "field":
            return _put(self.fields, key, entry, len(FIELDS))
        if kind == "family":
            return _put(self.family, key, entry, _MAX_FAMILY)
        if kind == "about":
            return _push(self.about, entry, _MAX_ABOUT)
        mine, other = (self.likes, self.dislikes) if kind == "like" else (self.dislikes, self.likes)
        clash = next((e for e in other if value_key(e.value) == value_key(entry.value)), None)
        if clash is not None:
            if clash.at > entry.at:
                return False  # "likes coffee" said after "dislikes coffee": the newer one stands
            other.remove(clash)
        return _push(mine, entry, _MAX_LIKES) or clash is not None

    def to_json(self) -> dict[str, object]:
        return {
            "fields": {k: e.to_json() for k, e in self.fields.items()},
            "likes": [e.to_json() for e in self.likes],
            "dislikes": [e.to_json() for e in self.dislikes],
            "family": {k: e.to_json() for k, e in self.family.items()},
            "about": [e.to_json() for e in self.about],
        }

    @classmethod
    def from_json(cls, data: object) -> ProfileSection:
        if not isinstance(data, dict):
            return cls()

        def entries(raw: object) -> list[ProfileEntry]:
            items = raw if isinstance(raw, list) else []
            return [e for e in map(ProfileEntry.from_json, items) if e is not None]

        def mapping(raw: object) -> dict[str, ProfileEntry]:
            items = raw.items() if isinstance(raw, dict) else []
            out = {str(k): ProfileEntry.from_json(v) for k, v in items}
            return {k: v for k, v in out.items() if v is not None}

        return cls(
            fields=mapping(data.get("fields")),
            likes=entries(data.get("likes")),
            dislikes=entries(data.get("dislikes")),
            family=mapping(data.get("family")),
            about=entries(data.get("about")),
        )

    def ops(self) -> list[tuple[str, str, ProfileEntry]]:
        """Every value as (kind, key, entry): replaying them rebuilds (or merges) sections."""
        out: list[tuple[str, str, ProfileEntry]] = [("field", k, e) for k, e in self.fields.items()]
        out += [("family", k, e) for k, e in self.family.items()]
        out += [("like", "", e) for e in self.likes]
        out += [("dislike", "", e) for e in self.dislikes]
        out += [("about", "", e) for e in self.about]
        return out


def _put(target: dict[str, ProfileEntry], key: str, entry: ProfileEntry, limit: int) -> bool:
    old = target.get(key)
    if old is not None and (old.at > entry.at or old == entry):
        return False
    target[key] = entry
    while len(target) > limit:
        del target[min(target, key=lambda k: target[k].at)]
    return True


def _push(target: list[ProfileEntry], entry: ProfileEntry, limit: int) -> bool:
    old = next((e for e in target if value_key(e.value) == value_key(entry.value)), None)
    if old is not None:
        if old.at > entry.at or old == entry:
            return False
        target.remove(old)
    target.append(entry)
    target.sort(key=lambda e: e.at, reverse=True)
    del target[limit:]
    return entry in target


@dataclass(slots=True)
class Profile:
    """What is known about one user in one workspace, for one agent.

    `shared` holds values from workspace-visible memories; `private` those from the user's own
    DM memories, which only `compact(profile, include_private=True)` shows (in a DM with them).
    """

    platform: str
    workspace_id: str
    user_id: str
    agent_id: str
    shared: ProfileSection = field(default_factory=ProfileSection)
    private: ProfileSection = field(default_factory=ProfileSection)
    display_name: str | None = None  # the name the shared memories call the user by
    updated_at: float = 0.0

    def is_empty(self) -> bool:
        return self.shared.is_empty() and self.private.is_empty()

    def memory_ids(self) -> set[str]:
        return self.shared.memory_ids() | self.private.memory_ids()

    def known_name(self, include_private: bool = False) -> str | None:
        """The name the user said they go by: their name ("my name is Mickael"), else the one they
        asked to be called ("call me Mick"); the newest statement of each wins."""
        fields = merged_section(self, include_private).fields
        entry = fields.get("name") or fields.get("nickname")
        return entry.value if entry is not None else None

    def time_zone(self, include_private: bool = False) -> str | None:
        """The time zone the user said they are in ("PST", "UTC+2"), the newest statement winning."""
        entry = merged_section(self, include_private).fields.get("timezone")
        return entry.value if entry is not None else None

    def to_json(self) -> dict[str, object]:
        data = self.shared.to_json()
        data["display_name"] = self.display_name
        data["private"] = self.private.to_json()
        return data

    @classmethod
    def from_json(
        cls, platform: str, workspace_id: str, user_id: str, agent_id: str, data: object, updated_at: float
    ) -> Profile:
        raw = data if isinstance(data, dict) else {}
        name = raw.get("display_name")
        return cls(
            platform,
            workspace_id,
            user_id,
            agent_id,
            shared=ProfileSection.from_json(raw),
            private=ProfileSection.from_json(raw.get("private")),
            display_name=name if isinstance(name, str) and name else None,
            updated_at=updated_at,
        )


# --------------------------------------------------------------------------- reading memories

ProfileFact = tuple[str, str, str]  # (kind, key, value): kind is field, family, like, dislike or about

# Where each predicate goes in a profile: a single-valued field, the family, likes, dislikes, "about".
_FIELD_PREDICATES = frozenset(Predicate(name) for name in FIELDS)
_KIND_OF = {
    Predicate.RELATIVE: "family",
    Predicate.HAS: "family",
    Predicate.LIKES: "like",
    Predicate.FAVORITE: "like",
    Predicate.DISLIKES: "dislike",
    Predicate.ABOUT: "about",
}


def fact_in_profile(fact: Fact) -> ProfileFact | None:
    """Where a fact goes in a profile, and the value shown there ("sister Léa", "blue (favorite color)");
    None for a fact no profile shows."""
    if fact.predicate in _FIELD_PREDICATES:
        return ("field", fact.predicate.value, clean_value(fact.object))
    kind = _KIND_OF.get(fact.predicate)
    if kind is None:
        return None
    if fact.predicate is Predicate.RELATIVE:
        value = f"{fact.relation} {clean_value(fact.object)}"
    elif fact.predicate is Predicate.FAVORITE:
        value = f"{clean_value(fact.object)} ({fact.relation})"
    else:
        value = fact.object
    return (kind, fact.relation if kind == "family" else "", clean_value(value))


def profile_facts(memory: Memory) -> list[ProfileFact]:
    """What a memory says about its user, as (kind, key, value); [] when it says nothing profile-worthy.

    The fact the extractor stored with it when there is one; otherwise (the model wrote it, or it
    was stored before facts were) read from its words, which say the same (tests/test_profiles.py).
    """
    read = (
        [memory.fact]
        if memory.fact is not None
        else read_facts(memory.content, memory.memory_type, _leading_name(memory))
    )
    found = [fact_in_profile(fact) for fact in read]
    return [fact for fact in found if fact is not None and fact[2]]


def _leading_name(memory: Memory) -> str | None:
    """The name a memory opens with when it is the user's own (the extractor's first subject)."""
    if not memory.subjects:
        return None
    first = memory.subjects[0]
    head = memory.content[: len(first)]
    if head.casefold() == first.casefold() and memory.content[len(first) : len(first) + 1] in (" ", "'"):
        return head
    return None


def section_of(memory: Memory) -> str | None:
    """Which profile section a memory may feed: workspace-visible, private (the user's own DM), or none.

    Channel-visible memories feed neither: the profile line is shown in every channel of the
    workspace. A private memory only counts when its author is the user it is about, since the
    private section is shown to that user.
    """
    if memory.user_id is None:
        return None
    if memory.visibility is Visibility.WORKSPACE:
        return "shared"
    if memory.visibility is Visibility.PRIVATE and memory.author_id == memory.user_id:
        return "private"
    return None


def is_relevant(memory: Memory) -> bool:
    """Whether a written or forgotten memory may change a profile (cheap: no parsing, no I/O).

    A memory that feeds no section may still have fed one before its visibility was narrowed
    (a conversation found private), so every memory of a profile type about a user counts.
    """
    return memory.memory_type in PROFILE_TYPES and memory.user_id is not None


def apply_facts(profile: Profile, memory: Memory, facts: Iterable[ProfileFact]) -> bool:
    section_name = section_of(memory)
    if section_name is None:
        return False
    section = profile.shared if section_name == "shared" else profile.private
    changed = False
    for kind, key, value in facts:
        changed |= section.apply(kind, key, ProfileEntry(value, memory.id, memory.created_at))
    if section_name == "shared" and (who := _leading_name(memory)) and who != profile.display_name:
        profile.display_name = who
        changed = True
    return changed


def merged_section(profile: Profile, include_private: bool) -> ProfileSection:
    """What `profile` tells a reader: the shared section, with the private one on top in the user's DM."""
    if not include_private or profile.private.is_empty():
        return profile.shared
    merged = ProfileSection()
    # Replaying both sections oldest first lets a newer private statement override a shared one.
    ops = sorted([*profile.shared.ops(), *profile.private.ops()], key=lambda op: op[2].at)
    for kind, key, entry in ops:
        merged.apply(kind, key, entry)
    return merged
