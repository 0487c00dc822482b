"""Wiring and the conversation loop: settings, app start/stop, turn pipeline, LLMs, CLI."""
