"""What an update costs outside the widgets, counted (never timed): the line filters every rendered line goes
through, and the bytes an update sends. The server's Textual patches (`install_textual_patches`) are installed, as
in the server; the app is headless (the counters do not depend on the SSH path).
"""

from __future__ import annotations

import itertools
import re
from contextlib import AsyncExitStack
from typing import Any, Literal

import pyte
from rich.color import ColorSystem
from rich.console import Console
from textual._compositor import CompositorUpdate
from textual.app import App
from textual.strip import Strip

from dixit_tui.textual_host.patches import install_textual_patches
from dixit_tui.tui.table_screen import TableScreen
from tests.tui.fixtures import coordinator, default_move, default_move_pending, phase, play_until, settle
from tests.tui.screen_cost import eight_bots


def cells(output: str) -> list[tuple[str, frozenset[str], str, str]]:
    """What each character of `output` is drawn with: (character, attributes, foreground, background), by the SGR
    rules (0 resets; 38/48 take 5;n or 2;r;g;b). Cursor moves and other sequences are kept as characters of their
    own (so the text around them is placed the same)."""
    out: list[tuple[str, frozenset[str], str, str]] = []
    attrs: set[str] = set()
    fg = bg = ""
    for token in re.findall(r"\x1b\[[0-9;]*m|\x1b\[[0-9;]*[A-Za-ln-z]|\x1b\][^\x1b]*\x1b\\|.", output, re.S):
        if not (token.startswith("\x1b[") and token.endswith("m")):
            out.append((token, frozenset(attrs), fg, bg))
            continue
        params = [int(p) if p else 0 for p in token[2:-1].split(";")]
        while params:
            p = params.pop(0)
            if p == 0:
                attrs.clear()
                fg = bg = ""
            elif p in (38, 48):
                n = 2 if params[0] == 5 else 4
                color = ";".join(map(str, params[:n]))
                params = params[n:]
                fg, bg = (color, bg) if p == 38 else (fg, color)
            elif 30 <= p <= 37 or 90 <= p <= 97:
                fg = str(p)
            elif 40 <= p <= 47 or 100 <= p <= 107:
                bg = str(p)
            elif p == 39:
                fg = ""
            elif p == 49:
                bg = ""
            else:
                assert p < 10 or p in (21, 51, 52, 53), token  # (turning one attribute off is never sent: 0 is)
                attrs.add(str(p))
    return out


async def test_the_screen_is_drawn_the_same_with_fewer_bytes() -> None:
    """The whole table screen, sent the server's way and Textual's way (each segment: its style's codes, its text, a
    reset), in each colour system: every character drawn with the same attributes and colours, the attributes reset
    at the end of each line; and at least a sixth fewer bytes."""
    install_textual_patches()
    coord = coordinator()
    async with AsyncExitStack() as stack:
        sessions, app, pilot = await eight_bots(coord, stack, (100, 30))
        await play_until(sessions, lambda s=sessions[0]: phase(s) == "vote")  # type: ignore[misc]
        await settle(pilot)
        strips = [strip for line in app.screen._compositor.render_full_update().strips for strip in line]
        names: dict[ColorSystem, Literal["standard", "256", "truecolor"]] = {
            ColorSystem.STANDARD: "standard",
            ColorSystem.EIGHT_BIT: "256",
            ColorSystem.TRUECOLOR: "truecolor",
        }
        for color_system, name in names.items():
            console = Console(color_system=name)
            assert console._color_system == color_system
            ours: list[str] = []
            textual: list[str] = []
            for strip in strips:
                strip = Strip(list(strip), strip.cell_length)  # (a fresh render cache)
                ours.append(strip.render(console))
                textual.append(
                    "".join(
                        text if style is None else Strip.render_style(style, text, color_system)
                        for text, style, _ in strip
                    )
                )
            ours_text, textual_text = "\n".join(ours), "\n".join(textual)
            assert cells(ours_text) == cells(textual_text)
            assert all(cells(line + "x")[-1][1:] == (frozenset(), "", "") for line in ours)  # (reset at the end)
            assert len(ours_text.encode()) * 6 <= len(textual_text.encode()) * 5, (len(ours_text), len(textual_text))


