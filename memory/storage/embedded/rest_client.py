"""LanceDB without its REST namespace client's API classes, which a local data directory never calls."""

from __future__ import annotations

import importlib.util
import sys

# LanceDB imports `lance_namespace`, which re-exports the request and response models of this
# generated REST client. The client package's own `__init__` also imports every API class (366
# methods, each wrapped in pydantic's `validate_call`): about a second of CPU at each start of the
# bot or of a child process, for remote namespaces a data directory never uses.
CLIENT = "lance_namespace_urllib3_client"


def defer_package_init(name: str) -> None:
    """Register package `name` without running its `__init__`: its submodules (the models LanceDB
    imports) load as usual, and the first read of anything else from the package itself runs the
    `__init__` then, so nothing that needs what it defines goes without it. Nothing is done for a
    package already imported, or one not installed (the import that needs it says so)."""
    if name in sys.modules:
        return
    spec = importlib.util.find_spec(name)
    if spec is None or spec.loader is None or spec.submodule_search_locations is None:
        return
    package = importlib.util.module_from_spec(spec)
    loader = spec.loader

    def load_the_rest(attribute: str) -> object:
        # Once: the module's `__getattr__` goes before `__init__` runs, so the names it defines
        # are found as plain attributes from then on.
        del package.__dict__["__getattr__"]
        loader.exec_module(package)
        return getattr(package, attribute)

    package.__dict__["__getattr__"] = load_the_rest
    sys.modules[name] = package
