"""Per-session limits, and the input guard that keeps one client from flooding the shared event loop."""

from __future__ import annotations

import contextlib
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class SessionLimits:
    """What one session may cost the server."""

    max_size: tuple[int, int] = (300, 100)
    """Largest terminal (columns, rows) rendered; bigger PTYs are clamped."""
    max_write_buffer: int = 1 << 20
    """Bytes of output queued for one client before it is considered frozen and disconnected."""
    input_rate: float = 64 * 1024
    """Sustained input, bytes per second (typing and mouse use a few hundred); more disconnects the client."""
    input_burst: int = 256 * 1024
    """Input allowed at once on top of the rate."""
    max_paste: int = 64 * 1024
    """Characters in one bracketed paste (held until it ends); more disconnects the client."""
    event_rate: float = 400.0
    """Input events (keys, mouse reports, pastes) handed to the app per second; beyond it input waits."""
    event_burst: int = 200
    """Events handed on at once on top of the rate."""
    max_backlog: int = 16 * 1024
    """Characters of input read but not yet handed on; more disconnects the client (a key flood)."""
    resize_interval: float = 0.25
    """Seconds between two window sizes handed to the app (each is a relayout); the last size asked for wins."""
    cpu_share: float = 0.1
    """Share of one core a session's app may use on average (measured: the loop's CPU time in that app's callbacks);
    beyond it the session's input waits, so one client cannot take the loop from everyone else."""
    cpu_burst: float = 0.3
    """Seconds of loop time a session may use at once on top of `cpu_share` (one screen change costs a few ms to
    0.2 s; the first screen, drawn before any input, is not counted). A session that keeps using more than its share
    is held to it after `cpu_burst / (use - cpu_share)` seconds."""
    drain_timeout: float = 10.0
    """Seconds a client's output may stay undrained (more than `DRAIN_LOW` bytes waiting) before it is dropped."""
    output_per_event: int = 512
    """Bytes of output (screen updates are the work input causes) that count as one input event against
    `event_rate`: a key that repaints much of the screen costs more than one that changes nothing."""


DRAIN_LOW = 64 * 1024
"""Output waiting for a client below this is draining normally."""


def output_backlog(channel: Any) -> int:
    """Bytes of output waiting for a client: in its channel (beyond the SSH window) and in the connection's socket
    transport (a client that opened a big window and stopped reading its socket fills only the latter)."""
    size = 0
    with contextlib.suppress(Exception):
        size += int(channel.get_write_buffer_size())
    with contextlib.suppress(Exception):
        transport = getattr(channel.get_connection(), "_transport", None)
        if transport is not None:
            size += int(transport.get_write_buffer_size())
    return size


class TokenBucket:
    """`rate` tokens a second, at most `burst` at once, on `clock`."""

    def __init__(self, rate: float, burst: float, clock: Callable[[], float] = time.monotonic) -> None:
        self._rate, self._burst, self._tokens = rate, float(burst), float(burst)
        self._clock = clock
        self._last = clock()

    def _refill(self) -> None:
        now = self._clock()
        self._tokens = min(self._burst, self._tokens + (now - self._last) * self._rate)
        self._last = now


class InputGuard(TokenBucket):
    """Token bucket on input bytes: input is read on the shared event loop, a flood disconnects the client."""

    def __init__(self, limits: SessionLimits, clock: Callable[[], float] = time.monotonic) -> None:
        super().__init__(limits.input_rate, limits.input_burst, clock)

    def check(self, nbytes: int) -> str | None:
        """Account for one read; returns why the client must be disconnected, or None."""
        self._refill()
        self._tokens -= nbytes
        return "input flood" if self._tokens < 0 else None


class WorkBudget(TokenBucket):
    """A token bucket on the loop time a session's app used (`used` only grows): `wait` says how long its input
    should wait so that it uses at most `share` of a core on average, with `burst` seconds at once. What was used
    before the first `wait` (the app's start and first screen, before any input) is not counted."""

    def __init__(self, share: float, burst: float, clock: Callable[[], float] = time.monotonic) -> None:
        super().__init__(share, burst, clock)
        self._used: float | None = None

    def wait(self, used: float) -> float:
        if self._used is None:
            self._used = used
        self._refill()
        self._tokens -= max(0.0, used - self._used)
        self._used = used
        return 0.0 if self._tokens >= 0 or self._rate <= 0 else -self._tokens / self._rate


class LogRate(logging.Filter, TokenBucket):
    """Caps the lines a logger writes (a token bucket: `rate` a second, `burst` at once), so no client can make the
    log grow faster than that by connecting, failing or leaving over and over. The first line let through after some
    were dropped says how many."""

    def __init__(self, rate: float = 20.0, burst: int = 200, clock: Callable[[], float] = time.monotonic) -> None:
        logging.Filter.__init__(self)
        TokenBucket.__init__(self, rate, burst, clock)
        self.dropped = 0

    def filter(self, record: logging.LogRecord) -> bool:
        if record.levelno < logging.INFO:  # DEBUG is off on a public server; whoever turns it on wants it all
            return True
        self._refill()
        if self._tokens < 1:
            self.dropped += 1
            return False
        self._tokens -= 1
        if self.dropped:
            record.msg = f"{record.getMessage()} ({self.dropped} log lines dropped before this one)"
            record.args = ()
            self.dropped = 0
        return True


LOG_RATE = LogRate()
"""One budget shared by the SSH layer's loggers and the headless sessions' logger."""
