"""The end of the game's pane as data: `table_words.over_text` wrapped at a width, one picture for every session
showing the same words at the same width. Names only ever plain text in a segment."""

from __future__ import annotations

from rich.segment import Segment
from textual.content import Content

from dixit_tui.textual_host.process_caches import forget_with_shared
from dixit_tui.tui.picture import Line, Picture, PictureCache
from dixit_tui.tui.table_words import Words

_cache = forget_with_shared(PictureCache(pictures=64))
counts = _cache.counts


def over_lines(text: Words, width: int) -> list[Line]:
    """`text` wrapped at `width` cells, each line filled to `width`."""
    lines = Content.assemble(*text.parts).wrap(width)
    return [[*line.render_segments(), Segment(" " * max(0, width - line.cell_length))] for line in lines]


def over_picture(text: Words, width: int) -> Picture:
    if width <= 0:
        return ()
    return _cache.picture((text, width), width, lambda: over_lines(text, width))
