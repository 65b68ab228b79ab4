"""`ClueLine`: the clue line above the hand and the board, one Line-API widget showing the picture
`tui.clue_picture` makes for its width (as tall as its picture: a text that takes another number of rows lays the
screen out, one that keeps its rows redraws only the rows that changed)."""

from __future__ import annotations

from rich.style import Style
from textual import events
from textual.geometry import Size
from textual.strip import Strip

from dixit_tui.tui.clue_picture import clue_picture
from dixit_tui.tui.table_words import Words
from dixit_tui.tui.widgets.picture_view import PictureView, blank


class ClueLine(PictureView, can_focus=False):
    """Shows `clue_picture(words, its width)` (`show` hands it the words)."""

    SCROLLS = False  # (as tall as its picture)

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.words = Words()
        self._width = 0

    def show(self, words: Words) -> None:
        if words != self.words:
            self.words = words
            self._draw()

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        if width != self._width:  # (made as it is laid out: the first frame shows it)
            self._width = width
            self._draw(drawing=True)
        return max(1, len(self.picture))

    def on_resize(self, event: events.Resize) -> None:
        if self.size.width != self._width:
            self._width = self.size.width
            self._draw()

    def _draw(self, *, drawing: bool = False) -> None:
        if not self._width:
            return  # (drawn as it is laid out)
        rows = max(1, len(self.picture))
        self.show_picture(clue_picture(self.words, self._width, self._rich_style()), drawing=drawing)
        if not drawing and max(1, len(self.picture)) != rows:
            self.refresh(layout=True)

    def _rich_style(self) -> Style:
        style = self._style
        if style is None:  # (once per change of style: see PictureView)
            style = self._style = self.rich_style
        return style

    def render_line(self, y: int) -> Strip:
        # (the picture's lines are drawn in the widget's style already, the room after the text in its background)
        picture = self.picture
        if y < len(picture):
            return picture[y]
        return blank(self.size.width, self._rich_style())
