"""A session that is watching (not typing) draws at most one screen update per interval its driver sets.

Touches: `textual.screen.Screen._on_timer_update` and `Screen._compositor_refresh`, wrapped; reads
`Screen._update_timer`, `App._driver`, `App._batch_count`. Why: every app in the process draws on its screen's update
timer (60 ticks a second) and after each layout; at a busy table every watching session redrew for each change of a
burst, the process's whole CPU. The drawing is put off while the driver's `frame_due` says no (a session's own input
is always drawn at once), the update timer sleeps meanwhile, and a later tick draws everything pending at once.
Apps driven by anything else than a `HostedDriver` are unchanged.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from dixit_tui.textual_host.hosted import HostedDriver

if TYPE_CHECKING:
    from textual.screen import Screen

_DRAW_PENDING = "_dixit_draw_pending"
"""Set on a screen whose drawing was put off (see `pace_watchers_frames`)."""
_DRAWN = "_dixit_drawn"
"""Set on a screen once it has drawn (its first drawing is never put off)."""


def pace_watchers_frames() -> None:
    """An app driven by a `HostedDriver` draws its top screen only when `HostedDriver.frame_due` says so (a screen's
    first drawing always at once). A screen draws on its update timer's ticks (60 a second) and right after a layout (a
    resize, a screen shown); a drawing put off keeps the timer on, and a later tick draws everything pending at once
    (the layouts in between still run, so sizes and Resize events are as before). Apps with other drivers are
    unchanged."""
    from textual.screen import Screen

    timer_update = Screen._on_timer_update
    compositor_refresh = Screen._compositor_refresh

    def paced_compositor_refresh(self: Screen[Any]) -> None:
        app = self.app
        driver = app._driver
        if not isinstance(driver, HostedDriver) or self is not app.screen or app.is_inline:
            compositor_refresh(self)
            return
        if getattr(self, _DRAWN, False) and not driver.frame_due():
            setattr(self, _DRAW_PENDING, True)
            driver.hold_frame(self._update_timer)  # (its tick draws it once due)
            return
        setattr(self, _DRAW_PENDING, False)
        writes = driver.writes
        compositor_refresh(self)
        if driver.writes != writes:
            setattr(self, _DRAWN, True)
            driver.frame_drawn()

    def paced_timer_update(self: Screen[Any]) -> None:
        driver = self.app._driver
        if isinstance(driver, HostedDriver) and not driver.frame_due():
            driver.hold_frame(self._update_timer)  # (its tick once due draws)
            return
        timer_update(self)
        if getattr(self, _DRAW_PENDING, False) and self.is_current and not self.app._batch_count:
            paced_compositor_refresh(self)  # a drawing put off, and nothing since drew it

    Screen._on_timer_update = paced_timer_update  # type: ignore[method-assign]
    Screen._compositor_refresh = paced_compositor_refresh  # type: ignore[method-assign]
