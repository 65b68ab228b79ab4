"""A text whose wrapped lines hang under their text (`hanging`), wrapped once per width (as `RichSnapshot`)."""

from __future__ import annotations

from textual.content import Content
from textual.geometry import Size
from textual.widget import Widget

from dixit_tui.tui.hanging import hanging


class HangingText(Widget):
    """Its height is its rows' (`height: auto`, set here: a text's height is never another)."""

    def __init__(self, text: Content, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.styles.height = "auto"
        self.text, self._width, self._rows = text, -1, list[Content]()

    def rows(self, width: int) -> list[Content]:
        """The text's rows at `width` cells (kept for the last width asked)."""
        width = max(1, width)
        if width != self._width:
            self._width, self._rows = width, hanging(self.text, width)
        return self._rows

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return len(self.rows(width))

    def get_content_width(self, container: Size, viewport: Size) -> int:
        return container.width

    def render(self) -> Content:
        return Content("\n").join(self.rows(self.content_region.width or self.size.width))
