"""`KeptLines`: a widget that hands the compositor the lines it drew last, drawing again only the rows it was asked
to redraw since; and rows drawn from shared strips taken as drawn by another session.

Textual's compositor draws a partial update inside the one rectangle that holds every changed region, and asks every
widget in that rectangle for all of its lines: when a move changes the status line, a seat row and the feed, every
widget of the table's body, and each widget refreshed for one row of it drew all its rows (through its styles, then
the terminal's colour filter). A widget here keeps the lines it gave last: one that was not refreshed since gives the
same list back, and one refreshed for some rows (`refresh(Region(...))`, `refresh_lines`) draws those rows only and
gives the others as kept. The compositor then cuts and sends only the rows of the changed regions, as before.

Everything that changes what a widget shows goes through `refresh` (a picture's changed rows, a scroll, a style
applied: Textual's `Widget.refresh`, `notify_style_update`) or changes its size; a widget that makes its lines as it is
drawn (`PictureView.before_drawing`) calls `forget_lines`. The lines are kept for one region at one size.
(A mixin: list it after the widget's own class, so that CSS still matches that class's name and takes its default
CSS: Textual follows a class's first base only.)

Rows drawn from shared strips are shared too. The spectators of a table at one terminal size show the same pictures:
a widget that can tell what its rows are drawn from without drawing them (`rows_made_of`: the picture's strips, the
feed's rows, with what else its `render_line` reads) draws a run of rows once per process: the lines are looked up by
the widget's way of drawing and line filters (`styled_lines.drawn_as`: its styles, size, backgrounds, titles, the
theme, the terminal's colours), the columns asked for, the rows and what they are drawn from. The first session
draws them (Textual's `render_lines`, the styled lines shared line by line), the others take its strips as they are
(then the compositor's own caches of those strips serve them too: their cuts, and their text as sent).

Measured (tests/tui/patch_cost.py --off kept_lines, Python calls of a join / the lobby / a move / a phase change,
2026-12-07, issue 23): +1.1% / +0.1% / +22% / +3.1% without. With them, against the compositor they replaced (which
drew only the bands of changed rows, with five Textual internals): +5.7% / -0.2% / +1.9% / +1.3%. The rows drawn from
shared strips taken as drawn (tests/tui/spectator_calls.py, Python calls at a table of N spectators of one size, the
output made as a driver's app makes it): a move / a phase change with 6 spectators -3.6% / -3.3%, with 1 spectator
+0.6% / +1.2% (tests/tui/test_shared_row_output.py counts the rows drawn).
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import TYPE_CHECKING, Self

from textual.geometry import Region, Size
from textual.widget import Widget

from dixit_tui.textual_host.process_caches import forget_with_shared
from dixit_tui.textual_host.styled_lines import drawing, drawn_as, shareable

if TYPE_CHECKING:
    from textual.strip import Strip

SHARED_RUNS = 4096
"""Runs of rows kept process-wide (`KeptLines._shared_rows`)."""

RowsMadeOf = tuple[tuple[Hashable, ...], Sequence["Strip | None"]]
"""What a run of a widget's content rows is drawn from: what its `render_line` reads besides the widget's way of
drawing (e.g. a scroll offset, a text style), and the shared strip of each row (None: a row drawn from nothing but
those, e.g. a blank row)."""

_runs: dict[tuple[object, ...], tuple[Sequence[Strip | None], list[Strip]]] = forget_with_shared({})
"""key -> (the strips the rows were drawn from, kept so that their ids in the key stay theirs; the rows drawn)."""


class KeptLines(Widget):
    _kept_lines: tuple[Region, Size, list[Strip]] | None = None
    _regions_to_draw: list[Region] | None = None  # the content's regions refreshed since (None: none)

    def forget_lines(self) -> None:
        """Draw every row again at the next drawing."""
        self._kept_lines = None

    def rows_made_of(self, y: int, height: int) -> RowsMadeOf | None:
        """What content rows `y` to `y + height - 1` are drawn from, when known without drawing them (see
        `RowsMadeOf`); None (the default): the rows are drawn for this widget alone."""
        return None

    def refresh(self, *regions: Region, repaint: bool = True, layout: bool = False, recompose: bool = False) -> Self:
        if self._kept_lines is not None and (repaint or recompose):
            if regions and not recompose:
                pending = self._regions_to_draw
                if pending is None:
                    self._regions_to_draw = list(regions)
                else:
                    pending.extend(regions)
            else:
                self._kept_lines = None
        return super().refresh(*regions, repaint=repaint, layout=layout, recompose=recompose)

    def notify_style_update(self) -> None:
        self._kept_lines = None
        super().notify_style_update()

    def render_lines(self, crop: Region) -> list[Strip]:
        kept, regions = self._kept_lines, self._regions_to_draw
        self._regions_to_draw = None
        size = self.outer_size  # (its size as laid out: `size` finds its region in the screen's map)
        if kept is None or kept[0] != crop or kept[1] != size:
            strips = self._shared_rows(crop, self.content_offset.y)
            self._kept_lines = (crop, size, strips)
            return strips
        if not regions:
            return kept[2]
        x, y, width, height = crop
        content_top = self.content_offset.y
        top = content_top - y  # (the regions are the content's: the widget's rows start above them)
        rows: set[int] = set()
        for region in regions:
            rows.update(range(max(top + region.y, 0), min(top + region.bottom, height)))
        strips = list(kept[2])
        for first, last in bands(sorted(rows)):
            strips[first : last + 1] = self._shared_rows(Region(x, y + first, width, last - first + 1), content_top)
        self._kept_lines = (crop, size, strips)
        return strips

    def _shared_rows(self, crop: Region, content_top: int) -> list[Strip]:
        """The widget's rows of `crop` (Textual's `render_lines`), taken as drawn by another session when they are
        drawn from the same shared strips the same way (`content_top`: the widget's row where its content starts)."""
        made_of = self.rows_made_of(crop.y - content_top, crop.height)
        found = drawn_as(self) if made_of is not None else None
        if made_of is None or found is None:
            return super().render_lines(crop)
        read, sources = made_of
        drawn, way = found
        key = (drawn, crop, read, *map(id, sources))
        kept = _runs.get(key)
        if kept is not None:  # (the same strips: it holds those whose ids are in its key, no other has them)
            return kept[1]
        strips = drawing(self, way, lambda: super(KeptLines, self).render_lines(crop))
        if shareable(sources):
            if len(_runs) >= SHARED_RUNS:
                _runs.clear()
            _runs[key] = (sources, strips)
        return strips


def bands(rows: list[int]) -> list[tuple[int, int]]:
    """Runs of consecutive rows (sorted), as (first, last)."""
    found: list[tuple[int, int]] = []
    for y in rows:
        if found and found[-1][1] == y - 1:
            found[-1] = (found[-1][0], y)
        else:
            found.append((y, y))
    return found
