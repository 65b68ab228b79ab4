"""A region of a screen as data: a `Picture` is its lines (`Strip`s), made by a pure function of what it shows and
kept in a `PictureCache`: every screen showing the same thing gets the same object, and unchanged lines are the very
strips of the picture before (a widget redraws only the rows whose strip is another). Player text: plain text only.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from rich.segment import Segment
from textual.strip import Strip

Line = list[Segment]
Picture = tuple[Strip, ...]


@dataclass(slots=True)
class Counts:
    drawn: int = 0  # pictures made
    shared: int = 0  # pictures found already made


class PictureCache:
    """Pictures by key (everything they read: the view's parts, the size, the capabilities, the screen's choices),
    and their lines by content, each bounded (cleared whole when full: a cache, never the truth)."""

    def __init__(self, *, pictures: int = 256, lines: int = 8192) -> None:
        self.counts = Counts()
        self._pictures: dict[tuple[object, ...], Picture] = {}
        self._lines: dict[tuple[object, ...], Strip] = {}
        self._pictures_max, self._lines_max = pictures, lines

    def picture(self, key: tuple[object, ...], width: int, draw: Callable[[], Iterable[Line | Strip]]) -> Picture:
        """The picture for `key` at `width`: found, or drawn by `draw()` (its lines, each `width` cells; a line may
        come as a strip already made: a part of the picture kept on its own, shared with other pictures)."""
        found = self._pictures.get(key)
        if found is not None:
            self.counts.shared += 1
            return found
        self.counts.drawn += 1
        if len(self._pictures) >= self._pictures_max:
            self._pictures.clear()
        strip = self.strip
        lines = [strip(line, width) if isinstance(line, list) else line for line in draw()]
        found = self._pictures[key] = tuple(lines)
        return found

    def strip(self, line: Line, width: int) -> Strip:
        """`line` as a strip: the very strip of an earlier picture that had that line."""
        key = (width, *line)
        found = self._lines.get(key)
        if found is None:
            if len(self._lines) >= self._lines_max:
                self._lines.clear()
            found = self._lines[key] = Strip(line, width)
        return found

    def clear(self) -> None:
        self._pictures.clear()
        self._lines.clear()
