"""NO_COLOR (https://no-color.org): a session whose client sent it gets no colour sequence at all, only emphasis."""

from __future__ import annotations

from functools import lru_cache

from rich.segment import Segment
from rich.style import Style
from textual.color import Color
from textual.filter import LineFilter


@lru_cache(maxsize=4096)
def _without_color(style: Style) -> Style:
    return style.without_color


class WithoutColor(LineFilter):
    """Every segment keeps its bold, italic, reverse, underline, strike and dim, and loses its colour and background:
    the terminal draws it in its own colours. (Textual's NoColor sets the default colours, which still sends a colour
    sequence, and its Monochrome turns colours into 256-colour greys.)"""

    def apply(self, segments: list[Segment], background: Color) -> list[Segment]:
        return [
            Segment(text, None if style is None else _without_color(style), control)
            for text, style, control in segments
        ]
