"""Embedded people: the `profiles` and `aliases` tables."""

from __future__ import annotations

from collections.abc import Sequence

from ..base import PeopleRepository
from .sqlite import SQLiteTables, safe_text


class EmbeddedPeople(SQLiteTables, PeopleRepository):
    """Profiles (one JSON row per platform, workspace, user and agent) and the names users go by."""

    _DELETE_PROFILE = (
        "DELETE FROM profiles WHERE platform = ? AND workspace_id = ? AND user_id = ? AND agent_id = ?"
    )
    _SAVE_PROFILE = (
        "INSERT INTO profiles (platform, workspace_id, user_id, agent_id, data, updated_at) "
        "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (platform, workspace_id, user_id, agent_id) "
        "DO UPDATE SET data = excluded.data, updated_at = excluded.updated_at"
    )
    _ADD_ALIAS = (
        "INSERT OR IGNORE INTO aliases (platform, workspace_id, user_id, alias, created_at) "
        "VALUES (?, ?, ?, ?, ?)"
    )
    # `?1`: the first value again, as PostgreSQL's `$1` is.
    _KEEP_NEWEST_ALIASES = (
        "DELETE FROM aliases WHERE platform = ?1 AND workspace_id = ?2 AND user_id = ?3 "
        "AND alias NOT IN (SELECT alias FROM aliases WHERE platform = ?1 AND workspace_id = ?2 "
        "AND user_id = ?3 ORDER BY created_at DESC, alias LIMIT ?4)"
    )
    _REMOVE_ALIASES = "DELETE FROM aliases WHERE platform = ? AND workspace_id = ? AND user_id = ?"
    _REMOVE_ALIAS = f"{_REMOVE_ALIASES} AND alias = ?"

    # SQLite stores UTF-8: an unpaired surrogate in a name or a profile would fail the write.
    _text = staticmethod(safe_text)

    async def _of_users(
        self, sql: str, params: tuple[object, ...], user_ids: Sequence[str]
    ) -> list[tuple[object, ...]]:
        """The rows of `sql`, its `{users}` the marks of `user_ids` (bound after `params`); for no
        users, none and no read."""
        if not user_ids:
            return []
        marks = ",".join("?" * len(user_ids))
        return await self._db.fetch(sql.format(users=marks), (*params, *user_ids))

    async def profiles(
        self, platform: str, workspace_id: str, agent_id: str, user_ids: Sequence[str]
    ) -> list[tuple[str, str, float]]:
        rows = await self._of_users(
            "SELECT user_id, data, updated_at FROM profiles WHERE platform = ? AND workspace_id = ? "
            "AND agent_id = ? AND user_id IN ({users})",
            (platform, workspace_id, agent_id),
            user_ids,
        )
        return [(str(u), str(data), float(updated)) for u, data, updated in rows]  # type: ignore[arg-type]

    async def names_of(self, platform: str, workspace_id: str, user_ids: Sequence[str]) -> list[str]:
        rows = await self._of_users(
            "SELECT alias FROM aliases WHERE platform = ? AND workspace_id = ? "
            "AND user_id IN ({users}) ORDER BY created_at, alias",
            (platform, workspace_id),
            user_ids,
        )
        return [str(r[0]) for r in rows]

    async def users_named(
        self, platform: str, workspace_id: str, names: Sequence[str], ids: Sequence[str] = ()
    ) -> list[str]:
        if not names and not ids:
            return []
        alias_marks = ",".join("?" * len(names)) or "NULL"
        id_marks = ",".join("?" * len(ids)) or "NULL"
        rows = await self._db.fetch(
            "SELECT DISTINCT user_id FROM aliases WHERE platform = ? AND workspace_id = ? "
            f"AND (alias IN ({alias_marks}) OR user_id IN ({id_marks})) ORDER BY user_id",
            (platform, workspace_id, *names, *ids),
        )
        return [str(r[0]) for r in rows]
