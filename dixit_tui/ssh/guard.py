"""Per-session limits, and the input guard that keeps one client from flooding the shared event loop."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass


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
    output_per_event: int = 512
    """Bytes of output (screen updates are the work input causes) that count as one input event against
    `event_rate`: a key that repaints much of the screen costs more than one that changes nothing."""


class InputGuard:
    """Token bucket on input bytes: input is read on the shared event loop, a flood disconnects the client."""

    def __init__(self, limits: SessionLimits, clock: Callable[[], float] = time.monotonic) -> None:
        self._rate = limits.input_rate
        self._burst = float(limits.input_burst)
        self._tokens = self._burst
        self._clock = clock
        self._last = self._clock()

    def check(self, nbytes: int) -> str | None:
        """Account for one read; returns why the client must be disconnected, or None."""
        now = self._clock()
        self._tokens = min(self._burst, self._tokens + (now - self._last) * self._rate)
        self._last = now
        self._tokens -= nbytes
        if self._tokens < 0:
            return "input flood"
        return None
