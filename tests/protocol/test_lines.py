"""LineReader: lines out of chunks in linear time, overlong lines cut once and dropped as they come."""

from __future__ import annotations

from dixit_tui.protocol.lines import LineReader


class Chunks:
    """A stream that hands out the given chunks, one per read, then b""."""

    def __init__(self, chunks: list[bytes]) -> None:
        self._chunks = list(reversed(chunks))

    async def read(self, n: int = -1) -> bytes:
        return self._chunks.pop() if self._chunks else b""


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


async def test_an_unfinished_line_in_small_packets_is_looked_at_once_and_dropped() -> None:
    limit = 16_384
    total = 2_200_000
    chunks = [b'{"cmd":"chat","text":"'] + [b"x" * 30] * (total // 30) + [b'"}\n', b'{"cmd":"start"}\n']
    reader = LineReader(Chunks(chunks), limit=limit)
    first = await reader.readline()
    assert len(first) == limit + 1  # answered at once, as too long
    assert reader.looked_at <= limit + 64
    assert await reader.readline() == b'{"cmd":"start"}\n'
    size = sum(len(c) for c in chunks)
    assert reader.looked_at <= size  # each byte once: no rescanning of the line so far
    assert reader.dropped == size - len(first) - len(b'{"cmd":"start"}\n')
    assert await reader.readline() == b""


async def test_a_long_line_within_one_chunk_is_cut_and_the_next_line_kept() -> None:
    reader = LineReader(Chunks([b"y" * 50 + b"\nok\n"]), limit=10)
    assert await _all_lines(reader) == [b"y" * 11, b"ok\n"]
    assert reader.dropped == 40
