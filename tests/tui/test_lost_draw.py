"""A line changed on a screen reaches the terminal, whatever order its changes reach the screen in (lost draws)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any
from unittest.mock import patch

import pyte
from textual._compositor import CompositorUpdate
from textual.app import App, ComposeResult
from textual.containers import Horizontal
from textual.screen import Screen
from textual.widgets import Static

from dixit_tui.textual_host.row_compositor import RowCompositor


class Row(Screen[None]):
    """Two boxes side by side on one row, drawn by the table's compositor."""

    def __init__(self) -> None:
        super().__init__()
        self._compositor = RowCompositor()

    def compose(self) -> ComposeResult:
        with Horizontal():
            yield Static("left one", id="left")
            yield Static("right one", id="right")


class RowApp(App[None]):
    CSS = "Horizontal { height: 1; } Static { width: 20; }"

    def on_mount(self) -> None:
        self.push_screen(Row())


async def test_a_row_drawn_for_one_box_sends_the_other_box_when_its_change_arrives() -> None:
    """Both boxes of a row change, and the screen hears of the left one first (the right one's change still on its
    way, as a widget's Update message is): the row is drawn whole, but only the left box's span is sent. The right
    box's new text was remembered as shown, and its own update then found the row unchanged and sent nothing: the
    terminal kept its old text."""
    app = RowApp()
    terminal = pyte.Screen(40, 3)
    stream = pyte.Stream(terminal)

    def send(update: Any) -> None:
        if update is not None:
            stream.feed(update.render_segments(app.console))

    async with app.run_test(size=(40, 3)) as pilot:
        await pilot.pause()
        screen = app.screen
        compositor = screen._compositor
        assert isinstance(compositor, RowCompositor)
        compositor._dirty_regions.add(compositor.size.region)
        send(compositor.render_update())  # the whole screen, as the terminal got it
        assert terminal.display[0].rstrip() == "left one            right one"
        left, right = screen.query_one("#left", Static), screen.query_one("#right", Static)
        left.update("left two")
        right.update("right two")
        compositor.update_widgets({left})
        send(compositor.render_update())
        assert terminal.display[0].rstrip() == "left two            right one"
        compositor.update_widgets({right})
        send(compositor.render_update())
        assert terminal.display[0].rstrip() == "left two            right two"
        # and a row the terminal shows already is still not sent again
        compositor.update_widgets({left, right})
        assert compositor.render_update() is None


class OneLine(App[None]):
    """A line on a screen."""

    CSS = "Static { width: 20; height: 1; }"

    def compose(self) -> ComposeResult:
        yield Static("one", id="line")


@asynccontextmanager
async def one_line() -> AsyncIterator[tuple[OneLine, Static, pyte.Screen]]:
    """The app, its line, and a terminal fed every frame the app shows."""
    terminal = pyte.Screen(30, 3)
    stream = pyte.Stream(terminal)
    display = App._display

    def shown(self: App[Any], screen: Screen[Any], renderable: Any) -> None:
        if isinstance(renderable, CompositorUpdate) and not self._batch_count:
            stream.feed(renderable.render_segments(self.console))
        display(self, screen, renderable)

    app = OneLine()
    with patch.object(App, "_display", shown):
        async with app.run_test(size=(30, 3)) as pilot:
            await pilot.pause()
            line = app.screen.query_one("#line", Static)
            assert terminal.display[0].rstrip() == "one"
            yield app, line, terminal


async def no_other_event() -> None:
    """Many update ticks' worth of time, with nothing else happening (not `pilot.pause`: it runs a tick itself)."""
    for _ in range(20):
        await asyncio.sleep(0.01)


async def test_a_frame_not_rendered_in_a_batch_is_drawn_after_it() -> None:
    """A line changed while the app batches its updates is drawn once the batch is over. (With the patches of issue
    23's dispatch.py and frame_patches.py, gone, a frame not rendered in a batch left its regions waiting, which their
    own idle patch had to draw.)"""
    async with one_line() as (app, line, terminal):
        screen = app.screen
        line.update("two", layout=False)
        app._begin_batch()
        screen._on_timer_update()  # a tick in the batch: the line is taken, nothing drawn
        screen._refresh_layout()  # a layout in the batch draws later (`call_later`), while the batch is still on
        await no_other_event()
        assert terminal.display[0].rstrip() == "one"
        app._end_batch()
        screen.check_idle()  # as the pane switcher does after its batch
        await no_other_event()
        assert terminal.display[0].rstrip() == "two"
