"""`shared_line_filters`: the app's line filters with Textual's ANSI-to-truecolor filter shared by every session of
the process (one per ANSI theme), through the public `App.get_line_filters`.

Textual gives each app its own `ANSIToTruecolor`, and a strip keeps what a filter made of it keyed by the filter
object: the same shared strip (`textual_host/styled_lines.py`) was converted again, into a new strip, for each
session showing it. With one filter object per theme, the strip's own filter cache answers every session, and the
filter's cache of converted styles is shared too. The other filters (NO_COLOR's) stay the app's.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence

from rich.terminal_theme import TerminalTheme
from textual.filter import ANSIToTruecolor, LineFilter


@functools.lru_cache(maxsize=16)
def _truecolor(theme: TerminalTheme) -> ANSIToTruecolor:
    """The process's ANSI-to-truecolor filter for `theme` (a Rich theme object: Textual's are module constants)."""
    return ANSIToTruecolor(theme)


def shared_line_filters(filters: Sequence[LineFilter], theme: TerminalTheme) -> Sequence[LineFilter]:
    """`filters` (an app's enabled line filters) with its ANSI-to-truecolor filter the process's one for `theme`."""
    return [_truecolor(theme) if type(line_filter) is ANSIToTruecolor else line_filter for line_filter in filters]