async def test_a_style_is_sent_only_where_it_changes() -> None:
    """The updates of a turn at an 8-seat table: no reset followed by a style's codes (`ESC[0m ESC[1;97m`: one
    sequence does both), no style's codes repeated where that style is already in force."""
    install_textual_patches()
    coord = coordinator()
    sent: list[str] = []
    display = App._display

    def record(self: App[Any], screen: Any, renderable: Any) -> None:
        if isinstance(renderable, CompositorUpdate) and not self._batch_count:
            sent.append(renderable.render_segments(self.console))
        display(self, screen, renderable)

    async with AsyncExitStack() as stack:
        sessions, _app, pilot = await eight_bots(coord, stack, (100, 30))
        await play_until(sessions, lambda s=sessions[0]: phase(s) == "submit")  # type: ignore[misc]
        await settle(pilot)
        App._display = record  # type: ignore[method-assign]
        try:
            for _ in range(2):
                for session in [s for s in sessions if default_move_pending(s)]:
                    await default_move(session)
                    await settle(pilot)
        finally:
            App._display = display  # type: ignore[method-assign]
    output = "".join(sent)
    assert len(sent) > 5
    assert not re.search(r"\x1b\[0m\x1b\[[0-9;]*m", output)
    sgr = re.findall(r"\x1b\[[0-9;]*m|\x1b\[\d+;\d+H", output)
    for before, after in itertools.pairwise(sgr):
        assert before != after or before.endswith("H"), before  # (a style's codes twice in a row: the same style)


async def test_the_updates_sent_leave_the_terminal_showing_the_screen() -> None:
    """A terminal (pyte) fed the table screen, then every update of a turn as sent: each cell shows the character,
    colours and attributes that the same screen drawn whole, Textual's way, shows."""
    install_textual_patches()
    coord = coordinator()
    sent: list[str] = []
    display = App._display

    def record(self: App[Any], screen: Any, renderable: Any) -> None:
        if isinstance(renderable, CompositorUpdate) and not self._batch_count:
            sent.append(renderable.render_segments(self.console))
        display(self, screen, renderable)

    def terminal(*outputs: str) -> pyte.Screen:
        screen = pyte.Screen(100, 30)
        stream = pyte.Stream(screen)
        for output in outputs:
            stream.feed(output)
        return screen

    def cells_of(screen: pyte.Screen) -> list[list[tuple[Any, ...]]]:
        return [
            [
                (c.data, c.fg, c.bg, c.bold, c.italics, c.underscore, c.reverse, c.strikethrough)
                for c in (screen.buffer[y][x] for x in range(screen.columns))
            ]
            for y in range(screen.lines)
        ]

    async with AsyncExitStack() as stack:
        sessions, app, pilot = await eight_bots(coord, stack, (100, 30))
        await play_until(sessions, lambda s=sessions[0]: phase(s) == "submit")  # type: ignore[misc]
        await settle(pilot)
        compositor = app.screen._compositor
        first = compositor.render_update(full=True)
        assert isinstance(first, CompositorUpdate)
        sent.append(first.render_segments(app.console))
        App._display = record
        try:
            for _ in range(2):  # the cards, the votes (phase changes included)
                for session in [s for s in sessions if default_move_pending(s)]:
                    await default_move(session)
                    await settle(pilot)
        finally:
            App._display = display
        assert isinstance(app.screen, TableScreen)
        # the screen now, drawn whole Textual's way (each segment: its style's codes, its text, a reset)
        color_system = app.console._color_system
        assert color_system is not None
        expected = terminal(
            "".join(
                f"\x1b[{y + 1};1H"
                + "".join(
                    text if style is None else Strip.render_style(style, text, color_system) for text, style, _ in strip
                )
                for y, strip in enumerate(app.screen._compositor.render_strips())
            )
        )
    shown = terminal(*sent)
    assert len(sent) > 10
    assert shown.display == expected.display
    assert cells_of(shown) == cells_of(expected)
