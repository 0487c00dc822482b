"""The Discord adapter (discord.py): message intake, the `/memory` command group, command sync."""

from .bot import DiscordAdapter, MemoryBot, sync_commands

__all__ = ["DiscordAdapter", "MemoryBot", "sync_commands"]
