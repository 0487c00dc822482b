"""Core value types of the memory engine: memories, scopes, audiences and their enums."""

from __future__ import annotations

import hashlib
import unicodedata
from dataclasses import dataclass, field
from datetime import tzinfo
from enum import StrEnum


class MemoryType(StrEnum):
    IDENTITY = "identity"
    FACT = "fact"
    PREFERENCE = "preference"
    DECISION = "decision"
    EVENT = "event"
    GOAL = "goal"
    TODO = "todo"
    OBSERVATION = "observation"


class Predicate(StrEnum):
    """What a fact says of its subject."""

    # About who the subject is: one value each, the newest statement wins.
    NAME = "name"
    NICKNAME = "nickname"
    PRONOUNS = "pronouns"
    LOCATION = "location"
    JOB = "job"
    WORKPLACE = "workplace"
    ORIGIN = "origin"
    AGE = "age"
    RELATIONSHIP = "relationship"  # "married", "single", "célibataire"
    LANGUAGES = "languages"
    STUDIES = "studies"
    DIET = "diet"
    TIMEZONE = "timezone"  # "PST", "UTC+2": the zone the subject's days are in
    ABOUT = "about"  # anything else said of who the subject is ("is French", "est gaucher")
    # Relatives and pets: `relation` says which ("sister", "kids").
    RELATIVE = "relative"  # a named one
    HAS = "has"  # "has two kids"
    # Tastes.
    LIKES = "likes"
    DISLIKES = "dislikes"
    DOES_NOT_MIND = "does_not_mind"
    FAVORITE = "favorite"  # `relation` names what kind of favourite ("favorite color")
    ALLERGY = "allergy"
    # What the subject does and decides.
    DECIDED = "decided"
    DEADLINE = "deadline"
    TODO = "todo"
    GOAL = "goal"
    EVENT = "event"
    STATED = "stated"  # said in so many words, in no other shape ("remember that the code is 1234")


@dataclass(frozen=True, slots=True)
class Fact:
    """One thing a memory says, e.g. ("Mickael", LOCATION, "lives in Lyon"). Stored with a memory
    about its user, `subject` is "" (whoever the memory's user is called, they may rename)."""

    subject: str  # whom it is about, as the text names them
    predicate: Predicate
    # The value, third person, dates written out. Where the verb carries meaning it is kept:
    # LOCATION "lives in Lyon" (not "near"), WORKPLACE "works at Acme", LANGUAGES "speaks French",
    # HAS "has two kids"; otherwise the bare value: NAME "Léa", JOB "nurse", LIKES "tea".
    object: str
    relation: str = ""  # RELATIVE and HAS: which relative ("sister"); FAVORITE: which ("favorite color")


# Importance defaults by type: who someone is first; todo sits with goals because it is actionable.
DEFAULT_IMPORTANCE: dict[MemoryType, float] = {
    MemoryType.IDENTITY: 1.0,
    MemoryType.GOAL: 0.9,
    MemoryType.DECISION: 0.8,
    MemoryType.PREFERENCE: 0.7,
    MemoryType.FACT: 0.6,
    MemoryType.EVENT: 0.4,
    MemoryType.TODO: 0.6,
    MemoryType.OBSERVATION: 0.3,
}


class Visibility(StrEnum):
    WORKSPACE = "workspace"  # learned in a shared channel: visible across the workspace
    CHANNEL = "channel"  # visible only in the channel it was learned in
    PRIVATE = "private"  # learned in a DM: only for conversations with its author


class ConversationKind(StrEnum):
    """What kind of conversation a message comes from, as the platform says; it decides visibility."""

    PUBLIC = "public"  # a channel (or a thread of one) everyone in the workspace can read
    PRIVATE = "private"  # a private channel or thread, a channel hidden from everyone: its members only
    GROUP = "group"  # a group DM: its members only
    DM = "dm"  # a 1:1 DM with the bot

    @property
    def visibility(self) -> Visibility:
        """Where what is learned here may be recalled: workspace, this conversation only, or its author."""
        if self is ConversationKind.PUBLIC:
            return Visibility.WORKSPACE
        if self is ConversationKind.DM:
            return Visibility.PRIVATE
        return Visibility.CHANNEL


class Source(StrEnum):
    CONVERSATION = "conversation"
    CHAT = "chat"
    NOTE = "note"
    HEURISTIC = "heuristic"
    IMPORT = "import"


def normalize_text(text: str) -> str:
    """Canonical form used for hashing: NFC, collapsed whitespace, casefolded."""
    return " ".join(unicodedata.normalize("NFC", text).split()).casefold()


def content_hash(text: str) -> str:
    """Stable hash of a memory's meaning-bearing text (exact-duplicate detection)."""
    return hashlib.sha256(normalize_text(text).encode("utf-8", "surrogatepass")).hexdigest()


@dataclass(frozen=True, slots=True)
class Scope:
    """Where something was learned: the conversation it belongs to."""

    platform: str
    workspace_id: str
    channel_id: str
    agent_id: str = "default"
    thread_id: str | None = None


@dataclass(frozen=True, slots=True)
class Conversation:
    """A conversation as its platform describes it: where it is and what kind it is."""

    platform: str
    workspace_id: str
    channel_id: str
    kind: ConversationKind

    @property
    def key(self) -> tuple[str, str, str]:
        return (self.platform, self.workspace_id, self.channel_id)

    @property
    def members_only(self) -> bool:
        """True when what is said here must stay here (a private channel or thread, a group DM)."""
        return self.kind.visibility is Visibility.CHANNEL


