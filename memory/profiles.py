"""Per-user profiles built from identity and preference memories, compacted to one prompt line."""

from __future__ import annotations

import asyncio
import dataclasses
import json
import logging
import time
import weakref
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

from .engine import MemoryEngine
from .models import Audience, Memory, MemoryType, Visibility
from .storage import Storage
from .text import Fact, Predicate, clean_value, read_facts

__all__ = [
    "COMPACT_MAX_CHARS",
    "Profile",
    "ProfileEntry",
    "ProfileSection",
    "ProfileStore",
    "ProfileUpdater",
    "compact",
    "is_relevant",
    "profile_facts",
    "section_of",
]

log = logging.getLogger(__name__)

COMPACT_MAX_CHARS = 300
_MAX_LIKES = 12
_MAX_FAMILY = 8
_MAX_ABOUT = 6
_REBUILD_LIMIT = 500  # most important, then newest, memories replayed when a profile is rebuilt
_PROFILE_TYPES = (MemoryType.IDENTITY, MemoryType.PREFERENCE, MemoryType.FACT)

# Single-valued fields, in the order the compact line shows them.
FIELDS = ("name", "nickname", "pronouns", "location", "job", "workplace", "origin", "age", "languages",
          "studies", "diet")  # fmt: skip


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


def _key(value: str) -> str:
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
        clash = next((e for e in other if _key(e.value) == _key(entry.value)), None)
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
    old = next((e for e in target if _key(e.value) == _key(entry.value)), None)
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
        fields = _merged(self, include_private).fields
        entry = fields.get("name") or fields.get("nickname")
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


def _profile_fact(fact: Fact) -> ProfileFact | None:
    """Where a fact goes in a profile, and the value shown there ("sister Léa", "blue (favorite color)")."""
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
    """What a memory says about its user, as (kind, key, value); [] when it says nothing profile-worthy."""
    read = read_facts(memory.content, memory.memory_type, _leading_name(memory))
    found = [_profile_fact(fact) for fact in read]
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
    return memory.memory_type in _PROFILE_TYPES and memory.user_id is not None


def _apply(profile: Profile, memory: Memory, facts: Iterable[ProfileFact]) -> bool:
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


# --------------------------------------------------------------------------- the compact line

_PRIORITY = ("location", "job", "like", "dislike", "workplace", "family", "origin", "age", "languages",
             "diet", "studies", "about")  # fmt: skip
_LISTS = ("like", "dislike", "family", "about")


def _merged(profile: Profile, include_private: bool) -> ProfileSection:
    if not include_private or profile.private.is_empty():
        return profile.shared
    merged = ProfileSection()
    # Replaying both sections oldest first lets a newer private statement override a shared one.
    ops = sorted([*profile.shared.ops(), *profile.private.ops()], key=lambda op: op[2].at)
    for kind, key, entry in ops:
        merged.apply(kind, key, entry)
    return merged


def _head(section: ProfileSection, profile: Profile, display_name: str | None) -> str:
    fields = section.fields
    name = fields["name"].value if "name" in fields else (display_name or profile.display_name)
    name = name or profile.user_id
    head = name
    nick = fields.get("nickname")
    if nick is not None and _key(nick.value) != _key(name):
        head += f' "{nick.value}"'
    if "pronouns" in fields:
        head += f" ({fields['pronouns'].value})"
    return head


def _render(head: str, chosen: dict[str, list[str]]) -> str:
    parts: list[str] = []
    order = ("location", "job", "workplace", "origin", "age", "languages", "studies", "diet", "family",
             "about", "like", "dislike")  # fmt: skip
    for part in order:
        items = chosen.get(part)
        if not items:
            continue
        if part == "like":
            parts.append("likes " + ", ".join(items))
        elif part == "dislike":
            parts.append("dislikes " + ", ".join(items))
        elif part == "family":
            parts.append("family: " + ", ".join(items))
        else:
            parts.extend(items)
    return f"{head} — {'; '.join(parts)}" if parts else head


