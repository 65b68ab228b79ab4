"""Line filters that show a snapshot as a kind of terminal draws it: each colour as the nearest of the 16 standard
ones (`TERM=linux`: what the SSH session's colour system sends), each line and mark in the console form the SSH driver
sends to a console's small font (`TERM=linux`, `ssh.glyph_forms`) or in the ASCII form it sends to a terminal
without UTF-8 (`LANG=C`, `ssh.glyph_forms`). For the snapshot tests of the table and the wall."""

from __future__ import annotations

from rich.color import Color as RichColor
from rich.color import ColorSystem
from rich.segment import Segment
from rich.style import Style
from textual.color import Color
from textual.filter import LineFilter

from dixit_tui.ssh.glyph_forms import in_glyphs


def _sixteen(color: RichColor | None) -> RichColor | None:
    if color is None or color.is_default:
        return color
    return RichColor.from_triplet(color.downgrade(ColorSystem.STANDARD).get_truecolor())


def _as_sixteen(style: Style) -> Style:
    return style + Style(color=_sixteen(style.color), bgcolor=_sixteen(style.bgcolor))


class SixteenColours(LineFilter):
    """Each colour as the nearest of the 16 standard colours (xterm's palette)."""

    def apply(self, segments: list[Segment], background: Color) -> list[Segment]:
        return [
            Segment(text, None if style is None else _as_sixteen(style), control) for text, style, control in segments
        ]


class AsciiForms(LineFilter):
    """Each line, block and mark as the SSH driver sends it to a terminal without UTF-8."""

    def apply(self, segments: list[Segment], background: Color) -> list[Segment]:
        return [Segment(in_glyphs(text, "ascii"), style, control) for text, style, control in segments]


class ConsoleForms(LineFilter):
    """Each line, block and mark as the SSH driver sends it to a console's small font (`TERM=linux`)."""

    def apply(self, segments: list[Segment], background: Color) -> list[Segment]:
        return [Segment(in_glyphs(text, "console"), style, control) for text, style, control in segments]
