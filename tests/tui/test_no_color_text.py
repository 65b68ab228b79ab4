"""NO_COLOR (https://no-color.org: no colour, attributes are fine), as the SSH session sets it up (no colour sequence
at all): what colour alone told apart must still read apart."""

from __future__ import annotations

from rich.segment import Segment
from textual.color import Color

from dixit_tui.coordinator import Identity
from dixit_tui.ssh.no_color import WithoutColor
from dixit_tui.tui.app import DixitApp
from dixit_tui.tui.capabilities import Capabilities
from dixit_tui.tui.widgets.chat import TABLE_HINT
from tests.tui.fixtures import coordinator, settle
from tests.tui.table_scenes import SCENARIOS


def segments_of(app: DixitApp, text: str) -> list[Segment]:
    """The segments, as a NO_COLOR terminal gets them, of the screen row that shows `text`."""
    for strip in app.screen._compositor.render_strips():
        if text in strip.text:
            return WithoutColor().apply(list(strip), Color(0, 0, 0))
    raise AssertionError(f"{text!r} is not on screen")


def italic(app: DixitApp, text: str) -> bool:
    """Whether the segment that starts `text` on screen is in italics, as a NO_COLOR terminal gets it. (Textual
    draws dim as a fainter colour, so NO_COLOR has no dim to tell by.)"""
    for segment in segments_of(app, text):
        if segment.text.strip() and text.startswith(segment.text.strip()[:4]):
            return bool(segment.style and segment.style.italic)
    raise AssertionError(f"no segment starts {text!r}")


async def test_a_placeholder_reads_apart_from_typed_text_without_colour() -> None:
    """A text box's placeholder ("Chat: press c, type, Enter") was told from typed text by its grey alone: with
    NO_COLOR it read as typed (seen playing over OpenSSH with NO_COLOR=1). It is in italics; typed text is not."""
    app = DixitApp(coordinator(), Identity("ana", "key-ana"), capabilities=Capabilities(colors="none"))
    app._filters.append(WithoutColor())
    async with app.run_test(size=(80, 24)) as pilot:
        await SCENARIOS["lobby"](pilot)
        assert italic(app, TABLE_HINT)
        await pilot.press("c", *"hello there")
        await settle(pilot)
        assert not italic(app, "hello there")
