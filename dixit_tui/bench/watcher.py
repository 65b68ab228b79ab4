"""A terminal session watching a table (or joining one, or opening the lobby): a PTY whose every output chunk is fed
into a pyte screen and checked for a visible change, with the times of its first paint and first table screen."""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any, Protocol

import asyncssh

from dixit_tui.bench.stats import CLOCK


class FrameCounting(Protocol):
    """The run, as a watcher sees it: whether terminals count output instead of emulating a terminal."""

    @property
    def count_frames(self) -> bool: ...


class WatchedTable(Protocol):
    """What a watcher needs of its table (dixit_tui/bench/table_run.py)."""

    @property
    def code(self) -> str: ...

    @property
    def run(self) -> FrameCounting: ...

    def screen_changed(self, watcher: Watcher, now: float) -> None: ...

    async def connect(
        self, host: str, port: int, username: str, timeout: float, kind: str
    ) -> asyncssh.SSHClientConnection: ...


class _WatcherSession(asyncssh.SSHClientSession[bytes]):
    def __init__(self, watcher: Watcher) -> None:
        self.watcher = watcher

    def data_received(self, data: bytes, datatype: asyncssh.DataType) -> None:
        self.watcher.on_data(data)

    def connection_lost(self, exc: Exception | None) -> None:
        self.watcher.closed = True


class Watcher:
    """A PTY session watching a table; every output chunk is fed to pyte and checked for a visible change."""

    def __init__(self, name: str, table: WatchedTable, size: tuple[int, int], command: str | None = "watch") -> None:
        import pyte

        self.name = name
        self.table = table
        self.code = table.code
        self.command = f"{command} {self.code}" if command else None  # None: a plain connection (the lobby)
        self.cols, self.rows = size
        self.screen = pyte.Screen(self.cols, self.rows)
        self.stream = pyte.ByteStream(self.screen)
        blank = self._row(0)
        self.lines: list[tuple[Any, ...]] = [blank] * self.rows
        self.screen.dirty.clear()
        self.conn: asyncssh.SSHClientConnection | None = None
        self.chan: asyncssh.SSHClientChannel[bytes] | None = None
        self.closed = False
        self.t_start = 0.0
        self.t_auth: float | None = None
        self.t_session = 0.0
        self.t_first_byte: float | None = None
        self.t_first_paint: float | None = None
        self.t_table: float | None = None
        self.last_change = 0.0
        self.last_byte = 0.0
        self.changes = 0
        self.bytes = 0
        self.changed = asyncio.Event()

    def _row(self, y: int) -> tuple[Any, ...]:
        line = self.screen.buffer[y]
        return tuple([line[x] for x in range(self.cols)])

    def text(self) -> str:
        return "\n".join(self.screen.display)

    def on_data(self, data: bytes) -> None:
        now = CLOCK()
        if self.t_first_byte is None:
            self.t_first_byte = now
        self.bytes += len(data)
        self.last_byte = now
        if self.t_table is not None and self.table.run.count_frames:
            # counting only (--compare-workers): once the table shows, any output is an update of this screen; no
            # terminal emulation, so the client's CPU goes to SSH alone
            self.last_change = now
            self.changes += 1
            self.table.screen_changed(self, now)
            self.changed.set()
            return
        self.stream.feed(data)
        dirty = self.screen.dirty
        if not dirty:
            return
        changed = False
        lines = self.lines
        for y in dirty:
            if 0 <= y < self.rows:
                row = self._row(y)
                if row != lines[y]:
                    lines[y] = row
                    changed = True
        dirty.clear()
        if not changed:
            return
        self.last_change = now
        self.changes += 1
        if self.t_first_paint is None and any(ch.data.strip() for row in lines for ch in row):
            self.t_first_paint = now
        if self.t_table is None and f"table {self.code}" in self.text():
            self.t_table = now
        self.table.screen_changed(self, now)
        self.changed.set()

    async def open(self, host: str, port: int, timeout: float) -> None:
        await self.connect(host, port, timeout)
        await self.start_session(timeout)

    async def connect(self, host: str, port: int, timeout: float) -> None:
        """The SSH connection, authenticated, without its session yet."""
        self.t_start = CLOCK()
        self.conn = await self.table.connect(host, port, self.name, timeout, "terminal")
        self.t_auth = CLOCK()

    async def start_session(self, timeout: float) -> None:
        """The PTY session (its SSH command: `watch CODE`, `join CODE` or none)."""
        assert self.conn is not None
        self.t_session = CLOCK()
        self.chan, _ = await asyncio.wait_for(
            self.conn.create_session(
                lambda: _WatcherSession(self),
                self.command,
                term_type="xterm-256color",
                term_size=(self.cols, self.rows),
                encoding=None,
            ),
            timeout,
        )

    async def wait_table(self, timeout: float, lobby: bool = False) -> bool:
        """Until the table screen shows (with `lobby`: until the first paint)."""
        deadline = CLOCK() + timeout
        while (self.t_first_paint if lobby else self.t_table) is None and not self.closed:
            left = deadline - CLOCK()
            if left <= 0:
                return False
            self.changed.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.changed.wait(), min(left, 0.5))
        return (self.t_first_paint if lobby else self.t_table) is not None

    def send(self, data: bytes) -> None:
        if self.chan is not None and not self.closed:
            self.chan.write(data)

    async def close(self) -> None:
        if self.conn is not None:
            self.conn.close()
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self.conn.wait_closed(), 5.0)
        self.closed = True
