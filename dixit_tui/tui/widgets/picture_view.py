"""`PictureView`: a Line-API widget that shows a `Picture` (`tui.picture`), the base of every region of a screen
drawn from data (the wall; the table's regions).

A subclass hands its picture to `show_picture`: the widget redraws only the rows whose strip is another, and
scrolls when the picture is taller than its room.
"""

from __future__ import annotations

from functools import lru_cache

from rich.style import Style
from textual import events
from textual.geometry import Region, Size
from textual.scroll_view import ScrollView
from textual.strip import Strip

from dixit_tui.tui.picture import Picture
from dixit_tui.tui.widgets.kept_lines import KeptLines, RowsMadeOf, bands

FITS = Size(0, 0)
"""The virtual size of a picture that fits its room (nothing to scroll)."""


class PictureView(ScrollView, KeptLines):
    """Shows `self.picture`; `show_picture` replaces it."""

    SCROLLS = True
    """Whether a picture taller than the widget scrolls (False: the widget is as tall as its picture)."""

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.picture: Picture = ()
        self._virtual = Size(0, 0)  # the virtual size it set
        self._style: Style | None = None  # `rich_style`, worked out once per change of style, not once per line
        self._line_width = -1  # the width the lines are drawn at, while they are (see render_lines)

    def notify_style_update(self) -> None:
        self._style = None  # (Textual calls this whenever the CSS is applied to the widget: a theme, a class)
        super().notify_style_update()

    def show_picture(self, picture: Picture, *, drawing: bool = False) -> None:
        """Show `picture`, redrawing only what changed (`drawing`: called as the widget is laid out or drawn: nothing
        to redraw)."""
        before = self.picture
        if picture is before:
            return
        self.picture = picture
        if drawing:
            self.forget_lines()  # (made as the widget is drawn, not refreshed: not the lines kept)
        width, height = self.size
        if self._fit_room(width, height, drawing=drawing) or drawing:
            return
        # the same room: only the rows whose line is another
        top = self.scroll_offset.y
        rows = [
            y
            for y in range(max(top, 0), min(max(len(before), len(picture)), top + height))
            if y >= len(before) or y >= len(picture) or (before[y] is not picture[y] and before[y] != picture[y])
        ]  # (another strip with the same line: a cache emptied, or the line made again by another part)
        if rows:  # (one refresh for all of them: each call of it does the same work again)
            self.refresh(*[Region(0, first - top, width, last - first + 1) for first, last in bands(rows)])

    def on_resize(self, event: events.Resize) -> None:
        self._fit_room(*self.size)  # (the same picture in another room: a scroll bar may come or go)

    def _fit_room(self, width: int, height: int, *, drawing: bool = False) -> bool:
        """The virtual size for the picture in a room of `width` x `height` (a picture taller than its room scrolls;
        one that fits asks for no layout, whatever its room); True if it changed (the widget is drawn whole)."""
        picture = self.picture
        size = Size(width, len(picture)) if self.SCROLLS and len(picture) > height else FITS
        if size is self._virtual or size == self._virtual:  # (the usual case, told without comparing sizes)
            return False
        self._virtual = self.virtual_size = size
        if not drawing:
            self.refresh()
        return True

    def before_drawing(self) -> None:
        """Called as the widget is about to be drawn: a subclass whose picture depends on its size may make it here
        (`show_picture(..., drawing=True)`) when it has none yet, so that the first frame shows it (the Resize that
        tells the widget its size comes after that frame: a blank frame, then another one)."""

    def render_lines(self, crop: Region) -> list[Strip]:
        self.before_drawing()
        self._line_width = -1  # (its width, found at the first line drawn: `size` finds its region in the map)
        return super().render_lines(crop)

    def show_fitted(self, picture: Picture) -> None:
        """Show `picture`, made for the widget's size (it never scrolls), redrawing only the rows whose line is
        another. (It leaves the virtual size alone: a new one asks for a layout.)"""
        before = self.picture
        if picture is before:
            return
        self.picture = picture
        width, height = self.size
        rows = [
            y
            for y in range(min(height, max(len(before), len(picture))))
            if y >= len(before) or y >= len(picture) or before[y] is not picture[y]
        ]
        for first, last in bands(rows):
            self.refresh(Region(0, first, width, last - first + 1))

    def rows_made_of(self, y: int, height: int) -> RowsMadeOf:
        """The picture's strips of those rows, its scroll offset and text style (what `render_line` reads)."""
        style = self._style
        if style is None:
            style = self._style = self.rich_style
        scroll_x, scroll_y = self.scroll_offset
        picture = self.picture
        rows = len(picture)
        first = scroll_y + y
        return (scroll_x, style), [picture[i] if 0 <= i < rows else None for i in range(first, first + height)]

    def render_line(self, y: int) -> Strip:
        # (a Strip keeps its crops and styled forms: the picture's strips are shared, and so are those)
        scroll_x, scroll_y = self.scroll_offset
        style = self._style
        if style is None:  # (walks every ancestor's styles: once per change of style, not once per line)
            style = self._style = self.rich_style
        width = self._line_width
        if width < 0:
            width = self._line_width = self.size.width
        index = scroll_y + y
        if index >= len(self.picture):
            return blank(width, style)
        return self.picture[index].crop_extend(scroll_x, scroll_x + width, style).apply_style(style)


@lru_cache(maxsize=256)
def blank(width: int, style: Style) -> Strip:
    """A blank row below a picture: the same strip for every row and every session of that width and style (what
    is drawn from it downstream is then found made, not made again for each row)."""
    return Strip.blank(width, style)
