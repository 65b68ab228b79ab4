"""The lobby in Pilot tests: its size, settling, and the create dialog opened and read."""

from __future__ import annotations

from textual.pilot import Pilot
from textual.widgets import Static

from dixit_tui.tui.create import CreateScreen
from dixit_tui.tui.lobby import LobbyScreen
from dixit_tui.tui.widgets.code_boxes import CodeBoxes

SIZE = (80, 24)


async def settle(*pilots: Pilot[int]) -> None:
    for _ in range(3):
        for pilot in pilots:
            await pilot.pause()


async def open_create(pilot: Pilot[int]) -> CreateScreen:
    await pilot.press("c")
    await settle(pilot)
    screen = pilot.app.screen
    assert isinstance(screen, CreateScreen)
    return screen


def errors(screen: CreateScreen) -> str:
    widget = screen.query_one("#errors", Static)
    return str(widget.render()) if widget.display else ""


def hint_of(lobby: LobbyScreen) -> str:
    """The lines under the lobby's code boxes: the shell hint (and what it adds when no table takes new players)."""
    return lobby.query_one("#codes", CodeBoxes).hint.plain
