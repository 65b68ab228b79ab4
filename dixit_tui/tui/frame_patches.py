"""A screen drawn whole answers the repaints asked for before it.

A widget that changes marks its lines stale at once (`Widget.refresh`) and, once idle, posts an `Update` to its screen,
which then repaints the widget's region on its next frame. When the screen draws a whole frame (its first one, after a
layout) between the two, that frame has drawn the widget's new lines already, and the `Update` still in the screen's
queue made Textual repaint those regions again: for a new session, most of its first table screen a second time (the
widgets filled while the screen mounted). An `Update` posted before the last whole frame began is dropped.

And a frame is not rendered while the app batches its updates: Textual renders it, then drops it unsent (a new
session's lobby was rendered whole once for nothing as the app started). Its regions stay to be drawn by the next
refresh.

Switched off (tests/tui/patch_cost.py, 2026-12-07): a join +2.5% Python calls (+4.2% in tests/tui/test_join_work.py),
opening the lobby +2.7%; kept because a new session's lobby would be rendered twice (test_join_work.py) and the frame
skipped in a batch goes with `dispatch.repaint_without_messages`'s regions left to draw.
"""

from __future__ import annotations

from typing import Any

from rich.console import RenderableType
from textual import _time, messages
from textual._compositor import Compositor
from textual.screen import Screen

WHOLE_FRAME_AT = "_dixit_whole_frame_at"
"""Set on a compositor: when it last began to render a whole frame (Textual's clock, as a message's `time`)."""

dropped = 0
"""Updates dropped since the process started (for tests)."""
skipped = 0
"""Frames not rendered since the process started, because the app was batching its updates (for tests)."""

_installed = False


def install_frame_patches() -> None:
    """Idempotent. Every app of the process gets the patch (the app's own screens and Textual's)."""
    global _installed
    if _installed:
        return
    render_update = Compositor.render_update
    on_update = Screen._on_update

    def timed_render_update(
        self: Compositor, full: bool = False, screen_stack: list[Screen[Any]] | None = None, simplify: bool = False
    ) -> RenderableType | None:
        """As Textual's; a whole frame the screen's own refresh draws now is timed (not one asked for outright, a
        screenshot, nor one an app batching its updates drops)."""
        global skipped
        root: Screen[Any] | None = self.root  # type: ignore[assignment]
        if not full and root is not None:
            if root.app._batch_count:
                # Textual drops what is rendered while the app batches its updates (App._display): rendered now, the
                # regions would be drawn by nobody. They stay to be drawn by the next refresh.
                skipped += 1
                return None
            if self.size.region in self._dirty_regions:
                setattr(self, WHOLE_FRAME_AT, _time.get_time())
        return render_update(self, full, screen_stack, simplify)

    async def update_unless_drawn(self: Screen[Any], message: messages.Update) -> None:
        global dropped
        drawn_at: float | None = getattr(self._compositor, WHOLE_FRAME_AT, None)
        if drawn_at is not None and message.time < drawn_at:
            message.stop()
            message.prevent_default()
            dropped += 1
            return
        await on_update(self, message)

    Compositor.render_update = timed_render_update  # type: ignore[method-assign]
    Screen._on_update = update_unless_drawn  # type: ignore[method-assign]
    _installed = True
