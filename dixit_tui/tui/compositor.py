"""A compositor that draws only the rows an update changed.

Textual's compositor draws a partial update inside the one rectangle that holds every changed region: when the status
line (row 1), a seat row (row 5) and the feed (rows 24-27) change, every widget between rows 1 and 27 renders all
its lines there, and the lines not sent are thrown away. At a table, where each move changes a few scattered rows,
that was most of the cost of an update. `RowCompositor` draws each band of changed rows on its own, and each widget
only for the rows of the band, so the work follows the rows that changed.

Two more savings, for the updates that move things around (a phase change lays the screen out, and Textual then
repaints every widget whose place or size changed, most of the screen):
- A widget hidden behind the widgets in front of it (a container filled by its children, a pane behind the pane
  shown) is not drawn: Textual drew it and threw its lines away (the front widget's chops win).
- Each row sent is remembered as the terminal shows it (the text and styles of each of its chops, the pieces a row
  is cut into at widget edges); a row drawn again with the same text and styles where it is sent is not sent again
  (a blank row of a pane that grew, the seats beside a pane that changed). Only what is sent is remembered: a row is
  drawn whole, but only its changed spans are sent, and a widget beside them whose change has not reached the screen
  yet was drawn with its new text (remembered as shown, its own update then found the row unchanged and sent
  nothing: its line stayed stale on the terminal).

It relies on two things of Textual's `Compositor` (pinned below 9 in pyproject): `_render_chops(crop, rows)` fills the
line chops of `rows` from `_get_renders(crop)`, front to back (the first chop drawn at a place wins), whose strips
start at the top row of the region it yields; and a partial update is a `ChopsUpdate` of those chops and the changed
spans, shown by the screen's app unless it is batching updates (then the update is dropped).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from rich.style import Style
from textual._compositor import ChopsUpdate, Compositor, LayoutUpdate, ReflowResult
from textual.geometry import Region, Size
from textual.strip import Strip
from textual.widget import Widget

if TYPE_CHECKING:
    from rich.console import RenderableType
    from textual.screen import Screen

RowKey = tuple[tuple[str, Style | None], ...]
ShownRow = dict[int, tuple[int, RowKey]]
"""What the terminal shows on a row, as far as known: chop start -> (chop end, its text and styles)."""
_NO_CHOPS: Mapping[int, Strip | None] = {}


def _bands(rows: Iterable[int]) -> list[tuple[int, int]]:
    """Runs of consecutive rows as (first, last)."""
    bands: list[tuple[int, int]] = []
    for y in sorted(rows):
        if bands and bands[-1][1] == y - 1:
            bands[-1] = (bands[-1][0], y)
        else:
            bands.append((y, y))
    return bands


def _row_key(line: Iterable[Strip | None]) -> RowKey | None:
    """A row's text and styles, whatever the cuts it was drawn in (None: a row that holds control codes)."""
    key: list[tuple[str, Style | None]] = []
    text: list[str] = []
    style: Style | None = None
    for strip in line:
        if strip is None:
            return None
        for segment in strip:
            if segment.control:
                return None
            if segment.style != style or not text:
                if text:
                    key.append(("".join(text), style))
                text = [segment.text]
                style = segment.style
            else:
                text.append(segment.text)
    if text:
        key.append(("".join(text), style))
    return tuple(key)


def _shown_already(
    shown: ShownRow, row_cuts: Sequence[int], line: Mapping[int, Strip | None], spans: Sequence[tuple[int, int]]
) -> bool:
    """Whether the terminal shows `line` (a row's chops, drawn whole) already where `spans` of it would be sent; if
    not, `shown` (what the terminal shows on the row) becomes what it shows once they are sent: the chops sent whole
    are known, the ones cut by a span's end are not, the rest of the row stays as it was."""
    sent: list[tuple[int, int, RowKey | None]] = []
    changed = False
    for x, end, strip in zip(row_cuts, row_cuts[1:], line.values(), strict=False):
        if not any(x < x2 and x1 < end for x1, x2 in spans):
            continue  # not sent: the terminal keeps what it shows there
        key = _row_key((strip,)) if strip is not None else None
        if key is None or shown.get(x) != (end, key):
            changed = True
        whole = any(x1 <= x and end <= x2 for x1, x2 in spans)
        sent.append((x, end, key if whole else None))
    if not changed:
        return True
    for x, end, key in sent:
        for start in [start for start, (stop, _) in shown.items() if start < end and x < stop]:
            del shown[start]  # (overwritten, at least in part)
        if key is not None:
            shown[x] = (end, key)
    return False


