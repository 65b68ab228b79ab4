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

The spectators of a table draw the same rows from the very same strips (the styled lines, their colour filter and
their chops are shared process-wide: `styled_lines`, the pictures, the driver's `_apply_filter`, `Strip.divide`'s
cache). A row is looked up by what it is made of (its cuts, and each strip drawn in it with its place, front to
back): its chops, its text and styles and its output as sent for each span are made at the first screen that draws
it, and the others take them (`_shared_row`, `RowChopsUpdate`: the same bytes as Textual's `ChopsUpdate`).

Measured (tests/tui/patch_cost.py, Python calls of a join / the lobby / a move / a phase change; issue 23, 2026-12-07):
Textual's compositor at the table (`--off compositor`) +7.9% / 0 / +28% / +10.5% (with the main region one MainView:
-0.3% / 0 / +19% / +0.7%), of which the widgets hidden behind others not drawn (`--off compositor.cover`) +6.1% / 0 /
+20% / +7.9%; the rows shown already not sent: -1.4% / 0 / -1.2% / -0.9% (it keeps a new table screen from being sent
twice: Textual repaints it whole after its first frame); the rows looked up process-wide: +1.7% / 0 / +1.3% / +0.5% with
one spectator, but `dixit-tui bench --seed 7 --sessions 20 --tables 2 --duration 20 --spectator-cost`, back to back,
twice, puts one more spectator at 4.96 / 5.19 ms per update with them, 5.60 / 5.33 ms without (a version without them
was on main for an hour). `dixit-tui bench ... --with-floor`, this compositor on / off: 5.2 / 6.0 ms of server CPU per
terminal update (floor 1.2 / 1.1 ms). Kept, with everything above; the part layouts went.

It relies on two things of Textual's `Compositor` (pinned below 9 in pyproject): `_render_chops(crop, rows)` fills the
line chops of `rows` from `_get_renders(crop)`, front to back (the first chop drawn at a place wins), whose strips
start at the top row of the region it yields; and a partial update is a `ChopsUpdate` of those chops and the changed
spans, shown by the screen's app unless it is batching updates (then the update is dropped).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from rich.control import Control
from rich.style import Style
from textual._compositor import ChopsUpdate, Compositor, CompositorMap, LayoutUpdate, ReflowResult
from textual.geometry import Region, Size
from textual.strip import Strip
from textual.widget import Widget

from dixit_tui.textual_host import styled_lines
from dixit_tui.textual_host.process_caches import forget_with_shared

if TYPE_CHECKING:
    from rich.console import Console, RenderableType
    from textual.screen import Screen

RowKey = tuple[tuple[str, Style | None], ...]
ShownRow = dict[int, tuple[int, RowKey]]
"""What the terminal shows on a row, as far as known: chop start -> (chop end, its text and styles)."""
_NO_CHOPS: Mapping[int, Strip | None] = {}

SHARED_ROWS = 4096
"""Rows kept process-wide (a screen row as drawn from given strips at given places: its chops, its text as sent)."""


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


class _Row:
    """One screen row drawn from given strips at given places (`parts`, front to back, kept so that the ids in its
    key stay theirs): its chops as Textual's `_render_chops` makes them, their text and styles (`keys`) and its
    text as sent for each span and colour system (`texts`)."""

    __slots__ = ("chops", "keys", "parts", "texts")

    def __init__(self, parts: list[tuple[int, int, Strip]], cuts: list[int]) -> None:
        self.parts = parts
        chops: dict[int, Strip | None] = dict.fromkeys(cuts[:-1])
        get = chops.get
        for x, right, strip in parts:  # (Textual's `_render_chops` for one row: the first chop drawn at a place wins)
            final_cuts = [cut for cut in cuts if right >= cut >= x]
            for cut, piece in zip(final_cuts, strip.divide([cut - x for cut in final_cuts[1:]]), strict=False):
                if get(cut) is None:
                    chops[cut] = piece
        self.chops: Mapping[int, Strip | None] = chops
        self.keys = _chop_keys(chops.values())
        self.texts: dict[tuple[int, int, int, object], str] = {}

    def text(self, y: int, x1: int, x2: int, ends: list[int], console: Console) -> str:
        """The span's output, as Textual's `ChopsUpdate.render_segments` makes it for this row."""
        key = (y, x1, x2, console._color_system)
        text = self.texts.get(key)
        if text is None:
            sequences: list[str] = []
            append = sequences.append
            for end, (x, strip) in zip(ends, self.chops.items(), strict=False):
                if strip is None or x > x2 or end <= x1:
                    continue
                if not (x2 > x >= x1 and end <= x2):
                    strip = strip.crop(0, min(end, x2) - x)
                append(Control.move_to(x, y).segment.text)
                append(strip.render(console))
            text = self.texts[key] = "".join(sequences)
        return text


_rows: dict[tuple[object, ...], _Row] = forget_with_shared({})


