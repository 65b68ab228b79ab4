"""What differs between the Textual releases the pin admits (8.0 to 8.2), in one place, so the code relying on it
works on each: worked out once, at import, from what the installed Textual has (never from its version number).

- `native_ansi_color(app)`: 8.2.5 added `App.native_ansi_color` (the theme may ask for the terminal's own ANSI
  colours); before, `App.ansi_color` said it alone.
- `STYLES_CACHE_NATIVE_ANSI`: from 8.2.7, `StylesCache.render_line` takes that flag as its last argument.

Touches: `textual._styles_cache.StylesCache.render_line` (a private module): its parameters read (the part is in
`internals.py`, for styled_lines.py, which calls it).
"""

from __future__ import annotations

import inspect
from typing import Any

from textual._styles_cache import StylesCache
from textual.app import App

STYLES_CACHE_NATIVE_ANSI = "native_ansi" in inspect.signature(StylesCache.render_line).parameters
_NATIVE_ANSI_PROPERTY = hasattr(App, "native_ansi_color")


def native_ansi_color(app: App[Any]) -> bool:
    """The app sends the terminal's own ANSI colours (not their truecolor equivalents)."""
    if _NATIVE_ANSI_PROPERTY:
        return bool(app.native_ansi_color)
    return bool(app.ansi_color)
