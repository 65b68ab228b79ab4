"""Lines typed at a terminal whose client is in raw mode (`ssh -t`): for the plain line mode (`dixit_tui.line_mode`)
on a PTY. The server does what a terminal's line discipline would: it echoes what is typed, Backspace erases, Enter
ends the line, Ctrl-C or Ctrl-D on an empty line ends the input, and escape sequences (arrow keys) are dropped. Lines
written to the terminal get a carriage return before each line feed."""

from __future__ import annotations

from typing import Any

MAX_LINE = 1000
"""Characters kept in one typed line; more are not echoed and not kept."""


class TerminalLines:
    def __init__(self, stdin: Any, stdout: Any) -> None:
        self._stdin = stdin
        self._stdout = stdout
        self._line = bytearray()
        self._pending = bytearray()
        self._escape = 0  # bytes of an escape sequence still to drop: 1 after ESC, 2 inside CSI
        self._eof = False
        self._after_cr = False

    async def readline(self) -> bytes:
        """The next line typed, with b"\\n"; b"" once the input ended."""
        while True:
            line = self._take()
            if line is not None:
                return line
            if self._eof:
                return b""
            data = await self._stdin.read(4096)
            if not data:
                self._eof = True
                continue
            self._pending += data

    def _take(self) -> bytes | None:
        echo = bytearray()
        try:
            while self._pending:
                byte = self._pending.pop(0)
                if byte != 0x0A:
                    self._after_cr = False
                if self._escape:
                    if self._escape == 1:
                        self._escape = 2 if byte in b"[O" else 0
                    elif 0x40 <= byte <= 0x7E:
                        self._escape = 0
                    continue
                if byte == 0x1B:
                    self._escape = 1
                elif byte in b"\r\n":
                    after_cr, self._after_cr = self._after_cr, byte == 0x0D
                    if byte == 0x0A and after_cr:  # (the \n of a \r\n)
                        continue
                    echo += b"\r\n"
                    line = bytes(self._line) + b"\n"
                    self._line.clear()
                    return line
                elif byte in (0x7F, 0x08):
                    if self._line:
                        self._drop_last_char()
                        echo += b"\b \b"
                elif byte in (0x03, 0x04):
                    if not self._line:
                        self._eof = True
                        echo += b"\r\n"
                        return b""
                elif byte == 0x15:  # Ctrl-U: the whole line
                    echo += b"\b \b" * len(self._line.decode("utf-8", "replace"))
                    self._line.clear()
                elif byte >= 0x20 and len(self._line) < MAX_LINE:
                    self._line.append(byte)
                    echo.append(byte)
            return None
        finally:
            if echo:
                self._stdout.write(bytes(echo))

    def _drop_last_char(self) -> None:
        """Erase the last character (all the bytes of a UTF-8 character)."""
        while self._line:
            byte = self._line.pop()
            if byte & 0xC0 != 0x80:
                return


class TerminalWriter:
    """A channel's stdout for lines: b"\\n" becomes b"\\r\\n" (a terminal in raw mode does not return the carriage)."""

    def __init__(self, stdout: Any) -> None:
        self._stdout = stdout

    def write(self, data: bytes) -> None:
        self._stdout.write(data.replace(b"\r\n", b"\n").replace(b"\n", b"\r\n"))

    async def drain(self) -> None:
        await self._stdout.drain()

    def get_extra_info(self, name: str, default: Any = None) -> Any:
        return self._stdout.get_extra_info(name, default)

    @property
    def channel(self) -> Any:
        """The SSH channel (its environment: the client's locale)."""
        return self._stdout.channel
