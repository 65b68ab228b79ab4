"""A widget's repaint reaches its screen without messages (`repaint_without_messages`, for apps with `DIRECT_REPAINTS`).

Switched off (tests/tui/patch_cost.py, 2026-12-07): an ordinary move at a table +2.1% Python calls, a join none; kept
with `frame_patches` (the regions of a frame skipped in a batch are drawn by the tick this patch runs), and an
ordinary move costs a spectator one message (tests/tui/test_message_counts.py). (The handler lookups kept per class
that this module also held saved 4.9% of a join's calls and 2.6% of a move's: removed, issue 23.)
"""

from __future__ import annotations

import asyncio
from typing import Any

from textual import events
from textual.widget import Widget

DIRECT_REPAINTS = "_dixit_direct_repaints"
"""Set (True) on an app whose widgets' repaints go straight to their screen (see `repaint_without_messages`)."""
_REPAINTS = "_dixit_repaints"
"""A screen's widgets asked to repaint since its last update tick (see `repaint_without_messages`)."""
_LAYOUTS = "_dixit_layouts"
"""A screen's widgets that asked for a layout since its last drawing (their Layout message may be on its way)."""
_POSTPONED = "_dixit_postponed"
"""Update ticks of a screen put off in a row because a layout asked for had not reached it yet."""
_MAX_POSTPONED = 3
"""Update ticks a screen puts off in a row at most, waiting for a layout asked for (then it draws what it has)."""
_LAYOUT_WAIT = 0.1
"""Seconds after which a screen that put its drawing off for a layout asked for ticks again, whatever came."""

_repaints_installed = False


def repaint_without_messages() -> None:
    """A widget's repaint (its content changed, not its size) in an app with `DIRECT_REPAINTS` reaches its screen
    without messages. Textual's way: the widget posts itself a Prompt (a step of its own task), its idle handler posts
    the screen an Update (a step of the screen's task), the screen's idle resumes its update timer; for each widget an
    update changes. Here the widget is noted on its screen and the update timer resumed at once; the timer's tick
    takes the noted widgets that still need a repaint into the screen's dirty widgets, as the Update handler does,
    then draws as before. Only for a mounted widget (not a screen) on its app's current screen, outside a batch
    update, once that screen has drawn (its update timer exists); any other refresh goes Textual's way.

    The regions a screen's compositor still has to draw (a frame not rendered while the app batched its updates, see
    `frame_patches`) resume its update timer at its idle, and its tick draws them: Textual's idle handler resumes the
    timer only for what Textual keeps (its dirty widgets were cleared as the frame was dropped), and the regions
    waited, undrawn, for some other change. Idempotent."""
    global _repaints_installed
    if _repaints_installed:
        return
    from textual.app import App
    from textual.screen import Screen

    refresh = Widget.refresh
    timer_update = Screen._on_timer_update
    on_idle = Screen._on_idle

    def direct_refresh(
        self: Widget, *regions: Any, repaint: bool = True, layout: bool = False, recompose: bool = False
    ) -> Widget:
        if self._is_mounted and not recompose and not isinstance(self, Screen):
            node = self._parent
            while node is not None and not isinstance(node, Screen):
                node = node._parent
            app = node._parent if node is not None else None
            if (
                isinstance(app, App)
                and getattr(app, DIRECT_REPAINTS, False)
                and not app._batch_count
                and node._Screen__update_timer is not None  # type: ignore[union-attr]
                and app._screen_stack
                and app._screen_stack[-1] is node
            ):
                assert isinstance(node, Screen)
                if layout:
                    # Textual's way (the layout reaches the screen in a Layout message), noted: the screen's next
                    # drawing waits for it, so that a repaint that reached it first is not drawn alone before it
                    layouts: set[Widget] | None = node.__dict__.get(_LAYOUTS)
                    if layouts is None:
                        layouts = node.__dict__[_LAYOUTS] = set()
                    layouts.add(self)
                    return refresh(self, *regions, repaint=repaint, layout=layout, recompose=recompose)
                if not repaint:
                    return refresh(self, *regions, repaint=repaint, layout=layout, recompose=recompose)
                # What Textual's refresh does for a repaint, but the widget's check_idle (its Prompt)
                self._layout_cache.clear()
                self._set_dirty(*regions)
                self.clear_cached_dimensions()
                self._rich_style_cache.clear()
                self._repaint_required = True
                noted: set[Widget] | None = node.__dict__.get(_REPAINTS)
                if noted is None:
                    noted = node.__dict__[_REPAINTS] = set()
                noted.add(self)
                node._update_timer.resume()
                return self
        return refresh(self, *regions, repaint=repaint, layout=layout, recompose=recompose)

    def timer_update_takes_repaints(self: Screen[Any]) -> None:
        noted: set[Widget] | None = self.__dict__.get(_REPAINTS)
        if noted:
            self.__dict__[_REPAINTS] = set()
            for widget in noted:
                # (as the widget's idle handler and the screen's Update handler would: a widget that has posted its
                # Update meanwhile, or gone, is not taken again)
                if widget._repaint_required and widget._parent is not None and not widget._closing:
                    widget._repaint_required = False
                    if widget.display and self in self._compositor:
                        self._dirty_widgets.add(widget)
        layouts: set[Widget] | None = self.__dict__.get(_LAYOUTS)
        if layouts:
            if any(w._layout_required and w._parent is not None and not w._closing for w in layouts):
                postponed = self.__dict__.get(_POSTPONED, 0)
                if postponed < _MAX_POSTPONED:
                    # A layout asked for is on its way: the screen's idle handler resumes the timer once it came
                    # (the screen's dirty widgets are waiting); the timer ticks again after a while whatever comes.
                    self.__dict__[_POSTPONED] = postponed + 1
                    timer = self._update_timer
                    timer.pause()
                    asyncio.get_running_loop().call_later(_LAYOUT_WAIT, timer.resume)
                    return
            layouts.clear()
        self.__dict__[_POSTPONED] = 0
        timer_update(self)
        if not self._dirty_widgets and regions_waiting(self):
            self._compositor_refresh()  # regions left to draw (a frame not rendered in a batch): drawn now

    def regions_waiting(screen: Screen[Any]) -> bool:
        """Whether the current screen's compositor has regions left to draw that nothing else will draw: a frame not
        rendered while the app batched its updates (for apps that repaint directly)."""
        app = screen.app
        return bool(
            screen._compositor._dirty_regions
            and getattr(app, DIRECT_REPAINTS, False)
            and not app._batch_count
            and screen.is_current
        )

    async def idle_knows_what_waits(self: Screen[Any], event: events.Idle) -> None:
        await on_idle(self, event)
        if regions_waiting(self):
            self._update_timer.resume()

    Widget.refresh = direct_refresh  # type: ignore[method-assign, assignment]
    Screen._on_timer_update = timer_update_takes_repaints  # type: ignore[method-assign]
    Screen._on_idle = idle_knows_what_waits  # type: ignore[method-assign]
    _repaints_installed = True
