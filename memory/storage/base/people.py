"""The people repository: each user's profile and the names they go by."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence


class PeopleRepository(ABC):
    """People: each user's profile (one JSON document per scope) and the names they go by."""

    @abstractmethod
    async def profiles(
        self, platform: str, workspace_id: str, agent_id: str, user_ids: Sequence[str]
    ) -> list[tuple[str, str, float]]:
        """(user_id, JSON data, updated_at) of the stored profiles of these users."""

    @abstractmethod
    async def save_profile(
        self, platform: str, workspace_id: str, user_id: str, agent_id: str, data: str | None, now: float
    ) -> None:
        """Store a profile's JSON document, or delete the profile when `data` is None."""

    @abstractmethod
    async def add_aliases(
        self, platform: str, workspace_id: str, user_id: str, names: Sequence[str], now: float, keep: int
    ) -> list[str]:
        """Record names of a user, keeping the newest `keep`; returns the ones that were new."""

    @abstractmethod
    async def remove_aliases(self, platform: str, workspace_id: str, user_id: str, name: str | None) -> int:
        """Forget one name of a user (all of them when `name` is None); returns how many."""

    @abstractmethod
    async def names_of(self, platform: str, workspace_id: str, user_ids: Sequence[str]) -> list[str]:
        """The names these users go by, oldest first."""

    @abstractmethod
    async def users_named(
        self, platform: str, workspace_id: str, names: Sequence[str], ids: Sequence[str] = ()
    ) -> list[str]:
        """The user ids going by one of `names` (or being one of `ids`), sorted."""
