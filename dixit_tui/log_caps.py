"""Repeated log lines, capped: an outage (a full disk, Redis gone) fails every move, tick and session the same way,
and a line (with its traceback) per failure buried the log. Each message template at WARNING and above is written at
most once per interval; the next one let through says how many like it were left out."""

from __future__ import annotations

import logging
import time
from collections import Counter
from collections.abc import Callable

REPEAT_INTERVAL = 10.0
"""Seconds between two lines of the same template (of one logger)."""


class RepeatCap(logging.Filter):
    """At most one record per `interval` seconds of `clock` for each (logger, message template) at WARNING and above;
    the first one let through after some were left out says how many."""

    def __init__(self, interval: float = REPEAT_INTERVAL, clock: Callable[[], float] = time.monotonic) -> None:
        super().__init__()
        self.interval = interval
        self.clock = clock
        self._last: dict[tuple[str, str], float] = {}
        self._dropped: Counter[tuple[str, str]] = Counter()

    @property
    def dropped(self) -> int:
        """Lines left out and not yet reported."""
        return self._dropped.total()

    def filter(self, record: logging.LogRecord) -> bool:
        if record.levelno < logging.WARNING:
            return True
        key = (record.name, str(record.msg))
        now = self.clock()
        last = self._last.get(key)
        if last is not None and now - last < self.interval:
            self._dropped[key] += 1
            return False
        self._last[key] = now
        dropped = self._dropped.pop(key, 0)
        if dropped and last is not None:
            record.msg = f"{record.getMessage()} ({dropped} more like this in the last {now - last:.0f}s)"
            record.args = ()
        return True


REPEATS = RepeatCap()
"""One cap for the coordinator's and the headless sessions' loggers."""
