"""`get_screen_laid_out_once`: an app's `_get_screen` (its class takes it as its own, no mixin: a class more in the
app's MRO costs calls at every message) whose new screens, once mounted, are not laid out again when their first resume
laid them out already (`screen_patches.LAID_OUT`).

Textual's `App._get_screen` hands a new screen an `AwaitMount` that asks for its layout after the mounting: with
the first resume's layout (screen_patches.py), each new screen was laid out and drawn twice. The private parts
(`App._get_screen`, `AwaitMount.__await__`, `App._register`) are in `internals.py`.
Without (tests/tui/patch_cost.py --off app.get_screen, 2026-12-07): a join +10.7% of Python calls, opening the lobby
+4.0%: kept.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Generator
from typing import Any

from textual.app import App
from textual.dom import NoScreen
from textual.screen import Screen
from textual.widget import AwaitMount

from dixit_tui.textual_host.screen_patches import LAID_OUT


class _ScreenMounted(AwaitMount):
    """Awaits a new screen's mounting, as Textual's AwaitMount does, then asks for its layout only if it has not been
    laid out by its first resume (see `screen_patches.LAID_OUT`)."""

    def __await__(self) -> Generator[None, None, None]:
        async def await_mount() -> None:
            screen = self._parent
            if self._widgets:
                await asyncio.wait([asyncio.create_task(w._mounted_event.wait()) for w in self._widgets])
                if not getattr(screen, LAID_OUT, False):
                    screen.refresh(layout=True)
                with contextlib.suppress(NoScreen):
                    screen.app._update_mouse_over(screen.screen)

        return await_mount().__await__()


def get_screen_laid_out_once(app: App[Any], screen: Screen[Any] | str) -> tuple[Screen[Any], AwaitMount]:
    """Textual's `App._get_screen` (an app class takes it as its own: `_get_screen = get_screen_laid_out_once`), except
    that once a new screen has mounted, its layout is not asked for again when its first resume laid it out already
    (Textual asks for it twice, and each time the whole new screen was laid out and drawn once more)."""
    new = app.get_screen(screen)
    if new.is_running:
        return App._get_screen(app, screen)
    await_mount = _ScreenMounted(new, app._register(app, new))
    app.call_next(await_mount)
    return new, await_mount
