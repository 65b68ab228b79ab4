"""`TopLines`: the table's top bar and status line, one Line-API widget showing `tui.top_picture`'s picture. The
status line keeps the rows it took until `fit` (called as the phase's pane changes, a layout anyway), so a line that
shortens as players act never lays the screen out."""

from __future__ import annotations

from typing import ClassVar

from textual import events
from textual.geometry import Size

from dixit_tui.tui.table_words import Words
from dixit_tui.tui.top_picture import TopStyles, status_rows, top_picture
from dixit_tui.tui.widgets.picture_view import PictureView


class TopLines(PictureView, can_focus=False):
    """Shows `top_picture(bar, status, the status rows kept, its width, its rows' styles)`."""

    COMPONENT_CLASSES: ClassVar[set[str]] = {"top-lines--bar", "top-lines--status"}
    SCROLLS = False  # (as tall as its picture)

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.bar = Words()
        self.status = Words()
        self.status_rows = 1  # the rows the status line takes now (kept until `fit`)
        self._styles: TopStyles | None = None  # the rows' styles, worked out once per change of style
        self._width = 0

    def show_bar(self, bar: Words) -> None:
        if bar != self.bar:
            self.bar = bar
            self._draw()

    def show_status(self, status: Words) -> None:
        if status != self.status:
            self.status = status
            self._draw(grow=True)

    def fit(self) -> None:
        """The status line's rows to its words again (it keeps the rows it took until then)."""
        if self._width:
            self._draw(rows=status_rows(self.status, self._width))

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        if width != self._width:  # (made as it is laid out: the first frame shows it)
            self._width = width
            self.status_rows = status_rows(self.status, width)
            self._draw(drawing=True)
        return 1 + self.status_rows

    def on_resize(self, event: events.Resize) -> None:
        drawn = bool(self._width)
        if self.size.width != self._width:
            self._width = self.size.width
            self._draw(rows=status_rows(self.status, self._width))
        if drawn:
            # Textual marks a widget whose size changed to be drawn whole, and draws it whole at the next update
            # that refreshes it (as well as with the layout): that is now, not with the next tick
            self.refresh()

    def notify_style_update(self) -> None:
        self._styles = None  # (its CSS was applied again: a theme, a class; the next drawing reads it again)
        super().notify_style_update()

    def styles_of_rows(self) -> TopStyles:
        if self._styles is None:
            style = self.get_component_rich_style
            self._styles = TopStyles(style("top-lines--bar"), style("top-lines--status"))
        return self._styles

    def _draw(self, *, grow: bool = False, rows: int | None = None, drawing: bool = False) -> None:
        width = self._width
        if not width:
            return  # (drawn as it is laid out)
        if rows is None:
            rows = max(self.status_rows, status_rows(self.status, width)) if grow else self.status_rows
        relayout = rows != self.status_rows
        self.status_rows = rows
        self.show_picture(top_picture(self.bar, self.status, rows, width, self.styles_of_rows()), drawing=drawing)
        if relayout and not drawing:
            self.refresh(layout=True)
