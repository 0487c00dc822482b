"""The people repository: each user's profile and the names they go by."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from contextlib import AbstractAsyncContextManager
from typing import ClassVar

from .tables import Write


class PeopleRepository(ABC):
    """People: each user's profile (one JSON document per scope) and the names they go by.

    The writes are the same in every backend: each names its statements below, in its dialect,
    binding the values each comment lists in that order.
    """

    # platform, workspace_id, user_id, agent_id
    _DELETE_PROFILE: ClassVar[str]
    # platform, workspace_id, user_id, agent_id, data, updated_at: inserted or replaced
    _SAVE_PROFILE: ClassVar[str]
    # platform, workspace_id, user_id, alias, created_at: changes no row when the name is known
    _ADD_ALIAS: ClassVar[str]
    # platform, workspace_id, user_id, keep: deletes all but the user's newest `keep` names
    _KEEP_NEWEST_ALIASES: ClassVar[str]
    # platform, workspace_id, user_id
    _REMOVE_ALIASES: ClassVar[str]
    # platform, workspace_id, user_id, alias
    _REMOVE_ALIAS: ClassVar[str]

    @staticmethod
    def _text(text: str) -> str:
        """A name or a profile's document as the backend stores it: here, as given."""
        return text

    @abstractmethod
    def _writing(self) -> AbstractAsyncContextManager[Write]:
        """One write transaction, its statements run through the `Write` it yields."""

    @abstractmethod
    async def profiles(
        self, platform: str, workspace_id: str, agent_id: str, user_ids: Sequence[str]
    ) -> list[tuple[str, str, float]]:
        """(user_id, JSON data, updated_at) of the stored profiles of these users."""

    async def save_profile(
        self, platform: str, workspace_id: str, user_id: str, agent_id: str, data: str | None, now: float
    ) -> None:
        """Store a profile's JSON document, or delete the profile when `data` is None."""
        key = (platform, workspace_id, user_id, agent_id)
        async with self._writing() as write:
            if data is None:
                await write(self._DELETE_PROFILE, key)
            else:
                await write(self._SAVE_PROFILE, (*key, self._text(data), now))

    async def add_aliases(
        self, platform: str, workspace_id: str, user_id: str, names: Sequence[str], now: float, keep: int
    ) -> list[str]:
        """Record names of a user, keeping the newest `keep`; returns the ones that were new."""
        user = (platform, workspace_id, user_id)
        added: list[str] = []
        async with self._writing() as write:
            for name in names:
                if await write(self._ADD_ALIAS, (*user, self._text(name), now)):
                    added.append(name)
            if added:
                await write(self._KEEP_NEWEST_ALIASES, (*user, keep))
        return added

    async def remove_aliases(self, platform: str, workspace_id: str, user_id: str, name: str | None) -> int:
        """Forget one name of a user (all of them when `name` is None); returns how many."""
        user = (platform, workspace_id, user_id)
        async with self._writing() as write:
            if name is None:
                return await write(self._REMOVE_ALIASES, user)
            return await write(self._REMOVE_ALIAS, (*user, self._text(name)))

    @abstractmethod
    async def names_of(self, platform: str, workspace_id: str, user_ids: Sequence[str]) -> list[str]:
        """The names these users go by, oldest first."""

    @abstractmethod
    async def users_named(
        self, platform: str, workspace_id: str, names: Sequence[str], ids: Sequence[str] = ()
    ) -> list[str]:
        """The user ids going by one of `names` (or being one of `ids`), sorted."""
