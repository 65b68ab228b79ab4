"""The spectators of a table show the same rows, drawn from the very same shared strips: a row's chops, its text and
styles, and its output as sent are made once per process (`compositor._shared_row`), and the other screens look
them up. The way each widget is drawn is worked out again only when something it is made of changes
(`styled_lines._way`).

Counted, never timed. The output of the shared rows is compared with Textual's own (`Compositor.render_partial_update`
and `ChopsUpdate.render_segments`) for whole screens and for scattered regions, at every spectator's screen.
"""

from __future__ import annotations

from collections import Counter
from contextlib import AsyncExitStack
from typing import Any
from unittest.mock import patch

from textual._compositor import ChopsUpdate, Compositor
from textual.geometry import Region
from textual.screen import Screen
from textual.strip import Strip
from textual.widget import Widget

from dixit_tui.textual_host import row_compositor as compositor
from dixit_tui.textual_host import styled_lines
from dixit_tui.textual_host.patches import install_textual_patches
from dixit_tui.textual_host.row_compositor import RowChopsUpdate, RowCompositor, _Cover
from tests.tui.fixtures import default_move, default_move_pending, phase, play_until, screen_text, settle
from tests.tui.screen_cost import watched_table
from tests.tui.styled_line_counts import counted_styled_lines


async def test_a_move_builds_each_changed_row_at_one_spectators_screen_only() -> None:
    """A card given changes a seat row, the status line and the log at every spectator's screen (same size): each
    changed row is made of the same shared strips at the three screens, so its chops, text and styles are made at
    one of them and looked up at the others (each made its own: three times)."""
    install_textual_patches()
    async with AsyncExitStack() as stack:
        sessions, apps, pilots = await watched_table(stack)
        await play_until(sessions, lambda: phase(sessions[0]) == "submit")
        await settle(*pilots)
        bands, chop_keys, row, shared_row = (
            compositor._bands,
            compositor._chop_keys,
            compositor._Row,
            compositor._shared_row,
        )
        drawn: list[int] = []  # rows drawn, per partial update
        keyed: Counter[str] = Counter()

        def counted_bands(rows: Any) -> list[tuple[int, int]]:
            drawn.append(len(rows))
            return bands(rows)

        def counted_chop_keys(line: Any) -> Any:
            keyed["rows made"] += 1  # (a row's text and styles, worked out from its chops)
            return chop_keys(line)

        def counted_row(parts: Any, cuts: Any) -> Any:
            keyed["rows built"] += 1  # (a row's chops made from its strips: the process-wide lookup could not answer)
            return row(parts, cuts)

        def counted_shared_row(cut_key: Any, cuts: Any, parts: Any) -> Any:
            keyed["rows asked"] += 1  # (of the process-wide lookup)
            return shared_row(cut_key, cuts, parts)

        movers = [s for s in sessions if default_move_pending(s)]
        for session in movers[:3]:
            await settle(*pilots)
            drawn.clear()
            keyed.clear()
            with (
                patch.object(compositor, "_bands", counted_bands),
                patch.object(compositor, "_chop_keys", counted_chop_keys),
                patch.object(compositor, "_Row", counted_row),
                patch.object(compositor, "_shared_row", counted_shared_row),
            ):
                await default_move(session)
                await settle(*pilots)
            assert phase(sessions[0]) == "submit"
            assert len(drawn) >= len(apps), drawn  # every spectator's screen drew
            assert min(drawn) >= 3, drawn  # a seat row, the status line, the log line (at least)
            assert keyed["rows made"] <= max(drawn), (keyed, drawn)  # each row made at one screen
            assert keyed["rows built"] == keyed["rows made"]
            assert keyed["rows asked"] - keyed["rows built"] >= sum(drawn) - max(drawn), (keyed, drawn)  # taken
        assert len({screen_text(app) for app in apps}) == 1


def _textual_update(screen_compositor: RowCompositor, regions: list[Region]) -> ChopsUpdate | None:
    screen_compositor._dirty_regions = set(regions)
    return Compositor.render_partial_update(screen_compositor)


def _shared_update(screen_compositor: RowCompositor, regions: list[Region]) -> ChopsUpdate | None:
    screen_compositor.forget_rows()  # (every row drawn is sent: as Textual's)
    screen_compositor._dirty_regions = set(regions)
    return screen_compositor.render_partial_update()


