"""What the server refused or undid under pressure, counted and logged as summaries: one line per kind of event and
interval, with the sources that caused most of it, never a line per attempt (a flood must not flood the log too)."""

from __future__ import annotations

import asyncio
import logging
from collections import Counter
from collections.abc import Callable

from dixit_tui.coordinator import detached

log = logging.getLogger(__name__)

TOP = 3  # sources named in a summary line


class Tally:
    """Counts events by kind and source (an address, a network, a key). The counts are logged, as one line per kind,
    at most once every `interval` seconds of `clock`: when an event comes after the interval, or when the timer armed
    by the first event of an interval fires. `flush` logs what is counted now."""

    def __init__(self, clock: Callable[[], float], interval: float = 60.0) -> None:
        self.clock = clock
        self.interval = interval
        self.counts: dict[str, Counter[str]] = {}
        self.since: float | None = None  # when the first event not yet logged was counted
        self.lines = 0  # summary lines logged
        self._timer: asyncio.TimerHandle | None = None

    def count(self, kind: str, source: str | None) -> None:
        """One event of `kind` ("create refused: too many abandoned games") caused by `source`."""
        now = self.clock()
        if self.since is not None and now - self.since >= self.interval:
            self.flush()
        self.counts.setdefault(kind, Counter())[source or "unknown"] += 1
        if self.since is None:
            self.since = now
            self._arm()

    def _arm(self) -> None:
        try:
            self._timer = detached.call_later(self.interval, self.flush)
        except RuntimeError:  # no running loop (a synchronous caller): the next event or `flush` logs it
            self._timer = None

    def flush(self) -> None:
        """Log one summary line per kind counted since the last one, then start counting afresh."""
        if self.since is None:
            return
        seconds = max(0.0, self.clock() - self.since)
        for kind, sources in sorted(self.counts.items()):
            events = sum(sources.values())
            top = ", ".join(f"{source} {n}" for source, n in sources.most_common(TOP))
            more = f" and {len(sources) - TOP} more" if len(sources) > TOP else ""
            log.warning("%s: %d in %.0f s (%s%s)", kind, events, seconds, top, more)
            self.lines += 1
        self.counts = {}
        self.since = None
        timer, self._timer = self._timer, None
        if timer is not None:
            timer.cancel()
