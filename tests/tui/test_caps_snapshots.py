"""SVG snapshots of the table as two kinds of terminals draw it: 16 colours (`TERM=linux`) and ASCII (`LANG=C`).

A snapshot is drawn in 24-bit colour and UTF-8; a test filter shows it as the terminal would: each colour as the
nearest of the 16 standard ones (what the SSH session's colour system sends), each line and mark in the ASCII form
the SSH driver sends (`ssh.ascii_forms`). Regenerate with
`.venv/bin/python -m pytest tests/tui/test_caps_snapshots.py --snapshot-update` and look at the SVGs first."""

from __future__ import annotations

from rich.color import Color as RichColor
from rich.color import ColorSystem
from rich.segment import Segment
from rich.style import Style
from textual.color import Color
from textual.filter import LineFilter

from dixit_tui.coordinator import Identity
from dixit_tui.ssh.ascii_forms import ascii_forms
from dixit_tui.tui.app import DixitApp
from dixit_tui.tui.capabilities import Capabilities
from tests.tui.fixtures import coordinator
from tests.tui.test_table_snapshots import SCENARIOS, Compare


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
        return [Segment(ascii_forms(text), style, control) for text, style, control in segments]


def test_table_in_16_colours(snap_compare: Compare) -> None:
    app = DixitApp(coordinator(), Identity("ana", "key-ana"), capabilities=Capabilities(colors="16"))
    app._filters.append(SixteenColours())
    assert snap_compare(app, terminal_size=(80, 24), run_before=SCENARIOS["vote"])


def test_table_in_ascii(snap_compare: Compare) -> None:
    app = DixitApp(coordinator(), Identity("ana", "key-ana"), capabilities=Capabilities(utf8=False))
    app._filters.append(AsciiForms())
    assert snap_compare(app, terminal_size=(80, 24), run_before=SCENARIOS["vote"])
