"""A TCP-level non-reader: a client that opens a big SSH window and then stops reading its socket. The server holds
at most `max_write_buffer` bytes for it and drops it once its output has not drained for `drain_timeout`."""

from __future__ import annotations

import asyncio
import time
from functools import partial
from pathlib import Path
from typing import Any

import asyncssh
import pytest
from rich.text import Text
from textual.app import App, ComposeResult
from textual.widgets import Static

from dixit_tui.ssh.server import Limits
from dixit_tui.ssh.session_runner import SessionIdentity
from dixit_tui.ssh.terminal import TerminalInfo
from tests.e2e.harness import PtyClient, connect, running_server, wait_for

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(120), pytest.mark.same_on_two_workers]

STALLED = 3
WINDOW = 256 * 1024 * 1024  # a huge SSH window: the channel never holds output back, the socket does


class Busy(App[None]):
    """Repaints the whole screen with new text 20 times a second (a lively table, seen by a frozen client)."""

    def __init__(self) -> None:
        super().__init__()
        self.frame = 0

    def compose(self) -> ComposeResult:
        yield Static(Text("ready"), id="board")

    def on_mount(self) -> None:
        self.set_interval(0.05, self.repaint)

    def repaint(self) -> None:
        self.frame += 1
        n = self.frame
        rows = ("".join(chr(0x21 + (n * 7 + row * 3 + col) % 90) for col in range(298)) for row in range(98))
        self.query_one("#board", Static).update(Text("\n".join(rows)))


def factory(identity: SessionIdentity, terminal: TerminalInfo) -> App[Any]:
    return Busy()


def _received_over(client: PtyClient, size: int) -> bool:
    return len(client.raw) > size


def rss_mb() -> float:
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


async def test_clients_that_stop_reading_their_socket_are_dropped_and_hold_little(tmp_path: Path) -> None:
    limits = Limits(drain_timeout=2.0, keepalive_interval=600)  # no keepalive to find them
    async with running_server(tmp_path, factory, limits=limits) as server:
        baseline = rss_mb()
        stalled: list[asyncssh.SSHClientConnection] = []
        for n in range(STALLED):
            client = await PtyClient.connect(server.port, f"frozen{n}", size=(300, 100), window=WINDOW)
            await client.wait_until(partial(_received_over, client, 100_000), timeout=20, what="the busy screen")
            transport: Any = client.conn._transport  # the client stops reading its socket
            transport.pause_reading()
            stalled.append(client.conn)
        peak = rss_mb()
        started = time.perf_counter()
        while server.session_count > 0 and time.perf_counter() - started < 60:
            peak = max(peak, rss_mb())
            await asyncio.sleep(0.05)  # (polled)
        dropped_after = time.perf_counter() - started
        assert server.session_count == 0, "the stalled clients are still connected"
        await wait_for(lambda: server.connection_count == 0, timeout=10)
        # the server still serves a player who reads
        conn = await connect(server.port, "reader")
        result = await asyncio.wait_for(conn.run("version"), 10)
        conn.close()
        assert result.exit_status == 2
        for stalled_conn in stalled:
            stalled_conn.abort()
    print(
        f"\n{STALLED} clients stopped reading their sockets (SSH window {WINDOW >> 20} MB): all dropped "
        f"{dropped_after:.1f} s later; test process RSS {baseline:.0f} -> peak {peak:.0f} MB "
        f"({(peak - baseline) / STALLED:.1f} MB per stalled session, client side included)"
    )


async def test_a_session_without_a_terminal_that_stops_reading_is_dropped_too(tmp_path: Path) -> None:
    """Like a `json` session: the server writes and awaits drain(), which an SSH window this big never holds back."""
    written = 0

    async def chatty(
        identity: SessionIdentity,
        command: str | None,
        stdin: asyncssh.SSHReader[bytes],
        stdout: asyncssh.SSHWriter[bytes],
    ) -> int:
        nonlocal written
        chunk = b"x" * 65_536
        while True:
            stdout.write(chunk)
            await stdout.drain()
            written += len(chunk)
            await asyncio.sleep(0.02)

    limits = Limits(drain_timeout=2.0, keepalive_interval=600)
    async with running_server(tmp_path, command_handler=chatty, limits=limits) as server:
        conn = await connect(server.port, "frozen")
        await conn.create_session(asyncssh.SSHClientSession, "json", encoding=None, window=WINDOW)
        await wait_for(lambda: written > 1_000_000, timeout=10, what="output flowing")
        transport: Any = conn._transport
        transport.pause_reading()
        started = time.perf_counter()
        await wait_for(lambda: server.connection_count == 0, timeout=30, what="the stalled client dropped")
        took = time.perf_counter() - started
        conn.abort()
    print(
        f"\na session without a terminal that stopped reading was dropped after {took:.1f} s, {written >> 20} MB sent"
    )
