"""The patch of Textual's Screen that styles a new screen once (one app per SSH session: each extra styling or layout
of a first screen was paid by every session that opened).

`DixitApp.push_screen` prepares a new screen (breakpoint classes set, the "terminal too small" notice composed with it)
and marks it (`mark_styled_at_mount`): its first resume keeps the styles its widgets mounted with. A Resize to the
size a screen is laid out at is dropped by the screens themselves (`tui/same_size_resize.py`, the app's default
screen too): the patch of `Screen._screen_resized` that did it cost +1.5% of a join's Python calls, +1.4% of the
lobby's without it, and went (2026-12-07); so did the patch of `Screen._on_layout` that had the first resume's layout
answer the layouts asked for before it (each container's, as it composed): +2.5% / +1.9% without it, one more layout
of a new screen and no more drawing.

Switched off (tests/tui/patch_cost.py, 2026-12-07, after issue 23 removed the other app-level patches): a join +26.5%
Python calls, opening the lobby +22.5% (nearly all of it the first resume keeping styles: +26.6% / +22.6%; a new
table screen is drawn once: tests/tui/test_first_layout.py, test_join_work.py).
"""

from __future__ import annotations

from typing import Any

from textual import events
from textual.screen import Screen

from dixit_tui.textual_host.styled_lines import share_styled_lines

_resume_patched = False
_FRESH = "_dixit_styled_at_mount"
LAID_OUT = "_dixit_laid_out_at_resume"
"""Set (True) on a screen whose first resume laid it out (see `mark_styled_at_mount`)."""


def mark_styled_at_mount(screen: Screen[Any]) -> None:
    """`screen` is about to be pushed for the first time, with its breakpoint classes already set (see
    `DixitApp.push_screen`): its widgets get their styles when they mount, so its first ScreenResume need not
    restyle every one of them again (Textual does, for screens coming back from below others)."""
    _keep_styles_on_first_resume()
    setattr(screen, _FRESH, True)


def install_screen_patches() -> None:
    """The patches of Textual's Screen that `mark_styled_at_mount` relies on; and the
    widgets' styled lines shared by every session (`styled_lines`). Idempotent."""
    _keep_styles_on_first_resume()
    share_styled_lines()


def _keep_styles_on_first_resume() -> None:
    global _resume_patched
    if _resume_patched:
        return
    resume = Screen._on_screen_resume

    def first_resume_keeps_styles(self: Screen[Any], event: events.ScreenResume) -> None:
        if not getattr(self, _FRESH, False):
            resume(self, event)
            return
        setattr(self, _FRESH, False)
        event.refresh_styles = False
        laid_out = self.is_attached and self._size != self.app.size
        resume(self, event)
        if laid_out:
            # That layout placed every widget of the screen and drew them all. Each widget it gave a size for the first
            # time asked for another layout (its new virtual size) and a repaint of itself, and Textual would lay the
            # whole screen out and draw it again: those are answered already, as is any layout asked for before. A
            # widget the layout gave a scroll bar still gets its second layout (the bar takes room from its content).
            for widget in (self, *self._compositor.widgets):
                if not (widget.show_vertical_scrollbar or widget.show_horizontal_scrollbar):
                    widget._layout_required = False
                    if widget is not self:
                        widget._repaint_required = False
            app = self.app
            if not (app._running and not app._batch_count):
                # Laid out while the app starts (or batches its updates): not drawn. The repaint Textual asks for draws
                # it (with the lines just rendered), once the app's queue comes to it: the batch is over by then.
                app.call_later(self.check_idle)
            elif not self._layout_required:
                # The repaint Textual asks for after the layout would draw it all again.
                self._repaint_required = False
            setattr(self, LAID_OUT, True)

    Screen._on_screen_resume = first_resume_keeps_styles  # type: ignore[method-assign]

    _resume_patched = True
