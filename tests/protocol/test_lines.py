"""LineReader: lines out of chunks in linear time, overlong lines cut once and dropped as they come."""

from __future__ import annotations

from typing import Any, SupportsIndex

import pytest

from dixit_tui.protocol import lines
from dixit_tui.protocol.lines import LineReader


class Looked:
    """What a reader did with the bytes it was given, counted from the outside: the bytes it searched for a line end
    (in the chunks it read and in its own buffer) and the most it ever held."""

    def __init__(self) -> None:
        self.at = 0
        self.most_held = 0

    def searched(self, data: bytes | bytearray, start: SupportsIndex | None, end: int) -> None:
        begin = int(start or 0)
        self.at += (len(data) if end < 0 else end + 1) - begin
        self.most_held = max(self.most_held, len(data)) if isinstance(data, bytearray) else self.most_held


@pytest.fixture
def looked(monkeypatch: pytest.MonkeyPatch) -> Looked:
    """The reader's buffers (it makes them with `bytearray()`) and the chunks it reads count the bytes it searches."""
    counts = Looked()

    class CountedBuffer(bytearray):
        def find(self, sub: Any, start: SupportsIndex | None = 0, *args: Any) -> int:
            end = super().find(sub, start, *args)
            counts.searched(self, start, end)
            return end

    monkeypatch.setattr(lines, "bytearray", CountedBuffer, raising=False)
    return counts


class CountedChunk(bytes):
    looked: Looked | None = None

    def find(self, sub: Any, start: SupportsIndex | None = 0, *args: Any) -> int:
        end = super().find(sub, start, *args)
        if self.looked is not None:
            self.looked.searched(self, start, end)
        return end


class Chunks:
    """A stream that hands out the given chunks, one per read, then b"" (each chunk counting the bytes searched in
    it, with `looked`)."""

    def __init__(self, chunks: list[bytes], looked: Looked | None = None) -> None:
        self._chunks = list(reversed(chunks))
        self._looked = looked

    async def read(self, n: int = -1) -> bytes:
        if not self._chunks:
            return b""
        chunk = CountedChunk(self._chunks.pop())
        chunk.looked = self._looked
        return chunk


async def _all_lines(reader: LineReader) -> list[bytes]:
    lines: list[bytes] = []
    for _ in range(100_000):
        line = await reader.readline()
        if not line:
            return lines
        lines.append(line)
    raise AssertionError("no end")


async def test_lines_split_across_chunks_come_back_whole() -> None:
    reader = LineReader(Chunks([b'{"a"', b":1}\n{", b'"b":2}\n\n', b"tail"]), limit=100)
    assert await _all_lines(reader) == [b'{"a":1}\n', b'{"b":2}\n', b"\n", b"tail"]


async def test_an_unfinished_line_in_small_packets_is_looked_at_once_and_dropped(looked: Looked) -> None:
    limit = 16_384
    total = 2_200_000
    chunks = [b'{"cmd":"chat","text":"'] + [b"x" * 30] * (total // 30) + [b'"}\n', b'{"cmd":"start"}\n']
    reader = LineReader(Chunks(chunks, looked), limit=limit)
    first = await reader.readline()
    assert len(first) == limit + 1  # answered at once, as too long
    assert looked.at <= limit + 64
    assert await reader.readline() == b'{"cmd":"start"}\n'
    size = sum(len(c) for c in chunks)
    assert looked.at <= size  # each byte once: no rescanning of the line so far
    assert looked.most_held <= limit + 64  # the rest of the overlong line was dropped as it came, never kept
    assert await reader.readline() == b""


async def test_a_long_line_within_one_chunk_is_cut_and_the_next_line_kept() -> None:
    reader = LineReader(Chunks([b"y" * 50 + b"\nok\n"]), limit=10)
    assert await _all_lines(reader) == [b"y" * 11, b"ok\n"]  # the other 40 bytes of the long line are dropped
