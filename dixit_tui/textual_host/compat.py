"""What differs between the Textual releases the pin admits (8.0 to 8.2), in one place, so the code relying on it
works on each: worked out once, at import, from what the installed Textual has (never from its version number).

- `native_ansi_color(app)`: 8.2.5 added `App.native_ansi_color` (the theme may ask for the terminal's own ANSI
  colours); before, `App.ansi_color` said it alone.
- `STYLES_CACHE_NATIVE_ANSI`: from 8.2.7, `StylesCache.render_line` takes that flag as its last argument.
- `PARENT_IS_WEAK`: from 8.1, a message pump's parent is a weak reference (`_MessagePump__parent`, read through the
  `_parent` property); in 8.0 `_parent` is the parent itself.
"""

from __future__ import annotations

import inspect
from typing import Any

from textual._styles_cache import StylesCache
from textual.app import App
from textual.message_pump import MessagePump

STYLES_CACHE_NATIVE_ANSI = "native_ansi" in inspect.signature(StylesCache.render_line).parameters
PARENT_IS_WEAK = isinstance(vars(MessagePump).get("_parent"), property)
_NATIVE_ANSI_PROPERTY = hasattr(App, "native_ansi_color")


def native_ansi_color(app: App[Any]) -> bool:
    """The app sends the terminal's own ANSI colours (not their truecolor equivalents)."""
    if _NATIVE_ANSI_PROPERTY:
        return bool(app.native_ansi_color)
    return bool(app.ansi_color)
