"""Terminal input on its way to a session's app: bracketed pastes cut out, escape sequences checked, events paced.

Textual's parser ends a bracketed paste at any ESC inside it and replays the rest as keys, so `PasteSplitter` takes
pastes out before the parser sees them. `EventPacer` limits the input events one session hands to the shared loop
per second; the rest waits in a capped queue (`SessionLimits.max_backlog`).
"""

from __future__ import annotations

from dataclasses import dataclass

from dixit_tui.ssh.guard import TokenBucket

PASTE_START = "\x1b[200~"
PASTE_END = "\x1b[201~"

# Control characters a paste may not carry into the app (tab, newline and carriage return stay).
_PASTE_DROP = dict.fromkeys([*range(0x00, 0x09), 0x0B, 0x0C, *range(0x0E, 0x20), *range(0x7F, 0xA0)])


@dataclass(frozen=True)
class Typed:
    """Input outside a bracketed paste: keys, mouse and terminal reports, for the parser."""

    text: str


@dataclass(frozen=True)
class Pasted:
    """The text of one whole bracketed paste, control characters removed."""

    text: str


class PasteTooLarge(Exception):
    """A bracketed paste grew over the limit (an unterminated paste would grow for ever)."""


def _partial_marker(data: str, start: int, marker: str) -> int:
    """Length of the longest end of data[start:] that is the beginning of `marker` (a marker split across reads)."""
    for size in range(min(len(marker) - 1, len(data) - start), 0, -1):
        if marker.startswith(data[-size:]):
            return size
    return 0


class PasteSplitter:
    """Splits a session's input into `Typed` runs and whole `Pasted` texts, across reads (a read ending with the
    start of a paste marker is held back; `flush` hands it on when no more input came: a lone ESC is the Esc key)."""

    def __init__(self, max_paste: int) -> None:
        self._max_paste = max_paste
        self._in_paste = False
        self._paste: list[str] = []
        self._paste_size = 0
        self._held = ""

    @property
    def holding(self) -> bool:
        """Typed text is held back waiting for the rest of a possible paste marker."""
        return bool(self._held) and not self._in_paste

    def feed(self, text: str) -> list[Typed | Pasted]:
        """The pieces complete so far, in order (PasteTooLarge past the limit). Text held back from the previous read
        comes as a piece of its own: where a read ended matters (ESC ending a read, then `b`, is Esc and b)."""
        boundary = len(self._held)
        data = self._held + text
        self._held = ""
        out: list[Typed | Pasted] = []
        pos = 0
        while True:
            marker = PASTE_END if self._in_paste else PASTE_START
            index = data.find(marker, pos)
            if index < 0:
                end = len(data) - _partial_marker(data, pos, marker)
                self._take_split(data, pos, end, boundary, out)
                self._held = data[end:]
                return out
            self._take_split(data, pos, index, boundary, out)
            if self._in_paste:
                out.append(Pasted("".join(self._paste).translate(_PASTE_DROP)))
                self._paste.clear()
                self._paste_size = 0
            self._in_paste = not self._in_paste
            pos = index + len(marker)

    def flush(self) -> list[Typed | Pasted]:
        """Held-back typed text, now that no more input came to complete a marker."""
        if not self.holding:
            return []
        held, self._held = self._held, ""
        return [Typed(held)]

    def _take_split(self, data: str, start: int, end: int, boundary: int, out: list[Typed | Pasted]) -> None:
        if start < boundary < end and not self._in_paste:
            self._take(data[start:boundary], out)
            start = boundary
        self._take(data[start:end], out)

    def _take(self, text: str, out: list[Typed | Pasted]) -> None:
        if not text:
            return
        if not self._in_paste:
            out.append(Typed(text))
            return
        self._paste_size += len(text)
        if self._paste_size > self._max_paste:
            raise PasteTooLarge(f"paste over {self._max_paste} characters")
        self._paste.append(text)


class EventPacer(TokenBucket):
    """A token bucket on input events (a key, a mouse report, a paste): `take` says how long to wait first."""

    def take(self, count: int) -> float:
        """Spend `count` events; returns the seconds to wait before handing on more (0 when within the rate)."""
        self._refill()
        self._tokens -= count
        return 0.0 if self._tokens >= 0 else -self._tokens / self._rate

    def charge(self, count: int) -> None:
        """Spend `count` events' worth of work the session caused (its screen updates): later input waits for it,
        at most one burst's worth (`burst / rate` seconds)."""
        self.take(count)
        self._tokens = max(self._tokens, -self._burst)
