"""Terminal input on its way to a session's app: bracketed pastes cut out, escape sequences checked, events paced.

Textual's XTermParser ends a bracketed paste at any ESC inside it and replays the rest as key presses, so a
pasted text could press keys. `PasteSplitter` takes pastes out of the byte stream before the parser sees it;
the parser only ever gets typed input. `SequenceFilter` then cuts typed input into plain text and whole escape
sequences: a sequence the parser could choke on (a number past U+10FFFF, an overlong or broken sequence, an OSC or
DCS string) is dropped whole, and an ESC that starts no sequence is the Esc key, reported at once, so the key typed
after it is never merged into it. `EventPacer` limits how many input events one session hands to the
shared event loop per second: input past the rate waits in the session's queue, which is capped (`max_backlog` in
SessionLimits; past it the client is disconnected).
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum, auto

from textual._ansi_sequences import ANSI_SEQUENCES_KEYS

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
    """Splits a session's input into `Typed` runs and whole `Pasted` texts, across reads.

    A read that ends with the beginning of a paste marker is held back until the next read decides; `flush`
    hands held-back typed text on when no more input came (a lone ESC at the end of a read is the Esc key).
    """

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
        """The pieces complete so far, in order. Raises PasteTooLarge past the limit.

        Typed text held back from the previous read that does not turn out to be a marker comes as a piece of its
        own: where a read ended matters to the SequenceFilter (ESC at the end of a read, then `b`, is Esc and b).
        """
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


ESC = "\x1b"
# Longest escape sequence handed to the parser (Textual's parser gives up at 32 and replays the rest as keys).
MAX_SEQUENCE = 32
# Largest number a sequence may carry: the last Unicode code point (Textual turns some numbers into characters).
MAX_NUMBER = 0x10FFFF
# After ESC: these start a CSI (ESC [) or SS3 (ESC O) sequence, or a string (OSC, DCS, SOS, PM, APC) up to its end.
_CSI, _SS3 = "[", "O"
_STRINGS = frozenset("]PX^_")
_BEL = "\x07"
# Two-character ESC sequences Textual maps to keys of their own (Alt+Backspace deletes a word, Alt+b / Alt+f move by
# word), when the terminal sends them in one piece. (Not its macOS Option characters: Esc then 1 stays Esc, 1.)
_META = frozenset(
    k[1]
    for k, keys in ANSI_SEQUENCES_KEYS.items()
    if len(k) == 2 and k[0] == ESC and k[1] != ESC and isinstance(keys, tuple)
)
# Whole sequences Textual knows that are not of the standard CSI shape (rxvt's ESC[23$, the Linux console's ESC[[A).
_KNOWN = frozenset(k for k in ANSI_SEQUENCES_KEYS if len(k) > 2 and k.startswith(ESC + _CSI))
# A Kitty-protocol key as Textual reads it: its code and modifier fields must be plain numbers (Textual reads them
# with int(); the sub-fields a colon adds come only with Kitty flags this server does not ask for).
_KITTY_KEY = re.compile(r"\x1b\[((?:[\d:]*;?){2,3})([u~ABCDEFHPQRS])")
_PLAIN_FIELD = re.compile(r"\d*")


class _State(Enum):
    GROUND = auto()
    ESCAPE = auto()  # an ESC, and nothing after it yet
    CSI = auto()
    SS3 = auto()
    STRING = auto()  # an OSC/DCS/SOS/PM/APC string, dropped up to BEL or ESC \\
    STRING_ESCAPE = auto()  # an ESC inside such a string
    DROP_CSI = auto()  # an overlong CSI, dropped up to its final byte


class SequenceFilter:
    """Cuts typed input into plain text and whole escape sequences, for Textual's parser.

    `feed` returns pieces in order: a run of plain text (no ESC in it), a whole sequence that may be handed to the
    parser (it starts with ESC), or `ESC` alone, which is the Esc key. The parser then never waits in the middle
    of a sequence, and never sees one it could fail on:

    - CSI and SS3 sequences are handed on only when complete, at most MAX_SEQUENCE characters and with no number
      over MAX_NUMBER; others are dropped whole. A CSI cut by a control character or an ESC is dropped, and the
      character counts again (Ctrl-C inside a broken sequence is still Ctrl-C).
    - OSC, DCS, SOS, PM and APC strings (reports the server never asks for) are dropped up to BEL or ST.
    - ESC followed by anything else is the Esc key, then that key: the app binds no Alt keys, and Esc pressed just
      before a key (within the escape delay, or in one packet) must not turn that key into Alt+key. The exceptions
      are the two-character sequences Textual maps to keys of their own (Alt+Backspace...), when sent in one piece.
    - Whatever is unfinished at the end of a read is held: the next read decides, or `flush` once the escape delay
      passes with no more input (a lone ESC is then the Esc key; ESC [ or ESC O alone is Esc and that key; a longer
      unfinished sequence or string is dropped).
    """

    def __init__(self) -> None:
        self._state = _State.GROUND
        self._sequence: list[str] = []
        self._dropped = 0

    @property
    def holding(self) -> bool:
        """Part of a sequence is held, waiting for more input or the escape delay."""
        return self._state is not _State.GROUND

    @property
    def dropped(self) -> int:
        """How many sequences were dropped so far (for tests and logs)."""
        return self._dropped

    def feed(self, text: str) -> list[str]:
        out: list[str] = []
        held_escape = self._state is _State.ESCAPE  # an ESC that ended the previous read
        pos, size = 0, len(text)
        while pos < size:
            if self._state is _State.GROUND:
                end = text.find(ESC, pos)
                end = size if end < 0 else end
                if end > pos:
                    out.append(text[pos:end])
                if end < size:
                    self._state = _State.ESCAPE
                    self._sequence = [ESC]
                pos = end + 1
                continue
            char = text[pos]
            pos += 1
            self._step(char, out, held_escape)
            held_escape = False
            if self._state is _State.GROUND and self._sequence:  # the character was not part of a sequence
                self._sequence = []
                pos -= 1  # read it again
        return out

    def flush(self) -> list[str]:
        """No more input came within the escape delay: settle what is held."""
        state, sequence = self._state, "".join(self._sequence)
        self._state, self._sequence = _State.GROUND, []
        if state is _State.ESCAPE:
            return [ESC]
        if state in (_State.CSI, _State.SS3) and len(sequence) == 2:
            return [ESC, sequence[1]]  # Esc, then [ or O, typed just after it
        if state is not _State.GROUND:
            self._dropped += 1
        return []

    def _step(self, char: str, out: list[str], held_escape: bool) -> None:
        """One character after an ESC. Leaves `_sequence` non-empty in GROUND when `char` must be read again."""
        state = self._state
        sequence = self._sequence
        if state is _State.ESCAPE:
            if char == _CSI:
                self._state = _State.CSI
            elif char == _SS3:
                self._state = _State.SS3
            elif char in _STRINGS and not held_escape:
                self._state = _State.STRING
            elif char in _META and not held_escape:
                out.append(ESC + char)
                self._settle()
                return
            else:
                out.append(ESC)  # the Esc key; the character is read again on its own
                self._state = _State.GROUND
                return
            sequence.append(char)
            return
        if state in (_State.STRING, _State.STRING_ESCAPE):
            if state is _State.STRING_ESCAPE and char != "\\":
                # ESC and something other than \\ ends the string (dropped) and starts something new.
                self._drop()
                self._state = _State.ESCAPE
                self._sequence = [ESC]
                self._step(char, out, held_escape=False)
                return
            if char == _BEL or state is _State.STRING_ESCAPE:
                self._drop()
                self._settle()
            elif char == ESC:
                self._state = _State.STRING_ESCAPE
            return
        code = ord(char)
        if state is _State.DROP_CSI:
            if 0x40 <= code <= 0x7E:
                self._settle()
            elif not 0x20 <= code <= 0x3F:  # broken: the character counts again
                self._state = _State.GROUND
                self._sequence = [char]
            return
        sequence.append(char)
        whole = "".join(sequence)
        if state is _State.SS3:
            if 0x40 <= code <= 0x7E:
                self._finish(whole, out)
            elif not 0x30 <= code <= 0x39 or len(sequence) > MAX_SEQUENCE:  # ESC O 5 A: a modifier, at most
                self._drop_broken(char)
            return
        # CSI
        if whole in _KNOWN:
            self._finish(whole, out)
        elif whole == ESC + "[[":  # the Linux console's F1-F5: ESC [ [ A...
            return
        elif whole.startswith(ESC + "[M") and len(whole) <= 6:  # an X10 mouse report: 3 bytes of any value follow
            if len(whole) == 6:
                self._finish(whole, out)
        elif 0x40 <= code <= 0x7E:
            self._finish(whole, out)
        elif 0x20 <= code <= 0x3F:
            if len(sequence) > MAX_SEQUENCE:
                self._drop()
                self._state = _State.DROP_CSI
                self._sequence = []
        else:
            self._drop_broken(char)

    def _finish(self, sequence: str, out: list[str]) -> None:
        if len(sequence) <= MAX_SEQUENCE and _numbers_fit(sequence) and _fields_fit(sequence):
            out.append(sequence)
        else:
            self._dropped += 1
        self._settle()

    def _drop_broken(self, char: str) -> None:
        """A sequence cut by a character that cannot be in it: drop what came, read the character again."""
        self._dropped += 1
        self._state = _State.GROUND
        self._sequence = [char]

    def _drop(self) -> None:
        self._dropped += 1

    def _settle(self) -> None:
        self._state = _State.GROUND
        self._sequence = []


def _fields_fit(sequence: str) -> bool:
    """A Kitty key's code and modifiers are plain numbers (its third field, the text, may hold colons)."""
    match = _KITTY_KEY.fullmatch(sequence)
    if match is None:
        return True
    code, modifiers = [*match.group(1).split(";"), ""][:2]
    return bool(_PLAIN_FIELD.fullmatch(code) and _PLAIN_FIELD.fullmatch(modifiers))


def _numbers_fit(sequence: str) -> bool:
    number = 0
    for char in sequence:
        if "0" <= char <= "9":
            number = number * 10 + ord(char) - 48
            if number > MAX_NUMBER:
                return False
        else:
            number = 0
    return True


class EventPacer:
    """A token bucket on input events (a key, a mouse report, a paste): `take` says how long to wait first."""

    def __init__(self, rate: float, burst: int, clock: Callable[[], float] = time.monotonic) -> None:
        self._rate = rate
        self._burst = float(burst)
        self._tokens = self._burst
        self._clock = clock
        self._last = clock()

    def take(self, count: int) -> float:
        """Spend `count` events; returns the seconds to wait before handing on more (0 when within the rate)."""
        now = self._clock()
        self._tokens = min(self._burst, self._tokens + (now - self._last) * self._rate)
        self._last = now
        self._tokens -= count
        return 0.0 if self._tokens >= 0 else -self._tokens / self._rate

    def charge(self, count: int) -> None:
        """Spend `count` events' worth of work the session caused (its screen updates): later input waits for it,
        at most one burst's worth (`burst / rate` seconds)."""
        self.take(count)
        self._tokens = max(self._tokens, -self._burst)
