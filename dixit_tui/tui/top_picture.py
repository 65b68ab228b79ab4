"""The table's top lines as data: the top bar (the table, its options, the clock) and the status line under it (what
YOU should do now, on one or two rows), as one picture (`tui.picture`) of a width.

Kept per (the words, the rows, the width, the styles): every session showing the same gets the same picture."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from rich.cells import cell_len
from rich.segment import Segment
from rich.style import Style
from textual.content import Content

from dixit_tui.textual_host.process_caches import forget_with_shared
from dixit_tui.tui.picture import Line, Picture, PictureCache
from dixit_tui.tui.table_words import Words

STATUS_ROWS = 2  # the status line's rows at most


@dataclass(frozen=True, slots=True)
class TopStyles:
    """The rows' styles, as the widget's CSS gives them (`TopLines`'s component classes)."""

    bar: Style
    status: Style


@lru_cache(maxsize=1024)
def status_rows(status: Words, width: int) -> int:
    """The rows the status line's words take at `width` (1 or 2; worked out once for every session showing them)."""
    plain = status.plain
    if "\n" not in plain and cell_len(plain) <= width - 2:
        return 1  # (a line that fits takes one: no need to wrap it to know)
    return max(1, min(STATUS_ROWS, len(_content(status).wrap(max(1, width - 2)))))


def _content(words: Words) -> Content:
    return Content.assemble(*words.parts)


def _row(content: Content, width: int, style: Style) -> Line:
    """`content` on a row `width` cells wide in `style`, one cell of padding each side."""
    content = content.truncate(max(0, width - 2))
    text = Segment.apply_style(content.render_segments(), style)
    return [Segment(" ", style), *text, Segment(" " * max(0, width - 1 - content.cell_length), style)]


def top_lines(bar: Words, status: Words, rows: int, width: int, styles: TopStyles) -> list[Line]:
    """The top bar's row, then the status line's `rows` rows (its words wrapped, blank rows after them)."""
    out = [_row(_content(bar), width, styles.bar)]
    wrapped = _content(status).wrap(max(1, width - 2))[:rows] if status.parts else []
    for index in range(rows):
        out.append(_row(wrapped[index] if index < len(wrapped) else Content(""), width, styles.status))
    return out


_cache = forget_with_shared(PictureCache())
counts = _cache.counts


def top_picture(bar: Words, status: Words, rows: int, width: int, styles: TopStyles) -> Picture:
    """The top lines at `width`: the same picture object for every session showing the same."""
    if width <= 2:
        return ()
    key = (bar, status, rows, width, styles)
    return _cache.picture(key, width, lambda: top_lines(bar, status, rows, width, styles))
