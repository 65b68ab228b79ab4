"""`KeptLines`: a widget that hands the compositor the lines it drew last, drawing again only the rows it was asked
to redraw since.

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

Measured (tests/tui/patch_cost.py --off kept_lines, Python calls of a join / the lobby / a move / a phase change,
2026-12-07, issue 23): +1.1% / +0.1% / +22% / +3.1% without. With them, against the compositor they replaced (which
drew only the bands of changed rows, with five Textual internals): +5.7% / -0.2% / +1.9% / +1.3%.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Self

from textual.geometry import Region, Size
from textual.widget import Widget

if TYPE_CHECKING:
    from textual.strip import Strip


class KeptLines(Widget):
    _kept_lines: tuple[Region, Size, list[Strip]] | None = None
    _regions_to_draw: list[Region] | None = None  # the content's regions refreshed since (None: none)

    def forget_lines(self) -> None:
        """Draw every row again at the next drawing."""
        self._kept_lines = None

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
            strips = super().render_lines(crop)
            self._kept_lines = (crop, size, strips)
            return strips
        if not regions:
            return kept[2]
        x, y, width, height = crop
        top = self.content_offset.y - y  # (the regions are the content's: the widget's rows start above them)
        rows: set[int] = set()
        for region in regions:
            rows.update(range(max(top + region.y, 0), min(top + region.bottom, height)))
        strips = list(kept[2])
        render = super().render_lines
        for first, last in bands(sorted(rows)):
            strips[first : last + 1] = render(Region(x, y + first, width, last - first + 1))
        self._kept_lines = (crop, size, strips)
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
