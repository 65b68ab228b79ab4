"""A compositor that draws only the rows an update changed.

Textual's compositor draws a partial update inside the one rectangle that holds every changed region: when the status
line (row 1), a seat row (row 5) and the feed (rows 24-27) change, every widget between rows 1 and 27 renders all
its lines there, and the lines not sent are thrown away. At a table, where each move changes a few scattered rows,
that was most of the cost of an update. `RowCompositor` draws each band of changed rows on its own, and each widget
only for the rows of the band, so the work follows the rows that changed.

It relies on two things of Textual's `Compositor` (pinned below 9 in pyproject): `_render_chops(crop, rows)` fills the
line chops of `rows` from `_get_renders(crop)`, whose strips start at the top row of the region it yields; and a
partial update is a `ChopsUpdate` of those chops and the changed spans.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from textual._compositor import ChopsUpdate, Compositor
from textual.geometry import Region, Size
from textual.strip import Strip
from textual.widget import Widget


def _bands(rows: Iterable[int]) -> list[tuple[int, int]]:
    """Runs of consecutive rows as (first, last)."""
    bands: list[tuple[int, int]] = []
    for y in sorted(rows):
        if bands and bands[-1][1] == y - 1:
            bands[-1] = (bands[-1][0], y)
        else:
            bands.append((y, y))
    return bands


class RowCompositor(Compositor):
    def _get_renders(self, crop: Region | None = None) -> Iterable[tuple[Region, Region, list[Strip]]]:
        if crop is None:
            yield from super()._get_renders(crop)
            return
        top, bottom = crop.y, crop.bottom
        for widget, (region, clip) in self.visible_widgets.items():
            if not crop.overlaps(clip):
                continue
            x, y, width, height = region.intersection(clip)
            if not (width and height):
                continue
            # every column the widget shows (chops are cut at widget edges), only the rows inside the crop
            y1, y2 = max(y, top), min(y + height, bottom)
            if y1 >= y2:
                continue
            shown = Region(x, y1, width, y2 - y1)
            yield shown, shown, widget.render_lines(Region(x - region.x, y1 - region.y, width, y2 - y1))

    def render_partial_update(self) -> ChopsUpdate | None:
        update_regions = self._dirty_regions.copy()
        self._dirty_regions.clear()
        if not update_regions:
            return None
        screen = self.size.region
        spans = [span for span in self._regions_to_spans(update_regions) if 0 <= span[0] < screen.height]
        if not spans:
            return None
        rows = {y for y, _, _ in spans}
        is_rendered_line = rows.__contains__
        chops: list[Mapping[int, Strip | None]] = [{} for _ in range(screen.height)]
        for first, last in _bands(rows):
            band = Region(0, first, screen.width, last - first + 1)
            rendered: Sequence[Mapping[int, Strip | None]] = self._render_chops(band, is_rendered_line)
            for y in range(first, last + 1):
                chops[y] = rendered[y]
        chop_ends = [cut_set[1:] for cut_set in self.cuts]
        return ChopsUpdate(chops, spans, chop_ends)


class LaidOutOnce(Widget):
    """A widget whose size comes from its parent or its own content in one layout. Textual lays the whole screen out
    a second time, and repaints the widget again, when a layout changed a widget's virtual size (a pane or box shown
    with a new phase, a score track one row taller): for these widgets the first layout is already the last.
    (A mixin: list it after the widget's own class, so that CSS still matches that class's name.)"""

    def _size_updated(self, size: Size, virtual_size: Size, container_size: Size, layout: bool = True) -> bool:
        return super()._size_updated(size, virtual_size, container_size, layout=False)
