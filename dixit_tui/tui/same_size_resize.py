"""`SameSizeResize`: a screen's mixin (put before Textual's Screen class in its bases) that lets a Resize to the size
the screen is laid out at already change nothing: Textual's own handler for it (run after the screen's) is not run.

Textual 8.0 resets a screen's breakpoint classes on every Resize, restyling and laying it out again even at the size
it has (8.2 does not; tests/tui/test_first_layout.py); it sends such a Resize after the first layout.
"""

from __future__ import annotations

from typing import Any, cast

from textual import events
from textual.screen import Screen


class SameSizeResize:
    def on_resize(self, event: events.Resize) -> None:
        screen = cast("Screen[Any]", self)
        if screen.is_attached and event.size == screen.region.size:
            event.prevent_default()