class _Cover:
    """The parts of each row already drawn by the widgets in front (as sorted, merged column spans)."""

    def __init__(self) -> None:
        self.rows: dict[int, list[tuple[int, int]]] = {}

    def covers(self, region: Region) -> bool:
        x1, x2 = region.x, region.right
        rows = self.rows
        return all(any(a <= x1 and x2 <= b for a, b in rows.get(y, ())) for y in range(region.y, region.bottom))

    def add(self, region: Region) -> None:
        x1, x2 = region.x, region.right
        for y in range(region.y, region.bottom):
            spans = self.rows.setdefault(y, [])
            spans.append((x1, x2))
            spans.sort()
            merged = [spans[0]]
            for a, b in spans[1:]:
                if a <= merged[-1][1]:
                    merged[-1] = (merged[-1][0], max(merged[-1][1], b))
                else:
                    merged.append((a, b))
            self.rows[y] = merged


class RowCompositor(Compositor):
    def __init__(self) -> None:
        super().__init__()
        self._shown_rows: dict[int, ShownRow] = {}  # what the terminal shows on each row, as last sent

    def forget_rows(self) -> None:
        """The terminal may show something else now (another screen drew over this one): send every row drawn."""
        self._shown_rows = {}

    def reflow(self, parent: Widget, size: Size) -> ReflowResult:
        if size != self.size:  # a terminal's rows after a resize are its own business: send every row drawn
            self.forget_rows()
        return super().reflow(parent, size)

    def _get_renders(self, crop: Region | None = None) -> Iterable[tuple[Region, Region, list[Strip]]]:
        if crop is None:
            yield from super()._get_renders(crop)
            return
        top, bottom = crop.y, crop.bottom
        cover = _Cover()
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
            if cover.covers(shown):
                continue  # hidden behind the widgets in front: its chops would all lose
            cover.add(shown)
            yield shown, shown, widget.render_lines(Region(x - region.x, y1 - region.y, width, y2 - y1))

    def _displayed(self) -> bool:
        """Whether the update made now reaches the terminal (an app batching its updates drops them)."""
        root: Screen[Any] | None = self.root  # type: ignore[assignment]
        return root is not None and not root.app._batch_count

    def render_update(
        self, full: bool = False, screen_stack: list[Screen[Any]] | None = None, simplify: bool = False
    ) -> RenderableType | None:
        if full:  # asked for outright (a screenshot), not the screen's own refresh: the terminal did not get it
            self.forget_rows()
            update = super().render_update(full, screen_stack, simplify)
            self.forget_rows()
            return update
        return super().render_update(full, screen_stack, simplify)

    def render_full_update(self, simplify: bool = False) -> LayoutUpdate:
        update = super().render_full_update(simplify)
        shown: dict[int, ShownRow] = {}
        if self._displayed() and not simplify:
            cuts = self.cuts
            for y, strips in enumerate(update.strips):
                row: ShownRow = {}
                row_cuts = cuts[y]
                for x, end, strip in zip(row_cuts, row_cuts[1:], strips, strict=False):
                    key = _row_key((strip,))
                    if key is not None:
                        row[x] = (end, key)
                shown[y] = row
        self._shown_rows = shown
        return update

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
        chops: list[Mapping[int, Strip | None]] = [_NO_CHOPS] * screen.height  # (only the rows of the spans are read)
        shown_rows, displayed = self._shown_rows, self._displayed()
        cuts = self.cuts
        row_spans: dict[int, list[tuple[int, int]]] = {}
        for y, x1, x2 in spans:
            row_spans.setdefault(y, []).append((x1, x2))
        same: set[int] = set()
        for first, last in _bands(rows):
            band = Region(0, first, screen.width, last - first + 1)
            rendered: Sequence[Mapping[int, Strip | None]] = self._render_chops(band, is_rendered_line)
            for y in range(first, last + 1):
                chops[y] = rendered[y]
                if not displayed:
                    shown_rows.pop(y, None)
                elif _shown_already(shown_rows.setdefault(y, {}), cuts[y], rendered[y], row_spans[y]):
                    same.add(y)  # the terminal shows what this row's spans would send already
        if same:
            spans = [span for span in spans if span[0] not in same]
            if not spans:
                return None
        cuts = self.cuts
        chop_ends: list[list[int]] = [[]] * screen.height
        for y in rows:
            chop_ends[y] = cuts[y][1:]
        return ChopsUpdate(chops, spans, chop_ends)


class LaidOutOnce(Widget):
    """A widget whose size comes from its parent or its own content in one layout. Textual lays the whole screen out
    a second time, and repaints the widget again, when a layout changed a widget's virtual size (a pane or box shown
    with a new phase, a score track one row taller): for these widgets the first layout is already the last.
    (A mixin: list it after the widget's own class, so that CSS still matches that class's name.)"""

    def _size_updated(self, size: Size, virtual_size: Size, container_size: Size, layout: bool = True) -> bool:
        return super()._size_updated(size, virtual_size, container_size, layout=False)
