"""A line changed on a screen reaches the terminal, whatever order its changes reach the screen in (lost draws)."""

from __future__ import annotations

from typing import Any

import pyte
from textual.app import App, ComposeResult
from textual.containers import Horizontal
from textual.screen import Screen
from textual.widgets import Static

from dixit_tui.tui.compositor import RowCompositor


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
