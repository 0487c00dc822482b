"""People: who they are (profiles from their memories, one compact line each) and what they are called."""

from .aliases import MAX_ALIASES_PER_USER, AliasStore, learn_aliases, normalize_alias
from .compact import COMPACT_MAX_CHARS, compact
from .profile import (
    Profile,
    ProfileEntry,
    ProfileSection,
    fact_in_profile,
    is_relevant,
    profile_facts,
    section_of,
)
from .profiles import ProfileStore, ProfileUpdater

__all__ = [
    "COMPACT_MAX_CHARS",
    "MAX_ALIASES_PER_USER",
    "AliasStore",
    "Profile",
    "ProfileEntry",
    "ProfileSection",
    "ProfileStore",
    "ProfileUpdater",
    "compact",
    "fact_in_profile",
    "is_relevant",
    "learn_aliases",
    "normalize_alias",
    "profile_facts",
    "section_of",
]
