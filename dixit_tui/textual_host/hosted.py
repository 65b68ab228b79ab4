"""What the process-wide patches of this package ask of the driver of a hosted app (one of many apps in the process,
each driven over its own SSH session: `dixit_tui.ssh.driver.SSHDriver`).

Touches no Textual internal: a subclass of Textual's public `Driver`. The patches (`work_share.py`, `stdout.py`) act
only for an app whose driver is a `HostedDriver`; apps with any other driver (Pilot in tests, Textual's own drivers)
keep Textual's behaviour. An app that paces what it takes while its session watches (`PacedApp`) is told its driver
as the driver is made. It lives here, not in `ssh/`, so that this package depends on nothing of the project's.
"""

from __future__ import annotations

import asyncio
from collections.abc import Hashable
from typing import Any, Literal, Protocol, runtime_checkable

from textual.app import App
from textual.driver import Driver


@runtime_checkable
class PacedApp(Protocol):
    """An app that takes what changes (for dixit-tui: the coordinator's updates) at most once per interval its
    driver says (`HostedDriver.watcher_interval`)."""

    def paced_by(self, driver: HostedDriver) -> None: ...


CastRole = Literal["source", "follower", "left"]
"""See `CastApp.cast_role_changed`."""


@runtime_checkable
class CastApp(Protocol):
    """An app whose driver can share its frames with other sessions' terminals (`HostedDriver.join_cast`)."""

    def cast_role_changed(self, role: CastRole) -> None:
        """Told by the driver, from any session's context (so: note it, post a message to itself, nothing more):
        `source`: it draws for every member of its cast, and their terminals show something else: it takes what it
        held, if anything, and makes sure its whole screen is sent again; `follower`: its frames come from another
        app: it stops working (holds what changes); `left`: it left the cast while following: it takes what it held
        and draws its whole screen again, for itself."""


class HostedDriver(Driver):
    """A driver of one of many apps in this process: the counters the patches keep, and the pacing of a watcher."""

    def __init__(
        self, app: App[Any], *, debug: bool = False, mouse: bool = True, size: tuple[int, int] | None = None
    ) -> None:
        super().__init__(app, debug=debug, mouse=mouse, size=size)
        if isinstance(app, PacedApp):
            app.paced_by(self)

    writes: int = 0
    """Writes of output queued (a drawing that wrote nothing drew no frame)."""
    work: float = 0.0
    """Seconds of the event loop's CPU time spent in this session's app (its callbacks and tasks): `work_share.py`."""
    input_work: float = 0.0
    """The part of `work` done while `input_until` had not passed: what the session's own input costs."""
    input_until: float = 0.0
    """Until when (perf_counter) this app's work counts as caused by its input."""
    held_until: float = 0.0
    """Until when (monotonic) this session is over its share of the loop: its app's work then runs after other work."""
    work_deferred: int = 0
    """Times a step of this app's work was put behind other sessions' work because it was over its share."""
    _deferred_steps: list[tuple[int, asyncio.Handle]]
    """Steps of this app's work put back in the loop's ready queue and not yet run, as (ticket, handle): a heap, the
    earliest scheduled first (see `work_share.py`)."""

    def watcher_interval(self) -> float:
        """Seconds the app waits between two takes of what changed while its session watches (0: takes it at once)."""
        return 0.0

    # ---- a drawing shared with other sessions (no-ops here: only a driver over a channel shares) ----------

    last_input: float = 0.0
    """When (monotonic) this session last had input of its own (keys, mouse, paste, window changes)."""

    def join_cast(self, key: Hashable) -> None:
        """Share one drawing with the other sessions that join under `key` (the app's part of what makes the frames:
        what it shows, and how; the driver adds its own, such as the terminal's size): the first draws, the others
        follow (`CastApp`). A session already in a cast stays in it."""

    def rekey_cast(self, key: Hashable) -> None:
        """This session draws for its cast (its source), and what it draws is now what the app's `key` says (what it
        shows moved on, as every member's screen would: the table's update): sessions that join under `key` join this
        cast (and a cast they joined already under it becomes one with this one)."""

    def leave_cast(self, *, everyone: bool = False) -> None:
        """Leave the cast this session is in, if any (the app is told if it was following); with `everyone`, the
        whole cast breaks up (each follower is told)."""

    @property
    def in_cast(self) -> bool:
        """Whether this session is in a cast (as its source or a follower)."""
        return False

    @property
    def following(self) -> bool:
        """Whether this session's frames come from another session's app."""
        return False
