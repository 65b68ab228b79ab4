"""`SameSizeResize`: a screen's mixin (put before Textual's Screen class in its bases) that lets a Resize to the size
the screen is laid out at already change nothing: Textual's own handler for it (run after the screen's) is not run.

Textual 8.0 resets a screen's breakpoint classes on every Resize, restyling and laying it out again even at the size
it has (8.2 does not; tests/tui/test_first_layout.py); it sends such a Resize after the first layout, to the new
screen and to each screen below it. `DefaultScreen`: the app's first screen, Textual's own with this mixin (a new
session's default screen was laid out again at each of those: 5 times before its first frame).
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


class DefaultScreen(SameSizeResize, Screen[Any]):
    """The app's default screen (`App.get_default_screen`): Textual's, but a Resize to its own size changes nothing."""
