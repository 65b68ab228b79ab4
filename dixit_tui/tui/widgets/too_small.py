"""The "terminal too small" notice: below the smallest size the app can be used at, it covers every screen.

Mounted by the app on a screen shown while the terminal is too small; the screen's breakpoint classes show or hide
it (dixit.tcss). While it shows, the app ignores keys (but Ctrl+C): nothing is played blind.
"""

from __future__ import annotations

from textual.content import Content
from textual.widget import Widget

MIN_WIDTH = 60
MIN_HEIGHT = 20


class TooSmall(Widget, can_focus=False):
    DEFAULT_CSS = """
    TooSmall {
        display: none;
        position: absolute;
        offset: 0 0;
        width: 100%;
        height: 100%;
        overlay: screen;
        background: $surface;
        color: $text;
        content-align: center middle;
        text-align: center;
        padding: 0 1;
    }
    """

    def render(self) -> Content:
        size = self.app.size
        return Content.assemble(
            ("Terminal too small", "bold"),
            f"\n\nneed {MIN_WIDTH}x{MIN_HEIGHT}, this one is {size.width}x{size.height}.",
            "\nMake the window larger to go on (Ctrl+C quits).",
        )
