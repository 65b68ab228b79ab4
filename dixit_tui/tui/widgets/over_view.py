"""`OverView`: the end of the game's pane as one Line-API widget showing the picture `tui.over_picture` makes for its
width (it scrolls when the text is taller than the room)."""

from __future__ import annotations

from textual import events

from dixit_tui.tui.over_picture import over_picture
from dixit_tui.tui.table_words import Words
from dixit_tui.tui.widgets.picture_view import PictureView


class OverView(PictureView, can_focus=False):
    """Shows `over_picture(text, its width)` (`show` hands it the words)."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.text = Words()
        self._width = 0

    def show(self, text: Words) -> None:
        if text != self.text:
            self.text = text
            self._draw()

    def on_resize(self, event: events.Resize) -> None:
        self._draw()

    def watch_show_vertical_scrollbar(self) -> None:
        self._draw()  # (drawn again at the width the scroll bar leaves)

    def before_drawing(self) -> None:
        if not self._width:  # (the first frame: drawn in it, not in a second one after the Resize)
            self._draw(drawing=True)

    def _draw(self, *, drawing: bool = False) -> None:
        self._width = width = self.scrollable_content_region.width
        self.show_picture(over_picture(self.text, width), drawing=drawing)
