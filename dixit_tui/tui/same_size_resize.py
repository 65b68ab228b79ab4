"""`SameSizeResize`: a screen's mixin (put before Textual's Screen class in its bases) that lets a Resize to the size
the screen is laid out at already change nothing: Textual's own handler for it (run after the screen's) is not run.

Textual 8.2 sets a screen's breakpoint classes at once (`update_classes`: nothing when none changes); 8.0 removes
them all and adds back the ones reached, restyling the screen twice and laying it out again, even at the size it has
(compat.py lists the releases' differences; tests/tui/test_first_layout.py). Textual hands a screen such a Resize
after its first layout, and for a terminal's window-change report that changes nothing.
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
