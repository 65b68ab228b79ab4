"""What a session's `join CODE` costs in work, counted, not timed: the Python calls from the app's creation to its
table on screen, and the handler lookups its messages need once another session has joined before it."""

from __future__ import annotations

import sys
from types import FrameType
from typing import Any

import pytest
from textual import events

from dixit_tui.coordinator import Identity
from dixit_tui.tui import dispatch
from dixit_tui.tui.app import DixitApp
from dixit_tui.tui.table_screen import TableScreen
from tests.tui.fixtures import coordinator, options, screen_text, settle

SIZE = (100, 30)
CALLS = 86_000
"""Python calls for a join once another session has joined, headless, the test pilot's own calls included: 98,100
before styles, stylesheets and handler lookups were shared across sessions, 79,100 after."""


async def joined(coord: Any, code: str, name: str) -> DixitApp:
    app = DixitApp(coord, Identity(name, f"key-{name}"), command=f"join {code}")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, TableScreen)
        assert f"Dixit · table {code}" in screen_text(app)
    return app


async def test_a_second_join_stays_within_its_python_calls() -> None:
    coord = coordinator()
    host = await coord.connect(Identity("host", key="key-host"), lambda update: None)
    view = await host.create(options())
    await joined(coord, view.code, "ana")
    calls = 0

    def count(frame: FrameType, event: str, arg: object) -> None:
        nonlocal calls
        if event == "call":
            calls += 1

    sys.setprofile(count)
    try:
        await joined(coord, view.code, "ben")
    finally:
        sys.setprofile(None)
    assert calls <= CALLS, f"a join made {calls} Python calls (at most {CALLS})"


async def test_a_second_join_looks_no_handler_up_and_a_handler_set_later_is_found(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    coord = coordinator()
    host = await coord.connect(Identity("host", key="key-host"), lambda update: None)
    view = await host.create(options())
    await joined(coord, view.code, "ana")
    made = dispatch.plans_made
    await joined(coord, view.code, "ben")
    assert dispatch.plans_made == made, "the second join walked class hierarchies the first one had walked"

    resized: list[events.Resize] = []
    on_resize = TableScreen.on_resize

    def spy(screen: TableScreen, event: events.Resize) -> None:
        resized.append(event)
        on_resize(screen, event)

    monkeypatch.setattr(TableScreen, "on_resize", spy)
    await joined(coord, view.code, "cara")
    assert resized, "a handler set on a class after its lookups were kept was not called"
