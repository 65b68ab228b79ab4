"""One session's app takes its colours from its own terminal, not from the server's.

Touches: `App.console._color_system` (rich's private attribute), set; `App._filters` (Textual's list of line filters,
set in `App.__init__`), read and replaced. Why: Rich picks the colour system, and Textual its Monochrome/NoColor
filters, from the environment of the process: the server's, shared by every app in it. Each session's terminal
(TERM, COLORTERM, NO_COLOR from its SSH requests) decides instead.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rich.console import COLOR_SYSTEMS
from textual.filter import LineFilter, Monochrome, NoColor

if TYPE_CHECKING:
    from textual.app import App


def use_terminal_colours(app: App[Any], color_system: str, no_color_filter: LineFilter | None) -> None:
    """`app` draws for `color_system` ("standard", "256", "truecolor"...), without the filters Textual chose from the
    server's environment; with `no_color_filter` (the client asked for no colour) as its last filter."""
    app.console._color_system = COLOR_SYSTEMS[color_system]
    app._filters = [item for item in app._filters if not isinstance(item, Monochrome | NoColor)]
    app.no_color = no_color_filter is not None
    if no_color_filter is not None:
        app._filters.append(no_color_filter)
