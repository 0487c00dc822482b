"""The `bench` extra: what the benchmarks need beyond the bot itself (progress bars, plots, dateparser)."""

from __future__ import annotations

import importlib

INSTALL = 'pip install -e ".[bench]"'
# What `memorybot bench locomo|latency|load` cannot run without; `bench dates` needs neither.
NEEDED = ("tqdm",)
# What only draws the plots: without it a benchmark still writes its JSON.
PLOTS = "matplotlib"


def _importable(name: str) -> bool:
    try:
        importlib.import_module(name)
    except ImportError:
        return False
    return True


def missing() -> list[str]:
    """The modules of NEEDED that cannot be imported here."""
    return [name for name in NEEDED if not _importable(name)]


def can_plot() -> bool:
    """Whether matplotlib is installed: without it the benchmarks skip their plots."""
    return _importable(PLOTS)
