"""Per-session limits, and the input guard that keeps one client from flooding the shared event loop."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

PASTE_START = "\x1b[200~"
PASTE_END = "\x1b[201~"
_TAIL = len(PASTE_START) - 1  # enough to find a marker split across two reads


@dataclass(frozen=True)
class SessionLimits:
    """What one session may cost the server."""

    max_size: tuple[int, int] = (300, 100)
    """Largest terminal (columns, rows) rendered; bigger PTYs are clamped."""
    max_write_buffer: int = 1 << 20
    """Bytes of output queued for one client before it is considered frozen and disconnected."""
    input_rate: float = 64 * 1024
    """Sustained input, bytes per second (typing and mouse use a few hundred)."""
    input_burst: int = 256 * 1024
    """Input allowed at once on top of the rate."""
    max_paste: int = 64 * 1024
    """Characters in one bracketed paste (Textual buffers a paste until it ends)."""


class InputGuard:
    """Token bucket on input bytes plus a cap on the size of a bracketed paste.

    Both protect the server: input is parsed on the shared event loop, and an unterminated paste would
    otherwise grow Textual's paste buffer for ever.
    """

    def __init__(self, limits: SessionLimits, clock: Callable[[], float] = time.monotonic) -> None:
        self._rate = limits.input_rate
        self._burst = float(limits.input_burst)
        self._max_paste = limits.max_paste
        self._tokens = self._burst
        self._clock = clock
        self._last = self._clock()
        self._in_paste = False
        self._paste = 0
        self._tail = ""

    def check(self, nbytes: int, text: str) -> str | None:
        """Account for one read; returns why the client must be disconnected, or None."""
        now = self._clock()
        self._tokens = min(self._burst, self._tokens + (now - self._last) * self._rate)
        self._last = now
        self._tokens -= nbytes
        if self._tokens < 0:
            return "input flood"
        self._scan_paste(text)
        if self._paste > self._max_paste:
            return "paste too large"
        return None

    def _scan_paste(self, text: str) -> None:
        data = self._tail + text
        new = len(self._tail)  # characters before this index were counted on the previous read
        pos = 0
        while True:
            marker = PASTE_END if self._in_paste else PASTE_START
            index = data.find(marker, pos)
            end = len(data) if index < 0 else index
            if self._in_paste:
                self._paste += max(0, end - max(pos, new))
            if index < 0:
                break
            self._in_paste = not self._in_paste
            self._paste = 0
            pos = index + len(marker)
        self._tail = data[-_TAIL:]
