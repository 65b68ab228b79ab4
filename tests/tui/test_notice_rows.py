"""A notice that goes leaves nothing of it on the terminal: fed every update a real driver writes, a terminal emulator
shows, once the notice went, what a fresh full drawing of the screen shows (seen playing over OpenSSH: part of a
notice stayed on the status line for 30 s, until that line changed)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace
from typing import Any
from unittest.mock import patch

import pyte
import pytest
from textual._compositor import CompositorUpdate
from textual.app import App
from textual.pilot import Pilot
from textual.widgets._toast import Toast

from dixit_tui.coordinator import Identity
from dixit_tui.tui.app import DixitApp
from dixit_tui.tui.table_screen import TableScreen
from tests.tui.fixtures import coordinator, options, screen_text, seat_many, settle

LONG = "Your card is in. Waiting for a card each from ben and cy, and then everyone votes: try it again."


@contextmanager
def terminal_of(size: tuple[int, int]) -> Iterator[pyte.Screen]:
    """A terminal emulator fed what every app's driver writes (not what an app batching its updates drops)."""
    terminal = pyte.Screen(*size)
    stream = pyte.Stream(terminal)
    display = App._display

    def shown(self: App[Any], screen: Any, renderable: Any) -> None:
        if isinstance(renderable, CompositorUpdate) and not self._batch_count:
            stream.feed(renderable.render_segments(self.console))
        display(self, screen, renderable)

    with patch.object(App, "_display", shown):
        yield terminal


def rows(terminal: pyte.Screen) -> list[str]:
    return [line.rstrip() for line in terminal.display]


def drawn(app: App[Any]) -> list[str]:
    return [line.rstrip() for line in screen_text(app).splitlines()]


async def _gone_by_click(app: DixitApp, pilot: Pilot[Any]) -> None:
    for toast in list(app.screen.query(Toast)):  # a click on a toast is its timer running out (`Toast._expire`)
        await pilot.click(toast)


async def _gone_by_clearing(app: DixitApp, pilot: Pilot[Any]) -> None:
    app.clear_notifications()


@pytest.mark.parametrize("gone", [_gone_by_clearing, _gone_by_click], ids=["cleared", "expired"])
@pytest.mark.parametrize("notices", [["Your card is in."], [LONG], ["ben left the table.", "cy left the table."]])
async def test_a_notice_gone_leaves_no_row_of_it(notices: list[str], gone: Any) -> None:
    """One notice, one that wraps onto the status line, two at once (stacked: Textual's own `notify`), each over the
    top bar's countdown (a table with a time limit, its clock ticking under the notice), gone by its timer or
    cleared: the terminal then shows the screen as drawn afresh, the notice's rows drawn over with what is under."""
    coord = coordinator()
    host = await coord.connect(Identity("ana", key="key-ana"), lambda update: None)
    view = await host.create(options(turn_seconds=120))
    await seat_many(coord, ["ben", "cy"], view.code)
    app = DixitApp(coord, Identity("dan", "key-dan"), command=f"join {view.code}")
    with terminal_of((80, 24)) as terminal:
        async with app.run_test(size=(80, 24), notifications=True) as pilot:
            await settle(pilot)
            await host.start()
            await settle(pilot)
            table = app.screen
            assert isinstance(table, TableScreen) and table.view.deadline is not None
            assert rows(terminal) == drawn(app)
            for tick in [False, True]:
                for text in notices:
                    App.notify(app, text, markup=False)  # (Textual's: DixitApp's shows one notice at a time)
                await settle(pilot)
                assert rows(terminal) == drawn(app)
                shown = rows(terminal)
                assert all(any(text[:15] in row for row in shown) for text in notices), shown
                if tick:  # the clock ticks under the notice
                    table.view = replace(table.view, deadline=table.view.deadline - 1)
                    table._tick()
                    await settle(pilot)
                    assert rows(terminal) == drawn(app)
                await gone(app, pilot)
                await settle(pilot)
                assert not app.screen.query(Toast)
                assert rows(terminal) == drawn(app)
                assert not any(text[:15] in row for row in rows(terminal) for text in notices), rows(terminal)