def compact(
    profile: Profile | None,
    include_private: bool = False,
    *,
    display_name: str | None = None,
    max_chars: int = COMPACT_MAX_CHARS,
) -> str:
    """One line for the prompt, at most `max_chars` long; "" when nothing is known.

    `include_private` adds what the user said in their DMs: pass True only when the
    conversation is a DM with this very user. `display_name` names the user when no memory
    gave their name. Values are picked by importance (where they live and work, then likes
    and dislikes) until the budget is spent.
    """
    if profile is None:
        return ""
    section = _merged(profile, include_private)
    if section.is_empty():
        return ""
    head = _head(section, profile, display_name)
    if len(head) >= max_chars:
        return head[: max(0, max_chars - 1)] + "…" if max_chars > 0 else ""
    candidates: dict[str, list[str]] = {
        "like": [e.value for e in section.likes],
        "dislike": [e.value for e in section.dislikes],
        "family": [e.value for e in sorted(section.family.values(), key=lambda e: e.at, reverse=True)],
        "about": [e.value for e in section.about],
    }
    for key in FIELDS:
        if key in section.fields and key not in ("name", "nickname", "pronouns"):
            candidates[key] = [section.fields[key].value]
    chosen: dict[str, list[str]] = {}
    for part in _PRIORITY:
        for item in candidates.get(part, []):
            chosen.setdefault(part, []).append(item)
            if len(_render(head, chosen)) > max_chars:
                chosen[part].pop()
                if part not in _LISTS:
                    break
    return _render(head, chosen)


# --------------------------------------------------------------------------- storage

Clock = Callable[[], float]
ProfileKey = tuple[str, str, str, str]


class ProfileStore:
    """Profiles in the `profiles` table (one JSON row per platform, workspace, user and agent)."""

    def __init__(self, storage: Storage, clock: Clock = time.time) -> None:
        # Profile rows are people's; they are rebuilt from the memories about the user.
        self.people = storage.people
        self.memories = storage.memories
        self.clock = clock
        # One read-modify-write at a time per profile; weak values so idle users cost nothing.
        self._locks: weakref.WeakValueDictionary[ProfileKey, asyncio.Lock] = weakref.WeakValueDictionary()

    def _lock(self, key: ProfileKey) -> asyncio.Lock:
        lock = self._locks.get(key)
        if lock is None:
            lock = self._locks[key] = asyncio.Lock()
        return lock

    async def get(self, platform: str, workspace_id: str, user_id: str, agent_id: str) -> Profile | None:
        """The stored profile, or None when nothing is known about the user."""
        found = await self.get_many(platform, workspace_id, [user_id], agent_id)
        return found.get(user_id)

    async def get_many(
        self, platform: str, workspace_id: str, user_ids: Sequence[str], agent_id: str
    ) -> dict[str, Profile]:
        """Profiles of several users (a channel's participants) in one query, by user id."""
        unique = list(dict.fromkeys(u for u in user_ids if u))[:500]
        if not unique:
            return {}
        # Scoped by platform, workspace and agent; the private section is left to `compact`.
        rows = await self.people.profiles(platform, workspace_id, agent_id, unique)
        out: dict[str, Profile] = {}
        for user_id, data, updated_at in rows:
            try:
                parsed = json.loads(str(data))
            except ValueError:
                log.warning("unreadable profile ignored", extra={"user_id": user_id})
                parsed = {}
            out[str(user_id)] = Profile.from_json(
                platform,
                workspace_id,
                str(user_id),
                agent_id,
                parsed,
                updated_at,
            )
        return out

    async def _save(self, profile: Profile) -> None:
        data = None if profile.is_empty() else json.dumps(profile.to_json(), ensure_ascii=False)
        await self.people.save_profile(
            profile.platform,
            profile.workspace_id,
            profile.user_id,
            profile.agent_id,
            data,
            profile.updated_at,
        )

    async def update_from_memory(self, memory: Memory) -> Profile | None:
        """Fold one written, superseded or forgotten memory into its user's profile.

        Returns the profile as it now stands, or None when the memory cannot touch a profile
        (or the profile is now empty). A new memory is applied in place (the newest statement
        wins); a forgotten or superseded one that the profile used triggers a rebuild from the
        store, so whatever it had overwritten comes back.
        """
        if not is_relevant(memory) or memory.user_id is None:
            return None
        key = (memory.platform, memory.workspace_id, memory.user_id, memory.agent_id)
        async with self._lock(key):
            if memory.forgotten or memory.superseded_by is not None or section_of(memory) is None:
                current = await self.get(*key)
                if current is None or memory.id not in current.memory_ids():
                    return current
                return await self._rebuild_locked(*key)
            if not memory.is_active(self.clock()):
                return None
            facts = profile_facts(memory)
            if not facts:
                return None
            profile = await self.get(*key) or Profile(*key)
            if _apply(profile, memory, facts):
                profile.updated_at = self.clock()
                await self._save(profile)
            return profile

    async def rebuild(self, platform: str, workspace_id: str, user_id: str, agent_id: str) -> Profile | None:
        """Recompute a profile from the user's active memories (after an import, or to repair one)."""
        async with self._lock((platform, workspace_id, user_id, agent_id)):
            return await self._rebuild_locked(platform, workspace_id, user_id, agent_id)

    async def _rebuild_locked(
        self, platform: str, workspace_id: str, user_id: str, agent_id: str
    ) -> Profile | None:
        # The user's own view: workspace memories plus the private ones they wrote themselves.
        audience = Audience(platform, workspace_id, agent_id, viewer_id=user_id, private_ok=True)
        profile = await self._build(audience, user_id)
        await self._save(profile)
        return None if profile.is_empty() else profile

    async def _build(self, audience: Audience, user_id: str) -> Profile:
        now = self.clock()
        memories = await self.memories.about(
            audience, now, [user_id], list(_PROFILE_TYPES), limit=_REBUILD_LIMIT
        )
        profile = Profile(audience.platform, audience.workspace_id, user_id, audience.agent_id)
        for memory in sorted(memories, key=lambda m: (m.created_at, m.id)):
            _apply(profile, memory, profile_facts(memory))
        profile.updated_at = now
        return profile

    async def in_own_dm(self, audience: Audience) -> Profile | None:
        """The viewer's profile for a DM with them: their DM notes and what they said about
        themselves in the platform's other workspaces (`Audience.own_elsewhere`), read now.

        Not stored: the other workspaces' memories change without touching this DM's row.
        """
        if audience.viewer_id is None:
            return None
        profile = await self._build(audience, audience.viewer_id)
        return None if profile.is_empty() else profile


