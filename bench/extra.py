"""The `bench` extra: what the benchmarks need beyond the bot itself (progress bars, plots, dateparser)."""

from __future__ import annotations

import importlib

INSTALL = 'pip install -e ".[bench]"'
# What `memorybot bench locomo|latency|load` imports; `bench dates` runs without dateparser.
NEEDED = ("tqdm", "matplotlib")


def missing() -> list[str]:
    """The modules of NEEDED that cannot be imported here."""
    absent = []
    for name in NEEDED:
        try:
            importlib.import_module(name)
        except ImportError:
            absent.append(name)
    return absent


def can_plot() -> bool:
    """Whether matplotlib is installed: a benchmark called as a library skips its plot without it."""
    try:
        importlib.import_module("matplotlib")
    except ImportError:
        return False
    return True
