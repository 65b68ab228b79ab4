"""`Wall`: the one widget that shows a spectator's table as a picture for a big screen (`tui.wall_picture`).

A Line-API widget: it draws the lines of the picture made for its size, shared with every spectator of the table at
that size (the picture is looked up, not built, for all but the first). It scrolls when the picture is taller than
the room it has."""

from __future__ import annotations

from textual import events
from textual.geometry import Size
from textual.scroll_view import ScrollView
from textual.strip import Strip

from dixit_tui.coordinator import TableView
from dixit_tui.tui.capabilities import FULL, Capabilities
from dixit_tui.tui.wall_picture import Picture, wall_picture, wall_shows


class Wall(ScrollView, can_focus=False):
    """Shows `wall_picture(view, its size, capabilities)` (`show` hands it each view)."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._view: TableView | None = None
        self._caps: Capabilities = FULL
        self.picture: Picture = ()

    def show(self, view: TableView, caps: Capabilities) -> None:
        self._view, self._caps = view, caps
        self._draw()

    def on_resize(self, event: events.Resize) -> None:
        self._draw()

    def _draw(self) -> None:
        view, (width, height) = self._view, self.size
        picture: Picture = ()
        if view is not None and width > 0 and wall_shows(view):
            picture = wall_picture(view, width, height, self._caps)
        if picture is self.picture:
            return
        self.picture = picture
        self.virtual_size = Size(width, len(picture))
        self.refresh()

    def render_line(self, y: int) -> Strip:
        # (a Strip keeps its crops and styled forms: the picture's strips are shared, and so are those)
        scroll_x, scroll_y = self.scroll_offset
        width, style = self.size.width, self.rich_style
        index = scroll_y + y
        if index >= len(self.picture):
            return Strip.blank(width, style)
        return self.picture[index].crop_extend(scroll_x, scroll_x + width, style).apply_style(style)
