"""The suite's own markers, which its lanes select by (`-m "not model and not postgres"`)."""

from __future__ import annotations

import pytest

STORAGE_BACKENDS = ("embedded", "postgres")


def test_a_test_run_on_the_postgresql_backend_is_marked_postgres(
    backend: str, request: pytest.FixtureRequest
) -> None:
    marked = request.node.get_closest_marker("postgres") is not None
    assert marked == (backend == "postgres")


def test_every_test_that_asks_for_the_postgresql_server_is_marked_postgres(
    request: pytest.FixtureRequest,
) -> None:
    asking = [
        item
        for item in request.session.items
        if {"postgres_server", "postgres_url"} & set(getattr(item, "fixturenames", ()))
    ]
    if not asking:
        pytest.skip("this run selected no test that asks for the server")
    unmarked = [item.nodeid for item in asking if item.get_closest_marker("postgres") is None]
    assert not unmarked
