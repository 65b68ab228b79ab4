"""The input filter: typed input cut into plain text and whole escape sequences that Textual's parser reads safely.

Touches: `textual._ansi_sequences.ANSI_SEQUENCES_KEYS` (a private module), read: which two-character ESC sequences
and which odd-shaped CSI sequences Textual maps to keys. Why: Textual's XTermParser, fed a session's raw input,
could wait inside an unfinished sequence (taking the next keys into it), fail on a number past U+10FFFF, or turn Esc
and the key typed after it into Alt+key; the filter hands it only whole sequences it knows how to read, so the
filter must agree with the parser's own table.
"""

from __future__ import annotations

import re
from enum import Enum, auto

from textual._ansi_sequences import ANSI_SEQUENCES_KEYS

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

    @property
    def holding(self) -> bool:
        """Part of a sequence is held, waiting for more input or the escape delay."""
        return self._state is not _State.GROUND

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
        return []  # (an unfinished sequence or string is dropped)

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
                self._state = _State.ESCAPE
                self._sequence = [ESC]
                self._step(char, out, held_escape=False)
                return
            if char == _BEL or state is _State.STRING_ESCAPE:  # its end: dropped whole
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
            if len(sequence) > MAX_SEQUENCE:  # too long: dropped, up to its final byte
                self._state = _State.DROP_CSI
                self._sequence = []
        else:
            self._drop_broken(char)

    def _finish(self, sequence: str, out: list[str]) -> None:
        if len(sequence) <= MAX_SEQUENCE and _numbers_fit(sequence) and _fields_fit(sequence):  # else: dropped
            out.append(sequence)
        self._settle()

    def _drop_broken(self, char: str) -> None:
        """A sequence cut by a character that cannot be in it: drop what came, read the character again."""
        self._state = _State.GROUND
        self._sequence = [char]

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
