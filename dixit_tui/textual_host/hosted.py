"""What the process-wide patches of this package ask of the driver of a hosted app (one of many apps in the process,
each driven over its own SSH session: `dixit_tui.ssh.driver.SSHDriver`).

Touches no Textual internal: a subclass of Textual's public `Driver`. The patches (`work_share.py`, `stdout.py`) act
only for an app whose driver is a `HostedDriver`; apps with any other driver (Pilot in tests, Textual's own drivers)
keep Textual's behaviour. An app that paces what it takes while its session watches (`PacedApp`) is told its driver
as the driver is made. It lives here, not in `ssh/`, so that this package depends on nothing of the project's.
"""

from __future__ import annotations

import asyncio
from typing import Any, Protocol, runtime_checkable

from textual.app import App
from textual.driver import Driver


@runtime_checkable
class PacedApp(Protocol):
    """An app that takes what changes (for dixit-tui: the coordinator's updates) at most once per interval its
    driver says (`HostedDriver.watcher_interval`)."""

    def paced_by(self, driver: HostedDriver) -> None: ...


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
    """Seconds of the event loop's time spent in this session's app (its callbacks and tasks): `work_share.py`."""
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
