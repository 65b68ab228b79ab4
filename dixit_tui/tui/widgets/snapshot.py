"""A rich renderable drawn once per width into plain `Content` (a Static rendered its rich Table again at every
layout pass, and the recap is laid out again each time the screen under it changes).
"""

from __future__ import annotations

from rich.console import RenderableType
from rich.text import Text
from textual.content import Content
from textual.geometry import Size
from textual.widget import Widget


class RichSnapshot(Widget):
    DEFAULT_CSS = """
    RichSnapshot {
        height: auto;
    }
    """

    def __init__(self, renderable: RenderableType, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self._renderable = renderable
        self._width = -1
        self._content = Content("")
        self._height = 0

    def snapshot(self, width: int) -> Content:
        """The renderable as Content at `width` columns (cached for the last width asked)."""
        width = max(1, width)
        if width != self._width:
            console = self.app.console
            lines = console.render_lines(self._renderable, console.options.update_width(width), pad=False)
            text = Text(end="")
            for number, line in enumerate(lines):
                if number:
                    text.append("\n")
                for segment in line:
                    if not segment.control:
                        text.append(segment.text, segment.style)
            self._width, self._content, self._height = width, Content.from_rich_text(text, console), len(lines)
        return self._content

    def show(self, renderable: RenderableType) -> None:
        """Draw another renderable instead."""
        self._renderable = renderable
        self._width = -1
        self.refresh(layout=True)

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        self.snapshot(width)
        return self._height

    def get_content_width(self, container: Size, viewport: Size) -> int:
        return container.width

    def render(self) -> Content:
        return self.snapshot(self.content_region.width or self.size.width)
