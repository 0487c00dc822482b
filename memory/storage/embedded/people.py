"""Embedded people: the `profiles` and `aliases` tables."""

from __future__ import annotations

from collections.abc import Sequence

from ..base import PeopleRepository
from .sqlite import SQLiteTables


class EmbeddedPeople(SQLiteTables, PeopleRepository):
    """Profiles (one JSON row per platform, workspace, user and agent) and the names users go by."""

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

    async def save_profile(
        self, platform: str, workspace_id: str, user_id: str, agent_id: str, data: str | None, now: float
    ) -> None:
        async with self._db.transaction() as db:
            if data is None:
                await db.execute(
                    "DELETE FROM profiles WHERE platform = ? AND workspace_id = ? AND user_id = ? "
                    "AND agent_id = ?",
                    (platform, workspace_id, user_id, agent_id),
                )
                return
            await db.execute(
                "INSERT INTO profiles (platform, workspace_id, user_id, agent_id, data, updated_at) "
                "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (platform, workspace_id, user_id, agent_id) "
                "DO UPDATE SET data = excluded.data, updated_at = excluded.updated_at",
                (platform, workspace_id, user_id, agent_id, data, now),
            )

    async def add_aliases(
        self, platform: str, workspace_id: str, user_id: str, names: Sequence[str], now: float, keep: int
    ) -> list[str]:
        added: list[str] = []
        async with self._db.transaction() as db:
            for name in names:
                cursor = await db.execute(
                    "INSERT OR IGNORE INTO aliases (platform, workspace_id, user_id, alias, created_at) "
                    "VALUES (?, ?, ?, ?, ?)",
                    (platform, workspace_id, user_id, name, now),
                )
                if cursor.rowcount:
                    added.append(name)
            if added:
                await db.execute(
                    "DELETE FROM aliases WHERE platform = ? AND workspace_id = ? AND user_id = ? "
                    "AND alias NOT IN (SELECT alias FROM aliases WHERE platform = ? AND workspace_id = ? "
                    "AND user_id = ? ORDER BY created_at DESC, alias LIMIT ?)",
                    (platform, workspace_id, user_id, platform, workspace_id, user_id, keep),
                )
        return added

    async def remove_aliases(self, platform: str, workspace_id: str, user_id: str, name: str | None) -> int:
        sql = "DELETE FROM aliases WHERE platform = ? AND workspace_id = ? AND user_id = ?"
        params: list[object] = [platform, workspace_id, user_id]
        if name is not None:
            sql += " AND alias = ?"
            params.append(name)
        async with self._db.transaction() as db:
            cursor = await db.execute(sql, params)
            return cursor.rowcount

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
