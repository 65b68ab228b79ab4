"""`TableList`: the lobby's open tables, one row each under a header, with a row cursor, in its box (its own border),
saying what to do while no table is listed. A Line-API widget (a `ScrollView`): each line is a pure function of what
it shows (the header, or one row's cells, whether the cursor or the pointer is on it), the width, the horizontal
scroll and the styles it is drawn with, looked up in a process-wide cache: a second session showing the same list the
same way draws none of its lines.

It draws as Textual's `DataTable` with a row cursor and the lobby's columns drew (a cell padded by one cell each side,
the header in `datatable--header`, the cursor's row in `datatable--cursor`, the row under the pointer in
`datatable--hover`: the same component classes and CSS), and answers the same keys, clicks and pointer. The
`DataTable` was 8k of the 40k Python calls of opening the lobby (tests/tui/patch_cost.py), a widget with nine
component styles, its caches and messages in every session."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from rich.cells import set_cell_size
from rich.segment import Segment
from rich.style import Style
from textual import events
from textual.binding import Binding, BindingType
from textual.cache import LRUCache
from textual.geometry import Size
from textual.message import Message
from textual.scroll_view import ScrollView
from textual.strip import Strip

from dixit_tui.textual_host.process_caches import forget_with_shared

SHARED_LINES = 1024
"""Lines of the list kept process-wide (the header and the rows, each drawn one way at one width)."""

CELL_PADDING = 1  # blank cells each side of a cell's text
EMPTY_ROW = 2  # the row of the words said while no row is listed (under the header and a blank row)
ITALIC = Style(italic=True)
HEADER = -1  # the header's row index (as a click or the pointer finds it)

_lines: LRUCache[tuple[object, ...], Strip] = forget_with_shared(LRUCache(SHARED_LINES))


class TableList(ScrollView, can_focus=True):
    """The open tables, one row each; Enter (or a click on the selected row) joins. Its rows are set by `list_rows`
    (a key and plain text cells each)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "select_cursor", "Join"),
        Binding("up", "cursor_up", "Cursor up", show=False),
        Binding("down", "cursor_down", "Cursor down", show=False),
        Binding("right", "scroll_right", "Scroll right", show=False),
        Binding("left", "scroll_left", "Scroll left", show=False),
        Binding("pageup", "page_up", "Page up", show=False),
        Binding("pagedown", "page_down", "Page down", show=False),
        Binding("ctrl+home", "first", "Top", show=False),
        Binding("ctrl+end", "last", "Bottom", show=False),
        Binding("home", "scroll_home", "Home", show=False),
        Binding("end", "scroll_end", "End", show=False),
    ]
    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "datatable--header",
        "datatable--cursor",
        "datatable--hover",
        "datatable--header-hover",
    }
    DEFAULT_CSS = """
    TableList {
        background: $surface;
        color: $foreground;
        &:focus {
            background-tint: $foreground 5%;
            & > .datatable--cursor {
                background: $block-cursor-background;
                color: $block-cursor-foreground;
                text-style: $block-cursor-text-style;
            }
            & > .datatable--header {
                background-tint: $foreground 5%;
            }
        }
        & > .datatable--header {
            text-style: bold;
            background: $panel;
            color: $foreground;
        }
        &:ansi > .datatable--header {
            background: ansi_bright_blue;
            color: ansi_default;
        }
        & > .datatable--cursor {
            background: $block-cursor-blurred-background;
            color: $block-cursor-blurred-foreground;
            text-style: $block-cursor-blurred-text-style;
        }
        & > .datatable--hover {
            background: $block-hover-background;
        }
        & > .datatable--header-hover {
            background: $accent 30%;
        }
    }
    """

    class Highlighted(Message):
        """The cursor moved to another row (or the rows changed under it)."""

    class Selected(Message):
        """Enter on a row, or a click on the selected row."""

        def __init__(self, key: str) -> None:
            super().__init__()
            self.key = key

    def __init__(self, columns: Sequence[tuple[str, int]], empty: str, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.columns = tuple(columns)  # (label, width) of each column
        self.empty = empty  # said under the header while no row is listed (after a blank line, in italics)
        self.keys: tuple[str, ...] = ()
        self.rows: tuple[tuple[str, ...], ...] = ()  # each row's cells, as listed
        self.cursor_row = 0
        self._hover: int | None = None  # the row under the pointer (HEADER: the header), once it moved over the list
        self._measure()

    # --- rows and the cursor ---------------------------------------------------------------------------------

    @property
    def row_count(self) -> int:
        return len(self.rows)

    @property
    def selected(self) -> str | None:
        """The key of the row under the cursor (None: no row)."""
        return self.keys[self.cursor_row] if self.rows else None

    def list_rows(self, rows: Sequence[tuple[str, tuple[str, ...]]]) -> None:
        """The list's rows: (key, cells) each, in order, in place of the ones it had; the cursor goes to the first."""
        self.keys = tuple(key for key, _ in rows)
        self.rows = tuple(cells for _, cells in rows)
        self._measure()
        self.move_cursor(0, force=True)
        self.refresh()

    def _measure(self) -> None:
        width = sum(width + 2 * CELL_PADDING for _, width in self.columns)
        self.virtual_size = Size(width, 1 + len(self.rows))

    def move_cursor(self, row: int, *, force: bool = False) -> None:
        """The cursor to `row` (kept in the list), scrolled into view; `Highlighted` if it moved."""
        row = max(0, min(row, len(self.rows) - 1))
        moved = row != self.cursor_row
        self.cursor_row = row
        if moved or force:
            self._scroll_cursor_into_view()
            self.refresh()
            self.post_message(self.Highlighted())

    def _scroll_cursor_into_view(self) -> None:
        shown = max(1, self.scrollable_content_region.height - 1)  # the rows under the header
        top = round(self.scroll_y)
        if self.cursor_row < top:
            self.scroll_to(y=self.cursor_row, animate=False, force=True)
        elif self.cursor_row >= top + shown:
            self.scroll_to(y=self.cursor_row - shown + 1, animate=False, force=True)

    def _keyboard(self) -> None:
        """A key moved the cursor: the pointer's row is drawn plainly again (until it moves)."""
        if self._hover is not None:
            self._hover = None
            self.refresh()

    def _page(self) -> int:
        return max(1, self.scrollable_content_region.height - 1)

    def action_cursor_up(self) -> None:
        self._keyboard()
        self.move_cursor(self.cursor_row - 1)

    def action_cursor_down(self) -> None:
        self._keyboard()
        self.move_cursor(self.cursor_row + 1)

    def action_page_up(self) -> None:
        self._keyboard()
        self.move_cursor(self.cursor_row - self._page())

    def action_page_down(self) -> None:
        self._keyboard()
        self.move_cursor(self.cursor_row + self._page())

    def action_first(self) -> None:
        self._keyboard()
        self.move_cursor(0)

    def action_last(self) -> None:
        self._keyboard()
        self.move_cursor(len(self.rows) - 1)

    def action_select_cursor(self) -> None:
        self._keyboard()
        if self.rows:
            self.post_message(self.Selected(self.keys[self.cursor_row]))

    # --- the pointer -----------------------------------------------------------------------------------------

    def on_mouse_move(self, event: events.MouseMove) -> None:
        row = event.style.meta.get("row")
        hover = row if isinstance(row, int) else None
        if hover != self._hover:
            self._hover = hover
            self.refresh()

    def on_leave(self, event: events.Leave) -> None:
        if self._hover is not None:
            self._hover = None
            self.refresh()

    def on_click(self, event: events.Click) -> None:
        row = event.style.meta.get("row")
        if not isinstance(row, int) or row == HEADER or not 0 <= row < len(self.rows):
            return
        event.stop()
        if row == self.cursor_row:
            self.post_message(self.Selected(self.keys[row]))
        else:
            self.move_cursor(row)

    # --- drawing ---------------------------------------------------------------------------------------------

    def render_line(self, y: int) -> Strip:
        width = self.size.width
        base = self.rich_style
        scroll_x, scroll_y = self.scroll_offset
        row = HEADER if y == 0 else y - 1 + scroll_y
        if not HEADER <= row < len(self.rows):
            if y == EMPTY_ROW and not self.rows:
                return Strip([Segment(self.empty, base + ITALIC)]).crop_extend(0, width, base)
            return Strip.blank(width, base)
        header = row == HEADER
        cursor = row == self.cursor_row and not header
        hover = row == self._hover
        component = self.get_component_rich_style
        styles = (
            base,
            self.get_component_styles("datatable--header").rich_style if header else None,
            component("datatable--cursor", partial=False) if cursor else None,
            component("datatable--hover", partial=False) if hover else None,
            component("datatable--header-hover", partial=False) if hover and header else None,
        )
        cells = tuple(label for label, _ in self.columns) if row == HEADER else self.rows[row]
        key = (row, cells, styles, width, scroll_x, self.columns)
        line = _lines.get(key)
        if line is None:
            line = _lines[key] = self._draw(row, cells, styles, width, scroll_x)
        return line

    def _draw(
        self, row: int, cells: tuple[str, ...], styles: tuple[Style | None, ...], width: int, scroll_x: int
    ) -> Strip:
        """One line as the DataTable drew it: each cell padded in the row's style with the cursor's or the pointer's
        over it, marked with its row and column; the rest of the width in the same style."""
        base, header, cursor, hover, header_hover = styles
        assert base is not None
        style = header or base
        if hover is not None:
            style += hover
        if header_hover is not None:
            style += header_hover
        if cursor is not None:
            style += cursor
        pad = " " * CELL_PADDING
        segments = []
        for column, (text, (_, cell_width)) in enumerate(zip(cells, self.columns, strict=True)):
            cell = set_cell_size(text, cell_width)
            segments.append(Segment(f"{pad}{cell}{pad}", style + Style.from_meta({"row": row, "column": column})))
        used = sum(cell_width + 2 * CELL_PADDING for _, cell_width in self.columns)
        rest = Style.from_meta({"row": row, "column": 0, "out_of_bounds": True})
        segments.append(Segment(" " * max(0, width - used), style + rest))
        return Strip(segments).crop_extend(scroll_x, scroll_x + width, base)
