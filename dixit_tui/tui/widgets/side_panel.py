"""`SidePanel`: the table's side column (the seats, the score track or the practice turn's help) as one Line-API
widget showing the picture `tui.side_picture` makes for its width (shared with every session showing the same)."""

from __future__ import annotations

from typing import ClassVar

from textual import events

from dixit_tui.coordinator import TableView
from dixit_tui.tui.side_picture import Frames, Parts, Side, parts_of, side_of, side_picture
from dixit_tui.tui.widgets.picture_view import PictureView


class SidePanel(PictureView, can_focus=False):
    """Shows `side_picture(what it shows of the view, its parts at its width in its frames' styles)` (`show` hands it
    each view)."""

    COMPONENT_CLASSES: ClassVar[set[str]] = {"side-panel--frame", "side-panel--title", "side-panel--help"}

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.side: Side | None = None  # what it shows of the last view
        self._frames: Frames | None = None  # its frames' styles, worked out once per change of style
        self._parts: Parts | None = None  # the parts of its pictures, at its width in those styles
        self._width = 0  # the width its pictures are drawn at (the scroll bar's cell left out)

    def show(self, view: TableView) -> None:
        self.side = side_of(view)
        self._draw()

    def on_resize(self, event: events.Resize) -> None:
        drawn = bool(self._width)
        self._resized()
        if drawn:
            # Textual marks a widget whose size changed to be drawn whole, and draws it whole at the next update
            # that refreshes it (as well as with the layout): that is now, not with the next move
            self.refresh()

    def watch_show_vertical_scrollbar(self) -> None:
        self._resized()  # (drawn again at the width the scroll bar leaves)

    def before_drawing(self) -> None:
        if not self._width:  # (the first frame: its picture drawn in it, not in a second one after the Resize)
            self._resized(drawing=True)

    def _resized(self, *, drawing: bool = False) -> None:
        width = self.scrollable_content_region.width
        if width != self._width:
            self._width = width
            self._draw(drawing=drawing)

    def notify_style_update(self) -> None:
        self._frames = None  # (its CSS was applied again: a theme, a class; the next drawing reads it again)
        super().notify_style_update()

    def frames(self) -> Frames:
        """The frames' styles from the CSS (worked out again after a change of style, not at each drawing)."""
        if self._frames is None:
            style = self.get_component_rich_style
            self._frames = Frames(style("side-panel--frame"), style("side-panel--title"), style("side-panel--help"))
        return self._frames

    def _draw(self, *, drawing: bool = False) -> None:
        side, width, parts = self.side, self._width, self._parts
        if parts is None or parts.width != width or self._frames is None:
            parts = self._parts = parts_of(width, self.frames())
        self.show_picture(side_picture(side, parts) if side is not None else (), drawing=drawing)
