"""The end-to-end suite's marker `same_on_two_workers` (tests/e2e/shared_servers.py): a test that starts no server
`--two-workers` changes runs once, in the main pass; that pass checks it never asks whether to start two workers."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.e2e import shared_servers


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if not shared_servers.two_workers_wanted():
        return
    skip = pytest.mark.skip(reason="runs once, in the main pass: it starts no server that --two-workers changes")
    for item in items:
        if item.get_closest_marker(shared_servers.ONCE) is not None:
            item.add_marker(skip)


@pytest.fixture(autouse=True)
def _same_on_two_workers_asks_nothing(request: pytest.FixtureRequest) -> Iterator[None]:
    """A test marked same_on_two_workers never asks two_workers_wanted(): if it did, the server it starts would be
    one that --two-workers changes, and the two-worker pass must run it."""
    marked = request.node.get_closest_marker(shared_servers.ONCE) is not None
    before = shared_servers.asked
    yield
    if marked:
        assert shared_servers.asked == before, (
            f"{request.node.nodeid} is marked {shared_servers.ONCE}, yet it asked whether to start two workers "
            "(it uses a server --two-workers changes): take the marker off"
        )
