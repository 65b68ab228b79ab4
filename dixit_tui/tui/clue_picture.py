"""The clue line above the hand and the board as data (`table_words.clue_line` wrapped, at most `CLUE_ROWS` rows):
one picture for every session showing the same words at the same width. Player text only plain text in a segment."""

from __future__ import annotations

from rich.segment import Segment
from rich.style import Style
from textual.content import Content

from dixit_tui.textual_host.process_caches import forget_with_shared
from dixit_tui.tui.picture import Line, Picture, PictureCache
from dixit_tui.tui.table_words import Words

CLUE_ROWS = 3
"""The clue line's rows at most (a longer text is cut: the clue itself is on its first row)."""

_cache = forget_with_shared(PictureCache(pictures=128))
counts = _cache.counts


def clue_lines(words: Words, width: int, style: Style) -> list[Line]:
    """`words` wrapped at `width` cells in `style` (the widget's), at most `CLUE_ROWS` rows, each filled to `width`
    with its background (as Textual fills a line of text)."""
    lines = Content.assemble(*words.parts).wrap(width)[:CLUE_ROWS]
    fill = Style(bgcolor=style.bgcolor)
    return [
        [*Segment.apply_style(line.render_segments(), style), Segment(" " * max(0, width - line.cell_length), fill)]
        for line in lines
    ]


def clue_picture(words: Words, width: int, style: Style) -> Picture:
    if width <= 0:
        return ()
    return _cache.picture((words, width, style), width, lambda: clue_lines(words, width, style))
