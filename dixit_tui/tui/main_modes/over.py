"""The main region's mode at the end of the game (`tui.over_picture`); it scrolls when taller than its room."""

from __future__ import annotations

from dixit_tui.tui.over_picture import over_picture
from dixit_tui.tui.picture import Picture
from dixit_tui.tui.table_words import Words


class OverMode:
    def __init__(self) -> None:
        self.text = Words()

    def show(self, text: Words) -> bool:
        """Show `text`; whether that changed what it shows."""
        if text == self.text:
            return False
        self.text = text
        return True

    def picture(self, width: int) -> Picture:
        return over_picture(self.text, width)
