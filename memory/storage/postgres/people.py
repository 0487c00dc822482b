"""PostgreSQL people: the `profiles` and `aliases` tables."""

from __future__ import annotations

from collections.abc import Sequence

from ..base import PeopleRepository
from .db import safe_text
from .tables import PostgresTables


class PostgresPeople(PostgresTables, PeopleRepository):
    """Profiles (one JSON document per platform, workspace, user and agent) and the names users go by."""

    _DELETE_PROFILE = (
        "DELETE FROM profiles WHERE platform = $1 AND workspace_id = $2 AND user_id = $3 AND agent_id = $4"
    )
    _SAVE_PROFILE = (
        "INSERT INTO profiles (platform, workspace_id, user_id, agent_id, data, updated_at) "
        "VALUES ($1, $2, $3, $4, $5::json, $6) ON CONFLICT ON CONSTRAINT profiles_pkey "
        "DO UPDATE SET data = excluded.data, updated_at = excluded.updated_at"
    )
    _ADD_ALIAS = (
        "INSERT INTO aliases (platform, workspace_id, user_id, alias, created_at) "
        "VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING"
    )
    _KEEP_NEWEST_ALIASES = (
        "DELETE FROM aliases WHERE platform = $1 AND workspace_id = $2 AND user_id = $3 "
        "AND alias NOT IN (SELECT alias FROM aliases WHERE platform = $1 AND workspace_id = $2 "
        'AND user_id = $3 ORDER BY created_at DESC, alias COLLATE "C" LIMIT $4)'
    )
    _REMOVE_ALIASES = "DELETE FROM aliases WHERE platform = $1 AND workspace_id = $2 AND user_id = $3"
    _REMOVE_ALIAS = f"{_REMOVE_ALIASES} AND alias = $4"

    # PostgreSQL refuses NUL and unpaired surrogates.
    _text = staticmethod(safe_text)

    async def profiles(
        self, platform: str, workspace_id: str, agent_id: str, user_ids: Sequence[str]
    ) -> list[tuple[str, str, float]]:
        if not user_ids:
            return []
        rows = await self._db.fetch(
            "SELECT user_id, data::text, updated_at FROM profiles WHERE platform = $1 AND workspace_id = $2 "
            "AND agent_id = $3 AND user_id = ANY($4)",
            (platform, workspace_id, agent_id, list(user_ids)),
        )
        return [(r[0], r[1], r[2]) for r in rows]

    async def names_of(self, platform: str, workspace_id: str, user_ids: Sequence[str]) -> list[str]:
        if not user_ids:
            return []
        rows = await self._db.fetch(
            "SELECT alias FROM aliases WHERE platform = $1 AND workspace_id = $2 "
            'AND user_id = ANY($3) ORDER BY created_at, alias COLLATE "C"',
            (platform, workspace_id, list(user_ids)),
        )
        return [r[0] for r in rows]

    async def users_named(
        self, platform: str, workspace_id: str, names: Sequence[str], ids: Sequence[str] = ()
    ) -> list[str]:
        if not names and not ids:
            return []
        rows = await self._db.fetch(
            'SELECT DISTINCT user_id COLLATE "C" AS user_id FROM aliases WHERE platform = $1 '
            "AND workspace_id = $2 AND (alias = ANY($3) OR user_id = ANY($4)) ORDER BY 1",
            (platform, workspace_id, list(names), list(ids)),
        )
        return [r[0] for r in rows]
