"""Cogs of the Discord adapter: message intake and the `/memory` command group."""

from __future__ import annotations

PLATFORM = "discord"
