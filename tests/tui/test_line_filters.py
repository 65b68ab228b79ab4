"""Every session's app shares the process's colour filter, so a shared strip is converted once (`tui/line_filters.py`).
Counted, never timed."""

from __future__ import annotations

from rich.segment import Segment
from rich.style import Style as RichStyle
from textual.color import Color
from textual.filter import ANSIToTruecolor
from textual.strip import Strip

from dixit_tui.coordinator import Identity
from dixit_tui.tui.app import DixitApp
from tests.tui.fixtures import coordinator


def test_a_strips_colour_filter_is_applied_once_for_every_session() -> None:
    """Every session's app hands Textual the process's one `ANSIToTruecolor` for its theme (`App.get_line_filters`):
    a shared strip is converted once, in the strip's own filter cache, for every session (each app had its own
    filter, and the strip was converted again for each)."""
    coord = coordinator()
    apps = [DixitApp(coord, Identity(f"s{i}", f"key-s{i}")) for i in range(4)]
    truecolors = [[f for f in app.get_line_filters() if isinstance(f, ANSIToTruecolor)] for app in apps]
    assert all(len(found) == 1 for found in truecolors)
    assert len({id(found[0]) for found in truecolors}) == 1
    ansi = Strip([Segment("red", RichStyle(color="red"))])
    made = {id(ansi.apply_filter(found[0], Color(10, 20, 30))) for found in truecolors}
    assert len(made) == 1
    (line_filter,) = truecolors[0]
    assert list(ansi.apply_filter(line_filter, Color(10, 20, 30))) == line_filter.apply(list(ansi), Color(10, 20, 30))
