"""The spectators of a table at one terminal size draw and send the rows of an update once for all of them: a widget's
rows drawn from shared strips (a picture's, the feed's) are drawn at the first screen and taken whole by the others
(`KeptLines.rows_made_of`), and a row as sent (its chops as Textual cut them, cropped to the spans sent and joined into
one strip) is made at the first screen that sends it and found by the others (`row_compositor._SharedRow`). Counted,
never timed. Fed each screen's output, a terminal emulator shows what the screen draws.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import AsyncExitStack, contextmanager
from typing import Any
from unittest.mock import patch

import pyte
from textual._compositor import ChopsUpdate, CompositorUpdate
from textual.app import App
from textual.geometry import Region
from textual.strip import Strip
from textual.widget import Widget

from dixit_tui.textual_host import row_compositor
from dixit_tui.textual_host.patches import install_textual_patches
from dixit_tui.tui.widgets.chat import Feed
from dixit_tui.tui.widgets.picture_view import PictureView
from tests.tui.fixtures import default_move, phase, screen_text, settle
from tests.tui.screen_cost import WATCHERS, watched_in_submit

Sent = dict[int, list[Strip | None]]
"""The chops a screen sent on each row (by row, in the order sent)."""


@contextmanager
def terminals() -> Iterator[tuple[dict[int, pyte.Screen], dict[int, Sent]]]:
    """For each app (by id): a terminal emulator fed what its driver writes, and the strips of the rows its partial
    updates sent (emptied by the caller)."""
    screens: dict[int, pyte.Screen] = {}
    streams: dict[int, pyte.Stream] = {}
    sent: dict[int, Sent] = {}
    display = App._display

    def shown(self: App[Any], screen: Any, renderable: Any) -> None:
        if isinstance(renderable, CompositorUpdate) and not self._batch_count:
            if id(self) not in screens:
                screens[id(self)] = pyte.Screen(*self.size)
                streams[id(self)] = pyte.Stream(screens[id(self)])
            streams[id(self)].feed(renderable.render_segments(self.console))
            if isinstance(renderable, ChopsUpdate):
                rows = sent.setdefault(id(self), {})
                for y, _, _ in renderable.spans:
                    rows.setdefault(y, []).extend(renderable.chops[y].values())
        display(self, screen, renderable)

    with patch.object(App, "_display", shown):
        yield screens, sent


async def test_a_second_same_size_screen_builds_no_row_of_its_own() -> None:
    """At each move, every spectator's screen sends the same rows; each row is one strip, the first screen's: the
    rows made are those of one screen, not of each (before: each screen sent each row as Textual's chops, every chop
    of it moved to and looked up again at each screen). The pictures' and the feed's changed rows are drawn at the
    first screen only (before: at each, the styled lines taken one by one from the process-wide cache)."""
    install_textual_patches()
    built = 0
    drawn: dict[int, int] = {}  # app (by id) -> rows of its pictures and feed drawn by Textual's render_lines
    render_lines = Widget.render_lines

    def counted_lines(self: Widget, crop: Region) -> list[Strip]:
        if isinstance(self, (PictureView, Feed)):
            drawn[id(self.app)] = drawn.get(id(self.app), 0) + crop.height
        return render_lines(self, crop)

    shared_row = getattr(row_compositor, "_SharedRow", object)  # (before it: no row shared, none made)

    class CountedRow(shared_row):  # type: ignore[misc,valid-type]
        def __init__(self, *args: Any) -> None:
            nonlocal built
            built += 1
            super().__init__(*args)

    with terminals() as (screens, sent):
        async with AsyncExitStack() as stack:
            sessions, apps, pilots, movers = await watched_in_submit(stack)
            for session in movers[:3]:
                await settle(*pilots)
                sent.clear()
                drawn.clear()
                built = 0
                with (
                    patch.object(row_compositor, "_SharedRow", CountedRow, create=True),
                    patch.object(Widget, "render_lines", counted_lines),
                ):
                    await default_move(session)
                    await settle(*pilots)
                assert phase(sessions[0]) == "submit"
                rows = [sent.get(id(app), {}) for app in apps]
                assert len(rows) == WATCHERS and rows[0], "the move changed no row"
                for other in rows[1:]:
                    assert other.keys() == rows[0].keys()
                    for y, strips in rows[0].items():
                        assert len(strips) == 1, f"row {y} sent as {len(strips)} chops"
                        assert other[y][0] is strips[0], f"row {y} made again by another screen"
                assert built == len(rows[0]), f"{built} rows made for {len(rows[0])} rows sent"
                lines = [drawn.get(id(app), 0) for app in apps]
                assert lines[0] > 0 and lines[1:] == [0] * (WATCHERS - 1), f"picture rows drawn by each screen: {lines}"
            for app in apps:
                assert [line.rstrip() for line in screens[id(app)].display] == [
                    line.rstrip() for line in screen_text(app).splitlines()
                ]
