"""Layers import one way: `memory/` knows nothing of the bot or the platforms, `adapters/` never
imports the bot, one platform's package never the other's, only `memory/storage/` knows a storage
backend, and every module says what it is for in its first line."""

from __future__ import annotations

import ast
import re
from collections.abc import Callable, Iterable
from pathlib import Path

import pytest

from tests.helpers import ROOT

# What each package may not import, at module level or inside a function or TYPE_CHECKING block.
FORBIDDEN = {"memory": ("bot", "adapters", "discord", "slack_bolt", "slack_sdk"), "adapters": ("bot",)}
# Each platform's package leaves the other platform alone: its library and its package.
PLATFORM_PACKAGES = {
    "adapters/slack": ("discord", "adapters.discord"),
    "adapters/discord": ("slack_bolt", "slack_sdk", "adapters.slack"),
}


def imported_modules(path: Path) -> set[str]:
    """Every module `path` imports, relative imports (`from ..base import X`) spelled in full, and
    each imported name as a possible module (`from memory.storage import embedded` reaches it)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    # The package a relative import starts from: the module's folder (its own for `__init__`).
    package = list(path.relative_to(ROOT).with_suffix("").parts)[:-1]
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level == 0:
                base = node.module or ""
            else:
                parent = package[: len(package) - node.level + 1]
                base = ".".join([*parent, *([node.module] if node.module else [])])
            names.add(base)
            names.update(f"{base}.{alias.name}" for alias in node.names)
    return names


def modules(package: str) -> list[Path]:
    return sorted((ROOT / package).rglob("*.py"))


def within(name: str, module: str) -> bool:
    """`name` is `module` or one of its submodules."""
    return name == module or name.startswith(module + ".")


def import_offenders(
    packages: Iterable[str], forbidden: Callable[[str], bool], exempt: Callable[[str], bool] = lambda _: False
) -> list[str]:
    """`<module> imports <name>` for each forbidden import of the modules of `packages` (bar the exempt)."""
    return [
        f"{where} imports {name}"
        for package in packages
        for path in modules(package)
        if not exempt(where := path.relative_to(ROOT).as_posix())
        for name in sorted(imported_modules(path))
        if forbidden(name)
    ]


@pytest.mark.parametrize("package", sorted(FORBIDDEN))
def test_a_lower_layer_never_imports_a_higher_one(package: str) -> None:
    assert import_offenders([package], lambda name: name.split(".")[0] in FORBIDDEN[package]) == []


@pytest.mark.parametrize("package", sorted(PLATFORM_PACKAGES))
def test_a_platform_package_never_imports_the_other_platform(package: str) -> None:
    others = PLATFORM_PACKAGES[package]
    assert import_offenders([package], lambda name: any(within(name, other) for other in others)) == []


def test_relative_imports_are_read_in_full() -> None:
    names = imported_modules(ROOT / "adapters" / "slack" / "adapter.py")
    assert {"adapters.base", "adapters.slack.events", "discord"} & names == {
        "adapters.base",
        "adapters.slack.events",
    }


@pytest.mark.parametrize("package", ["bot", "memory", "adapters", "bench"])
def test_every_module_opens_with_a_one_line_purpose(package: str) -> None:
    missing = []
    for path in modules(package):
        doc = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8")))
        if not doc or not doc.splitlines()[0].strip():
            missing.append(str(path.relative_to(ROOT)))
    assert missing == []


# Each backend's package, and the modules outside `memory/storage/` that may reach it, and why.
BACKEND_EXCEPTIONS = {
    "memory.storage.embedded": {
        # Its naive baselines are LanceDB's own vector and BM25 searches, over a table it adds
        # beside the embedded backend's: they measure that backend, not the seam.
        "bench/locomo.py",
    },
    "memory.storage.postgres": {
        # A benchmark claims and empties its database and COPY-loads a million rows with the
        # indexes built after: bulk paths the bot never takes (`memory.storage.postgres.bulk`).
        "bench/backend.py",
        "bench/latency.py",
    },
}


@pytest.mark.parametrize("backend", sorted(BACKEND_EXCEPTIONS))
def test_only_the_storage_package_knows_a_backend(backend: str) -> None:
    allowed = BACKEND_EXCEPTIONS[backend]
    offenders = import_offenders(
        ("memory", "bot", "adapters", "bench"),
        lambda name: within(name, backend),
        exempt=lambda where: where.startswith("memory/storage/") or where in allowed,
    )
    assert offenders == []


def test_the_bot_platforms_and_benchmarks_never_reach_a_store() -> None:
    # Stores are the storage's business: above `memory/` everything goes through the engine and
    # its repositories (`engine.storage.turns`), never `engine.store` / `engine.vectors`.
    offenders = [
        f"{path.relative_to(ROOT)}:{node.lineno} uses .{node.attr}"
        for package in ("bot", "adapters", "bench")
        for path in modules(package)
        if path.relative_to(ROOT).as_posix() not in BACKEND_EXCEPTIONS["memory.storage.embedded"]
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.Attribute) and node.attr in ("store", "vectors", "sql")
    ]
    assert offenders == []


def test_the_bot_and_the_platforms_go_through_the_engine_never_its_storage() -> None:
    # The bot reaches memory through the engine (`engine.handover` for what processes sharing a
    # storage need), so a second backend changes nothing above `memory/`. `settings.storage` is
    # the configuration section of that name; the benchmarks read stored rows to score them.
    def is_settings(node: ast.expr) -> bool:
        return (isinstance(node, ast.Name) and node.id == "settings") or (
            isinstance(node, ast.Attribute) and node.attr == "settings"
        )

    offenders = [
        f"{path.relative_to(ROOT)}:{node.lineno}"
        for package in ("bot", "adapters")
        for path in modules(package)
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.Attribute) and node.attr == "storage" and not is_settings(node.value)
    ]
    assert offenders == []


def test_no_module_points_to_a_document_outside_the_repository() -> None:
    # A reader of the code has the repository only: the workplace's design notes are not in it, so
    # what they say is written here (the README's "Privacy", a docstring) or not leaned on.
    # Nor is the tracker where the work was asked for: "the shapes of issue 6" tells a reader nothing.
    outside = re.compile(r"DESIGN\.md|DEVELOPERS\.md|\b[Ii]ssues?\s+#?\d+")
    offenders = [
        f"{path.relative_to(ROOT)} names {found.group()}"
        for package in ("memory", "bot", "adapters", "bench", "tests")
        for path in modules(package)
        if path != Path(__file__)
        for found in outside.finditer(path.read_text(encoding="utf-8"))
    ]
    assert offenders == []