class ProfileUpdater:
    """Keeps profiles current: every memory the engine writes or forgets updates its user's profile.

    The engine's listeners are synchronous and sit on the write path, so the update is
    scheduled as a task on the running loop and never awaited there. `drain()` waits for the
    updates scheduled so far; `aclose()` also stops scheduling new ones (call it before
    closing the engine).
    """

    def __init__(self, engine: MemoryEngine, profiles: ProfileStore) -> None:
        self.profiles = profiles
        self._tasks: set[asyncio.Task[None]] = set()
        # The subset caused by forgotten memories: the next reply waits for these (`settle_forgets`).
        self._forgets: set[asyncio.Task[None]] = set()
        self._closed = False
        self.failures = 0
        engine.on_write(self._on_write)

    def _on_write(self, memory: Memory) -> None:
        if self._closed or not is_relevant(memory):
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            log.debug("profile update skipped: no running event loop", extra={"memory_id": memory.id})
            return
        # A copy: the caller may keep mutating its Memory after the listener returns.
        task = loop.create_task(self._update(dataclasses.replace(memory, subjects=list(memory.subjects))))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        if memory.forgotten:
            self._forgets.add(task)
            task.add_done_callback(self._forgets.discard)

    async def _update(self, memory: Memory) -> None:
        try:
            await self.profiles.update_from_memory(memory)
        except Exception:
            self.failures += 1
            log.warning("profile update failed", extra={"memory_id": memory.id}, exc_info=True)

    async def settle_forgets(self) -> None:
        """Wait for the profile updates of the memories forgotten so far.

        Cheap when nothing was forgotten; a reply awaits it so a profile line never shows a fact
        its user just had forgotten.
        """
        if self._forgets:
            await asyncio.gather(*list(self._forgets), return_exceptions=True)

    @property
    def pending(self) -> int:
        return len(self._tasks)

    async def drain(self) -> None:
        """Wait until every scheduled update has finished (including ones they led to)."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)

    async def aclose(self) -> None:
        self._closed = True
        await self.drain()
