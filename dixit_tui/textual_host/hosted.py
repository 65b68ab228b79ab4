"""What the process-wide patches of this package ask of the driver of a hosted app (one of many apps in the process,
each driven over its own SSH session: `dixit_tui.ssh.driver.SSHDriver`).

Touches no Textual internal: a subclass of Textual's public `Driver`. The patches (`frame_pacing.py`,
`work_share.py`, `stdout.py`) act only for an app whose driver is a `HostedDriver`; apps with any other driver (Pilot
in tests, Textual's own drivers) keep Textual's behaviour. It lives here, not in `ssh/`, so that this package depends
on nothing of the project's.
"""

from __future__ import annotations

import asyncio
from typing import Any

from textual.driver import Driver


class HostedDriver(Driver):
    """A driver of one of many apps in this process: the counters the patches keep, and the frame pacing they ask."""

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

    def frame_due(self) -> bool:
        """Whether the app may draw a screen update now."""
        return True

    def hold_frame(self, timer: Any) -> None:
        """A screen's drawing is put off (`frame_due` said no): its update timer (`timer`) is paused until it is due."""

    def frame_drawn(self) -> None:
        """A screen update was drawn (and written)."""
