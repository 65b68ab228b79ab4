"""The frames (the side column's "Seats" and "Score track", the "Log & chat" rule, the hand's and the board's frame,
the lobby's text boxes) as a terminal of each colour system draws them: clearly apart from the background, and in
256 colours or more still quieter than the text they frame. A playtest found them in colour 233 on a 234 background
in a 256-colour terminal: nearly invisible. Colours are read as the SSH session sends them (Rich's downgrade to the
terminal's colour system, `textual_host.strip_output`)."""

from __future__ import annotations

import pytest
from rich.color import Color as RichColor
from rich.color import ColorSystem
from rich.segment import Segment

from dixit_tui.coordinator import Identity
from dixit_tui.tui.app import DixitApp
from dixit_tui.tui.capabilities import Capabilities, Colors
from tests.tui.fixtures import coordinator, settle
from tests.tui.table_scenes import SCENARIOS

SYSTEMS: dict[Colors, ColorSystem] = {
    "16": ColorSystem.STANDARD,
    "256": ColorSystem.EIGHT_BIT,
    "truecolor": ColorSystem.TRUECOLOR,
}
MARGIN = 60
"""How far (0-255, in grey level) a frame is from its background, and in 256 colours or more from the text: colour
233 on 234 was 10 apart."""


def grey(color: RichColor | None, system: ColorSystem) -> float:
    """The grey level (0-255) of `color` as a terminal of `system` draws it (xterm's palette)."""
    assert color is not None and not color.is_default
    red, green, blue = color.downgrade(system).get_truecolor()
    return (red + green + blue) / 3


def cells(app: DixitApp, row_text: str, mark: str) -> list[Segment]:
    """The segments holding `mark` on the screen row that shows `row_text`, left to right."""
    for strip in app.screen._compositor.render_strips():
        if row_text in strip.text:
            found = [segment for segment in strip if mark in segment.text]
            assert found, (mark, strip.text)
            return found
    raise AssertionError(f"{row_text!r} is not on screen")


def cell(app: DixitApp, row_text: str, mark: str) -> Segment:
    return cells(app, row_text, mark)[0]


def apart(frame: Segment, text: Segment, system: ColorSystem, *, quieter: bool) -> None:
    style, text_style = frame.style, text.style
    assert style is not None and text_style is not None and not style.reverse
    shown, behind = grey(style.color, system), grey(style.bgcolor, system)
    assert abs(shown - behind) >= MARGIN, (frame, shown, behind)
    if quieter:
        assert grey(text_style.color, system) - shown >= MARGIN, (frame, text)


@pytest.mark.parametrize("colors", list(SYSTEMS))
async def test_the_table_frames_stand_out_from_the_background(colors: Colors) -> None:
    app = DixitApp(coordinator(), Identity("ana", "key-ana"), capabilities=Capabilities(colors=colors))
    system, quieter = SYSTEMS[colors], colors != "16"
    async with app.run_test(size=(80, 24)) as pilot:
        await SCENARIOS["clue"](pilot)  # the clue box has the focus: the hand's frame is drawn as blurred
        text = cell(app, "ana (you)", "ana")
        apart(cell(app, "Seats", "╭"), text, system, quieter=quieter)
        apart(cell(app, "Score track", "╭"), text, system, quieter=quieter)
        apart(cell(app, "Log & chat", "─"), text, system, quieter=quieter)
        apart(cells(app, "Card 2 chosen", "│")[-1], text, system, quieter=quieter)  # the hand's right side


@pytest.mark.parametrize("colors", list(SYSTEMS))
async def test_the_lobby_text_boxes_stand_out_from_the_background(colors: Colors) -> None:
    app = DixitApp(coordinator(), Identity("ana", "key-ana"), capabilities=Capabilities(colors=colors))
    system, quieter = SYSTEMS[colors], colors != "16"
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        text = cell(app, "Join by code", "Join by code")
        apart(cell(app, "▔▔▔", "▔"), text, system, quieter=quieter)
        apart(cell(app, "Join by code", "▎"), text, system, quieter=quieter)
        apart(cell(app, "▁▁▁", "▁"), text, system, quieter=quieter)