async def test_the_shared_rows_send_what_textual_sends() -> None:
    """At each spectator's screen (the first makes the rows, the others look them up), a whole screen and scattered
    regions (rows cut at both ends, several bands) give the same chops and the same bytes as Textual's compositor."""
    install_textual_patches()
    async with AsyncExitStack() as stack:
        sessions, apps, pilots = await watched_table(stack)
        await play_until(sessions, lambda: phase(sessions[0]) == "submit")
        await default_move(next(s for s in sessions if default_move_pending(s)))
        await settle(*pilots)
        width, height = apps[0].size
        cases = [
            [Region(0, 0, width, height)],
            [Region(3, 1, 40, 4), Region(50, 9, 30, 9), Region(0, height - 2, width, 2)],
            [Region(width - 7, 5, 7, 1), Region(1, 20, 1, 3)],
        ]
        built: Counter[str] = Counter()
        row = compositor._Row

        def counted_row(parts: Any, cuts: Any) -> Any:
            built["rows"] += 1  # (a row's chops made from its strips: the process-wide lookup could not answer)
            return row(parts, cuts)

        for regions in cases:
            outputs = set()
            for app in apps:
                screen_compositor = app.screen._compositor
                assert isinstance(screen_compositor, RowCompositor)
                theirs = _textual_update(screen_compositor, regions)
                with patch.object(compositor, "_Row", counted_row):
                    ours = _shared_update(screen_compositor, regions)
                assert isinstance(ours, RowChopsUpdate) and theirs is not None
                assert ours.spans == theirs.spans
                for y, _, _ in ours.spans:
                    assert ours.chops[y] == theirs.chops[y], y
                text = ours.render_segments(app.console)
                assert text == ChopsUpdate.render_segments(theirs, app.console)
                assert text == ChopsUpdate.render_segments(ours, app.console)  # (again: looked up the second time)
                assert ours.render_segments(app.console) == text
                outputs.add(text)
            assert len(outputs) == 1
        assert built["rows"] > 0  # (the cases drew rows not drawn before)


async def test_an_ordinary_move_works_out_no_widgets_way_of_drawing_again() -> None:
    """A spectator's screen draws the changed rows of its widgets at each move: their way of drawing (styles, size,
    backgrounds, titles, theme) is kept while none of those changes, and their regions come from the compositor
    (Textual finds a widget's region again in the screen's map for each widget drawn)."""
    install_textual_patches()
    async with AsyncExitStack() as stack:
        sessions, _, pilots = await watched_table(stack)
        await play_until(sessions, lambda: phase(sessions[0]) == "submit")
        await settle(*pilots)
        number = styled_lines._number
        find_widget = Screen.find_widget
        render_lines = Widget.render_lines
        counts: Counter[str] = Counter()
        drawing: list[Widget] = []

        def counted_number(way: tuple[object, ...]) -> int:
            counts["ways"] += 1
            return number(way)

        def counted_find_widget(self: Screen[Any], widget: Widget) -> Any:
            if drawing:
                counts["regions found while drawing"] += 1
            return find_widget(self, widget)

        def counted_render_lines(self: Widget, crop: Region) -> list[Strip]:
            drawing.append(self)
            try:
                return render_lines(self, crop)
            finally:
                drawing.pop()

        movers = [s for s in sessions if default_move_pending(s)]
        for session in movers[:3]:
            await settle(*pilots)
            counts.clear()
            with (
                counted_styled_lines() as lines,
                patch.object(styled_lines, "_number", counted_number),
                patch.object(Screen, "find_widget", counted_find_widget),
                patch.object(Widget, "render_lines", counted_render_lines),
            ):
                await default_move(session)
                await settle(*pilots)
            assert phase(sessions[0]) == "submit"
            assert lines.asked > 0  # (lines were drawn)
            assert counts["ways"] == 0, counts
            assert counts["regions found while drawing"] == 0, counts


def test_the_cover_knows_the_columns_drawn_in_front() -> None:
    cover = _Cover()
    cover.add(Region(0, 0, 10, 2))
    cover.add(Region(10, 1, 5, 2))
    assert cover.covers(Region(2, 0, 8, 1))
    assert cover.covers(Region(0, 1, 15, 1))
    assert not cover.covers(Region(0, 0, 15, 1))  # (columns 10-14 of row 0 are not drawn)
    assert not cover.covers(Region(0, 1, 15, 2))  # (columns 0-9 of row 2 are not drawn)
    assert cover.covers(Region(10, 2, 5, 1))
    assert not cover.covers(Region(9, 2, 2, 1))
