"""The leaderboard page, opened from the lobby (l), as `ssh HOST leaderboard` prints it; your own row is marked. Esc
(or l) closes it. Player names are shown only as plain `Text`, never through markup.
"""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import DataTable, Static

from dixit_tui.ratings import Standing
from dixit_tui.sanitize import NAME_MAX
from dixit_tui.tui.same_size_resize import SameSizeResize
from dixit_tui.tui.widgets.keybar import KeyBar

EMPTY_TEXT = "No rated games yet: play with an SSH key to be rated."
GUEST_TEXT = "You play as a guest: connect with an SSH key to be rated."
MINE = "▶"
COLUMNS = (
    ("", "mine", 1),
    ("Rank", "rank", 4),
    ("Name", "name", NAME_MAX),
    ("Rating", "rating", 6),
    ("Games", "games", 5),
)


class LeaderboardScreen(SameSizeResize, ModalScreen[None]):
    """The leaderboard as it was when opened (the ratings change only as games end)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "close", "Close", priority=True),
        Binding("l", "close", "Close", show=False),
    ]

    def __init__(self, board: tuple[Standing, ...], *, guest: bool) -> None:
        super().__init__(classes="dialog-screen")
        self.board = board
        self.guest = guest

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog", id="leaderboard-dialog") as box:
            box.border_title = "Leaderboard"
            note = "Rated by SSH key; the rating is a cautious estimate (mu - 3 sigma) that grows as you play."
            yield Static(Content(note), classes="dialog-text")
            table: DataTable[Text] = DataTable(id="leaderboard", cursor_type="row", zebra_stripes=False)
            for label, key, width in COLUMNS:
                table.add_column(Text(label), key=key, width=width)
            for row in self.board:
                style = "bold" if row.mine else ""
                table.add_row(
                    Text(MINE if row.mine else "", style=style),
                    Text(str(row.rank), style=style, justify="right"),
                    Text(row.name, style=style),
                    Text(f"{row.conservative:.1f}", style=style, justify="right"),
                    Text(str(row.games), style=style, justify="right"),
                )
            table.display = bool(self.board)
            yield table
            if not self.board:
                yield Static(Content(EMPTY_TEXT), id="leaderboard-empty", classes="note")
            if self.guest:
                yield Static(Content(GUEST_TEXT), id="leaderboard-guest", classes="note")
        yield KeyBar()

    def on_mount(self) -> None:
        mine = next((i for i, row in enumerate(self.board) if row.mine), None)
        for table in self.query("#leaderboard").results(DataTable):
            table.focus()
            if mine is not None:
                table.move_cursor(row=mine, animate=False)

    def action_close(self) -> None:
        self.dismiss(None)