@dataclass(frozen=True, slots=True)
class Audience:
    """Who will read a query's results; every store turns it into its own filter.

    `viewer_id` is the person the results are for (the conversation partner, or the
    user running a command). Private memories are only returned when `private_ok`
    (a DM with the viewer, or an owner-only view) and the viewer is their author.
    Channel-visible memories only in their own channel (`channel_id`), whoever asks: being
    a platform admin widens nothing. `operator` is the machine's operator (the CLI), who
    reads the channel-visible memories of every channel of the workspace, never private ones.
    `own_elsewhere` (a DM with the viewer) adds, on the same platform and agent, the memories
    about the viewer that the viewer said themselves in workspace-visible conversations of
    other workspaces: a person is known in their DM from what they said about themselves in
    the servers they share with the bot, never from what others said about them.
    """

    platform: str
    workspace_id: str
    agent_id: str = "default"
    viewer_id: str | None = None
    channel_id: str | None = None
    private_ok: bool = False
    operator: bool = False
    own_elsewhere: bool = False

    @property
    def reaches_elsewhere(self) -> bool:
        """True when the audience also reads the viewer's own shared memories of other workspaces."""
        return self.own_elsewhere and self.viewer_id is not None


class _Scoped:
    """The scope's fields read from a record as before: `memory.platform` is `memory.scope.platform`."""

    __slots__ = ()
    scope: Scope

    @property
    def platform(self) -> str:
        return self.scope.platform

    @property
    def workspace_id(self) -> str:
        return self.scope.workspace_id

    @property
    def channel_id(self) -> str:
        return self.scope.channel_id

    @property
    def thread_id(self) -> str | None:
        return self.scope.thread_id

    @property
    def agent_id(self) -> str:
        return self.scope.agent_id


@dataclass(slots=True)
class Memory(_Scoped):
    """One remembered item, as the storage keeps it (the source of truth for every field)."""

    id: str
    content: str
    memory_type: MemoryType
    importance: float
    confidence: float
    subjects: list[str]
    source: Source
    scope: Scope
    user_id: str | None = None
    author_id: str | None = None
    visibility: Visibility = Visibility.WORKSPACE
    created_at: float = 0.0
    updated_at: float = 0.0
    last_accessed_at: float | None = None
    access_count: int = 0
    expires_at: float | None = None
    forgotten: bool = False
    superseded_by: str | None = None
    content_hash: str = ""
    sources: list[str] = field(default_factory=list)
    # What the memory says of its user as fields, as the extractor found it (subject ""); None for
    # a memory written by the model, or said of someone else, whose words are all there is.
    fact: Fact | None = None

    def is_active(self, now: float) -> bool:
        return not self.forgotten and (self.expires_at is None or self.expires_at > now)

    def to_public_dict(self) -> dict[str, object]:
        """JSON-ready view used by exports, `list --json` and slash commands."""
        return {
            "id": self.id,
            "content": self.content,
            "memory_type": self.memory_type.value,
            "subjects": list(self.subjects),
            "importance": self.importance,
            "confidence": self.confidence,
            "source": self.source.value,
            "visibility": self.visibility.value,
            "platform": self.platform,
            "workspace_id": self.workspace_id,
            "channel_id": self.channel_id,
            "thread_id": self.thread_id,
            "user_id": self.user_id,
            "author_id": self.author_id,
            "agent_id": self.agent_id,
            "created_at": self.created_at,
            "updated_at": self.updated_at,
            "expires_at": self.expires_at,
            "access_count": self.access_count,
            "superseded_by": self.superseded_by,
            "forgotten": self.forgotten,
        }


@dataclass(slots=True)
class MemoryDraft:
    """What a caller wants remembered; the write path turns it into a `Memory`."""

    content: str
    scope: Scope
    memory_type: MemoryType = MemoryType.FACT
    subjects: list[str] = field(default_factory=list)
    ttl: str | None = None
    importance: float | None = None
    confidence: float = 0.8
    source: Source = Source.CONVERSATION
    user_id: str | None = None
    author_id: str | None = None
    visibility: Visibility = Visibility.WORKSPACE
    sources: list[str] = field(default_factory=list)
    created_at: float | None = None  # defaults to the engine clock; set when importing history
    # An expiry already computed (a heuristic deadline plus its grace); a `ttl` takes precedence.
    expires_at: float | None = None
    # The time zone its author lives in, which their "tomorrow" is read in; None: UTC.
    said_in: tzinfo | None = None
    # What it says of its user as fields (`Memory.fact`), when the writer knows.
    fact: Fact | None = None


@dataclass(slots=True)
class StoredMessage(_Scoped):
    """One turn received or sent, as kept in the `messages` table."""

    id: str
    scope: Scope
    author_id: str = ""
    author_name: str = ""
    role: str = "user"  # user | assistant | system
    content: str = ""
    created_at: float = 0.0
    external_id: str | None = None
    visibility: Visibility = Visibility.WORKSPACE
    tool_calls: list[dict[str, object]] = field(default_factory=list)


class SummaryKind(StrEnum):
    TURNS = "turns"  # level 1: one completed turn (the user batch and the reply)
    CONDENSED = "condensed"  # level 2+: several summaries of the level below
    THREAD = "thread"  # the one rolling summary of a channel or thread


@dataclass(slots=True)
class Summary(_Scoped):
    """One summary and what it covers: the ids it was made from and their time span."""

    id: str
    scope: Scope
    level: int = 1
    kind: SummaryKind = SummaryKind.TURNS
    content: str = ""
    covers_from: float = 0.0
    covers_to: float = 0.0
    source_ids: list[str] = field(default_factory=list)
    condensed_into: str | None = None
    raw_chars: int = 0
    visibility: Visibility = Visibility.WORKSPACE
    author_id: str | None = None  # for private summaries: the one user who may read them
    created_at: float = 0.0