def _shared_row(cut_key: tuple[int, ...], cuts: list[int], parts: list[tuple[int, int, Strip]]) -> _Row:
    """The row drawn from `parts` (x, right, strip; front to back) with the cuts `cuts`, made once per process."""
    key: list[object] = [cut_key]
    for x, right, strip in parts:
        key += (x, right, id(strip))  # (the row kept holds its strips: while it is kept, their ids are theirs)
    row_key = tuple(key)
    row = _rows.get(row_key)
    if row is not None:
        return row
    if len(_rows) >= SHARED_ROWS:
        _rows.clear()
    row = _rows[row_key] = _Row(parts, cuts)
    return row


class RowChopsUpdate(ChopsUpdate):
    """A partial update whose rows' output is looked up (`_Row.text`): the same bytes as Textual's."""

    def __init__(
        self,
        chops: Sequence[Mapping[int, Strip | None]],
        spans: list[tuple[int, int, int]],
        chop_ends: list[list[int]],
        rows: Mapping[int, _Row],
    ) -> None:
        super().__init__(chops, spans, chop_ends)
        self.rows = rows

    def render_segments(self, console: Console) -> str:
        rows, chop_ends = self.rows, self.chop_ends
        last_y = self.spans[-1][0]
        sequences: list[str] = []
        append = sequences.append
        for y, x1, x2 in self.spans:
            append(rows[y].text(y, x1, x2, chop_ends[y], console))
            if y != last_y:
                append("\n")
        return "".join(sequences)


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
        self._shown_rows: dict[int, ShownRow] = {}  # what the terminal shows on each row, as last sent
        self._keyed_cuts: list[list[int]] | None = None  # the cuts `_cut_keys` were made of
        self._cut_keys: list[tuple[int, ...]] = []
        self._laid_out: CompositorMap = {}  # the map of the last layout (Textual's `_full_map` may be rebuilt since)

    def forget_rows(self) -> None:
        """The terminal may show something else now (another screen drew over this one): send every row drawn."""
        self._shown_rows = {}

    def reflow(self, parent: Widget, size: Size) -> ReflowResult:
        """As Textual's, and the places of the widgets that moved, came or went since the last layout are drawn
        again. Textual compares the new layout with its map, but builds that map again (`full_map`) at the first
        look for a widget's place once a widget it did not hold was refreshed (a toast shown): a widget gone before
        that look (the toast rack hidden as its notice is cleared) is not in it, and its rows stayed on the terminal
        (seen playing: a notice's text on the status line for 30 s). Textual's own drawing looks each widget's place
        up, building the map again while the toast still shows; this one is handed the place (`region_hint`)."""
        if size != self.size:  # a terminal's rows after a resize are its own business: send every row drawn
            self.forget_rows()
        laid_out = self._laid_out
        rebuilt = self._full_map is not laid_out  # (the map Textual compares with is not the last layout's)
        result = super().reflow(parent, size)
        new_map = self._laid_out = self._full_map
        if rebuilt and laid_out and size.region not in self._dirty_regions:
            self._dirty_regions.update(
                region
                for region in (
                    geometry.clip.intersection(geometry.region) for _, geometry in laid_out.items() ^ new_map.items()
                )
                if region
            )
        return result

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
            styled_lines.region_hint = (widget, region)  # (its region, as `widget.region` would find it again)
            try:
                strips = widget.render_lines(Region(x - region.x, y1 - region.y, width, y2 - y1))
            finally:
                styled_lines.region_hint = None
            yield shown, shown, strips

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
        update_regions = self._dirty_regions.copy()
        self._dirty_regions.clear()
        if not update_regions:
            return None
        screen = self.size.region
        spans = [span for span in self._regions_to_spans(update_regions) if 0 <= span[0] < screen.height]
        if not spans:
            return None
        rows = {y for y, _, _ in spans}
        chops: list[Mapping[int, Strip | None]] = [_NO_CHOPS] * screen.height  # (only the rows of the spans are read)
        shown_rows, displayed = self._shown_rows, self._displayed()
        cuts = self.cuts
        row_spans: dict[int, list[tuple[int, int]]] = {}
        for y, x1, x2 in spans:
            row_spans.setdefault(y, []).append((x1, x2))
        if cuts is not self._keyed_cuts:
            self._cut_keys = [tuple(row_cuts) for row_cuts in cuts]
            self._keyed_cuts = cuts
        cut_keys = self._cut_keys
        drawn: dict[int, _Row] = {}
        same: set[int] = set()
        for first, last in _bands(rows):
            band = Region(0, first, screen.width, last - first + 1)
            renders = [
                (region.x, region.right, region.y, region.bottom, strips)
                for region, _, strips in self._get_renders(band)
            ]
            for y in range(first, last + 1):
                parts = [(x, right, strips[y - top]) for x, right, top, bottom, strips in renders if top <= y < bottom]
                row = drawn[y] = _shared_row(cut_keys[y], cuts[y], parts)
                chops[y] = row.chops
                if not displayed:
                    shown_rows.pop(y, None)
                elif _shown_already(shown_rows.setdefault(y, {}), cuts[y], row.keys, row_spans[y]):
                    same.add(y)  # the terminal shows what this row's spans would send already
        if same:
            spans = [span for span in spans if span[0] not in same]
            if not spans:
                return None
        chop_ends: list[list[int]] = [[]] * screen.height
        for y in rows:
            chop_ends[y] = cuts[y][1:]
        return RowChopsUpdate(chops, spans, chop_ends, drawn)


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
