"""`TableList`: the lobby's open tables, one row each (a `DataTable` with a row cursor), in its box (its own border:
no container around it), saying what to do while no table is listed; its lines are drawn once per process for every
session that shows them the same way.

Textual's `DataTable` draws each line anew for each session (its caches are its own), some 2,000 Python calls a
line: the lobby's list was most of the cost of opening the lobby (with 21 tables listed, 51k of its 111k Python calls,
tests/tui/patch_cost.py). A line here is a function of what it shows (the header, or one row's cells and whether the
cursor is on it), the width, the horizontal scroll and the styles the table draws with; lines are looked up by those
in a process-wide cache, and made by `DataTable.render_line` on a miss (the same lines, made once).

A session whose pointer has moved over its list draws its own lines from then on (the row under the pointer is
drawn in the hover style, which the key does not hold)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual import events
from textual.binding import Binding, BindingType
from textual.cache import LRUCache
from textual.geometry import Region
from textual.strip import Strip
from textual.widgets import DataTable

from dixit_tui.textual_host.process_caches import forget_with_shared

SHARED_LINES = 1024
"""Lines of the list kept process-wide (the header and the rows, each drawn one way at one width)."""

_STYLES = ("datatable--header", "datatable--cursor")
"""The component styles a line of this list is drawn with, as the CSS made them: the header's, the cursor's (no
zebra stripes, no fixed rows or columns; the hover styles only under the pointer: those lines are the session's)."""

EMPTY_ROW = 2  # the row of the words said while no row is listed (under the header and a blank row)
ITALIC = Style(italic=True)

_lines: LRUCache[tuple[object, ...], Strip] = forget_with_shared(LRUCache(SHARED_LINES))


class TableList(DataTable[Text]):
    """The open tables, one row each; Enter (or a click on the selected row) joins. Its rows are set by `list_rows`
    (plain text cells), which it keeps to look its lines up by."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "select_cursor", "Join"),
    ]

    def __init__(self, empty: str, *, id: str | None = None) -> None:
        super().__init__(id=id, cursor_type="row", zebra_stripes=False)
        self.empty = empty  # said under the header while no row is listed (after a blank line, in italics)
        self._cells: list[tuple[str, ...]] = []  # each row's cells, as listed
        self._pointer_seen = False  # the pointer moved over the list: its lines are its own from then on
        self._drawing: tuple[object, ...] | None = None  # what every line of the pass being drawn depends on

    def list_rows(self, rows: Sequence[tuple[str, tuple[str, ...]]]) -> None:
        """The list's rows: (key, cells) each, in order, in place of the ones it had."""
        self.clear()
        self._cells = [cells for _, cells in rows]
        for key, cells in rows:
            self.add_row(*(Text(cell) for cell in cells), key=key)

    def on_mouse_move(self, event: events.MouseMove) -> None:
        self._pointer_seen = True

    def render_lines(self, crop: Region) -> list[Strip]:
        if (
            self._pointer_seen
            or self.cursor_type != "row"
            or self.fixed_rows
            or self.fixed_columns
            or self.zebra_stripes
        ):
            self._drawing = None
        else:
            columns = self.ordered_columns
            self._drawing = (
                tuple((str(column.label), column.get_render_width(self)) for column in columns),
                self.rich_style,
                self.get_pseudo_class_state(),
                self.background_colors,
                self.show_header,
                self.show_cursor,
                tuple(self.get_component_rich_style(name, partial=False) for name in _STYLES),
            )
        return super().render_lines(crop)

    @property
    def empty_shown(self) -> bool:
        return not self.row_count

    def render_line(self, y: int) -> Strip:
        if y == EMPTY_ROW and self.empty_shown:
            style = self.rich_style
            return Strip([Segment(self.empty, style + ITALIC)]).crop_extend(0, self.size.width, style)
        drawing = self._drawing
        if drawing is None or self.header_height != 1 or not self.show_header:
            return super().render_line(y)
        width = self.size.width
        scroll_x, scroll_y = self.scroll_offset
        if y == 0:
            shows: tuple[object, ...] = ("header",)
        else:
            row = y - 1 + scroll_y
            if len(self._cells) != self.row_count or row < 0:
                return super().render_line(y)
            if row >= len(self._cells):  # (under the last row: the list fills the box)
                return Strip.blank(width, self.rich_style)
            shows = ("row", self._cells[row], row == self.cursor_row)
        key = (shows, width, scroll_x, drawing)
        line = _lines.get(key)
        if line is None:
            line = _lines[key] = super().render_line(y)
        return line
