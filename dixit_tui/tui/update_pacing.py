"""A session that is watching takes the coordinator's updates at most once per interval its driver sets, as one batch.

At the app's sink, a watching session (no input of its own lately) holds the updates that come within an interval
of the last take, merged as its queue merges them (a newer view of the same table replaces the one held before it;
chat lines, reveals and notices are kept in order), and takes them at once when it is over: a burst is drawn as one
frame. Its own input's updates, the first after a quiet spell and one that opens another screen are taken at once.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

from textual.app import App
from textual.timer import Timer

from dixit_tui.coordinator import LobbyUpdate, StateUpdate, Update


def supersedes(newer: Update, older: Update) -> bool:
    """Whether `newer`, right behind `older`, makes it moot: a newer view of the same table, or a newer lobby listing
    (only the newer one needs drawing: a busy session draws the latest state, not every step to it)."""
    if isinstance(older, LobbyUpdate):
        return isinstance(newer, LobbyUpdate)
    return (
        isinstance(older, StateUpdate)
        and isinstance(newer, StateUpdate)
        and older.view is not None
        and newer.view is not None
        and older.view.code == newer.view.code
    )


def _at_once() -> float:
    return 0.0


class UpdatePacing:
    """The coordinator updates one app holds back while it watches, and when it takes them."""

    def __init__(
        self, app: App[Any], take: Callable[[Update], Awaitable[None]], at_once: Callable[[Update], bool]
    ) -> None:
        self._app = app
        self._take = take
        self._at_once = at_once  # an update never held (with those held before it): one that opens another screen
        self.interval: Callable[[], float] = _at_once
        """Seconds between two takes now (0: every update at once), from the app's driver (`paced_by`)."""
        self._held: list[Update] = []
        self._taken_at = -float("inf")
        self._timer: Timer | None = None

    @property
    def held(self) -> int:
        """Updates held back (merged), waiting for the next take."""
        return len(self._held)

    @property
    def taken_at(self) -> float:
        """When (the event loop's time) updates were last taken."""
        return self._taken_at

    async def offer(self, update: Update) -> None:
        """An update reached the app: taken now, or held for the next take (in the app's own message handler)."""
        interval = self.interval()
        now = _loop_time()
        if not self._held and now - self._taken_at >= interval:
            self._taken_at = now
            await self._take(update)
            return
        if self._held and supersedes(update, self._held[-1]):
            self._held[-1] = update
        else:
            self._held.append(update)
        if interval <= 0 or self._at_once(update):  # the session's own input came meanwhile, or another screen opens
            await self.take_held()
        elif self._timer is None:
            self._timer = self._app.set_timer(max(0.0, self._taken_at + interval - now), self._due, name="updates due")

    def _due(self) -> None:
        self._app.call_later(self.take_held)  # (on the app's queue: after the updates that reached it before)

    async def take_held(self) -> None:
        """Take every update held, in order, now."""
        if self._timer is not None:  # (set while a take is due: none is asked for meanwhile)
            self._timer.stop()
            self._timer = None
        if not self._held:
            return
        self._taken_at = _loop_time()
        held, self._held = self._held, []
        for update in held:
            await self._take(update)


def _loop_time() -> float:
    return asyncio.get_running_loop().time()
