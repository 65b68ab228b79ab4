"""A compositor that does not send again the rows the terminal shows already.

Textual's compositor sends every row of each changed region: the rows of a widget that moved or changed size with a
layout (a phase change lays the screen out, and Textual repaints every widget whose place or size changed), the whole
widgets a new table screen repaints just after its first frame (they were drawn at their size in it already). Each row
sent is remembered as the terminal shows it (the text and styles of each of its chops, the pieces a row is cut into at
widget edges); a row drawn again with the same text and styles where it is sent is not sent again. Only what is sent is
remembered: a row is drawn whole, but only its changed spans are sent, and a widget beside them whose change has not
reached the screen yet was drawn with its new text (remembered as shown, its own update then found the row unchanged
and sent nothing: its line stayed stale on the terminal).

Which rows an update draws is Textual's: its own partial update, over the union of the changed regions; the lines it
asks the widgets for are kept by the widgets themselves (`tui/widgets/kept_lines.py`: a widget not refreshed gives its
lines as kept, one refreshed for some rows draws those rows only).

The rows sent are shared process-wide (`_SharedRow`): the spectators of a table at one terminal size draw each row from
the very same strips at the same cuts (the widgets' lines are shared: `KeptLines`, `styled_lines`, the pictures, the
colour filter, `Strip.divide`'s cache), so a row is looked up by its place, its cuts, the strips of its chops and the
spans of it sent. The first screen that sends it works out the text and styles of its chops (for the rows shown
already) and the row as sent: the pieces Textual's `ChopsUpdate` sends for its spans, as one chop, that piece's strip
when it is one, else one strip of them all (`_RowStrip`: its text as sent is the pieces' texts as sent, with a cursor
move where a piece does not start where the last one ended, once per colour system). The other screens find both:
their update sends each row as that one strip, not each chop of it cut, moved to and looked up again at every screen.
The terminal shows the same cells as with Textual's chops.

Measured (tests/tui/patch_cost.py --off compositor.shown_rows, Python calls of a join / the lobby / a move / a phase
change; issue 23, 2026-12-07): -0.6% / 0 / -3.1% / -3.1%, but without it a new table screen is sent twice
(tests/tui/test_join_work.py) and a phase change sends rows it did not change (tests/tui/test_render_cost.py,
test_phase_cost.py): kept. The compositor that drew only the bands of changed rows, skipped the widgets hidden behind
others and looked rows up process-wide went, with five Textual internals (the widgets' kept lines do that work now).
The rows shared again (2026-12-07 evening, tests/tui/spectator_calls.py: Python calls at a table of N spectators of one
size, each update's output made as a driver's app makes it): a move / a phase change with 6 spectators -2.2% / -1.4%
against the rows not shared, with 1 spectator -0.3% / +0.8% (tests/tui/test_shared_row_output.py counts them).

It relies on Textual's `Compositor` (pinned below 9 in pyproject): a full update is a `LayoutUpdate` of each row's
chops (`strips`), cut at `cuts`; a partial update is a `ChopsUpdate` of each row's chops, the spans sent and each row's
chop ends, shown by the screen's app unless it is batching updates (then the update is dropped).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from rich.control import Control
from rich.segment import Segment
from rich.style import Style
from textual._compositor import ChopsUpdate, Compositor, LayoutUpdate
from textual.geometry import Size
from textual.strip import Strip
from textual.widget import Widget

from dixit_tui.textual_host.process_caches import forget_with_shared

if TYPE_CHECKING:
    from rich.console import Console, RenderableType
    from textual.screen import Screen

RowKey = tuple[tuple[str, Style | None], ...]
ShownRow = dict[int, tuple[int, RowKey]]
"""What the terminal shows on a row, as far as known: chop start -> (chop end, its text and styles)."""


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


CHOP_KEYS = 8192
"""Chops' text and styles kept process-wide, by the chop (a strip: the pieces of a shared line cut at the same places
are the same strips at every screen showing it, `Strip.divide` keeps them)."""

_chop_keys_kept: dict[int, tuple[Strip, RowKey | None]] = forget_with_shared({})


def _chop_key(strip: Strip) -> RowKey | None:
    kept = _chop_keys_kept.get(id(strip))
    if kept is not None and kept[0] is strip:
        return kept[1]
    if len(_chop_keys_kept) >= CHOP_KEYS:
        _chop_keys_kept.clear()
    key = _row_key((strip,))
    _chop_keys_kept[id(strip)] = (strip, key)  # (the strip kept with it: while kept, the id is its own)
    return key


def _chop_keys(chops: Iterable[Strip | None]) -> tuple[RowKey | None, ...]:
    """The text and styles of each chop of a row (None: nothing drawn there, or control codes)."""
    return tuple([_chop_key(strip) if strip is not None else None for strip in chops])


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
        whole = reached = False
        for x1, x2 in spans:  # (loops, not any() of generators: this runs for every row sent)
            if x < x2 and x1 < end:
                reached = True
                if x1 <= x and end <= x2:
                    whole = True
                    break
        if not reached:
            continue  # not sent: the terminal keeps what it shows there
        if key is None or shown.get(x) != (end, key):
            changed = True
        sent.append((x, end, key if whole else None))
    if not changed:
        return True
    for x, end, key in sent:
        for start in [start for start, (stop, _) in shown.items() if start < end and x < stop]:
            del shown[start]  # (overwritten, at least in part)
        if key is not None:
            shown[x] = (end, key)
    return False


SHARED_ROWS = 4096
"""Rows of partial updates kept process-wide (`_SharedRow`: a row as sent, by its place, cuts, strips and spans)."""

_NO_CHOPS: Mapping[int, Strip | None] = {}
RESET = "\x1b[0m"
_LEADING_SGR = re.compile(r"\x1b\[[0-9;]*m")


class _RowStrip(Strip):
    """A row as sent (`pieces`: each piece Textual's `ChopsUpdate` sends of it, where it starts), as one strip: its
    segments are the pieces', with a cursor move (a control segment) before a piece that does not start where the
    last one ended; its text as sent is the pieces' texts as sent (each kept per colour system: `Strip.render`),
    joined once per colour system."""

    __slots__ = ("pieces", "texts", "y")

    def __init__(self, y: int, pieces: list[tuple[int, Strip]]) -> None:
        segments: list[Segment] = []
        cursor = pieces[0][0]
        for x, strip in pieces:
            if x != cursor:
                segments.append(Control.move_to(x, y).segment)
            segments.extend(strip)
            cursor = x + strip.cell_length
        super().__init__(segments, sum(strip.cell_length for _, strip in pieces))
        self.y = y
        self.pieces = pieces
        self.texts: dict[str | None, str] = {}

    def render(self, console: Console) -> str:
        system = console.color_system
        text = self.texts.get(system)
        if text is None:
            parts: list[str] = []
            cursor = self.pieces[0][0]
            for x, strip in self.pieces:
                piece = strip.render(console)
                if x != cursor:
                    parts.append(Control.move_to(x, self.y).segment.text)
                elif parts and parts[-1].endswith(RESET) and _LEADING_SGR.match(piece):
                    parts[-1] = parts[-1][: -len(RESET)]  # (one sequence resets and sets the next piece's style)
                    piece = "\x1b[0;" + piece[2:]
                parts.append(piece)
                cursor = x + strip.cell_length
            text = self.texts[system] = "".join(parts)
        return text


class _SharedRow:
    """One row of a partial update as Textual drew it (`chops`: the strip drawn in each of its cuts; kept, so that the
    ids in its key stay theirs) and sends it (the spans of it): `cuts`, the row's cuts; `keys`, the text and styles of
    each chop (`_shown_already`); `sent` and `ends`, the row's chops and chop ends in the update: the row as sent, one
    strip (`_RowStrip`) sent whole (none when nothing is drawn there)."""

    __slots__ = ("chops", "cuts", "ends", "keys", "sent")

    sent: Mapping[int, Strip | None]
    ends: list[int]

    def __init__(
        self, y: int, chops: Mapping[int, Strip | None], ends: Sequence[int], spans: Sequence[tuple[int, int]]
    ) -> None:
        self.chops = chops
        self.cuts = [*chops, ends[-1]]
        self.keys = _chop_keys(chops.values())
        pieces: list[tuple[int, Strip]] = []
        for x1, x2 in spans:  # (Textual's `ChopsUpdate.render_segments`, for one row)
            for end, (x, strip) in zip(ends, chops.items(), strict=False):
                if strip is None or x > x2 or end <= x1:
                    continue
                if not (x2 > x >= x1 and end <= x2):
                    strip = strip.crop(0, min(end, x2) - x)
                if strip.cell_length:  # (else a cursor move and nothing drawn)
                    pieces.append((x, strip))
        if not pieces:
            self.sent, self.ends = _NO_CHOPS, []
            return
        start = pieces[0][0]
        # (one piece: that strip, its text as sent kept already; several: the row as one strip)
        self.sent = {start: pieces[0][1] if len(pieces) == 1 else _RowStrip(y, pieces)}
        self.ends = [start + 1]


_rows: dict[tuple[object, ...], _SharedRow] = forget_with_shared({})


def _shared_row(
    y: int, chops: Mapping[int, Strip | None], ends: Sequence[int], spans: list[tuple[int, int]]
) -> _SharedRow:
    """Row `y` drawn as `chops` (cut at their keys, the last ending at `ends[-1]`) and sent for `spans`, made once per
    process."""
    key = (y, tuple(chops), tuple(map(id, chops.values())), ends[-1], tuple(spans))
    row = _rows.get(key)
    if row is None:
        if len(_rows) >= SHARED_ROWS:
            _rows.clear()
        row = _rows[key] = _SharedRow(y, chops, ends, spans)
    return row


class RowCompositor(Compositor):
    def __init__(self) -> None:
        super().__init__()
        self._shown_rows: dict[int, ShownRow] = {}  # what the terminal shows on each row, as last sent
        self._shown_size: Size | None = None  # the size of the screen they were sent at

    def forget_rows(self) -> None:
        """The terminal may show something else now (another screen drew over this one): send every row drawn."""
        self._shown_rows = {}

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
        self._shown_size = self.size
        return update

    def render_partial_update(self) -> ChopsUpdate | None:
        update = super().render_partial_update()
        if update is None:
            return None
        spans = update.spans
        shown_rows = self._shown_rows
        if not self._displayed() or self.size != self._shown_size:
            for y, _, _ in spans:
                shown_rows.pop(y, None)  # (not sent, or sent to a terminal of another size: not known)
            return update
        row_spans: dict[int, list[tuple[int, int]]] = {}
        for y, x1, x2 in spans:
            row_spans.setdefault(y, []).append((x1, x2))
        chops, chop_ends = update.chops, update.chop_ends
        sent_chops: list[Mapping[int, Strip | None]] = list(chops)
        sent_ends = list(chop_ends)
        sent_spans: list[tuple[int, int, int]] = []
        for y, sent in row_spans.items():  # (in the order of the spans: by row)
            row = _shared_row(y, chops[y], chop_ends[y], sent)
            if _shown_already(shown_rows.setdefault(y, {}), row.cuts, row.keys, sent):
                continue  # the terminal shows what this row's spans would send already
            sent_chops[y], sent_ends[y] = row.sent, row.ends
            start = row.ends[0] - 1 if row.ends else 0
            sent_spans.append((y, start, start + 1))  # (the row as its one chop: one span of it)
        return ChopsUpdate(sent_chops, sent_spans, sent_ends) if sent_spans else None


class LaidOutOnce(Widget):
    """A widget whose size comes from its parent or its own content in one layout. Textual lays the whole screen out
    a second time, and repaints the widget again, when a layout changed a widget's virtual size (a pane or box shown
    with a new phase, a score track one row taller): for these widgets the first layout is already the last.
    (A mixin: list it after the widget's own class, so that CSS still matches that class's name.)

    Measured (tests/tui/patch_cost.py --off laid_out_once, 2026-12-07): a join +0.3%, a move and a phase change 0
    to -1%, but the game's start lays the table out twice without it (the clue row, tests/tui/test_render_cost.py):
    kept."""

    def _size_updated(self, size: Size, virtual_size: Size, container_size: Size, layout: bool = True) -> bool:
        return super()._size_updated(size, virtual_size, container_size, layout=False)
