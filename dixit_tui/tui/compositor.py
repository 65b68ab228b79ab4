"""A compositor that draws, for an update, only the rows it changed and only the widgets seen there.

Textual's compositor draws a partial update inside the one rectangle that holds every changed region: when the status
line (row 1), a seat row (row 5) and the feed (rows 24-27) change, every widget between rows 1 and 27 renders all
its lines there, and the lines not sent are thrown away. And it draws every widget there, also those hidden behind
the widgets in front of them (a container filled by its children, the screen under them all: their lines lose to
the front widget's chops). `RowCompositor` asks each widget only for the rows of each band of changed rows, and not
at all where the widgets in front of it cover it (`_Cover`); Textual's own `render_partial_update` and
`_render_chops` make the update from those lines (the same chops and bytes: tests/tui/test_shared_rows.py).

Each row sent is remembered as the terminal shows it (the text and styles of each of its chops, the pieces a row is
cut into at widget edges); a row drawn again with the same text and styles where it is sent is not sent again (a new
screen's second drawing after its first frame, a blank row of a pane that grew, the seats beside a pane that
changed). Only what is sent is remembered: a row is drawn whole, but only its changed spans are sent, and a widget
beside them whose change has not reached the screen yet was drawn with its new text (remembered as shown, its own
update then found the row unchanged and sent nothing: its line stayed stale on the terminal).

Measured (tests/tui/patch_cost.py, Python calls; a join / the lobby / a move / a phase change), 2026-12-07: Textual's
compositor at the table (`--off compositor`) +7.2% / 0 / +25% / +5.7%, of which drawing the widgets hidden behind
others (`--off compositor.cover`) +6.1% / 0 / +20% / +7.9%; `dixit-tui bench --seed 7 --sessions 20 --tables 2
--duration 20 --with-floor`: 5.2 against 6.0 ms of server CPU per terminal update (floor 1.2 / 1.1 ms). The rows
remembered as shown cost calls (without them -1.4% / 0 / -1.2% / -0.9%) but keep a new table screen from being sent
twice (Textual repaints the whole screen after its first frame) and a move to the rows it changed
(tests/tui/test_join_work.py, test_render_cost.py): kept. Removed (issue 23): the rows looked up process-wide by
their strips (+1.7% / 0 / +1.3% / +0.5% without; the bench no worse: 5.3 / 5.5 against 6.0 / 5.9 ms per update).
Once the main region was one MainView (same day): `--off compositor` -0.3% / 0 / +19% / +0.7%, `--off
compositor.cover` +2.1% / 0 / +15% / +5.5%: kept.

It relies on Textual's `Compositor` (pinned below 9 in pyproject; the parts in textual_host/internals.py):
`render_partial_update` takes the changed regions from `_dirty_regions` and hands `_render_chops` their union as the
crop; `_render_chops` fills the line chops of the changed rows from `_get_renders(crop)`, front to back (the first
chop drawn at a place wins), whose strips start at the top row of the region it yields.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from rich.style import Style
from textual._compositor import ChopsUpdate, Compositor, LayoutUpdate, ReflowResult
from textual.geometry import Region, Size
from textual.strip import Strip
from textual.widget import Widget

from dixit_tui.tui import styled_lines

if TYPE_CHECKING:
    from rich.console import RenderableType
    from textual.screen import Screen

RowKey = tuple[tuple[str, Style | None], ...]
ShownRow = dict[int, tuple[int, RowKey]]
"""What the terminal shows on a row, as far as known: chop start -> (chop end, its text and styles)."""


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


def _chop_keys(chops: Iterable[Strip | None]) -> tuple[RowKey | None, ...]:
    """The text and styles of each chop of a row (None: nothing drawn there, or control codes)."""
    return tuple(_row_key((strip,)) if strip is not None else None for strip in chops)


def _shown_already(
    shown: ShownRow, row_cuts: Sequence[int], chop_keys: Sequence[RowKey | None], spans: Sequence[tuple[int, int]]
) -> bool:
    """Whether the terminal shows a row (its chops drawn whole, `chop_keys` their text and styles) already where
    `spans` of it would be sent; if not, `shown` (what the terminal shows on the row) becomes what it shows once they
    are sent: the chops sent whole are known, the ones cut by a span's end are not, the rest of the row stays as it
    was."""
    sent: list[tuple[int, int, RowKey | None]] = []
    changed = False
    for x, end, key in zip(row_cuts, row_cuts[1:], chop_keys, strict=False):
        if not any(x < x2 and x1 < end for x1, x2 in spans):
            continue  # not sent: the terminal keeps what it shows there
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
    """The parts of each row already drawn by the widgets in front (each row's columns as the bits of an int)."""

    def __init__(self) -> None:
        self.rows: dict[int, int] = {}

    def covers(self, region: Region) -> bool:
        mask = ((1 << region.width) - 1) << region.x
        get = self.rows.get
        for y in range(region.y, region.bottom):  # noqa: SIM110  # (a loop: cheaper than all() of a generator)
            if get(y, 0) & mask != mask:
                return False
        return True

    def add(self, region: Region) -> None:
        mask = ((1 << region.width) - 1) << region.x
        rows = self.rows
        for y in range(region.y, region.bottom):
            rows[y] = rows.get(y, 0) | mask


class RowCompositor(Compositor):
    def __init__(self) -> None:
        super().__init__()
        self._bands: list[tuple[int, int]] | None = None  # the bands of changed rows of the update being made
        self._shown_rows: dict[int, ShownRow] = {}  # what the terminal shows on each row, as last sent

    def forget_rows(self) -> None:
        """The terminal may show something else now (another screen drew over this one): send every row drawn."""
        self._shown_rows = {}

    def reflow(self, parent: Widget, size: Size) -> ReflowResult:
        if size != self.size:  # a terminal's rows after a resize are its own business: send every row drawn
            self.forget_rows()
        return super().reflow(parent, size)

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
                for x, end, key in zip(row_cuts, row_cuts[1:], _chop_keys(strips), strict=False):
                    if key is not None:
                        row[x] = (end, key)
                shown[y] = row
        self._shown_rows = shown
        return update

    def render_partial_update(self) -> ChopsUpdate | None:
        height = self.size.height
        rows = {y for region in self._dirty_regions for y in range(max(region.y, 0), min(region.bottom, height))}
        self._bands = _bands(rows)
        try:
            update = super().render_partial_update()
        finally:
            self._bands = None
        if update is None:
            return None
        shown_rows, displayed, cuts = self._shown_rows, self._displayed(), self.cuts
        row_spans: dict[int, list[tuple[int, int]]] = {}
        for y, x1, x2 in update.spans:
            row_spans.setdefault(y, []).append((x1, x2))
        same: set[int] = set()
        chops: Sequence[Mapping[int, Strip | None]] = update.chops
        for y, spans in row_spans.items():
            if not displayed:
                shown_rows.pop(y, None)
            elif _shown_already(shown_rows.setdefault(y, {}), cuts[y], _chop_keys(chops[y].values()), spans):
                same.add(y)  # the terminal shows what this row's spans would send already
        if same:
            spans_left = [span for span in update.spans if span[0] not in same]
            if not spans_left:
                return None
            update = ChopsUpdate(update.chops, spans_left, update.chop_ends)
        return update

    def _get_renders(self, crop: Region | None = None) -> Iterable[tuple[Region, Region, list[Strip]]]:
        bands = self._bands
        if crop is None or bands is None:
            yield from super()._get_renders(crop)
            return
        width = self.size.width
        cover = _Cover()
        visible = self.visible_widgets.items()
        for top, last in bands:
            band = Region(0, top, width, last - top + 1).intersection(crop)
            if not band:
                continue
            bottom = band.bottom
            for widget, (region, clip) in visible:
                if not band.overlaps(clip):
                    continue
                x, y, w, h = region.intersection(clip)
                if not (w and h):
                    continue
                # every column the widget shows (chops are cut at widget edges), only the rows of the band
                y1, y2 = max(y, top), min(y + h, bottom)
                if y1 >= y2:
                    continue
                shown = Region(x, y1, w, y2 - y1)
                if cover.covers(shown):
                    continue  # hidden behind the widgets in front: its chops would all lose
                cover.add(shown)
                styled_lines.region_hint = (widget, region)  # (its region, as `widget.region` would find it again)
                try:
                    strips = widget.render_lines(Region(x - region.x, y1 - region.y, w, y2 - y1))
                finally:
                    styled_lines.region_hint = None
                yield shown, shown, strips


class LaidOutOnce(Widget):
    """A widget whose size comes from its parent or its own content in one layout. Textual lays the whole screen out
    a second time, and repaints the widget again, when a layout changed a widget's virtual size (a pane or box shown
    with a new phase, a score track one row taller): for these widgets the first layout is already the last.
    (A mixin: list it after the widget's own class, so that CSS still matches that class's name.)

    Measured (tests/tui/patch_cost.py --off laid_out_once, 2026-12-07): a phase change +8.2% of Python calls, a join
    +0.4%, a move +0.2%; once the main region was one MainView: +0.3% / 0 / +0.3% / 0, but the game's start lays the
    table out twice without it (the clue row: tests/tui/test_render_cost.py): kept."""

    def _size_updated(self, size: Size, virtual_size: Size, container_size: Size, layout: bool = True) -> bool:
        return super()._size_updated(size, virtual_size, container_size, layout=False)
