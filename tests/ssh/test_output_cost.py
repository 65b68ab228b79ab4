"""What an update costs outside the widgets, counted (never timed): the line filters every rendered line goes
through, and the bytes an update sends. The server's Textual patches (`install_textual_patches`) are installed, as
in the server; the app is headless (the counters do not depend on the SSH path).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import AsyncExitStack, contextmanager
from typing import Any

from textual.filter import ANSIToTruecolor
from textual.strip import Strip

from dixit_tui.ssh import driver
from dixit_tui.ssh.driver import install_textual_patches
from tests.tui.fixtures import coordinator, default_move, play_until, settle
from tests.tui.test_render_cost import count, default_move_pending, eight_bots, phase


@contextmanager
def counting_filter_copies() -> Iterator[list[int]]:
    """Lines copied by ANSIToTruecolor (each one a new strip), while inside: [copies that changed the line (dim text
    blended with its background, an ANSI colour), copies the same as the line]."""
    copies = [0, 0]
    original = ANSIToTruecolor.apply

    def apply(self: ANSIToTruecolor, segments: Any, background: Any) -> Any:
        out = original(self, segments, background)
        copies[out == segments] += 1
        return out

    ANSIToTruecolor.apply = apply  # type: ignore[method-assign]
    try:
        yield copies
    finally:
        ANSIToTruecolor.apply = original  # type: ignore[method-assign]


async def test_an_ordinary_move_copies_no_line_through_the_colour_filter() -> None:
    """Textual passes every line it renders through ANSIToTruecolor, which copies it into a new strip even when it
    has nothing to convert (no ANSI colour, no dim text): over a turn at an 8-seat table about half the lines
    rendered. A line the filter leaves as it is is now used as it is; lines with dim text are still converted."""
    install_textual_patches()
    coord = coordinator()
    async with AsyncExitStack() as stack:
        sessions, app, pilot = await eight_bots(coord, stack, (100, 30))
        assert any(isinstance(f, ANSIToTruecolor) for f in app.get_line_filters())  # (the filter is on)
        await play_until(sessions, lambda s=sessions[0]: phase(s) == "submit")  # type: ignore[misc]
        await settle(pilot)
        lines = 0
        with counting_filter_copies() as copies:
            for _ in range(2):  # the cards, the votes, the reveal (phase changes included)
                movers = [s for s in sessions if default_move_pending(s)]
                for session in movers:
                    counts, _ = await count(app, pilot, lambda s=session: default_move(s))  # type: ignore[misc]
                    lines += counts.lines_rendered
        changed, same = copies
        assert lines > 100 and changed > 0
        assert same == 0, (same, changed, lines)


async def test_the_colour_filter_gives_the_same_lines() -> None:
    """Every line of a table screen, filtered the patched way and Textual's way: the same segments."""
    install_textual_patches()
    coord = coordinator()
    async with AsyncExitStack() as stack:
        sessions, app, pilot = await eight_bots(coord, stack, (100, 30))
        await play_until(sessions, lambda s=sessions[0]: phase(s) == "vote")  # type: ignore[misc]
        await settle(pilot)
        (truecolor,) = [f for f in app.get_line_filters() if isinstance(f, ANSIToTruecolor)]
        checked = 0
        for widget in app.screen.walk_children(with_self=True):
            _, background = widget.background_colors
            for strip in widget._styles_cache._cache.values():
                ours = driver._apply_filter(strip, truecolor, background)
                textual = Strip(truecolor.apply(list(strip), background), strip.cell_length)
                assert list(ours) == list(textual), (widget, strip.text)
                checked += 1
        assert checked > 50
        # a line with an ANSI colour, or dim text, is converted as Textual does
        from rich.segment import Segment
        from rich.style import Style
        from textual.color import Color

        for style in (Style(color="red"), Style(bgcolor="blue"), Style(color="#102030", dim=True), Style(bold=True)):
            strip = Strip([Segment("ab", style), Segment("c")])
            background = Color(10, 20, 30)
            ours = driver._apply_filter(strip, truecolor, background)
            assert list(ours) == truecolor.apply(list(strip), background), style
