"""A package registered without its `__init__` (as LanceDB's REST client is) runs it on first use."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from memory.storage.embedded.rest_client import defer_package_init

PACKAGE = "memorybot_deferred_probe"


def test_a_deferred_package_runs_its_init_only_when_a_name_of_its_own_is_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A package shaped like the REST client: models beside API classes its `__init__` imports.
    (tmp_path / PACKAGE).mkdir()
    (tmp_path / PACKAGE / "__init__.py").write_text("from .api import Api\nLOADED = True\n")
    (tmp_path / PACKAGE / "api.py").write_text("class Api: ...\n")
    (tmp_path / PACKAGE / "models.py").write_text("class Model: ...\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    try:
        defer_package_init(PACKAGE)
        package = sys.modules[PACKAGE]
        assert "LOADED" not in vars(package)

        from memorybot_deferred_probe.models import Model

        assert Model.__module__ == f"{PACKAGE}.models"
        assert "LOADED" not in vars(package) and f"{PACKAGE}.api" not in sys.modules

        from memorybot_deferred_probe import Api

        assert Api is sys.modules[f"{PACKAGE}.api"].Api
        assert package.LOADED and "__getattr__" not in vars(package)
        defer_package_init(PACKAGE)  # already imported: left as it is
        assert sys.modules[PACKAGE] is package
    finally:
        for name in [n for n in sys.modules if n == PACKAGE or n.startswith(f"{PACKAGE}.")]:
            del sys.modules[name]


def test_a_package_not_installed_is_left_to_the_import_that_needs_it() -> None:
    defer_package_init("memorybot_no_such_package")
    assert "memorybot_no_such_package" not in sys.modules
    with pytest.raises(ModuleNotFoundError):
        import memorybot_no_such_package  # noqa: F401
