"""Lines out of a byte stream read in chunks, in linear time and bounded memory, whatever the packets look like.

asyncssh's own `readline` adds every packet to the line so far (a copy of all of it) and may hold a whole receive
window of one unfinished line: an unfinished line sent in 30-byte packets cost seconds of the shared loop. Here each
byte is looked at once (a line end is searched for in new data only), and a line longer than the limit is cut: its
first `limit + 1` bytes are handed on at once (so the session answers `line_too_long` once, before the line ends) and
the rest of it is dropped as it comes, never kept.
"""

from __future__ import annotations

from typing import Protocol

CHUNK = 64 * 1024
"""Bytes asked of the stream at once."""


class ChunkReader(Protocol):
    async def read(self, n: int = -1) -> bytes: ...


class LineReader:
    """`readline()` over a stream's `read(n)`: a line with its b"\\n" (the last one may lack it), b"" at the end.
    A line over `limit` bytes comes back as its first `limit + 1` bytes; the rest of it is skipped."""

    def __init__(self, stream: ChunkReader, limit: int, chunk: int = CHUNK) -> None:
        self._stream = stream
        self._limit = limit
        self._chunk = chunk
        self._buffer = bytearray()
        self._start = 0  # the next line starts here in _buffer
        self._scanned = 0  # bytes from _start on known to hold no line end
        self._skipping = False  # dropping the rest of an overlong line, up to its end
        self._eof = False

    async def readline(self) -> bytes:
        while True:
            line = self._take_line()
            if line is not None:
                return line
            if self._eof:
                rest = bytes(self._buffer[self._start :])
                self._reset()
                return rest
            data = await self._stream.read(self._chunk)
            if not data:
                self._eof = True
                if self._skipping:
                    self._skipping = False
                    self._reset()
                continue
            self._feed(data)

    def _feed(self, data: bytes) -> None:
        if self._skipping:
            end = data.find(b"\n")
            if end < 0:
                return
            self._skipping = False
            data = data[end + 1 :]
        if self._start and self._start >= len(self._buffer) // 2:  # compact: what was handed on goes
            del self._buffer[: self._start]
            self._start = 0
        self._buffer += data

    def _take_line(self) -> bytes | None:
        buffer = self._buffer
        begin = self._start + self._scanned
        end = buffer.find(b"\n", begin)
        if end >= 0 and end - self._start < self._limit:
            line = bytes(buffer[self._start : end + 1])
            self._start = end + 1
            self._scanned = 0
            if self._start == len(buffer):
                self._reset()
            return line
        if end < 0 and len(buffer) - self._start <= self._limit:
            self._scanned = len(buffer) - self._start
            return None
        # Over the limit: hand on its first limit + 1 bytes; drop the rest of it (now, and as it comes).
        cut = bytes(buffer[self._start : self._start + self._limit + 1])
        if end >= 0:
            self._start = end + 1
            self._scanned = 0
        else:
            self._reset()
            self._skipping = True
        return cut

    def _reset(self) -> None:
        self._buffer = bytearray()
        self._start = 0
        self._scanned = 0
