"""Layers import one way: `memory/` knows nothing of the bot or the platforms, `adapters/` never
imports the bot, and every module says what it is for in its first line."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
# What each package may not import, at module level or inside a function or TYPE_CHECKING block.
FORBIDDEN = {"memory": ("bot", "adapters", "discord", "slack_bolt", "slack_sdk"), "adapters": ("bot",)}


def imported_modules(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module)
    return names


def modules(package: str) -> list[Path]:
    return sorted((ROOT / package).rglob("*.py"))


@pytest.mark.parametrize("package", sorted(FORBIDDEN))
def test_a_lower_layer_never_imports_a_higher_one(package: str) -> None:
    offenders = [
        f"{path.relative_to(ROOT)} imports {name}"
        for path in modules(package)
        for name in sorted(imported_modules(path))
        if name.split(".")[0] in FORBIDDEN[package]
    ]
    assert offenders == []


@pytest.mark.parametrize("package", ["bot", "memory", "adapters", "bench"])
def test_every_module_opens_with_a_one_line_purpose(package: str) -> None:
    missing = []
    for path in modules(package):
        doc = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8")))
        if not doc or not doc.splitlines()[0].strip():
            missing.append(str(path.relative_to(ROOT)))
    assert missing == []
