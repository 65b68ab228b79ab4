"""`Wall`: the one widget that shows a spectator's table as a picture for a big screen (`tui.wall_picture`).

It scrolls when the picture is taller than its room. At the end of a game it watched, it holds the last turn's
reveal for the table's `reveal_seconds` (a hold of its own), then shows the final standings."""

from __future__ import annotations

from textual import events
from textual.timer import Timer

from dixit_tui.coordinator import TableView
from dixit_tui.engine import Phase
from dixit_tui.tui.capabilities import FULL, Capabilities
from dixit_tui.tui.lobby import shell_hint
from dixit_tui.tui.picture import Picture
from dixit_tui.tui.wall_picture import Local, final_reveal_due, wall_picture, wall_shows
from dixit_tui.tui.widgets.picture_view import PictureView


class Wall(PictureView, can_focus=False):
    """Shows `wall_picture(view, its size, capabilities)` (`show` hands it each view)."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._view: TableView | None = None
        self._caps: Capabilities = FULL
        self._join = ""
        self._played: str | None = None  # the table whose game this wall showed being played
        self._final: tuple[str, int] | None = None  # the table and turn whose last reveal is held, while it is
        self._final_timer: Timer | None = None

    def show(self, view: TableView, caps: Capabilities, *, ssh_host: str | None, ssh_port: int | None) -> None:
        self._view, self._caps = view, caps
        self._join = shell_hint("", ssh_host, ssh_port, view.code)
        game = view.game
        if game is not None and final_reveal_due(view) and self._played == view.code and self._final is None:
            self._final = (view.code, game.turn)  # the game it watched just ended: its last reveal first
            self._final_timer = self.set_timer(view.options.reveal_seconds, self.end_final_reveal)
        elif self._final is not None and (game is None or self._final != (view.code, game.turn)):
            self.end_final_reveal(draw=False)
        self._played = view.code if game is not None and game.phase != Phase.OVER else None
        self._draw()

    def end_final_reveal(self, *, draw: bool = True) -> None:
        """The last turn's reveal held at the end of the game has been shown long enough: the final standings."""
        if self._final_timer is not None:
            self._final_timer.stop()
            self._final_timer = None
        self._final = None
        if draw:
            self._draw()

    def on_resize(self, event: events.Resize) -> None:
        self._draw()

    def _draw(self) -> None:
        view, (width, height) = self._view, self.size
        picture: Picture = ()
        if view is not None and width > 0 and wall_shows(view):
            local = Local(join=self._join, final_reveal=self._final is not None)
            picture = wall_picture(view, width, height, self._caps, local)
        self.show_picture(picture)
