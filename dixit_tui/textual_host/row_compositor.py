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

Measured (tests/tui/patch_cost.py --off compositor.shown_rows, Python calls of a join / the lobby / a move / a phase
change; issue 23, 2026-12-07): -0.6% / 0 / -3.1% / -3.1%, but without it a new table screen is sent twice
(tests/tui/test_join_work.py) and a phase change sends rows it did not change (tests/tui/test_render_cost.py,
test_phase_cost.py): kept. The compositor that drew only the bands of changed rows, skipped the widgets hidden behind
others and looked rows up process-wide went, with five Textual internals (the widgets' kept lines do that work now).

It relies on Textual's `Compositor` (pinned below 9 in pyproject): a full update is a `LayoutUpdate` of each row's
chops (`strips`), cut at `cuts`; a partial update is a `ChopsUpdate` of each row's chops, the spans sent and each row's
chop ends, shown by the screen's app unless it is batching updates (then the update is dropped).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

from rich.style import Style
from textual._compositor import ChopsUpdate, Compositor, LayoutUpdate
from textual.geometry import Size
from textual.widget import Widget

from dixit_tui.textual_host.process_caches import forget_with_shared

if TYPE_CHECKING:
    from rich.console import RenderableType
    from textual.screen import Screen
    from textual.strip import Strip

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
        same: set[int] = set()
        for y, sent in row_spans.items():
            row = chops[y]
            row_cuts = [*row, chop_ends[y][-1]]
            if _shown_already(shown_rows.setdefault(y, {}), row_cuts, _chop_keys(row.values()), sent):
                same.add(y)  # the terminal shows what this row's spans would send already
        if not same:
            return update
        spans = [span for span in spans if span[0] not in same]
        return ChopsUpdate(chops, spans, chop_ends) if spans else None


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
