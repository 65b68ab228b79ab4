"""What differs between the Textual releases the pin admits (8.0 to 8.2), in one place, so the code relying on it
works on each: worked out once, at import, from what the installed Textual has (never from its version number).

- `native_ansi_color(app)`: 8.2.5 added `App.native_ansi_color` (the theme may ask for the terminal's own ANSI
  colours); before, `App.ansi_color` said it alone.
- `STYLES_CACHE_NATIVE_ANSI`: from 8.2.7, `StylesCache.render_line` takes that flag as its last argument.
- `KITTY_KEY_FLAGS`: the Kitty keyboard protocol flags a session's terminal is asked for, the ones the installed
  parser reads, as Textual's own driver asks: from 8.2.7, 25 (disambiguate escape codes, report every key, with its
  text: parsed by `XTermParser._parse_extended_key`, new then), or none with TEXTUAL_DISABLE_KITTY_KEY set; before,
  1 (disambiguate escape codes: a key reported with its text would not be read).
- A screen's breakpoint classes on a Resize: 8.0 removes them all and adds back the ones reached, restyling the
  screen twice and laying it out again even at the size it has; 8.2 sets them in one `update_classes` (nothing when
  none changes). No flag: our screens (`tui/same_size_resize.py`) let a Resize to the size they are laid out at
  change nothing, on every release.

Touches: `textual._styles_cache.StylesCache.render_line` (a private module): its parameters read (the part is in
`internals.py`, for styled_lines.py, which calls it); whether `textual._xterm_parser.XTermParser` has
`_parse_extended_key` (in `internals.py`, for parser.py).
"""

from __future__ import annotations

import inspect
from typing import Any

from textual import constants
from textual._styles_cache import StylesCache
from textual._xterm_parser import XTermParser
from textual.app import App

STYLES_CACHE_NATIVE_ANSI = "native_ansi" in inspect.signature(StylesCache.render_line).parameters
_NATIVE_ANSI_PROPERTY = hasattr(App, "native_ansi_color")
if not hasattr(XTermParser, "_parse_extended_key"):
    KITTY_KEY_FLAGS: int | None = 1
elif getattr(constants, "DISABLE_KITTY_KEY", False):
    KITTY_KEY_FLAGS = None
else:
    KITTY_KEY_FLAGS = 1 | 8 | 16


def native_ansi_color(app: App[Any]) -> bool:
    """The app sends the terminal's own ANSI colours (not their truecolor equivalents)."""
    if _NATIVE_ANSI_PROPERTY:
        return bool(app.native_ansi_color)
    return bool(app.ansi_color)
