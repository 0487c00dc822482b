"""Where a benchmark's JSON report goes: one indented file under the run's output directory."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any


async def write_report(out: Path, name: str, report: Mapping[str, Any]) -> None:
    """Write `report` as indented JSON to `out`/`name`, making `out` first; off the event loop."""
    await asyncio.to_thread(out.mkdir, parents=True, exist_ok=True)
    text = json.dumps(report, indent=2) + "\n"
    await asyncio.to_thread((out / name).write_text, text, encoding="utf-8")
